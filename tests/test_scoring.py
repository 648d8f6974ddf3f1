"""Counting: area (Tromp-Taylor), territory with prisoners, Little-Go stones; seki and dead stones."""

from __future__ import annotations

import pytest
from helpers import game_from_diagram, v

from gorilla.rules.board import BLACK, WHITE
from gorilla.rules.position import Position
from gorilla.rules.rulesets import get_ruleset
from gorilla.rules.scoring import result_string, score

# A seki in the top rows: Black B7-B5-C5 and White D7-D5 share the liberties C7 and C6;
# whoever fills one is captured. White's wall owns the lower left (6 points),
# Black's wall the right side (17 points).
SEKI = """
O X . O X . .
O X . O X . .
O X X O X . .
O O O X X . .
. . O X . . .
. . O X . . .
. . O X . . .
"""


def test_seki_is_really_seki() -> None:
    g = game_from_diagram(SEKI, rules="chinese")
    for color in (BLACK, WHITE):
        for point in ("C7", "C6"):
            after = g.position.played(v(point, 7), color)
            assert after.liberties(v(point, 7)) == 1  # filling a shared liberty is self-atari


@pytest.mark.parametrize(
    ("rules", "black", "white", "result"),
    [
        ("chinese", 12 + 17, 12 + 6 + 7.5, "B+3.5"),  # stones + territory; the seki points count for nobody
        ("tromp-taylor", 29, 25.5, "B+3.5"),
        ("japanese", 17, 6 + 6.5, "B+4.5"),  # territory only, no prisoners yet
        ("little-go", 12, 12 + 2.5, "W+2.5"),  # stones on the board
    ],
)
def test_seki_scores(rules: str, black: float, white: float, result: str) -> None:
    pos = Position.from_diagram(SEKI)
    s = score(pos, get_ruleset(rules))
    assert (s.black, s.white, s.result) == (black, white, result)
    assert s.breakdown().endswith(f"Result: {result}")


DEAD = SEKI.splitlines()
DEAD[7] = ". . O X . . O"  # a white stone deep in Black's area (G1)
DEAD_DIAGRAM = "\n".join(DEAD)


def test_dead_stone_changes_area_and_territory() -> None:
    pos = Position.from_diagram(DEAD_DIAGRAM)
    chinese, japanese = get_ruleset("chinese"), get_ruleset("japanese")
    # not marked: Black's right side touches a white stone, so it is nobody's
    alive = score(pos, chinese)
    assert (alive.black, alive.white) == (12, 13 + 6 + 7.5)
    assert alive.black_territory == 0
    # marked dead: the stone's point and the region are Black's again
    dead = score(pos, chinese, dead=[v("G1", 7)])
    assert (dead.black, dead.white, dead.result) == (29, 25.5, "B+3.5")
    assert dead.dead == (v("G1", 7),)
    # territory: the dead stone is a prisoner and its point is territory
    jp = score(pos, japanese, dead=[v("G1", 7)])
    assert (jp.black_territory, jp.black_prisoners, jp.black) == (17, 1, 18)
    assert jp.result == "B+5.5"
    # dead marks on empty points are ignored
    assert score(pos, chinese, dead=[v("F1", 7), v("G1", 7)]) == dead


def test_little_go_counts_stones_on_the_board_only() -> None:
    pos = Position.from_diagram(DEAD_DIAGRAM)
    s = score(pos, get_ruleset("little-go"), dead=[v("G1", 7)])
    assert (s.black, s.white, s.result) == (12, 13 + 2.5, "W+3.5")


def test_prisoners_count_in_territory_scoring_only() -> None:
    diagram = """
    . X O . .
    X X O . .
    O X O . .
    . X O . .
    . X O . .
    """
    for rules, black, white, result in (
        ("japanese", 3 + 1, 10 + 0.5, "W+6.5"),
        ("chinese", 7 + 3, 15.5, "W+5.5"),
    ):
        g = game_from_diagram(diagram, rules=rules, komi=0.5)
        assert g.play(v("A2", 5)) == 1
        g.pass_move()
        g.pass_move()
        s = g.score()
        assert (s.black, s.white) == (black, white), rules
        assert g.result == result
        if rules == "japanese":
            assert (s.black_territory, s.black_prisoners, s.white_prisoners) == (3, 1, 0)


@pytest.mark.parametrize(
    ("margin", "text"), [(3.5, "B+3.5"), (-0.5, "W+0.5"), (0, "0"), (12.0, "B+12"), (-7, "W+7"), (0.0, "0")]
)
def test_result_strings(margin: float, text: str) -> None:
    assert result_string(margin) == text


def test_empty_board_area_is_neutral() -> None:
    s = score(Position(9), get_ruleset("chinese"))
    assert (s.black, s.white, s.result) == (0, 7.5, "W+7.5")
    s = score(Position(9), get_ruleset("chinese"), komi=0)
    assert s.result == "0"
