"""Suicide under each ruleset: refused, or (Tromp-Taylor) the own group leaves the board."""

from __future__ import annotations

import pytest
from helpers import game_from_diagram

from gorilla.rules.board import BLACK, EMPTY, WHITE
from gorilla.rules.coords import parse_vertex
from gorilla.rules.game import Game
from gorilla.rules.position import IllegalMove, Position

SINGLE = """
. O . . .
O . . . .
. . . . .
. . . . .
. . . . .
"""

MULTI = """
X . O . .
O O . . .
. . . . .
. . . . .
. . . . .
"""


@pytest.mark.parametrize("rules", ["chinese", "japanese", "little-go"])
@pytest.mark.parametrize("diagram", [SINGLE, MULTI])
def test_suicide_is_refused_and_changes_nothing(rules: str, diagram: str) -> None:
    g = game_from_diagram(diagram, rules=rules)
    before = g.position.copy()
    point = parse_vertex("A5" if diagram is SINGLE else "B5", 5)
    assert g.check(point) == "suicide"
    assert point not in g.legal_moves()
    with pytest.raises(IllegalMove, match="^suicide$"):
        g.play(point)
    assert g.position == before and g.position.hash == before.hash and g.move_number == 0


def test_tromp_taylor_multi_stone_suicide_removes_the_group() -> None:
    g = game_from_diagram(MULTI, rules="tromp-taylor")
    b5 = parse_vertex("B5", 5)
    assert b5 in g.legal_moves()
    assert g.play(b5) == 0  # it captures nothing ...
    pos = g.position
    assert pos.color_at(parse_vertex("A5", 5)) == EMPTY and pos.color_at(b5) == EMPTY
    assert pos.captures(WHITE) == 2  # ... but White gains the two stones as prisoners
    assert pos.captures(BLACK) == 0
    assert pos.to_move == WHITE
    assert g.moves[-1].captures == 0
    # the hash follows the stones that left
    assert pos.hash == Position.from_diagram(MULTI.replace("X", "."), WHITE).hash


def test_tromp_taylor_single_stone_suicide_repeats_the_position() -> None:
    g = game_from_diagram(SINGLE, rules="tromp-taylor")
    a5 = parse_vertex("A5", 5)
    # the board would not change: positional superko forbids it
    assert g.position.check(a5) is None
    assert g.check(a5) == "superko"
    assert a5 not in g.legal_moves()
    with pytest.raises(IllegalMove, match="^superko$"):
        g.play(a5)


def test_position_level_suicide_when_allowed() -> None:
    pos = Position.from_diagram(SINGLE, BLACK, suicide=True)
    before = pos.hash
    assert pos.play(parse_vertex("A5", 5)) == 0
    assert pos.hash == before and pos.captures(WHITE) == 1 and pos.to_move == WHITE


def test_the_rules_not_the_diagram_decide_about_suicide() -> None:
    # a position built without suicide, played under Tromp-Taylor: suicide is allowed
    g = Game.from_position(Position.from_diagram(MULTI, BLACK, suicide=False), "tromp-taylor")
    assert g.check(parse_vertex("B5", 5)) is None
    g = Game.from_position(Position.from_diagram(MULTI, BLACK, suicide=True), "chinese")
    assert g.check(parse_vertex("B5", 5)) == "suicide"


def test_filling_own_last_liberty_next_to_a_living_group_is_not_suicide() -> None:
    g = game_from_diagram(
        """
        . X O . .
        X X O . .
        O O . . .
        . . . . .
        . . . . .
        """,
        rules="chinese",
    )
    # A5 is Black's last liberty: the group would have none
    assert g.check(parse_vertex("A5", 5)) == "suicide"
    # White playing A5 captures the black group instead
    assert g.play(parse_vertex("A5", 5), WHITE) == 3
