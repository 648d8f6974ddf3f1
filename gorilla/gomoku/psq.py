"""Piskvork's ``.psq`` records, the format of Gomocup's game archives: read and written.

A record is plain text::

    Piskvorky 15x15, 0:0, 0
    8,8,0
    9,8,1250
    ...
    pbrain-first
    pbrain-second
    -1

The first line gives the board (width x height), the two players' levels (0: human) and which
of the two named players moved first (0 or 1). Each move is ``x,y,ms``: columns and rows from
1 at the top-left, and the thinking time of the move in milliseconds; moves alternate from
Black. Tournament records then name the two players (``pbrain-*`` files) and end with a status
number. The format holds no rule: a record is played under freestyle, and under the exact-five
and renju rules only when freestyle cannot play all its moves (an overline ends a freestyle
game). :mod:`gorilla.gomoku.sgf` reads these records beside SGF (``load_record`` and ``peek``
tell them apart by their first line).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from gorilla.gomoku import rules as R
from gorilla.gomoku.game import GomokuGame

HEADER = re.compile(r"\s*Piskvorky\s+(\d+)\s*x\s*(\d+)\s*,\s*(-?\d+)\s*:\s*(-?\d+)\s*,\s*(-?\d+)")
_MOVE = re.compile(r"\s*(-?\d+)\s*,\s*(-?\d+)\s*(?:,\s*(-?\d+))?\s*$")
_STATUS = re.compile(r"\s*-?\d+\s*$")
# the rules tried, in order, until one plays every move of the record
RULES = (R.FREESTYLE, R.STANDARD, R.RENJU)


def looks_like(text: str) -> bool:
    """Whether text starts as a Piskvork record (its ``Piskvorky WxH, ...`` line)."""
    return HEADER.match(text) is not None


@dataclass
class Psq:
    """A record as read: the board's size, the moves as (x, y, ms) from 0, the players' names
    (Black, White: empty when the record names none)."""

    size: int
    moves: list[tuple[int, int, int]] = field(default_factory=list)
    black: str = ""
    white: str = ""


def parse(text: str) -> Psq:
    """The record in text; ValueError with one line when it is no Piskvork record, its board
    is not square or out of range, or a move is off the board."""
    lines = text.splitlines()
    head = HEADER.match(lines[0]) if lines else None
    if head is None:
        raise ValueError("not a Piskvork record: no 'Piskvorky WxH, ...' first line")
    width, height, first = int(head.group(1)), int(head.group(2)), int(head.group(5))
    if width != height:
        raise ValueError(f"a {width}x{height} board: Gorilla plays on square boards only")
    if not R.MIN_SIZE <= width <= R.MAX_SIZE:
        raise ValueError(f"board size {width} out of range {R.MIN_SIZE}..{R.MAX_SIZE}")
    record = Psq(width)
    i = 1
    while i < len(lines) and (m := _MOVE.match(lines[i])):
        x, y = int(m.group(1)) - 1, int(m.group(2)) - 1
        if not (0 <= x < width and 0 <= y < width):
            where = f"move {m.group(1)},{m.group(2)} on line {i + 1}"
            raise ValueError(f"{where} is off the {width}x{width} board")
        record.moves.append((x, y, max(0, int(m.group(3) or 0))))
        i += 1
    names = []
    for line in lines[i:]:
        if _STATUS.match(line) or not line.strip():
            break
        names.append(line.strip())
    if len(names) >= 2:
        # the first line's last number says which of the two named players moved first
        record.black, record.white = (names[1], names[0]) if first == 1 else (names[0], names[1])
    return record


def game_of(record: Psq) -> GomokuGame:
    """The game a record holds, under the first of :data:`RULES` that plays all its moves;
    ValueError (one line: the first rule's complaint) when none does."""
    first_error = ""
    for rule in RULES:
        game = GomokuGame(record.size, rule)
        try:
            for n, (x, y, _) in enumerate(record.moves, 1):
                try:
                    game.play_xy(x, y)
                except ValueError as e:
                    raise ValueError(f"illegal move {n} ({x + 1},{y + 1}): {e}") from None
        except ValueError as e:
            first_error = first_error or str(e)
            continue
        return game
    raise ValueError(first_error)


def dumps(game: GomokuGame, black: str = "", white: str = "", times_ms: list[int] | None = None) -> str:
    """The game as a Piskvork record: its moves with their thinking times (times_ms, one a
    move; 0 when not given), then the players' names when given, and the status 0 (as
    Piskvork ends a saved game)."""
    n = game.size
    lines = [f"Piskvorky {n}x{n}, 0:0, 0"]
    times = list(times_ms or [])
    for k, (p, _c) in enumerate(game.moves):
        x, y = game.xy(p)
        ms = int(times[k]) if k < len(times) else 0
        lines.append(f"{x + 1},{y + 1},{max(0, ms)}")
    if black or white:
        lines += [black.replace("\n", " ") or "black", white.replace("\n", " ") or "white"]
    lines.append("0")
    return "\n".join(lines) + "\n"
