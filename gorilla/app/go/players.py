"""Go's players made from their specs: 'human', an AI spec ('mcts:playouts=800', 'net'), or a
GTP engine ('gtp:gnugo --mode gtp', :mod:`gorilla.app.go.gtp_player`), as the shared
:class:`gorilla.app.players.Players`; the panel's labels of them."""

from __future__ import annotations

import contextlib
from typing import Any

from gorilla.ai.agent import Agent, make_agent
from gorilla.app.go.gtp_player import GtpEngineAgent, engine_label, is_gtp_spec
from gorilla.app.players import Players
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


def go_players(black: str | Agent, white: str | Agent, threads: int = 1) -> Players:
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
    return Players(
        {BLACK: first, WHITE: second},
        {BLACK: player_label(black), WHITE: player_label(white)},
        {BLACK: spec_of(black), WHITE: spec_of(white)},
    )


def name_game(seats: Players, info: Any) -> None:
    """PB/PW for the SGF (a Go game's info) when the game has no names yet: each player's label
    (a GTP engine's its own, an AI of Gorilla's 'Gorilla (label)')."""
    for color, attr in ((BLACK, "black_name"), (WHITE, "white_name")):
        if not getattr(info, attr):
            label = seats.labels[color]
            if label == "human":
                name = "Human"
            elif is_gtp_spec(seats.specs[color]):
                name = label
            else:
                name = f"Gorilla ({label})"
            setattr(info, attr, name)
