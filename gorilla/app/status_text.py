"""The text of the side panel (window) and of the status line (terminal): every game's
:meth:`gorilla.app.table.Table.status_lines` (Go's in :mod:`gorilla.app.go.panel`, Gomoku's in
:mod:`gorilla.app.gomoku.panel`), and the lines both games' panels write alike: the clocks, what
runs in the background, a search's size in its own unit, a count with its word."""

from __future__ import annotations

import re

from gorilla.app.table import Table
from gorilla.rules.board import BLACK, WHITE


def status_lines(c: Table) -> list[str]:
    """The HUD text: side to move, captures, move, rules, AI status, result, message (each
    game writes its own: :meth:`gorilla.app.table.Table.status_lines`)."""
    return c.status_lines()


def clock_lines(c: Table) -> list[str]:
    """Both clocks as the panel shows them (none without a clock)."""
    views = c.clock_views()
    if views is None:
        return []
    paused = "  (paused)" if c.clock.paused else ""  # type: ignore[attr-defined]
    return [f"Clock: Black {views[BLACK].text()}  White {views[WHITE].text()}{paused}"]


def busy_lines(c: Table) -> list[str]:
    """What runs in the background: the kernels' compile, the evaluation."""
    lines = [c.compiler.status()] if c.compiler is not None and c.compiler.compiling else []
    return lines + (["Evaluating..."] if c.evaluating else [])


COMMENT_SHOWN = 400  # characters of a comment the panel shows

VISITS = ("net", "rank")  # the net's search counts visits
NODES = ("alphabeta", "pvs", "pvs+vct", "threat1")  # the tree searches count nodes


def counted(n: int, word: str) -> str:
    """'1 mistake', '2 mistakes', '0 blunders': a count with its word, singular for one (both
    games' messages and reports)."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def search_count(count: int, player: str) -> str:
    """A search's size in its own unit, from the player's label or spec: the net's search
    '200 visits', an alpha-beta (Gomoku's PVS) '5000 nodes', a Monte-Carlo search '1000
    playouts'."""
    kind = re.match(r"[a-z0-9+]*", player.strip().lower()).group()
    unit = "visits" if kind in VISITS else "nodes" if kind in NODES else "playouts"
    return f"{count} {unit}"
