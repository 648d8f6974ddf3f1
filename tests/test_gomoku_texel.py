"""Texel tuning of the Gomoku evaluation (gorilla.gomoku.texel) and the evaluation's own weights."""

from __future__ import annotations

import numpy as np

from gorilla.gomoku import rules as R
from gorilla.gomoku import texel as T
from gorilla.gomoku.agents import board_for, parse_agent_spec
from gorilla.gomoku.game import GomokuGame
from gorilla.gomoku.vcf import evaluate, new_state


def _game(moves: list[tuple[int, int]]) -> GomokuGame:
    g = GomokuGame(15, R.FREESTYLE)
    for x, y in moves:
        g.play_xy(x, y)
    return g


MIDDLE = [(7, 7), (8, 8), (7, 8), (6, 6), (9, 7), (8, 6), (5, 9), (9, 9)]


def test_features_times_the_evaluation_weights_are_the_boards_totals():
    _, wts = parse_agent_spec("pvs:ew_three=333,ew_two=7,ob_four_three=5")
    g = _game(MIDDLE)
    bd = board_for(g, wts)
    f = np.zeros(T.NFEATURES, dtype=np.int64)
    for c in (R.BLACK, R.WHITE):
        T.features(bd, c, f)
        assert f @ wts[R.NWEIGHTS : R.W_SPLIT] == bd[6][R.S_TOTAL_B + c - 1]
        assert f @ wts[: R.NWEIGHTS] != bd[6][R.S_TOTAL_B + c - 1]  # the ordering's weights differ


def test_evaluation_weights_leave_the_ordering_scores_alone():
    g = _game(MIDDLE)
    _, ew = parse_agent_spec("pvs:ew_three=333,ew_two=7")
    _, both = parse_agent_spec("pvs:w_three=333,w_two=7")
    a, b = board_for(g, ew), board_for(g, both)
    base = board_for(g, None)
    assert np.array_equal(a[4][1:3], base[4][1:3])  # ordering: as the defaults
    assert not np.array_equal(b[4][1:3], base[4][1:3])
    assert np.array_equal(a[4][3:5], b[4][1:3])  # evaluation: as the one set's scores
    assert evaluate(a, R.BLACK) == evaluate(b, R.BLACK) != evaluate(base, R.BLACK)


def test_a_four_or_a_vcf_is_not_quiet_a_plain_middle_game_is():
    S = new_state(16, 16)
    g = _game(MIDDLE)
    assert T.quiet(g.bd, S, g.to_move)
    # Black four in a row with both ends open: White must answer, Black would win
    four = _game([(3, 3), (10, 10), (4, 3), (10, 11), (5, 3), (11, 12), (6, 3)])
    assert not T.quiet(four.bd, S, four.to_move)


def _synthetic(true_w: np.ndarray, attack: float, k: float, b: float, n: int, seed: int) -> T.Positions:
    """Positions with feature counts drawn at random and results drawn from the model."""
    rng = np.random.default_rng(seed)
    own = rng.poisson(
        [0, 80, 600, 40, 40, 9, 5, 1, 0, 0, 0, 0, 200, 5, 2, 0.2, 0.1, 0, 0, 0], (n, T.NFEATURES)
    )
    opp = rng.poisson(
        [0, 80, 600, 40, 40, 9, 5, 1, 0, 0, 0, 0, 200, 5, 2, 0.2, 0.1, 0, 0, 0], (n, T.NFEATURES)
    )
    own[:, 7:] = 0
    opp[:, 7:] = 0
    e = attack * own @ true_w - opp @ true_w
    y = (rng.random(n) < 1 / (1 + np.exp(-(k * e + b)))).astype(np.float64)
    z = np.zeros(n, dtype=np.int64)
    return T.Positions(own, opp, y, np.arange(n), z)


def test_the_fit_recovers_known_weights_and_beats_the_start_on_held_out_games():
    start = R.default_weights()[R.NWEIGHTS : R.W_SPLIT].astype(np.float64)
    true_w = start.copy()
    true_w[[3, 4, 5, 6]] = [10, 60, 130, 80]  # two, closed three, three, four
    k, attack = 0.004, 1.25
    pos = _synthetic(true_w, attack, k, 0.2, 40_000, 1)
    free = [3, 4, 5, 6]
    w, b = T.fit(pos, start, free, attack, k, reg=1e-7)
    assert np.allclose(w[free], true_w[free], rtol=0.15, atol=5), w[free]
    assert np.array_equal(np.delete(w, free), np.delete(start, free))  # the others held
    test = _synthetic(true_w, attack, k, 0.2, 10_000, 2)
    ks, bs = T.fit_scale(test, start, attack)
    before = T.log_loss(ks * T.evaluation(test, start, attack) + bs, test.y)
    after = T.log_loss(k * T.evaluation(test, w, attack) + b, test.y)
    assert after < before


def test_records_are_read_once_each_with_their_results(tmp_path):
    sgf = "(;GM[4]SZ[15]RE[{}];B[hh];W[ii];B[hi];W[gg];B[hj];W[jj];B[hk];W[kk];B[hl])"
    (tmp_path / "a.sgf").write_text(sgf.format("B+"))
    (tmp_path / "b.sgf").write_text(sgf.format("B+"))  # the same game again
    (tmp_path / "c.sgf").write_text(sgf.format(""))  # no result
    recs = T.load_records([tmp_path])
    assert len(recs) == 1 and recs[0][0] == R.BLACK and recs[0][1][0] == (R.BLACK, 7, 7)
    pos = T.collect(recs)
    assert len(pos.y) > 0 and set(pos.y.tolist()) <= {0.0, 1.0}
    # Black's positions are labelled won, White's lost
    black_to_move = pos.ply % 2 == 0
    assert np.all(pos.y[black_to_move] == 1.0) and np.all(pos.y[~black_to_move] == 0.0)


def test_go_records_and_passes_are_not_read_as_gomoku_games(tmp_path):
    go = "(;GM[1]SZ[19]RE[B+R];B[pd];W[dp];B[pq])"
    passed = "(;GM[4]SZ[15]RE[B+];B[hh];W[tt];B[hi])"
    gomoku = "(;GM[4]SZ[15]RE[W+];B[hh];W[ii];B[hi])"
    assert T.game_moves(go) is None and T.game_moves(passed) is None
    assert T.game_moves(gomoku) == (R.WHITE, [(R.BLACK, 7, 7), (R.WHITE, 8, 8), (R.BLACK, 7, 8)])
    for name, text in (("go.sgf", go), ("pass.sgf", passed)):
        (tmp_path / name).write_text(text)
    assert T.load_records([tmp_path]) == []
