"""The random AI: uniform among reasonable moves, pass when none is left."""

from __future__ import annotations

import random

from gorilla.ai.agent import Agent, MoveRequest
from gorilla.rules.board import PASS


class RandomAgent(Agent):
    """Plays a uniformly random reasonable move (legal, filling no own eye), or passes."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, req: MoveRequest) -> int:
        """A random reasonable move for the side to move, or PASS when there is none."""
        moves = req.game.legal_moves(reasonable=True)
        return self.rng.choice(moves) if moves else PASS
