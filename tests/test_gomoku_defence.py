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


# from another game against AIWine (Gorilla Black): after Black's (7, 9) White wins by threes
# and fours, but not with AIWine's locality (its threes have no second line), so the engine's
# local check called the move safe and played it
LOCAL_MISS = [(8, 6), (6, 7), (10, 4), (7, 7), (10, 5), (7, 8), (10, 6), (10, 7)]


def _local_miss() -> tuple[GomokuGame, int]:
    g = GomokuGame(15)
    for x, y in LOCAL_MISS:
        g.play_xy(x, y)
    return g, g.point(7, 9)


def test_the_local_vct_misses_a_win_the_whole_boards_finds():
    g, p = _local_miss()
    found = []
    for local in (1, 0):
        bd = R.copy_board(g.bd)
        R.place(bd, p, R.BLACK)
        st = new_state(16)
        st[0][S.CTL_LOCAL] = local
        found.append(S.solve_vct(bd, st, R.WHITE, S.VCT_DEPTH, 12, 1_000_000) >= 0)
        assert st[0][S.CTL_ABORT] == 0
    assert found == [False, True]


def test_a_local_failure_does_not_hide_the_global_win():
    # the same tables for both searches: the local search's failed positions are keyed apart
    g, p = _local_miss()
    bd = R.copy_board(g.bd)
    R.place(bd, p, R.BLACK)
    st = new_state(16)
    st[0][S.CTL_LOCAL] = 1
    assert S.solve_vct(bd, st, R.WHITE, S.VCT_DEPTH, 12, 1_000_000) < 0
    st[0][S.CTL_LOCAL] = 0
    assert S.solve_vct(bd, st, R.WHITE, S.VCT_DEPTH, 12, 1_000_000) >= 0


def test_the_global_check_finds_the_win_the_local_vct_misses(monkeypatch):
    g, p = _local_miss()
    bd = R.copy_board(g.bd)
    st = new_state(16)
    st[0][S.CTL_LOCAL] = 1
    monkeypatch.setattr(S, "GLOBAL_CHECK", False)
    assert S._opponent_wins_after(bd, st, R.BLACK, p, 100_000, 10.0) is False
    monkeypatch.setattr(S, "GLOBAL_CHECK", True)
    assert S._opponent_wins_after(bd, st, R.BLACK, p, 100_000, 10.0) is True
    assert st[0][S.CTL_LOCAL] == 1  # the check leaves the mode as it found it
    assert bd[0][p] == R.EMPTY  # and the board


def test_the_global_root_vct_finds_the_win_the_local_one_misses(monkeypatch):
    g, p = _local_miss()
    g.play(p)  # White to move: its win by threes and fours needs the whole board
    for on, source in ((False, {"pvs", "defence"}), (True, {"vct"})):
        monkeypatch.setattr(S, "GLOBAL_ROOT_VCT", on)
        res = S.search(R.copy_board(g.bd), new_state(16), R.WHITE, seconds=2.0, max_depth=2, threats=True)
        assert res.source in source
        assert res.move >= 0 and g.bd[0][res.move] == R.EMPTY
