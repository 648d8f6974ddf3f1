"""Gomoku's players in the app: the specs the command line and the new-game form name ('human',
'pvs+vct:2', 'mcts:0.5', 'pbrain:COMMAND'), the agents they make (the built-in ones of
:mod:`gorilla.gomoku.agents`, a Gomocup engine through
:class:`gorilla.app.gomoku.pbrain_player.PbrainAgent`), the kernels they compile, and the seconds a
move their clock affords."""

from __future__ import annotations

from collections.abc import Iterable

from gorilla.app.clocks import Clocks
from gorilla.app.gomoku.pbrain_player import PbrainAgent, is_pbrain
from gorilla.app.players import Players
from gorilla.gomoku import rules as R
from gorilla.gomoku.agents import AGENTS, GomokuAgent, make_agent
from gorilla.match.gomoku_players import check_gomoku_spec, gomoku_label

DEFAULT_SECONDS = 1.0


def parse_player(spec: str) -> tuple[str, float]:
    """('human', 0) or (agent name, seconds a move) from 'human', 'pvs', 'pvs+vct:2', 'mcts:0.5';
    (the spec, 1 s) for a Gomocup engine 'pbrain:COMMAND' whose program is found."""
    if is_pbrain(spec):
        why = check_gomoku_spec(spec)
        if why is not None:
            raise ValueError(why)
        return spec.strip(), DEFAULT_SECONDS
    name, _, secs = spec.strip().lower().partition(":")
    if name == "human":
        return "human", 0.0
    if name not in AGENTS:
        raise ValueError(f"unknown Gomoku player {spec!r} (human or one of {', '.join(AGENTS)}[:SECONDS])")
    try:
        seconds = float(secs.removeprefix("time=")) if secs else DEFAULT_SECONDS
    except ValueError:
        raise ValueError(f"bad seconds in Gomoku player {spec!r}") from None
    if not 0 < seconds <= 600:
        raise ValueError(f"seconds of Gomoku player {spec!r} must be in (0, 600]")
    return name, seconds


def builtin_agents(players: Iterable[str]) -> list[str]:
    """The built-in agents' names among the players' specs: what
    :func:`gorilla.gomoku.agents.ready_engine` readies for a game between them (a human or a
    Gomocup engine needs only the rules, which check its moves; a spec that does not parse
    needs nothing: the new game says why)."""
    agents = []
    for spec in players:
        try:
            name, _ = parse_player(spec)
        except ValueError:
            continue
        if name != "human" and not is_pbrain(name):
            agents.append(name)
    return agents


def gomoku_players(black: str, white: str) -> Players:
    """The two players the specs name; ValueError (one line) for a spec that makes none."""
    parsed = {R.BLACK: parse_player(black), R.WHITE: parse_player(white)}
    return Players(
        {c: _make_agent(name) for c, (name, _) in parsed.items()},
        {c: _player_label(name, seconds) for c, (name, seconds) in parsed.items()},
        {R.BLACK: black, R.WHITE: white},
    )


def think_seconds(spec: str, color: int, clocks: Clocks) -> float:
    """The seconds color's player thinks now: its seconds a move, or what its clock affords when
    that is less."""
    seconds = parse_player(spec)[1]
    return clocks.share(seconds, color) or seconds


def _make_agent(name: str) -> GomokuAgent | None:
    """None for a human, a Gomocup engine for 'pbrain:COMMAND', else a built-in agent."""
    if name == "human":
        return None
    return PbrainAgent(name) if is_pbrain(name) else make_agent(name)


def _player_label(name: str, seconds: float) -> str:
    """How the panel names a player: 'human', 'pvs+vct 1s', 'pbrain:pbrain-wine'."""
    if name == "human":
        return "human"
    return gomoku_label(name) if is_pbrain(name) else f"{name} {seconds:g}s"


__all__ = ["DEFAULT_SECONDS", "builtin_agents", "gomoku_players", "parse_player", "think_seconds"]
