"""The Gomoku PVS's move generation and ordering: the bounded move list keeps the best moves
in the order a full sort gives them, and the search's choice on solved positions."""

from __future__ import annotations

import random

import numpy as np
import pytest
from helpers import gomoku_position

from gorilla.gomoku import rules as R
from gorilla.gomoku import vcf as V
from gorilla.gomoku.game import GomokuGame


def _random_game(seed: int, moves: int, rule: int = R.FREESTYLE) -> GomokuGame:
    rng = random.Random(seed)
    g = GomokuGame(15, rule)
    g.play(R.point(g.bd, 7, 7))
    while len(g.moves) < moves and not g.over:
        near = [q for q in g.empty_points() if g.bd[5][q] > 0 and g.is_legal(q)]
        g.play(rng.choice(near))
    return g


def _combo(bd: tuple, c: int, q: int) -> int:
    """The ordering tables' index of point q's four direction classes for colour c."""
    a, b, d, e = (int(v) for v in bd[2][c, :, q])
    return ((a * 11 + b) * 11 + d) * 11 + e


def _full_order(bd: tuple, S: tuple, c: int, ply: int, tables: np.ndarray | None = None) -> list[int]:
    """Every candidate of the node (empty, near a stone, playable), sorted by the generator's
    score (stable: board order among equals), as a plain Python sort gives it; by the ordering
    tables' values where tables are given, else by the point scores."""
    o = 3 - c
    hist, killers = S[7], S[6]
    cand = []
    for q in range(bd[0].shape[0]):
        if bd[0][q] != R.EMPTY or bd[5][q] == 0 or not V.playable(bd, q, c):
            continue
        if tables is None:
            s = int(bd[4][c, q]) + int(bd[4][o, q])
        else:
            s = int(tables[0, _combo(bd, c, q)]) + int(tables[1, _combo(bd, o, q)])
        s += int(hist[c, q]) // 16
        if q in (killers[ply, 0], killers[ply, 1]):
            s += 1 << 20
        cand.append((-s, q))
    cand.sort(key=lambda t: t[0])  # stable: equal scores keep board order
    return [q for _, q in cand]


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("ply", [0, 3])
def test_generator_keeps_the_best_moves_in_sorted_order(seed, ply):
    g = _random_game(seed, 24, R.RENJU if seed == 3 else R.FREESTYLE)
    bd, S = g.bd, V.new_state(12)
    rng = np.random.default_rng(seed)
    S[7][:] = rng.integers(0, 4000, size=S[7].shape)  # some history, so it reorders
    near = [q for q in range(bd[0].shape[0]) if bd[0][q] == R.EMPTY and bd[5][q] > 0]
    S[6][ply, 0], S[6][ply, 1] = near[5], near[-3]
    c = g.to_move
    k = int(V._gen(bd, S, c, ply, False, -1))
    want = _full_order(bd, S, c, ply)
    cap = V.ROOT_WIDTH if ply == 0 else V.WIDTH
    assert k == min(cap, len(want))
    assert len(want) > V.WIDTH  # the list was cut: the bound mattered
    assert [int(q) for q in S[8][ply, :k]] == want[:k]


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_generator_orders_by_the_tables_when_switched_on(seed):
    # CTL_ORDT: the generator scores a point by the ordering tables (own combination, the
    # opponent's) instead of the point scores; random tables reorder the candidates, and the
    # linear tables (patterns.linear_order_tables) give the point scores' very order. Renju
    # keeps the point scores (the tables are fitted to freestyle)
    from gorilla.gomoku import patterns as P

    rule = R.RENJU if seed == 7 else R.FREESTYLE
    g = _random_game(seed, 22, rule)
    bd, c = g.bd, g.to_move
    rng = np.random.default_rng(seed)
    tables = rng.integers(-5000, 5000, size=(2, 11**4)).astype(np.int32)
    orders = {}
    for name, tab in (("random", tables), ("linear", P.linear_order_tables())):
        S = V.new_state(12)
        S[7][:] = rng.integers(0, 4000, size=S[7].shape)
        S[19][:] = tab
        S[0][V.CTL_ORDT] = 1
        k = int(V._gen(bd, S, c, 2, False, -1))
        got = [int(q) for q in S[8][2, :k]]
        want = _full_order(bd, S, c, 2, None if rule == R.RENJU else tab)
        assert got == want[:k]
        assert got == _full_order(bd, S, c, 2)[:k] or (name == "random" and rule != R.RENJU)
        orders[name] = got
    if rule != R.RENJU:
        assert orders["random"] != orders["linear"]


def test_order_tables_read_a_file_and_keep_the_rest_linear(tmp_path):
    from gorilla.gomoku import patterns as P

    f = tmp_path / "order.txt"
    f.write_text("# a comment\n0 1 1 5 777 -3  # a three and two twos... \n")
    tab = P.order_tables(str(f))
    lin = P.linear_order_tables()
    changed = np.nonzero((tab != lin).any(axis=0))[0]
    # the 12 orders of (0, 1, 1, 5) and nothing else
    assert len(changed) == 12
    for i in changed:
        digits = sorted([i // 1331, i // 121 % 11, i // 11 % 11, i % 11])
        assert digits == [0, 1, 1, 5]
        assert tab[0, i] == 777 and tab[1, i] == -3
    f.write_text("0 1 1 5 777\n")
    with pytest.raises(ValueError, match="c0 c1 c2 c3 own opp"):
        P.order_tables(str(f))
    assert np.array_equal(P.order_tables(str(tmp_path / "missing.txt")), lin)


def test_the_search_fills_the_tables_and_sets_the_switch_only_when_asked(monkeypatch):
    from gorilla.gomoku import patterns as P
    from gorilla.gomoku import search as gs

    g = _random_game(8, 16)
    for on in (False, True):
        monkeypatch.setattr(gs, "ORDER_TABLES", on)
        S = V.new_state(12)
        res = gs.search(g.bd, S, g.to_move, 5.0, max_depth=2, threats=False)
        assert res.move >= 0 and g.is_legal(res.move)
        assert S[0][V.CTL_ORDT] == int(on)
        assert np.array_equal(S[19], P.order_tables()) == on  # zeros when off


def test_a_broken_shipped_order_file_is_one_line_and_the_linear_tables(tmp_path, monkeypatch, capsys):
    import gorilla
    from gorilla.gomoku import patterns as P

    (tmp_path / "gomoku_order.txt").write_text("0 0 0 0 12\n")
    monkeypatch.setattr(gorilla, "ASSET_ROOTS", (tmp_path,))
    assert np.array_equal(P.order_tables(), P.linear_order_tables())
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "c0 c1 c2 c3 own opp" in err[0] and "linear" in err[0]


def test_generator_puts_the_tt_move_first():
    g = _random_game(4, 20)
    bd, S = g.bd, V.new_state(12)
    c = g.to_move
    want = _full_order(bd, S, c, 1)
    tt = want[-1]  # the worst candidate, cut from the list without the TT
    k = int(V._gen(bd, S, c, 1, False, tt))
    assert int(S[8][1, 0]) == tt
    assert [int(q) for q in S[8][1, 1:k]] == want[: k - 1]


def test_defending_node_generates_only_the_answers_to_the_open_three():
    # White's open three on row 7 (6..8): Black's answers are the points where White makes a four
    g = gomoku_position([(3, 3), (11, 3), (3, 11)], [(6, 7), (7, 7), (8, 7)])
    bd, S = g.bd, V.new_state(12)
    k = int(V._gen(bd, S, R.BLACK, 1, True, -1))
    got = {R.xy(bd, int(q)) for q in S[8][1, :k]}
    assert got == {(5, 7), (9, 7), (4, 7), (10, 7)}


def _four_three_position() -> GomokuGame:
    """Black to move; (7, 7) makes a four on row 7 (blocked at (3, 7)) and an open three on
    column 7, and White has no point that makes a four: a win by a four-three."""
    black = [(4, 7), (5, 7), (6, 7), (7, 8), (7, 9)]
    white = [(3, 7), (0, 0), (14, 0), (0, 14), (14, 14)]
    return gomoku_position(black, white)


def test_a_four_three_against_no_four_is_a_win_at_a_leaf():
    g = _four_three_position()
    assert g.to_move == R.BLACK
    S = V.new_state(12)
    v = int(V.pvs(g.bd, S, R.BLACK, 0, -V.INF, V.INF, 0))
    assert v >= V.MATE
    assert R.xy(g.bd, int(S[10][0, 0])) == (7, 7)
    S[0][V.CTL_NO43] = 1  # the rule off: the leaf is only the static evaluation
    assert int(V.pvs(g.bd, S, R.BLACK, 0, -V.INF, V.INF, 0)) < V.MATE


def test_a_four_three_is_no_win_when_the_opponent_has_a_four():
    # the same, and White's three on row 2: points where White makes a four
    black = [(4, 7), (5, 7), (6, 7), (7, 8), (7, 9), (12, 12)]
    white = [(3, 7), (0, 0), (9, 2), (10, 2), (11, 2), (14, 14)]
    bd = gomoku_position(black, white).bd
    S = V.new_state(12)
    S[0][V.CTL_NOEXT] = 1  # the static rule alone (the leaf extension searches White's three's answers)
    assert int(V.pvs(bd, S, R.BLACK, 0, -V.INF, V.INF, 0)) < V.MATE


def test_a_double_three_against_no_four_is_a_win_at_a_leaf():
    # Black (7, 7) makes open threes on row 7 (5, 6, 7) and column 7 (7, 8, 9); White has no four
    black = [(5, 7), (6, 7), (7, 8), (7, 9)]
    white = [(0, 0), (14, 0), (0, 14), (14, 14)]
    g = gomoku_position(black, white)
    S = V.new_state(12)
    assert int(V.pvs(g.bd, S, R.BLACK, 0, -V.INF, V.INF, 0)) >= V.MATE
    assert R.xy(g.bd, int(S[10][0, 0])) == (7, 7)
    S[0][V.CTL_NO33] = 1  # the rule off: the leaf is the static evaluation
    assert int(V.pvs(g.bd, S, R.BLACK, 0, -V.INF, V.INF, 0)) < V.MATE
    # with a White three on row 2 (a point where White makes a four) it is no win at a leaf
    g = gomoku_position(black, [*white, (9, 2), (10, 2), (11, 2)])
    S = V.new_state(12)
    S[0][V.CTL_NOEXT] = 1
    assert int(V.pvs(g.bd, S, R.BLACK, 0, -V.INF, V.INF, 0)) < V.MATE


def test_an_open_four_wins_against_the_opponents_three():
    # Black's three on row 7 (5..7) can become an open four; White's open three on row 2 does
    # not stop that (its four cannot make five before Black's)
    black = [(5, 7), (6, 7), (7, 7), (0, 14)]
    white = [(9, 2), (10, 2), (11, 2), (14, 0)]
    g = gomoku_position(black, white)
    S = V.new_state(12)
    S[0][V.CTL_NOEXT] = 1  # the static rule alone
    assert int(V.pvs(g.bd, S, R.BLACK, 0, -V.INF, V.INF, 0)) >= V.MATE
    assert R.xy(g.bd, int(S[10][0, 0])) in {(4, 7), (8, 7)}
    S[0][V.CTL_NO33] = 1  # the old rule: an open four only against no four
    assert int(V.pvs(g.bd, S, R.BLACK, 0, -V.INF, V.INF, 0)) < V.MATE


def test_the_leaf_searches_the_answers_to_an_open_three():
    # White to move at depth 0 against Black's two open threes (row 7 and column 10): one block
    # leaves the other to become an open four; only the leaf's extension sees the loss
    black = [(5, 7), (6, 7), (7, 7), (10, 4), (10, 5), (10, 6)]
    white = [(0, 0), (14, 0), (0, 14), (14, 14), (2, 12)]
    g = gomoku_position(black, white)
    assert g.to_move == R.WHITE
    S = V.new_state(12)
    assert int(V.pvs(g.bd, S, R.WHITE, 0, -V.INF, V.INF, 0)) <= -V.MATE
    S = V.new_state(12)
    S[0][V.CTL_NOEXT] = 1
    assert int(V.pvs(g.bd, S, R.WHITE, 0, -V.INF, V.INF, 0)) > -V.MATE


def test_a_leaf_facing_an_open_three_gets_the_offset_and_no_other_does():
    # Black to move at depth 0 against White's open three on row 7: the static sum counts the
    # three's four-making points against Black, who blocks one of them with this very move;
    # the leaf adds CTL_F4OFF (search.F4_OFFSET) to it. Without the three, nothing is added.
    white = [(6, 7), (7, 7), (8, 7), (0, 14)]
    black = [(3, 3), (11, 3), (3, 11), (11, 11)]
    for three, expect in ((True, 4000), (False, 0)):
        g = gomoku_position(black, white if three else [(6, 7), (7, 7), (12, 7), (0, 14)])
        assert g.to_move == R.BLACK
        S = V.new_state(12)
        S[0][V.CTL_NOEXT] = 1
        plain = int(V.pvs(g.bd, S, R.BLACK, 0, -V.INF, V.INF, 0))
        assert plain == int(V.evaluate(g.bd, R.BLACK))
        S[0][V.CTL_F4OFF] = 4000
        assert int(V.pvs(g.bd, S, R.BLACK, 0, -V.INF, V.INF, 0)) == plain + expect


def test_the_search_sets_the_open_three_offset():
    from gorilla.gomoku import search as GS

    g = gomoku_position([(3, 3), (11, 3), (3, 11), (11, 11)], [(6, 7), (7, 7), (8, 7), (0, 14)])
    S = V.new_state(12)
    GS.search(g.bd, S, R.BLACK, 0.2, max_depth=1)
    assert int(S[0][V.CTL_F4OFF]) == GS.F4_OFFSET > 0


def _sparring_win() -> GomokuGame:
    """Black to move, from a game against AIWine: a win by threes and fours (no VCF)."""
    moves = [(5, 6), (8, 4), (7, 6), (8, 5), (7, 8), (7, 7), (8, 7), (6, 5), (8, 9), (4, 5), (5, 5), (10, 5)]
    g = GomokuGame(15, R.FREESTYLE)
    for xy in moves:
        g.play_xy(*xy)
    return g


def test_the_local_vct_finds_a_sparring_win_in_fewer_nodes():
    # Black to move, from a game against AIWine: a win by threes and fours (no VCF). With
    # AIWine's locality (the attacker's plain fours and threes near its last attack, each with
    # a second line) the VCT finds a win too, in a fraction of the nodes
    g = _sparring_win()
    assert g.to_move == R.BLACK
    found, nodes = [], []
    for local in (0, 1):
        S = V.new_state(16)
        S[0][V.CTL_LOCAL] = local
        S[0][V.CTL_LIMIT] = 1_000_000
        assert int(V.vcf(g.bd, S, R.BLACK, 20)) < 0
        S[0][V.CTL_NODES] = 0
        found.append(int(V.vct(g.bd, S, R.BLACK, 5, 12)))
        nodes.append(int(S[0][V.CTL_NODES]))
        assert S[0][V.CTL_ABORT] == 0
    assert found[0] >= 0 and found[1] >= 0
    assert nodes[1] * 3 < nodes[0]
    # after the local VCT's move White has no counter-attack by fours
    h = g.copy()
    h.play(found[1])
    S = V.new_state(16)
    S[0][V.CTL_LIMIT] = 1_000_000
    assert int(V.vcf(h.bd, S, R.WHITE, 20)) < 0


def test_a_proven_win_is_read_back_from_the_table_at_another_ply():
    # Black to move has a win by threes and fours 14 plies deep (the sparring position above).
    # A depth-9 PVS proves it; with CTL_TTMATE the table keeps the win's distance from the node,
    # so a depth-1 search of the same position three plies deeper reads it back as a win three
    # plies longer from the root. Without the switch the table gives no mate scores, and depth
    # 1 sees none.
    g = _sparring_win()
    for on in (0, 1):
        S = V.new_state(16)
        S[0][V.CTL_TTMATE] = on
        S[0][V.CTL_NOEXT] = 1  # as the search sets it
        S[0][V.CTL_LIMIT] = 10_000_000
        v0 = int(V.pvs(g.bd, S, R.BLACK, 9, -V.INF, V.INF, 0))
        assert v0 >= V.MATE and S[0][V.CTL_ABORT] == 0
        v3 = int(V.pvs(g.bd, S, R.BLACK, 1, -V.INF, V.INF, 3))
        if on:
            assert v3 == v0 - 3
        else:
            assert v3 < V.MATE


@pytest.mark.parametrize("slot,value", [(V.CTL_LMP, 10), (V.CTL_LMR, 100)])
def test_rapfis_pruning_and_reductions_keep_the_win_in_fewer_nodes(slot, value):
    # the sparring position above at depth 9: Rapfi's move-count pruning (search.LMP_SCALE)
    # and its log-log reductions (search.LMR_DIVISOR), each switched on alone, prove the same
    # win in fewer nodes than the PVS without them
    g = _sparring_win()
    nodes = []
    for on in (False, True):
        S = V.new_state(16)
        S[0][V.CTL_NOEXT] = 1
        S[0][V.CTL_LIMIT] = 10_000_000
        if on:
            S[0][slot] = value
        assert int(V.pvs(g.bd, S, R.BLACK, 9, -V.INF, V.INF, 0)) >= V.MATE
        nodes.append(int(S[0][V.CTL_NODES]))
    assert nodes[1] < nodes[0] * 0.8
