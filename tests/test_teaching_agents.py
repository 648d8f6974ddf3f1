"""Opponents that teach (``scoreloss``, ``policy``): each plays legal games to the end through
the match runner (against GNU Go and against each other); a higher score-loss strength loses
fewer points a move as the net's review measures them; the policy's draws follow the policy and
sharpen at a lower temperature; bad settings are one line."""

from __future__ import annotations

import json
import statistics
from collections import Counter
from pathlib import Path

import pytest
from helpers import game_from_diagram, v

from gorilla.ai.agent import Budget, make_agent
from gorilla.ai.net import policy_index
from gorilla.ai.teaching_agents import PolicyAgent, ScoreLossAgent, points_lost
from gorilla.app.go.review import evaluate_position, move_review
from gorilla.app.go.review import make_agent as review_agent
from gorilla.match import cli
from gorilla.match.runner import load_results
from gorilla.rules.board import BLACK, PASS
from gorilla.rules.game import Game


def _match(tmp_path: Path, a: str, b: str, games: int = 2) -> tuple[dict, list[dict]]:
    out = tmp_path / "m"
    assert cli.main([a, b, "-n", str(games), "--size", "9", "--seed", "3", "-o", str(out)]) == 0
    return json.loads((out / "summary.json").read_text()), load_results(out)


def test_policy_plays_gnugo_to_the_end(tmp_path: Path, gnugo_path: str) -> None:
    summary, recs = _match(tmp_path, "policy", f"{gnugo_path} --mode gtp --level 1")
    assert summary["forfeits"] == [] and summary["games"] == 2
    assert all(r["reason"] in ("passes", "resign") for r in recs)


def test_scoreloss_and_sampled_policy_play_each_other_to_the_end(tmp_path: Path) -> None:
    summary, recs = _match(tmp_path, "scoreloss:strength=0.5,visits=16", "policy:temperature=1")
    assert summary["forfeits"] == [] and summary["games"] == 2
    assert all(r["reason"] in ("passes", "resign") for r in recs)
    assert all(r["moves"] >= 20 for r in recs)  # real games, not an early pass


def _positions(games: int = 4, start: int = 4, stop: int = 40, every: int = 3) -> list[Game]:
    """Middle-game positions of seeded games between sampled-policy players."""
    out = []
    for seed in range(games):
        agent = PolicyAgent(temperature=1, seed=seed)
        game = Game.new(9, komi=7)
        while not game.over and game.move_number < stop:
            if game.move_number >= start and (game.move_number - start) % every == 0:
                out.append(game.copy())
            move = agent.select_move(game)
            game.pass_move() if move == PASS else game.play(move)
    return out


def test_a_higher_strength_loses_fewer_points_by_the_review() -> None:
    # each strength's move in the same positions, judged by the review's own search (app/go/review.py:
    # the fall of the mover's root score lead), not by the agent's formula
    positions = _positions()
    judge, budget = review_agent(engine="net", seed=5), Budget(playouts=32)
    before = [evaluate_position(g, judge, budget, None) for g in positions]

    def lost(strength: float) -> list[float]:
        agent = ScoreLossAgent(strength=strength, visits=32, seed=1, resign=0)
        out = []
        for game, b in zip(positions, before, strict=True):
            move = agent.select_move(game)
            after = game.copy()
            after.pass_move() if move == PASS else after.play(move)
            out.append(
                move_review(
                    0, game.to_move, move, b, evaluate_position(after, judge, budget, None)
                ).points_lost
            )
        return out

    weak, strong = lost(0.05), lost(1.0)
    diff = [w - s for w, s in zip(weak, strong, strict=True)]
    se = statistics.stdev(diff) / len(diff) ** 0.5
    assert statistics.mean(weak) > statistics.mean(strong) + 2 * se, (weak, strong)


def test_points_lost_are_the_fall_of_the_root_lead_never_below_zero() -> None:
    agent = ScoreLossAgent(strength=0.5, visits=24, seed=2)
    game = Game.new(9, komi=7)
    agent.select_move(game)
    info = agent.search.root_info()
    lead = agent.root_value()[1]
    lost = points_lost(info, lead)
    assert len(lost) == len(info.moves) >= 2 and min(lost) >= 0
    worst = max(range(len(lost)), key=lost.__getitem__)
    assert lost[worst] == pytest.approx(lead - info.lead[worst])


def test_the_policy_takes_the_obvious_capture_and_draws_follow_the_policy() -> None:
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
    assert {PolicyAgent(seed=s).select_move(game) for s in range(3)} == {v("G5")}
    opening = Game.new(9, komi=7)
    for m in ("E5", "C4"):
        opening.play(v(m))
    # the policy averaged over the eight symmetries (each draw sees one at random)
    (avg,) = PolicyAgent().evaluator.net.evaluate(opening, symmetry="all")
    policy = {p: float(avg.policy[policy_index(p, 9)]) for p in opening.legal_moves()}

    def draws(temperature: float) -> Counter:
        agent = PolicyAgent(temperature=temperature, seed=7)
        return Counter(agent.select_move(opening) for _ in range(200))

    warm, cool = draws(1.0), draws(0.3)
    kept = {p: x for p, x in policy.items() if x > 0.001}
    total = sum(kept.values())
    apart = 0.5 * sum(abs(warm[p] / 200 - x / total) for p, x in kept.items())
    assert len(warm) >= 4 and apart < 0.2, apart  # T = 1: the policy itself
    first = sorted(policy, key=policy.get, reverse=True)[:2]
    assert sum(cool[p] for p in first) > sum(warm[p] for p in first) and len(cool) < len(warm)
    assert PASS not in warm


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("scoreloss:strength=-1", "strength"),
        ("scoreloss:ponder=1", "ponder"),
        ("scoreloss:colour=red", "colour"),
        ("policy:temperature=-0.5", "temperature"),
        ("policy:speed=2", "speed"),
    ],
)
def test_bad_settings_are_one_line(spec: str, words: str) -> None:
    with pytest.raises(ValueError) as e:
        make_agent(spec)
    assert words in str(e.value) and "\n" not in str(e.value)


def test_beyond_the_net_is_one_line() -> None:
    for agent in (PolicyAgent(), ScoreLossAgent(visits=8)):
        with pytest.raises(ValueError, match="need the net") as e:
            agent.select_move(Game.new(5))
        assert "\n" not in str(e.value)


def test_the_dialog_offers_them_and_each_spec_builds() -> None:
    from gorilla.app.newgame import FormError, NewGameForm, player_choices
    from gorilla.app.record_info import short_player

    specs = [s for _, s in player_choices()]
    teaching = [s for s in specs if s.partition(":")[0] in ("scoreloss", "policy")]
    assert {"scoreloss:strength=0.5", "policy", "policy:temperature=1"} <= set(teaching)
    for spec in teaching:
        assert make_agent(spec).name.partition(":")[0] == spec.partition(":")[0]
    assert short_player("scoreloss:strength=0.5") == "Score loss" and short_player("policy") == "Policy"
    form = NewGameForm()
    form.set("white", "policy")
    form.set("rules", "little-go")
    form.set("size", 5)
    with pytest.raises(FormError, match="^White: policy AIs need the net"):
        form.result()
