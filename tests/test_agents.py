"""Every AI plays only legal moves over seeded games, honours its budget and never mutates the game."""

from __future__ import annotations

import importlib.util

import pytest
from helpers import Work, seconds_to_stop_after_cancel

from gorilla.ai.agent import AGENTS, Budget, make_agent
from gorilla.ai.warmup import groups_for, warm
from gorilla.rules.board import PASS, RESIGN
from gorilla.rules.game import Game

SPECS = {
    "random": "random:seed={seed}",
    "montecarlo": "montecarlo:2,3,seed={seed}",
    "mcts": "mcts:playouts=60,seed={seed}",
}


def available(name: str) -> bool:
    module = AGENTS[name].partition(":")[0]
    return importlib.util.find_spec(module) is not None


def agent_params() -> list:
    out = []
    for name in SPECS:
        marks = [] if available(name) else [pytest.mark.skip(reason=f"{AGENTS[name]} has not landed yet")]
        out.append(pytest.param(name, marks=marks, id=name))
    return out


@pytest.mark.parametrize("name", agent_params())
@pytest.mark.parametrize("size,max_moves", [(5, 60), (7, 40), (9, 24)])
def test_plays_only_legal_moves(name: str, size: int, max_moves: int) -> None:
    for seed in (1, 2):
        agent = make_agent(SPECS[name].format(seed=seed))
        game = Game.new(size)
        while not game.over and len(game.moves) < max_moves:
            before = (game.position.diagram(), game.to_move, len(game.moves), game.position.hash)
            move = agent.select_move(game)
            assert (game.position.diagram(), game.to_move, len(game.moves), game.position.hash) == before
            if move == RESIGN:
                break
            assert move == PASS or game.check(move) is None, f"{name} played an illegal move"
            game.play(move)
        assert len(game.moves) > 0


@pytest.mark.parametrize("name", agent_params())
def test_returns_soon_after_cancel(name: str) -> None:
    agent = make_agent(name)
    game = Game.new(9)
    warm(groups_for([name]))  # what a first start compiles for this AI: all its search needs
    _, seconds = seconds_to_stop_after_cancel(
        lambda cancel: agent.select_move(game, Budget(playouts=10**9, seconds=20), cancel=cancel), after=0.2
    )
    assert seconds < 0.05 + 0.15


def test_mcts_honours_seconds_budget() -> None:
    agent = make_agent("mcts")
    game = Game.new(9)
    agent.select_move(game, Budget(playouts=20))
    with Work() as work:
        agent.select_move(game, Budget(seconds=0.5))
    assert work.seconds < 0.5 + 0.2


def test_mcts_prior_weights_and_alphabeta_evaluation_weights_are_settings() -> None:
    from gorilla.ai.mcts.priors import PR_CAPTURE_ONE, PRIOR

    agent = make_agent("mcts:prior_capture_one=21.5,prior_near1=3")
    try:
        assert agent.prior[PR_CAPTURE_ONE] == 21.5 and agent.prior[PR_CAPTURE_ONE] != PRIOR[PR_CAPTURE_ONE]
        assert list(agent.prior[PR_CAPTURE_ONE + 1 : PR_CAPTURE_ONE + 3]) == list(
            PRIOR[PR_CAPTURE_ONE + 1 : PR_CAPTURE_ONE + 3]
        )
    finally:
        agent.close()
    with pytest.raises(ValueError, match="bad settings.*unknown setting 'prior_nonesuch'"):
        make_agent("mcts:prior_nonesuch=1")
    ab = make_agent("alphabeta:room=12,own_atari=5,their_atari=99")
    assert ab.weights == (12, 5, 99)


def test_a_run_wide_seed_is_left_out_for_an_ai_without_one() -> None:
    """`gorilla gtp --seed 3 --ai alphabeta` used to exit 2: the deterministic search takes no seed."""
    from gorilla.gtp.main import engine_from_args

    for name in ("alphabeta", "random", "mcts"):
        engine = engine_from_args(["--seed", "3", "--ai", name, "--size", "9"])
        assert engine.agent_spec == name
    assert make_agent("random", seed=3).rng.random() == make_agent("random", seed=3).rng.random()
    with pytest.raises(ValueError, match="unexpected keyword argument 'nonesuch'"):
        make_agent("alphabeta", nonesuch=1)
