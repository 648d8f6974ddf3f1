"""Heavy playouts for the MCTS (michi / MoGo style), on the board kernels.

Each move, in order:

1. with probability ``P_TACTICS``: capture a group in atari next to the last
   move, or save an own group the last move put in atari (extend when that
   gives at least two liberties, or capture one of the attackers);
2. with probability ``P_PATTERN``: a 3x3 pattern move (hane, cut, edge) next
   to the last move that is not a self-atari;
3. a random reasonable move (legal, not an own true eye) that is not a
   self-atari of two or more stones (single-stone self-ataris are rejected
   with probability ``P_SELFATARI_ONE``), or pass when none is left.

Atari tests are O(1) through the pseudo-liberty counters of the board;
liberties after a move are counted up to a small cap by walking the groups
next to it. The moves are recorded like ``gorilla.ai.playout.light.run_playout``
so the search can update its AMAF statistics from either playout.
"""

from __future__ import annotations

import numpy as np

from gorilla.ai.playout.pat3 import pat3_code
from gorilla.ai.tactics import libs_after, size_after
from gorilla.rules.board import (
    COLOR,
    ELIST,
    EMPTY,
    HEAD,
    NEXT,
    OK,
    PASS,
    S_LAST,
    S_LAST2,
    S_NEMPTY,
    S_PASSES,
    S_TOMOVE,
    S_W,
    atari_liberty,
    check_move,
    in_atari,
    is_eye,
    kernel,
    place,
    play_pass,
)

P_TACTICS = 0.9
P_PATTERN = 0.95
P_SELFATARI_ONE = 0.8


@kernel
def _tactical_moves(b: np.ndarray, st: np.ndarray, c: int, last: int, cand: np.ndarray) -> int:
    """Captures and escapes around the last move into cand; returns how many."""
    w = st[S_W]
    o = 3 - c
    nc = 0
    m = cand.shape[0]
    for q in (last, last - 1, last + 1, last - w, last + w):
        col = b[COLOR, q]
        if col == o:
            h = b[HEAD, q]
            if in_atari(b, h) and nc < m:
                cand[nc] = atari_liberty(b, h)
                nc += 1
        elif col == c:
            h = b[HEAD, q]
            if not in_atari(b, h):
                continue
            lib = atari_liberty(b, h)
            if check_move(b, st, lib, c) == OK and libs_after(b, st, lib, c, 3) >= 2 and nc < m:
                cand[nc] = lib
                nc += 1
            # capture an attacker in atari
            s = h
            while True:
                for r in (s - 1, s + 1, s - w, s + w):
                    if b[COLOR, r] == o:
                        g = b[HEAD, r]
                        if in_atari(b, g) and nc < m:
                            cand[nc] = atari_liberty(b, g)
                            nc += 1
                s = b[NEXT, s]
                if s == h:
                    break
    last2 = st[S_LAST2]
    if last2 >= 0 and b[COLOR, last2] == c:
        # an atari made by our previous move that the opponent ignored
        for q in (last2 - 1, last2 + 1, last2 - w, last2 + w):
            if b[COLOR, q] == o:
                h = b[HEAD, q]
                if in_atari(b, h) and nc < m:
                    cand[nc] = atari_liberty(b, h)
                    nc += 1
    return nc


@kernel
def _pattern_moves(b: np.ndarray, st: np.ndarray, last: int, pat3: np.ndarray, cand: np.ndarray) -> int:
    w = st[S_W]
    nc = 0
    for q in (last - w - 1, last - w, last - w + 1, last - 1, last + 1, last + w - 1, last + w, last + w + 1):
        if b[COLOR, q] == EMPTY and pat3[pat3_code(b, w, q)] != 0:
            cand[nc] = q
            nc += 1
    return nc


@kernel
def choose_move(b: np.ndarray, st: np.ndarray, c: int, pat3: np.ndarray, cand: np.ndarray) -> int:
    """The heavy policy's move for c (a point or PASS)."""
    last = st[S_LAST]
    if last >= 0:
        if np.random.random() < P_TACTICS:
            nc = _tactical_moves(b, st, c, last, cand)
            if nc > 0:
                start = np.random.randint(nc)
                for i in range(nc):
                    p = cand[(start + i) % nc]
                    if check_move(b, st, p, c) == OK:
                        return p
        if np.random.random() < P_PATTERN:
            nc = _pattern_moves(b, st, last, pat3, cand)
            if nc > 0:
                start = np.random.randint(nc)
                for i in range(nc):
                    p = cand[(start + i) % nc]
                    if (
                        check_move(b, st, p, c) == OK
                        and not is_eye(b, st, p, c)
                        and libs_after(b, st, p, c, 2) >= 2
                    ):
                        return p
    return safe_move(b, st, c)


@kernel
def safe_move(b: np.ndarray, st: np.ndarray, c: int) -> int:
    """A random reasonable move for c that is no self-atari of two or more stones, or PASS.

    The light policy with a self-atari filter (a one-stone self-atari is refused
    with probability P_SELFATARI_ONE): the heavy policy's fallback, and the
    ownership estimate's "safe" policy, under which nobody fills the shared
    liberties of a seki.
    """
    ne = st[S_NEMPTY]
    if ne == 0:
        return PASS
    start = np.random.randint(ne)
    for i in range(ne):
        p = b[ELIST, (start + i) % ne]
        if check_move(b, st, p, c) != OK or is_eye(b, st, p, c):
            continue
        if libs_after(b, st, p, c, 2) < 2:
            if size_after(b, st, p, c) >= 2:
                continue
            if np.random.random() < P_SELFATARI_ONE:
                continue
        return p
    return PASS


@kernel
def heavy_playout(
    b: np.ndarray,
    st: np.ndarray,
    zob: np.ndarray,
    max_moves: int,
    moves: np.ndarray,
    pat3: np.ndarray,
    cand: np.ndarray,
) -> int:
    """Play the heavy policy in place until two passes or max_moves; returns moves played."""
    n = 0
    while n < max_moves and st[S_PASSES] < 2:
        c = st[S_TOMOVE]
        p = choose_move(b, st, c, pat3, cand)
        if p == PASS:
            play_pass(st)
        else:
            place(b, st, zob, p, c)
        if n < moves.shape[0]:
            moves[n] = p
        n += 1
    return n
