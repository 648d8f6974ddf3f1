"""Gomoku defence at the root: moves that lose to the opponent's VCF/VCT are not searched.

The positions come from a game against AIWine (15x15 freestyle): after 6 moves White,
Black passing, has a win by threats that some of Black's moves stop; after 12 it has a win
by fours and no move of Black's stops White's threats any more (the VCT sees that since
the defender's four no longer refutes it)."""

from __future__ import annotations

import time

import numpy as np

from gorilla.gomoku import rules as R
from gorilla.gomoku import search as S
from gorilla.gomoku.game import GomokuGame
from gorilla.gomoku.vcf import new_state, root_moves

AIWINE_GAME = [(5, 5), (9, 5), (10, 10), (9, 4), (7, 7), (8, 4), (11, 11), (9, 3), (9, 6), (10, 4), (8, 8)]
AIWINE_GAME += [(9, 9)]  # Black (Gorilla) to move; White threatens a VCF


def threatened(moves: int = len(AIWINE_GAME)) -> GomokuGame:
    g = GomokuGame(15)
    for x, y in AIWINE_GAME[:moves]:
        g.play_xy(x, y)
    return g


def loses(g: GomokuGame, p: int) -> bool:
    """Whether White wins by fours or threes once Black plays p (generous limits)."""
    bd = R.copy_board(g.bd)
    st = new_state(16)
    R.place(bd, p, R.BLACK)
    return S.solve_vcf(bd, st, R.WHITE, 20, 500_000) >= 0 or S.solve_vct(bd, st, R.WHITE, 5, 12, 500_000) >= 0


def test_the_threat_is_real():
    g = threatened()
    st = new_state(16)
    assert g.to_move == R.BLACK
    assert S.solve_vcf(R.copy_board(g.bd), st, R.WHITE) >= 0  # if Black passed


def test_losing_root_moves_are_banned_and_only_they():
    g = threatened(6)
    bd = R.copy_board(g.bd)
    st = new_state(16)
    n = S._ban_losing(bd, st, R.BLACK, time.perf_counter() + 120.0)
    banned = [int(p) for p in np.flatnonzero(st[16])]
    assert n == len(banned) > 0
    for p in banned:
        assert loses(g, p), g.xy(p)
    # the PVS's root no longer offers them, and some moves are left
    out = np.empty(S.ROOT_WIDTH, dtype=np.int32)
    k = root_moves(bd, st, R.BLACK, out)
    left = {int(p) for p in out[:k]}
    assert k > 0 and not left & set(banned)
    assert any(not loses(g, p) for p in left)
    # the board is as it was
    assert bd[6][R.S_HASH] == g.bd[6][R.S_HASH]


def test_no_ban_when_every_move_loses():
    g = threatened()
    bd = R.copy_board(g.bd)
    st = new_state(16)
    out = np.empty(S.ROOT_WIDTH, dtype=np.int32)
    k = root_moves(bd, st, R.BLACK, out)
    assert k > 0 and all(loses(g, int(p)) for p in out[:k])
    assert S._ban_losing(bd, st, R.BLACK, time.perf_counter() + 120.0) == 0
    assert not st[16].any()  # the PVS chooses among them


def test_no_ban_without_a_threat():
    g = GomokuGame(15)
    for x, y in [(7, 7), (8, 8), (6, 8), (9, 9)]:
        g.play_xy(x, y)
    st = new_state(14)
    assert S._ban_losing(R.copy_board(g.bd), st, R.BLACK, time.perf_counter() + 60.0) == 0
    assert not st[16].any()


def test_search_clears_the_ban_for_the_next_search():
    g = threatened()
    st = new_state(16)
    st[16][:] = 1  # left over: every point banned
    res = S.search(R.copy_board(g.bd), st, R.BLACK, seconds=5.0, max_depth=2)
    assert res.move >= 0 and g.is_legal(res.move)
