"""Who plays each colour, as a part that owns it: :class:`Players` keeps each colour's agent
(None for a human), its label in the panel and its spec (what the new-game form shows).

Go's players are made from specs here (:meth:`Players.for_go`: 'human', 'mcts:playouts=800',
'gtp:gnugo ...'); Gomoku's in :mod:`gorilla.app.gomoku.players`.
"""

from __future__ import annotations

import contextlib
from typing import Any

from gorilla.ai.agent import Agent, make_agent
from gorilla.app.gtp_player import GtpEngineAgent, engine_label, is_gtp_spec
from gorilla.rules.board import BLACK, WHITE


def player_label(spec: str | Agent) -> str:
    """How the HUD names a player: 'human', 'random', 'montecarlo:5,5' (seeds left out)."""
    if isinstance(spec, Agent):
        return spec.name
    if is_gtp_spec(spec):
        return engine_label(spec)
    name, sep, rest = spec.strip().partition(":")
    keep = [s for s in rest.split(",") if s.strip() and not s.strip().startswith("seed=")]
    return name + (sep + ",".join(keep) if keep else "")


def spec_of(player: str | Agent) -> str:
    """The agent spec of a player ('human' for a human)."""
    return player.name if isinstance(player, Agent) else player.strip()


def go_agent(spec: str | Agent, threads: int = 1) -> Agent | None:
    """The Go agent a spec names (None for 'human'); an MCTS without threads= gets threads."""
    if isinstance(spec, Agent):
        return spec
    if spec.strip().lower() == "human":
        return None
    if is_gtp_spec(spec):
        return GtpEngineAgent(spec)
    name = spec.split(":", 1)[0].strip().lower()
    overrides = {"threads": threads} if name == "mcts" and "threads" not in spec else {}
    return make_agent(spec, **overrides)


class Players:
    """The two players of one game (see the module docstring); colours are BLACK and WHITE."""

    def __init__(self, agents: dict[int, Any], labels: dict[int, str], specs: dict[int, str]) -> None:
        self.agents = agents  # colour -> agent, None for a human
        self.labels = labels  # colour -> the panel's name for the player
        self.specs = specs  # colour -> the spec the player was made from

    @classmethod
    def for_go(cls, black: str | Agent, white: str | Agent, threads: int = 1) -> Players:
        """Go's players from their specs (or agents); raises ValueError/ImportError/TypeError on
        a spec that cannot be made, closing the agent already made."""
        first = go_agent(black, threads)
        try:
            second = go_agent(white, threads)
        except Exception:
            if first is not None:
                with contextlib.suppress(Exception):
                    first.close()
            raise
        return cls(
            {BLACK: first, WHITE: second},
            {BLACK: player_label(black), WHITE: player_label(white)},
            {BLACK: spec_of(black), WHITE: spec_of(white)},
        )

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

    def name_game(self, info: Any) -> None:
        """PB/PW for the SGF (a Go game's info) when the game has no names yet."""
        for color, attr in ((BLACK, "black_name"), (WHITE, "white_name")):
            if not getattr(info, attr):
                label = self.labels[color]
                if label == "human":
                    name = "Human"
                elif is_gtp_spec(self.specs[color]):
                    name = label
                else:
                    name = f"Gorilla ({label})"
                setattr(info, attr, name)
