"""The shared test helpers: diagrams read and written, the last move, whole-board assertions, symmetries."""

from __future__ import annotations

import pytest
from helpers import (
    assert_board,
    diagram_of,
    game_from_diagram,
    parse_diagram,
    position_from_diagram,
    side_by_side,
    swap_colours,
    transform_diagram,
    transform_vertex,
    v,
    variants,
    with_points,
)

from gorilla.rules.board import BLACK, EMPTY, WHITE
from gorilla.rules.coords import format_vertex
from gorilla.rules.position import Position

WITH_COORDINATES = """
   A B C D E
 5 . . . . . 5
 4 . X O . . 4
 3 X .(X)O . 3
 2 . X O . . 2
 1 . . . . . 1
   A B C D E
"""


def test_a_diagram_with_coordinates_and_a_last_move_is_read_through_the_rules() -> None:
    g = game_from_diagram(WITH_COORDINATES)
    assert g.move_number == 1 and g.moves[0].point == v("C3", 5) and g.moves[0].color == BLACK
    assert g.to_move == WHITE and g.position.last_move == v("C3", 5)
    assert g.setup == {v(x, 5): BLACK for x in ("B4", "A3", "B2")} | {
        v(x, 5): WHITE for x in ("C4", "D3", "C2")
    }
    # the layout is str(Position)'s, so a printed position reads back as it was
    assert diagram_of(g, coordinates=True) == str(g.position) == WITH_COORDINATES.strip("\n")
    assert position_from_diagram(str(g.position)) == g.position
    assert position_from_diagram(WITH_COORDINATES).last_move == v("C3", 5)


def test_spaces_hash_and_lists_of_rows_are_accepted() -> None:
    pos = position_from_diagram(["#.O", "...", "..."], to_move=WHITE)
    assert pos.color_at(v("A3", 3)) == BLACK and pos.color_at(v("C3", 3)) == WHITE
    assert pos.to_move == WHITE and pos.last_move < 0
    assert diagram_of(pos) == "X . O\n. . .\n. . ."


@pytest.mark.parametrize(
    ("diagram", "message"),
    [
        ("...\n...", "square"),
        ("..\n.Z", "unknown diagram symbol 'Z'"),
        (" 2 . . 2\n 3 . . 1", "numbered"),
        ("(X)(O)\n. .", "more than one last move"),
        ("(.).\n..", "must be a stone"),
        ("XO\nO.", "A2 .*no liberties"),
        ("X(O)\nO.", "the last move captures A2"),
    ],
)
def test_bad_diagrams_are_refused_with_a_reason(diagram: str, message: str) -> None:
    for build in (game_from_diagram, position_from_diagram):
        with pytest.raises(ValueError, match=message):
            build(diagram)


def test_the_side_that_played_the_last_move_is_not_to_move() -> None:
    with pytest.raises(ValueError, match="cannot be to move"):
        game_from_diagram("(X).\n..", to_move=BLACK)
    assert game_from_diagram("(X).\n..", to_move=WHITE).to_move == WHITE


def test_assert_board_shows_both_boards_side_by_side() -> None:
    g = game_from_diagram(WITH_COORDINATES)
    assert_board(g, "..... \n .XO.. \n X.XO. \n .XO.. \n .....")  # the last move need not be drawn
    with pytest.raises(AssertionError) as err:
        assert_board(g.position, with_points(WITH_COORDINATES, E1="O"))
    text = str(err.value)
    assert text.startswith("stones differ at E1\n")
    head, first = text.splitlines()[1:3]
    assert head.split() == ["expected", "actual"]
    assert first.split() == list("ABCDE") * 2
    assert text.splitlines()[7] == " 1 . . . . O 1" + " " * 6 + " 1 . . . . . 1"
    elsewhere = WITH_COORDINATES.replace(".(X)O", ". X O").replace(" 4 . X O", " 4 .(X)O")
    with pytest.raises(AssertionError, match="^the last move differs"):
        assert_board(g, elsewhere)


def test_side_by_side_pads_the_shorter_block() -> None:
    assert side_by_side("a\nb", "c", gap=2) == "expected  actual\na         c\nb"


def test_symmetries_move_stones_last_move_and_vertices_together() -> None:
    drawn = with_points(WITH_COORDINATES, E5="X")  # no symmetry of its own
    d = parse_diagram(drawn)
    seen = set()
    for k in range(8):
        moved = position_from_diagram(transform_diagram(drawn, k))
        assert moved.last_move == v(transform_vertex("C3", 5, k), 5)
        for p, colour in d.stones():
            assert moved.color_at(v(transform_vertex(format_vertex(p, 5), 5, k), 5)) == colour
        seen.add(moved.diagram())
    assert len(seen) == 8
    swapped = {(p.diagram(), p.to_move) for _, p, _ in variants(drawn)}
    assert len(swapped) == 16 and {to_move for _, to_move in swapped} == {WHITE, BLACK}
    assert transform_vertex("pass", 5, 3) == "pass"
    assert transform_diagram(WITH_COORDINATES, 0) == diagram_of(game_from_diagram(WITH_COORDINATES))


def test_swap_colours_and_with_points() -> None:
    swapped = position_from_diagram(swap_colours(WITH_COORDINATES))
    assert swapped.color_at(v("C3", 5)) == WHITE and swapped.last_move == v("C3", 5)
    assert swapped.to_move == BLACK
    edited = position_from_diagram(with_points(WITH_COORDINATES, C3=".", E5="X"))
    assert edited.color_at(v("C3", 5)) == EMPTY and edited.color_at(v("E5", 5)) == BLACK
    assert edited.last_move < 0  # the last move was drawn over
    assert edited == Position.from_diagram("....X\n.XO..\nX..O.\n.XO..\n.....")
