"""Gomoku rules from diagrams: fives in every direction and at the edges, overlines under
each rule, renju's forbidden points, caro's blocked five, the full-board draw, the
incremental line codes against a recomputation, Swap2 and SGF GM[4]."""

from __future__ import annotations

import random

import numpy as np
import pytest
from helpers import gomoku_position

from gorilla.gomoku import patterns as P
from gorilla.gomoku import rules as R
from gorilla.gomoku import sgf
from gorilla.gomoku.game import SWAP2_CHOOSE, SWAP2_DONE, GomokuGame

RULES = ("freestyle", "standard", "renju", "caro")


position = gomoku_position  # stones (x, y) set up on the board


def line(x0, y0, dx, dy, n):
    return [(x0 + i * dx, y0 + i * dy) for i in range(n)]


DIRECTIONS = [(1, 0), (0, 1), (1, 1), (1, -1)]


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("d", DIRECTIONS)
def test_five_in_every_direction_wins(rule, d):
    dx, dy = d
    x0, y0 = 5, 9 if dy < 0 else 5
    stones = line(x0, y0, dx, dy, 5)
    for missing in range(5):  # the completing stone at an end or in the middle
        g = position(
            [s for i, s in enumerate(stones) if i != missing], [(0, 14), (14, 14), (14, 0), (0, 13)], rule
        )
        x, y = stones[missing]
        assert R.is_win(g.bd, g.point(x, y), R.BLACK)
        assert g.five() == []
        res = g.play_xy(x, y, R.BLACK)
        assert res is not None and res.winner == R.BLACK
        assert sorted(g.five()) == sorted(g.point(*s) for s in stones)  # the line that won


def test_two_fives_through_the_last_stone_are_both_the_winning_line():
    row, column = line(3, 7, 1, 0, 5), line(5, 5, 0, 1, 5)  # they cross at (5, 7)
    stones = [s for s in row + column if s != (5, 7)]
    g = position(stones, [(0, 14), (14, 14), (14, 0), (0, 13), (13, 0), (0, 0), (14, 7), (0, 7)])
    assert g.play_xy(5, 7, R.BLACK).winner == R.BLACK
    assert sorted(g.five()) == sorted({g.point(*s) for s in row + column})  # 9 stones, once each


def test_caro_rings_only_the_five_that_wins():
    row, column = line(3, 7, 1, 0, 5), line(5, 5, 0, 1, 5)  # they cross at (5, 7)
    stones = [s for s in row + column if s != (5, 7)]
    # White holds both ends of the row: under Caro only the column wins
    g = position(stones, [(2, 7), (8, 7), (0, 14), (14, 14), (14, 0), (0, 13), (13, 0)], "caro")
    assert g.play_xy(5, 7, R.BLACK).winner == R.BLACK
    assert sorted(g.five()) == sorted(g.point(*s) for s in column)
    g = position(stones, [(2, 7), (8, 7), (0, 14), (14, 14), (14, 0), (0, 13), (13, 0)], "freestyle")
    assert g.play_xy(5, 7, R.BLACK).winner == R.BLACK
    assert sorted(g.five()) == sorted({g.point(*s) for s in row + column})


@pytest.mark.parametrize("rule", RULES)
def test_five_at_the_edges_and_corners(rule):
    for stones in (line(0, 0, 1, 0, 5), line(14, 10, 0, 1, 5), line(10, 14, 1, -1, 5), line(0, 0, 1, 1, 5)):
        g = position(stones[:-1], [(7, 7), (8, 8), (6, 6), (9, 9)], rule)
        res = g.play_xy(*stones[-1], R.BLACK)
        assert res is not None and res.winner == R.BLACK, (rule, stones)


def test_four_is_not_a_win():
    g = position(line(3, 3, 1, 0, 3), [(0, 14)])
    assert g.play_xy(6, 3, R.BLACK) is None


@pytest.mark.parametrize(
    ("rule", "colour", "wins"),
    [
        ("freestyle", R.BLACK, True),
        ("freestyle", R.WHITE, True),
        ("standard", R.BLACK, False),
        ("standard", R.WHITE, False),
        ("renju", R.WHITE, True),
        ("caro", R.BLACK, False),
    ],
)
def test_overline(rule, colour, wins):
    six = line(2, 6, 1, 0, 6)
    others = [(0, 14), (14, 14), (14, 0), (0, 12), (12, 12)]
    g = (
        position(six[:3] + six[4:], others, rule)
        if colour == R.BLACK
        else position(others, six[:3] + six[4:], rule)
    )
    res = g.play_xy(*six[3], colour)
    assert (res is not None and res.winner == colour) == wins
    assert sorted(g.five()) == (sorted(g.point(*s) for s in six) if wins else [])  # all six stones


def test_renju_black_overline_is_forbidden():
    six = line(2, 6, 1, 0, 6)
    g = position(six[:3] + six[4:], [(0, 14), (14, 14), (14, 0), (0, 12), (12, 12)], "renju")
    p = g.point(*six[3])
    assert R.is_forbidden(g.bd, p)
    with pytest.raises(ValueError, match="forbidden"):
        g.play(p, R.BLACK)
    assert g.color_at(*six[3]) == R.EMPTY


def test_renju_real_double_three_is_forbidden_for_black_only():
    # X X p horizontally and vertically: two open threes through (7, 7)
    black = [(5, 7), (6, 7), (7, 5), (7, 6)]
    g = position(black, [(0, 0), (14, 14), (0, 14)], "renju")
    p = g.point(7, 7)
    assert g.bd[3][1, p] == P.P_33
    assert R.is_forbidden(g.bd, p)
    assert not R.legal(g.bd, p, R.BLACK)
    assert R.legal(g.bd, p, R.WHITE)
    free = position(black, [(0, 0), (14, 14), (0, 14)], "freestyle")
    assert R.legal(free.bd, free.point(7, 7), R.BLACK)


def test_renju_double_three_with_a_false_three_is_allowed():
    # horizontally X . X . p . X: a "three" that only becomes a double four in one line, never
    # a straight four; vertically a real three. Only one real three: Black may play.
    black = [(3, 7), (5, 7), (9, 7), (7, 5), (7, 6)]
    g = position(black, [(0, 0), (14, 14), (0, 14), (14, 0)], "renju")
    p = g.point(7, 7)
    assert g.bd[2][1, 0, p] == P.C_THREE  # the table calls it a three ...
    assert not R.is_forbidden(g.bd, p)  # ... but it is not a real one
    g.play(p, R.BLACK)
    # the same with a real second three is forbidden
    g2 = position([(5, 7), (6, 7), (7, 5), (7, 6)], [(0, 0), (14, 14), (0, 14)], "renju")
    assert R.is_forbidden(g2.bd, g2.point(7, 7))


def test_renju_blocked_three_does_not_count():
    # the horizontal three is blocked by White at one end: a three-three that is not one
    g = position([(5, 7), (6, 7), (7, 5), (7, 6)], [(4, 7), (0, 0), (14, 14), (0, 14)], "renju")
    assert not R.is_forbidden(g.bd, g.point(7, 7))


def test_renju_double_four_is_forbidden():
    # two fours through (7, 7): X X X p (blocked) horizontally and vertically
    g = position(
        [(4, 7), (5, 7), (6, 7), (7, 4), (7, 5), (7, 6)], [(3, 7), (7, 3), (0, 0), (14, 14), (0, 14)], "renju"
    )
    assert g.bd[3][1, g.point(7, 7)] == P.P_FORBID
    assert R.is_forbidden(g.bd, g.point(7, 7))


def test_renju_double_four_on_one_line_is_forbidden():
    # X . X p X . X: two fours on one line
    g = position([(4, 7), (6, 7), (8, 7), (10, 7)], [(0, 0), (14, 14), (0, 14)], "renju")
    p = g.point(7, 7)
    assert g.bd[2][1, 0, p] == P.C_F4D
    assert R.is_forbidden(g.bd, p)
    assert not R.is_forbidden(position([(4, 7), (6, 7), (8, 7), (10, 7)], [], "freestyle").bd, p)


def test_renju_five_beats_forbidden_shapes():
    # (7, 7) makes five horizontally and a double three: five wins
    black = [(3, 7), (4, 7), (5, 7), (6, 7), (7, 5), (7, 6), (5, 5), (6, 6)]
    g = position(black, [(0, 0), (14, 14), (0, 14), (14, 0), (1, 1), (2, 2), (1, 13)], "renju")
    assert not R.is_forbidden(g.bd, g.point(7, 7))
    assert g.play_xy(7, 7, R.BLACK).winner == R.BLACK


def test_caro_five_blocked_at_both_ends_does_not_win():
    black = line(4, 7, 1, 0, 4)
    g = position(black, [(3, 7), (9, 7), (0, 0), (0, 14), (14, 14)], "caro")
    assert g.play_xy(8, 7, R.BLACK) is None
    g = position(black, [(3, 7), (0, 0), (0, 14), (14, 14)], "caro")
    assert g.play_xy(8, 7, R.BLACK).winner == R.BLACK
    # the edge blocks nothing
    g = position(line(0, 7, 1, 0, 4), [(5, 7), (0, 0), (0, 14), (14, 14)], "caro")
    assert g.play_xy(4, 7, R.BLACK).winner == R.BLACK
    # the same blocked five wins under freestyle
    g = position(black, [(3, 7), (9, 7), (0, 0), (0, 14), (14, 14)], "freestyle")
    assert g.play_xy(8, 7, R.BLACK).winner == R.BLACK


DRAW = ["XXXOX", "OOXXX", "XXOOO", "XOOXX", "OOOOX"]


@pytest.mark.parametrize("rule", ["freestyle", "standard"])
def test_full_board_is_a_draw(rule):
    blacks = [(x, y) for y, r in enumerate(DRAW) for x, ch in enumerate(r) if ch == "X"]
    whites = [(x, y) for y, r in enumerate(DRAW) for x, ch in enumerate(r) if ch == "O"]
    g = GomokuGame(5, rule)
    res = None
    for i in range(25):
        x, y = blacks[i // 2] if i % 2 == 0 else whites[i // 2]
        assert res is None
        res = g.play_xy(x, y)
    assert res is not None and res.winner == 0 and res.reason == "full board"


def _recomputed(bd):
    b2 = R.copy_board(bd)
    R.init_board(b2)
    return b2


def test_incremental_codes_match_recomputation_and_undo_restores():
    rng = random.Random(5)
    for rule in range(4):
        g = GomokuGame(11, rule)
        fresh = R.copy_board(g.bd)
        for _ in range(60):
            if g.over:
                break
            p = rng.choice([q for q in g.empty_points() if g.is_legal(q)])
            g.play(p)
        ref = _recomputed(g.bd)
        on_board = g.bd[0] != R.BORDER
        empty = g.bd[0] == R.EMPTY
        for i in (1, 2, 3, 4, 5, 6):
            a, b = g.bd[i], ref[i]
            if i in (1, 2):
                where = on_board if i == 1 else empty
                assert np.array_equal(a[..., where], b[..., where]), i
            elif i == 6:
                assert np.array_equal(a, b)  # the totals and the class counts too
            else:
                assert np.array_equal(a, b), i
        while g.moves:
            g.undo()
        for i in range(7):
            assert np.array_equal(g.bd[i], fresh[i]), i


@pytest.mark.parametrize("rule", range(4))
def test_class_counts_follow_places_and_removes(rule):
    """The board keeps, per colour, how many empty points have each point class; the searches
    skip their scans on a zero count, so a wrong count would hide a five or a four."""
    rng = random.Random(rule)
    bd = R.new_board(13, rule)
    points = [R.point(bd, x, y) for x in range(13) for y in range(13)]
    played: list[int] = []
    seen = set()
    for _ in range(300):
        if played and rng.random() < 0.35:
            R.remove(bd, played.pop(rng.randrange(len(played))))
        else:
            p = rng.choice([q for q in points if bd[0][q] == R.EMPTY])
            R.place(bd, p, rng.choice((R.BLACK, R.WHITE)))
            played.append(p)
        for c in (R.BLACK, R.WHITE):
            for pc in range(1, P.NPCLASSES):
                want = sum(1 for q in points if bd[0][q] == R.EMPTY and bd[3][c, q] == pc)
                assert R.class_count(bd, c, pc) == want, (c, P.PCLASS_NAMES[pc])
                if want:
                    seen.add(pc)
    assert {P.P_THREE, P.P_FOUR, P.P_FIVE} <= seen  # the walk met the classes the searches ask for


def test_bad_moves_change_nothing():
    g = GomokuGame(15)
    g.play_xy(7, 7)
    before = g.diagram()
    with pytest.raises(ValueError, match="occupied"):
        g.play_xy(7, 7)
    with pytest.raises(ValueError, match="off the"):
        g.play_xy(15, 3)
    assert g.diagram() == before and len(g.moves) == 1
    with pytest.raises(ValueError):
        GomokuGame(4)
    with pytest.raises(ValueError):
        GomokuGame(26)
    with pytest.raises(ValueError, match="unknown gomoku rule"):
        GomokuGame(15, "gonnect")


def test_sizes_five_to_twenty_five():
    for n in (5, 20, 25):
        g = GomokuGame(n)
        g.play_xy(n - 1, n - 1)
        assert g.color_at(n - 1, n - 1) == R.BLACK


def test_swap2_phases():
    g = GomokuGame(15, opening="swap2")
    g.swap2_place([(7, 7), (8, 7), (7, 8)])
    assert g.swap2_phase == SWAP2_CHOOSE and g.to_move == R.WHITE
    g.swap2_place([(9, 9), (6, 6)])
    g.swap2_choose(take_black=False)
    assert g.swap2_phase == SWAP2_DONE and not g.first_player_black
    with pytest.raises(ValueError):
        g.swap2_choose(True)


def test_sgf_round_trip_and_errors(tmp_path):
    g = GomokuGame(15, "renju")
    for x, y in [(7, 7), (8, 8), (7, 8), (8, 7), (7, 9), (7, 6), (6, 8)]:
        g.play_xy(x, y)
    path = tmp_path / "g.sgf"
    sgf.save(g, str(path), black="a", white="b")
    text = path.read_text()
    assert "GM[4]" in text and "RU[renju]" in text and ";B[hh];W[ii]" in text
    back = sgf.load(str(path))
    assert back.moves == g.moves and back.rule == R.RENJU and back.diagram() == g.diagram()
    for bad, msg in [
        ("(;GM[1]SZ[19];B[aa])", "GM\\[4\\]"),
        ("hello", "not an SGF"),
        ("(;GM[4]SZ[15];B[zz])", "bad SGF point"),
        ("(;GM[4]SZ[15];B[aa];W[aa])", "occupied"),
        ("(;GM[4]SZ[15];B[aa]", "ends before"),
    ]:
        with pytest.raises(ValueError, match=msg) as e:
            sgf.loads(bad)
        assert "\n" not in str(e.value)
