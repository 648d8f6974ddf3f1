"""The Gomoku search: forced moves first, PVS with iterative deepening, aspiration windows,
a Zobrist transposition table in numpy arrays (a proven win or loss kept as its distance from
the node, read back at any depth), killer/history ordering and late-move
reductions; for the strongest agent a VCF before and a VCT after the PVS at the root, the move
checked against the opponent's VCF/VCT (and VCF as quiescence, off by default). A leaf where
the opponent has an open three adds ``F4_OFFSET`` to the static evaluation (the side to move
blocks the three with its move).

The kernel :func:`pvs` is a numba negamax over the board ``bd`` (:mod:`gorilla.gomoku.rules`)
and the state ``S`` (:func:`gorilla.gomoku.vcf.new_state`). Each node first looks at the
threats: a five of its own wins, two fives of the opponent lose, one is blocked at once
(without spending depth), an open four of its own wins when the opponent has no four.
When the opponent has an open three (a point that makes an open or double four) only
the defences are searched: the points where the opponent would make a four and the own
fours. Scores are from the side to move: ``WIN - ply`` for a win found at ply.

:func:`search` drives it from Python: iterative deepening with aspiration windows, a
timer thread that sets the stop flag at the hard limit, and a soft limit between
iterations.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from gorilla.gomoku import rules as R
from gorilla.gomoku.patterns import P_F4, order_tables
from gorilla.gomoku.vcf import (  # noqa: F401 - re-exported for callers of the search
    ASPIRATION,
    CTL_ABORT,
    CTL_F4OFF,
    CTL_LIMIT,
    CTL_LMP,
    CTL_LMR,
    CTL_LOCAL,
    CTL_NO33,
    CTL_NO43,
    CTL_NODES,
    CTL_NOEXT,
    CTL_ORDT,
    CTL_QVCF,
    CTL_SELDEPTH,
    CTL_STOP,
    CTL_TTMATE,
    INF,
    MATE,
    ROOT_WIDTH,
    WIN,
    evaluate,
    five_points,
    forced_moves,
    makes_four,
    new_state,
    playable,
    pvs,
    root_moves,
    vcf,
    vct,
)


@njit(cache=True, nogil=True)
def one_ply(bd, c: int) -> int:
    """The one-ply threat heuristic: win, block a five, else the best point by own + opponent
    threat score (with a slight preference for attack)."""
    o = 3 - c
    fp = np.empty(4, dtype=np.int32)
    if forced_moves(bd, c, fp) > 0:
        return fp[0]
    n = bd[6][R.S_N]
    w = bd[6][R.S_W]
    best = -1
    best_s = -1
    for y in range(n):
        base = (y + R.PAD) * w + R.PAD
        for x in range(n):
            p = base + x
            if bd[0][p] != R.EMPTY or (bd[5][p] == 0 and bd[6][R.S_STONES] > 0):
                continue
            if not playable(bd, p, c):
                continue
            s = (bd[4][c, p] * 5) // 4 + bd[4][o, p]
            if bd[3][c, p] == P_F4:
                s += 1 << 24
            if s > best_s:
                best_s = s
                best = p
    if bd[6][R.S_STONES] == 0:
        best = (n // 2 + R.PAD) * w + n // 2 + R.PAD
    return best


@dataclass
class SearchResult:
    """What a search found: the move, its score for the side to move, depth, nodes, time, PV."""

    move: int
    score: int = 0
    depth: int = 0
    nodes: int = 0
    seconds: float = 0.0
    pv: list[int] = field(default_factory=list)
    source: str = "pvs"  # pvs, vcf, vct, forced, defence (another move: the PVS's gave a VCT)

    @property
    def won(self) -> bool:
        """Whether the search proved a win for the side to move."""
        return self.score >= MATE

    @property
    def lost(self) -> bool:
        """Whether the search proved a loss for the side to move."""
        return self.score <= -MATE


DepthFn = Callable[[SearchResult], None]
THREAT_SHARE = 0.25  # of a move's time, for the root VCF at most (it takes a millisecond or less)
VCT_MIN_SECONDS = 0.005  # the root VCT runs when the PVS left at least this much of the move's time
ROOT_SOLVER_NODES = 400_000  # node limit of each root solver
DEFENCE_NODES = 30_000  # node limit of each solver checking an alternative to a move that loses to threats
# with threats, the root moves that lose to the opponent's VCF/VCT left out of the PVS (found in
# at most BAN_SHARE of the time): off, it scored 5/20 against AIWine where the engine without it
# scored 8/20
# (benchmarks/RESULTS.md#2026-11-25-gomoku-against-aiwine-and-rapfi-benchmarksgomoku_sparpy-gomoku_speedpy);
# with the local VCT and the per-iteration check, on: 8/20 where the engine without it scored 12/20
# (benchmarks/RESULTS.md#2026-11-27-gomoku-aiwines-threat-rules-and-a-local-vct)
ROOT_BAN = False
BAN_SHARE = 0.3  # of a move's time, at most, for finding the root moves that lose to the opponent's threats
BAN_NODES = 20_000  # node limit of each solver checking a root move for the opponent's VCF/VCT
FOUR_THREE_WIN = True  # a four-three against no four scores as a win in the PVS (as AIWine's search)
# a double three against no four, and an open four against anything, score as wins in the PVS
# (as AIWine's quickWinSearch)
DOUBLE_THREE_WIN = True
# at the PVS's leaves, a node whose opponent has an open three searches its answers (AIWine's
# isExpand); off: it cost two plies of depth (6.7 -> 4.9 in 0.3 s on 29 positions) and scored
# 16/34 against AIWine where the engine without it scored 17/34
# (benchmarks/RESULTS.md#2026-11-27-gomoku-aiwines-threat-rules-and-a-local-vct)
LEAF_THREE_EXTENSION = False
# the VCT's attacking moves after the first near its last one (AIWine's locality: plain fours
# within 4 steps on its lines, plain threes within 3 or a knight's move): 3.3x fewer nodes at
# depth 5, 98% of the wins; at depth 7 more wins than depth 5 without it in fewer nodes
LOCAL_VCT = True
# attacker moves of the root VCT and of the checks for the opponent's VCT; 9 (with 60,000 nodes a
# check) scored 24/40 against AIWine where 7 scored 23/40: no gain for the time
VCT_DEPTH = 7
# the checks for the opponent's VCF/VCT search the whole board too (GLOBAL_CHECK_DEPTH attacker
# moves) when the local VCT finds no win, within the same node limit and time: the local VCT
# misses wins whose threes have no second line, 12 of main's 48 losses in 100 games against
# AIWine (benchmarks/gomoku_losses.py). Off: it did not score more. Against AIWine on main's
# openings (52/100, as White 18/50): 49/100 (W 18/50) with 7 moves, 51.5/100 (W 19/50) with
# GLOBAL_ROOT_VCT too, 50.5/100 (W 19/50) with both and 9 moves
# (benchmarks/RESULTS.md#2026-11-27-gomoku-where-the-games-are-lost-session-22)
GLOBAL_CHECK = False
GLOBAL_CHECK_DEPTH = 9
# the root VCT of the side to move searches the whole board when the local one proves nothing
# (in a third of the time left); off, as GLOBAL_CHECK
GLOBAL_ROOT_VCT = False
# after each PVS iteration, the best move is checked for the opponent's VCF/VCT (AIWine's
# checkOppVct); when it loses, it is banned at the root and the iteration searched again; with
# the rules above and the local VCT: 23/40 against AIWine, as White 10/20 (before: 20/40, 7/20)
# (benchmarks/RESULTS.md#2026-11-27-gomoku-aiwines-threat-rules-and-a-local-vct)
CHECK_EACH_ITERATION = True
CHECK_SHARE = 0.5  # of a move's time, the checks start only before this
# of a move's time, a new PVS iteration starts only before this; 0.55 (checks to 0.65) scored
# 23/40 against AIWine, as 0.4 did
# (benchmarks/RESULTS.md#2026-11-27-gomoku-aiwines-threat-rules-and-a-local-vct); 0.75, with the
# PVS stopped at 88% by a timer of its own and a stopped iteration's better root move kept (0.475 s
# a move where this takes 0.38 s): 356/600 against AIWine where this scored 352/600 on the same
# openings, not kept
# (benchmarks/RESULTS.md#2026-11-29-gomoku-the-moves-unused-time-spent-on-a-deeper-iteration-not-kept-gomokus-mistake-dots-and-threshold-a-swap2-opening-kept-in-the-record-session-37)  # noqa: E501
SOFT_SHARE = 0.4
# VCF at the PVS's leaves; off: it made pvs+vct weaker than pvs
# (benchmarks/RESULTS.md#2026-11-22-evening-gomoku-python-benchmarksgomokupy)
QUIESCENCE_VCF = False
# added to the evaluation at a PVS leaf where the opponent has an open three: the static sum
# counts the three's four-making points as if they stood, and the side to move blocks one of
# them with its very move. Fitted to Rapfi's values of leaf positions: +4,168 and +4,748 in two
# samples (benchmarks/gomoku_leafbias.py); by the judge, White's moves of plies 3-9 lost 0.048
# a move where 0 lost 0.057-0.060 (2,000: 0.054; 6,000: 0.055); against AIWine 163.5/300 where
# 0 scored 165.5/300 on the same openings, against Rapfi 12/40 where 0 scored 8/40
# (benchmarks/RESULTS.md#2026-11-27-gomoku-the-evaluation-at-a-leaf-facing-an-open-three-session-24)
F4_OFFSET = 4000
# a proven win or loss in the transposition table, kept as its distance from the node, is read
# back at any depth (the table's other scores only at their own depth or more); on: the forced
# wins of benchmarks/gomoku_mates.py 49/63 where off proved 47/63, median depth of the others 9
# where off reached 8; against Rapfi 40/160 where off scored 37/160 on the same openings (paired:
# 11 games better, 8 worse; within the noise)
# (benchmarks/RESULTS.md#2026-11-28-gomoku-mate-scores-in-the-table-kept-rapfis-pruning-and-reductions-tried-session-28)  # noqa: E501
TT_MATE = True
# Rapfi's move-count pruning (the moves after the first LMP_SCALE/10 x (3 + depth^1.32), once one
# does not lose; not at the root, nor facing a four, an open three or a four-three point): 0 is
# off. At 5 with Rapfi's reductions (LMR_DIVISOR 100) and a static futility cut, two plies
# deeper in the same time and 9/80 against Rapfi where TT_MATE alone scored 22/80
LMP_SCALE = 0
# the late-move reductions' divisor: 0 keeps Gorilla's (1 ply from the fifth move, 2 from the
# eleventh); N reduces log(depth) x log(move) x 100/N plies (Rapfi's with 100): with TT_MATE,
# 22/80 against Rapfi as without
LMR_DIVISOR = 0
# the PVS orders its moves by the tables of assets/gomoku_order.txt (patterns.order_tables, fitted
# to Rapfi's moves by benchmarks/gomoku_orderfit.py) where the rule is not renju; off: by the
# linear point scores. Rapfi's move among the first 8 in 74.9% of held-out quiet positions where
# the point scores have 69.5%; against Rapfi 22/80 where TT_MATE alone scored 22/80, with
# LMP_SCALE 10 19/80, with LMR_DIVISOR 100 61/240 where main scored 60/240 on the same openings
# (benchmarks/RESULTS.md#2026-11-28-gomoku-the-move-ordering-fitted-to-rapfis-moves-not-kept-session-29).
# On, an agent's own threat weights (pvs:w_three=120) set its evaluation and its solvers' order, not the PVS's
ORDER_TABLES = False


def _timer(ctl: np.ndarray, seconds: float, done: threading.Event) -> threading.Thread:
    """Set the stop flag after seconds, and keep it set (every 5 ms) until done: a solver that
    clears the flag for the next phase cannot outlive the hard limit."""

    def run() -> None:
        if done.wait(seconds):
            return
        while not done.is_set():
            ctl[CTL_STOP] = 1
            done.wait(0.005)

    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t


def _reset(S: tuple, node_limit: int) -> None:
    ctl = S[0]
    ctl[CTL_NODES] = 0
    ctl[CTL_STOP] = 0
    ctl[CTL_ABORT] = 0
    ctl[CTL_SELDEPTH] = 0
    ctl[CTL_LIMIT] = node_limit


def _iteration(bd: tuple, S: tuple, color: int, depth: int, prev: int) -> int:
    """One PVS iteration at depth, in an aspiration window around prev (from depth 3, when prev
    is no mate score and above -INF), searched again with the full window when it fails."""
    if depth >= 3 and -MATE < prev < MATE:
        lo, hi = prev - ASPIRATION, prev + ASPIRATION
    else:
        lo, hi = -INF, INF
    v = int(pvs(bd, S, color, depth, lo, hi, 0))
    if S[0][CTL_ABORT] == 0 and (v <= lo or v >= hi) and (lo, hi) != (-INF, INF):
        v = int(pvs(bd, S, color, depth, -INF, INF, 0))
    return v


def _solve_root(S: tuple, solver: Callable[[], int], node_limit: int, seconds: float) -> int:
    """Run a root solver with its own node limit and at most seconds (the main timer may stop
    it sooner); its first move or -1. It cannot clear the main timer's stop flag for good."""
    ctl = S[0]
    _reset(S, node_limit)
    ctl[CTL_LIMIT] = min(node_limit, ROOT_SOLVER_NODES)
    own = threading.Event()
    sub = _timer(ctl, seconds, own)
    try:
        return int(solver())
    finally:
        own.set()
        sub.join()  # it sets the stop flag no more


def _opponent_wins_after(bd: tuple, S: tuple, color: int, p: int, nodes: int, seconds: float) -> bool | None:
    """Whether the opponent has a VCF or a VCT once color plays p; None when the solvers
    ran out of nodes or time before they knew."""
    o = 3 - color
    ctl = S[0]
    local = int(ctl[CTL_LOCAL])
    solvers = [(lambda: vcf(bd, S, o, 20), local), (lambda: vct(bd, S, o, VCT_DEPTH, 12), local)]
    if local and GLOBAL_CHECK:  # then the whole board's VCT
        solvers.append((lambda: vct(bd, S, o, GLOBAL_CHECK_DEPTH, 12), 0))
    deadline = time.perf_counter() + seconds
    R.place(bd, p, color)
    try:
        for solver, mode in solvers:
            ctl[CTL_LOCAL] = mode
            left = deadline - time.perf_counter()
            if left <= 0:
                return None
            if _solve_root(S, solver, nodes, left) >= 0:
                return True
            if ctl[CTL_ABORT] != 0:
                return None
        return False
    finally:
        ctl[CTL_LOCAL] = local
        R.remove(bd, p)


def _ban_losing(bd: tuple, S: tuple, color: int, deadline: float) -> int:
    """When the opponent (with color passing) has a VCF or a VCT, mark the root moves after
    which it still has one in S's root ban, so the PVS searches only the others; the count
    banned. Unchecked moves (the deadline passed) stay allowed; when every move loses, none
    is banned. Without a threat nothing is banned: a move of color cannot give the opponent one."""
    ban = S[16]
    ban[:] = 0
    o = 3 - color
    fp = np.empty(4, dtype=np.int32)
    if five_points(bd, o, fp) > 0 or five_points(bd, color, fp) > 0:
        return 0  # forced play: the PVS handles it
    left = deadline - time.perf_counter()
    if left <= 0:
        return 0
    threat = False
    for solver in (lambda: vcf(bd, S, o, 20), lambda: vct(bd, S, o, VCT_DEPTH, 12)):
        if _solve_root(S, solver, ROOT_SOLVER_NODES, left / 3) >= 0:
            threat = True
            break
    if not threat:
        return 0
    cand = np.empty(ROOT_WIDTH, dtype=np.int32)
    k = int(root_moves(bd, S, color, cand))
    banned = []
    checked = 0
    for q in cand[:k]:
        left = deadline - time.perf_counter()
        if left <= 0:
            break
        if _opponent_wins_after(bd, S, color, int(q), BAN_NODES, left):
            banned.append(int(q))
        checked += 1
    if checked == k and len(banned) == k:
        return 0  # every move loses: let the PVS choose among them
    for q in banned:
        ban[q] = 1
    return len(banned)


def _defend(bd: tuple, S: tuple, color: int, move: int, node_limit: int, deadline: float) -> int:
    """move, or when it gives the opponent a win by threats (VCF/VCT), the first of the PVS's
    root moves (in its order) that gives none; move when none is found by the deadline."""
    if not _opponent_wins_after(bd, S, color, move, node_limit, deadline - time.perf_counter()):
        return move
    seen = {move}
    for q in S[8][0, :ROOT_WIDTH]:
        q = int(q)
        if q in seen or q <= 0 or bd[0][q] != R.EMPTY or not playable(bd, q, color):
            continue
        seen.add(q)
        left = deadline - time.perf_counter()
        if left <= 0:
            break
        if _opponent_wins_after(bd, S, color, q, min(node_limit, DEFENCE_NODES), left) is False:
            return q
    return move


def solve_vcf(bd: tuple, S: tuple, color: int, depth: int = 20, node_limit: int = 2_000_000) -> int:
    """The first move of a VCF win for color, or -1 (none found within the limits)."""
    _reset(S, node_limit)
    return int(vcf(bd, S, color, depth))


def solve_vct(
    bd: tuple, S: tuple, color: int, depth: int = 6, vcf_depth: int = 12, node_limit: int = 2_000_000
) -> int:
    """The first move of a VCT win for color (threes and fours), or -1."""
    _reset(S, node_limit)
    return int(vct(bd, S, color, depth, vcf_depth))


def search(
    bd: tuple,
    S: tuple,
    color: int,
    seconds: float = 1.0,
    max_depth: int = 64,
    node_limit: int = 1 << 62,
    threats: bool = False,
    on_depth: DepthFn | None = None,
) -> SearchResult:
    """Iterative-deepening PVS for color within seconds (hard limit; a new iteration starts
    only while the search has used under SOFT_SHARE of its time). threats: a root VCF first (at
    most THREAT_SHARE of the time), then the same PVS, each iteration's move checked for the
    opponent's VCF/VCT (CHECK_EACH_ITERATION, within CHECK_SHARE of the time: a losing move is
    banned at the root and the iteration searched again), then a root VCT in the time the PVS
    left, then, when the PVS's move (unchecked) gives the opponent a VCF or VCT, the first of
    its root moves that gives none; VCF as quiescence if QUIESCENCE_VCF.
    on_depth is called with the result of every finished iteration (the live view)."""
    t0 = time.perf_counter()
    ctl = S[0]
    done = threading.Event()
    main_timer = _timer(ctl, seconds, done)
    try:
        fp = np.empty(4, dtype=np.int32)
        if five_points(bd, color, fp) > 0:
            return SearchResult(int(fp[0]), WIN, 0, 0, time.perf_counter() - t0, [int(fp[0])], "forced")
        if threats:  # a win by fours first: cheap, and certain when found
            mv = _solve_root(S, lambda: vcf(bd, S, color, 20), node_limit, seconds * THREAT_SHARE)
            if mv >= 0:
                return SearchResult(mv, MATE, 0, int(ctl[CTL_NODES]), time.perf_counter() - t0, [mv], "vcf")
        S[16][:] = 0
        if threats and ROOT_BAN:  # the moves that lose to the opponent's VCF/VCT are not searched
            _ban_losing(bd, S, color, t0 + seconds * BAN_SHARE)
        _reset(S, node_limit)
        t_pvs = time.perf_counter()
        left = max(0.0, seconds - (t_pvs - t0))
        ctl[CTL_QVCF] = 1 if threats and QUIESCENCE_VCF else 0
        ctl[CTL_NO43] = 0 if FOUR_THREE_WIN else 1
        ctl[CTL_NO33] = 0 if DOUBLE_THREE_WIN else 1
        ctl[CTL_NOEXT] = 0 if LEAF_THREE_EXTENSION else 1
        ctl[CTL_F4OFF] = F4_OFFSET
        ctl[CTL_LOCAL] = 1 if LOCAL_VCT else 0
        ctl[CTL_TTMATE] = 1 if TT_MATE else 0
        ctl[CTL_LMP] = LMP_SCALE
        ctl[CTL_LMR] = LMR_DIVISOR
        ctl[CTL_ORDT] = 1 if ORDER_TABLES else 0
        if ORDER_TABLES:
            S[19][:] = order_tables()
        S[6][:] = -1
        S[7][:] //= 8
        best = SearchResult(-1, 0, 0, 0, 0.0, [], "pvs")
        checked: dict[int, bool | None] = {}  # root moves checked for the opponent's threats
        prev = 0
        spent = 0  # nodes of the finished checks (each solver counts from 0)
        for depth in range(1, max_depth + 1):
            v = _iteration(bd, S, color, depth, prev)
            while (
                threats
                and CHECK_EACH_ITERATION
                and ctl[CTL_ABORT] == 0
                and abs(v) < MATE
                and int(S[11][0]) > 0
                and time.perf_counter() - t_pvs < left * CHECK_SHARE
            ):
                # AIWine's checkOppVct: the iteration's move must not give the opponent a win by threats
                m = int(S[10][0, 0])
                if m not in checked:
                    spent += int(ctl[CTL_NODES])
                    deadline = t_pvs + left * CHECK_SHARE
                    checked[m] = _opponent_wins_after(
                        bd, S, color, m, DEFENCE_NODES, deadline - time.perf_counter()
                    )
                    _reset(S, node_limit)  # the main timer sets the stop flag again past the hard limit
                if not checked[m] or S[16][m] != 0:
                    break
                S[16][m] = 1  # lost to threats: the PVS looks for another move
                if int(np.count_nonzero(S[16])) >= ROOT_WIDTH:
                    break
                v = _iteration(bd, S, color, depth, -INF)
                if int(S[11][0]) == 0:  # every move banned: the PVS chooses among them all
                    S[16][:] = 0
                    v = _iteration(bd, S, color, depth, -INF)
                    break
            if ctl[CTL_ABORT] != 0:
                break
            pvl = int(S[11][0])
            pv = [int(m) for m in S[10][0, :pvl]]
            if pv:
                best = SearchResult(pv[0], v, depth, 0, 0.0, pv, "pvs")
            else:
                best.score, best.depth = v, depth
            prev = v
            if on_depth is not None:
                best.nodes, best.seconds = spent + int(ctl[CTL_NODES]), time.perf_counter() - t0
                on_depth(best)
            if abs(v) >= MATE:
                break
            if time.perf_counter() - t_pvs > left * SOFT_SHARE:
                break
        total = spent + int(ctl[CTL_NODES])
        rest = seconds - (time.perf_counter() - t0)
        if threats and not best.won and rest > VCT_MIN_SECONDS:
            # the time the PVS left (it starts no iteration past 40% of it): half for a win by
            # threes and fours, the rest to check that the move gives the opponent none; the
            # main timer still ends both at the hard limit
            mv = _solve_root(S, lambda: vct(bd, S, color, VCT_DEPTH, 12), node_limit, rest / 2)
            total += int(ctl[CTL_NODES])
            rest = seconds - (time.perf_counter() - t0)
            if mv < 0 and LOCAL_VCT and GLOBAL_ROOT_VCT and ctl[CTL_ABORT] == 0 and rest > VCT_MIN_SECONDS:
                # the local VCT proved nothing: the whole board's, in a third of the time left
                ctl[CTL_LOCAL] = 0
                try:
                    mv = _solve_root(S, lambda: vct(bd, S, color, VCT_DEPTH, 12), node_limit, rest / 3)
                finally:
                    ctl[CTL_LOCAL] = 1
                total += int(ctl[CTL_NODES])
            if mv >= 0:
                return SearchResult(mv, MATE, best.depth, total, time.perf_counter() - t0, [mv], "vct")
            if best.move >= 0 and five_points(bd, 3 - color, fp) == 0 and checked.get(best.move) is not False:
                safe = _defend(bd, S, color, best.move, node_limit, t0 + seconds)
                total += int(ctl[CTL_NODES])
                if safe != best.move:
                    best = SearchResult(safe, best.score, best.depth, 0, 0.0, [safe], "defence")
        if best.move < 0:
            best.move = int(one_ply(bd, color))
        best.nodes = total
        best.seconds = time.perf_counter() - t0
        return best
    finally:
        done.set()
        main_timer.join()
        ctl[CTL_STOP] = 0


def time_budget(
    timeout_turn_ms: int | None, time_left_ms: int | None, stones: int, points: int, margin_ms: int = 80
) -> float:
    """Seconds to think on a move from the Gomocup limits (None: not given; 0 turn = play fast)."""
    budget = 5.0
    if timeout_turn_ms is not None:
        budget = max(0.01, (timeout_turn_ms - margin_ms) / 1000) if timeout_turn_ms > 0 else 0.05
    if time_left_ms is not None and time_left_ms > 0:
        moves_left = max(8, (points - stones) // 4)
        budget = min(budget, max(0.01, (time_left_ms - margin_ms) / 1000 / moves_left))
    return budget
