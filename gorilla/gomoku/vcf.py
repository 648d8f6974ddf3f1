"""Threat-space solvers: VCF (victory by continuous fours) and depth-limited VCT (threes and fours).

Both are numba kernels over a board ``bd`` (:mod:`gorilla.gomoku.rules`) and a search
state ``S`` (:func:`new_state`): control counters, and each solver's own
transposition table of failed positions (Zobrist key -> the depth at which it failed).
The attacker moves; the defender's answers are forced (the one point that stops a
five) or, after a three, the points that stop the open four (the four-making points
of the attacker, and the defender's own fours). A solver returns the attacker's first
winning move, or -1. With ``CTL_LOCAL`` set (AIWine's locality), the attacker's moves after
its first are four-threes, double threes and open fours anywhere, and plain fours and threes
only near its last attack and with a second line (``_sorted_points``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gorilla.gomoku import rules as R
from gorilla.gomoku.patterns import (
    C_TWO_B,
    NCLASSES,
    P_33,
    P_43,
    P_F4,
    P_FIVE,
    P_FORBID,
    P_FOUR,
    P_THREE,
)

# control slots
CTL_NODES, CTL_STOP, CTL_LIMIT, CTL_ABORT, CTL_QVCF, CTL_SELDEPTH = range(6)
# switches (0: on): four-three win, double-three/open-four win, leaf three extension; VCT locality (1: on)
CTL_NO43, CTL_NO33, CTL_NOEXT, CTL_LOCAL = range(6, 10)
CTL_F4OFF = 10  # added to a leaf's evaluation when the opponent has an open three (search.F4_OFFSET)
# switches (0: off): mate scores read from the table at any depth (search.TT_MATE); late-move
# pruning's scale, tenths of Rapfi's 3 + depth^1.32 moves (search.LMP_SCALE); the late-move
# reductions' divisor, hundredths of Rapfi's log(depth) log(move) (search.LMR_DIVISOR)
CTL_TTMATE, CTL_LMP, CTL_LMR = range(11, 14)
# switch (0: off): the PVS orders its moves by the ordering tables (S[19], search.ORDER_TABLES)
CTL_ORDT = 14
NCTL = 15
MAXPLY = 128
MAXMOVES = 640
MAXSTACK = 256  # recursion levels of the kernel (PVS plies and the solvers' nested nodes)
SIDE_KEY = np.int64(0x5D5_1DE_C0FFEE)
# the failures of the local VCF/VCT are kept apart from the whole board's (a local search that
# fails proves nothing about the global one)
LOCAL_KEY = np.int64(0x2545F4914F6CDD1D)
VCT_WIDTH = 14  # attacking moves tried at a VCT node


def new_state(tt_bits: int = 20, vtt_bits: int = 18) -> tuple:
    """Search state: (ctl, tt_key, tt_val, tt_dep, tt_flag, tt_move, killers, hist, moves, mscore,
    pv, pvlen, vcf_key, vcf_dep, vct_key, vct_dep, root_ban, frames, frames64, order); root_ban[p] != 0:
    the PVS's root does not search p (a move proven to lose to the opponent's threats); frames:
    each recursion level's scratch (five points, candidate moves; the threat scan in frames64),
    so that the kernel allocates nothing and runs without numba's reference counting; order: the
    move ordering's tables (:func:`gorilla.gomoku.patterns.order_tables`, filled by the caller),
    read when CTL_ORDT is set."""
    t = 1 << tt_bits
    v = 1 << vtt_bits
    return (
        np.zeros(NCTL, dtype=np.int64),
        np.zeros(t, dtype=np.int64),
        np.zeros(t, dtype=np.int32),
        np.full(t, -1, dtype=np.int8),
        np.zeros(t, dtype=np.int8),
        np.full(t, -1, dtype=np.int32),
        np.full((MAXPLY, 2), -1, dtype=np.int32),
        np.zeros((3, R.MAX_CELLS), dtype=np.int32),
        np.zeros((MAXPLY, MAXMOVES), dtype=np.int32),
        np.zeros((MAXPLY, MAXMOVES), dtype=np.int32),
        np.full((MAXPLY, MAXPLY), -1, dtype=np.int32),
        np.zeros(MAXPLY, dtype=np.int32),
        np.zeros(v, dtype=np.int64),
        np.full(v, -1, dtype=np.int8),
        np.zeros(v, dtype=np.int64),
        np.full(v, -1, dtype=np.int8),
        np.zeros(R.MAX_CELLS, dtype=np.int8),
        np.zeros((MAXSTACK, 4 + MAXMOVES // 2), dtype=np.int32),
        np.zeros((MAXSTACK, 8), dtype=np.int64),
        np.zeros((2, NCLASSES**4), dtype=np.int32),
    )


@njit(cache=True, nogil=True, inline="always")
def makes_four(pc: int) -> bool:
    """Whether a point class makes at least a four (a move the opponent must answer)."""
    return pc == P_FOUR or pc == P_43 or pc == P_F4 or pc == P_FIVE


@njit(cache=True, nogil=True, inline="always")
def makes_three(pc: int) -> bool:
    """Whether a point class makes an open three (and no four)."""
    return pc == P_THREE or pc == P_33


@njit(cache=True, nogil=True, inline="always")
def playable(bd, p: int, c: int) -> bool:
    """Empty and, for Black under renju, not forbidden."""
    if bd[0][p] != R.EMPTY:
        return False
    if c == R.BLACK and bd[6][R.S_RULE] == R.RENJU:
        pc = bd[3][1, p]
        if pc == P_FORBID:
            return False
        if pc == P_33:
            return not R.is_forbidden(bd, p)
    return True


@njit(cache=True, nogil=True, inline="always")
def key_of(bd, c: int) -> np.int64:
    """The transposition-table key of the board with c to move."""
    k = bd[6][R.S_HASH]
    if c == R.WHITE:
        k ^= SIDE_KEY
    return k


# five_points and _set_pv are called, not inlined: _solve calls them at five and seven places,
# and every inlined copy of their loops lengthened its compile (the PVS's warm-up part on an
# empty cache 92 s inlined, 71 s called, at the same nodes per second: gomoku_speed --depth 10).
# Compiled without numba's reference counting, as _solve is (its docstring says what the counts
# on its arrays cost).
@njit(cache=True, nogil=True, _nrt=False)
def five_points(bd, c: int, out: np.ndarray) -> int:
    """The points where colour c would make five, into out[:n] (at most out's length)."""
    if R.class_count(bd, c, P_FIVE) == 0:
        return 0
    cell, pcls, st = bd[0], bd[3], bd[6]
    n = st[R.S_N]
    w = st[R.S_W]
    k = 0
    for y in range(n):
        base = (y + R.PAD) * w + R.PAD
        for x in range(n):
            p = base + x
            if pcls[c, p] == P_FIVE and cell[p] == R.EMPTY:
                if k < out.shape[0]:
                    out[k] = p
                k += 1
    return k


@njit(cache=True, nogil=True)
def forced_moves(bd, c: int, out: np.ndarray) -> int:
    """c's forced moves into out[:n]: its five (one point), else the opponent's five points
    that c may play to block. 0 when there is no five, and when every block is forbidden
    (renju: the loss is certain, but the move must still be legal, so the caller goes on to
    its ordinary moves)."""
    if five_points(bd, c, out) > 0:
        return 1
    m = 0
    for i in range(min(five_points(bd, 3 - c, out), out.shape[0])):
        if playable(bd, out[i], c):
            out[m] = out[i]
            m += 1
    return m


@njit(cache=True, nogil=True, inline="always")
def _tick(S) -> bool:
    """Count a node; True when the search must stop (stop flag or node limit)."""
    ctl = S[0]
    ctl[CTL_NODES] += 1
    if ctl[CTL_ABORT] != 0:
        return True
    if (ctl[CTL_NODES] & 255) == 0 and (ctl[CTL_STOP] != 0 or ctl[CTL_NODES] >= ctl[CTL_LIMIT]):
        ctl[CTL_ABORT] = 1
        return True
    return False


@njit(cache=True, nogil=True, inline="always")
def _near(p: int, last: int, w: int, r: int, knight: bool) -> bool:
    """Whether p lies on one of last's four lines within r steps, or (knight) a knight's move away."""
    dy = p // w - last // w
    dx = p % w - last % w
    ax = dx if dx >= 0 else -dx
    ay = dy if dy >= 0 else -dy
    if ax <= r and ay <= r and (ax == 0 or ay == 0 or ax == ay):
        return True
    return knight and ((ax == 1 and ay == 2) or (ax == 2 and ay == 1))


@njit(cache=True, nogil=True, inline="always")
def _second_line(dcls, c: int, p: int) -> bool:
    """Whether c's stone at p makes at least a closed two on a second line (AIWine's VCT tries
    a four or a three only with another shape: D, E, H, I, not F or J)."""
    k = 0
    for d in range(4):
        if dcls[c, d, p] >= C_TWO_B:
            k += 1
    return k >= 2


@njit(cache=True, nogil=True)
def _sorted_points(bd, c: int, want: int, out: np.ndarray, last: int) -> int:
    """Points (playable for c) that make a four (want 0) or a four or an open three (want 1),
    sorted by c's point score, best first. last >= 0 (the attacker's last move): a plain four
    only within 4 steps on its lines, a plain three only within 3 or a knight's move (AIWine's
    locality); four-threes, double threes and open fours anywhere."""
    cell, dcls, pcls, psc, st = bd[0], bd[2], bd[3], bd[4], bd[6]
    n = st[R.S_N]
    w = st[R.S_W]
    rb = c == R.BLACK and st[R.S_RULE] == R.RENJU
    k = 0
    for y in range(n):
        base = (y + R.PAD) * w + R.PAD
        for x in range(n):
            p = base + x
            if cell[p] != R.EMPTY:
                continue
            pc = pcls[c, p]
            wanted = makes_four(pc) or (want == 1 and makes_three(pc))
            if wanted and last >= 0 and (pc == P_FOUR or pc == P_THREE):
                four = pc == P_FOUR
                wanted = _near(p, last, w, 4 if four else 3, not four) and _second_line(dcls, c, p)
            if wanted and (not rb or playable(bd, p, c)) and k < out.shape[0]:
                # insertion by score
                s = psc[c, p]
                j = k
                while j > 0 and psc[c, out[j - 1]] < s:
                    out[j] = out[j - 1]
                    j -= 1
                out[j] = p
                k += 1
    return k


@njit(cache=True, nogil=True)
def _defences(bd, a: int, out: np.ndarray) -> int:
    """After the attacker's three: the points that stop its open four (where it would make a
    four) and the defender's own fours."""
    cell, pcls, st = bd[0], bd[3], bd[6]
    n = st[R.S_N]
    w = st[R.S_W]
    d = 3 - a
    rb = d == R.BLACK and st[R.S_RULE] == R.RENJU
    k = 0
    for y in range(n):
        base = (y + R.PAD) * w + R.PAD
        for x in range(n):
            p = base + x
            if cell[p] != R.EMPTY:
                continue
            stops = makes_four(pcls[a, p]) or makes_four(pcls[d, p])
            if stops and (not rb or playable(bd, p, d)) and k < out.shape[0]:
                out[k] = p
                k += 1
    return k


WIN = 1_000_000
MATE = WIN - 1000  # scores beyond this are wins or losses
INF = 2 * WIN
EXACT, LOWER, UPPER = 0, 1, 2
# moves searched at an inner node (the best by the ordering); 14 scored 20/40 against AIWine, as
# White 6/20, where 20 scored 23/40 and 10/20
# (benchmarks/RESULTS.md#2026-11-27-gomoku-aiwines-threat-rules-and-a-local-vct); 30 scored
# 52/100, as 20 did (benchmarks/RESULTS.md#2026-11-27-gomoku-where-the-games-are-lost-session-22)
WIDTH = 20
ROOT_WIDTH = 40
QVCF_DEPTH = 6
ASPIRATION = 200


@njit(cache=True, nogil=True, inline="always")
def evaluate(bd, c: int) -> int:
    """The static evaluation for colour c to move: 5/4 of its threat scores minus the
    opponent's (3/2 scored 18/40 against AIWine and own minus 5/4 of the opponent's 7/20 on
    one seed, where 5/4 scored 23/40 and 12/20:
    benchmarks/RESULTS.md#2026-11-27-gomoku-aiwines-threat-rules-and-a-local-vct)."""
    st = bd[6]
    own = st[R.S_TOTAL_B + c - 1]
    opp = st[R.S_TOTAL_B + 2 - c]
    v = (own * 5) // 4 - opp
    if v > MATE // 2:
        v = MATE // 2
    if v < -MATE // 2:
        v = -MATE // 2
    return v


@njit(cache=True, nogil=True)
def _scan(bd, c: int, info: np.ndarray) -> None:
    """info: [own open-four point, opponent four-making points, opponent open-four points,
    own four-three point, own double-three point (not for Black under renju)] (points -1
    when none)."""
    cell, pcls, st = bd[0], bd[3], bd[6]
    n = st[R.S_N]
    w = st[R.S_W]
    rb = c == R.BLACK and st[R.S_RULE] == R.RENJU
    o = 3 - c
    info[0] = -1
    info[3] = -1
    info[4] = -1
    info[1] = (
        R.class_count(bd, o, P_FOUR)
        + R.class_count(bd, o, P_43)
        + R.class_count(bd, o, P_F4)
        + R.class_count(bd, o, P_FIVE)
    )
    info[2] = R.class_count(bd, o, P_F4)
    if R.class_count(bd, c, P_F4) + R.class_count(bd, c, P_43) + R.class_count(bd, c, P_33) == 0:
        return  # no point of c's to find
    for y in range(n):
        base = (y + R.PAD) * w + R.PAD
        for x in range(n):
            p = base + x
            if cell[p] != R.EMPTY:
                continue
            if pcls[c, p] == P_F4 and info[0] < 0 and (not rb or playable(bd, p, c)):
                info[0] = p
            elif pcls[c, p] == P_43 and info[3] < 0 and (not rb or playable(bd, p, c)):
                info[3] = p
            elif pcls[c, p] == P_33 and info[4] < 0 and not rb:
                info[4] = p


@njit(cache=True, nogil=True, inline="always")
def _combo(dcls, c: int, p: int) -> int:
    """The ordering tables' index of point p's four direction classes for colour c."""
    return ((dcls[c, 0, p] * NCLASSES + dcls[c, 1, p]) * NCLASSES + dcls[c, 2, p]) * NCLASSES + dcls[c, 3, p]


@njit(cache=True, nogil=True, inline="always")
def _table_score(bd, S, c: int, p: int) -> int:
    """Point p's value for c to move by the ordering tables (S[19]): its combination of
    direction classes for c, then for the opponent."""
    dcls, ordt = bd[2], S[19]
    return ordt[0, _combo(dcls, c, p)] + ordt[1, _combo(dcls, 3 - c, p)]


@njit(cache=True, nogil=True)
def _gen(bd, S, c: int, ply: int, defend: bool, tt_move: int) -> int:
    """The best moves of a node (at most ROOT_WIDTH at the root, WIDTH below: the ones the
    search tries) into S's move buffer at ply, best first; returns how many."""
    cell, pcls, psc, near, st = bd[0], bd[3], bd[4], bd[5], bd[6]
    n = st[R.S_N]
    w = st[R.S_W]
    rb = c == R.BLACK and st[R.S_RULE] == R.RENJU
    killers, hist, moves, mscore = S[6], S[7], S[8], S[9]
    ban = S[16]
    table = S[0][CTL_ORDT] != 0 and st[R.S_RULE] != R.RENJU
    o = 3 - c
    cap = ROOT_WIDTH if ply == 0 else WIDTH
    k = 0
    for y in range(n):
        base = (y + R.PAD) * w + R.PAD
        for x in range(n):
            p = base + x
            if cell[p] != R.EMPTY or near[p] == 0:
                continue
            if defend:
                po = pcls[o, p]
                if not ((po != P_FORBID and makes_four(po)) or makes_four(pcls[c, p])):
                    continue
            if (rb and not playable(bd, p, c)) or (ply == 0 and ban[p] != 0):
                continue
            if table:
                s = _table_score(bd, S, c, p) + hist[c, p] // 16
            else:
                s = psc[c, p] + psc[o, p] + hist[c, p] // 16
            if p == tt_move:
                s += 1 << 28
            elif p == killers[ply, 0] or p == killers[ply, 1]:
                s += 1 << 20
            # insertion into the best cap so far (stable: a later equal score goes after)
            if k == cap:
                if mscore[ply, k - 1] >= s:
                    continue
                k -= 1
            j = k
            while j > 0 and mscore[ply, j - 1] < s:
                moves[ply, j] = moves[ply, j - 1]
                mscore[ply, j] = mscore[ply, j - 1]
                j -= 1
            moves[ply, j] = p
            mscore[ply, j] = s
            k += 1
    if k == 0 and st[R.S_STONES] == 0:
        moves[ply, 0] = (n // 2 + R.PAD) * w + n // 2 + R.PAD
        k = 1
    return k


@njit(cache=True, nogil=True)
def root_moves(bd, S, c: int, out: np.ndarray) -> int:
    """The PVS's root moves for c in its order (the defences only when the opponent has an
    open three; banned moves left out) into out; how many (at most out's length)."""
    info = np.empty(5, dtype=np.int64)
    _scan(bd, c, info)
    k = _gen(bd, S, c, 0, info[2] > 0, -1)
    k = min(k, out.shape[0])
    for i in range(k):
        out[i] = S[8][0, i]
    return k


@njit(cache=True, nogil=True, _nrt=False)
def _set_pv(S, ply: int, move: int) -> None:
    pv, pvlen = S[10], S[11]
    pv[ply, ply] = move
    end = pvlen[ply + 1] if ply + 1 < MAXPLY else ply + 1
    if end < ply + 1:
        end = ply + 1
    for i in range(ply + 1, end):
        pv[ply, i] = pv[ply + 1, i]
    pvlen[ply] = end


M_PVS, M_VCF, M_VCT, M_DEF = range(4)


@njit(cache=True, nogil=True, inline="always")
def _mate_from_node(v: int, ply: int) -> int:
    """A win or loss score moved ply plies further from the root (the table stores them as
    their distance from the node: ply is the node's ply when stored, minus it when read);
    other scores unchanged."""
    if v >= MATE:
        return v + ply
    if v <= -MATE:
        return v - ply
    return v


@njit(cache=True, nogil=True)
def _open_four_threat(bd, a: int) -> bool:
    """Whether a has a point that makes an open four (its three stands: the defender must act)."""
    cell, pcls, st = bd[0], bd[3], bd[6]
    n = st[R.S_N]
    w = st[R.S_W]
    for y in range(n):
        base = (y + R.PAD) * w + R.PAD
        for x in range(n):
            p = base + x
            if cell[p] == R.EMPTY and pcls[a, p] == P_F4 and playable(bd, p, a):
                return True
    return False


@njit(cache=True, nogil=True, _nrt=False)
def _solve(bd, S, mode: int, c: int, depth: int, alpha: int, beta: int, ply: int, sp: int) -> int:
    """The one recursive kernel: a VCF node (mode M_VCF: c attacks), a VCT node (M_VCT: c
    attacks, alpha is the depth of its VCFs), a VCT defence node (M_DEF: the defender moves
    against c's open three; 1 when every defence loses, else -1) or a PVS node (M_PVS).
    numba's cache cannot hold a recursive kernel that calls another recursive kernel, so the
    four share one function; and
    every call passes int64 values, never literals, so that there is one specialisation.
    sp: the recursion level, its scratch row in S's frames. Compiled without numba's reference
    counting (``_nrt=False``): it allocates nothing, and the counts of the arrays of ``bd`` and
    ``S`` cost two atomic operations each on every call, 40% of the search's time."""
    if mode == M_VCF or mode == M_VCT:
        # the attacker a moves: fours (VCF), or fours and threes (VCT: alpha is the depth of the
        # VCF each of its positions tries first; a three leaves the defender's choice to M_DEF)
        a = c
        vct = mode == M_VCT
        if _tick(S):
            return -1
        d = 3 - a
        if sp >= MAXSTACK - 1:
            return -1
        fp = S[17][sp, :4]
        if five_points(bd, a, fp) > 0:
            return fp[0]
        nd = five_points(bd, d, fp)
        if nd >= 2:
            return -1
        last = beta - 1  # the attacker's last move (-1: none): the locality of its next ones
        if vct and nd == 0:
            v = _solve(bd, S, np.int64(M_VCF), a, alpha, beta, np.int64(0), np.int64(0), sp + 1)
            if v >= 0:
                return v
        if depth <= 0:
            return -1
        key = key_of(bd, a)
        if last >= 0:
            key ^= (last + 1) * np.int64(0x9E3779B97F4A7C1)
        if S[0][CTL_LOCAL] != 0:
            key ^= LOCAL_KEY
        tkey = S[14] if vct else S[12]
        tdep = S[15] if vct else S[13]
        slot = key & (tkey.shape[0] - 1)
        if tkey[slot] == key and tdep[slot] >= depth:
            return -1
        cand = S[17][sp, 4:]
        if nd == 1:  # the defender's four: the block (in a VCT its three must still win: M_DEF checks)
            if (not vct and not makes_four(bd[3][a, fp[0]])) or not playable(bd, fp[0], a):
                return -1
            cand[0] = fp[0]
            m = 1
        else:
            m = _sorted_points(bd, a, 1 if vct else 0, cand, last)
            if vct and m > VCT_WIDTH:
                m = VCT_WIDTH
        renju_d = d == R.BLACK and bd[6][R.S_RULE] == R.RENJU
        result = -1
        local = S[0][CTL_LOCAL] != 0
        for i in range(m):
            p = cand[i]
            nxt = np.int64(p + 1) if local and nd == 0 else beta  # a block keeps the last attack's place
            R.place(bd, p, a)
            na = five_points(bd, a, fp)
            if na >= 2:
                ok = True
            elif na == 1:
                q = fp[0]
                if renju_d and not playable(bd, q, d):
                    ok = True  # the only defence is forbidden
                else:
                    R.place(bd, q, d)
                    ok = _solve(bd, S, mode, a, depth - 1, alpha, nxt, np.int64(0), sp + 1) >= 0
                    R.remove(bd, q)
            else:
                ok = vct and _solve(bd, S, np.int64(M_DEF), a, depth, alpha, nxt, np.int64(0), sp + 1) >= 0
            R.remove(bd, p)
            if ok:  # a win found is a win, even when the search is being stopped
                result = p
                break
            if S[0][CTL_ABORT] != 0:
                return -1
        if result < 0 and S[0][CTL_ABORT] == 0:
            tkey[slot] = key
            tdep[slot] = depth
        return result

    if mode == M_DEF:
        # the defender d moves against a's open three: its own fours first (a VCF wins for it),
        # then every point that stops the open four or makes its own four; a wins when each fails
        a = c
        vcf_depth = alpha
        d = 3 - a
        if not _open_four_threat(bd, a):
            return -1
        if _solve(bd, S, np.int64(M_VCF), d, vcf_depth, np.int64(0), np.int64(0), np.int64(0), sp + 1) >= 0:
            return -1
        if sp >= MAXSTACK - 1:
            return -1
        defs = S[17][sp, 4:]
        k = _defences(bd, a, defs)
        if k == 0:
            return -1
        for j in range(k):
            q = defs[j]
            R.place(bd, q, d)
            r = _solve(bd, S, np.int64(M_VCT), a, depth - 1, vcf_depth, beta, np.int64(0), sp + 1)
            R.remove(bd, q)
            if r < 0:
                return -1
        return 1
    ctl = S[0]
    pvlen = S[11]
    pvlen[ply] = ply
    if _tick(S):
        return 0
    if ply > ctl[CTL_SELDEPTH]:
        ctl[CTL_SELDEPTH] = ply
    o = 3 - c
    fp = S[17][sp, :4]
    if five_points(bd, c, fp) > 0:
        pvlen[ply + 1] = ply + 1
        _set_pv(S, ply, fp[0])
        return WIN - ply
    nf = five_points(bd, o, fp)
    if nf >= 2:
        return -(WIN - ply - 1)
    forced = nf == 1
    if forced and not playable(bd, fp[0], c):
        return -(WIN - ply - 1)
    if bd[6][R.S_STONES] >= bd[6][R.S_N] * bd[6][R.S_N]:
        return 0
    info = S[18][sp, :5]
    _scan(bd, c, info)
    if not forced and info[0] >= 0 and (info[1] == 0 or ctl[CTL_NO33] == 0):
        # an open four wins: an answering four cannot make five, and two points are left
        pvlen[ply + 1] = ply + 1
        _set_pv(S, ply, info[0])
        return WIN - ply - 2
    if not forced and info[3] >= 0 and info[1] == 0 and ctl[CTL_NO43] == 0:
        # a four-three against no four: the block cannot stop the three (another line), which
        # becomes an open four; a win unless the block starts a counter-attack by fours (rare)
        pvlen[ply + 1] = ply + 1
        _set_pv(S, ply, info[3])
        return WIN - ply - 4
    if not forced and info[4] >= 0 and info[1] == 0 and ctl[CTL_NO33] == 0:
        # a double three against no four (AIWine's rule): one block stops one three, the
        # other becomes an open four
        pvlen[ply + 1] = ply + 1
        _set_pv(S, ply, info[4])
        return WIN - ply - 4
    # a leaf near the end of the plies, or of the frames (leaving room for a quiescence VCF)
    if ply >= MAXPLY - 4 or sp >= MAXSTACK - 24:
        return evaluate(bd, c)
    if depth <= 0 and not forced and info[2] > 0 and ctl[CTL_NOEXT] == 0:
        depth = 1  # the opponent's open three: its few answers are searched (AIWine's isExpand)
    if depth <= 0 and not forced:
        if ctl[CTL_QVCF] != 0 and info[2] == 0:
            z = np.int64(0)
            v = _solve(bd, S, np.int64(M_VCF), c, np.int64(QVCF_DEPTH), z, z, z, sp + 1)
            if v >= 0:
                pvlen[ply + 1] = ply + 1
                _set_pv(S, ply, v)
                return WIN - ply - 4
        if info[2] > 0:
            return evaluate(bd, c) + ctl[CTL_F4OFF]
        return evaluate(bd, c)
    # transposition table
    key = key_of(bd, c)
    tt_key, tt_val, tt_dep, tt_flag, tt_move = S[1], S[2], S[3], S[4], S[5]
    slot = key & (tt_key.shape[0] - 1)
    hit_move = -1
    if tt_key[slot] == key:
        hit_move = tt_move[slot]
        v = tt_val[slot]
        mate_ok = False
        if ctl[CTL_TTMATE] != 0 and (v >= MATE or v <= -MATE):
            v = _mate_from_node(v, -ply)
            mate_ok = tt_flag[slot] != (UPPER if v > 0 else LOWER)  # a win holds as a lower bound
        if ply > 0 and ((tt_dep[slot] >= depth and -MATE < v < MATE) or mate_ok):
            f = tt_flag[slot]
            if f == EXACT or (f == LOWER and v >= beta) or (f == UPPER and v <= alpha):
                if hit_move >= 0:
                    pvlen[ply + 1] = ply + 1
                    _set_pv(S, ply, hit_move)
                return v
    moves = S[8]
    if forced:
        moves[ply, 0] = fp[0]
        nm = 1
    else:
        nm = _gen(bd, S, c, ply, info[2] > 0, hit_move)
        width = ROOT_WIDTH if ply == 0 else WIDTH
        if nm > width:
            nm = width
    if nm == 0:
        return evaluate(bd, c) if info[2] == 0 else -(WIN - ply - 3)
    killers, hist = S[6], S[7]
    pcls = bd[3]
    a0 = alpha
    best = -INF
    best_move = moves[ply, 0]
    lmr = ctl[CTL_LMR]
    lmp = ctl[CTL_LMP]
    if lmp > 0 and (ply == 0 or forced or info[2] > 0 or R.class_count(bd, o, P_43) > 0):
        lmp = 0  # no pruning at the root, nor facing a four, an open three or a four-three point
    lmp_n = int(lmp * (3.0 + depth**1.32) / 10.0) if lmp > 0 else nm
    for i in range(nm):
        p = moves[ply, i]
        quiet = pcls[c, p] < P_FOUR and pcls[o, p] < P_FOUR
        if i >= lmp_n and best > -MATE:
            continue  # a late move (Rapfi's move-count pruning), once some move does not lose
        new_depth = depth if forced else depth - 1
        R.place(bd, p, c)
        if i == 0:
            v = -_solve(bd, S, np.int64(M_PVS), o, new_depth, -beta, -alpha, ply + 1, sp + 1)
        else:
            r = 0
            if depth >= 3 and i >= 4 and quiet and info[2] == 0:
                if lmr > 0:
                    r = int(0.5 + np.log(depth) * np.log(i) * 100.0 / lmr)
                    if r > new_depth - 1:
                        r = max(new_depth - 1, 0)
                else:
                    r = 1 if i < 10 else 2
            v = -_solve(bd, S, np.int64(M_PVS), o, new_depth - r, -alpha - 1, -alpha, ply + 1, sp + 1)
            if v > alpha and (r > 0 or v < beta):
                v = -_solve(bd, S, np.int64(M_PVS), o, new_depth, -beta, -alpha, ply + 1, sp + 1)
        R.remove(bd, p)
        if ctl[CTL_ABORT] != 0:
            return 0
        if v > best:
            best = v
            best_move = p
            if v > alpha:
                alpha = v
                _set_pv(S, ply, p)
                if alpha >= beta:
                    if quiet and killers[ply, 0] != p:
                        killers[ply, 1] = killers[ply, 0]
                        killers[ply, 0] = p
                    hist[c, p] += depth * depth
                    break
    flag = EXACT
    if best <= a0:
        flag = UPPER
    elif best >= beta:
        flag = LOWER
    if tt_key[slot] != key or tt_dep[slot] <= depth:
        tt_key[slot] = key
        tt_val[slot] = _mate_from_node(best, ply)
        tt_dep[slot] = min(depth, 127)
        tt_flag[slot] = flag
        tt_move[slot] = best_move
    return best


@njit(cache=True, nogil=True)
def vcf(bd, S, a: int, depth: int) -> int:
    """A winning first move for attacker a by continuous fours within depth of its moves, or -1."""
    return _solve(bd, S, np.int64(M_VCF), a, depth, np.int64(0), np.int64(0), np.int64(0), np.int64(0))


@njit(cache=True, nogil=True)
def vct(bd, S, a: int, depth: int, vcf_depth: int) -> int:
    """A winning first move for attacker a by threes and fours within depth of its moves
    (each position first tries a VCF of vcf_depth), or -1."""
    return _solve(bd, S, np.int64(M_VCT), a, depth, vcf_depth, np.int64(0), np.int64(0), np.int64(0))


@njit(cache=True, nogil=True)
def pvs(bd, S, c: int, depth: int, alpha: int, beta: int, ply: int) -> int:
    """Negamax with principal variation search; the score for c to move (see search.py)."""
    return _solve(bd, S, np.int64(M_PVS), c, depth, alpha, beta, ply, np.int64(0))
