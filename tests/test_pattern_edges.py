"""Edges in Monte-Carlo pattern diagrams: ``|`` ``-`` ``+`` and ``%`` next to them.

GNU Go 3.8's manual (the Monte Carlo chapter) gives the symbols: ``|`` vertical
edge, ``-`` horizontal edge, ``+`` corner, ``?`` own stone, opponent stone or
empty, and ``%`` own stone, opponent stone, empty, or edge. So ``%`` is the
only symbol that matches both on and off the board, and a diagram may draw an
edge as a row or column of edge symbols completed by ``%``.

Matching is checked against an oracle written from that list alone: it reads
the 3x3 neighbourhood of a point from an actual board (off the board where a
neighbour's coordinates leave it) and tries the diagram in the 8 orientations
given as coordinate transforms. The system under test is the whole path the
playouts take: parse, compile, then the value the kernel looks up for the point.
"""

from __future__ import annotations

import functools
import itertools
import random
import subprocess
from pathlib import Path

import numpy as np
import pytest
from helpers import assert_database_refused

from gorilla.ai.playout import pattern as PP
from gorilla.ai.playout.catalog import compiled
from gorilla.ai.playout.database import PatternError, load_database, parse_database
from gorilla.ai.playout.pat3 import pat3_code
from gorilla.ai.playout.tables import CompiledPatterns, compile_database
from gorilla.rules import board as K
from gorilla.rules.board import BLACK, EMPTY, PASS, WHITE
from gorilla.rules.coords import parse_vertex
from gorilla.rules.position import Position

# --- the oracle ----------------------------------------------------------------------

EMPTY_, OWN, OPP, OFF = 0, 1, 2, 3
MANUAL = {
    ".": {EMPTY_},
    "O": {OWN},
    "X": {OPP},
    "o": {OWN, EMPTY_},
    "x": {OPP, EMPTY_},
    "?": {OWN, OPP, EMPTY_},
    "%": {OWN, OPP, EMPTY_, OFF},
    "|": {OFF},
    "-": {OFF},
    "+": {OFF},
}
# the 8 symmetries of the square as maps of a (row, column) offset from the centre
ORIENTATIONS = [
    lambda dr, dc: (dr, dc),
    lambda dr, dc: (dr, -dc),
    lambda dr, dc: (-dr, dc),
    lambda dr, dc: (-dr, -dc),
    lambda dr, dc: (dc, dr),
    lambda dr, dc: (dc, -dr),
    lambda dr, dc: (-dc, dr),
    lambda dr, dc: (-dc, -dr),
]
OFFSETS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]

SIZE = 5
W = SIZE + 2
# a corner, the middle of an edge and the centre of a 5x5 board, as (row, column) from the top
# left: every neighbourhood a board point can have, in every orientation, occurs at one of them
SITES = [(r, c) for r in (0, 2, 4) for c in (0, 2, 4)]


def kind(site: tuple[int, int]) -> str:
    edges = sum(x in (0, SIZE - 1) for x in site)
    return ("middle", "edge", "corner")[edges]


def point(r: int, c: int) -> int:
    return (r + 1) * W + c + 1


@functools.cache
def site_positions() -> list[tuple[tuple[int, int], Position]]:
    """Every colouring of the on-board neighbours of every site, as real positions (7,641)."""
    out = []
    for r, c in SITES:
        around = [(r + dr, c + dc) for dr, dc in OFFSETS]
        on = [(y, x) for y, x in around if 0 <= y < SIZE and 0 <= x < SIZE]
        for colours in itertools.product((EMPTY, BLACK, WHITE), repeat=len(on)):
            pos = Position(SIZE)
            for (y, x), col in zip(on, colours, strict=True):
                if col != EMPTY:
                    pos.setup_stone(point(y, x), col)
            # every stone keeps a liberty outside the 3x3 square: nothing was captured
            assert all(pos.color_at(point(y, x)) == col for (y, x), col in zip(on, colours, strict=True))
            out.append(((r, c), pos))
    return out


@functools.cache
def states(mover: int) -> np.ndarray:
    """(n, 3, 3) mover-view states of the neighbourhoods of site_positions(), read from the boards."""
    view = {EMPTY: EMPTY_, mover: OWN, 3 - mover: OPP}
    out = np.full((len(site_positions()), 3, 3), -1, dtype=np.int64)
    for i, ((r, c), pos) in enumerate(site_positions()):
        for dr, dc in OFFSETS:
            y, x = r + dr, c + dc
            out[i, dr + 1, dc + 1] = view[pos.color_at(point(y, x))] if pos.on_board(point(y, x)) else OFF
            if 0 <= y < SIZE and 0 <= x < SIZE:
                assert pos.on_board(point(y, x))
    return out


@functools.cache
def codes() -> np.ndarray:
    """The 16-bit neighbourhood code the playout kernel reads at each site point."""
    return np.array([pat3_code(pos.b, W, point(*site)) for site, pos in site_positions()], dtype=np.int64)


def oracle(diagram: tuple[str, str, str], mover: int) -> np.ndarray:
    """Which site_positions() the manual says the diagram matches (for mover), as a bool array."""
    seen = states(mover)
    hit = np.zeros(len(seen), dtype=bool)
    for orient in ORIENTATIONS:
        ok = np.ones(len(seen), dtype=bool)
        for dr, dc in OFFSETS:
            allowed = np.zeros(4, dtype=bool)
            allowed[list(MANUAL[diagram[dr + 1][dc + 1]])] = True
            br, bc = orient(dr, dc)
            ok &= allowed[seen[:, br + 1, bc + 1]]
        hit |= ok
    return hit


def can_match_somewhere(diagram: tuple[str, str, str]) -> bool:
    """Whether some board point's neighbourhood can match the diagram (stones chosen freely)."""
    for r, c in SITES:
        for orient in ORIENTATIONS:
            fits = True
            for dr, dc in OFFSETS:
                br, bc = orient(dr, dc)
                off = not (0 <= r + br < SIZE and 0 <= c + bc < SIZE)
                symbol = MANUAL[diagram[dr + 1][dc + 1]]
                fits &= OFF in symbol if off else bool(symbol - {OFF})
            if fits:
                return True
    return False


@functools.lru_cache(maxsize=4)
def compile_alone(diagram: tuple[str, str, str]) -> CompiledPatterns:
    """A database of the one diagram, worth 7 (every other move is worth the default 1)."""
    return compile_database(parse_database("\n".join(diagram) + "\n\n:7\n"))


def table_values(diagram: tuple[str, str, str], mover: int) -> np.ndarray:
    """The value the playout kernel gives each site point for mover under ``diagram`` ``:7``."""
    cp = compile_alone(diagram)
    return cp.table[cp.cidx[mover - 1, codes()], 0].astype(np.int64)


# --- diagrams that load and where they match ------------------------------------------

EDGE_DIAGRAMS = [
    # (diagram, where it matches: a subset of middle / edge / corner)
    (("?X|", "O*|", "%%%"), {"edge", "corner"}),  # the issue: '%' row under an edge column
    (("OX|", "?*|", "%%%"), {"edge", "corner"}),
    (("|X?", "|*O", "|X?"), {"edge"}),  # an edge column beside '?' rows: never the corner
    (("?..", "?*.", "---"), {"edge"}),
    (("%%%", "%*%", "%-%"), {"edge", "corner"}),  # '%' completes the edge row, and the corners
    (("%X%", "O*O", "%-%"), {"edge"}),  # ... but not where the sides hold stones
    (("|%%", "%*%", "%%%"), {"edge", "corner"}),  # an edge symbol on a diagram's corner
    (("%%%", "-*%", "%%%"), {"edge", "corner"}),
    (("+--", "|*.", "|.."), {"corner"}),
    (("%--", "|*O", "|.x"), {"corner"}),  # '%' on the board's corner point
    (("%%+", "?*|", "??|"), {"edge", "corner"}),  # '+' where the corner is optional
    (("-|+", "x*|", "x.|"), {"corner"}),  # GNU Go does not tell the edge symbols apart
    (("??%", "?*%", "%%%"), {"middle", "edge", "corner"}),
    (("%%%", "%*%", "%%%"), {"middle", "edge", "corner"}),
    (("%%%", "?*?", "???"), {"middle", "edge"}),
    (("???", "?*?", "???"), {"middle"}),  # '?' is never off the board
    (("?%?", "%*%", "?%?"), {"middle"}),  # no whole side can be off the board
    (("XO.", ".*.", "..."), {"middle"}),
]


@pytest.mark.parametrize("diagram, where", EDGE_DIAGRAMS, ids=["/".join(d) for d, _ in EDGE_DIAGRAMS])
def test_diagram_loads_and_matches_exactly_where_the_manual_says(
    diagram: tuple[str, str, str], where: set[str]
) -> None:
    for mover in (BLACK, WHITE):
        expected = oracle(diagram, mover)
        got = table_values(diagram, mover)
        assert set(np.unique(got)) <= {1, 7}
        wrong = np.flatnonzero((got == 7) != expected)
        assert wrong.size == 0, [(site_positions()[i][0], states(mover)[i].tolist()) for i in wrong[:3]]
        matched_sites = {site_positions()[i][0] for i in np.flatnonzero(expected)}
        assert {kind(site) for site in matched_sites} == where
        # in every orientation: at each corner, edge or centre of the board of a kind it matches
        assert matched_sites == {site for site in SITES if kind(site) in where}


@pytest.mark.parametrize("mover", [BLACK, WHITE])
def test_the_table_lookup_is_what_move_values_gives(mover: int) -> None:
    diagram = ("?X|", "O*|", "%%%")
    cp = compile_alone(diagram)
    looked_up = table_values(diagram, mover)
    for i, (site, pos) in enumerate(site_positions()):
        p = point(*site)
        v = PP.move_values(pos.b, pos.st, mover, cp.table, cp.cidx)[p]
        assert v == (0 if pos.check(p, mover) is not None else looked_up[i])


def test_the_issue_pattern_on_a_9x9_board() -> None:
    # ?X|      own stone (O) inward, opponent (X) along the edge: for Black, own = X below, O = White
    # O*|
    # %%%
    cp = compile_database(parse_database("?X|\nO*|\n%%%\n\n:7\n"))
    pos = Position.from_diagram(
        """
        ...O.....
        ..X......
        .........
        ....O...O
        ...X...X.
        X......O.
        .O....X..
        ........O
        .......X.
        """
    )
    pos.st[K.S_LAST] = PASS
    black = PP.move_values(pos.b, pos.st, BLACK, cp.table, cp.cidx)
    white = PP.move_values(pos.b, pos.st, WHITE, cp.table, cp.cidx)
    at = {v: parse_vertex(v, 9) for v in ("J5", "J1", "C9", "E5", "H3", "A3")}
    assert black[at["J5"]] == 7  # right edge: opponent above, own stone inward
    assert black[at["J1"]] == 7  # the corner: the '%%%' row off the board
    assert black[at["C9"]] == 7  # top edge: the diagram turned a quarter
    assert black[at["E5"]] == 1  # the same stones in the middle of the board
    assert black[at["H3"]] == 1  # second line: the '|' column is on the board
    assert black[at["A3"]] == 1 and white[at["A3"]] == 7  # left edge: the colours fit White only
    assert white[at["J5"]] == 1
    # in the corner the diagram also lies along the bottom edge: H1 (Black) beside, J2 (White) above
    assert white[at["J1"]] == 7


# --- which diagrams load ------------------------------------------------------------


def test_a_diagram_loads_exactly_when_some_board_point_can_match_it() -> None:
    rng = random.Random(12)
    seen = {True: 0, False: 0}
    for _ in range(3000):
        cells = [rng.choice(".?%x|-+") for _ in range(8)]
        cells.insert(4, "*")
        diagram = ("".join(cells[0:3]), "".join(cells[3:6]), "".join(cells[6:9]))
        possible = can_match_somewhere(diagram)
        try:
            parse_database("\n".join(diagram) + "\n\n:1\n")
            loaded = True
        except PatternError:
            loaded = False
        assert loaded == possible, diagram
        seen[loaded] += 1
    assert min(seen.values()) > 100  # both outcomes were exercised


MALFORMED = [
    # (text, line of the error, part of the reason)
    ("?|?\n?*?\n???\n\n:1\n", 1, "edge symbol '|' at row 1, column 2"),  # edge in the middle of a row
    ("%%%\n-*%\n.%%\n\n:1\n", 2, "'-' at row 2, column 1"),  # in the middle of a column
    ("?.?\n.|.\n???\n\n:1\n", 2, "centre of the diagram must be '*'"),  # at the centre
    ("*%%\n%.%\n%%%\n\n:1\n", 1, "'*' (the move) must be at the centre only"),
    ("%%%\n%*%\n%*%\n\n:1\n", 3, "'*' (the move) must be at the centre only"),
    ("--.\n?*?\n???\n\n:1\n", 1, "here the top row or the left column"),  # a partial edge row
    ("%-.\n?*?\n???\n\n:1\n", 1, "here the top row"),
    ("?X|\nO*|\n%%?\n\n:1\n", 1, "here the top row or the right column"),  # '?' is not an edge
    ("+--\n|*.\n?..\n\n:1\n", 2, "here the left column"),  # a partial edge column
    ("|%|\n|*|\n|%|\n\n:1\n", 1, "opposite sides"),
    ("-%-\n%*%\n-%-\n\n:1\n", 1, "opposite sides"),
    ("?X|\nO*|\n%%%\n\n:1\n\n\n|X?\n|*O\n|X.\n\n:4\n\n%%%\n%*%\n.-%\n\n:2\n", 16, "here the bottom row"),
]


@pytest.mark.parametrize("text, line, reason", MALFORMED)
def test_malformed_diagrams_get_one_line(tmp_path: Path, text: str, line: int, reason: str) -> None:
    assert_database_refused(tmp_path / "bad.db", text, line, reason)


# --- a whole database -----------------------------------------------------------------

MIXED = """\
# Edges drawn with '|', '-', '+' and completed by '%', among ordinary patterns.

oOo
O*O
oO?

:0

oOo
O*O
---

:0

|Oo
|*O
+--

:0

?X%
?*%
%%%

:10000,ocap1,near,osafe
:13000,ocap2+,near

|X?
|*O
|X?

:400,near,osafe

?X|
O*|
%%%

:1000,near,osafe

OX|
?*|
%%%

:1000,near,osafe

?X?
O*O
x.?

:20,near,osafe,xsafe

XO?
O*.
?.?

:100,near

%--
|*.
|..

:2

%%%
%*%
%-%

:3,far,ocap0

??%
?*%
%%%

:10
"""


def test_a_mixed_database_plays_pattern_playouts(tmp_path: Path) -> None:
    f = tmp_path / "edges.db"
    f.write_text(MIXED, encoding="utf-8")
    assert len(load_database(f)) == 12
    cp = compiled(file=f)
    assert {0, 2, 3, 10, 20, 100, 400, 1000, 10000, 13000} <= set(np.unique(cp.table).tolist())
    ws = PP.new_workspace()
    moves = np.zeros(PP.MAX_MOVES, dtype=np.int32)
    K.seed_rng(12)
    for _ in range(20):
        b, st = K.new_board(9, False)
        n = PP.run_pattern_playout(b, st, K.ZOBRIST, PP.MAX_MOVES, moves, cp.table, cp.cidx, ws)
        assert n < PP.MAX_MOVES and st[K.S_PASSES] == 2  # it ends by itself
        pos = Position(9)
        for p in moves[:n]:
            if p == PASS:
                K.play_pass(pos.st)
            else:
                assert pos.check(int(p)) is None, f"illegal move {p}"
                pos.play(int(p))
        assert (pos.b[K.COLOR] == b[K.COLOR]).all()
    # the incremental bookkeeping agrees with values recomputed from scratch after every move
    for _ in range(10):
        b, st = K.new_board(9, False)
        assert PP.checked_playout(b, st, K.ZOBRIST, PP.MAX_MOVES, cp.table, cp.cidx, ws) == 0


def test_a_mixed_database_plays_an_mcts_genmove(tmp_path: Path) -> None:
    from gorilla.gtp.main import engine_from_args

    f = tmp_path / "edges.db"
    f.write_text(MIXED, encoding="utf-8")
    engine = engine_from_args(["--ai", "mcts:playouts=50", "--size", "9", "--mc-load-patterns", str(f)])
    out = engine.execute("genmove b")
    assert out is not None and out.startswith("= ")
    vertex = out.split()[1]
    assert vertex not in ("pass", "resign")
    assert parse_vertex(vertex, 9) >= 0


def test_gnu_go_accepts_the_mixed_database(tmp_path: Path, gnugo_path: str) -> None:
    f = tmp_path / "edges.db"
    f.write_text(MIXED, encoding="utf-8")
    cmd = [gnugo_path, "--mode", "gtp", "--monte-carlo", "--boardsize", "9", "--mc-load-patterns", str(f)]
    r = subprocess.run(cmd, input="genmove b\nquit\n", capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    reply = r.stdout.split()
    assert reply[0] == "=" and reply[1] not in ("PASS", "resign"), r.stdout
    # a file GNU Go cannot read is refused: the check above would notice a refusal
    r = subprocess.run(
        [*cmd[:-1], str(tmp_path / "missing.db")], input="quit\n", capture_output=True, text=True, timeout=60
    )
    assert r.returncode != 0
