"""Who plays each colour, as a part that owns it: :class:`Players` keeps each colour's agent
(None for a human), its label in the panel and its spec (what the new-game form shows).

Each game makes its players from their specs: Go's in :mod:`gorilla.app.go.players`
('human', 'mcts:playouts=800', 'gtp:gnugo ...'), Gomoku's in :mod:`gorilla.app.gomoku.players`.
"""

from __future__ import annotations

import contextlib
from typing import Any

from gorilla.rules.board import BLACK, WHITE


class Players:
    """The two players of one game (see the module docstring); colours are BLACK and WHITE."""

    def __init__(self, agents: dict[int, Any], labels: dict[int, str], specs: dict[int, str]) -> None:
        self.agents = agents  # colour -> agent, None for a human
        self.labels = labels  # colour -> the panel's name for the player
        self.specs = specs  # colour -> the spec the player was made from

    def is_human(self, color: int) -> bool:
        """Whether a human plays color."""
        return self.agents.get(color) is None

    @property
    def ai_vs_ai(self) -> bool:
        """Whether both colours are played by AIs."""
        return not self.is_human(BLACK) and not self.is_human(WHITE)

    def take(self, other: Players) -> None:
        """A new game's players take the seats: the agents of now are closed."""
        self.close()
        self.agents, self.labels, self.specs = other.agents, other.labels, other.specs

    def exchange(self) -> None:
        """The players change colours (a Swap2 choice): their agents, labels and specs."""
        b, w = BLACK, WHITE
        self.agents = {b: self.agents[w], w: self.agents[b]}
        self.labels = {b: self.labels[w], w: self.labels[b]}
        self.specs = {b: self.specs[w], w: self.specs[b]}

    def new_game(self) -> None:
        """Tell every agent a new game starts (it drops what it kept of the last one)."""
        for agent in self.agents.values():
            if agent is not None:
                agent.new_game()

    def close(self) -> None:
        """Stop the agents' threads and engines (an error in one does not stop the others)."""
        for agent in self.agents.values():
            if agent is not None:
                with contextlib.suppress(Exception):
                    agent.close()
