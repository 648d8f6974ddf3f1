"""Gomoku agents, in the spirit of Gorilla's Go ``Agent``: asked for a move in a game's position.

``random`` (uniform near the stones), ``threat1`` (the one-ply threat heuristic), ``pvs``
(the PVS search with forced moves) and ``pvs+vct`` (the same PVS with a VCF before it and a
VCT after it at the root, its move checked against the opponent's VCF/VCT, and VCF as
quiescence when ``search.QUIESCENCE_VCF`` is on).
:func:`make_agent` builds them from a name.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterable

import numpy as np

from gorilla.ai import warmup
from gorilla.gomoku import mcts as M
from gorilla.gomoku import rules as R
from gorilla.gomoku import search as S
from gorilla.gomoku.game import GomokuGame
from gorilla.gomoku.patterns import CLASS_NAMES, NCLASSES, PCLASS_NAMES
from gorilla.gomoku.vcf import new_state, root_moves

WEIGHT_KEYS = {f"w_{n.replace('-', '_')}": i for i, n in enumerate(CLASS_NAMES)} | {
    f"b_{n.replace('-', '_')}": NCLASSES + i for i, n in enumerate(PCLASS_NAMES)
}
# w_/b_ set the ordering's and the evaluation's weight; ow_/ob_ the ordering's, ew_/eb_ the evaluation's
_KEYS = {k: (i, i + R.NWEIGHTS) for k, i in WEIGHT_KEYS.items()}
_KEYS |= {"o" + k: (i,) for k, i in WEIGHT_KEYS.items()} | {
    "e" + k: (i + R.NWEIGHTS,) for k, i in WEIGHT_KEYS.items()
}


def parse_agent_spec(spec: str) -> tuple[str, np.ndarray | None]:
    """('pvs', weights or None) from 'pvs' or 'pvs:w_three=120,b_four_three=900': the threat
    weights as settings (``w_`` + a direction class, ``b_`` + a point class; see
    :mod:`gorilla.gomoku.patterns`) for the move ordering and the evaluation, ``ow_``/``ob_``
    for the ordering only, ``ew_``/``eb_`` for the evaluation only; the others keep their
    default. ValueError for a bad one."""
    name, _, rest = spec.strip().partition(":")
    items = [t.strip() for t in rest.split(",") if t.strip()]
    if not items:
        return name.strip().lower(), None
    wts = R.default_weights()
    for item in items:
        key, eq, value = item.partition("=")
        key = key.strip().lower().replace("-", "_")
        if not eq or key not in _KEYS:
            raise ValueError(
                f"unknown gomoku agent setting {item!r} (weights: [o|e]w_CLASS=N or [o|e]b_POINTCLASS=N)"
            )
        try:
            v = int(round(float(value)))
        except ValueError:
            raise ValueError(f"gomoku agent setting {item!r} needs a number") from None
        for i in _KEYS[key]:
            wts[i] = v
    return name.strip().lower(), wts


def board_for(game: GomokuGame, weights: np.ndarray | None) -> tuple:
    """A copy of game's board, its scores recomputed with weights when an agent has its own."""
    bd = R.copy_board(game.bd)
    if weights is None:
        return bd
    bd = (*bd[:8], R.board_weights(weights), bd[9])
    R.init_board(bd)
    return bd


class GomokuAgent:
    """Base class: ``select(game, seconds)`` returns a SearchResult; never changes the game."""

    name = "agent"
    weights: np.ndarray | None = None  # the agent's own threat weights (None: the defaults)

    def select(
        self, game: GomokuGame, seconds: float = 1.0, on_depth: S.DepthFn | None = None
    ) -> S.SearchResult:
        """The move for the side to move in game, within about seconds, with its score;
        a searching agent calls on_depth with what it has found so far (the live view)."""
        raise NotImplementedError

    def new_game(self) -> None:
        """Forget anything kept between moves."""

    def stop(self) -> None:
        """Ask a running search to return soon (from another thread); others ignore it."""


class RandomAgent(GomokuAgent):
    """A uniformly random playable point within two steps of a stone (the centre first)."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def select(
        self, game: GomokuGame, seconds: float = 1.0, on_depth: S.DepthFn | None = None
    ) -> S.SearchResult:
        """The move for the side to move in game, within about seconds, with its score."""
        bd = game.bd
        c = game.to_move
        if not game.moves:
            n = game.size
            return S.SearchResult(game.point(n // 2, n // 2), source="random")
        near = [p for p in game.empty_points() if bd[5][p] > 0 and S.playable(bd, p, c)]
        pool = near or [p for p in game.empty_points() if S.playable(bd, p, c)]
        return S.SearchResult(self.rng.choice(pool), source="random")


class ThreatAgent(GomokuAgent):
    """One ply: win, block a five, else the best point by threat scores (own and opponent's)."""

    name = "threat1"

    def select(
        self, game: GomokuGame, seconds: float = 1.0, on_depth: S.DepthFn | None = None
    ) -> S.SearchResult:
        """The move for the side to move in game, within about seconds, with its score."""
        return S.SearchResult(int(S.one_ply(board_for(game, self.weights), game.to_move)), source="threat1")


class PVSAgent(GomokuAgent):
    """Iterative-deepening PVS; with threats=True also VCF/VCT (the ``pvs+vct`` agent)."""

    def __init__(self, threats: bool = False, tt_bits: int = 20, max_depth: int = 64) -> None:
        self.threats = threats
        self.name = "pvs+vct" if threats else "pvs"
        self.state = new_state(tt_bits)
        self.max_depth = max_depth

    def select(
        self, game: GomokuGame, seconds: float = 1.0, on_depth: S.DepthFn | None = None
    ) -> S.SearchResult:
        """The move for the side to move in game, within about seconds, with its score."""
        bd = board_for(game, self.weights)
        return S.search(
            bd, self.state, game.to_move, seconds, self.max_depth, threats=self.threats, on_depth=on_depth
        )

    def stop(self) -> None:
        """Set the search's stop flag: it returns its best move so far within milliseconds."""
        self.state[0][S.CTL_STOP] = 1

    def new_game(self) -> None:
        """Forget what was kept between moves (transposition table, history)."""
        self.state = new_state(self.state[1].shape[0].bit_length() - 1)


class MCTSAgent(GomokuAgent):
    """Monte-Carlo tree search (:mod:`gorilla.gomoku.mcts`), in batches until the time is up."""

    name = "mcts"
    BATCH_SECONDS = 0.01  # a kernel call's share of time (the clock, the stop flag and the live view between)

    def __init__(self, seed: int | None = None, capacity: int = 1 << 20, width: int = 16) -> None:
        self.rng = random.Random(seed)
        self.tree = M.new_tree(capacity)
        self.width = width
        self.max_moves = 80
        self._stop = False

    def stop(self) -> None:
        """Return the best move so far after the running batch."""
        self._stop = True

    def select(
        self, game: GomokuGame, seconds: float = 1.0, on_depth: S.DepthFn | None = None
    ) -> S.SearchResult:
        """The most visited move after about seconds of iterations (a five or a forced block at once)."""
        t0 = time.perf_counter()
        self._stop = False
        bd = board_for(game, self.weights)
        c = game.to_move
        ti, tf, meta = self.tree
        M.reset_tree(ti, tf, meta)
        cand = np.empty(max(self.width, 4), dtype=np.int32)
        if M.candidates(bd, c, cand, self.width) == 1:  # a five, the one block, the first move
            return S.SearchResult(int(cand[0]), 0, 0, 0, time.perf_counter() - t0, [int(cand[0])], "forced")
        M.seed_rng(self.rng.randrange(1 << 31))
        last_report = t0
        batch = 8
        while True:
            t1 = time.perf_counter()
            M.run_iterations(bd, c, ti, tf, meta, batch, self.width, self.max_moves)
            now = time.perf_counter()
            dt = now - t1
            # batches of about BATCH_SECONDS, so the time and the stop flag are seen often
            if dt < self.BATCH_SECONDS / 2:
                batch = min(4096, batch * 2)
            elif dt > self.BATCH_SECONDS * 2:
                batch = max(1, batch // 2)
            if on_depth is not None and now - last_report > 0.1:
                last_report = now
                on_depth(self._result(meta, now - t0))
            if now + dt - t0 >= seconds or self._stop or meta[0] + self.width >= ti.shape[1]:
                break
        return self._result(meta, time.perf_counter() - t0)

    def _result(self, meta: np.ndarray, elapsed: float) -> S.SearchResult:
        line, rate, _ = M.best_line(*self.tree[:2])
        rate = min(max(rate, 1e-4), 1 - 1e-4)
        score = int(max(-S.MATE + 1, min(S.MATE - 1, 400 * math.log(rate / (1 - rate)))))
        move = line[0] if line else -1
        return S.SearchResult(move, score, len(line), int(meta[1]), elapsed, line, "mcts")


AGENTS = ("random", "threat1", "pvs", "pvs+vct", "mcts")
_ALIASES = {"pvsvct": "pvs+vct", "vct": "pvs+vct"}  # other names make_agent takes


def make_agent(name: str, seed: int | None = None) -> GomokuAgent:
    """An agent by name (one of AGENTS), with threat weights as settings ('pvs:w_three=120',
    see :func:`parse_agent_spec`); ValueError with one line if unknown."""
    key, weights = parse_agent_spec(name)
    key = _ALIASES.get(key, key)
    agent: GomokuAgent
    if key == "random":
        agent = RandomAgent(seed)
    elif key == "threat1":
        agent = ThreatAgent()
    elif key == "pvs":
        agent = PVSAgent(False)
    elif key == "pvs+vct":
        agent = PVSAgent(True)
    elif key == "mcts":
        agent = MCTSAgent(seed)
    else:
        raise ValueError(f"unknown gomoku agent {name!r} (one of {', '.join(AGENTS)})")
    if weights is not None:
        if key == "random":
            raise ValueError("the random gomoku agent has no weights")
        agent.weights = weights
    return agent


def _small_game() -> GomokuGame:
    g = GomokuGame(7, R.FREESTYLE)
    for x, y in ((3, 3), (3, 4), (4, 3)):
        g.play_xy(x, y)
    return g


# The workloads call each kernel that Python code calls during a move, directly: a tiny search
# whose time runs out (a busy machine) may skip one, which would then compile in a timed move.


def _warm_pvs() -> None:
    """The PVS with its threat searches at the nodes (the largest compile by far), and the
    root's VCF and VCT."""
    g = _small_game()
    PVSAgent(True, tt_bits=10).select(g, 0.05)
    st = new_state(10)
    bd = R.copy_board(g.bd)
    c = g.to_move
    S._reset(st, 500)
    S.pvs(bd, st, c, 2, -S.INF, S.INF, 0)
    S._reset(st, 500)
    S.vcf(bd, st, c, 4)
    S._reset(st, 500)
    S.vct(bd, st, c, 2, 4)


def _warm_basic() -> None:
    """The rules (freestyle and renju), the random agent, the threat agent's one ply and the
    static evaluation (the window's values of the moves, its e key)."""
    g = _small_game()
    RandomAgent(1).select(g)
    bd = R.copy_board(g.bd)
    S.five_points(bd, g.to_move, np.empty(4, dtype=np.int32))
    S.playable(bd, g.point(0, 0), g.to_move)
    S.evaluate(bd, g.to_move)
    ThreatAgent().select(g)
    ThreatAgent().select(GomokuGame(7, R.FREESTYLE))  # the empty board's centre
    r = GomokuGame(7, R.RENJU)
    r.play_xy(3, 3)
    R.legal(r.bd, r.point(2, 2), R.BLACK)
    RandomAgent(1).select(r)


def _warm_threats() -> None:
    """The threat solvers as the root's checks call them from Python."""
    g = _small_game()
    st = new_state(10)  # what the root ban calls from Python (it runs only against a threat)
    bd = R.copy_board(g.bd)
    root_moves(bd, st, g.to_move, np.empty(4, dtype=np.int32))
    S._opponent_wins_after(bd, st, g.to_move, g.point(0, 0), 100, 5.0)  # 100 nodes: milliseconds


def _warm_mcts() -> None:
    MCTSAgent(capacity=4096).select(_small_game(), 0.01)


def warm_up() -> None:
    """Compile the engine's kernels (a tiny search on a small board) before any timed move, in
    this process (:func:`ready_engine` shares a cold compile with a helper process)."""
    _warm_basic()
    _warm_pvs()
    _warm_threats()
    _warm_mcts()


# the warm-up groups (below) whose kernels an agent's moves call: a match of the light agents
# compiles in seconds what the whole engine takes more than a minute for
AGENT_GROUPS: dict[str, tuple[str, ...]] = {
    "random": ("gomoku-basic",),
    "threat1": ("gomoku-basic",),
    "pvs": ("gomoku-basic", "gomoku-pvs"),
    "pvs+vct": ("gomoku-basic", "gomoku-pvs", "gomoku-threats"),
    "mcts": ("gomoku-basic", "gomoku-mcts"),
}


def engine_groups(specs: Iterable[str] | None = None) -> list[str]:
    """The warm-up groups the agents (names or specs as :func:`make_agent` takes them) need,
    each once; the whole engine (``gomoku``) for None or a name it does not know (an
    external brain needs only the rules of the game it is checked against)."""
    if specs is None:
        return ["gomoku"]
    want: dict[str, None] = {}
    for spec in specs:
        if spec.strip().lower().startswith("pbrain:"):
            want["gomoku-basic"] = None
            continue
        try:
            name = parse_agent_spec(spec)[0]
        except ValueError:
            return ["gomoku"]
        name = _ALIASES.get(name, name)
        if name not in AGENT_GROUPS:
            return ["gomoku"]
        want.update(dict.fromkeys(AGENT_GROUPS[name]))
    return list(want) or ["gomoku-basic"]


def ready_engine(specs: Iterable[str] | None = None) -> float:
    """Make the kernels of the agents in specs (None: every agent's, the whole engine) ready
    in this process before any timed move: loaded from the cache, or on a cold one compiled
    here and by a helper process at the same time (the PVS here, the threat solvers and the
    MCTS there; see :func:`gorilla.ai.warmup.warm`). Returns the seconds it took."""
    return warmup.warm(engine_groups(specs))


# the groups the window's compiler (a child process) and the warm-up command know Gomoku by:
# "gomoku", the whole engine, whose parts two processes can compile at once, and the parts
# alone for the agents that need only some (AGENT_GROUPS). The PVS's part holds most of it:
# one kernel, the solver under vcf.vcf, takes about half a minute, and the threat solvers call
# it too, so they follow it in the same process (a helper would compile it again); the rules
# (gomoku-basic) and the MCTS compile in a helper meanwhile (the PVS's part compiles the rules
# it calls too: the two processes share no kernel they could wait for). Seconds on the
# reference machine (see warmup.GROUPS), measured one by one on an empty cache on an idle
# Intel Xeon (benchmarks/startup.py --ai gomoku; warmup.pace() 1.56 there): the rules 23 s,
# the PVS 59 s alone, the threats 4 s after it, the MCTS 15 s after the rules (31 s alone),
# the whole 4 s
warmup.register("gomoku-basic", _warm_basic, 15.0)
warmup.register("gomoku-pvs", _warm_pvs, 38.0)
warmup.register("gomoku-threats", _warm_threats, 3.0, parts=("gomoku-pvs",))
warmup.register("gomoku-mcts", _warm_mcts, 10.0)
warmup.register("gomoku", warm_up, 3.0, parts=("gomoku-basic", "gomoku-pvs", "gomoku-threats", "gomoku-mcts"))
