"""Gorilla's flat Monte-Carlo AI: legal, reasonable moves, tactics, budget, cancel, seeds, T = 0."""

from __future__ import annotations

import threading
import time

import pytest
from helpers import Work, game_from_diagram, v

from gorilla.ai.agent import Budget, make_agent
from gorilla.ai.control_map import evaluate_position
from gorilla.ai.montecarlo import MonteCarloAgent, move_values
from gorilla.rules.board import BLACK, PASS, WHITE
from gorilla.rules.coords import format_vertex
from gorilla.rules.game import Game
from gorilla.rules.position import Position

# Black has three single-point eyes (A5, A3, A1), White three (E5, E3, E1); C4 and C2 are dame
EYES = """
.XXO.
XX.OO
.XXO.
XX.OO
.XXO.
"""

# the black group B4-E4 has one liberty left, F4
ATARI = """
.......
.......
.OOOO..
OXXXX..
.OOOO..
.......
.......
"""


def test_spec_and_settings() -> None:
    a = make_agent("montecarlo:7,0,seed=3")
    assert isinstance(a, MonteCarloAgent) and (a.games, a.turns, a.seed) == (7, 0, 3)
    b = make_agent("montecarlo:games=4,turns=2")
    assert (b.games, b.turns) == (4, 2)
    assert str(b) == "montecarlo:4,2"
    for bad in ("montecarlo:0,3", "montecarlo:3,-1", "montecarlo:2.5,3"):
        with pytest.raises(ValueError):
            make_agent(bad)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_never_fills_its_own_eye(seed: int) -> None:
    game = game_from_diagram(EYES, BLACK, komi=0.5)
    eyes = {v(x, 5) for x in ("A5", "A3", "A1")}
    move = MonteCarloAgent(3, 3, seed=seed).select_move(game)
    assert move not in eyes and move in (v("C4", 5), v("C2", 5))
    game.play(move)
    # White's reasonable moves: the other dame point only
    move = MonteCarloAgent(3, 3, seed=seed).select_move(game)
    assert move in (v("C4", 5), v("C2", 5)) and game.check(move) is None


def test_passes_when_only_its_own_eyes_are_left() -> None:
    game = game_from_diagram(".X.X.\nXXXXX\nXXXXX\n.XXXX\nXXXXX", BLACK, komi=0.5)
    assert game.legal_moves()  # filling an eye is legal ...
    assert MonteCarloAgent(2, 2, seed=1).select_move(game) == PASS  # ... but not reasonable


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_captures_a_big_group_in_atari(seed: int) -> None:
    game = game_from_diagram(ATARI, WHITE, komi=0.5)
    move = MonteCarloAgent(5, 3, seed=seed).select_move(game)
    assert format_vertex(move, 7) == "F4"


def test_plays_legal_moves_and_keeps_the_game_unchanged() -> None:
    agent = MonteCarloAgent(2, 2, seed=5)
    game = Game.new(7)
    while not game.over and game.move_number < 60:
        before = (game.position.diagram(), game.move_number)
        move = agent.select_move(game)
        assert (game.position.diagram(), game.move_number) == before
        assert move == PASS or game.check(move) is None
        if move != PASS:
            assert move in game.legal_moves(reasonable=True)
        game.play(move)


def test_the_budget_sets_the_number_of_sample_games() -> None:
    game = Game.new(7)
    agent = MonteCarloAgent(4, 3, seed=1)
    agent.select_move(game)
    assert sum(x.samples for x in agent.last_values.values()) == 4 * 49
    assert {x.samples for x in agent.last_values.values()} == {4}
    agent.select_move(game, Budget(playouts=100))
    counts = [x.samples for x in agent.last_values.values()]
    assert sum(counts) == 100 and max(counts) - min(counts) <= 1  # round-robin over the moves


def test_a_seconds_budget_stops_the_sampling() -> None:
    game = Game.new(9)
    agent = MonteCarloAgent(3, 0, seed=1)
    agent.select_move(game, Budget(playouts=10))  # compiled before timing
    with Work() as work:
        move = agent.select_move(game, Budget(playouts=10**9, seconds=0.3))
    assert work.seconds < 0.3 + 0.5
    assert game.check(move) is None
    assert sum(x.samples for x in agent.last_values.values()) > 81  # it sampled, and stopped


def test_a_time_setting_samples_until_the_time_is_up() -> None:
    game = Game.new(7)
    agent = make_agent("montecarlo:2,3,time=0.3,seed=1")
    agent.select_move(game, Budget(playouts=10))  # compiled before timing
    t = time.perf_counter()
    with Work() as work:
        agent.select_move(game)
    assert time.perf_counter() - t > 0.25 and work.seconds < 0.3 + 0.5
    assert sum(x.samples for x in agent.last_values.values()) > 2 * 49  # more than G games each
    with pytest.raises(ValueError):
        make_agent("montecarlo:2,3,time=0")


def test_cancel_returns_the_best_so_far() -> None:
    game = game_from_diagram(ATARI, WHITE, komi=0.5)
    agent = MonteCarloAgent(5, 3, seed=1)
    cancel = threading.Event()
    cancel.set()
    move = agent.select_move(game, cancel=cancel)  # nothing sampled: still a reasonable move
    assert move in game.legal_moves(reasonable=True)
    cancel = threading.Event()
    seen = []

    def progress(p) -> None:
        seen.append(p)
        cancel.set()

    agent = MonteCarloAgent(5, 3, seed=1)
    agent.select_move(game, Budget(playouts=10**9, seconds=30), cancel=cancel, progress=progress)
    assert seen and all(0 <= p.fraction <= 1 and p.playouts >= 0 for p in seen)
    assert seen[-1].candidates and seen[-1].best_move == seen[-1].candidates[0].move


def test_a_seed_makes_it_deterministic() -> None:
    game = Game.new(9)
    game.play(v("E5", 9))
    a = MonteCarloAgent(3, 3, seed=11)
    b = MonteCarloAgent(3, 3, seed=11)
    assert a.select_move(game) == b.select_move(game)
    assert a.last_values == b.last_values
    assert move_values(game, 2, 0, seed=5) == move_values(game, 2, 0, seed=5)


def test_t0_plays_to_the_end_and_counts_the_area() -> None:
    # Black's only reasonable move is a dame point; then nobody has one and the game ends.
    diagram = ".XXO.\nXX.OO\n.XXO.\nXXXOO\n.XXO."
    for komi, wins in ((0.5, 1.0), (7.5, 0.0)):
        vals = move_values(game_from_diagram(diagram, BLACK, komi=komi), 3, 0, seed=1)
        assert list(vals) == [v("C4", 5)]
        mv = vals[v("C4", 5)]
        # area 15 (11 stones + C4 + 3 eyes) against 10 (7 stones + 3 eyes)
        assert mv.value == 5.0 and mv.samples == 3
        assert mv.winrate == wins and mv.score == 5.0 - komi
    # T > 0 evaluates the same end with the control map instead
    vals = move_values(game_from_diagram(diagram, BLACK, komi=0.5), 3, 4, seed=1)
    end = Position.from_diagram(".XXO.\nXXXOO\n.XXO.\nXXXOO\n.XXO.")
    assert vals[v("C4", 5)].value == pytest.approx(evaluate_position(end, BLACK))


def test_t0_agent_plays_whole_games() -> None:
    game = Game.new(5, komi=0.5)
    agent = make_agent("montecarlo:3,0,seed=2")
    while not game.over and game.move_number < 40:
        move = agent.select_move(game)
        assert move == PASS or game.check(move) is None
        game.play(move)
    assert game.move_number > 0
