"""The MCTS with the move model: probabilities as priors, most likely children first,
progressive widening, the model's probability as each candidate's prior."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from helpers import game_from_diagram, v

from gorilla.ai.agent import Budget, make_agent
from gorilla.ai.mcts import tree as T
from gorilla.ai.mcts.agent import MCTSAgent
from gorilla.ai.policy.model import shipped_model
from gorilla.rules.board import PASS
from gorilla.rules.coords import format_vertex
from gorilla.rules.game import Game


def root_children(agent: MCTSAgent, field: int = T.F_PROB) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(moves, visits, probabilities or another field of fs) of the root's children, in their
    stored order."""
    fs, mv, kids, _, _ = agent._bufs[agent._cur]
    k = int(kids[0])
    first, cnt = k >> T.SHIFT, k & T.MASK
    idx = np.arange(first, first + cnt)
    return mv[idx], fs[T.F_VIS, idx], fs[field, idx]


def test_children_come_most_likely_first_with_the_model_probabilities():
    g = Game.new(9)
    for m in ("E5", "C3", "G7"):
        g.play(v(m))
    agent = MCTSAgent(seed=1, max_nodes=50_000, policy=40.0)
    try:
        agent.select_move(g, Budget(playouts=200))
        moves, _, probs = root_children(agent)
    finally:
        agent.close()
    assert moves[-1] == PASS
    assert (np.diff(probs[:-1]) <= 0).all() and probs[0] > probs[-2]
    expected, p = shipped_model().probabilities(g.position.b, g.position.st, g.to_move)
    model = dict(zip(expected.tolist(), p.tolist(), strict=True))
    for m, pr in zip(moves.tolist(), probs.tolist(), strict=True):
        assert pr == pytest.approx(model[m], rel=1e-5)
    # the prior shown to the user is the model's probability
    cands = {c.move: c.prior for c in agent.last_candidates}
    for m, pr in cands.items():
        assert pr == pytest.approx(model[m], rel=1e-5)


def test_progressive_widening_searches_only_the_likely_moves_at_first():
    g = Game.new(19)
    agent = MCTSAgent(seed=2, max_nodes=200_000, policy=40.0, widen=20.0)
    playouts = 400
    try:
        agent.select_move(g, Budget(playouts=playouts))
        moves, visits, _ = root_children(agent)
    finally:
        agent.close()
    width = 2 + int(math.log1p(playouts / 20.0) / math.log(1.4))
    searched = np.flatnonzero(visits[:-1] > 0)
    assert len(searched) >= 2 and searched.max() <= width
    assert visits[width + 1 : -1].sum() == 0


def test_the_model_finds_a_capture_with_few_playouts():
    g = game_from_diagram(
        """
        . . . . . . . . .
        . . . . . . . . .
        . . . . X . . . .
        . . . X(O). . . .
        . . . . X . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        """
    )
    agent = make_agent("mcts:seed=3,policy=40,widen=10")
    try:
        assert agent.select_move(g, Budget(playouts=100)) == v("F6")
    finally:
        agent.close()


def test_a_bad_model_file_is_one_line(tmp_path):
    bad = tmp_path / "bad.gpol"
    bad.write_bytes(b"GORPOLv1 but not a model")
    with pytest.raises(ValueError, match="damaged or truncated") as err:
        make_agent(f"mcts:policy=40,model={bad}")
    assert "\n" not in str(err.value)
    with pytest.raises(ValueError, match="policy and widen"):
        make_agent("mcts:policy=-1")


def test_lz_analyze_prior_is_the_model_probability():
    from gorilla.gtp.analysis import info_line

    g = Game.new(9)
    g.play(v("E5"))
    agent = make_agent("mcts:seed=4,policy=40")
    try:
        cands = agent.analyze(g, Budget(playouts=300))
    finally:
        agent.close()
    moves, probs = shipped_model().probabilities(g.position.b, g.position.st, g.to_move)
    model = {format_vertex(int(m), 9): p for m, p in zip(moves, probs, strict=True)}
    blocks = re.findall(r"info move (\S+) visits \d+ winrate \d+ prior (\d+)", info_line(cands, 9))
    assert len(blocks) >= 3
    for move, prior in blocks:
        assert abs(int(prior) - 10000 * model[move]) <= 1


def root_prior_visits(spec: str, size: int) -> np.ndarray:
    """The virtual visits of the root's children after a short search by spec on an empty board."""
    agent = make_agent(spec)
    try:
        agent.select_move(Game.new(size), Budget(playouts=64))
        return root_children(agent, T.F_PV)[2].copy()
    finally:
        agent.close()


@pytest.mark.parametrize(
    ("size", "same_as", "not_as"),
    [(9, "policy=40", "policy=80"), (19, "policy=80", "policy=40"), (13, "policy=56", "policy=40")],
)
def test_the_default_model_weight_grows_with_the_board(size, same_as, not_as):
    default = root_prior_visits("mcts:seed=5", size)
    assert default == pytest.approx(root_prior_visits(f"mcts:seed=5,{same_as}", size))
    assert default != pytest.approx(root_prior_visits(f"mcts:seed=5,{not_as}", size))
    assert make_agent("mcts:policy=0").policy_weight(19) == 0.0  # off stays off
