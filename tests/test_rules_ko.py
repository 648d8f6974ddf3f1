"""Simple ko, positional superko and a triple-ko cycle."""

from __future__ import annotations

import pytest
from helpers import game_from_diagram, v

from gorilla.rules.board import BLACK, WHITE
from gorilla.rules.game import Game
from gorilla.rules.position import IllegalMove

KO = """
. . . . .
. X O . .
X O . O .
. X O . .
. . . . .
"""


@pytest.mark.parametrize("rules", ["chinese", "japanese", "tromp-taylor", "little-go"])
def test_simple_ko(rules: str) -> None:
    g = game_from_diagram(KO, BLACK, rules)
    assert g.play(v("C3", 5)) == 1
    assert g.position.ko == v("B3", 5)
    with pytest.raises(IllegalMove, match="^ko$"):
        g.play(v("B3", 5))
    assert v("B3", 5) not in g.legal_moves()
    # a ko threat and its answer lift the ban
    g.play(v("E1", 5))
    assert g.position.ko == 0
    g.play(v("E5", 5))
    assert g.play(v("B3", 5)) == 1
    assert g.position.ko == v("C3", 5)


def test_a_pass_lifts_the_ko_ban() -> None:
    g = game_from_diagram(KO, BLACK, "japanese")
    g.play(v("C3", 5))
    g.pass_move()
    g.pass_move()  # two passes end the game ...
    assert g.over
    g.undo()
    g.play(v("A1", 5))  # Black's ko threat instead of the second pass
    assert g.is_legal(v("B3", 5))


def test_ko_needs_a_single_stone_capturing_a_single_stone() -> None:
    # Black captures one stone but its own stone joins a group: not a ko
    g = game_from_diagram(
        """
        . . . . .
        . X O . .
        X O . O .
        . X X . .
        . . . . .
        """,
        BLACK,
        "chinese",
    )
    assert g.play(v("C3", 5)) == 1
    assert g.position.ko == 0
    # White's stone at B3 could not take back: no ko ban, it is simply suicide
    assert g.check(v("B3", 5), WHITE) == "suicide"


# Three kos side by side. In each, White takes at the left point "a" and Black at the
# right point "b". Rows 2, 5 and 8 of the 9x9 board hold the kos.
TRIPLE_KO = """
. . . X O . . . .
. . X O . O . . .
. . . X O . . . .
. . . X O . . . .
. . X . X O . . .
. . . X O . . . .
. . . X O . . . .
. . X O . O . . .
. . . X O . . . .
"""
# top ko: White holds (stone on a); middle ko: Black holds (stone on b); bottom: White holds.
A1_, B1_ = "D8", "E8"
A2_, B2_ = "D5", "E5"
A3_, B3_ = "D2", "E2"
CYCLE = [(BLACK, B1_), (WHITE, A2_), (BLACK, B3_), (WHITE, A1_), (BLACK, B2_), (WHITE, A3_)]


def triple_ko(rules: str) -> Game:
    return game_from_diagram(TRIPLE_KO, BLACK, rules)


def test_triple_ko_cycle_returns_to_the_start() -> None:
    g = triple_ko("japanese")
    start = g.position.copy()
    for color, vertex in CYCLE:
        assert g.play(v(vertex, 9), color) == 1  # every move takes one stone, none is a simple-ko retake
    assert g.position.diagram() == start.diagram() and g.position.hash == start.hash
    assert g.position.ko == v(B3_, 9)  # only the last ko's ban differs from the start
    assert g.captures(BLACK) == 3 and g.captures(WHITE) == 3


@pytest.mark.parametrize("rules", ["chinese", "tromp-taylor"])
def test_superko_refuses_the_move_that_repeats_the_triple_ko(rules: str) -> None:
    g = triple_ko(rules)
    for color, vertex in CYCLE[:-1]:
        g.play(v(vertex, 9), color)
    color, vertex = CYCLE[-1]
    p = v(vertex, 9)
    assert g.position.check(p, color) is None  # simple ko allows it
    assert g.check(p, color) == "superko"
    assert p not in g.legal_moves(color)
    # legal_moves (one kernel call for every move's hash) agrees with check, point by point
    points = [q for q in range(g.position.b.shape[1]) if g.position.b[0, q] == 0]
    assert sorted(g.legal_moves(color)) == [q for q in points if g.check(q, color) is None]
    before = g.position.copy()
    with pytest.raises(IllegalMove, match="^superko$"):
        g.play(p, color)
    assert g.position == before and g.move_number == 5
    # taking back the fifth move and playing it again leads to the same refusal
    g.undo()
    g.play(v(CYCLE[-2][1], 9), CYCLE[-2][0])
    assert g.check(p, color) == "superko"


def test_japanese_allows_the_triple_ko_cycle_to_go_round_twice() -> None:
    g = triple_ko("japanese")
    for color, vertex in CYCLE * 2:
        g.play(v(vertex, 9), color)
    assert g.move_number == 12 and not g.over


def test_superko_only_counts_positions_still_on_the_record() -> None:
    g = triple_ko("chinese")
    for color, vertex in CYCLE[:-1]:
        g.play(v(vertex, 9), color)
    g.goto(3)
    # moves 4 and 5 were taken back: playing move 4 again is no repetition
    color, vertex = CYCLE[3]
    assert g.check(v(vertex, 9), color) is None
    assert v(vertex, 9) in g.legal_moves(color)  # its position's count fell to 0: not a repetition
    g.play(v(vertex, 9), color)
    assert g.redo_stack == []
