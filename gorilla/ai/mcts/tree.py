"""The MCTS tree in preallocated numpy arrays, and the numba search kernel.

Nodes are indices into flat arrays. A node stands for the move that led to it
(``mv``) and its statistics are from the view of the player who made that
move. Children of a node are contiguous: ``kids[node]`` packs
``(first << 16) | count`` into one int64 (so publishing an expansion is a
single store), ``-1`` = not expanded, ``-2`` = being expanded by a thread.

``fs`` (float32, rows ``F_*``) holds real visits and wins, prior (virtual)
visits and wins, AMAF/RAVE visits and wins and the summed score margin.
``F_PROB`` is the move model's probability of the move (0 without a model);
with the model on, children are stored most likely first (PASS stays last).
``vl`` counts virtual losses of descents in flight; ``flags`` marks root
children pruned by positional superko.

Each search thread allocates nodes from its own slice of the arrays (the
``ctl`` pool slots), so allocation needs no lock, and counts its playouts in a slot of its
own (``C_DONE + tid``), so none goes uncounted; statistics updates race
like Pachi's and Fuego's lock-free trees and that is harmless.

``search`` runs whole iterations (descend with UCT-RAVE, expand after
``P_EXPAND`` visits with priors, heavy, light or pattern playout (``P_HEAVY``
= 1, 0 or ``PATTERN_PLAYOUT``; the pattern tables ``ptable``/``pcidx`` and
the workspace ``pws`` are :mod:`gorilla.ai.playout.catalog`'; softmax playouts
have a kernel of their own, :func:`search_softmax`), score by area,
back up results and AMAF) on the thread's own copies of the board arrays.
Under Little-Go rules (``P_STONES``) a finished playout counts stones only,
and ``P_LEFT`` (moves left before the move cap, negative: no cap) ends the
descent and the playout at the cap.

The kernels take their arrays in tuples (numba passes a tuple of arrays as it passes the
arrays), one for each thing they are:

- ``tree`` = ``(fs, mv, kids, vl, flags, ctl)``: the tree's arrays and its control slots;
- ``pos`` = ``(rb, rst, zob)``: the root position's board and state, the Zobrist keys;
- ``tables`` = ``(params, pat3, prior)``: the settings (``P_*``), the 3x3 pattern table and
  the priors' weights;
- ``work`` = ``(b, st, path, seq, amaf, cand, buf)``: one thread's scratch (its board, the
  descent's path, the playout's moves, the AMAF colours, candidates, the move buffer);
- ``pdb`` = ``(ptable, pcidx, pws)``: a pattern database and its workspace (softmax
  playouts: their arguments in ``pws``);
- ``model`` = ``(pol, pscratch)``: the move model and its scratch (:func:`expand_moves`).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from gorilla.ai.mcts.priors import move_prior
from gorilla.ai.playout.heavy import heavy_playout
from gorilla.ai.playout.light import run_playout
from gorilla.ai.playout.pattern import run_pattern_playout
from gorilla.ai.playout.softmax import run_softmax_playout
from gorilla.ai.policy.model import move_probabilities
from gorilla.ai.tactics import ladder_workspace
from gorilla.rules.board import (
    BLACK,
    PASS,
    S_N,
    S_PASSES,
    S_TOMOVE,
    copy_board,
    legal_moves,
    place,
    play_pass,
    quick_area_score,
)

# rows of fs
F_VIS, F_WIN, F_PV, F_PW, F_RVIS, F_RWIN, F_SCORE, F_PROB = range(8)
NF = 8

# slots of ctl
C_STOP = 0
C_POOL = 8  # thread t allocates from ctl[C_POOL + 2t] up to ctl[C_POOL + 2t + 1]
MAX_THREADS = 32
# thread t counts its playouts in ctl[C_DONE + t] (one writer per slot: no count is lost)
C_DONE = C_POOL + 2 * MAX_THREADS
NCTL = C_DONE + MAX_THREADS

# slots of params
P_RAVE_EQUIV, P_CUCT, P_FPU, P_EXPAND, P_KOMI, P_REAL_KOMI, P_HEAVY, P_MAXMOVES = range(8)
P_STONES, P_LEFT = 8, 9  # Little-Go: stones-only counting; moves left before the cap (< 0: none)
# the move model: virtual wins W * sqrt(probability) (0: no model), progressive widening's scale
# (0: every child at once; else 2 + log_1.4(1 + visits / scale) children, most likely first)
P_POLICY, P_WIDEN = 10, 11
# the score's share of a playout's value (Fuego's score modification, Pachi's val_scale): a
# playout is worth (1 - share) * won + share * (1 + m) / 2 to Black, m = the margin over
# SCORE_SPAN points a line of the board, clipped to [-1, 1] (0: only won or lost counts)
P_SCORE_SHARE = 12
# heavy playouts read out escapes to two liberties and leave out those a ladder catches (the
# agent then searches with search_ladders, whose playout does; the other kernels ignore it)
P_LADDERS = 13
NPARAMS = 14
SCORE_SPAN = 2.0
WIDEN_BASE = math.log(1.4)
PATTERN_PLAYOUT = 2.0  # params[P_HEAVY]: playouts from a compiled pattern database

UNEXPANDED = -1
EXPANDING = -2
SHIFT = 16
MASK = (1 << SHIFT) - 1


@njit(cache=True, nogil=True)
def _init_node(tree: tuple, i: int, m: int):
    fs, mv, kids, vl, flags, _ = tree
    for r in range(NF):
        fs[r, i] = 0.0
    mv[i] = m
    kids[i] = UNEXPANDED
    vl[i] = 0
    flags[i] = 0


@njit(cache=True, nogil=True)
def init_root(tree: tuple, last_move: int) -> None:
    """Node 0 of tree becomes a fresh root; the whole array is free again (pool 0 starts at 1)."""
    _init_node(tree, np.int64(0), np.int64(last_move))
    ctl = tree[5]
    ctl[C_POOL] = 1
    ctl[C_POOL + 1] = tree[1].shape[0]


@njit(cache=True, nogil=True)
def _alloc(ctl: np.ndarray, tid: int, n: int) -> int:
    i = ctl[C_POOL + 2 * tid]
    if i + n > ctl[C_POOL + 2 * tid + 1]:
        return -1
    ctl[C_POOL + 2 * tid] = i + n
    return i


@njit(cache=True, nogil=True, inline="always")
def _expand_moves_with(tree, tid, node, b, st, zob, moves, nmoves, tables, model, probs) -> bool:
    """:func:`expand_moves` with the model's probabilities from ``probs`` (bound at compile
    time: :func:`_model_order`, or :func:`_no_probabilities` in a search without it)."""
    fs, _, kids, _, _, ctl = tree
    params, pat3, prior = tables
    pol, pscratch = model
    first = _alloc(ctl, tid, nmoves + 1)
    if first < 0:
        return False
    c = st[S_TOMOVE]
    weight = params[P_POLICY]
    pat = pscratch[3]
    order = np.arange(nmoves)
    ppass = 0.0
    if weight > 0.0:
        ppass = probs(b, st, zob, c, pol, pscratch, moves, nmoves, order)
    for i in range(nmoves):
        j = first + i
        p = moves[order[i]]
        _init_node(tree, j, p)
        pv, pw = move_prior(b, st, zob, p, c, pat3, prior)
        if weight > 0.0:
            pr = pat[p]
            fs[F_PROB, j] = pr
            pv += weight * math.sqrt(pr)
            pw += weight * math.sqrt(pr)
        fs[F_PV, j] = pv
        fs[F_PW, j] = pw
    j = first + nmoves
    pass_move = np.int64(PASS)  # typed, not a literal: one compiled move_prior for moves and pass
    _init_node(tree, j, pass_move)
    pv, pw = move_prior(b, st, zob, pass_move, c, pat3, prior)
    if weight > 0.0:
        fs[F_PROB, j] = ppass
    fs[F_PV, j] = pv
    fs[F_PW, j] = pw
    kids[node] = (np.int64(first) << SHIFT) | (nmoves + 1)
    return True


@njit(cache=True, nogil=True)
def _model_order(b, st, zob, c, pol, pscratch, moves, nmoves: int, order) -> float:
    """The move model's probability of each of moves[:nmoves] into pscratch's per-point
    buffer, order: those moves likeliest first; returns the probability of a pass."""
    pmoves, pfeats, pprobs, pat = pscratch
    pidx, dkeys, offs, lg = pol
    n = move_probabilities(b, st, zob, c, pidx, dkeys, offs, lg, pmoves, pfeats, pprobs)
    for i in range(n - 1):
        pat[pmoves[i]] = pprobs[i]
    # a stable insertion sort, most likely first: at most a few hundred moves, and it
    # compiles in a fraction of np.argsort's time (this kernel is compiled on first use)
    for i in range(nmoves):
        o = order[i]
        pr = pat[moves[o]]
        k = i
        while k > 0 and pat[moves[order[k - 1]]] < pr:
            order[k] = order[k - 1]
            k -= 1
        order[k] = o
    return pprobs[n - 1]


@njit(cache=True, nogil=True)
def _no_probabilities(b, st, zob, c, pol, pscratch, moves, nmoves: int, order) -> float:
    """A search without the move model (params[P_POLICY] is 0 there): never called."""
    return 0.0


@njit(cache=True, nogil=True)
def expand_moves(tree, tid, node, b, st, zob, moves, nmoves, tables, model) -> bool:
    """Give node the children moves[:nmoves] (+ PASS) for the side to move in (b, st).

    With params[P_POLICY] > 0 the move model ``model`` = (``pol``, ``pscratch``), ``pol`` =
    (3x3 index, diamond keys, group offsets, log-gammas), adds its probabilities
    (``pscratch`` = candidate, feature, probability and per-point buffers) and orders the
    children most likely first."""
    return _expand_moves_with(tree, tid, node, b, st, zob, moves, nmoves, tables, model, _model_order)


@njit(cache=True, nogil=True)
def expand_moves_plain(tree, tid, node, b, st, zob, moves, nmoves, tables, model) -> bool:
    """:func:`expand_moves` for a search without the move model: its kernels are not compiled."""
    return _expand_moves_with(tree, tid, node, b, st, zob, moves, nmoves, tables, model, _no_probabilities)


@njit(cache=True, nogil=True, inline="always")
def _expand(tree, tid, node, b, st, zob, tables, buf, model, expand) -> bool:
    """Expand node with every legal move (simple ko) that fills no own eye, plus PASS, through
    ``expand`` (:func:`expand_moves` or :func:`expand_moves_plain`, bound at compile time and
    called, not inlined: the root's expansion uses the same compiled kernel)."""
    n = legal_moves(b, st, st[S_TOMOVE], np.bool_(True), buf)
    return expand(tree, tid, node, b, st, zob, buf, n, tables, model)


@njit(cache=True, nogil=True)
def select_child(fs, vl, flags, kids, node, params) -> int:
    """The child with the best UCT-RAVE value for the player to move at node, or -1."""
    k = kids[node]
    if k < 0:
        return -1
    first = k >> SHIFT
    cnt = k & MASK
    equiv = params[P_RAVE_EQUIV]
    cuct = params[P_CUCT]
    fpu = params[P_FPU]
    logn = math.log(fs[F_VIS, node] + vl[node] + 1.0)
    last = first + cnt - 1  # PASS
    if params[P_WIDEN] > 0.0:
        last = first + min(cnt - 1, 2 + int(math.log1p(fs[F_VIS, node] / params[P_WIDEN]) / WIDEN_BASE))
    best = -1
    bestv = -1e30
    for j in range(first, first + cnt):
        if flags[j] != 0 or (j > last and j != first + cnt - 1):
            continue
        loss = vl[j]
        tot = fs[F_VIS, j] + fs[F_PV, j] + loss
        rn = fs[F_RVIS, j]
        if tot <= 0.0 and rn <= 0.0:
            v = fpu
        else:
            q = (fs[F_WIN, j] + fs[F_PW, j]) / tot if tot > 0.0 else fpu
            if rn > 0.0:
                r = fs[F_RWIN, j] / (rn + loss)
                beta = rn / (rn + tot + tot * rn / equiv)
                v = (1.0 - beta) * q + beta * r
            else:
                v = q
            if cuct > 0.0:
                v += cuct * math.sqrt(logn / (tot + 1.0))
        if v > bestv:
            bestv = v
            best = j
    return best


@njit(cache=True, nogil=True, inline="always")
def _search_loop(tree, tid: int, root: int, pos, tables, work, nmax: int, run, pargs, model, expand) -> int:
    """The search loop behind :func:`search` and :func:`search_patterns`: the playout is
    ``run(b, st, zob, max_moves, seq, *pargs)`` and the expansion ``expand`` (with the move
    model or without) is bound at compile time (inlined, so each kernel compiles only what
    it uses)."""
    fs, mv, kids, vl, flags, ctl = tree
    rb, rst, zob = pos
    params = tables[0]
    b, st, path, seq, amaf, _, buf = work
    root_color = rst[S_TOMOVE]
    komi = params[P_KOMI]
    real_komi = params[P_REAL_KOMI]
    share = params[P_SCORE_SHARE]
    span = SCORE_SPAN * rst[S_N]
    expand_at = params[P_EXPAND]
    max_moves = int(params[P_MAXMOVES])
    stones = params[P_STONES] != 0.0
    cap_left = int(params[P_LEFT])
    maxdepth = path.shape[0] - 1
    done = 0
    while done < nmax:
        if ctl[C_STOP] != 0:
            break
        copy_board(rb, rst, b, st)
        node = root
        depth = 0
        path[0] = root
        terminal = False
        while True:
            k = kids[node]
            if k == UNEXPANDED:
                if node == root or fs[F_VIS, node] >= expand_at:
                    kids[node] = EXPANDING
                    ok = _expand(tree, tid, node, b, st, zob, tables, buf, model, expand)
                    if not ok:
                        kids[node] = UNEXPANDED
                        break
                else:
                    break
            elif k < 0:
                break  # another thread is expanding it
            c = select_child(fs, vl, flags, kids, node, params)
            if c < 0:
                break
            vl[c] += 1
            m = mv[c]
            if m == PASS:
                play_pass(st)
            else:
                place(b, st, zob, np.int64(m), st[S_TOMOVE])
            depth += 1
            path[depth] = c
            node = c
            if st[S_PASSES] >= 2 or (cap_left >= 0 and depth >= cap_left):
                terminal = True
                break
            if depth >= maxdepth:
                break
        if cap_left >= 0:  # the playout stops at the move cap
            max_moves = min(int(params[P_MAXMOVES]), cap_left - depth)
        n = 0
        if not terminal:
            n = min(run(b, st, zob, max_moves, seq, *pargs), seq.shape[0])
        area = quick_area_score(b, st, stones)
        margin = area - real_komi
        bw = 1.0 if area - komi > 0.0 else 0.0
        if share > 0.0:
            bw = (1.0 - share) * bw + share * 0.5 * (1.0 + min(1.0, max(-1.0, margin / span)))
        # back up: the mover into path[d] is root_color for odd d
        for d in range(depth + 1):
            x = path[d]
            mover = root_color if d % 2 == 1 else 3 - root_color
            if mover == BLACK:
                fs[F_WIN, x] += bw
                fs[F_SCORE, x] += margin
            else:
                fs[F_WIN, x] += 1.0 - bw
                fs[F_SCORE, x] -= margin
            fs[F_VIS, x] += 1.0
            if d > 0:
                vl[x] -= 1
        # AMAF: amaf[p] = colour that played p first from the node's position on
        amaf[:] = 0
        for i in range(n - 1, -1, -1):
            p = seq[i]
            if p >= 0:
                amaf[p] = root_color if (depth + i) % 2 == 0 else 3 - root_color
        for d in range(depth - 1, -1, -1):
            col = root_color if d % 2 == 0 else 3 - root_color
            p = mv[path[d + 1]]
            if p >= 0:
                amaf[p] = col
            k = kids[path[d]]
            if k < 0:
                continue
            first = k >> SHIFT
            cnt = k & MASK
            win = bw if col == BLACK else 1.0 - bw
            for j in range(first, first + cnt):
                q = mv[j]
                if q >= 0 and amaf[q] == col:
                    fs[F_RVIS, j] += 1.0
                    fs[F_RWIN, j] += win
        done += 1
        ctl[C_DONE + tid] += 1
    return done


@njit(cache=True, nogil=True)
def _default_playout(b, st, zob, max_moves: int, seq, heavy: bool, pat3, cand) -> int:
    """The heavy playout, or the light one when the heavy flag is off."""
    if heavy:
        return heavy_playout(b, st, zob, max_moves, seq, pat3, cand)
    return run_playout(b, st, zob, max_moves, seq)


@njit(cache=True, nogil=True)
def _default_args(b, st, params, pat3, cand):
    """The extra arguments of :func:`_default_playout` for a search with these params."""
    return (params[P_HEAVY] != 0.0, pat3, cand)


@njit(cache=True, nogil=True)
def _ladder_playout(b, st, zob, max_moves: int, seq, pat3, cand, lw) -> int:
    """The heavy playout reading the ladder of an escape to two liberties (``P_LADDERS``) with
    the scratch lw: a kernel of its own (the heavy playout's tactics compiled a second time,
    for the scratch), bound only in :func:`search_ladders`."""
    return heavy_playout(b, st, zob, max_moves, seq, pat3, cand, (zob, *lw))


@njit(cache=True, nogil=True)
def _ladder_args(b, st, pat3, cand):
    """The extra arguments of :func:`_ladder_playout`: the ladder scratch, allocated once per
    search."""
    return (pat3, cand, ladder_workspace(b, st))


@njit(cache=True, nogil=True)
def search(tree, tid: int, root: int, pos, tables, work, nmax: int, pdb, model) -> int:
    """Run nmax iterations from root with heavy or light playouts (``params[P_HEAVY]``
    1 or 0) and no move model, fewer only when ctl[C_STOP] is set (the caller hands each
    thread its share of a playout limit in nmax chunks); returns how many ran. pdb and the
    model are unused: the signature is every search kernel's, so callers can pick one."""
    b, st, params, pat3, cand = work[0], work[1], tables[0], tables[1], work[5]
    pargs = _default_args(b, st, params, pat3, cand)
    return _search_loop(
        tree, tid, root, pos, tables, work, nmax, _default_playout, pargs, model, expand_moves_plain
    )


@njit(cache=True, nogil=True)
def search_policy(tree, tid: int, root: int, pos, tables, work, nmax: int, pdb, model) -> int:
    """:func:`search` with the move model (params[P_POLICY] > 0): ``model`` is the model and
    its scratch (see :func:`expand_moves`)."""
    b, st, params, pat3, cand = work[0], work[1], tables[0], tables[1], work[5]
    pargs = _default_args(b, st, params, pat3, cand)
    return _search_loop(
        tree, tid, root, pos, tables, work, nmax, _default_playout, pargs, model, expand_moves
    )


@njit(cache=True, nogil=True)
def search_ladders(tree, tid: int, root: int, pos, tables, work, nmax: int, pdb, model) -> int:
    """:func:`search_policy` with heavy playouts that read ladders (``mcts:ladders=1``; with
    or without the move model: its weight is a setting): a kernel of its own, compiled only
    when they are in use, so that the default search does not compile them."""
    pargs = _ladder_args(work[0], work[1], tables[1], work[5])
    return _search_loop(tree, tid, root, pos, tables, work, nmax, _ladder_playout, pargs, model, expand_moves)


@njit(cache=True, nogil=True)
def search_patterns(tree, tid: int, root: int, pos, tables, work, nmax: int, pdb, model) -> int:
    """:func:`search_policy` with playouts from a compiled pattern database (``pdb`` =
    ``(ptable, pcidx, pws)``, pws its scratch): a kernel of its own, compiled only when a
    database is in use."""
    return _search_loop(
        tree, tid, root, pos, tables, work, nmax, run_pattern_playout, pdb, model, expand_moves
    )


@njit(cache=True, nogil=True)
def search_softmax(tree, tid: int, root: int, pos, tables, work, nmax: int, pdb, model) -> int:
    """:func:`search_policy` with softmax playouts (:mod:`gorilla.ai.playout.softmax`): pdb's
    pws is their arguments after the move list (3x3 index, offsets, gammas, settings,
    workspace, cand); a kernel of its own, compiled only when they are in use."""
    return _search_loop(
        tree, tid, root, pos, tables, work, nmax, run_softmax_playout, pdb[2], model, expand_moves
    )


@njit(cache=True, nogil=True)
def compact(src: tuple, root: int, dst: tuple, src_of) -> int:
    """Copy the subtree under root of src = (fs, mv, kids, vl, flags) into dst's arrays (root
    at 0); returns nodes used."""
    sfs, smv, skids, _, sflags = src
    dfs, dmv, dkids, dvl, dflags = dst
    for r in range(NF):
        dfs[r, 0] = sfs[r, root]
    dmv[0] = smv[root]
    dvl[0] = 0
    dflags[0] = 0
    src_of[0] = root
    used = 1
    head = 0
    while head < used:
        s = src_of[head]
        k = skids[s]
        if k < 0:
            dkids[head] = UNEXPANDED
        else:
            first = k >> SHIFT
            cnt = k & MASK
            dkids[head] = (np.int64(used) << SHIFT) | cnt
            for i in range(cnt):
                j = first + i
                t = used + i
                for r in range(NF):
                    dfs[r, t] = sfs[r, j]
                dmv[t] = smv[j]
                dvl[t] = 0
                dflags[t] = sflags[j]
                src_of[t] = j
            used += cnt
        head += 1
    return used
