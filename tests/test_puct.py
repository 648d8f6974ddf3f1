"""The PUCT search over the shipped KataGo net (the ``net`` agent): tree reuse, visits, cancel and
time limits measured against the machine's own speed, win rates that follow a blunder, the count
after two passes, bad settings in one line, and a short search saving the group that the raw
policy's first choice loses (a real position)."""

from __future__ import annotations

import time

import numpy as np
import pytest
from helpers import Work, game_from_diagram, seconds_to_stop_after_cancel, v

from gorilla.ai.agent import Budget, make_agent
from gorilla.ai.net import NetError
from gorilla.ai.puct.agent import NetAgent
from gorilla.ai.puct.evaluator import NetEvaluator
from gorilla.ai.puct.search import (
    Node,
    Search,
    SearchParams,
    context_key,
    lcb_of,
    pick_child,
    recompute_values,
    utility_stdev_factor,
)
from gorilla.rules.board import BLACK, PASS
from gorilla.rules.game import Game


@pytest.fixture(scope="module")
def evaluator() -> NetEvaluator:
    return NetEvaluator(seed=5)


def test_pick_child_prefers_prior_then_value() -> None:
    prior = np.array([0.6, 0.3, 0.1])
    zero = np.zeros(3)
    assert pick_child(prior, zero, zero, 0.0, 0.2, 1.0, 0.0, 0.0) == 0  # nothing visited: the likeliest
    n = np.array([10.0, 1.0, 0.0])
    u = np.array([-5.0, 0.9, 0.0])  # the first child loses, the second wins
    assert pick_child(prior, n, u, 0.0, 0.2, 1.0, 0.0, 0.0) == 1
    # an unvisited child's urgency sits below the parent's value: a good parent keeps exploring it
    half, seen = np.array([0.5, 0.5]), np.array([4.0, 0.0])
    assert pick_child(half, seen, np.array([-4.0, 0.0]), 0.9, 0.2, 1.0, 0.0, 0.0) == 1


def test_fpu_moves_toward_the_nets_own_value_while_little_prior_is_visited() -> None:
    # the node's mean utility is bad (-0.5), its own net utility good (0.5); one child visited
    n, u = np.array([1.0, 0.0]), np.array([0.0, 0.0])
    little = np.array([0.1, 0.9])  # the visited child holds 10% of the prior
    assert pick_child(little, n, u, -0.5, 0.2, 0.1, 0.0, 0.0) == 0  # plain FPU: from the bad mean
    assert pick_child(little, n, u, -0.5, 0.2, 0.1, 0.5, 0.0) == 0  # pow 0: the mean alone
    assert pick_child(little, n, u, -0.5, 0.2, 0.1, 0.5, 2.0) == 1  # weight 0.01 on the mean
    much = np.array([0.9, 0.1])  # 90% visited: the mean weighs 0.81, the urgency stays low
    assert pick_child(much, n, u, -0.5, 0.2, 0.1, 0.5, 2.0) == 0
    assert pick_child(much, n, u, 0.5, 0.2, 0.1, -0.5, 2.0) == 1  # and a good mean lifts it


def test_exploration_grows_with_the_utility_spread() -> None:
    p = SearchParams(stdev_scale=0.85)
    assert utility_stdev_factor(1, 0.3, 0.09, p) == pytest.approx(1.0)  # one visit: the prior's spread
    calm = utility_stdev_factor(100, 0.2, 100 * 0.2**2, p)  # every utility 0.2
    wild = utility_stdev_factor(100, 0.0, 100 * 0.8**2, p)  # utilities +-0.8
    assert calm < 1.0 < wild
    assert wild == pytest.approx(1 + 0.85 * (((0.16 * 2 + 64) / 101) ** 0.5 / 0.4 - 1))
    assert utility_stdev_factor(100, 0.0, 64.0, SearchParams()) == 1.0  # off by default


def _root_with(search: Search, n: list[float], mean: list[float], sd: list[float]) -> None:
    """A fake expanded root whose children have these visits, mean utilities and spreads."""
    root = Node()
    k = len(n)
    root.moves = np.arange(k, dtype=np.int32) + 30
    root.prior = np.full(k, 1.0 / k)
    root.n = np.array(n)
    root.u = root.n * np.array(mean)
    root.u2 = root.n * (np.array(mean) ** 2 + np.array(sd) ** 2)
    root.w, root.s, root.kids = np.zeros(k), np.zeros(k), [None] * k
    search.root = root


def test_lcb_prefers_the_well_visited_move_over_a_barely_visited_better_mean(evaluator) -> None:
    search = Search(evaluator)  # the default: KataGo's LCB choice, 5 standard deviations
    _root_with(search, [40.0, 7.0], [0.1, 0.3], [0.3, 0.3])
    assert search.best_move() == 30  # 7 visits of mean 0.3 do not prove more than 40 of 0.1
    _root_with(search, [40.0, 30.0], [0.0, 0.3], [0.1, 0.1])
    assert search.best_move() == 31  # 30 visits do: the bound chooses the fewer visits
    assert search.root_info().moves == [31, 30]  # the analysis lists the move played first
    search.params.lcb = 0.0
    assert search.best_move() == 30  # without LCB, the most visits
    search.params.lcb = 5.0
    _root_with(search, [40.0, 5.0], [0.0, 0.9], [0.01, 0.01])
    assert search.best_move() == 30  # under 15% of the top's visits: not a candidate
    assert lcb_of(30.0, 9.0, 30 * (0.09 + 0.01), 1.4, 5.0) == pytest.approx(
        0.3 - 5 * (0.01 / 30) ** 0.5, abs=1e-3
    )


def test_katago_score_scales_and_centre(evaluator) -> None:
    game = Game.new(19, komi=7.5)
    plain, kata = (
        Search(evaluator),
        Search(evaluator, SearchParams(static_scale=2.0, dynamic_scale=0.75, centre_zero=0.2)),
    )
    for s in (plain, kata):
        s.set_game(game)
        s.run(visits=1)
    assert kata.centre == pytest.approx(0.8 * plain.centre)
    plain.centre = kata.centre = 0.0
    # 10 points: atan(10 / 9.5) on both terms vs atan(10 / 38) and atan(10 / 14.25)
    gain_plain = plain.utility(0.5, 10.0, True) - plain.utility(0.5, 0.0, True)
    gain_kata = kata.utility(0.5, 10.0, True) - kata.utility(0.5, 0.0, True)
    f = 2 / np.pi
    assert gain_plain == pytest.approx(0.4 * f * np.arctan(10 / 9.5))
    assert gain_kata == pytest.approx(0.1 * f * np.arctan(10 / 38) + 0.3 * f * np.arctan(10 / 14.25))
    # the blur: over a wide score spread a lead is worth less, the sign kept; no spread, no change
    kata.params.score_blur = 1.0
    blurred = kata.utility(0.5, 10.0, True, stdev=20.0) - kata.utility(0.5, 0.0, True, stdev=20.0)
    assert 0.0 < blurred < gain_kata
    assert kata.utility(0.5, 10.0, True, stdev=0.0) - kata.utility(0.5, 0.0, True) == pytest.approx(gain_kata)
    assert kata.utility(0.5, -10.0, True, stdev=20.0) == pytest.approx(
        -kata.utility(0.5, 10.0, True, stdev=20.0)
    )


def _recompute(cu: list[float], real: list[float], prior: list[float], prune: float, exp: float):
    r, c = np.array(real), np.array(cu)
    zero = np.zeros(len(cu))
    p = np.array(prior)
    su, _, _, su2, total, _ = recompute_values(p, r, c, zero, zero, r * c * c, r.copy(), prune, exp)
    # the node's own evaluation (utility 0) counts with weight 1
    return su / (total + 1), 0.0, 0.0, su2 / (total + 1), total + 1


def test_recomputed_values_lean_to_the_better_children() -> None:
    # off: the plain mean of the children's means (by visits) and the node's own evaluation (0)
    u, _, _, u2, wsum = _recompute([0.4, -0.2], [30.0, 10.0], [0.5, 0.5], 0.0, 0.0)
    assert u == pytest.approx((30 * 0.4 - 10 * 0.2) / 41) and wsum == 41.0
    assert u2 == pytest.approx((30 * 0.16 + 10 * 0.04) / 41)
    # value weighting: the worse child counts less, the total weight stays
    weighted, _, _, _, wsum2 = _recompute([0.4, -0.2], [30.0, 10.0], [0.5, 0.5], 0.0, 0.25)
    assert u < weighted < 0.4 * 30 / 41 and wsum2 == 41.0
    # noise pruning: a worse child with far more than its policy share loses weight; with its
    # share (or better than the children before it) it keeps all
    pruned = _recompute([0.4, -0.2], [10.0, 30.0], [0.9, 0.1], 0.15, 0.0)
    plain = _recompute([0.4, -0.2], [10.0, 30.0], [0.9, 0.1], 0.0, 0.0)
    assert pruned[0] > plain[0] and pruned[4] < plain[4]
    fair = _recompute([0.4, -0.2], [10.0, 30.0], [0.1, 0.9], 0.15, 0.0)
    assert fair[0] == pytest.approx(plain[0]) and fair[4] == plain[4]
    better = _recompute([-0.2, 0.4], [10.0, 30.0], [0.9, 0.1], 0.15, 0.0)
    assert better[4] == plain[4]


def test_a_reused_tree_is_recomputed_for_the_new_score_centre(evaluator) -> None:
    game = Game.new(9, komi=7.5)
    game.play(v("E5"))
    search = Search(evaluator, SearchParams(), seed=1)
    search.set_game(game)
    search.run(visits=80)
    root = search.root
    before = (root.u_sum, root.avg_w, root.avg_s, root.u.copy(), root.n.copy())
    search._refresh(root, True)  # the same centre: the same values
    assert root.u_sum == pytest.approx(before[0]) and root.avg_w == pytest.approx(before[1])
    assert np.allclose(root.u, before[3]) and np.array_equal(root.n, before[4])
    search.centre += 5.0  # a centre 5 points higher: every lead is worth less to the root's side
    search._refresh(root, True)
    assert root.u_sum < before[0]
    assert root.avg_w == pytest.approx(before[1], abs=0.01)  # win rates move only through the weights
    # a move played and answered: the new root's centre is the tree's searched lead, not the net's
    reply = search.root_info().moves[0]
    kid = root.kids[int(np.flatnonzero(root.moves == reply)[0])]
    best = kid.moves[int(np.argmax(kid.n))]
    grandchild = kid.kids[int(np.argmax(kid.n))]
    game.play(reply)
    game.play(int(best))
    assert search.set_game(game) == grandchild.visits > 1
    assert search.centre == pytest.approx(grandchild.avg_s, abs=0.01)  # (taken before the refresh)


def test_subtree_value_bias_shares_a_contexts_search_error(evaluator) -> None:
    # the same last two moves and the same 5x5 around the move: one context, wherever the rest differs
    a, b = Game.new(19), Game.new(19)
    for g, far in ((a, "Q16"), (b, "D16")):
        for vertex in (far, "D4", "C3"):
            g.play(v(vertex, 19))
    assert context_key(a, v("D3", 19)) == context_key(b, v("D3", 19))
    assert context_key(a, v("D3", 19)) != context_key(a, v("C4", 19))  # another move
    b.play(v("E3", 19))
    b.play(v("F3", 19))  # another previous move
    assert context_key(a, v("D3", 19)) != context_key(b, v("D3", 19))
    search = Search(evaluator, SearchParams(subtree_bias=0.5))
    first, second = Node(), Node()
    first.sv_key = second.sv_key = 7
    first.nn_u, second.nn_u = 0.1, -0.3
    assert search._subtree_bias(second, None, 0.0) == 0.0  # nothing known of the context yet
    # the first node's children found it 0.2 better than its net said, over weight 4 ** 0.85
    assert search._subtree_bias(first, 0.3, 4.0) == pytest.approx(0.5 * 0.2)
    assert search._subtree_bias(second, None, 0.0) == pytest.approx(0.1)  # a fresh node shares it
    # the first node's share is replaced, not added, when its children's value changes
    assert search._subtree_bias(first, 0.1, 4.0) == pytest.approx(0.0)
    assert search.sv_table[7][1] == pytest.approx(4.0**0.85)


def test_the_recomputed_backup_is_the_plain_one_when_its_weights_are_flat(evaluator) -> None:
    game = Game.new(9)
    game.play(v("E5"))
    runs = []
    plain = SearchParams(value_weight=0.0, noise_prune=0.0)
    flat = SearchParams(value_weight=1e-12, noise_prune=0.0)
    for params in (plain, flat):
        evaluator.reseed(3)
        search = Search(evaluator, params, seed=1)
        search.set_game(game)
        search.run(visits=60)
        info = search.root_info()
        runs.append((info.moves, info.visits, info.winrate, search.root_value()))
    (m1, n1, w1, r1), (m2, n2, w2, r2) = runs
    assert m1 == m2 and n1 == n2
    assert w1 == pytest.approx(w2) and r1 == pytest.approx(r2)
    # and KataGo's weights change the search, its root value still a win rate and a lead
    evaluator.reseed(3)
    kata_params = SearchParams(batch=4, value_weight=0.25, noise_prune=0.15, subtree_bias=0.45)
    kata = Search(evaluator, kata_params, seed=1)
    kata.set_game(game)
    kata.run(visits=60)
    wr, lead, util = kata.root_value()
    assert 0.0 <= wr <= 1.0 and abs(lead - r1[1]) < 5.0 and kata.root.visits == 60
    assert kata.sv_table  # the contexts met on the way


def test_pondering_searches_the_replies_and_the_next_move_reuses_them() -> None:
    agent = NetAgent(visits=24, resign=0.0, seed=2, ponder=1)
    game = Game.new(9)
    move = agent.select_move(game)
    value, own = agent.root_value(), agent.ownership()
    deadline = time.monotonic() + 20.0
    while agent.search.root.visits < 60 and time.monotonic() < deadline:
        time.sleep(0.05)  # the background search grows the tree of the position after move
    # what the last search reported stays that search's, while the pondering runs
    assert agent.root_value() == value and agent.ownership() is own
    added = agent.stop_pondering()
    assert added >= 36 and agent.search.game.moves[-1].point == move
    reply = agent.search.root_info().moves[0]  # the reply the pondering searched most
    kept = agent.search.root_info().visits[0]
    game.play(move)
    game.play(reply)
    agent.select_move(game)
    assert agent.last_visits >= kept  # the reply's subtree was reused (24 visits asked)
    agent.close()
    assert agent.stop_pondering() == 0  # closed: nothing runs
    plain = NetAgent(visits=24, resign=0.0, seed=2)
    plain.select_move(Game.new(9))
    assert plain.stop_pondering() == 0


def test_visits_are_counted_at_the_root_and_the_tree_is_reused(evaluator) -> None:
    game = Game.new(9)
    search = Search(evaluator, SearchParams(batch=4), seed=1)
    assert search.set_game(game) == 0
    added = search.run(visits=40)
    assert search.root.visits == 40 and added == 40
    info = search.root_info()
    assert sum(info.visits) == 39  # every visit but the root's own evaluation went to a child
    best, kept = info.moves[0], info.visits[0]
    game.play(best)
    assert search.set_game(game) == kept  # the subtree of the move played, with its visits
    search.run(visits=kept + 8)
    assert search.root.visits == kept + 8
    # a position the tree never saw starts afresh
    other = Game.new(9)
    other.play(v("A1"))
    assert search.set_game(other) == 0


def test_agent_plays_a_legal_move_and_reports_candidates(evaluator) -> None:
    agent = make_agent("net:visits=24,batch=4,seed=3")
    assert isinstance(agent, NetAgent)
    game = Game.new(9)
    move = agent.select_move(game)
    assert game.is_legal(move) and agent.last_visits == 24
    cands = agent.last_candidates
    assert cands[0].move == move and sum(c.visits for c in cands) == 23
    assert all(0.0 <= c.winrate <= 1.0 and 0.0 <= c.prior <= 1.0 and c.pv[0] == c.move for c in cands)
    assert [c.visits for c in cands] == sorted((c.visits for c in cands), reverse=True)
    own = agent.ownership()
    assert own is not None and own.shape[0] >= 121 and np.all(np.abs(own) <= 1.0)


def test_a_blunder_moves_the_win_rate_the_right_way(evaluator) -> None:
    # Black's first move: the centre, or the corner point A1 (a wasted move)
    rates = {}
    for first in ("E5", "A1"):
        game = Game.new(9, komi=7.5)
        game.play(v(first))
        search = Search(evaluator, SearchParams(batch=8), seed=2)
        search.set_game(game)
        search.run(visits=32)
        rates[first], lead, _ = search.root_value()  # White to move: White's view
        assert 0.0 < rates[first] < 1.0 and (lead > 0) == (rates[first] > 0.5) or abs(lead) < 2
    assert rates["A1"] > rates["E5"] + 0.1
    assert rates["A1"] > 0.5


def test_two_passes_end_the_line_with_the_count(evaluator) -> None:
    # everything is settled: Black's walled area (4 columns) is smaller than White's (5) with komi
    diagram = """
        ...XO....
        ...XO....
        ...XO....
        ...XO....
        ...XO....
        ...XO....
        ...XO....
        ...XO....
        ...XO....
    """
    game = game_from_diagram(diagram, BLACK, komi=7.5)
    game.play(PASS)  # Black passed: a pass by White ends the game
    search = Search(evaluator, SearchParams(batch=4), seed=3)
    search.set_game(game)
    search.run(visits=32)
    info = search.root_info()
    passed = info.moves.index(PASS) if PASS in info.moves else None
    assert passed is not None, "White's winning pass was never tried"
    # after both passes White wins by its area (4 columns + the wall: 45) less Black's (36) plus komi
    assert info.winrate[passed] == pytest.approx(1.0)
    assert info.lead[passed] == pytest.approx(45 - 36 + 7.5)


def test_cancel_and_time_answer_within_a_batch(evaluator) -> None:
    game = Game.new(9)
    # the machine's own speed: how long one batch takes here now
    # (seconds of work, see helpers.Work: a busy machine stretches none of them)
    with Work() as one:
        evaluator.evaluate_games([game] * 4)
    batch = one.seconds
    agent = NetAgent(batch=4, seed=1)
    move, late = seconds_to_stop_after_cancel(
        lambda cancel: agent.select_move(game, Budget(playouts=10**9), cancel), after=0.5
    )
    assert game.is_legal(move)
    assert late < 0.2 + 2 * batch, f"answered {late:.2f} s after the cancel (a batch takes {batch:.2f} s)"
    with Work() as search:
        agent.select_move(game, Budget(seconds=0.4))
    over = search.seconds - 0.4
    assert over < 0.2 + 2 * batch, f"{over:.2f} s over the time (a batch takes {batch:.2f} s)"


def test_bad_settings_and_files_are_one_line(tmp_path) -> None:
    for spec, why in (
        ("net:visits=0", "visits must be positive"),
        ("net:threads=40", "threads must be 1..16"),
        ("net:bogus=1", "unknown setting 'bogus'"),
    ):
        with pytest.raises(ValueError, match=why) as e:
            make_agent(spec)
        assert "\n" not in str(e.value)
    bad = tmp_path / "net.bin.gz"
    bad.write_bytes(b"not a net")
    with pytest.raises(NetError) as e:
        make_agent(f"net:net={bad}")
    assert "\n" not in str(e.value) and "gzip" in str(e.value)


def test_boards_the_net_does_not_play_go_to_the_mcts_with_one_line(capsys) -> None:
    agent = NetAgent(visits=30)
    for game in (Game.new(21), Game.new(5, "little-go")):
        move = agent.select_move(game)
        assert game.is_legal(move) or move == PASS
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "21x21 is beyond the net" in err[0] and "MCTS" in err[0]
    agent.close()


# A real position (rank:10k, Black, against GNU Go level 1, 9x9, move 21): White's stones on the
# right (H7, H5, H4) have one eye's worth of room. The net's first choice is B6, a big point on
# the left; Black then plays G3 and the right-side group dies. A search of 150 visits finds a
# move that keeps it (G3 itself, or F2 or E3 on some seeds: each leaves White the group).
SAVE_LINE = "E5 C4 D3 D6 F4 G6 F7 H4 G7 C3 D5 H7 C5 C6 B5 D8 G5 H5 F6 D2 E8"
RIGHT_GROUP = ("H7", "H5", "H4")


def _group_owner_after(game: Game, move: int) -> float:
    """Black's mean ownership of White's right group after move and Black's searched reply."""
    from gorilla.ai.puct.estimate import net_view
    from gorilla.ai.puct.search import board_points

    after = game.copy()
    after.play(move)
    after.play(NetAgent(visits=64, resign=0.0, seed=1).select_move(after))
    own = np.zeros(after.position.b.shape[1])
    own[board_points(9)] = net_view(after).ownership
    return float(np.mean([own[v(p)] for p in RIGHT_GROUP]))


def test_a_short_search_saves_the_group_the_policys_first_choice_loses() -> None:
    from gorilla.ai.puct.evaluator import shared_net

    game = Game.new(9, komi=7.5)
    for m in SAVE_LINE.split():
        game.play(v(m))
    (raw,) = shared_net().evaluate([game], symmetry="all")
    first = raw.best(1)[0][0]
    assert first == v("B6")  # the raw policy's favourite, eight symmetries averaged
    assert _group_owner_after(game, first) > 0.0  # ... after which Black owns the group more than White
    for seed in (1, 2):
        move = NetAgent(visits=150, resign=0.0, seed=seed).select_move(game)
        assert move != first
        assert _group_owner_after(game, move) < -0.2, f"seed {seed}: {move}"  # White keeps it
