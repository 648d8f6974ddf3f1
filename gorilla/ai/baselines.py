"""Baseline opponents of the kind AI-course Little-Go tournaments use.

``greedy``: the move that captures most, else the best immediate score gain
(ties broken at random). ``aggressive``: captures first, then the move that
puts the most opposing stones in atari. ``minimax``: plain depth-limited
minimax (no pruning) on the alpha-beta player's evaluation.
"""

from __future__ import annotations

import random

from gorilla.ai.agent import Agent, MoveRequest
from gorilla.ai.alphabeta import AlphaBetaAgent
from gorilla.rules.board import PASS
from gorilla.rules.game import Game
from gorilla.rules.position import Position, opponent
from gorilla.rules.scoring import score


def _atari_stones(pos: Position, color: int) -> int:
    """Stones of color in atari in pos."""
    seen: set[int] = set()
    total = 0
    for p in pos.stones(color):
        if p in seen:
            continue
        grp = pos.group(p)
        seen.update(grp)
        if pos.liberties(p) == 1:
            total += len(grp)
    return total


class _OneStepAgent(Agent):
    """Scores every legal move one step ahead; the highest score wins, ties at random."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def _value(self, game: Game, after: Position, captured: int, color: int) -> float:
        """How good after, the position after color's move, is for color (captured: the stones it took)."""
        raise NotImplementedError

    def choose(self, req: MoveRequest) -> int:
        game = req.game
        color = game.to_move
        best: list[int] = []
        best_value = float("-inf")
        for p in game.legal_moves(reasonable=True):
            after = game.position.copy()
            captured = after.play(p, color)
            v = self._value(game, after, captured, color)
            if v > best_value:
                best, best_value = [p], v
            elif v == best_value:
                best.append(p)
        return self.rng.choice(best) if best else PASS


class GreedyAgent(_OneStepAgent):
    """Captures most, else gains most on the score right after the move."""

    name = "greedy"

    def _value(self, game: Game, after: Position, captured: int, color: int) -> float:
        s = score(after, game.ruleset, game.komi)
        margin = s.margin if color == 1 else -s.margin
        return captured * 1000 + margin


class AggressiveAgent(_OneStepAgent):
    """Captures most, else puts the most opposing stones in atari."""

    name = "aggressive"

    def _value(self, game: Game, after: Position, captured: int, color: int) -> float:
        return captured * 1000 + _atari_stones(after, opponent(color)) * 10 - _atari_stones(after, color)


class MinimaxAgent(AlphaBetaAgent):
    """Plain depth-limited minimax: every move searched, no pruning, no table cut-offs."""

    name = "minimax"

    def __init__(self, depth: int = 2, time: float = 10.0) -> None:
        super().__init__(time=time, depth=depth, prune=False)
