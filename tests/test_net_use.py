"""The net behind everything that shows an evaluation: the ownership overlay (o), the policy heat
map (f), the evaluator (e), the dead stones at the end and GTP's final_status_list / final_score,
with the classical estimate where the net does not play the board."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import game_from_diagram, v

from gorilla.ai import evaluator
from gorilla.ai.agent import Budget
from gorilla.ai.ownership import estimated_dead_stones
from gorilla.ai.ownership import net_dead_stones as dead_stones
from gorilla.ai.puct.estimate import ownership_grid, policy_map
from gorilla.ai.random_agent import RandomAgent
from gorilla.app.feed import Feed
from gorilla.app.go.overlays import Overlays
from gorilla.gtp.main import make_engine
from gorilla.rules.board import WHITE
from gorilla.rules.coords import format_vertex
from gorilla.rules.game import Game

# A finished 9x9 game: Black walls off the left (columns A-D), White the right (F-J).
# White's three stones B7 B6 C6 sit in Black's area without room for two eyes: dead.
FINISHED = """
. . . X O . . . .
. . . X O . . . .
. O . X O . . . .
. O O X O . . . .
. . . X O . . . .
. . . X O . . . .
. . . X O . . . .
. . . X O . . . .
. . . X O . . . .
"""

# Black's corner territory (bottom left) and White's (top right), both walled in.
CORNERS = """
. . . . . O . . .
. . . . . O . . .
. . . . . O . . .
. . . . . O O O O
X X X X . . . . .
. . . X . . . . .
. . . X . . . . .
. . . X . . . . .
. . . X . . . . .
"""


def finished(diagram: str, komi: float = 7.5) -> Game:
    game = game_from_diagram(diagram, komi=komi)
    game.pass_move()
    game.pass_move()
    return game


def names(points, size: int = 9) -> set[str]:
    return {format_vertex(p, size) for p in points}


def test_final_status_list_names_the_dead_group_and_final_score_removes_it() -> None:
    e = make_engine(finished(FINISHED), RandomAgent(seed=1), with_analysis=False)

    def gtp(line: str) -> str:
        resp = e.execute(line)
        assert resp is not None and resp.startswith("="), resp
        return resp[1:].strip()

    assert set(gtp("final_status_list dead").split()) == {"B7", "B6", "C6"}
    alive = set(gtp("final_status_list alive").split())
    assert {"D5", "E5"} <= alive and not alive & {"B7", "B6", "C6"}
    assert gtp("final_status_list seki") == ""
    # Black: 36 points (A-D), White: 45 (E-J) + 7.5 komi
    assert gtp("final_score") == "W+16.5"


def test_dead_stones_by_the_net_keep_a_live_group_alive() -> None:
    game = finished(FINISHED)
    assert names(dead_stones(game)) == {"B7", "B6", "C6"}
    assert names(estimated_dead_stones(game)) == {"B7", "B6", "C6"}  # the net plays 9x9
    wall = finished(FINISHED.replace("O . X", ". . X").replace("O O X", ". . X"))
    assert dead_stones(wall) == []


def test_little_go_falls_back_to_the_playouts() -> None:
    # 5x5 under Little-Go's count is beyond the net: the playouts' estimate answers
    game = Game.new(5, "little-go")
    for p in ("C1", "D1", "C2", "D2", "C3", "D3", "C4", "D4", "C5", "D5"):
        game.play(v(p, 5))
    game.pass_move()
    game.play(v("A3", 5))  # White's lone stone in Black's area
    game.pass_move()
    game.pass_move()
    with pytest.raises(ValueError, match="does not play"):
        dead_stones(game)
    assert estimated_dead_stones(game, playouts=64) == sorted(v(p, 5) for p in ("A3",))


def test_net_ownership_gives_black_its_surrounded_corner() -> None:
    game = game_from_diagram(CORNERS, to_move=WHITE)
    for visits in (0, 16):
        own = ownership_grid(game, visits=visits)  # -1 Black .. +1 White, row 0 on top
        assert own.shape == (9, 9) and np.all(np.abs(own) <= 1.0)
        assert own[7, 1] < -0.5, visits  # B2, inside Black's corner
        assert own[1, 7] > 0.5, visits  # H8, inside White's
    overlays = Overlays(lambda group: True, Feed(), lambda: (game, 1))
    shown = overlays.ownership_map()
    assert shown[7, 1] < -0.5 and shown[1, 7] > 0.5
    assert overlays.ownership_map() is shown  # cached for the position


def test_the_heat_map_is_the_nets_policy() -> None:
    game = Game.new(9)
    for p in ("E5", "D3"):
        game.play(v(p))
    probs = policy_map(game)
    assert set(probs) <= set(game.legal_moves()) and len(probs) >= 70
    assert 0.95 <= sum(probs.values()) <= 1.0001
    assert v("E5") not in probs and v("D3") not in probs
    shown = Overlays(lambda group: True, Feed(), lambda: (game, 1)).policy_map()
    assert shown == probs
    # while the net's kernels compile, nothing yet
    assert Overlays(lambda group: group != "net", Feed(), lambda: (game, 1)).policy_map() == {}


def test_the_evaluator_falls_back_where_the_net_does_not_play_and_keeps_pvs() -> None:
    assert evaluator.engine_for(Game.new(9), "net") == ("net", "")
    engine, why = evaluator.engine_for(Game.new(5, "little-go"), "net")
    assert engine == "mcts" and "net does not play" in why and "\n" not in why
    assert evaluator.engine_for(Game.new(25), "flat") == ("flat", "")
    with pytest.raises(ValueError, match="unknown"):
        evaluator.engine_for(Game.new(9), "oracle")
    game = Game.new(9)
    game.play(v("E5"))
    ev = evaluator.evaluate(game, "net", budget=Budget(playouts=24), seed=1)
    assert ev.best in ev.values and ev.pvs[ev.best][0] == ev.best
    assert all(pv and pv[0] == m for m, pv in ev.pvs.items())


NEW_NETS = (
    "b7c96h6kv3qk32v16tflrs-fson-bnh.bin.gz",
    "b7c96h3tfrs-test5-cnorm.bin.gz",
    "b10c384h6nbttflrs.bin.gz",
)


@pytest.mark.parametrize("name", NEW_NETS)
def test_a_transformer_net_plays_and_analyses_through_the_net_agent(name: str) -> None:
    """Model versions 15 and 17 (transformer blocks) behind the search: ``net:net=FILE`` plays a
    legal move, its candidates carry the net's scores, and GTP's kata-raw-nn of ``--net FILE``
    is that net's evaluation."""
    from test_net import find_net

    from gorilla.ai.agent import make_agent
    from gorilla.ai.net import load_net
    from gorilla.gtp.main import engine_from_args

    path = find_net(name)
    if path is None:
        pytest.skip(f"{name} is not here (tests/data/net, GORILLA_NETS, shared/nets)")
    game = Game.new(9, "chinese", 7.5)
    for m in ("E5", "C4", "G4"):
        game.play(v(m))
    agent = make_agent(f"net:net={path},visits=12,seed=3,resign=0")
    assert agent.evaluator.net.model.version in (15, 17)
    move = agent.select_move(game.copy(), Budget(playouts=12))
    assert game.is_legal(move)
    cands = agent.analyze(game.copy(), Budget(playouts=12))
    assert cands and sum(c.visits for c in cands) >= 10 and all(abs(c.score) < 40 for c in cands)
    engine = engine_from_args(["--size", "9", "--komi", "7.5", "--net", str(path), "--ai", "net:visits=4"])
    for line in ("play b E5", "play w C4", "play b G4"):
        assert engine.execute(line).startswith("=")
    answer = engine.execute("kata-raw-nn 0")
    [ev] = load_net(path).evaluate([game], 0)
    assert f"whiteWin {ev.for_white().winrate:.6f}" in answer


def test_a_search_that_visits_no_child_plays_the_policys_move_not_a_pass() -> None:
    """A slow net under a short budget may evaluate only the root: the move is then the net's
    likeliest, as the policy alone would play (it used to be a pass)."""
    from gorilla.ai.agent import make_agent
    from gorilla.ai.net import load_net, point_of
    from gorilla.rules.board import PASS

    game = Game.new(9, "chinese", 7.5)
    game.play(v("E5"))
    agent = make_agent("net:visits=1,seed=5,resign=0")
    move = agent.select_move(game.copy(), Budget(playouts=1))
    assert agent.last_visits == 1 and agent.last_candidates == []
    [ev] = load_net().evaluate([game], "all")
    top3 = [point_of(int(i), 9) for i in np.argsort(-ev.policy)[:3]]
    assert move != PASS and move in top3
