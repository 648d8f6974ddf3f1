"""Game records for learning and measuring the move model: kifu lines, zips of them, SGF files.

A *kifu line* is ``ID<TAB>;B[pd];W[dp];...`` (SGF move properties, 19x19 unless
told, ``[]`` or ``[tt]`` a pass); a kifu file holds one per line and a ``.zip``
holds kifu files. A ``results.tsv.gz`` next to a zip (``id, date, result,
moves, time_control``) marks games that ended on time or by disconnection:
their last :data:`TAIL_CUT` moves are dropped, as are moves after
:data:`MAX_MOVES` in every game (such moves are often meaningless). An SGF
file is read with :func:`gorilla.rules.sgf.load_sgf` (setup stones kept).

The validation split is fixed by the game's name: :func:`is_validation`.
"""

from __future__ import annotations

import gzip
import io
import os
import re
import zipfile
import zlib
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import NamedTuple

from gorilla.rules.board import BLACK, PASS, WHITE
from gorilla.rules.sgf import SgfError, load_sgf

MAX_MOVES = 250
TAIL_CUT = 30
VALIDATION_MOD = 10  # one game in ten (by name) is for validation only

_MOVE = re.compile(r";\s*([BW])\[([a-z]{0,2})\]")


class GameRecord(NamedTuple):
    """One game: its name, board size, setup stones (point, colour) and moves (colour, point)."""

    name: str
    size: int
    setup: list[tuple[int, int]]
    moves: list[tuple[int, int]]


class RecordError(ValueError):
    """A file that cannot be read as game records (one line)."""


def is_validation(name: str) -> bool:
    """Whether the game belongs to the fixed validation split (by a hash of its name)."""
    return zlib.crc32(name.encode()) % VALIDATION_MOD == 0


def sgf_point(text: str, size: int) -> int:
    """The flat index of SGF coordinates such as ``pd`` (``""`` or ``tt`` on 19x19: PASS)."""
    if text == "" or (text == "tt" and size <= 19):
        return PASS
    x = ord(text[0]) - 97
    y = ord(text[1]) - 97
    if not (0 <= x < size and 0 <= y < size):
        raise ValueError(f"'{text}' is off a {size}x{size} board")
    return (y + 1) * (size + 2) + x + 1


def parse_kifu_line(line: str, size: int = 19) -> GameRecord | None:
    """The record of one kifu line, or None for a blank line; raises ValueError if malformed."""
    line = line.strip()
    if not line:
        return None
    name, tab, body = line.partition("\t")
    if not tab:
        raise ValueError("no tab between the game id and its moves")
    moves = []
    for m in _MOVE.finditer(body):
        moves.append((BLACK if m.group(1) == "B" else WHITE, sgf_point(m.group(2), size)))
    return GameRecord(name, size, [], moves)


def _cut(rec: GameRecord, unfinished: set[str]) -> GameRecord:
    moves = rec.moves
    if rec.name in unfinished:
        moves = moves[: max(0, len(moves) - TAIL_CUT)]
    return rec._replace(moves=moves[:MAX_MOVES])


def _unfinished(folder: Path) -> set[str]:
    """Ids of games that ended on time or by disconnection, from folder/results.tsv.gz."""
    path = folder / "results.tsv.gz"
    if not path.is_file():
        return set()
    out = set()
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            cols = line.rstrip("\n").split("\t")
            if len(cols) >= 3 and (cols[2].endswith("+Time") or cols[2].endswith("+Offline")):
                out.add(cols[0])
    return out


def _kifu_lines(lines: Iterable[str], where: str, unfinished: set[str]) -> Iterator[GameRecord]:
    for i, line in enumerate(lines, 1):
        try:
            rec = parse_kifu_line(line)
        except ValueError as e:
            raise RecordError(f"{where}, line {i}: {e}") from None
        if rec is not None:
            yield _cut(rec, unfinished)


def read_records(paths: Iterable[str | os.PathLike[str]]) -> Iterator[GameRecord]:
    """Every game in the files (zips of kifu files, kifu files, SGF files), in order.

    Raises RecordError (one line) for a missing or malformed file."""
    for path in map(Path, paths):
        if not path.is_file():
            raise RecordError(f"no such file: {path}")
        unfinished = _unfinished(path.parent)
        if path.suffix.lower() == ".zip":
            try:
                with zipfile.ZipFile(path) as z:
                    for member in z.namelist():
                        with z.open(member) as raw:
                            text = io.TextIOWrapper(raw, encoding="utf-8", errors="replace")
                            yield from _kifu_lines(text, f"{path}:{member}", unfinished)
            except zipfile.BadZipFile:
                raise RecordError(f"{path} is not a readable zip file") from None
        elif path.suffix.lower() == ".sgf":
            try:
                game = load_sgf(path)
            except SgfError as e:
                raise RecordError(str(e)) from None
            start = game.positions[0]
            setup = [(p, c) for c in (BLACK, WHITE) for p in start.stones(c)]
            moves = [(m.color, m.point) for m in game.moves if m.point >= PASS]
            yield GameRecord(path.stem, game.size, setup, moves[:MAX_MOVES])
        else:
            with open(path, encoding="utf-8", errors="replace") as f:
                yield from _kifu_lines(f, str(path), unfinished)
