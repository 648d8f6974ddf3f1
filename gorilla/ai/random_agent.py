"""The random AI: uniform among reasonable moves, pass when none is left."""

from __future__ import annotations

import random
import threading

from gorilla.ai.agent import Agent, Budget, ProgressFn
from gorilla.rules.board import PASS
from gorilla.rules.game import Game


class RandomAgent(Agent):
    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def select_move(
        self,
        game: Game,
        budget: Budget | None = None,
        cancel: threading.Event | None = None,
        progress: ProgressFn | None = None,
    ) -> int:
        moves = game.legal_moves(reasonable=True)
        return self.rng.choice(moves) if moves else PASS
