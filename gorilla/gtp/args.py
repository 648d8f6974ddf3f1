"""What GTP command handlers share: argument parsing and the GTP view of the game."""

from __future__ import annotations

import math

from gorilla.gtp.protocol import GtpError
from gorilla.rules.board import PASS, RESIGN
from gorilla.rules.coords import format_vertex, parse_vertex
from gorilla.rules.game import Game
from gorilla.rules.position import parse_color

# --- argument parsing ---------------------------------------------------------------


def nargs(args: list[str], lo: int, hi: int | None = None) -> None:
    """Raise 'syntax error' unless lo <= len(args) <= hi."""
    hi = lo if hi is None else hi
    if not lo <= len(args) <= hi:
        raise GtpError("syntax error")


def arg_int(text: str) -> int:
    """text as an int; GtpError 'syntax error' when it is not one."""
    try:
        return int(text)
    except ValueError:
        raise GtpError("syntax error") from None


def arg_float(text: str) -> float:
    """text as a finite float; GtpError 'syntax error' otherwise."""
    try:
        value = float(text)
    except ValueError:
        raise GtpError("syntax error") from None
    if not math.isfinite(value):
        raise GtpError("syntax error")
    return value


def arg_color(text: str) -> int:
    """A GTP colour (b, w, black, white, any case) as BLACK or WHITE; else GtpError 'syntax error'."""
    try:
        return parse_color(text)
    except ValueError:
        raise GtpError("syntax error") from None


def arg_vertex(text: str, size: int, allow_pass: bool = True) -> int:
    """A vertex on the board (or pass); anything else is a syntax error."""
    try:
        p = parse_vertex(text, size)
    except ValueError:
        raise GtpError("syntax error") from None
    if p == RESIGN or (p == PASS and not allow_pass):
        raise GtpError("syntax error")
    return p


def vertices(points: list[int], size: int) -> str:
    """points as a space-separated list of GTP vertices (the answer of the list commands)."""
    return " ".join(format_vertex(p, size) for p in points)


# --- views of the game ----------------------------------------------------------------


def game_for(game: Game, color: int) -> Game:
    """The game with color to move, play allowed after its end (a copy when that differs)."""
    return game.with_to_move(color)


def check_move(game: Game, point: int, color: int) -> str | None:
    """None if color may play point now (GTP view: play continues after the game's end)."""
    return game.reopened().check(point, color)
