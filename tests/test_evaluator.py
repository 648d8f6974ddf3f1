"""The move evaluator: every legal move valued, the obvious capture best, points lost, MCTS engine."""

from __future__ import annotations

import threading

import pytest
from helpers import game_from_diagram

from gorilla.ai.agent import Budget
from gorilla.ai.evaluator import evaluate, points_lost
from gorilla.rules.board import PASS, WHITE
from gorilla.rules.coords import format_vertex, parse_vertex, to_xy
from gorilla.rules.game import Game

# White to move: the black group B4-E4 has one liberty, F4
ATARI = """
.......
.......
.OOOO..
OXXXX..
.OOOO..
.......
.......
"""


def atari_game() -> Game:
    return game_from_diagram(ATARI, WHITE, komi=0.5)


def test_flat_values_every_legal_move_and_the_capture_is_best() -> None:
    game = atari_game()
    ev = evaluate(game, "flat", games=8, turns=3, seed=1)
    assert set(ev.values) == set(game.legal_moves())
    assert format_vertex(ev.best, 7) == "F4"
    f4 = ev.values[ev.best]
    assert f4.samples == 8
    assert all(0.0 <= x.winrate <= 1.0 for x in ev.values.values())
    assert f4.score == max(x.score for x in ev.values.values())
    assert f4.score - ev.values[parse_vertex("A1", 7)].score > 4  # four stones and their area


def test_flat_includes_own_eye_fills_that_the_ai_skips() -> None:
    game = game_from_diagram(".X.X.\nXXXXX\nXXXXX\n.XXXX\nXXXXX", komi=0.5)
    ev = evaluate(game, games=2, turns=1, seed=1)
    assert {format_vertex(p, 5) for p in ev.values} == {"A5", "C5", "E5", "A2"}
    assert ev.best in ev.values


def test_points_lost_is_zero_for_the_best_move_and_large_for_a_blunder() -> None:
    good = atari_game()
    good.play(parse_vertex("F4", 7))
    bad = atari_game()
    bad.play(parse_vertex("A1", 7))
    lost_good = points_lost(good, 1, games=8, turns=3, seed=2)
    lost_bad = points_lost(bad, 1, games=8, turns=3, seed=2)
    assert lost_good == pytest.approx(0.0, abs=0.5)
    assert lost_bad > lost_good + 4


def test_points_lost_rejects_what_is_not_a_played_board_move() -> None:
    game = atari_game()
    with pytest.raises(ValueError):
        points_lost(game, 1)
    game.pass_move()
    with pytest.raises(ValueError):
        points_lost(game, 1)
    with pytest.raises(ValueError):
        evaluate(game, engine="alphabeta")


def test_a_finished_game_has_nothing_to_evaluate() -> None:
    game = Game.new(5)
    game.pass_move()
    game.pass_move()
    ev = evaluate(game)
    assert ev.values == {} and ev.best == PASS


def test_budget_and_cancel_cut_the_flat_evaluation_short() -> None:
    game = Game.new(5)
    ev = evaluate(game, games=10, turns=2, budget=Budget(playouts=30), seed=1)
    assert ev.playouts == 30 and len(ev.values) == 25
    cancel = threading.Event()
    cancel.set()
    ev = evaluate(game, games=10, turns=2, cancel=cancel)
    assert ev.values == {} and ev.best == PASS


def test_mcts_engine_on_a_small_budget() -> None:
    game = atari_game()
    ev = evaluate(game, "mcts", budget=Budget(playouts=400), seed=3)
    assert ev.engine == "mcts" and ev.values and ev.best in ev.values
    assert all(0.0 <= x.winrate <= 1.0 and x.samples > 0 for x in ev.values.values())
    assert set(ev.values) <= set(game.legal_moves())
    assert format_vertex(ev.best, 7) == "F4"
    assert ev.values[ev.best].winrate > 0.5
    good = atari_game()
    good.play(ev.best)
    assert points_lost(good, 1, engine="mcts", budget=Budget(playouts=400), seed=3) == 0.0
    # after A1 (not searched at the root) Black is to move: valued by a search of that position,
    # the mover's margin there against the capture's. Black's four stones find no way out and die
    # all the same, so the two searches' margins about agree: A1 loses about nothing
    bad = atari_game()
    bad.play(parse_vertex("A1", 7))
    assert parse_vertex("A1", 7) not in ev.values
    after = evaluate(bad, "mcts", budget=Budget(playouts=400), seed=3)  # Black to move
    fall = ev.values[ev.best].score + after.values[after.best].score  # White's margins
    assert abs(fall) < 1.0
    assert points_lost(bad, 1, engine="mcts", budget=Budget(playouts=400), seed=3) == pytest.approx(
        max(0.0, fall)
    )


def test_net_engine_values_the_moves_and_a_wasted_move_loses_points() -> None:
    game = Game.new(9, komi=7.5)
    ev = evaluate(game, "net", budget=Budget(playouts=48), seed=3)
    assert ev.engine == "net" and ev.best in ev.values
    x, y = to_xy(ev.best, 9)
    assert 2 <= x <= 6 and 2 <= y <= 6  # an opening move away from the edges
    assert set(ev.values) <= set(game.legal_moves())
    assert all(0.0 <= m.winrate <= 1.0 and m.samples > 0 for m in ev.values.values())
    budget = Budget(playouts=48)
    good = Game.new(9, komi=7.5)
    good.play(ev.best)
    bad = Game.new(9, komi=7.5)
    bad.play(parse_vertex("A1", 9))  # a first move in the corner: a move thrown away
    assert points_lost(good, 1, engine="net", budget=budget, seed=3) < 1.0
    assert points_lost(bad, 1, engine="net", budget=budget, seed=3) > 5.0
