"""The Gomoku engine: VCF and VCT wins found and played out, lost positions recognised,
fours blocked, renju's forbidden points never played, and the agents' ladder basics."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import Work, gomoku_position

from gorilla.gomoku import rules as R
from gorilla.gomoku import search as S
from gorilla.gomoku.agents import AGENTS, WEIGHT_KEYS, board_for, make_agent, parse_agent_spec
from gorilla.gomoku.game import GomokuGame
from gorilla.gomoku.vcf import five_points, new_state

FAR_WHITE = [(0, 14), (14, 14), (14, 0), (0, 0), (2, 13), (13, 2), (1, 12), (12, 1)]


position = gomoku_position


def vcf_position(rule="freestyle") -> GomokuGame:
    """Black to move wins by fours: (8, 6) makes a four (White must take (9, 6)), then (8, 5)
    makes two fours (and (7, 7) makes a four and an open four on the diagonal)."""
    black = [(5, 5), (6, 5), (7, 5), (5, 6), (6, 6), (7, 6), (8, 7), (8, 8)]
    white = [(4, 5), (4, 6), (8, 9)] + FAR_WHITE[:5]
    return position(black, white, rule)


def play_out_vcf(game: GomokuGame, attacker: int, state) -> int:
    """Play the solver's fours and the forced blocks until the game ends; returns the number
    of attacking moves. Fails if a defence is ever not forced."""
    fp = np.empty(4, dtype=np.int32)
    for k in range(1, 30):
        mv = S.solve_vcf(game.bd, state, attacker)
        assert mv >= 0
        assert S.makes_four(game.bd[3][attacker, mv])  # every attacking move is a four
        if game.play(mv, attacker):
            return k
        n = five_points(game.bd, attacker, fp)
        assert n >= 1, "a VCF move must threaten five"
        game.play(int(fp[0]), 3 - attacker)
    raise AssertionError("VCF never ended")


@pytest.mark.parametrize("rule", ["freestyle", "standard", "renju", "caro"])
def test_vcf_found_and_played_out(rule):
    g = vcf_position(rule)
    st = new_state(12)
    k = play_out_vcf(g, R.BLACK, st)
    assert g.result.winner == R.BLACK and k >= 2


def test_vcf_absent_for_the_defender_and_when_blocked():
    g = vcf_position()
    st = new_state(12)
    assert S.solve_vcf(g.bd, st, R.WHITE) == -1
    # a lone closed three: one four, blocked, and nothing follows
    g2 = position([(5, 5), (6, 5), (7, 5), (9, 9)], [(4, 5), (0, 0), (14, 14)])
    assert S.solve_vcf(g2.bd, st, R.BLACK) == -1
    # a second closed three crossing it makes (9, 5) a double four
    g3 = position(
        [(5, 5), (6, 5), (7, 5), (9, 6), (9, 7), (9, 8)], [(4, 5), (9, 9), (0, 0), (14, 14), (0, 14)]
    )
    assert S.solve_vcf(g3.bd, st, R.BLACK) >= 0


def vct_position() -> GomokuGame:
    """Black to move: (8, 7) makes two open threes (no four anywhere): a VCT, not a VCF."""
    black = [(6, 7), (7, 7), (8, 5), (8, 6)]
    return position(black, FAR_WHITE[:4])


def test_vct_found_where_no_vcf_exists():
    g = vct_position()
    st = new_state(14)
    assert S.solve_vcf(g.bd, st, R.BLACK) == -1
    mv = S.solve_vct(g.bd, st, R.BLACK)
    assert mv >= 0
    g.play(mv)
    # independent check: White to move is lost (PVS sees Black's open four coming)
    res = S.search(R.copy_board(g.bd), new_state(16), R.WHITE, seconds=5.0, max_depth=5)
    assert res.lost


def test_vct_sees_through_the_defenders_four_answered_by_a_quiet_block():
    # Black's (8, 7) makes two open threes; White's best try is its four on column 12, whose
    # block at (12, 14) or (12, 13) makes nothing for Black: the threes still stand and win
    black = [(6, 7), (7, 7), (8, 5), (8, 6), (12, 9)]
    white = [(12, 10), (12, 11), (12, 12), (0, 0), (14, 0)]
    g = position(black, white)
    st = new_state(14)
    assert S.solve_vcf(g.bd, st, R.BLACK) == -1
    mv = S.solve_vct(g.bd, st, R.BLACK)
    assert mv >= 0
    g.play(mv)
    four = g.point(12, 13)
    g.play(four)  # White's four first
    fp = np.empty(4, dtype=np.int32)
    assert five_points(g.bd, R.WHITE, fp) == 1
    g.play(int(fp[0]))  # the quiet block
    # independent check: White to move is lost (the PVS sees Black's open four coming)
    res = S.search(R.copy_board(g.bd), new_state(16), R.WHITE, seconds=5.0, max_depth=5)
    assert res.lost


def test_search_with_threats_plays_the_vct_win():
    g = vct_position()
    res = make_agent("pvs+vct").select(g, 2.0)
    assert res.source in ("pvs", "vct", "vcf") and res.won  # the PVS before the VCT may see it first
    g.play(res.move)
    assert S.search(R.copy_board(g.bd), new_state(16), R.WHITE, seconds=5.0, max_depth=5).lost


def test_root_vct_runs_after_a_full_pvs(monkeypatch: pytest.MonkeyPatch):
    # pvs+vct used to run its root VCT before the PVS, in a quarter of the move's time, so its
    # PVS searched shallower than plain pvs's (and it lost to pvs); now the PVS runs as in pvs
    # and the VCT gets the time it leaves. At depth 1 the PVS (without its double-three rule)
    # cannot see the double three's win: the search reports its PVS iteration, then plays the
    # VCT's move. With the rule, the PVS's first iteration sees it.
    g = vct_position()
    res = S.search(R.copy_board(g.bd), new_state(14), R.BLACK, 2.0, max_depth=1, threats=True)
    assert res.source == "pvs" and res.won and res.depth == 1
    monkeypatch.setattr(S, "DOUBLE_THREE_WIN", False)
    seen = []
    res = S.search(
        R.copy_board(g.bd), new_state(14), R.BLACK, 2.0, max_depth=1, threats=True, on_depth=seen.append
    )
    assert [r.depth for r in seen] == [1] and not seen[0].won
    assert res.source == "vct" and res.won and res.depth == 1
    assert res.move == S.solve_vct(g.bd, new_state(14), R.BLACK)


def test_a_move_that_gives_the_opponent_a_vct_is_not_played(monkeypatch: pytest.MonkeyPatch):
    # from a pvs+vct vs pvs game: White to move; the PVS (depth 4, without the open-three
    # offset) plays (7, 9), after which Black wins by threes and fours, and pvs+vct used to play
    # it too; now it checks its move against the opponent's VCF/VCT and plays the first of the
    # PVS's root moves that gives none
    g = GomokuGame(15)
    for xy in ((7, 7), (9, 9), (9, 5), (8, 8), (5, 9), (8, 6), (8, 5)):
        g.play_xy(*xy)
    c = g.to_move

    def opponent_wins(p: int) -> bool:
        h = g.copy()
        h.play(p)
        st = new_state(16)
        return S.solve_vcf(h.bd, st, 3 - c) >= 0 or S.solve_vct(h.bd, st, 3 - c, 5, 12, 400_000) >= 0

    # with the open-three offset at its leaves the PVS alone already plays a safe move here
    plain = S.search(R.copy_board(g.bd), new_state(16), c, 60.0, max_depth=4, node_limit=100_000)
    assert S.F4_OFFSET > 0 and not opponent_wins(plain.move)
    # without it, the PVS's move loses: the checks below must replace it
    monkeypatch.setattr(S, "F4_OFFSET", 0)
    plain = S.search(R.copy_board(g.bd), new_state(16), c, 60.0, max_depth=4, node_limit=100_000)
    assert g.xy(plain.move) == (7, 9) and opponent_wins(plain.move)
    # each iteration's move is checked (AIWine's checkOppVct): the PVS itself plays another
    st = new_state(16)
    res = S.search(R.copy_board(g.bd), st, c, 60.0, max_depth=4, node_limit=100_000, threats=True)
    assert res.source == "pvs" and res.move != plain.move and not opponent_wins(res.move)
    assert st[16][plain.move] != 0  # banned at the root
    # without those checks, the check of the final move replaces it
    monkeypatch.setattr(S, "CHECK_EACH_ITERATION", False)
    res = S.search(R.copy_board(g.bd), new_state(16), c, 60.0, max_depth=4, node_limit=100_000, threats=True)
    assert res.source == "defence" and res.move != plain.move and not opponent_wins(res.move)


def test_lost_positions_are_recognised():
    # White to move against an open four: lost at once
    g = position([(5, 7), (6, 7), (7, 7), (8, 7)], FAR_WHITE[:3])
    assert g.to_move == R.WHITE
    assert S.search(R.copy_board(g.bd), new_state(14), R.WHITE, seconds=2.0).lost
    # White to move against two open threes (White has no four): lost a few plies on
    g = position([(6, 7), (7, 7), (8, 7), (10, 4), (10, 5), (10, 6)], FAR_WHITE[:6])
    res = S.search(R.copy_board(g.bd), new_state(16), R.WHITE, seconds=5.0, max_depth=6)
    assert res.lost
    # ... but not when White has a four of its own to start a counterattack that wins
    g = position(
        [(6, 7), (7, 7), (8, 7), (10, 4), (10, 5), (10, 6), (1, 1)],
        [(2, 2), (3, 2), (4, 2), (5, 2)] + FAR_WHITE[:3],
    )
    res = S.search(R.copy_board(g.bd), new_state(16), R.WHITE, seconds=2.0)
    assert res.won and g.xy(res.move) in ((1, 2), (6, 2))


@pytest.mark.parametrize("agent", ["threat1", "pvs", "pvs+vct", "mcts"])
def test_blocks_a_four(agent):
    # White threatens five at (9, 7) (closed four); Black has nothing better
    g = position([(4, 7), (2, 2), (12, 12), (3, 11)], [(5, 7), (6, 7), (7, 7), (8, 7)])
    assert g.to_move == R.BLACK
    res = make_agent(agent).select(g, 0.5)
    assert g.xy(res.move) == (9, 7)


@pytest.mark.parametrize("agent", ["threat1", "pvs", "pvs+vct", "mcts"])
def test_wins_rather_than_blocks(agent):
    g = position([(4, 3), (5, 3), (6, 3), (7, 3), (0, 0)], [(5, 7), (6, 7), (7, 7), (8, 7), (4, 7)])
    res = make_agent(agent).select(g, 0.5)
    assert g.xy(res.move) in ((3, 3), (8, 3))


@pytest.mark.parametrize("agent", ["pvs", "pvs+vct", "mcts"])
def test_blocks_an_open_three(agent):
    g = position([(6, 7), (7, 7), (8, 7)], [(1, 1), (13, 13)])
    assert g.to_move == R.WHITE
    res = make_agent(agent).select(g, 1.0)
    assert g.xy(res.move) in ((5, 7), (9, 7), (4, 7), (10, 7))


@pytest.mark.parametrize("agent", ["threat1", "pvs", "pvs+vct", "mcts"])
def test_renju_black_never_plays_a_forbidden_point(agent):
    # (7, 7) makes a real double three: the best point by threat, but forbidden for Black
    g = position([(5, 7), (6, 7), (7, 5), (7, 6)], [(0, 0), (14, 14), (0, 14), (14, 0)], "renju")
    assert R.is_forbidden(g.bd, g.point(7, 7))
    res = make_agent(agent).select(g, 0.5)
    assert res.move != g.point(7, 7) and R.legal(g.bd, res.move, R.BLACK)
    if agent == "mcts":
        return  # half a second of MCTS does not reliably find the double three in freestyle
    free = position([(5, 7), (6, 7), (7, 7 - 2), (7, 6)], [(0, 0), (14, 14), (0, 14), (14, 0)])
    assert free.xy(make_agent(agent).select(free, 0.5).move) == (7, 7)


# From a CI game (mcts vs pvs, renju): White's four on the diagonal is blocked only at (5, 7),
# which is forbidden for Black. The loss is certain, but Black's move must still be legal.
FORBIDDEN_BLOCK_GAME = [(7, 7), (6, 6), (7, 8), (7, 9), (5, 9), (6, 8), (5, 10), (6, 9), (6, 10)]
FORBIDDEN_BLOCK_GAME += [(6, 5), (6, 7), (8, 10), (9, 11), (4, 6)]


@pytest.mark.parametrize("agent", AGENTS)
def test_renju_black_whose_only_block_is_forbidden_still_plays_legally(agent):
    g = GomokuGame(15, "renju")
    for xy in FORBIDDEN_BLOCK_GAME:
        g.play(g.point(*xy))
    block = g.point(5, 7)
    assert g.to_move == R.BLACK and R.is_forbidden(g.bd, block)
    buf = np.empty(4, dtype=np.int32)
    assert [int(p) for p in buf[: five_points(g.bd, R.WHITE, buf)]] == [block]
    res = make_agent(agent, seed=1).select(g, 0.2)
    assert res.move != block and g.is_legal(res.move)


def test_renju_games_between_agents_stay_legal():
    for black, white in (("pvs", "threat1"), ("threat1", "random"), ("mcts", "pvs")):
        g = GomokuGame(15, "renju")
        agents = {R.BLACK: make_agent(black, seed=3), R.WHITE: make_agent(white, seed=4)}
        while not g.over and len(g.moves) < 40:
            mv = agents[g.to_move].select(g, 0.05).move
            assert g.is_legal(mv)
            g.play(mv)  # raises on a forbidden point


def test_agents_and_time_budget():
    assert set(AGENTS) == {"random", "threat1", "pvs", "pvs+vct", "mcts"}
    with pytest.raises(ValueError, match="unknown gomoku agent"):
        make_agent("alphazero")
    g = GomokuGame(15)
    for name in AGENTS:
        assert make_agent(name, seed=1).select(g, 0.05).move == g.point(7, 7)
    assert S.time_budget(5000, None, 0, 225) == pytest.approx(4.92)
    assert S.time_budget(5000, 10_000, 0, 225) < 1.0
    assert S.time_budget(0, None, 0, 225) <= 0.05
    assert S.time_budget(None, None, 0, 225) > 0


def test_search_respects_its_time():
    g = position([(7, 7), (8, 8)], [(7, 8)])
    with Work() as work:  # seconds of work: a busy machine stretches the wall clock, not this
        res = make_agent("pvs").select(g, 0.3)
    assert work.seconds < 1.0 and res.depth >= 1 and res.nodes > 0 and g.is_legal(res.move)


def test_mcts_plays_the_open_four_and_shows_its_line():
    # White to move: its three becomes an open four (a win) even though Black has an open three
    g = position([(2, 2), (3, 2), (4, 2), (12, 12)], [(2, 4), (3, 4), (4, 4)])
    assert g.to_move == R.WHITE
    seen: list[S.SearchResult] = []
    res = make_agent("mcts", seed=5).select(g, 1.0, seen.append)
    assert g.xy(res.move) in ((1, 4), (5, 4)) and res.score > 0 and res.nodes > 0
    assert res.pv[0] == res.move and all(g.is_legal(m) for m in res.pv[:1])


def test_threat_weights_as_settings_change_the_scores_and_bad_ones_are_refused():
    name, wts = parse_agent_spec("pvs:w_three=300,b_four_three=1234")
    assert name == "pvs" and wts is not None
    assert wts[WEIGHT_KEYS["w_three"]] == 300 and wts[WEIGHT_KEYS["b_four_three"]] == 1234
    g = position([(6, 7), (7, 7)], [(1, 1)])
    p = g.point(8, 7)  # Black's open three
    own = board_for(g, wts)
    assert own[4][R.BLACK, p] != g.bd[4][R.BLACK, p]  # the point's score under the agent's weights
    assert board_for(g, None)[4][R.BLACK, p] == g.bd[4][R.BLACK, p]
    agent = make_agent("threat1:w_two=0,w_three=0", seed=1)
    assert agent.weights is not None and g.is_legal(agent.select(g, 0.05).move)
    for bad in ("pvs:foo=1", "pvs:w_three=x", "random:w_two=3", "pvs:w_three"):
        with pytest.raises(ValueError):
            make_agent(bad)
