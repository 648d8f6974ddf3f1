"""The playout doubling advantage (PDA): the net told it as KataGo tells it (the search's
evaluator against KataGo 1.17.2's ``kata-raw-nn`` under ``playoutDoublingAdvantage``, data of
``benchmarks/katago_pda_reference.py``); what a handicap game sets (gorilla/ai/puct/pda.py, after
KataGo's GTP engine): none in an even game, a cap that grows with the stones, the dynamic PDA's
steps toward a 5-25% win rate for the player giving stones, the negative for the player taking
them; the net agent using it for its moves and not for analysis; White giving stones resigning
only late; the setting's bad values in one line."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np
import pytest
from helpers import replay_reference

from gorilla.ai.agent import Budget, make_agent
from gorilla.ai.net.inputs import NetRules
from gorilla.ai.puct.agent import NetAgent
from gorilla.ai.puct.evaluator import NetEvaluator, NetInputs
from gorilla.ai.puct.pda import (
    MAX_PDA,
    STEP,
    DynamicPda,
    black_advantage,
    handicap_stones,
    may_resign,
    parse_pda,
    pda_cap,
)
from gorilla.rules.board import BLACK, RESIGN, WHITE
from gorilla.rules.game import Game

DATA = Path(__file__).parent / "data" / "net" / "katago_pda.json.gz"


def test_the_net_under_a_pda_agrees_with_katago() -> None:
    with gzip.open(DATA, "rt") as f:
        data = json.load(f)
    assert len({e["pda"] for p in data["positions"] for e in p["evals"]}) >= 4
    moved = 0
    for spec in data["positions"]:
        game = replay_reference(spec)
        rules = NetRules.katago(spec["rules"], spec["komi"])
        leads = []
        for e in spec["evals"]:
            ev = NetEvaluator(inputs=NetInputs(rules=rules, pda=e["pda"], pda_color=game.to_move))
            spatial, glob, legal, no_result = ev._encode(game)
            assert glob[15] == 1.0 and glob[16] == pytest.approx(e["pda"] / 2)
            out = ev.net.evaluate_inputs(spatial[None], glob[None], [e["symmetry"]], legal[None], [no_result])
            win, loss = float(out.wdl[0, 0]), float(out.wdl[0, 1])
            lead = float(out.lead[0])
            if game.to_move == BLACK:  # KataGo prints White's view
                win, loss, lead = loss, win, -lead
            pol = np.array(e["policy"], float)
            assert abs(win - e["white_win"]) < 1e-3 and abs(loss - e["white_loss"]) < 1e-3, spec["komi"]
            assert abs(lead - e["white_lead"]) < 0.01
            assert np.abs(out.policy[0] - np.where(pol >= 0, pol / 1e6, 0.0)).max() < 1e-3
            leads.append(lead)
        moved += max(leads) - min(leads) > 1.0
    assert moved >= len(data["positions"]) // 2  # the input changes what the net says


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


def test_the_net_agent_takes_the_handicap_pda_for_its_moves_not_its_analysis() -> None:
    game = Game.new(9, komi=0.5, handicap=2)  # White to move, far behind
    agent = NetAgent(visits=16, seed=1)
    agent.select_move(game)
    assert agent.evaluator.inputs.pda == pda_cap(game)[1] > 0 and agent.evaluator.inputs.pda_color == WHITE
    bold = agent.root_value()
    agent.analyze(game, Budget(playouts=16))
    assert agent.evaluator.inputs.pda == 0.0  # analysis unbiased, as KataGo's
    plain = agent.root_value()
    assert bold[0] > plain[0] and bold[1] > plain[1]  # as if out-reading Black: a better outlook
    fixed = NetAgent(visits=16, pda=-1.5)
    fixed.analyze(game, Budget(playouts=16))
    assert (fixed.evaluator.inputs.pda, fixed.evaluator.inputs.pda_color) == (-1.5, WHITE)
    even = NetAgent(visits=16)
    even.select_move(Game.new(9, komi=7))
    assert even.evaluator.inputs.pda == 0.0
    assert make_agent("scoreloss:pda=1,visits=8").pda == 1.0 and make_agent("net:pda=auto").pda is None
    with pytest.raises(ValueError, match="pda") as e:
        make_agent("net:pda=strong")
    assert "\n" not in str(e.value)


def _moves(game: Game, n: int) -> Game:
    for _ in range(n):
        legal = game.legal_moves(reasonable=True)
        game.play(legal[len(legal) // 2])
    return game


def test_white_giving_stones_resigns_only_late_and_far_behind_schedule() -> None:
    h4 = _moves(Game.new(19, komi=0.5, handicap=4), 20)
    assert not may_resign(h4, WHITE, -80.0)  # before 1 + 361 / 5 moves
    assert may_resign(h4, BLACK, -80.0) and may_resign(_moves(Game.new(19, komi=7.5), 20), WHITE, -80.0)
    late = _moves(Game.new(19, komi=0.5, handicap=4), 230)
    assert may_resign(late, WHITE, -30.0) and not may_resign(late, WHITE, -5.0)
    # through the agent: a resignation threshold it always meets resigns an even game at once,
    # not a handicap game's White before its 17th move on 9x9
    eager = NetAgent(visits=8, resign=0.999, seed=2)
    even = _moves(Game.new(9, komi=7), 12)
    assert [eager.select_move(even) for _ in range(2)][-1] == RESIGN
    eager.new_game()
    stones = _moves(Game.new(9, komi=0.5, handicap=3), 12)
    assert stones.to_move == WHITE and RESIGN not in [eager.select_move(stones) for _ in range(2)]
