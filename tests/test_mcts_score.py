"""The score's share of a playout's value (``score_share``): a win by more is worth more."""

from __future__ import annotations

import pytest
from helpers import game_from_diagram

from gorilla.ai.agent import Budget, make_agent
from gorilla.ai.mcts import tree as T
from gorilla.ai.mcts.agent import MCTSAgent
from gorilla.rules.board import BLACK, PASS, WHITE

# Settled: every empty point is a one-point eye, so passing is the only move and every
# playout ends with the same count, Black 15 (12 stones, 3 eyes), White 10.
SETTLED = """
. X X O .
X X X O O
. X X O .
X X X O O
. X X O .
"""
BLACK_LEAD = 15 - 10
SPAN = T.SCORE_SPAN * 5


def expected_value(komi: float, share: float, color: int) -> float:
    margin = BLACK_LEAD - komi
    black = (1.0 - share) * (margin > 0) + share * 0.5 * (1.0 + min(1.0, max(-1.0, margin / SPAN)))
    return black if color == BLACK else 1.0 - black


@pytest.mark.parametrize(
    ("komi", "share", "color"),
    [
        (0.5, 0.0, BLACK),  # no share: a win is a win
        (0.5, 0.2, BLACK),  # Black wins by 4.5: 0.8 + 0.2 * (1 + 0.45) / 2
        (0.5, 0.2, WHITE),  # the same playouts from White's side
        (9.5, 0.2, BLACK),  # Black loses by 4.5: only the score's share is left
        (20.5, 0.3, BLACK),  # loses by 15.5, beyond the span: clipped to 0
        (20.5, 0.3, WHITE),  # White wins by more than the span: 1
    ],
)
def test_a_playout_is_worth_its_result_and_the_score_share_of_its_margin(komi, share, color):
    game = game_from_diagram(SETTLED, to_move=color, komi=komi)
    agent = MCTSAgent(seed=1, policy=0, score_share=share)
    try:
        cands = agent.analyze(game, Budget(playouts=100))
    finally:
        agent.close()
    assert [c.move for c in cands] == [PASS]
    assert cands[0].visits >= 100
    assert cands[0].winrate == pytest.approx(expected_value(komi, share, color), abs=1e-5)  # float32 sums


def test_the_share_is_a_spec_setting_and_out_of_range_is_refused():
    agent = make_agent("mcts:playouts=50,score_share=0.05")
    try:
        assert agent.score_share == 0.05
    finally:
        agent.close()
    for bad in (-0.1, 1.0):
        with pytest.raises(ValueError, match="score_share"):
            MCTSAgent(score_share=bad)
