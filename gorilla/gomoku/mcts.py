"""Monte-Carlo tree search for Gomoku, as Zero+ had one beside its alpha-beta: to compare.

The tree lives in preallocated arrays (``new_tree``); one call of the numba kernel
:func:`run_iterations` runs a batch of iterations on the board ``bd`` (placing and
removing stones incrementally, so the board is unchanged afterwards):

- selection by UCB1 over the children's win rates, unvisited children first in the
  order of their threat scores;
- expansion of a leaf into at most ``width`` children: a five of its own if there is
  one, else the blocks of the opponent's five, else the best points by the threat
  scores of both sides (the PVS's own move order);
- a playout that wins with a five, blocks the opponent's five, and otherwise mostly plays
  the point near the stones with the best threat score of both sides, sometimes a random one;
- back-up of the result (1 win, 0.5 draw) for the side that made each move.

A child whose move makes five is a proven win for its mover and is never played out.
:class:`gorilla.gomoku.agents.MCTSAgent` calls the kernel in batches until its time is up.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gorilla.gomoku import rules as R
from gorilla.gomoku.vcf import five_points, forced_moves, playable

# rows of the int32 tree array
T_MOVE, T_PARENT, T_FIRST, T_NCHILD, T_VISITS, T_TERM = range(6)
NROWS = 6
TERM_NONE, TERM_WIN = 0, 1
UCB_C = 0.7
MAX_PATH = 640
GREEDY = 0.75  # share of playout moves that take the best point by threat score


def new_tree(capacity: int = 1 << 20) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Empty tree arrays: int32[NROWS, capacity], float64[capacity] (wins of each node's mover),
    int64[2] (nodes used, iterations run)."""
    ti = np.zeros((NROWS, capacity), dtype=np.int32)
    tf = np.zeros(capacity, dtype=np.float64)
    meta = np.zeros(2, dtype=np.int64)
    reset_tree(ti, tf, meta)
    return ti, tf, meta


def reset_tree(ti: np.ndarray, tf: np.ndarray, meta: np.ndarray) -> None:
    """Just the root: no move, no parent, no children."""
    ti[:, 0] = 0
    ti[T_MOVE, 0] = -1
    ti[T_PARENT, 0] = -1
    tf[0] = 0.0
    meta[0] = 1
    meta[1] = 0


@njit(cache=True, nogil=True)
def seed_rng(seed: int) -> None:
    """Seed numba's random numbers (the playouts')."""
    np.random.seed(seed)


@njit(cache=True, nogil=True)
def candidates(bd, c: int, out: np.ndarray, width: int) -> int:
    """The moves a node of colour c to move expands into, best first, into out[:n]."""
    o = 3 - c
    buf = np.empty(4, dtype=np.int32)
    m = forced_moves(bd, c, buf)
    if m > 0:
        out[:m] = buf[:m]
        return m
    n = bd[6][R.S_N]
    w = bd[6][R.S_W]
    if bd[6][R.S_STONES] == 0:
        out[0] = (n // 2 + R.PAD) * w + n // 2 + R.PAD
        return 1
    scores = np.full(width, -1, dtype=np.int64)
    m = 0
    for y in range(n):
        base = (y + R.PAD) * w + R.PAD
        for x in range(n):
            p = base + x
            if bd[0][p] != R.EMPTY or bd[5][p] == 0 or not playable(bd, p, c):
                continue
            s = np.int64((bd[4][c, p] * 5) // 4 + bd[4][o, p])
            if m < width:
                i = m
                m += 1
            elif s > scores[width - 1]:
                i = width - 1
            else:
                continue
            while i > 0 and scores[i - 1] < s:  # insertion into the sorted top list
                scores[i] = scores[i - 1]
                out[i] = out[i - 1]
                i -= 1
            scores[i] = s
            out[i] = p
    return m


@njit(cache=True, nogil=True)
def _playout_move(bd, c: int, near: np.ndarray) -> int:
    """A playout's move for c: its five, a block of the opponent's five, else mostly (GREEDY) the
    near point with the best threat score of both sides, sometimes a random near point; -1 when
    nothing is playable."""
    o = 3 - c
    buf = np.empty(4, dtype=np.int32)
    if five_points(bd, c, buf) > 0:
        return buf[0]
    if five_points(bd, o, buf) > 0:
        return buf[0]
    n = bd[6][R.S_N]
    w = bd[6][R.S_W]
    k = 0
    best = -1
    best_s = -1.0
    for y in range(n):
        base = (y + R.PAD) * w + R.PAD
        for x in range(n):
            p = base + x
            if bd[0][p] == R.EMPTY and bd[5][p] > 0:
                near[k] = p
                k += 1
                s = (bd[4][c, p] * 5) // 4 + bd[4][o, p] + np.random.random()  # random ties
                if s > best_s and playable(bd, p, c):
                    best_s = s
                    best = p
    if k == 0 or best < 0:
        return -1
    if np.random.random() < GREEDY:
        return best
    for _ in range(4):
        p = near[np.random.randint(k)]
        if playable(bd, p, c):
            return p
    return best


@njit(cache=True, nogil=True)
def _playout(bd, c: int, path: np.ndarray, depth: int, max_moves: int, near: np.ndarray) -> tuple[int, int]:
    """Play on from bd with c to move (stones recorded in path from depth); (winner or 0, depth)."""
    full = bd[6][R.S_N] * bd[6][R.S_N]
    for _ in range(max_moves):
        if bd[6][R.S_STONES] >= full or depth >= path.shape[0]:
            return 0, depth
        p = _playout_move(bd, c, near)
        if p < 0:
            return 0, depth
        if not R.legal(bd, p, c):  # a forced block that is forbidden: c loses
            return 3 - c, depth
        win = R.is_win(bd, p, c)
        R.place(bd, p, c)
        path[depth] = p
        depth += 1
        if win:
            return c, depth
        c = 3 - c
    return 0, depth


@njit(cache=True, nogil=True)
def run_iterations(
    bd, root_c: int, ti: np.ndarray, tf: np.ndarray, meta: np.ndarray, iters: int, width: int, max_moves: int
) -> int:
    """Run iters iterations from the root (root_c to move); returns the iterations run."""
    cap = ti.shape[1]
    path = np.empty(MAX_PATH, dtype=np.int32)
    nodes = np.empty(MAX_PATH, dtype=np.int32)
    cand = np.empty(max(width, 4), dtype=np.int32)
    near = np.empty(bd[0].shape[0], dtype=np.int32)
    for _ in range(iters):
        node = 0
        c = root_c
        depth = 0
        nn = 0
        nodes[nn] = 0
        nn += 1
        winner = -1
        # selection
        while ti[T_NCHILD, node] > 0:
            first = ti[T_FIRST, node]
            nc = ti[T_NCHILD, node]
            pv = ti[T_VISITS, node]
            logn = np.log(max(1.0, float(pv)))
            best = -1
            best_v = -1e18
            for j in range(nc):
                ch = first + j
                v = ti[T_VISITS, ch]
                if ti[T_TERM, ch] == TERM_WIN:
                    best = ch
                    break
                u = 1e9 - j if v == 0 else tf[ch] / v + UCB_C * np.sqrt(logn / v)
                if u > best_v:
                    best_v = u
                    best = ch
            node = best
            p = ti[T_MOVE, node]
            R.place(bd, p, c)
            path[depth] = p
            depth += 1
            nodes[nn] = node
            nn += 1
            if ti[T_TERM, node] == TERM_WIN:
                winner = c
                break
            c = 3 - c
            if depth >= MAX_PATH - 2:
                break
        # expansion
        if winner < 0 and ti[T_NCHILD, node] == 0 and (node == 0 or ti[T_VISITS, node] > 0):
            m = candidates(bd, c, cand, width)
            if m > 0 and meta[0] + m <= cap:
                first = meta[0]
                meta[0] += m
                ti[T_FIRST, node] = first
                ti[T_NCHILD, node] = m
                for j in range(m):
                    ch = first + j
                    ti[T_MOVE, ch] = cand[j]
                    ti[T_PARENT, ch] = node
                    ti[T_FIRST, ch] = 0
                    ti[T_NCHILD, ch] = 0
                    ti[T_VISITS, ch] = 0
                    ti[T_TERM, ch] = TERM_WIN if R.is_win(bd, cand[j], c) else TERM_NONE
                    tf[ch] = 0.0
                node = first  # play the first (best-ordered) child
                p = ti[T_MOVE, node]
                if ti[T_TERM, node] == TERM_WIN:
                    winner = c
                R.place(bd, p, c)
                path[depth] = p
                depth += 1
                nodes[nn] = node
                nn += 1
                c = 3 - c
        # playout
        if winner < 0:
            winner, depth = _playout(bd, c, path, depth, max_moves, near)
        for i in range(depth - 1, -1, -1):
            R.remove(bd, path[i])
        # back-up: a node's wins count for the colour that made its move
        mover = root_c
        for i in range(nn):
            nd = nodes[i]
            ti[T_VISITS, nd] += 1
            if i > 0:
                if winner == mover:
                    tf[nd] += 1.0
                elif winner == 0:
                    tf[nd] += 0.5
                mover = 3 - mover
        meta[1] += 1
    return iters


def best_line(ti: np.ndarray, tf: np.ndarray, limit: int = 10) -> tuple[list[int], float, int]:
    """The most visited line from the root (moves), the first move's win rate and visits."""
    line: list[int] = []
    node = 0
    rate, visits = 0.5, 0
    while ti[T_NCHILD, node] > 0 and len(line) < limit:
        first, nc = int(ti[T_FIRST, node]), int(ti[T_NCHILD, node])
        kids = range(first, first + nc)
        best = max(kids, key=lambda k: (ti[T_TERM, k] == TERM_WIN, ti[T_VISITS, k]))
        if ti[T_VISITS, best] == 0 and ti[T_TERM, best] != TERM_WIN:
            break
        if not line:
            v = int(ti[T_VISITS, best])
            rate = 1.0 if ti[T_TERM, best] == TERM_WIN else float(tf[best]) / max(1, v)
            visits = v
        line.append(int(ti[T_MOVE, best]))
        node = best
    return line, rate, visits


def root_children(ti: np.ndarray, tf: np.ndarray) -> list[tuple[int, int, float]]:
    """(move, visits, win rate) of the root's children, most visited first."""
    first, nc = int(ti[T_FIRST, 0]), int(ti[T_NCHILD, 0])
    out = [
        (int(ti[T_MOVE, k]), int(ti[T_VISITS, k]), float(tf[k]) / max(1, int(ti[T_VISITS, k])))
        for k in range(first, first + nc)
    ]
    return sorted(out, key=lambda t: -t[1])
