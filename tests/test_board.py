"""Board core and positions: coordinates, edges and corners on 2x2 and 25x25, eyes, legal moves."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import assert_board

from gorilla.rules import board as K
from gorilla.rules.board import BLACK, EMPTY, PASS, RESIGN, WHITE
from gorilla.rules.coords import format_vertex, parse_vertex, to_index, to_xy
from gorilla.rules.game import Game
from gorilla.rules.position import IllegalMove, Position


@pytest.mark.parametrize("size", [2, 3, 9, 19, 25])
def test_coordinates_round_trip(size: int) -> None:
    pos = Position(size)
    pts = pos.points()
    assert len(pts) == size * size == len(set(pts))
    assert all(pos.on_board(p) for p in pts)
    for p in pts:
        x, y = to_xy(p, size)
        assert to_index(x, y, size) == p
        assert parse_vertex(format_vertex(p, size), size) == p
    assert format_vertex(to_index(0, 0, size), size) == "A1"
    assert parse_vertex("pass", size) == PASS and parse_vertex("RESIGN", size) == RESIGN
    # row 0 of grid() is the top row
    top_left = parse_vertex(f"A{size}", size)
    pos.play(top_left, BLACK)
    assert pos.grid()[0, 0] == BLACK and pos.grid().shape == (size, size)


def test_25x25_uses_all_letters_up_to_z() -> None:
    assert parse_vertex("Z25", 25) == to_index(24, 24, 25)
    assert format_vertex(to_index(24, 0, 25), 25) == "Z1"
    with pytest.raises(ValueError):
        parse_vertex("Z26", 25)


def test_2x2_corner_capture_eyes_and_full_board() -> None:
    g = Game.new(2, "chinese", komi=0)
    a1, a2, b1, b2 = (parse_vertex(t, 2) for t in ("A1", "A2", "B1", "B2"))
    assert sorted(g.legal_moves()) == sorted([a1, a2, b1, b2])
    g.play(a1)
    assert g.position.liberties(a1) == 2
    g.play(b2)
    # A2 and B1 touch one stone of each colour: neither is an eye
    assert not g.position.is_eye(a2, BLACK) and not g.position.is_eye(b1, WHITE)
    assert g.play(a2) == 0
    assert g.position.liberties(a1) == 1  # A1-A2 has only B1 left
    assert g.play(b1) == 2  # White B1 takes A1 and A2: B1-B2 was in atari, but it captures
    assert_board(g, ".O\n.O")
    assert g.captures(WHITE) == 2
    assert g.check(a1) is None and g.check(a2) is None
    g.play(a1)
    g.pass_move()
    assert g.play(a2) == 2  # and Black takes the two back
    assert_board(g, "X.\nX.")
    assert g.captures(BLACK) == 2


def test_2x2_eye_and_reasonable_moves() -> None:
    pos = Position.from_diagram("X.\n.X", BLACK)
    a1, b2 = parse_vertex("A1", 2), parse_vertex("B2", 2)
    # both empty points are single-point eyes of Black (the corner diagonals are off the board)
    assert pos.is_eye(a1, BLACK) and pos.is_eye(b2, BLACK)
    assert pos.legal_moves(BLACK, reasonable=True) == []
    assert sorted(pos.legal_moves(BLACK)) == sorted([a1, b2])
    assert pos.legal_moves(WHITE) == []  # both are suicide for White
    assert pos.check(a1, WHITE) == "suicide"


def test_false_eye_is_not_an_eye() -> None:
    pos = Position.from_diagram(
        """
        . X O . .
        X . X . .
        O X . . .
        . . . . .
        . . . . .
        """
    )
    b4 = parse_vertex("B4", 5)
    assert not pos.is_eye(b4, BLACK)  # two diagonals held by White (A3 and C5)
    assert b4 in pos.legal_moves(BLACK, reasonable=True)
    assert pos.is_eye(parse_vertex("B4", 5), BLACK) is False


def test_25x25_corners_and_edges() -> None:
    g = Game.new(25, "chinese")
    z25, y25, z24 = (parse_vertex(t, 25) for t in ("Z25", "Y25", "Z24"))
    g.play(z25, WHITE)
    assert g.position.liberties(z25) == 2
    g.play(y25, BLACK)
    assert g.position.liberties(z25) == 1
    assert g.play(z24, BLACK) == 1
    assert g.position.color_at(z25) == EMPTY
    # a long chain along the bottom edge
    pos = Position(25)
    for x in range(25):
        pos.play(to_index(x, 0, 25), BLACK)
    assert pos.liberties(to_index(0, 0, 25)) == 25
    assert len(pos.group(to_index(12, 0, 25))) == 25
    for x in range(24):
        pos.play(to_index(x, 1, 25), WHITE)
    # one liberty left at Z2: the O(1) atari test sees it
    head = int(pos.b[K.HEAD, to_index(0, 0, 25)])
    assert K.in_atari(pos.b, head) and K.atari_liberty(pos.b, head) == to_index(24, 1, 25)
    assert pos.play(to_index(24, 1, 25), WHITE) == 25
    assert len(pos.stones(BLACK)) == 0 and pos.captures(WHITE) == 25
    assert len(pos.legal_moves(BLACK)) == 625 - 25


def test_position_play_and_played() -> None:
    pos = Position(9)
    e5 = parse_vertex("E5", 9)
    new = pos.played(e5)
    assert pos.color_at(e5) == EMPTY and new.color_at(e5) == BLACK
    assert new.to_move == WHITE and new.last_move == e5
    with pytest.raises(IllegalMove, match="^occupied$"):
        new.play(e5)
    assert new.check(0) == "off board"
    new.play(PASS)
    assert new.to_move == BLACK and new.passes == 1 and new.last_move == PASS
    assert "(X)" not in str(new) and "X" in str(new)
    assert str(pos.played(e5)).splitlines()[5].count("(X)") == 1


def test_setup_stone_is_not_a_move() -> None:
    pos = Position(9)
    pos.setup_stone(parse_vertex("C3", 9), WHITE)
    assert pos.to_move == BLACK and pos.last_move == PASS and int(pos.st[K.S_MOVES]) == 0
    with pytest.raises(IllegalMove):
        pos.setup_stone(parse_vertex("C3", 9), BLACK)


def test_hash_after_predicts_multi_group_captures_and_suicide() -> None:
    diagram = """
    . O X O .
    O X . X O
    . O X O .
    . . . . .
    . . . . .
    """
    pos = Position.from_diagram(diagram, WHITE)
    c4 = parse_vertex("C4", 5)
    assert pos.hash_after(c4) == pos.played(c4).hash
    tt = Position.from_diagram("X . O . .\nO O . . .\n. . . . .\n. . . . .\n. . . . .", BLACK, suicide=True)
    b5 = parse_vertex("B5", 5)
    # the suicide takes A5 and B5 off: only White's three stones stay
    only_white = Position.from_diagram(". . O . .\nO O . . .\n. . . . .\n. . . . .\n. . . . .")
    assert tt.hash_after(b5) == tt.played(b5).hash == only_white.hash


def test_random_game_kernel_on_every_size() -> None:
    for size in range(2, 26):
        pos = Position(size)
        K.seed_rng(size)
        n = K.random_game(pos.b, pos.st, K.ZOBRIST, 5 * size * size)
        assert 0 < n <= 5 * size * size
        assert pos.passes >= 2
        grid = pos.grid()
        assert grid.shape == (size, size)
        assert np.count_nonzero(grid == EMPTY) == int(pos.st[K.S_NEMPTY])
