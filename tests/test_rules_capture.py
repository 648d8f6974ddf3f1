"""Captures drawn as diagrams: single and multi-group, snapback, capture that looks like suicide."""

from __future__ import annotations

import pytest
from helpers import assert_board, game_from_diagram

from gorilla.rules.board import BLACK, EMPTY, WHITE
from gorilla.rules.coords import parse_vertex
from gorilla.rules.game import Game
from gorilla.rules.position import IllegalMove


def at(g: Game, vertex: str) -> int:
    return g.position.color_at(parse_vertex(vertex, g.size))


def play(g: Game, vertex: str) -> int:
    return g.play(parse_vertex(vertex, g.size))


@pytest.mark.parametrize("rules", ["chinese", "japanese", "tromp-taylor", "little-go"])
def test_single_stone_capture(rules: str) -> None:
    g = game_from_diagram(
        """
        . . . . .
        . . X . .
        . X O . .
        . . X . .
        . . . . .
        """,
        rules=rules,
    )
    assert play(g, "D3") == 1
    assert at(g, "C3") == EMPTY
    assert g.captures(BLACK) == 1 and g.captures(WHITE) == 0
    assert g.moves[-1].captures == 1
    assert g.position.liberties(parse_vertex("D3", 5)) == 4


def test_one_move_captures_three_groups() -> None:
    g = game_from_diagram(
        """
        . O X O .
        O X . X O
        . O X O .
        . . . . .
        . . . . .
        """,
        to_move=WHITE,
    )
    assert play(g, "C4") == 3
    for v in ("C5", "B4", "D4"):
        assert at(g, v) == EMPTY
    assert at(g, "C3") == BLACK  # it still had a liberty at C2
    assert g.captures(WHITE) == 3
    assert g.position.liberties(parse_vertex("C4", 5)) == 3


def test_snapback() -> None:
    g = game_from_diagram(
        """
        . . . . .
        . . . . .
        X X . . .
        O O X . .
        . . X . .
        """
    )
    assert play(g, "A1") == 0  # the throw-in, itself in atari
    assert play(g, "B1") == 1  # White takes it ...
    assert g.position.liberties(parse_vertex("B1", 5)) == 1
    assert play(g, "A1") == 3  # ... and Black takes back three: no ko
    assert_board(
        g,
        """
        . . . . .
        . . . . .
        X X . . .
        . . X . .
        (X). X . .
        """,
    )
    assert g.captures(BLACK) == 3 and g.captures(WHITE) == 1
    assert g.position.ko == 0


@pytest.mark.parametrize("rules", ["chinese", "japanese", "tromp-taylor", "little-go"])
def test_capture_that_looks_like_suicide(rules: str) -> None:
    g = game_from_diagram(
        """
        . O X . .
        O X . . .
        . . . . .
        . . . . .
        . . . . .
        """,
        rules=rules,
    )
    a5 = parse_vertex("A5", 5)
    assert g.position.check(a5) is None  # no empty neighbour, but it captures
    assert play(g, "A5") == 1
    assert at(g, "B5") == EMPTY and at(g, "A5") == BLACK
    # a ko: White may not take back at once
    with pytest.raises(IllegalMove, match="^ko$"):
        play(g, "B5")


def test_capture_removes_every_stone_of_the_group_and_frees_liberties() -> None:
    g = game_from_diagram(
        """
        . X X X .
        X O O O X
        X O . O X
        X O O O X
        . X X X .
        """
    )
    assert play(g, "C3") == 8  # the group had one (inner) liberty
    pos = g.position
    assert len(pos.stones(WHITE)) == 0
    assert pos.liberties(parse_vertex("C3", 5)) == 4
    assert pos.liberties(parse_vertex("B5", 5)) == 5  # B5-C5-D5 touch A5, E5 and B4, C4, D4
