"""Alpha-beta: negamax with principal-variation search, iterative deepening,
a Zobrist-keyed transposition table and killer/history move ordering.

A general agent (any size, any ruleset) that is strongest on small boards: on
5x5 Little-Go it searches the last moves before the move cap exactly. Values
are in hundredths of a point from the side to move's point of view; a
terminal position (two passes or the move cap) is worth its exact score
under the ruleset (stones only for Little-Go, area otherwise), so the search
maximises the final margin.

The search runs in numba kernels on stacks of preallocated board copies; the
Python class only deepens, keeps time and reports progress.
"""

from __future__ import annotations

import threading
import time

import numpy as np
from numba import njit

from gorilla.ai.agent import Agent, Candidate, MoveRequest, Progress, ProgressFn
from gorilla.rules import board as K
from gorilla.rules.board import (
    BLACK,
    COLOR,
    EMPTY,
    HEAD,
    PASS,
    S_NEMPTY,
    S_PASSES,
    S_TOMOVE,
    S_W,
    WHITE,
)
from gorilla.rules.game import Game

INF = 1 << 40
TT_BITS = 20

# slots of the int64 control array
C_NODES, C_ABORT, C_KOMI, C_STONES, C_PRUNE, C_ROOTDEPTH, C_ROOM, C_OWN_ATARI, C_THEIR_ATARI, NCTL = range(10)
# the evaluation's default weights, in hundredths of a point (settings room=, own_atari=, their_atari=)
ROOM = 40  # Little-Go: an empty point walled in by one colour, room for a later stone
OWN_ATARI = 30  # per stone of the mover's group in atari (it must be saved)
THEIR_ATARI = 80  # per stone of the opponent's group in atari (the mover can take it)
# columns of the transposition table's data
T_VALUE, T_DEPTH, T_FLAG, T_MOVE = range(4)
EXACT, LOWER, UPPER = 1, 2, 3

_SIDE_KEY = np.int64(0x5DEECE66D1234567)
_LEFT_KEY = np.int64(0x2545F4914F6CDD1D)
_PASS_KEY = np.int64(0x1B873593A1B2C3D4)
_KO_KEY = np.int64(0x7FEB352D4B5A6978)


@njit(cache=True, nogil=True)
def _terminal(b: np.ndarray, st: np.ndarray, ctl: np.ndarray) -> int:
    """Black's exact margin in hundredths of a point (stones or area counting)."""
    return 100 * K.quick_area_score(b, st, ctl[C_STONES] != 0) - ctl[C_KOMI]


@njit(cache=True, nogil=True)
def _evaluate(b: np.ndarray, st: np.ndarray, ctl: np.ndarray, left: int) -> int:
    """Black's heuristic margin: the count now, plus eyes and atari threats while moves remain."""
    base = _terminal(b, st, ctl)
    w = st[S_W]
    extra = 0
    tomove = st[S_TOMOVE]
    for p in range(w * w):
        c = b[COLOR, p]
        if c == EMPTY:
            if ctl[C_STONES] != 0:
                # an empty point walled in by one colour is room for a later stone
                owner = K.surrounding_colour(b, w, p)
                if owner == BLACK:
                    extra += ctl[C_ROOM]
                elif owner == WHITE:
                    extra -= ctl[C_ROOM]
        elif (c == BLACK or c == WHITE) and b[HEAD, p] == p and K.in_atari(b, p):
            # a group in atari: the side to move can take it (or must save it)
            size = b[K.GSIZE, p]
            sgn = 1 if c == BLACK else -1
            if c == tomove:
                extra -= sgn * ctl[C_OWN_ATARI] * size
            else:
                extra -= sgn * ctl[C_THEIR_ATARI] * size
    if left <= 1:
        extra = 0
    return base + extra


@njit(cache=True, nogil=True, inline="always")
def _key(st: np.ndarray, left: int) -> np.int64:
    return (
        st[K.S_HASH]
        ^ (_SIDE_KEY * st[S_TOMOVE])
        ^ (_LEFT_KEY * np.int64(left + 1))
        ^ (_PASS_KEY * st[S_PASSES])
        ^ (_KO_KEY * st[K.S_KO])
    )


@njit(cache=True, nogil=True)
def _gen_moves(
    b: np.ndarray,
    st: np.ndarray,
    ttmove: int,
    killers: np.ndarray,
    history: np.ndarray,
    ply: int,
    mv: np.ndarray,
    sc: np.ndarray,
) -> int:
    """Legal moves plus pass at mv[ply], best first."""
    c = st[S_TOMOVE]
    o = 3 - c
    w = st[S_W]
    n = 0
    for i in range(st[S_NEMPTY]):
        p = b[K.ELIST, i]
        if K.check_move(b, st, p, c) != K.OK:
            continue
        s = history[c, p]
        for q in (p - 1, p + 1, p - w, p + w):
            cq = b[COLOR, q]
            if cq == o and K.in_atari(b, b[HEAD, q]):
                s += 1_000_000 + 1000 * b[K.GSIZE, b[HEAD, q]]
            elif cq == c and K.in_atari(b, b[HEAD, q]):
                s += 500_000
        if p == killers[ply, 0] or p == killers[ply, 1]:
            s += 200_000
        if p == ttmove:
            s += 100_000_000
        mv[ply, n] = p
        sc[ply, n] = s
        n += 1
    # pass: last, unless the table says otherwise or the opponent just passed
    s = -1
    if ttmove == PASS:
        s = 100_000_000
    elif st[S_PASSES] > 0:
        s = 150_000
    mv[ply, n] = PASS
    sc[ply, n] = s
    n += 1
    for i in range(1, n):  # insertion sort, descending
        m = mv[ply, i]
        v = sc[ply, i]
        j = i - 1
        while j >= 0 and sc[ply, j] < v:
            mv[ply, j + 1] = mv[ply, j]
            sc[ply, j + 1] = sc[ply, j]
            j -= 1
        mv[ply, j + 1] = m
        sc[ply, j + 1] = v
    return n


@njit(cache=True, nogil=True)
def _negamax(
    bs: np.ndarray,
    ss: np.ndarray,
    zob: np.ndarray,
    ply: int,
    depth: int,
    alpha: int,
    beta: int,
    left: int,
    ctl: np.ndarray,
    tables: tuple,
) -> int:
    """The value of (bs[ply], ss[ply]) for the side to move, searched depth plies in (alpha, beta).

    tables is (tt_keys, tt_data, killers, history, mv, sc): the transposition table,
    the ordering tables and the move lists by ply.
    """
    tt_keys, tt_data, killers, history, mv, sc = tables
    ctl[C_NODES] += 1
    if ctl[C_ABORT] != 0:
        return 0
    b = bs[ply]
    st = ss[ply]
    sgn = 1 if st[S_TOMOVE] == BLACK else -1
    if st[S_PASSES] >= 2 or left <= 0:
        return sgn * _terminal(b, st, ctl)
    if depth <= 0 or ply >= bs.shape[0] - 1:
        return sgn * _evaluate(b, st, ctl, left)
    prune = ctl[C_PRUNE] != 0
    key = _key(st, left)
    slot = key & ((1 << TT_BITS) - 1)
    ttmove = -3
    if prune and tt_keys[slot] == key:
        ttmove = tt_data[slot, T_MOVE]
        if tt_data[slot, T_DEPTH] >= depth and ply > 0:
            v = tt_data[slot, T_VALUE]
            f = tt_data[slot, T_FLAG]
            if f == EXACT or (f == LOWER and v >= beta) or (f == UPPER and v <= alpha):
                return v
    n = _gen_moves(b, st, ttmove, killers, history, ply, mv, sc)
    alpha0 = alpha
    best = -INF
    best_move = PASS
    c = st[S_TOMOVE]
    for i in range(n):
        m = mv[ply, i]
        bs[ply + 1, :, :] = b
        ss[ply + 1, :] = st
        if m == PASS:
            K.play_pass(ss[ply + 1])
        else:
            K.place(bs[ply + 1], ss[ply + 1], zob, m, c)
        if i == 0 or not prune:
            v = -_negamax(bs, ss, zob, ply + 1, depth - 1, -beta, -alpha, left - 1, ctl, tables)
        else:  # principal-variation search: a null window first, the full one if it fails high
            v = -_negamax(bs, ss, zob, ply + 1, depth - 1, -alpha - 1, -alpha, left - 1, ctl, tables)
            if alpha < v < beta:
                v = -_negamax(bs, ss, zob, ply + 1, depth - 1, -beta, -v, left - 1, ctl, tables)
        if ctl[C_ABORT] != 0:
            return 0
        if v > best:
            best = v
            best_move = m
            if ply == 0:
                ctl[C_ROOTDEPTH] = m  # best root move so far
        if best > alpha:
            alpha = best
        if prune and alpha >= beta:
            if m != PASS:
                if killers[ply, 0] != m:
                    killers[ply, 1] = killers[ply, 0]
                    killers[ply, 0] = m
                history[c, m] += depth * depth
            break
    flag = EXACT
    if best <= alpha0:
        flag = UPPER
    elif best >= beta:
        flag = LOWER
    tt_keys[slot] = key
    tt_data[slot, T_VALUE] = best
    tt_data[slot, T_DEPTH] = depth
    tt_data[slot, T_FLAG] = flag
    tt_data[slot, T_MOVE] = best_move
    return best


@njit(cache=True, nogil=True)
def _principal_variation(b, st, zob, left: int, tt_keys, tt_data, out: np.ndarray) -> int:
    """Follow the table's best moves from (b, st); returns how many were written."""
    b = b.copy()
    st = st.copy()
    n = 0
    while n < out.shape[0] and left > 0 and st[S_PASSES] < 2:
        key = _key(st, left)
        slot = key & ((1 << TT_BITS) - 1)
        if tt_keys[slot] != key:
            break
        m = tt_data[slot, T_MOVE]
        if m == PASS:
            K.play_pass(st)
        elif m < 0 or K.check_move(b, st, m, st[S_TOMOVE]) != K.OK:
            break
        else:
            K.place(b, st, zob, m, st[S_TOMOVE])
        out[n] = m
        n += 1
        left -= 1
    return n


class SearchTables:
    """The transposition table and ordering tables, kept between searches."""

    def __init__(self, points: int, max_ply: int = 64) -> None:
        self.tt_keys = np.zeros(1 << TT_BITS, dtype=np.int64)
        self.tt_data = np.zeros((1 << TT_BITS, 4), dtype=np.int64)
        self.killers = np.full((max_ply + 1, 2), -3, dtype=np.int64)
        self.history = np.zeros((3, points), dtype=np.int64)
        self.max_ply = max_ply


class AlphaBetaAgent(Agent):
    """Iterative-deepening PVS under a time budget (``time`` seconds per move) or to ``depth``."""

    name = "alphabeta"

    def __init__(
        self,
        time: float = 1.0,
        depth: int | None = None,
        prune: bool = True,
        max_ply: int = 40,
        room: float = ROOM,
        own_atari: float = OWN_ATARI,
        their_atari: float = THEIR_ATARI,
    ) -> None:
        self.weights = (round(room), round(own_atari), round(their_atari))  # tunable (gorilla tune)
        self.seconds = float(time)
        self.max_depth = depth
        self.prune = prune
        self.max_ply = max_ply
        self._tables: SearchTables | None = None
        self.last_depth = 0
        self.last_value = 0.0
        self.last_nodes = 0

    def new_game(self) -> None:
        """Drop the transposition and ordering tables."""
        self._tables = None

    @staticmethod
    def _moves_left(game: Game) -> int:
        left = game.moves_left
        return 10_000 if left is None else left

    def search(
        self,
        game: Game,
        seconds: float | None,
        cancel: threading.Event | None = None,
        progress: ProgressFn | None = None,
    ) -> tuple[int, int, list[int]]:
        """(best move, value in hundredths for the side to move, principal variation)."""
        pos = game.position
        points = pos.b.shape[1]
        if self._tables is None or self._tables.history.shape[1] != points:
            self._tables = SearchTables(points, self.max_ply)
        t = self._tables
        t.killers[:] = -3
        t.history //= 4
        left = self._moves_left(game)
        bs = np.zeros((self.max_ply + 2,) + pos.b.shape, dtype=pos.b.dtype)
        ss = np.zeros((self.max_ply + 2, pos.st.shape[0]), dtype=pos.st.dtype)
        bs[0] = pos.b
        ss[0] = pos.st
        mv = np.zeros((self.max_ply + 2, points + 1), dtype=np.int64)
        sc = np.zeros((self.max_ply + 2, points + 1), dtype=np.int64)
        ctl = np.zeros(NCTL, dtype=np.int64)
        ctl[C_KOMI] = round(100 * game.komi)
        ctl[C_STONES] = 1 if game.ruleset.scoring == "stones" else 0
        ctl[C_PRUNE] = 1 if self.prune else 0
        ctl[C_ROOM], ctl[C_OWN_ATARI], ctl[C_THEIR_ATARI] = self.weights
        legal = set(game.legal_moves())
        start = time.perf_counter()
        deadline = None if seconds is None else start + seconds
        stop = threading.Event()
        have_move = threading.Event()  # the clock may stop the search only once depth 1 is done

        def watchdog() -> None:
            while not stop.is_set():
                if (cancel is not None and cancel.is_set()) or (
                    deadline is not None and have_move.is_set() and time.perf_counter() >= deadline
                ):
                    ctl[C_ABORT] = 1
                    return
                stop.wait(0.005)

        dog = threading.Thread(target=watchdog, daemon=True)
        dog.start()
        best_move, best_value, pv = PASS, 0, []
        max_depth = min(self.max_depth or self.max_ply, self.max_ply, left)
        try:
            for depth in range(1, max_depth + 1):
                ctl[C_ROOTDEPTH] = PASS
                tables = (t.tt_keys, t.tt_data, t.killers, t.history, mv, sc)
                v = _negamax(bs, ss, K.ZOBRIST, 0, depth, -INF, INF, left, ctl, tables)
                if ctl[C_ABORT]:
                    break
                move = int(ctl[C_ROOTDEPTH])
                if move != PASS and move not in legal:  # positional superko at the root
                    move = self._fallback(game, legal)
                best_move, best_value = move, int(v)
                have_move.set()
                out = np.zeros(depth, dtype=np.int64)
                n = _principal_variation(pos.b, pos.st, K.ZOBRIST, left, t.tt_keys, t.tt_data, out)
                pv = [int(p) for p in out[:n]]
                self.last_depth = depth
                if progress is not None:
                    elapsed = time.perf_counter() - start
                    progress(
                        Progress(
                            best_move,
                            0.5 + max(-0.5, min(0.5, best_value / 2000.0)),
                            int(ctl[C_NODES]),
                            min(1.0, elapsed / seconds) if seconds else depth / max_depth,
                            [
                                Candidate(
                                    best_move, int(ctl[C_NODES]), 1.0 if v > 0 else 0.0, v / 100.0, pv=pv
                                )
                            ],
                            elapsed,
                        )
                    )
                if abs(v) >= INF // 2:
                    break
        finally:
            stop.set()
            dog.join()
        self.last_value = best_value / 100.0
        self.last_nodes = int(ctl[C_NODES])
        return best_move, best_value, pv

    @staticmethod
    def _fallback(game: Game, legal: set[int]) -> int:
        return min(legal) if legal else PASS

    def choose(self, req: MoveRequest) -> int:
        """The best move of the deepest search finished in time (or to the fixed depth)."""
        game = req.game
        seconds = req.budget.seconds or self.seconds
        if self.max_depth is not None and req.budget.seconds is None:
            seconds = None
        move, _, _ = self.search(game, seconds, req.cancel, req.progress)
        if move != PASS and not game.is_legal(move):
            move = PASS
        return move
