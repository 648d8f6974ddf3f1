"""GNU Go Monte-Carlo pattern databases: the text format and its parser.

A database is a sequence of patterns separated by blank lines; lines whose first
non-blank character is ``#`` are comments. A pattern is a 3x3 diagram with the
move ``*`` at the centre, then one or more colon lines ``:value[,property...]``::

    ?X%
    ?*%
    %%%

    :10,ocap1,osafe
    :20,ocap2

Symbols, from the mover's point of view, and the points of the 3x3
neighbourhood each one matches (as GNU Go 3.8 expands them when it loads a
database)::

    symbol  on the board                      off the board
    .       empty                             no
    O       own stone                         no
    X       opponent stone                    no
    o       own stone or empty                no
    x       opponent stone or empty           no
    ?       own stone, opponent stone, empty  no
    %       own stone, opponent stone, empty  yes
    | - +   never                             yes
    *       the move: the centre, and only there

Only ``%`` matches both on and off the board; ``?`` is on the board only, so
``???/?*?/???`` matches no point on the first line. The three edge symbols
all mean "off the board" (by convention ``|`` a vertical edge, ``-`` a
horizontal one, ``+`` the corner point, but GNU Go does not tell them apart
and neither does this parser).

The points of a neighbourhood that are off the board are those of one side
(a point on the edge: a whole row or column) or of two adjacent sides (a
point in the corner), never any other set. A diagram matches a neighbourhood
when, in one of its 8 rotations and reflections, every symbol matches the
point under it. So an edge is drawn as a whole row and/or column of ``|``
``-`` ``+`` and ``%`` on the side of the diagram, and ``%`` lets one diagram
cover both sides of that line::

    ?X|
    O*|
    %%%

matches a point on the right-hand edge (the bottom row on the board) and the
bottom-right corner point (the bottom row off the board too), and so, turned
and reflected, every edge and corner point with those stones around it.

A diagram that no point of any board can match is refused (GNU Go loads it
and never uses it), with the line of the offending symbol: an edge symbol
whose row and column both hold a symbol that is on the board only (an edge
symbol in the middle of a row, a partial edge row or column), edge symbols on
opposite sides; so is a centre other than ``*`` or a ``*`` elsewhere. Values
are unsigned 32-bit integers. The properties are those of GNU Go 3.8's manual
(see ``PROPERTIES``).

Files may be UTF-8 or Latin-1 (GNU Go's own are Latin-1). Anything that does
not parse raises ``PatternError("FILE:LINE: reason")`` and nothing is returned.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

MAX_VALUE = 2**32 - 1
SYMBOLS = ".OXox?%|-+*"
EDGE_SYMBOLS = "|-+"  # off the board only
OFF_BOARD_SYMBOLS = EDGE_SYMBOLS + "%"  # may stand for a point off the board

# The sides of a diagram, as (row, column) cells counted from the top left, and the
# sets of cells that are off the board around some board point: none (the middle of
# the board), one side (on an edge) or two adjacent sides (in a corner).
SIDES: dict[str, frozenset[tuple[int, int]]] = {
    "top row": frozenset((0, c) for c in range(3)),
    "bottom row": frozenset((2, c) for c in range(3)),
    "left column": frozenset((r, 0) for r in range(3)),
    "right column": frozenset((r, 2) for r in range(3)),
}
OFF_BOARD_SETS: tuple[frozenset[tuple[int, int]], ...] = (
    frozenset(),
    *SIDES.values(),
    *(SIDES[r] | SIDES[c] for r in ("top row", "bottom row") for c in ("left column", "right column")),
)

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
    """A ``:value,property...`` line: the value and the properties that select contexts."""

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
    """One diagram (three rows, the move at ``*``) and its colon line."""

    diagram: tuple[str, str, str]  # rows from the top
    lines: tuple[ColonLine, ...]
    line: int  # line of the diagram's first row


@dataclass(frozen=True)
class Database:
    """A parsed database: its name and patterns in file order (the first match wins)."""

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
    need = {(r, c) for r in range(3) for c in range(3) if rows[r][c] in EDGE_SYMBOLS}
    may = {(r, c) for r in range(3) for c in range(3) if rows[r][c] in OFF_BOARD_SYMBOLS}
    if not need or any(need <= off <= may for off in OFF_BOARD_SETS):
        return
    for r, c in sorted(need):
        sides = [name for name, cells in SIDES.items() if (r, c) in cells]
        if not any(SIDES[name] <= may for name in sides):
            raise PatternError(
                f"{source}:{first + r}: edge symbol '{rows[r][c]}' at row {r + 1}, column {c + 1}"
                f" needs a whole edge row or column of '|', '-', '+' or '%'"
                f" (here the {' or the '.join(sides)})"
            )
    raise PatternError(f"{where}: edge symbols on opposite sides of the diagram (no board point has both)")


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
