"""The playout doubling advantage a handicap game sets (gorilla/ai/puct/pda.py, after KataGo's
GTP engine): none in an even game, a cap that grows with the stones and shrinks with the komi,
the dynamic PDA's steps toward a 5-25% win rate for the player giving stones, the negative for
the player taking them, and the setting's bad values in one line."""

from __future__ import annotations

import pytest

from gorilla.ai.puct.pda import (
    MAX_PDA,
    STEP,
    DynamicPda,
    black_advantage,
    handicap_stones,
    parse_pda,
    pda_cap,
)
from gorilla.rules.board import BLACK, WHITE
from gorilla.rules.game import Game


def test_even_games_have_no_pda_and_handicap_games_a_cap_growing_with_the_stones() -> None:
    for size, komi in ((19, 7.5), (19, 6.5), (9, 7), (9, 5.5), (13, 7.5)):
        assert pda_cap(Game.new(size, komi=komi))[1] == 0.0, (size, komi)
    caps = [pda_cap(Game.new(19, komi=0.5, handicap=h)) for h in (2, 3, 4, 6, 9)]
    assert all(weaker == WHITE for weaker, _ in caps)
    values = [c for _, c in caps]
    assert values == sorted(values) and values[0] > 0 and values[-1] == MAX_PDA
    assert all(c / STEP == int(c / STEP) for c in values)
    # KataGo's figures: 2 stones, komi 0.5 on 19x19 is 21.5 points; (21.5 - 4) * 0.045 -> 0.75
    two = Game.new(19, komi=0.5, handicap=2)
    assert handicap_stones(two) == 2 and black_advantage(two) == 21.5 and pda_cap(two)[1] == 0.75
    # a komi far above the even one favours White: Black is then the player behind
    assert pda_cap(Game.new(19, komi=40))[0] == BLACK and pda_cap(Game.new(19, komi=40))[1] > 0
    # a small board counts a point for more; 7x7 has none
    assert pda_cap(Game.new(9, komi=0.5))[1] > pda_cap(Game.new(19, komi=0.5))[1] > 0
    assert pda_cap(Game.new(7, komi=-20))[1] == 0.0


def test_the_dynamic_pda_starts_at_the_cap_and_steps_to_keep_the_player_behind_in_5_to_25_percent() -> None:
    game = Game.new(19, komi=0.5, handicap=4)
    cap = pda_cap(game)[1]
    dyn = DynamicPda()
    assert dyn.for_move(game, WHITE) == cap  # no white stone yet: the cap
    game.play(game.legal_moves()[100])  # White's first stone
    dyn.record(game, WHITE, 0.02)  # White far behind: it plays bolder
    assert dyn.for_move(game, WHITE) == cap  # already at the cap
    for _ in range(3):
        dyn.record(game, WHITE, 0.40)  # White doing well: less bold, step by step
        before = dyn.desired
        assert dyn.for_move(game, WHITE) == before - STEP
    dyn.record(game, WHITE, 0.15)  # inside the band: kept
    assert dyn.for_move(game, WHITE) == dyn.desired == cap - 3 * STEP
    dyn.record(game, WHITE, 0.02)
    assert dyn.for_move(game, WHITE) == cap - 2 * STEP
    # Black, taking the stones, plays with the negative (safe); its win rate is White's complement
    dyn.record(game, BLACK, 0.98)
    assert dyn.for_move(game, BLACK) == -(cap - STEP)
    for _ in range(40):
        dyn.record(game, WHITE, 0.9)
        dyn.for_move(game, WHITE)
    assert dyn.desired == 0.0  # never below 0
    dyn.reset()
    assert dyn.for_move(game, WHITE) == cap


def test_pda_settings() -> None:
    assert parse_pda("auto") is None and parse_pda(None) is None
    assert parse_pda(1.5) == 1.5 and parse_pda("-2") == -2.0 and parse_pda(0) == 0.0
    for bad in ("strong", 4, "nan", -3.5):
        with pytest.raises(ValueError) as e:
            parse_pda(bad)
        assert "pda" in str(e.value) and "\n" not in str(e.value)
