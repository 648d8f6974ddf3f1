"""Gomoku agents, in the spirit of Gorilla's Go ``Agent``: asked for a move in a game's position.

``random`` (uniform near the stones), ``threat1`` (the one-ply threat heuristic), ``pvs``
(the PVS search with forced moves) and ``pvs+vct`` (the same with VCF/VCT at the root and
VCF as quiescence). :func:`make_agent` builds them from a name.
"""

from __future__ import annotations

import random

from gorilla.gomoku import rules as R
from gorilla.gomoku import search as S
from gorilla.gomoku.game import GomokuGame
from gorilla.gomoku.vcf import new_state


class GomokuAgent:
    """Base class: ``select(game, seconds)`` returns a SearchResult; never changes the game."""

    name = "agent"

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
        return S.SearchResult(int(S.one_ply(game.bd, game.to_move)), source="threat1")


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
        bd = R.copy_board(game.bd)
        return S.search(
            bd, self.state, game.to_move, seconds, self.max_depth, threats=self.threats, on_depth=on_depth
        )

    def stop(self) -> None:
        """Set the search's stop flag: it returns its best move so far within milliseconds."""
        self.state[0][S.CTL_STOP] = 1

    def new_game(self) -> None:
        """Forget what was kept between moves (transposition table, history)."""
        self.state = new_state(self.state[1].shape[0].bit_length() - 1)


AGENTS = ("random", "threat1", "pvs", "pvs+vct")


def make_agent(name: str, seed: int | None = None) -> GomokuAgent:
    """An agent by name (one of AGENTS); ValueError with one line if unknown."""
    key = name.strip().lower()
    if key == "random":
        return RandomAgent(seed)
    if key == "threat1":
        return ThreatAgent()
    if key == "pvs":
        return PVSAgent(False)
    if key in ("pvs+vct", "pvsvct", "vct"):
        return PVSAgent(True)
    raise ValueError(f"unknown gomoku agent {name!r} (one of {', '.join(AGENTS)})")


def warm_up() -> None:
    """Compile the engine's kernels (a tiny search on a small board) before any timed move."""
    g = GomokuGame(7, R.FREESTYLE)
    for x, y in ((3, 3), (3, 4), (4, 3)):
        g.play_xy(x, y)
    PVSAgent(True, tt_bits=10).select(g, 0.05)
    ThreatAgent().select(g)
    r = GomokuGame(7, R.RENJU)
    r.play_xy(3, 3)
    R.legal(r.bd, r.point(2, 2), R.BLACK)
