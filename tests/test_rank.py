"""Opponents at a chosen rank: ranks parsed in one line, more moves drawn for stronger ranks, the
obvious move always played, and a stronger rank beating a weaker one over a seeded match."""

from __future__ import annotations

import pytest
from helpers import game_from_diagram, v

from gorilla.ai.agent import make_agent
from gorilla.ai.rank import RankAgent, expected_choice, moves_to_draw, parse_rank
from gorilla.rules.board import BLACK, RESIGN, WHITE
from gorilla.rules.game import Game


def test_ranks_parse_and_bad_ones_are_one_line() -> None:
    assert [parse_rank(r) for r in ("20k", "1k", "1d", "5d")] == [20, 1, 0, -4]
    for bad in ("0k", "31k", "10d", "strong", "5 kyu"):
        with pytest.raises(ValueError) as e:
            parse_rank(bad)
        assert "\n" not in str(e.value)
    with pytest.raises(ValueError, match="rank"):
        make_agent("rank:master")


def test_stronger_ranks_draw_more_moves() -> None:
    draws = [moves_to_draw(parse_rank(r), 300) for r in ("25k", "20k", "10k", "5k", "1k", "1d", "5d")]
    assert draws == sorted(draws) and draws[0] >= 1 and draws[-1] == 300
    assert expected_choice(20) > 20 > expected_choice(10) > 5 > expected_choice(0) > 1
    assert moves_to_draw(30, 5) == 1 and moves_to_draw(-8, 5) == 5


def test_the_obvious_capture_is_always_played() -> None:
    # White's six stones A5-F5 are in atari at G5: even a 30-kyu takes them
    game = game_from_diagram(
        """
        .........
        .........
        .........
        XXXXXX...
        OOOOOO...
        XXXXXX...
        .........
        .........
        .........
        """,
        BLACK,
    )
    assert {RankAgent("30k", seed=seed).select_move(game) for seed in range(4)} == {v("G5")}


def play(black: RankAgent, white: RankAgent, seed: int) -> int:
    """One 9x9 game to the end (two passes or 120 moves, then counted by area); the winner."""
    game = Game.new(9, komi=7.5)
    black.reseed(seed)
    white.reseed(seed + 1000)
    while not game.over and game.move_number < 120:
        agent = black if game.to_move == BLACK else white
        move = agent.select_move(game)
        if move == RESIGN:
            return WHITE if game.to_move == BLACK else BLACK
        game.play(move)
    return BLACK if game.score().margin > 0 else WHITE


def test_a_stronger_rank_beats_a_weaker_one() -> None:
    strong, weak = RankAgent("1d"), RankAgent("25k")
    wins = 0
    for k in range(4):
        if k % 2 == 0:
            wins += play(strong, weak, k) == BLACK
        else:
            wins += play(weak, strong, k) == WHITE
    assert wins >= 3, f"1d won {wins} of 4 against 25k"
