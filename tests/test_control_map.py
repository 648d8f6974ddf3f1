"""The control map: its documented sign and wave rule, symmetry, captures, incremental updates."""

from __future__ import annotations

import random

import numpy as np
import pytest
from helpers import position_from_diagram, swap_colours, symmetry, transform_diagram

from gorilla.ai.control_map import (
    SCORING_METHODS,
    IncrementalControl,
    classic_result,
    classic_score,
    control_map,
    evaluate_arrays,
    evaluate_position,
    new_workspace,
)
from gorilla.rules.board import BLACK, PASS, WHITE
from gorilla.rules.coords import parse_vertex
from gorilla.rules.position import IllegalMove, Position


def cell(size: int, vertex: str) -> tuple[int, int]:
    """(row from the top, column) of a vertex in control_map's grid."""
    p = parse_vertex(vertex, size)
    w = size + 2
    return p // w - 1, p % w - 1


def at(m: np.ndarray, vertex: str) -> float:
    return float(m[cell(m.shape[0], vertex)])


def random_positions(size: int, games: int, seed: int, moves: int) -> list[Position]:
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        pos = Position(size)
        for _ in range(moves):
            legal = pos.legal_moves(reasonable=True)
            pos.play(rng.choice(legal) if legal else PASS)
        out.append(pos)
    return out


def test_a_black_stone_is_negative_a_white_one_positive_with_the_documented_falloff() -> None:
    pos = Position(9)
    pos.play(parse_vertex("E5", 9), BLACK)
    m = control_map(pos)
    assert m.shape == (9, 9)
    assert at(m, "E5") == -1.0
    # one step halves the power: 1/2, 1/4, 1/8, 1/16, then nothing
    assert [at(m, v) for v in ("E6", "E7", "E8", "E9")] == [-0.5, -0.25, -0.125, -0.0625]
    assert at(m, "F6") == -0.25 and at(m, "D4") == -0.25
    assert at(m, "A1") == 0.0  # eight steps away
    pos.play(parse_vertex("C3", 9), WHITE)
    m2 = control_map(pos)
    assert at(m2, "C3") == 1.0 and at(m2, "C4") > 0 and at(m2, "E6") < 0


def test_four_steps_is_the_last_reached() -> None:
    pos = Position(9)
    pos.play(parse_vertex("E5", 9), BLACK)
    m = control_map(pos)
    assert at(m, "A5") == -0.0625  # four steps
    assert at(m, "A4") == 0.0  # five steps


def test_row_zero_is_the_top_row() -> None:
    pos = Position(5)
    pos.play(parse_vertex("A5", 5), WHITE)
    m = control_map(pos)
    assert m[0, 0] == 1.0 and m[1, 0] == 0.5 and m[4, 0] == 0.0625  # A5, A4, A1


def test_an_enemy_liberty_weakens_the_wave_and_an_enemy_stone_stops_it() -> None:
    pos = Position.from_diagram(
        """
        .......
        .......
        .......
        .X.O...
        .......
        .......
        .......
        """
    )
    m = control_map(pos)
    # C4 touches the white stone: Black's wave pays 3 (1/8) to enter, and so does White's
    assert at(m, "C4") == 0.0
    # E4 (right of White) gets 1/2 from White and nothing from Black: the wave cannot pass D4
    assert at(m, "E4") == 0.5
    # a wall of white stones keeps Black's wave out entirely
    wall = Position.from_diagram(
        """
        ..O..
        ..O..
        X.O..
        ..O..
        ..O..
        """
    )
    mw = control_map(wall)
    assert mw[:, 3:].min() >= 0.0
    # B3 touches the wall: Black's wave brings 1/8 there (1/2 to A4), White's waves more
    assert at(mw, "A4") < 0 < at(mw, "B3")


def test_values_stay_in_range_and_stones_are_full_control() -> None:
    for pos in random_positions(9, 4, 1, 70):
        m = control_map(pos)
        assert m.min() >= -1.0 and m.max() <= 1.0
        grid = pos.grid()
        assert np.all(m[grid == BLACK] == -1.0) and np.all(m[grid == WHITE] == 1.0)


def test_two_friendly_stones_control_more_than_one() -> None:
    one = Position.from_diagram(".......\n.......\n..X....\n.......\n.......\n.......\n.......")
    two = Position.from_diagram(".......\n.......\n..X.X..\n.......\n.......\n.......\n.......")
    m1, m2 = control_map(one), control_map(two)
    assert at(m2, "D5") < at(m1, "D5") < 0
    assert at(m2, "D5") == -1.0  # 1/2 + 1/2
    assert at(m2, "D4") < at(m1, "D4")


def test_the_point_between_opposing_stones_belongs_to_neither() -> None:
    pos = Position.from_diagram(".....\n.....\n.X.O.\n.....\n.....")
    m = control_map(pos)
    assert at(m, "C3") == 0.0
    assert at(m, "A3") < 0 < at(m, "E3")


@pytest.mark.parametrize("k", range(8))
def test_mirrored_and_rotated_boards_give_the_mirrored_and_rotated_map(k: int) -> None:
    for pos in random_positions(7, 3, 10 + k, 30):
        moved = position_from_diagram(transform_diagram(pos.diagram(), k))
        assert np.array_equal(control_map(moved), symmetry(control_map(pos), k))


def test_swapping_the_colours_negates_the_map() -> None:
    for pos in random_positions(9, 3, 5, 40):
        swapped = position_from_diagram(swap_colours(pos.diagram()))
        assert np.array_equal(control_map(swapped), -control_map(pos))


def test_a_capture_removes_the_captured_stones_influence() -> None:
    pos = Position.from_diagram(
        """
        .......
        .......
        ..O....
        .OXO...
        .......
        .......
        .......
        """,
        to_move=WHITE,
    )
    inc = IncrementalControl(pos)
    before = inc.values()
    assert at(before, "C4") == -1.0 and at(before, "C3") < 0
    assert inc.play(parse_vertex("C3", 7)) == 1
    after = inc.values()
    fresh = control_map(Position.from_diagram(inc.position.diagram()))
    assert np.array_equal(after, fresh)
    assert at(after, "C4") > 0 and after.min() >= 0.0  # no black influence left anywhere


@pytest.mark.parametrize("size", [5, 9, 13])
def test_incremental_updates_equal_a_full_recompute_over_random_games(size: int) -> None:
    rng = random.Random(size)
    captures = 0
    for _ in range(3):
        inc = IncrementalControl(Position(size))
        for _ in range(2 * size * size):
            legal = inc.position.legal_moves(reasonable=True)
            captures += inc.play(rng.choice(legal) if legal else PASS) > 0
            assert np.array_equal(inc.values(), control_map(inc.position))
    assert captures > 0  # the games did exercise the recompute after captures


def test_incremental_play_refuses_illegal_moves_and_changes_nothing() -> None:
    inc = IncrementalControl(Position(5))
    p = parse_vertex("C3", 5)
    inc.play(p)
    before = inc.values()
    with pytest.raises(IllegalMove):
        inc.play(p)
    assert np.array_equal(inc.values(), before) and inc.position.to_move == WHITE


def test_evaluation_is_own_control_minus_the_opponents_and_the_kernel_agrees() -> None:
    for pos in random_positions(9, 3, 7, 50):
        m = control_map(pos)
        white, black = np.clip(m, 0, None).sum(), np.clip(-m, 0, None).sum()
        assert evaluate_position(pos, WHITE) == pytest.approx(white - black)
        assert evaluate_position(pos, BLACK) == pytest.approx(black - white)
        acc = np.zeros(pos.b.shape[1])
        ws = new_workspace(11)
        assert evaluate_arrays(pos.b, pos.st, BLACK, acc, ws) == pytest.approx(black - white)


def test_classic_score_counts_a_finished_board() -> None:
    # Black owns columns A-C, White D-E: a finished board, Black 15 - White 10 by area
    pos = Position.from_diagram(
        """
        .XXO.
        XX.OO
        .XXO.
        XX.OO
        .XXO.
        """
    )
    s = classic_score(pos, 0.5)
    assert s > 0 and classic_result(pos, 0.5).startswith("B+")
    assert classic_score(pos, 7.5) == pytest.approx(s - 7.0)
    assert classic_result(pos, 7.5).startswith("W+")
    assert SCORING_METHODS["gorilla-classic"] is classic_score
