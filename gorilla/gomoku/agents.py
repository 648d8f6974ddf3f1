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


def make_agent(name: str, seed: int | None = None) -> GomokuAgent:
    """An agent by name (one of AGENTS), with threat weights as settings ('pvs:w_three=120',
    see :func:`parse_agent_spec`); ValueError with one line if unknown."""
    key, weights = parse_agent_spec(name)
    agent: GomokuAgent
    if key == "random":
        agent = RandomAgent(seed)
    elif key == "threat1":
        agent = ThreatAgent()
    elif key == "pvs":
        agent = PVSAgent(False)
    elif key in ("pvs+vct", "pvsvct", "vct"):
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


def _warm_pvs() -> None:
    """The PVS with its threat searches at the nodes (the largest compile by far)."""
    PVSAgent(True, tt_bits=10).select(_small_game(), 0.05)


def _warm_threats() -> None:
    """The threat solvers as the threat agent and the root's checks call them, and renju."""
    g = _small_game()
    st = new_state(10)  # what the root ban calls from Python (it runs only against a threat)
    bd = R.copy_board(g.bd)
    root_moves(bd, st, g.to_move, np.empty(4, dtype=np.int32))
    S._opponent_wins_after(bd, st, g.to_move, g.point(0, 0), 100, 0.01)
    ThreatAgent().select(g)
    r = GomokuGame(7, R.RENJU)
    r.play_xy(3, 3)
    R.legal(r.bd, r.point(2, 2), R.BLACK)


def _warm_mcts() -> None:
    MCTSAgent(capacity=4096).select(_small_game(), 0.01)


def warm_up() -> None:
    """Compile the engine's kernels (a tiny search on a small board) before any timed move, in
    this process (:func:`ready_engine` shares a cold compile with a helper process)."""
    _warm_pvs()
    _warm_threats()
    _warm_mcts()


def ready_engine() -> float:
    """Make the engine's kernels ready in this process before any timed move: loaded from the
    cache, or on a cold one compiled here and by a helper process at the same time (the PVS
    here, the threat solvers and the MCTS there; see :func:`gorilla.ai.warmup.warm`).
    Returns the seconds it took."""
    return warmup.warm(["gomoku"])


# the groups the window's compiler (a child process) and the warm-up command know Gomoku by:
# "gomoku", whose parts two processes can compile at once. The PVS's part holds most of it:
# one kernel, the solver under vcf.vcf, takes most of a minute, and the threat solvers call it
# too, so a helper that compiles them from nothing compiles it again; the split saves only what
# the parts do not share (on an idle Intel Xeon, benchmarks/startup.py --ai gomoku: 77 s on two
# processes, 83 s on one). Seconds on the reference machine (see warmup.GROUPS): the PVS's
# 58 s on an empty cache, then the threats' 11 s and the MCTS's 9 s, divided by
# warmup.pace(), 1.45 there
warmup.register("gomoku-pvs", _warm_pvs, 40.0)
warmup.register("gomoku-threats", _warm_threats, 8.0)
warmup.register("gomoku-mcts", _warm_mcts, 6.0)
warmup.register("gomoku", warm_up, 3.0, parts=("gomoku-pvs", "gomoku-threats", "gomoku-mcts"))
