"""Monte-Carlo pattern databases (GNU Go 3.8's format): loader, compiled tables, playout kernel, CLIs.

Properties are checked against an oracle that plays each move on a copy of the
position with the rules engine (captures, liberties after the move, suicide),
and drawing frequencies with chi-square statistics against tabulated critical
values (fixed seeds, so the tests are deterministic).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from helpers import CHI2_999, assert_database_refused, chi_square

from gorilla.ai.playout import catalog as PT
from gorilla.ai.playout import pattern as PP
from gorilla.ai.playout.database import PROPERTIES, PatternError, load_database, parse_database
from gorilla.ai.playout.light import run_playout
from gorilla.ai.playout.tables import (
    C_EDGE,
    C_EMPTY,
    C_OPP,
    C_OWN,
    CELLS,
    CIDX,
    CONFIGS,
    NCONFIGS,
    compile_database,
    matching_configs,
)
from gorilla.rules import board as K
from gorilla.rules.board import BLACK, EMPTY, PASS, WHITE
from gorilla.rules.position import Position

ROOT = Path(__file__).resolve().parents[1]
ANY = "%%%\n%*%\n%%%\n\n"


def db(text: str):
    return compile_database(parse_database(text))


def values(cp, pos: Position, color: int) -> dict[int, int]:
    """Every empty point's value for color in pos (the last move as pos records it)."""
    v = PP.move_values(pos.b, pos.st, color, cp.table, cp.cidx)
    return {p: int(v[p]) for p in pos.points() if pos.color_at(p) == EMPTY}


def config_value(cp, cells: list[int], mover: int = BLACK, ctx: int = 0) -> int:
    """Table value of a neighbourhood given as 8 mover-view cells (C_EMPTY/C_OWN/C_OPP/C_EDGE)."""
    colour = {C_EMPTY: EMPTY, C_EDGE: K.BORDER, C_OWN: mover, C_OPP: 3 - mover}
    code = sum(colour[c] << (2 * i) for i, c in enumerate(cells))
    row = cp.cidx[mover - 1, code]
    assert row >= 0
    return int(cp.table[row, ctx])


def random_position(size: int, moves: int, seed: int) -> Position:
    pos = Position(size)
    K.seed_rng(seed)
    K.random_game(pos.b, pos.st, K.ZOBRIST, moves)
    return pos


# --- the format --------------------------------------------------------------------


@pytest.mark.parametrize("symbol", list(".OXox?%"))
@pytest.mark.parametrize("mover", [BLACK, WHITE])
def test_each_symbol_matches_exactly_its_cell_states(symbol: str, mover: int) -> None:
    cp = db(f"{symbol}%%\n%*%\n%%%\n\n:7\n")  # the symbol on one diagonal, in any orientation
    allowed = {".": {C_EMPTY}, "O": {C_OWN}, "X": {C_OPP}, "o": {C_EMPTY, C_OWN}, "x": {C_EMPTY, C_OPP},
               "?": {C_EMPTY, C_OWN, C_OPP}, "%": {C_EMPTY, C_OWN, C_OPP, C_EDGE}}[symbol]  # fmt: skip
    for v in (C_EMPTY, C_OWN, C_OPP):
        interior = [v] * 8
        assert config_value(cp, interior, mover) == (7 if v in allowed else 1)
        # bottom edge: the lower diagonals are off the board, the upper ones hold v
        edge = [C_EDGE if r == 2 else v for r, _ in CELLS]
        assert config_value(cp, edge, mover) == (7 if v in allowed or C_EDGE in allowed else 1)


def test_all_rotations_and_reflections_match_and_nothing_else() -> None:
    # X on a corner with O beside it: no symmetry of the 3x3 square maps this to itself
    mask = matching_configs(("XO.", ".*.", "..."))
    assert mask.sum() == 8
    cp = db("XO.\n.*.\n...\n\n:7\n")
    e, o, x = C_EMPTY, C_OWN, C_OPP
    # cells: NW N NE W E SW S SE
    images = [
        [x, o, e, e, e, e, e, e],  # as written
        [e, o, x, e, e, e, e, e],  # mirrored left-right
        [x, e, e, o, e, e, e, e],  # mirrored on the diagonal
        [e, e, e, e, e, x, o, e],  # mirrored top-bottom
        [e, e, e, e, e, e, o, x],  # rotated 180 degrees
        [e, e, x, e, o, e, e, e],  # rotated 90 degrees
        [e, e, e, o, e, x, e, e],
        [e, e, e, e, o, e, e, x],
    ]
    for cells in images:
        assert config_value(cp, cells) == 7
    assert config_value(cp, [x, e, e, e, e, e, o, e]) == 1  # X and O not adjacent
    assert config_value(cp, [o, x, e, e, e, e, e, e]) == 1  # colours swapped


def test_edge_and_corner_patterns_match_only_there() -> None:
    cp = db("oOo\nO*O\n---\n\n:5\n\n|Oo\n|*O\n+--\n\n:3\n")
    pos = Position.from_diagram(
        """
        .X...X.
        X.X.X.X
        .X...X.
        .......
        ...X...
        X.XOX.X
        .X...X.
        """
    )
    v = values(cp, pos, BLACK)
    w = 9
    at = lambda col, row: (7 - row) * w + col + 1  # noqa: E731 - (column, row from the bottom) 0-based
    assert v[at(0, 0)] == 3 and v[at(6, 0)] == 3 and v[at(0, 6)] == 3 and v[at(6, 6)] == 3  # corners
    assert v[at(1, 1)] == 1 and v[at(5, 5)] == 1  # interior eyes: no interior pattern here
    assert v[at(3, 6)] == 1  # top edge, no stones around
    pos2 = Position.from_diagram(
        """
        ..X.X..
        ...X...
        X......
        .X.....
        X....X.
        ....X.X
        .......
        """
    )
    v2 = values(cp, pos2, BLACK)
    assert v2[at(3, 6)] == 5  # top edge
    assert v2[at(0, 3)] == 5  # left edge
    assert v2[at(6, 2)] == 1  # an open edge point
    assert values(cp, pos2, WHITE)[at(3, 6)] == 0  # suicide for White: never played


def test_multiple_colon_lines_and_first_match_wins() -> None:
    text = ANY + ":50,near\n:5,ocap1+\n\n" + "%%%\n%*%\n%%%\n\n:9\n"
    cp = db(text)
    near, ocap1 = 1, 1 << 4
    assert cp.table[0, near] == 50 and cp.table[0, near | ocap1] == 50  # the first line wins
    assert cp.table[0, ocap1] == 5  # the second line where the first does not hold
    assert cp.table[0, 0] == 9  # the later pattern where no line of the first holds
    # the first pattern wins even with a smaller value
    cp2 = db(".%%\n%*%\n%%%\n\n:2\n\n" + ANY + ":100\n")
    assert config_value(cp2, [C_EMPTY] * 8) == 2
    assert config_value(cp2, [C_OWN] * 8) == 100


def test_value_zero_and_unsigned_32_bit_values() -> None:
    cp = db(ANY + ":4294967295,near\n:0\n")
    assert cp.table.dtype == np.uint32
    assert int(cp.table[0, 1]) == 2**32 - 1 and int(cp.table[0, 0]) == 0


def test_comments_blank_lines_and_latin1_files(tmp_path: Path) -> None:
    text = "# Gorilla's é database, ½ written in Latin-1\n\n\n# a comment between patterns\n" + (
        "oOo\nO*O\noO?\n\n# comment before the colon line\n:0\n\n\n" + ANY + ":3,near # trailing?\n"
    )
    with pytest.raises(PatternError):  # '#' is only a comment at the start of a line
        parse_database(text)
    text = text.replace(" # trailing?", "")
    f = tmp_path / "latin.db"
    f.write_bytes(text.encode("latin-1"))
    d = load_database(f)
    assert len(d) == 2 and d.patterns[1].lines[0].value == 3
    g = tmp_path / "utf8.db"
    g.write_bytes(text.encode("utf-8"))
    assert load_database(g).patterns == d.patterns


def test_a_database_in_gnu_go_style_loads_unchanged(tmp_path: Path) -> None:
    # the conventions of GNU Go's own mc_*.db files: a '# # #' banner with Latin-1 names,
    # several blank lines, blank lines holding spaces or a tab, trailing spaces after a
    # diagram row, '?' patterns and a catch-all default at the end
    text = (
        "# # # # # # # # # # # # # # # # #\n#  Test database, after Rémi's  #\n"
        "# # # # # # # # # # # # # # # # #\n"
        "\n\n\n# Proper eyes.\n\noOo\nO*O\noO?\n\n:0\n\n\n|Oo\n|*O\n+--\n\n:0\n\n  \n"
        "# Run away from atari near the move.\n\n?O?\n?*?\n???\n\n:10000,xcap1+,osafe,near\n\t\n"
        "XO?\nO*.\n?.?  \n\n:100,near\n\n\n# Default value.\n\n???\n?*?\n???\n\n:1\n\n"
    )
    f = tmp_path / "mc_style.db"
    f.write_bytes(text.encode("latin-1"))
    d = load_database(f)
    assert [p.diagram for p in d.patterns][3] == ("XO?", "O*.", "?.?")
    assert [cl.value for p in d.patterns for cl in p.lines] == [0, 0, 10000, 100, 1]
    cp = PT.compiled(file=f)
    pos = Position.from_diagram(
        """
        .....
        .XO..
        .O...
        .....
        .....
        """
    )
    pos.st[K.S_LAST] = PASS
    w = 7
    cut = 3 * w + 3  # C3, between White's C4 and B3 and diagonal to Black's B4
    assert values(cp, pos, WHITE)[cut] == 1  # the cut, but no last move to be near
    pos.st[K.S_LAST] = 2 * w + 2  # Black's B4 was the last move
    assert values(cp, pos, WHITE)[cut] == 100
    assert values(cp, pos, BLACK)[cut] == 1  # for Black the colours do not fit


BROKEN = [
    ("oOo\nO*O\noO\n\n:0\n", 3, "has 2 symbols"),
    ("oOo\nO*O\n\n:0\n", 1, "2 rows"),
    ("oOo\nO*O\noO?\nooo\n\n:0\n", 4, "more than 3 rows"),
    ("oOo\nOOO\noO?\n\n:0\n", 2, "centre"),
    ("oOo\nO*O\no*?\n\n:0\n", 3, "centre only"),
    ("oOo\nO*O\noO?\n\n", 1, "no colon line"),
    ("oOo\nO*O\noO?\n:0\n\n\nabc\n", 7, "unknown symbol 'a'"),
    ("\n:0\n", 2, "without a pattern"),
    (ANY + ":ten\n", 5, "invalid value"),
    (ANY + ":-1\n", 5, "invalid value"),
    (ANY + ":4294967296\n", 5, "32 bits"),
    (ANY + ":1,near,sideways\n", 5, "unknown property 'sideways'"),
    ("%%%\n%*%\n.-%\n\n:1\n", 3, "edge"),
    ("|.%\n.*%\n%%%\n\n:1\n", 1, "edge"),
    ("|%|\n|*|\n|%|\n\n:1\n", 1, "opposite sides"),
    ("oOo\nO*O\noO?\n\n:0\n\n" + ANY + ":1\n\n%%%\n%*\n%%%\n:1\n", 14, "has 2 symbols"),
]


@pytest.mark.parametrize("text, line, reason", BROKEN)
def test_broken_files_are_refused_with_file_line_reason(
    tmp_path: Path, text: str, line: int, reason: str
) -> None:
    assert_database_refused(tmp_path / "broken.db", text, line, reason)


def test_nothing_half_loaded_is_used(tmp_path: Path) -> None:
    f = tmp_path / "mine.db"
    f.write_text(ANY + ":0\n", encoding="utf-8")
    good = PT.compiled(file=f)
    assert int(good.table.max()) == 0
    f.write_text(ANY + ":5\n\noOo\nO*O\noO\n\n:0\n", encoding="utf-8")  # broken after a good pattern
    with pytest.raises(PatternError, match=r"mine.db:9: "):
        PT.compiled(file=f)
    from gorilla.ai.mcts.agent import MCTSAgent

    with pytest.raises(ValueError, match=r"mine.db:9: "):
        MCTSAgent(patterns=str(f))
    with pytest.raises(PatternError, match="cannot read"):
        PT.compiled(file=tmp_path / "missing.db")


def test_shipped_databases_are_found_and_compile() -> None:
    assert {"uniform", "mogo", "montegnu"} <= set(PT.available())
    for name in ("uniform", "mogo", "montegnu"):
        path = PT.builtin_path(name)
        assert path.parent == ROOT / "assets" / "patterns"
        cp = PT.compiled(name=name)
        assert cp.table.dtype == np.uint32 and cp.cidx.shape == CIDX.shape
    assert PT.builtin_path("mogo_classic") == PT.builtin_path("mogo")  # GNU Go's names are aliases
    uni = load_database(PT.builtin_path("uniform"))
    assert [p.lines[0].value for p in uni.patterns] == [0, 0, 0]
    with pytest.raises(PatternError, match="unknown pattern database 'nope'"):
        PT.resolve("nope")


def test_valid_configs_cover_every_board_neighbourhood() -> None:
    assert NCONFIGS == 3**8 + 4 * 3**5 + 4 * 3**3
    pos = random_position(9, 60, seed=5)
    for p in pos.points():
        code = PP.pat3_code(pos.b, 11, p)
        assert CIDX[0, code] >= 0 and CIDX[1, code] >= 0
    assert len(np.unique(CONFIGS, axis=0)) == NCONFIGS


# --- properties against an oracle ------------------------------------------------------


def _oracle(pos: Position, q: int, c: int) -> dict[str, bool] | None:
    """The properties of c playing at q, from moves played with the rules engine; None if illegal."""
    if pos.check(q, c) is not None:
        return None
    o = 3 - c
    after = pos.played(q, c)
    ocap = len(pos.stones(o)) - len(after.stones(o))
    libs = after.liberties(q)
    free = pos.copy()
    free.st[K.S_KO] = 0  # the opponent's side of the context ignores ko
    xlegal = free.check(q, o) is None
    xafter = free.played(q, o) if xlegal else None
    xcap = len(pos.stones(c)) - len(xafter.stones(c)) if xafter else 0
    xlibs = xafter.liberties(q) if xafter else 0
    last = int(pos.st[K.S_LAST])
    w = pos.size + 2
    near = False
    if last >= 0:
        near = abs(q // w - last // w) <= 1 and abs(q % w - last % w) <= 1
        for r in (last, last - 1, last + 1, last - w, last + w):
            if pos.color_at(r) in (BLACK, WHITE) and pos.liberties(r) == 1:
                grp = pos.group(r)
                libs_of = {s + d for s in grp for d in (-1, 1, -w, w) if pos.color_at(s + d) == EMPTY}
                near = near or q in libs_of
    props = {
        "near": near,
        "far": not near,
        "osafe": libs >= 2,
        "ounsafe": libs < 2,
        "xsafe": xlibs >= 2,
        "xunsafe": xlibs < 2,
        "xsuicide": not xlegal,
        "xnosuicide": xlegal,
    }
    for side, n in (("o", ocap), ("x", xcap)):
        for k in range(3):
            props[f"{side}cap{k}"] = n == k
        props[f"{side}cap3"] = n >= 3
        props[f"{side}cap1+"] = n >= 1
        props[f"{side}cap1-"] = n <= 1
        props[f"{side}cap2+"] = n >= 2
        props[f"{side}cap2-"] = n <= 2
    return props


def _tactical_positions() -> list[Position]:
    out = [random_position(7, n, seed) for seed, n in ((1, 40), (2, 55), (3, 70), (4, 90))]
    out.append(random_position(9, 80, 11))
    # strings of 1, 2 and 3 stones in atari for both colours, and eyes
    out.append(
        Position.from_diagram(
            """
            .XO.OX.
            XOOXXO.
            XO.OOX.
            .XOOX..
            OXX.XOO
            .OX.X.O
            O.OXXO.
            """
        )
    )
    return out


def test_every_property_matches_the_rules_engine() -> None:
    cps = {prop: db(ANY + f":7,{prop}\n") for prop in PROPERTIES}
    assert len(cps) == 24  # near far osafe ounsafe xsafe xunsafe xsuicide xnosuicide + 2 x 8 cap
    seen = {prop: [0, 0] for prop in PROPERTIES}
    for pos in _tactical_positions():
        for c in (BLACK, WHITE):
            vals = {prop: values(cp, pos, c) for prop, cp in cps.items()}
            for q in pos.points():
                if pos.color_at(q) != EMPTY:
                    continue
                want = _oracle(pos, q, c)
                for prop in PROPERTIES:
                    got = vals[prop][q]
                    if want is None:
                        assert got == 0, (prop, q, c)
                    else:
                        assert got == (7 if want[prop] else 1), (prop, q, c, pos.diagram())
                        seen[prop][want[prop]] += 1
    # every property was seen both holding and failing (ocap3/xcap3 included)
    assert all(a > 0 and b > 0 for a, b in seen.values()), seen


def test_combined_properties_must_all_hold_and_contradictions_never_match() -> None:
    both = db(ANY + ":7,ocap1+,osafe\n")
    contra = db(ANY + ":7,osafe,ounsafe\n:8,ocap0,ocap2+\n:9,near,far\n")
    assert int(contra.table.max()) == 1
    for pos in _tactical_positions()[:3]:
        for c in (BLACK, WHITE):
            v = values(both, pos, c)
            for q, val in v.items():
                want = _oracle(pos, q, c)
                if want is not None:
                    assert val == (7 if want["ocap1+"] and want["osafe"] else 1)


# --- the playout kernel ----------------------------------------------------------------


def test_incremental_values_agree_with_recomputation() -> None:
    ws = PP.new_workspace()
    # hundreds of games: multi-group captures, snapbacks and kos are rare but must come up
    # (a capture of two groups at once once broke the bookkeeping in 1 playout of ~300)
    for name, size, n in (
        ("mogo", 9, 300),
        ("montegnu", 9, 300),
        ("montegnu", 7, 300),
        ("uniform", 5, 500),
        ("mogo", 13, 20),
    ):
        cp = PT.compiled(name=name)
        K.seed_rng(17)
        for _ in range(n):
            b, st = K.new_board(size, False)
            assert PP.checked_playout(b, st, K.ZOBRIST, 600, cp.table, cp.cidx, ws) == 0
    # from the middle of games (as in the MCTS), one workspace across board sizes
    cp = PT.compiled(name="montegnu")
    moves = np.zeros(100, dtype=np.int32)
    for i in range(200):
        b, st = K.new_board((5, 9, 2, 13)[i % 4], False)
        run_playout(b, st, K.ZOBRIST, 5 + i % 50, moves)
        assert PP.checked_playout(b, st, K.ZOBRIST, 600, cp.table, cp.cidx, ws) == 0


def _first_moves(pos: Position, cp, n: int, seed: int) -> np.ndarray:
    ws = PP.new_workspace()
    moves = np.zeros(4, dtype=np.int32)
    out = np.zeros(n, dtype=np.int64)
    K.seed_rng(seed)
    for i in range(n):
        b, st = pos.b.copy(), pos.st.copy()
        PP.run_pattern_playout(b, st, K.ZOBRIST, 1, moves, cp.table, cp.cidx, ws)
        out[i] = moves[0]
    return out


def test_drawing_frequencies_match_the_values() -> None:
    # empty 9x9, last move at the centre: corner / edge / near / other points get different values
    cp = db("|..\n|*.\n+--\n\n:40\n\n...\n.*.\n---\n\n:15\n\n" + ANY + ":300,near\n:2\n")
    pos = Position(9)
    centre = 5 * 11 + 5
    pos.play(centre, WHITE)
    pos.st[K.S_TOMOVE] = BLACK
    v = values(cp, pos, BLACK)
    assert sorted(set(v.values())) == [2, 15, 40, 300]
    pts = [p for p, val in v.items() if val > 0]
    n = 40000
    first = _first_moves(pos, cp, n, seed=2024)
    counts = np.array([np.count_nonzero(first == p) for p in pts])
    assert counts.sum() == n
    expected = np.array([v[p] for p in pts], dtype=float)
    expected *= n / expected.sum()
    assert expected.min() >= 5
    chi2 = chi_square(counts, expected)
    assert len(pts) - 1 == 79
    assert chi2 < CHI2_999[80], chi2  # df 79: the df-80 critical value is slightly above its own
    # the same draws are far from uniform
    uni = np.full(len(pts), n / len(pts))
    assert chi_square(counts, uni) > 10 * CHI2_999[80]


def _light_first_moves(pos: Position, n: int, seed: int) -> np.ndarray:
    moves = np.zeros(4, dtype=np.int32)
    out = np.zeros(n, dtype=np.int64)
    K.seed_rng(seed)
    for i in range(n):
        b, st = pos.b.copy(), pos.st.copy()
        run_playout(b, st, K.ZOBRIST, 1, moves)
        out[i] = moves[0]
    return out


def test_uniform_database_reproduces_the_light_playout() -> None:
    cp = PT.compiled(name="uniform")
    pos = Position.from_diagram(
        """
        .X.XOO.
        XX.XO.O
        ...XOO.
        XXXXO..
        .....O.
        .X.....
        X.X....
        """
    )
    a = _first_moves(pos, cp, 6000, seed=1)
    b = _light_first_moves(pos, 2000, seed=2)
    support = sorted(set(a.tolist()))
    assert support == sorted(set(b.tolist()))  # same moves allowed: eyes left out, the rest in
    assert support == sorted(pos.legal_moves(BLACK, reasonable=True))
    # uniform among them (the light playout's cyclic walk of the empty-point list is not quite:
    # a point after a run of unplayable ones is drawn more often, so only the support is compared here)
    ca = np.array([np.count_nonzero(a == p) for p in support], dtype=float)
    df = len(support) - 1
    chi2 = chi_square(ca, ca.mean())
    assert 10 <= df <= 40
    assert chi2 < CHI2_999[40], (chi2, df)
    # on the empty board every point is playable and both are uniform: two-sample chi-square
    empty = Position(9)
    a = _first_moves(empty, cp, 8000, seed=5)
    b = _light_first_moves(empty, 8000, seed=6)
    pts = empty.points()
    ca = np.array([np.count_nonzero(a == p) for p in pts], dtype=float)
    cb = np.array([np.count_nonzero(b == p) for p in pts], dtype=float)
    tot = ca + cb
    ea, eb = tot * ca.sum() / tot.sum(), tot * cb.sum() / tot.sum()
    chi2 = chi_square(ca, ea) + chi_square(cb, eb)
    assert chi2 < CHI2_999[80], chi2

    # game lengths from the empty 9x9 board: same mean within 4 standard errors
    ws = PP.new_workspace()
    moves = np.zeros(800, dtype=np.int32)
    la, lb = [], []
    K.seed_rng(3)
    for _ in range(1500):
        bb, st = K.new_board(9, False)
        la.append(PP.run_pattern_playout(bb, st, K.ZOBRIST, 600, moves, cp.table, cp.cidx, ws))
        bb, st = K.new_board(9, False)
        lb.append(run_playout(bb, st, K.ZOBRIST, 600, moves))
    la_, lb_ = np.array(la, float), np.array(lb, float)
    se = np.sqrt(la_.var() / len(la_) + lb_.var() / len(lb_))
    assert abs(la_.mean() - lb_.mean()) < 4 * se, (la_.mean(), lb_.mean(), se)


def test_uniform_playouts_never_fill_a_single_point_eye() -> None:
    cp = PT.compiled(name="uniform")
    ws = PP.new_workspace()
    moves = np.zeros(800, dtype=np.int32)
    K.seed_rng(8)
    eyes_left = 0
    for _ in range(150):
        b0, st0 = K.new_board(9, False)
        b, st = b0.copy(), st0.copy()
        n = PP.run_pattern_playout(b, st, K.ZOBRIST, 600, moves, cp.table, cp.cidx, ws)
        assert n < 600 and st[K.S_PASSES] == 2  # it ends by itself: both sides out of moves
        for i in range(n):  # replay and look at every move before it is played
            p = int(moves[i])
            c = int(st0[K.S_TOMOVE])
            if p == PASS:
                K.play_pass(st0)
                continue
            assert not K.is_eye(b0, st0, p, c)
            K.place(b0, st0, K.ZOBRIST, p, c)
        assert (b0 == b).all()
        # at the end every empty point is an eye of the side that would fill it (or illegal)
        for q in range(b.shape[1]):
            if b[K.COLOR, q] == EMPTY:
                for c in (BLACK, WHITE):
                    assert K.check_move(b, st, q, c) != K.OK or K.is_eye(b, st, q, c)
                    eyes_left += int(K.is_eye(b, st, q, BLACK) or K.is_eye(b, st, q, WHITE))
    assert eyes_left > 150  # there were eyes to fill, and they were left alone


def test_all_zero_values_end_the_playout_and_the_cap_stops_runaway_games() -> None:
    ws = PP.new_workspace()
    moves = np.zeros(800, dtype=np.int32)
    zero = db(ANY + ":0\n")
    b, st = K.new_board(9, False)
    assert PP.run_pattern_playout(b, st, K.ZOBRIST, PP.MAX_MOVES, moves, zero.table, zero.cidx, ws) == 2
    assert list(moves[:2]) == [PASS, PASS] and st[K.S_NEMPTY] == 81
    # everything worth 1, eyes included: games last until the cap
    fill = db(ANY + ":1\n")
    K.seed_rng(4)
    lengths = []
    for _ in range(20):
        b, st = K.new_board(5, False)
        lengths.append(
            PP.run_pattern_playout(b, st, K.ZOBRIST, PP.MAX_MOVES, moves, fill.table, fill.cidx, ws)
        )
    assert max(lengths) == PP.MAX_MOVES == 600


# --- MCTS and the command lines --------------------------------------------------------


def test_mcts_agent_uses_the_pattern_playouts() -> None:
    from gorilla.ai.agent import Budget, make_agent
    from gorilla.rules.game import Game

    game = Game.new(9)
    agent = make_agent("mcts:patterns=mogo,seed=3,reuse=false")
    assert agent.patterns == "mogo"
    move = agent.select_move(game, Budget(playouts=300))
    assert game.position.is_legal(move) and agent.last_playouts >= 250
    with pytest.raises(ValueError, match="unknown pattern database"):
        make_agent("mcts:patterns=nonesuch")


def test_gtp_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from gorilla.gtp.main import engine_from_args, main

    assert main(["--mc-list-patterns"]) == 0
    out = capsys.readouterr().out
    assert all(f"* {n}" in out for n in ("mogo", "montegnu", "uniform"))
    assert main(["--ai", "mcts", "--mc-patterns", "nonesuch"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "unknown pattern database 'nonesuch'" in err[0]
    bad = tmp_path / "bad.db"
    bad.write_bytes("# café\n\noOo\nO*O\noO?\n\n:zero\n".encode("latin-1"))
    assert main(["--ai", "mcts", "--mc-load-patterns", str(bad)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"{bad}:7: invalid value" in err[0]
    assert main(["--ai", "random", "--mc-patterns", "mogo"]) == 2
    assert "mcts only" in capsys.readouterr().err
    good = tmp_path / "good.db"
    good.write_bytes(PT.builtin_path("uniform").read_bytes() + "\n# é\n".encode("latin-1"))
    engine = engine_from_args(["--ai", "mcts", "--mc-load-patterns", str(good)])
    assert engine.agent.patterns == str(good.resolve())
    engine = engine_from_args(["--ai", "mcts:playouts=50", "--mc-patterns", "mogo_classic"])
    assert engine.agent.patterns == "mogo"


def test_gtp_engine_plays_with_a_loaded_database(tmp_path: Path) -> None:
    good = tmp_path / "mine.db"
    good.write_text(PT.builtin_path("montegnu").read_text(encoding="utf-8"), encoding="utf-8")
    cmd = [sys.executable, "-m", "gorilla", "gtp", "--ai", "mcts", "--playouts", "200", "--size", "9",
           "--mc-load-patterns", str(good)]  # fmt: skip
    r = subprocess.run(cmd, input="genmove b\nquit\n", capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("= ") and r.stdout.split()[1] not in ("pass", "resign")


def test_match_app_and_little_go_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from gorilla.launcher import cli as app
    from gorilla.littlego import cli as lg
    from gorilla.match import cli as match

    assert match.main(["--mc-list-patterns"]) == 0
    assert "* mogo" in capsys.readouterr().out
    assert match.main(["mcts", "random", "--mc-patterns", "nonesuch"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "unknown pattern database 'nonesuch'" in err[0]
    a = match.build_parser().parse_args(["mcts:playouts=9", "gnugo --mode gtp", "--mc-patterns", "uniform"])
    assert match._config_from_args(a).players == ["mcts:playouts=9,patterns=uniform", "gnugo --mode gtp"]

    assert app.main(["--mc-list-patterns"]) == 0
    assert "* montegnu" in capsys.readouterr().out
    assert app.main(["--white", "mcts", "--mc-patterns", "nonesuch", "--no-autosave"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "unknown pattern database 'nonesuch'" in err[0]
    f = tmp_path / "p.db"
    f.write_text(ANY + ":1\n", encoding="utf-8")
    opts = app.parse_args(
        ["--black", "mcts:1", "--white", "random", "--mc-load-patterns", str(f), "--no-autosave"]
    )
    assert opts.black == f"mcts:time=1,patterns={f.resolve()}" and opts.white == "random"

    assert lg.main(["--mc-list-patterns"]) == 0
    assert "* uniform" in capsys.readouterr().out
    assert lg.main(["--ai", "mcts", "--mc-patterns", "nonesuch"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "unknown pattern database 'nonesuch'" in err[0]
    (tmp_path / "input.txt").write_text("1\n" + "00000\n" * 10)
    assert lg.main(["--ai", "mcts:playouts=100", "--mc-patterns", "mogo", "--dir", str(tmp_path)]) == 0
    assert (tmp_path / "output.txt").read_text().strip()
