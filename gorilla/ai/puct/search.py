"""PUCT tree search over a neural network's evaluations (AlphaZero, KataGo).

Every leaf is evaluated by the net: its policy gives the priors of the leaf's
children, its win rate and score lead the leaf's value; there are no playouts.
A descent picks at each node the child maximising

    Q(child) + c(N) * P(child) * sqrt(N) / (1 + N(child))

with ``c(N) = c_puct + c_puct_log * log((N + c_puct_base) / c_puct_base)``; a child
not visited yet gets the first-play urgency ``Q(node) - fpu * sqrt(visited prior)``.
Q is a utility: the win/loss value in [-1, 1] plus a score term
``static * f(lead) + dynamic * f(lead - centre)``, ``f(x) = 2/pi * atan(x / scale)``,
so that a won game is still played for points (KataGo's score utility).

Leaves are gathered ``batch`` at a time with a virtual loss on the way down, so
the net runs on batches; worker threads do the same on one tree under a lock
(the forward pass runs outside it: numpy releases the GIL in its matrix products).
After two passes a node is terminal: counted with the ownership the net gave
the position before the last pass (dead stones removed), komi included.

The tree is plain Python objects; the choice of a child is one numba kernel.

For KataGo's analysis engine (:mod:`gorilla.gtp.analysis_engine`) a search also takes: moves
it may not explore for a player until some depth (:meth:`Search.set_avoid`, KataGo's
``avoidMoves`` / ``allowMoves``), KataGo's wide root noise (``SearchParams.wide_root_noise``:
at the root a flatter policy and, half of the time, a random bonus to each child's value), and
the ownership after each root move (``Search.child_ownership``).
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np
from numba import njit

from gorilla.rules.board import BLACK, COLOR, PASS, WHITE
from gorilla.rules.game import Game


@dataclass
class Evaluation:
    """What the net says of a position, for the side to move there.

    ``policy`` is indexed by Gorilla's flat points (length ``MAX_POINTS``, padding 0) and
    ``pass_prob`` is the pass move's; ``ownership`` is per flat point, +1 the side to move's.
    """

    policy: np.ndarray
    pass_prob: float
    winrate: float
    lead: float
    ownership: np.ndarray
    stdev: float = 0.0  # the spread of the final score, in points


class Evaluator(Protocol):
    """Evaluates positions in batches (the net behind the search)."""

    def evaluate_games(self, games: Sequence[Game]) -> list[Evaluation]:
        """One evaluation per game, for each game's side to move."""
        ...


@dataclass
class SearchParams:
    """The search's constants (KataGo's defaults where it has them)."""

    c_puct: float = 1.0
    c_puct_log: float = 0.45
    c_puct_base: float = 500.0
    fpu: float = 0.2  # first-play urgency reduction below the root
    root_fpu: float = 0.1
    static_score: float = 0.1  # weight of the score term centred on 0
    dynamic_score: float = 0.3  # weight of the score term centred on the root's expected lead
    score_scale: float = 0.0  # 0: the board's side length / 2
    batch: int = 4  # 19x19, one thread: 272 visits/s at 4, 229 at 8 or 1 (benchmarks/puct.py --batch)
    virtual_loss: float = 1.0
    # KataGo's refinements (0: off, Gorilla's plain rule; KataGo 1.17.2's value in the comment).
    # On by default (benchmarks/search_quality.py): the LCB choice (0.16 +- 0.10 points and
    # 0.27 +- 0.11% win rate less lost a move at 100 visits) and the recomputed backup with value
    # weighting and noise pruning (0.09 +- 0.05 points, 0.13 +- 0.10% less at 200 visits); the
    # others measured no gain.
    fpu_pow: float = 0.0  # FPU parent value: Q toward the net utility by visited prior ** pow (2)
    stdev_scale: float = 0.0  # exploration scaled by the children's utility spread (0.85)
    stdev_prior: float = 0.4  # that spread's prior (0.40)
    stdev_prior_weight: float = 2.0  # and its weight in visits (2.0)
    lcb: float = 5.0  # the move chosen by lower confidence bound, in standard deviations (5)
    lcb_min_prop: float = 0.15  # a candidate for the LCB choice has this share of the top visits (0.15)
    static_scale: float = 0.0  # the static score term's scale in board sides (2.0); 0: score_scale
    dynamic_scale: float = 0.0  # the dynamic term's, likewise (0.75)
    centre_zero: float = 0.0  # the dynamic term's centre pulled toward 0 by this share (0.20)
    score_blur: float = 0.0  # 1: the score terms averaged over the net's score spread (KataGo's)
    # A node's value recomputed from its children's values (KataGo's recomputeNodeStats), not
    # the plain mean of the leaves below it; on when either of these is above 0:
    value_weight: float = 0.25  # children below the mean weighted by P(better) ** this (0.25)
    noise_prune: float = 0.15  # over-visited worse children lose weight on this utility scale (0.15)
    subtree_bias: float = 0.0  # own utility corrected by its context's mean search error (0.45)
    wide_root_noise: float = 0.0  # KataGo's wideRootNoise: the root explored wider (its analysis: 0.04)


_NONE = np.zeros(0, np.float64)  # a node's arrays before its expansion (shared, never written)
_NONE.flags.writeable = False


class Node:
    """A position in the tree: its children's moves, priors and statistics.

    The statistics of an edge are kept in the parent's arrays, from the point of
    view of the player who chooses among them (the side to move at the node).
    """

    __slots__ = (
        "moves",
        "prior",
        "n",
        "u",
        "w",
        "s",
        "kids",
        "visits",
        "u_sum",
        "u2",
        "u2_sum",
        "nn_u",
        "nn",
        "terminal",
        "pending",
        "real",
        "cu",
        "cwt",
        "avg_w",
        "avg_s",
        "wsum",
        "sv_key",
        "sv_delta",
        "sv_weight",
    )

    def __init__(self) -> None:
        self.moves: np.ndarray | None = None  # int32 points (PASS included); None until expanded
        self.prior = _NONE
        self.n = _NONE  # visits (virtual losses included while pending)
        self.u = _NONE  # utility sums
        self.w = _NONE  # win-rate sums
        self.s = _NONE  # score-lead sums
        self.kids: list[Node | None] = []
        self.visits = 0  # visits of the node itself (its own evaluation included)
        self.u_sum = 0.0  # utility sum for the side to move at the node
        self.u2 = _NONE  # squared-utility sums of the edges
        self.u2_sum = 0.0  # squared-utility sum of the node
        self.nn_u = 0.0  # the utility of the node's own evaluation (the net's, no search)
        self.nn: Evaluation | None = None
        self.terminal: tuple[float, float] | None = None  # (win rate, lead) for the side to move
        self.pending = False  # an evaluation is on its way
        # the recomputed values (SearchParams.value_weight / noise_prune): per edge the real
        # visits, the child's mean utility (chooser's view) and its weight; the node's means
        self.real = _NONE
        self.cu = _NONE
        self.cwt = _NONE
        self.avg_w = 0.5
        self.avg_s = 0.0
        self.wsum = 0.0
        self.sv_key: int | None = None  # the subtree value bias's context (SearchParams.subtree_bias)
        self.sv_delta = 0.0  # this node's share of its context's sums
        self.sv_weight = 0.0

    @property
    def expanded(self) -> bool:
        """Whether the node has its children (its evaluation arrived)."""
        return self.moves is not None

    def q(self) -> float:
        """The mean utility for the side to move at the node (0 before any visit)."""
        return self.u_sum / self.visits if self.visits else 0.0


@njit(cache=True, nogil=True)
def _scale_and_urgency(
    prior: np.ndarray,
    n: np.ndarray,
    parent_q: float,
    fpu: float,
    c_puct: float,
    parent_nn: float,
    fpu_pow: float,
) -> tuple[float, float]:
    """The exploration term's scale (``c_puct * sqrt(visits)``) and the unvisited children's
    first-play urgency (see :func:`pick_child`), shared by :func:`pick_child` and
    :func:`pick_root_child`."""
    total = 0.0
    seen = 0.0
    for i in range(n.shape[0]):
        total += n[i]
        if n[i] > 0:
            seen += prior[i]
    w = min(1.0, seen**fpu_pow) if fpu_pow > 0 else 1.0
    return c_puct * math.sqrt(total + 0.01), w * parent_q + (1.0 - w) * parent_nn - fpu * math.sqrt(seen)


@njit(cache=True, nogil=True)
def pick_child(
    prior: np.ndarray,
    n: np.ndarray,
    u: np.ndarray,
    parent_q: float,
    fpu: float,
    c_puct: float,
    parent_nn: float,
    fpu_pow: float,
) -> int:
    """The index of the child with the highest PUCT value (first-play urgency for unvisited ones).

    The urgency starts from ``w * parent_q + (1 - w) * parent_nn``, ``w = min(1, seen ** fpu_pow)``
    with ``seen`` the prior mass of the visited children (KataGo's fpuParentWeightByVisitedPolicy):
    ``fpu_pow`` 0 takes parent_q alone. Every argument is required: a call that left some to
    their defaults would compile a second numba specialization of the kernel.
    """
    explore, urgency = _scale_and_urgency(prior, n, parent_q, fpu, c_puct, parent_nn, fpu_pow)
    best = -1
    best_v = -1e300
    for i in range(n.shape[0]):
        q = u[i] / n[i] if n[i] > 0 else urgency
        v = q + explore * prior[i] / (1.0 + n[i])
        if v > best_v:
            best_v = v
            best = i
    return best


@njit(cache=True, nogil=True)
def pick_root_child(
    prior: np.ndarray,
    explore: np.ndarray,
    bonus: np.ndarray,
    n: np.ndarray,
    u: np.ndarray,
    parent_q: float,
    fpu: float,
    c_puct: float,
    parent_nn: float,
    fpu_pow: float,
) -> int:
    """:func:`pick_child` with KataGo's wide root noise: ``explore`` (the priors flattened) in the
    exploration term and ``bonus`` added to each child's value, the urgency's included; the
    visited prior mass that lowers the urgency stays the net's (``prior``)."""
    scale, urgency = _scale_and_urgency(prior, n, parent_q, fpu, c_puct, parent_nn, fpu_pow)
    best = -1
    best_v = -1e300
    for i in range(n.shape[0]):
        q = u[i] / n[i] if n[i] > 0 else urgency
        v = q + bonus[i] + scale * explore[i] / (1.0 + n[i])
        if v > best_v:
            best_v = v
            best = i
    return best


@njit(cache=True, nogil=True)
def _tdist3_cdf(z: float) -> float:
    """The CDF of Student's t with 3 degrees of freedom (KataGo's value-weight distribution)."""
    r3 = math.sqrt(3.0)
    return 0.5 + (z / (r3 * (1.0 + z * z / 3.0)) + math.atan(z / r3)) / math.pi


@njit(cache=True, nogil=True)
def recompute_values(
    prior: np.ndarray,
    real: np.ndarray,
    cu: np.ndarray,
    w: np.ndarray,
    s: np.ndarray,
    u2: np.ndarray,
    cwt: np.ndarray,
    prune_scale: float,
    weight_exp: float,
) -> tuple[float, float, float, float, float, float]:
    """A node's children's weighted sums (KataGo's recomputeNodeStats, less the node's own evaluation).

    Children (in prior order) with ``real`` visits count with weight ``cwt`` (their own weight
    sums), less two corrections: noise pruning (``prune_scale`` > 0: a child worse than the mean
    of the children before it, with more than twice its policy share of their weight, loses
    part of the excess, more the worse it is) and value weighting (``weight_exp`` > 0: each
    weight times ``P(child better than the mean) ** weight_exp`` under a t-distribution whose
    spread shrinks with the weight), normalized back to the pruned total. ``w`` / ``s`` / ``u2``
    hold each edge's real visits times the child's win rate, lead and mean squared utility.
    Returns the sums of weight times utility, win rate, lead and squared utility, the weight
    sum, and the weight sum before the corrections.
    """
    k = prior.shape[0]
    wt = np.zeros(k)
    total = 0.0
    count = 0
    for i in range(k):
        if real[i] > 0:
            wt[i] = cwt[i]
            total += wt[i]
            count += 1
    original = total
    if prune_scale > 0 and count > 1:
        usum = 0.0
        wsum = 0.0
        psum = 0.0
        for i in range(k):
            if real[i] <= 0:
                continue
            util = cu[i]
            old = wt[i]
            pr = max(1e-30, prior[i])
            if wsum > 0 and psum > 0:
                gap = usum / wsum - util
                if gap > 0:
                    share = 2.0 * wsum * pr / psum
                    if old > share:
                        wt[i] = old - (old - share) * (1.0 - math.exp(-gap / prune_scale))
            usum += util * wt[i]
            wsum += wt[i]
            psum += pr
        total = wsum
    if weight_exp > 0 and count > 0 and total > 0:
        simple = 0.0
        for i in range(k):
            if real[i] > 0:
                simple += cu[i] * wt[i]
        simple /= total
        scaled = 0.0
        for i in range(k):
            if real[i] > 0:
                sd = math.sqrt(1e-8 + 1.0 / (1.5 * math.sqrt(wt[i])))
                wt[i] *= (_tdist3_cdf((cu[i] - simple) / sd) + 1e-4) ** weight_exp
                scaled += wt[i]
        for i in range(k):
            wt[i] *= total / scaled
    su = 0.0
    sw = 0.0
    ss = 0.0
    su2 = 0.0
    for i in range(k):
        if real[i] > 0:
            f = wt[i] / real[i]
            su += wt[i] * cu[i]
            sw += f * w[i]
            ss += f * s[i]
            su2 += f * u2[i]
    return su, sw, ss, su2, total, original


def utility_stdev_factor(visits: int, q: float, u2_sum: float, p: SearchParams) -> float:
    """KataGo's exploration factor from a node's utility spread: ``1 + scale * (stdev / prior - 1)``.

    The spread is the node's utilities' standard deviation with ``stdev_prior`` counted
    ``stdev_prior_weight`` times; 1 when ``stdev_scale`` is 0.
    """
    if p.stdev_scale <= 0:
        return 1.0
    if visits <= 1:
        sd = p.stdev_prior
    else:
        q2 = q * q
        sq = max(u2_sum / visits, q2)
        pw = p.stdev_prior_weight
        sd = math.sqrt(max(0.0, ((q2 + p.stdev_prior**2) * pw + sq * visits) / (pw + visits - 1.0) - q2))
    return 1.0 + p.stdev_scale * (sd / p.stdev_prior - 1.0)


def lcb_of(n: float, u: float, u2: float, radius: float, stdevs: float) -> float:
    """KataGo's lower confidence bound of an edge's mean utility (n visits, sums u and u2).

    A prior of weight ``1 / n**2`` at the widest variance (``radius``: the utility's range
    half-width) keeps the bound sane after few visits.
    """
    if n <= 0:
        return -2.0 * radius * stdevs
    mean = u / n
    sq = max(u2 / n, mean * mean + 1e-8)
    pw = 1.0 / (n * n)
    sq = (sq * n + (sq + radius * radius) * pw) / (n + pw)
    ess = (n + pw) ** 2 / (n + pw * pw)
    return mean - stdevs * math.sqrt(max(0.0, sq - mean * mean) / ess)


@dataclass
class RootInfo:
    """The root's candidates after a search (side to move's view), for moves and analysis."""

    moves: list[int] = field(default_factory=list)
    visits: list[int] = field(default_factory=list)
    winrate: list[float] = field(default_factory=list)
    lead: list[float] = field(default_factory=list)
    prior: list[float] = field(default_factory=list)
    utility: list[float] = field(default_factory=list)
    stdev: list[float] = field(default_factory=list)
    pvs: list[list[int]] = field(default_factory=list)
    pv_visits: list[list[int]] = field(default_factory=list)
    utility_lcb: list[float] = field(default_factory=list)  # KataGo's lower confidence bound of the utility


class Search:
    """One tree over a game; ``run`` adds visits, ``advance`` reuses the tree after moves."""

    def __init__(self, evaluator: Evaluator, params: SearchParams | None = None, seed: int | None = None):
        self.evaluator = evaluator
        self.params = params or SearchParams()
        self.rng = np.random.default_rng(seed)
        self.game: Game | None = None
        self.root = Node()
        self.lock = threading.Lock()
        self.centre = 0.0  # the dynamic score term's centre: the root's expected lead (pulled to 0)
        self.own_sum: np.ndarray | None = None  # the root's ownership summed over the search (Black +)
        self.own_n = 0
        self.evals = 0
        p = self.params
        self.recompute = p.value_weight > 0 or p.noise_prune > 0 or p.subtree_bias > 0
        self.sv_table: dict[int, list[float]] = {}  # subtree value bias: context -> [delta sum, weight sum]
        self.avoid: dict[int, dict[int, int]] = {}  # colour -> {move: the depth it is avoided until}
        self.avoid_depth = 0  # the deepest of those depths
        self.child_own: dict[int, np.ndarray] | None = None  # root move -> ownership sum (Black +)
        self.child_own_n: dict[int, int] = {}
        self._wide_prior: np.ndarray | None = None  # the root's priors flattened by the wide root noise

    # --- what the analysis engine asks for --------------------------------------------------
    def set_avoid(self, avoid: dict[int, dict[int, int]]) -> None:
        """Moves not to explore (KataGo's avoidMoves): per colour, move -> the depth (plies from
        the root, the root's own moves at depth 0) from which the move may be explored again.
        The tree is cleared; the next :meth:`set_game` starts a new one."""
        self.avoid = {c: dict(m) for c, m in avoid.items() if m}
        self.avoid_depth = max((d for m in self.avoid.values() for d in m.values()), default=0)
        self.game = None
        self.root = Node()

    def track_child_ownership(self) -> None:
        """Keep the ownership after each root move from now on (:meth:`child_ownership`)."""
        self.child_own = {}
        self.child_own_n = {}

    def child_ownership(self, move: int) -> np.ndarray | None:
        """The ownership averaged over the leaves below a root move, Black +1 (None: none seen)."""
        if self.child_own is None or not self.child_own_n.get(move):
            return None
        return self.child_own[move] / self.child_own_n[move]

    # --- the tree's position ---------------------------------------------------------------
    def set_game(self, game: Game) -> int:
        """Search game's current position from now on, keeping the subtree it reached; the visits kept."""
        old = self.game
        node = None
        if old is not None and self._same_start(old, game):
            extra = game.moves[len(old.moves) :]
            node = self.root
            for m in extra:
                if node is None or not node.expanded:
                    node = None
                    break
                hit = np.flatnonzero(node.moves == m.point)
                node = node.kids[int(hit[0])] if hit.size else None
        self.game = game.copy()
        self.game.redo_stack = []
        self.root = node if node is not None and node.expanded and node.terminal is None else Node()
        if self.root.visits == 0:
            self.sv_table = {}  # a new tree: no context corrections carried over
        self.own_sum, self.own_n = None, 0
        self._wide_prior = None
        if self.child_own is not None:
            self.track_child_ownership()
        if self.root.nn is not None:  # a reused root: its side to move's view from now on
            searched = self.recompute and self.root.visits > 1
            lead = self.root.avg_s if searched else self.root.nn.lead  # KataGo: the tree's, when it has one
            self.centre = lead * (1.0 - self.params.centre_zero)
            if self.recompute:
                self._refresh(self.root, True)
            self._add_ownership(self.root.nn, self.game.to_move)
        return self.root.visits

    @staticmethod
    def _same_start(old: Game, new: Game) -> bool:
        if (old.size, old.komi, old.ruleset, old.setup) != (new.size, new.komi, new.ruleset, new.setup):
            return False
        if len(new.moves) < len(old.moves):
            return False
        return all(
            a.point == b.point and a.color == b.color for a, b in zip(old.moves, new.moves, strict=False)
        )

    # --- utility ---------------------------------------------------------------------------
    def _scale(self) -> float:
        assert self.game is not None
        return self.params.score_scale or self.game.size / 2.0

    def utility(self, winrate: float, lead: float, root_side: bool, stdev: float = 0.0) -> float:
        """Utility of (win rate, lead) for the side to move; root_side: that side is the root's.

        With ``score_blur`` the score terms are their expectation over a normal spread of the
        final score, ``score_blur * stdev`` wide (KataGo's expectedWhiteScoreValue)."""
        p = self.params
        f = 2.0 / math.pi
        scale = self._scale()
        assert self.game is not None
        side = self.game.size
        static = p.static_scale * side if p.static_scale > 0 else scale
        dynamic = p.dynamic_scale * side if p.dynamic_scale > 0 else scale
        centre = self.centre if root_side else -self.centre
        sd = p.score_blur * stdev
        if sd <= 0:
            return (
                2.0 * winrate
                - 1.0
                + p.static_score * f * math.atan(lead / static)
                + p.dynamic_score * f * math.atan((lead - centre) / dynamic)
            )
        score = 0.0
        for x, w in zip(_GH_X, _GH_W, strict=True):
            at = lead + sd * x
            score += w * (
                p.static_score * math.atan(at / static) + p.dynamic_score * math.atan((at - centre) / dynamic)
            )
        return 2.0 * winrate - 1.0 + f * score

    # --- one round: gather leaves, evaluate, back up ----------------------------------------
    def run(
        self,
        visits: int | None = None,
        seconds: float | None = None,
        cancel: threading.Event | None = None,
        threads: int = 1,
        on_round: Callable[[], None] | None = None,
    ) -> int:
        """Add visits until ``visits`` (counted at the root, reused ones included) or ``seconds``.

        Returns the visits added. ``cancel`` stops within one batch's evaluation. With
        ``seconds``, a round that would end more than half its length past the budget (as
        long as the last one took) is not started: a slow net (a second an evaluation) keeps
        to its time as a fast one does.
        """
        assert self.game is not None, "set_game first"
        t0 = time.perf_counter()
        start = self.root.visits
        if not self.root.expanded:
            self._evaluate_root()
        stop = threading.Event()
        last_round = [0.0]  # the last round's seconds

        def done() -> bool:
            if stop.is_set() or (cancel is not None and cancel.is_set()):
                return True
            if visits is not None and self.root.visits >= visits:
                return True
            return seconds is not None and time.perf_counter() - t0 + 0.5 * last_round[0] >= seconds

        def worker() -> None:
            try:
                while not done():
                    r0 = time.perf_counter()
                    self._round(None if visits is None else max(1, visits - self.root.visits))
                    last_round[0] = time.perf_counter() - r0
                    if on_round is not None:
                        on_round()
            except BaseException:
                stop.set()
                raise

        if threads <= 1:
            worker()
        else:
            errors: list[BaseException] = []

            def guarded() -> None:
                try:
                    worker()
                except BaseException as e:  # re-raised in the caller's thread
                    errors.append(e)

            pool = [threading.Thread(target=guarded, daemon=True) for _ in range(threads)]
            for t in pool:
                t.start()
            for t in pool:
                t.join()
            if errors:
                raise errors[0]
        return self.root.visits - start

    def _evaluate_root(self) -> None:
        assert self.game is not None
        (ev,) = self.evaluator.evaluate_games([self.game.copy()])
        self.evals += 1
        self.centre = ev.lead * (1.0 - self.params.centre_zero)
        with self.lock:
            self._expand(self.root, self.game, ev)
            util = self.utility(ev.winrate, ev.lead, True, ev.stdev)
            self.root.visits += 1
            self.root.u_sum += util
            self.root.u2_sum += util * util
            self.root.nn_u = util
            self._add_ownership(ev, self.game.to_move)

    def _round(self, room: int | None) -> None:
        """Gather up to a batch of leaves (at most room), evaluate them, back them up."""
        p = self.params
        want = p.batch if room is None else max(1, min(p.batch, room))
        leaves: list[tuple[list[tuple[Node, int]], Node, Game]] = []
        ended = 0
        with self.lock:
            for _ in range(want):
                found = self._descend()
                if found is None:
                    break  # the line leads to another thread's leaf: evaluate what we have
                path, leaf, game = found
                if game is None:  # a terminal leaf: backed up at once
                    self._undo_virtual(path)
                    assert leaf.terminal is not None
                    self._backup(path, leaf, *leaf.terminal)
                    ended += 1
                    continue
                leaves.append((path, leaf, game))
        if not leaves:
            if not ended:
                time.sleep(0.001)  # every line is being evaluated by another thread
            return
        evals = self.evaluator.evaluate_games([g for _, _, g in leaves]) if leaves else []
        self.evals += len(evals)
        with self.lock:
            for (path, leaf, game), ev in zip(leaves, evals, strict=True):
                self._undo_virtual(path)
                self._expand(leaf, game, ev)
                leaf.pending = False
                self._backup(path, leaf, ev.winrate, ev.lead, ownership=ev, stdev=ev.stdev)

    def _descend(self) -> tuple[list[tuple[Node, int]], Node, Game | None] | None:
        """Walk down to a leaf, adding virtual losses; (path, leaf, its game or None when terminal)."""
        assert self.game is not None
        p = self.params
        node = self.root
        path: list[tuple[Node, int]] = []
        played = 0
        work = self.game
        try:
            while True:
                if node.terminal is not None:
                    return path, node, None
                if not node.expanded:
                    if node.pending:  # another thread's leaf: try again next round
                        self._undo_virtual(path)
                        return None
                    node.pending = True
                    return path, node, work.copy()
                assert node.moves is not None
                fpu = p.root_fpu if node is self.root else p.fpu
                c = p.c_puct + p.c_puct_log * math.log((node.visits + p.c_puct_base) / p.c_puct_base)
                c *= utility_stdev_factor(node.visits, node.q(), node.u2_sum, p)
                if node is self.root and p.wide_root_noise > 0:
                    i = self._pick_wide(node, fpu, c)
                else:
                    i = pick_child(node.prior, node.n, node.u, node.q(), fpu, c, node.nn_u, p.fpu_pow)
                move = int(node.moves[i])
                kid = node.kids[i]
                if kid is None:
                    kid = node.kids[i] = Node()
                    if p.subtree_bias > 0 and move != PASS and work.moves:
                        kid.sv_key = context_key(work, move)
                # the virtual loss: the edge counts a visit that lost
                node.n[i] += p.virtual_loss
                node.u[i] -= p.virtual_loss
                path.append((node, i))
                previous_pass = bool(work.moves) and work.moves[-1].point == PASS
                work.play(move)
                played += 1
                if move == PASS and previous_pass and kid.terminal is None:
                    kid.terminal = self._count(work, node)
                node = kid
        finally:
            for _ in range(played):
                work.undo()
            work.redo_stack.clear()

    def _count(self, game: Game, before: Node) -> tuple[float, float]:
        """The result after two passes for the side to move: (1, margin), (0, margin) or (0.5, 0).

        Each point belongs to whom the net's ownership (of the position before the last pass)
        gives it more likely than not, stones included (area counting with the net's dead
        stones); a point it gives neither side by more than even odds is dame.
        """
        ev = before.nn
        assert ev is not None
        # ev is for the side to move at ``before``, who passed last; the side to move now passed first
        first = game.to_move
        area = -float(np.sum(np.round(ev.ownership[board_points(game.size)])))  # dame (|own| < 0.5): 0
        margin = area - game.komi if first == BLACK else area + game.komi
        if margin > 0:
            return 1.0, margin
        if margin < 0:
            return 0.0, margin
        return 0.5, 0.0

    def _expand(self, node: Node, game: Game, ev: Evaluation) -> None:
        legal = np.array(game.legal_moves(), dtype=np.int32)
        moves = np.concatenate([legal, np.array([PASS], np.int32)])
        prior = np.concatenate([ev.policy[legal].astype(np.float64), [float(ev.pass_prob)]])
        total = prior.sum()
        prior = prior / total if total > 0 else np.full(prior.shape, 1.0 / prior.size)
        order = np.argsort(-prior, kind="stable")  # likeliest first: ties go to the first
        if self.avoid_depth:
            order = self._allowed(order, moves, game)
        node.moves = moves[order]
        node.prior = prior[order]
        k = node.moves.size
        node.n = np.zeros(k)
        node.u = np.zeros(k)
        node.w = np.zeros(k)
        node.s = np.zeros(k)
        node.u2 = np.zeros(k)
        if self.recompute:
            node.real = np.zeros(k)
            node.cu = np.zeros(k)
            node.cwt = np.zeros(k)
        node.kids = [None] * k
        node.nn = ev

    def _allowed(self, order: np.ndarray, moves: np.ndarray, game: Game) -> np.ndarray:
        """order less the moves avoided at this depth for the side to move (pass kept if none is left)."""
        assert self.game is not None
        depth = len(game.moves) - len(self.game.moves)
        banned = self.avoid.get(game.to_move)
        if not banned or depth >= self.avoid_depth:
            return order
        keep = np.array([banned.get(int(moves[i]), 0) <= depth for i in order], bool)
        if not keep.any():
            keep = moves[order] == PASS
        return order[keep]

    def _pick_wide(self, node: Node, fpu: float, c: float) -> int:
        """The root's child under KataGo's wide root noise (:func:`pick_root_child`)."""
        w = self.params.wide_root_noise
        if self._wide_prior is None or self._wide_prior.shape != node.prior.shape:
            self._wide_prior = node.prior ** (1.0 / (4.0 * w + 1.0))
        k = node.prior.shape[0]
        bonus = w * np.abs(self.rng.standard_normal(k)) * (self.rng.random(k) < 0.5)
        return pick_root_child(
            node.prior,
            self._wide_prior,
            bonus,
            node.n,
            node.u,
            node.q(),
            fpu,
            c,
            node.nn_u,
            self.params.fpu_pow,
        )

    def _undo_virtual(self, path: list[tuple[Node, int]]) -> None:
        v = self.params.virtual_loss
        for node, i in path:
            node.n[i] -= v
            node.u[i] += v

    def _backup(
        self,
        path: list[tuple[Node, int]],
        leaf: Node,
        winrate: float,
        lead: float,
        ownership: Evaluation | None = None,
        stdev: float = 0.0,
    ) -> None:
        """Back up a leaf's (win rate, lead) for its side to move through the path."""
        root_side = len(path) % 2 == 0  # the leaf's side to move is the root's
        wr, ld = winrate, lead
        util = self.utility(wr, ld, root_side, stdev)
        if leaf.visits == 0:
            leaf.nn_u = util
        leaf.visits += 1
        leaf.u_sum += util
        leaf.u2_sum += util * util
        if self.recompute:
            if leaf.terminal is None and leaf.sv_key is not None:  # a fresh leaf: its context's correction
                util = leaf.nn_u + self._subtree_bias(leaf, None, 0.0)
                leaf.u_sum, leaf.u2_sum = util, util * util
            leaf.avg_w, leaf.avg_s, leaf.wsum = wr, ld, float(leaf.visits)
            self._backup_recomputed(path)
        else:
            self._backup_sums(path, wr, ld, root_side, stdev)
        if ownership is not None and self.game is not None:
            color = self.game.to_move if len(path) % 2 == 0 else _other(self.game.to_move)
            self._add_ownership(ownership, color)
            if self.child_own is not None and path:
                root, i = path[0]
                self._add_child_ownership(int(root.moves[i]), ownership, color)  # type: ignore[index]

    def _backup_sums(
        self, path: list[tuple[Node, int]], wr: float, ld: float, root_side: bool, stdev: float
    ) -> None:
        """The plain backup: every node's statistics are the sums of the leaves below it."""
        for node, i in reversed(path):
            wr, ld, root_side = 1.0 - wr, -ld, not root_side  # the chooser at node moved into the child
            util = self.utility(wr, ld, root_side, stdev)
            node.n[i] += 1
            node.u[i] += util
            node.u2[i] += util * util
            node.w[i] += wr
            node.s[i] += ld
            node.visits += 1
            node.u_sum += util
            node.u2_sum += util * util

    def _backup_recomputed(self, path: list[tuple[Node, int]]) -> None:
        """KataGo's backup: each node on the path takes its children's current means (weighted
        by :func:`recompute_values`) and its own evaluation; the edges keep the virtual losses
        still pending from the batch's other leaves."""
        for node, i in reversed(path):
            node.n[i] += 1
            node.visits += 1
            self._take(node, i)
            self._recompute(node)

    @staticmethod
    def _take(node: Node, i: int) -> None:
        """Edge i's statistics from its child's current means (the pending virtual losses kept)."""
        kid = node.kids[i]
        assert kid is not None and kid.visits > 0
        real = float(kid.visits)
        node.real[i] = real
        q = kid.u_sum / real
        node.cu[i] = -q
        node.cwt[i] = kid.wsum
        node.u[i] = -q * real - (node.n[i] - real)  # a virtual loss: n + v, u - v
        node.w[i] = (1.0 - kid.avg_w) * real
        node.s[i] = -kid.avg_s * real
        node.u2[i] = kid.u2_sum

    def _recompute(self, node: Node) -> None:
        """Node's means from its edges and its own evaluation (subtree value bias included)."""
        p = self.params
        assert node.nn is not None
        su, sw, ss, su2, total, original = recompute_values(
            node.prior,
            node.real,
            node.cu,
            node.w,
            node.s,
            node.u2,
            node.cwt,
            p.noise_prune,
            p.value_weight,
        )
        own = node.nn_u + self._subtree_bias(node, su / total if total > 0 else None, original)
        t = total + 1.0
        node.u_sum = (su + own) / t * node.visits
        node.u2_sum = (su2 + own * own) / t * node.visits
        node.avg_w, node.avg_s, node.wsum = (sw + node.nn.winrate) / t, (ss + node.nn.lead) / t, t

    def _refresh(self, node: Node, root_side: bool) -> None:
        """Every utility of node's subtree again, for the current score centre (KataGo's
        recursivelyRecomputeStats when a search starts on a reused tree): the net's own and the
        counts' utilities, then each node from its children, bottom up."""
        if node.terminal is not None:
            u = self.utility(*node.terminal, root_side)
            node.u_sum, node.u2_sum = u * node.visits, u * u * node.visits
            return
        ev = node.nn
        if ev is None or not node.expanded:
            return
        node.nn_u = self.utility(ev.winrate, ev.lead, root_side, ev.stdev)
        for i in np.flatnonzero(node.real > 0):
            kid = node.kids[int(i)]
            assert kid is not None
            self._refresh(kid, not root_side)
            self._take(node, int(i))
        self._recompute(node)

    def _subtree_bias(self, node: Node, children_u: float | None, weight: float) -> float:
        """KataGo's subtree value bias: the correction to node's own utility, ``subtree_bias`` times
        the mean of (children's utility - own utility) over the nodes that share its context
        (the last two moves and the 5x5 around the last, before it). ``children_u`` (None: no
        child visited yet) updates the node's share, weighted by ``weight ** 0.85``."""
        f = self.params.subtree_bias
        if f <= 0 or node.sv_key is None:
            return 0.0
        entry = self.sv_table.get(node.sv_key)
        if entry is None:
            entry = self.sv_table[node.sv_key] = [0.0, 0.0]
        if children_u is not None:
            wt = weight**0.85
            delta = (children_u - node.nn_u) * wt
            entry[0] += delta - node.sv_delta
            entry[1] += wt - node.sv_weight
            node.sv_delta, node.sv_weight = delta, wt
        return f * entry[0] / entry[1] if entry[1] > 0.001 else 0.0

    def _add_ownership(self, ev: Evaluation, color: int) -> None:
        """Add a leaf's ownership (for ``color``, the side to move there) to the root's, Black +."""
        own = ev.ownership if color == BLACK else -ev.ownership
        if self.own_sum is None:
            self.own_sum = np.zeros_like(own, dtype=np.float64)
        self.own_sum += own
        self.own_n += 1

    def _add_child_ownership(self, move: int, ev: Evaluation, color: int) -> None:
        assert self.child_own is not None
        own = ev.ownership if color == BLACK else -ev.ownership
        if move in self.child_own:
            self.child_own[move] += own
        else:
            self.child_own[move] = own.astype(np.float64)
        self.child_own_n[move] = self.child_own_n.get(move, 0) + 1

    # --- results ---------------------------------------------------------------------------
    def ownership(self) -> np.ndarray | None:
        """The root's ownership averaged over the search, per flat point, Black +1 .. White -1."""
        if self.own_sum is None or not self.own_n:
            return None
        return self.own_sum / self.own_n

    def root_info(self, max_pv: int = 10) -> RootInfo:
        """The root's children with visits, with their PVs: the move :meth:`best_move` plays first
        (KataGo's ``order`` 0), then the most visited first (ties by utility)."""
        info = RootInfo()
        r = self.root
        if not r.expanded or r.moves is None:
            return info
        chosen = self.best_move()
        p = self.params
        radius, stdevs = 1.0 + p.static_score + p.dynamic_score, p.lcb if p.lcb > 0 else 5.0
        with self.lock:
            n = r.n.copy()
            order = sorted(
                (i for i in range(n.size) if n[i] > 0),
                key=lambda i: (int(r.moves[i]) != chosen, -n[i], -r.u[i] / max(1.0, n[i])),
            )
            for i in order:
                info.moves.append(int(r.moves[i]))
                info.visits.append(int(n[i]))
                info.winrate.append(float(r.w[i] / n[i]))
                info.lead.append(float(r.s[i] / n[i]))
                info.prior.append(float(r.prior[i]))
                info.utility.append(float(r.u[i] / n[i]))
                info.utility_lcb.append(lcb_of(float(n[i]), float(r.u[i]), float(r.u2[i]), radius, stdevs))
                kid = r.kids[i]
                info.stdev.append(float(kid.nn.stdev) if kid is not None and kid.nn is not None else 0.0)
                line, seen = self._pv(kid, max_pv - 1)
                info.pvs.append([int(r.moves[i]), *line])
                info.pv_visits.append([int(n[i]), *seen])
        return info

    def best_move(self) -> int | None:
        """The move to play: the most visited child, or with ``lcb`` > 0 KataGo's choice: the
        child of highest lower confidence bound among those with at least ``lcb_min_prop`` of
        the top visits (the top by visits, a little by prior: KataGo's ``nonLCBBest``)."""
        r = self.root
        if not r.expanded or r.moves is None:
            return None
        with self.lock:
            n, u, u2, prior = r.n.copy(), r.u.copy(), r.u2.copy(), r.prior
        if not np.any(n > 0):
            return int(r.moves[0])
        p = self.params
        if p.lcb <= 0:
            mean = np.where(n > 0, u / np.maximum(n, 1.0), -1e9)
            order = np.lexsort((-mean, -n))  # most visits, ties by utility (as root_info)
            return int(r.moves[order[0]])
        goodness = n * np.maximum(0.0, n - 1.0) / np.maximum(1.0, n) + 2.0 * prior
        top = n[int(np.argmax(goodness))]
        radius = 1.0 + p.static_score + p.dynamic_score
        best, best_lcb = -1, -1e300
        for i in np.flatnonzero((n > 0) & (n >= p.lcb_min_prop * top)):
            b = lcb_of(float(n[i]), float(u[i]), float(u2[i]), radius, p.lcb)
            if b > best_lcb:
                best, best_lcb = int(i), b
        return int(r.moves[best])

    @staticmethod
    def _pv(node: Node | None, depth: int) -> tuple[list[int], list[int]]:
        """The most visited line below node, and the visits of each of its moves."""
        line: list[int] = []
        seen: list[int] = []
        while node is not None and node.expanded and depth > 0 and node.moves is not None:
            if not np.any(node.n > 0):
                break
            i = int(np.argmax(node.n))
            line.append(int(node.moves[i]))
            seen.append(int(node.n[i]))
            node = node.kids[i]
            depth -= 1
        return line, seen

    def root_value(self) -> tuple[float, float, float]:
        """(win rate, lead, utility) of the root for its side to move, averaged over the search
        (its own evaluation included, as KataGo's root info)."""
        r = self.root
        ev = r.nn
        if ev is None:
            return 0.5, 0.0, 0.0
        if self.recompute and r.visits > 1:
            return r.avg_w, r.avg_s, r.q()
        with self.lock:
            total = float(r.n.sum()) + 1.0
            wr = (float(r.w.sum()) + ev.winrate) / total
            lead = (float(r.s.sum()) + ev.lead) / total
        return wr, lead, r.q()


def _other(color: int) -> int:
    return WHITE if color == BLACK else BLACK


# Gauss-Hermite nodes and weights for the expectation over a standard normal (9 points)
_GH_X, _GH_W = (
    [float(x) * math.sqrt(2.0) for x in np.polynomial.hermite.hermgauss(9)[0]],
    [float(w) / math.sqrt(math.pi) for w in np.polynomial.hermite.hermgauss(9)[1]],
)

_BOARD_CACHE: dict[int, np.ndarray] = {}
_WINDOWS: dict[int, np.ndarray] = {}


def context_key(game: Game, move: int) -> int:
    """The subtree value bias's context of ``move`` in game (before it is played): the mover, the
    previous move, the move, the ko point and the colours of the 5x5 around the move (off the
    board: the border), as KataGo's SubtreeValueBiasTable keys it."""
    size = game.size
    win = _WINDOWS.get(size)
    if win is None:
        w = size + 2
        win = np.zeros((w * w, 25), np.int64)  # off the board: index 0, a border point
        for p in board_points(size):
            x, y = int(p) % w, int(p) // w
            for k, (dy, dx) in enumerate((dy, dx) for dy in range(-2, 3) for dx in range(-2, 3)):
                if 1 <= x + dx <= size and 1 <= y + dy <= size:
                    win[p, k] = (y + dy) * w + x + dx
        _WINDOWS[size] = win
    pos = game.position
    colours = pos.b[COLOR][win[move]]
    return hash((game.to_move, game.moves[-1].point, move, pos.ko, colours.tobytes()))


def board_points(size: int) -> np.ndarray:
    """The flat indices of a size x size board's points, row by row from the top-left (the net's order)."""
    pts = _BOARD_CACHE.get(size)
    if pts is None:
        w = size + 2
        pts = np.array([(r + 1) * w + c + 1 for r in range(size) for c in range(size)], dtype=np.int64)
        _BOARD_CACHE[size] = pts
    return pts
