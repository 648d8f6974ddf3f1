"""The softmax playout (gorilla.ai.playout.softmax): legal, finished playouts; captures
drawn far more often than a uniform choice would; strengths kept up to date move by move
equal to strengths computed from scratch."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from helpers import game_from_diagram, v, variants, vertex

from gorilla.ai import warmup
from gorilla.ai.agent import Budget
from gorilla.ai.mcts.agent import MCTSAgent
from gorilla.ai.playout import softmax as S
from gorilla.ai.policy.model import DEFAULT_MODEL, shipped_model
from gorilla.rules import board as K
from gorilla.rules.board import OK, PASS, S_NEMPTY, S_TOMOVE
from gorilla.rules.position import Position

pytestmark = pytest.mark.skipif(not DEFAULT_MODEL.is_file(), reason="the move model is not shipped")


def model_arrays(beta: float = 1.0, dist: float = 1.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(3x3 index, offsets, gammas) of the shipped model."""
    m = shipped_model()
    return m.pidx, m.offs, S.strengths(m.loggamma, m.offs, beta, dist)


def strengths_from_scratch(b: np.ndarray, st: np.ndarray, arrays: tuple) -> tuple[np.ndarray, np.ndarray]:
    """Both colours' strengths and the row sums computed for the position alone."""
    fw, rows, _ = S.new_workspace()
    S.init_weights(b, st, *arrays, fw, rows)
    return fw[:2].copy(), rows.copy()


@pytest.mark.parametrize("size", [7, 9, 13])
def test_incremental_strengths_equal_strengths_recomputed_from_scratch(size: int) -> None:
    arrays = model_arrays()
    sp = S.settings()
    fw, rows, iw = S.new_workspace()
    cand = np.zeros(64, dtype=np.int64)
    rng = np.random.default_rng(size)
    moves = 0
    for game in range(4):
        K.seed_rng(100 * size + game)
        b, st = K.new_board(size, False)
        S.init_weights(b, st, *arrays, fw, rows)
        for _ in range(3 * size * size):
            c = int(st[S_TOMOVE])
            if rng.random() < 0.3:  # now and then any legal move: self-ataris, eyes filled, odd shapes
                legal = [int(p) for p in range(b.shape[1]) if K.check_move(b, st, p, c) == OK]
                p = int(rng.choice(legal)) if legal else PASS
            else:
                p = int(S.choose_move(b, st, c, arrays[1], arrays[2], sp, fw, rows, cand))
            S.play_softmax(b, st, K.ZOBRIST, p, c, *arrays, fw, rows, iw)
            moves += 1
            want, want_rows = strengths_from_scratch(b, st, arrays)
            np.testing.assert_allclose(fw[:2], want, rtol=1e-9, atol=0, err_msg=f"game {game}, move {p}")
            np.testing.assert_allclose(rows, want_rows, rtol=1e-9, atol=1e-12)
            if st[K.S_PASSES] >= 2:
                break
    assert moves > 100


def test_both_colours_strengths_at_once_equal_each_colours_alone() -> None:
    pidx, offs, gam = model_arrays()
    checked = 0
    for seed in range(8):
        K.seed_rng(seed)
        b, st = K.new_board(9, False)
        K.random_game(b, st, K.ZOBRIST, 20 + 10 * seed)
        for p in range(b.shape[1]):
            if b[K.COLOR, p] == K.EMPTY:
                pair = S.point_strengths(b, st, p, pidx, offs, gam)
                alone = tuple(S.point_strength(b, st, p, c, pidx, offs, gam) for c in (K.BLACK, K.WHITE))
                assert pair == alone, (seed, vertex(p, 9))
                checked += sum(x > 0 for x in alone)
    assert checked > 200


def replay_checked(b0: np.ndarray, st0: np.ndarray, seq: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Play seq[:n] again on copies, asserting each move legal and no own true eye filled."""
    b, st = b0.copy(), st0.copy()
    for i in range(n):
        p = int(seq[i])
        c = int(st[S_TOMOVE])
        if p == PASS:
            K.play_pass(st)
            continue
        assert K.check_move(b, st, p, c) == OK, f"move {i}: {p} is illegal"
        assert not K.is_eye(b, st, p, c), f"move {i}: {p} fills an own eye"
        K.place(b, st, K.ZOBRIST, p, c)
    return b, st


@pytest.mark.parametrize("size", [9, 19])
def test_playouts_play_legal_moves_and_end_on_a_finished_board(size: int) -> None:
    pidx, offs, gam = model_arrays()
    fw, rows, iw = S.new_workspace()
    cand = np.zeros(64, dtype=np.int64)
    max_moves = 3 * size * size
    seq = np.zeros(max_moves + 16, dtype=np.int32)
    for tactics in (0.0, 0.5):
        sp = S.settings(tactics)
        for seed in range(6 if size == 9 else 2):
            K.seed_rng(seed)
            b0, st0 = K.new_board(size, False)
            if seed % 2:  # from a middle game: a stretch of playout, then a full playout from there
                K.random_game(b0, st0, K.ZOBRIST, size * size // 3)
            b, st = b0.copy(), st0.copy()
            n = S.run_softmax_playout(
                b, st, K.ZOBRIST, max_moves, seq, pidx, offs, gam, sp, fw, rows, iw, cand
            )
            assert 0 < n < max_moves, "the playout must end by two passes"
            assert seq[n - 1] == PASS and seq[n - 2] == PASS
            rb, rst = replay_checked(b0, st0, seq, n)
            assert (rb[K.COLOR] == b[K.COLOR]).all()
            # finished: neither side has a point the playout would play
            want, _ = strengths_from_scratch(b, st, (pidx, offs, gam))
            assert want.sum() == 0.0, [vertex(int(p), size) for p in np.flatnonzero(want.sum(axis=0))]
            assert st[S_NEMPTY] < size * size // 2


# White's E5 stands in atari, its liberty F5; White's last move (G2) is far from it
CAPTURE = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . X . . . .
    . . . X O . . . .
    . . . . X . . . .
    . . . . . . . . .
    . . . . . .(O). .
    . . . . . . . . .
    """
DRAWS = 2000


def first_moves(pos: Position, n: int, seed: int) -> Counter[int]:
    """How often the softmax policy draws each first move for the side to move, in n draws."""
    arrays = model_arrays()
    fw, rows, _ = S.new_workspace()
    cand = np.zeros(64, dtype=np.int64)
    sp = S.settings()
    b, st = pos.b.copy(), pos.st.copy()
    S.init_weights(b, st, *arrays, fw, rows)
    K.seed_rng(seed)
    counts = Counter(
        int(S.choose_move(b, st, pos.to_move, arrays[1], arrays[2], sp, fw, rows, cand)) for _ in range(n)
    )
    assert (b == pos.b).all() and (st == pos.st).all()
    return counts


def test_a_stone_in_atari_is_captured_far_more_often_than_a_uniform_choice_would() -> None:
    buf = np.zeros(K.MAX_POINTS, dtype=np.int64)
    for label, pos, where in variants(CAPTURE):
        legal = int(K.legal_moves(pos.b, pos.st, pos.to_move, True, buf))
        counts = first_moves(pos, DRAWS, seed=7)
        capture = v(where("F5"), pos.size)
        share = counts[capture] / DRAWS
        # a uniform choice takes it once in `legal` draws (1.3%); the model's capture and shape
        # gammas make it some eight times likelier (the points near White's last move, G2,
        # come close: the model's distance factors)
        assert share >= 5 / legal, (label, share, legal, counts.most_common(5))


def test_the_softmax_search_is_compiled_only_for_a_spec_that_asks_for_it() -> None:
    assert "softmax" in warmup.groups_for(["mcts:time=1,playout=softmax"])
    assert "softmax" not in warmup.groups_for(["mcts:time=1", "mcts:playout=heavy"])


def test_a_bad_playout_setting_is_refused() -> None:
    with pytest.raises(ValueError, match="playout"):
        MCTSAgent(playout="soft")
    with pytest.raises(ValueError, match="sm_tactics"):
        MCTSAgent(playout="softmax", sm_tactics=2.0)


# White's D6-F6 stand in atari, their liberty G6
BIG_CAPTURE = """
    . . . . . . . . .
    . . . . . . . . .
    . . . X X X . . .
    . . X O O O . . .
    . . . X X X . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . .(O). .
    . . . . . . . . .
    """


@pytest.mark.slow  # compiles the search kernel with softmax playouts (a minute) on a cold cache
def test_the_mcts_with_softmax_playouts_captures_three_stones_in_atari() -> None:
    game = game_from_diagram(BIG_CAPTURE)
    agent = MCTSAgent(playout="softmax", seed=3, max_nodes=50_000)
    try:
        move = agent.select_move(game, Budget(playouts=1500))
    finally:
        agent.close()
    assert vertex(move, 9) == "G6"
