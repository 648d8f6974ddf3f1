"""GNU Go Monte-Carlo pattern databases: the text format and its parser.

A database is a sequence of patterns separated by blank lines; lines whose first
non-blank character is ``#`` are comments. A pattern is a 3x3 diagram with the
move ``*`` at the centre, then one or more colon lines ``:value[,property...]``::

    ?X%
    ?*%
    %%%

    :10,ocap1,osafe
    :20,ocap2

Symbols (from the mover's point of view): ``.`` empty, ``O`` own stone, ``X``
opponent stone, ``o`` own or empty, ``x`` opponent or empty, ``?`` own,
opponent or empty, ``%`` anything including off-board, and ``|`` ``-`` ``+``
off-board (vertical edge, horizontal edge, corner). Values are unsigned 32-bit
integers. The properties are those of GNU Go 3.8's manual (see ``PROPERTIES``).

Files may be UTF-8 or Latin-1 (GNU Go's own are Latin-1). Anything that does
not parse raises ``PatternError("FILE:LINE: reason")`` and nothing is returned.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

MAX_VALUE = 2**32 - 1
SYMBOLS = ".OXox?%|-+*"
EDGE_SYMBOLS = "|-+"

# Context bits of a candidate move, from the mover's point of view.
NEAR = 1  # bit 0: near the previous move
OSAFE = 2  # bit 1: not a self-atari for the mover
XSAFE = 4  # bit 2: not a self-atari for the opponent
XSUICIDE = 8  # bit 3: suicide for the opponent
OCAP_SHIFT = 4  # bits 4-5: stones the move captures, 0..3 (3 = three or more)
XCAP_SHIFT = 6  # bits 6-7: stones an opponent move there would capture, 0..3
NCONTEXTS = 256

_CTX = np.arange(NCONTEXTS)
_OCAP = (_CTX >> OCAP_SHIFT) & 3
_XCAP = (_CTX >> XCAP_SHIFT) & 3


def _bit(mask: int, on: bool) -> np.ndarray:
    return ((_CTX & mask) != 0) == on


PROPERTIES: dict[str, np.ndarray] = {
    "near": _bit(NEAR, True),
    "far": _bit(NEAR, False),
    "osafe": _bit(OSAFE, True),
    "ounsafe": _bit(OSAFE, False),
    "xsafe": _bit(XSAFE, True),
    "xunsafe": _bit(XSAFE, False),
    "xsuicide": _bit(XSUICIDE, True),
    "xnosuicide": _bit(XSUICIDE, False),
}
for _side, _caps in (("o", _OCAP), ("x", _XCAP)):
    for _k in range(4):
        PROPERTIES[f"{_side}cap{_k}"] = _caps == _k
    PROPERTIES[f"{_side}cap1+"] = _caps >= 1
    PROPERTIES[f"{_side}cap1-"] = _caps <= 1
    PROPERTIES[f"{_side}cap2+"] = _caps >= 2
    PROPERTIES[f"{_side}cap2-"] = _caps <= 2
for _m in PROPERTIES.values():
    _m.setflags(write=False)


class PatternError(ValueError):
    """A database that does not parse; str() is ``FILE:LINE: reason``."""


@dataclass(frozen=True)
class ColonLine:
    value: int
    properties: tuple[str, ...]
    line: int

    def contexts(self) -> np.ndarray:
        """Boolean mask over the 256 contexts where every property holds."""
        mask = np.ones(NCONTEXTS, dtype=bool)
        for prop in self.properties:
            mask &= PROPERTIES[prop]
        return mask


@dataclass(frozen=True)
class Pattern:
    diagram: tuple[str, str, str]  # rows from the top
    lines: tuple[ColonLine, ...]
    line: int  # line of the diagram's first row


@dataclass(frozen=True)
class Database:
    name: str
    source: str  # file name (or "<string>")
    patterns: tuple[Pattern, ...]

    def __len__(self) -> int:
        return len(self.patterns)


def _decode(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def _check_diagram(rows: list[str], source: str, first: int) -> None:
    """Raise PatternError for a malformed diagram whose first row is line ``first``."""
    where = f"{source}:{first}"
    for r, row in enumerate(rows):
        if len(row) != 3:
            raise PatternError(
                f"{source}:{first + r}: diagram row {r + 1} has {len(row)} symbols, expected 3"
            )
    for r, row in enumerate(rows):
        if "*" in row and (r, row.index("*")) != (1, 1) or row.count("*") > 1:
            raise PatternError(f"{source}:{first + r}: '*' (the move) must be at the centre only")
    if rows[1][1] != "*":
        raise PatternError(f"{source}:{first + 1}: the centre of the diagram must be '*'")
    off = {(r, c) for r in range(3) for c in range(3) if rows[r][c] in EDGE_SYMBOLS}
    if not off:
        return
    full_rows = [r for r in (0, 2) if all((r, c) in off for c in range(3))]
    full_cols = [c for c in (0, 2) if all((r, c) in off for r in range(3))]
    covered = {(r, c) for r in full_rows for c in range(3)} | {(r, c) for c in full_cols for r in range(3)}
    if covered != off or (1, 1) in off or len(full_rows) > 1 or len(full_cols) > 1:
        raise PatternError(f"{where}: off-board symbols must fill one edge row and/or one edge column")
    for r, c in off:
        want = "+" if (r in full_rows and c in full_cols) else ("-" if r in full_rows else "|")
        if rows[r][c] != want:
            raise PatternError(f"{where}: expected '{want}' for the edge at row {r + 1}, column {c + 1}")


def _parse_colon(text: str, where: str, lineno: int) -> ColonLine:
    fields = [f.strip() for f in text[1:].split(",")]
    vtext = fields[0]
    if not vtext.isdigit() or not vtext.isascii():
        raise PatternError(f"{where}: invalid value '{vtext}' (expected an unsigned integer)")
    value = int(vtext)
    if value > MAX_VALUE:
        raise PatternError(f"{where}: value {value} does not fit in 32 bits")
    props = []
    for f in fields[1:]:
        if f not in PROPERTIES:
            raise PatternError(f"{where}: unknown property '{f}'")
        props.append(f)
    return ColonLine(value, tuple(props), lineno)


def parse_database(text: str, source: str = "<string>", name: str | None = None) -> Database:
    """Parse database text; raises PatternError("SOURCE:LINE: reason")."""
    patterns: list[Pattern] = []
    rows: list[str] = []
    row_line = 0
    colons: list[ColonLine] = []
    state = "idle"  # idle | diagram | colons

    def finish() -> None:
        nonlocal rows, colons
        if rows and not colons:
            raise PatternError(f"{source}:{row_line}: pattern has no colon line")
        if rows:
            patterns.append(Pattern((rows[0], rows[1], rows[2]), tuple(colons), row_line))
        rows, colons = [], []

    lines = text.splitlines()
    for i, raw in enumerate(lines, start=1):
        line = raw.rstrip()
        where = f"{source}:{i}"
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            if state == "diagram":
                if len(rows) != 3:
                    raise PatternError(f"{source}:{row_line}: diagram has {len(rows)} rows, expected 3")
                _check_diagram(rows, source, row_line)
                state = "colons"
            continue
        if stripped.startswith(":"):
            if state == "idle":
                raise PatternError(f"{where}: colon line without a pattern")
            if state == "diagram":
                if len(rows) != 3:
                    raise PatternError(f"{source}:{row_line}: diagram has {len(rows)} rows, expected 3")
                _check_diagram(rows, source, row_line)
                state = "colons"
            colons.append(_parse_colon(stripped, where, i))
            continue
        # a diagram row
        bad = [ch for ch in line if ch not in SYMBOLS]
        if bad:
            raise PatternError(f"{where}: unknown symbol '{bad[0]}' in diagram")
        if state == "colons":
            if not colons:
                raise PatternError(f"{source}:{row_line}: pattern has no colon line")
            finish()
            state = "idle"
        if state == "idle":
            row_line = i
            state = "diagram"
        if len(rows) == 3:
            raise PatternError(f"{where}: diagram has more than 3 rows")
        rows.append(line)
    if state == "diagram":
        if len(rows) != 3:
            raise PatternError(f"{source}:{row_line}: diagram has {len(rows)} rows, expected 3")
        _check_diagram(rows, source, row_line)
    finish()
    if name is None:
        name = Path(source).stem if source != "<string>" else "custom"
    return Database(name, source, tuple(patterns))


def load_database(path: str | Path, name: str | None = None) -> Database:
    """Read and parse a database file (UTF-8, else Latin-1)."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as e:
        raise PatternError(f"{p}:0: cannot read: {e.strerror or e}") from None
    return parse_database(_decode(data), str(p), name or p.stem)
