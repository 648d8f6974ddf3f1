"""Heavy playouts for the MCTS (michi / MoGo style), on the board kernels.

Each move, in order:

1. with probability ``P_TACTICS``: capture a group in atari next to the last
   move, or save an own group the last move put in atari (extend when that
   gives at least two liberties, or capture one of the attackers); with the
   ladder scratch (the MCTS's ``ladders`` setting) an extension to exactly two
   liberties is read out and left out when a ladder catches it;
2. with probability ``P_TWO_LIBS``: the fights one step earlier (Pachi's moggy
   checks groups of two liberties): extend an own group the last move left
   with two liberties to three or more, capture an opposing group in atari
   next to it, or put the last move's group in atari where its escape gets
   at most one liberty (a net, or a ladder one step from its end);
3. with probability ``P_PATTERN``: a 3x3 pattern move (hane, cut, edge) next
   to the last move that is not a self-atari;
4. a random reasonable move (legal, not an own true eye) that is not a
   self-atari of two or more stones (single-stone self-ataris are rejected
   with probability ``P_SELFATARI_ONE``; a two-stone sacrifice inside the
   opponent's eye space, which kills a three-point eye, is allowed), or pass
   when none is left.

Atari tests are O(1) through the pseudo-liberty counters of the board;
liberties after a move are counted up to a small cap by walking the groups
next to it. ``heavy_playout`` (and ``safe_playout``, step 3 alone) is
:func:`gorilla.rules.board.playout` with this policy: the moves are recorded
like ``gorilla.ai.playout.light.run_playout`` so the search can update its
AMAF statistics from either playout.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gorilla.ai.playout.pat3 import pat3_code
from gorilla.ai.tactics import LIBS_CAP, ladder_read, libs_after, nakade_sacrifice, size_after, two_libs
from gorilla.rules.board import (
    COLOR,
    ELIST,
    EMPTY,
    GSIZE,
    HEAD,
    LIBS,
    NEXT,
    OK,
    PASS,
    S_LAST,
    S_LAST2,
    S_NEMPTY,
    S_W,
    atari_liberty,
    check_move,
    in_atari,
    is_reasonable,
    kernel,
    playout,
    random_move,
)

P_TACTICS = 0.9
P_TWO_LIBS = 0.9
P_PATTERN = 0.95
P_SELFATARI_ONE = 0.8


@njit(cache=True, nogil=True, inline="always")
def _add_capture(b: np.ndarray, q: int, o: int, cand: np.ndarray, nc: int) -> int:
    """Append the liberty of the o group at q to cand[nc:] when it is in atari; returns the new count."""
    if b[COLOR, q] == o:
        h = b[HEAD, q]
        if in_atari(b, h) and nc < cand.shape[0]:
            cand[nc] = atari_liberty(b, h)
            nc += 1
    return nc


@njit(cache=True, nogil=True, inline="always")
def _add_point(p: int, cand: np.ndarray, nc: int) -> int:
    """Append p to cand[nc:] when there is room; returns the new count."""
    if nc < cand.shape[0]:
        cand[nc] = p
        nc += 1
    return nc


@njit(cache=True, nogil=True, inline="always")
def _add_attacker_captures(b: np.ndarray, w: int, h: int, o: int, cand: np.ndarray, nc: int) -> int:
    """Append the liberties of the o groups in atari that touch the group with head h."""
    s = h
    while True:
        for r in (s - 1, s + 1, s - w, s + w):
            nc = _add_capture(b, r, o, cand, nc)
        s = b[NEXT, s]
        if s == h:
            return nc


@njit(cache=True, nogil=True, inline="always")
def _escape_works(b: np.ndarray, st: np.ndarray, stone: int, lib: int, c: int, lw) -> bool:
    """Whether c extending its group at stone (in atari) to lib gets out: two liberties at
    least and, with the ladder scratch lw = (zob, bs, ss, lv), not exactly two in a ladder."""
    if check_move(b, st, lib, c) != OK:
        return False
    n = libs_after(b, st, lib, c, LIBS_CAP)
    if n < 2:
        return False
    if lw is None or n > 2:
        return True
    zob, bs, ss, lv = lw
    return not ladder_read(b, st, zob, stone, 0, bs, ss, lv)


@kernel
def tactical_moves(b: np.ndarray, st: np.ndarray, c: int, last: int, cand: np.ndarray, lw=None) -> int:
    """Captures and escapes around the last move into cand; returns how many. With the
    ladder scratch lw (zob and :func:`gorilla.ai.tactics.ladder_workspace`), an escape to
    two liberties is read out and left out when the ladder catches it."""
    w = st[S_W]
    o = 3 - c
    nc = 0
    for q in (last, last - 1, last + 1, last - w, last + w):
        col = b[COLOR, q]
        if col == o:
            nc = _add_capture(b, q, o, cand, nc)
        elif col == c:
            h = b[HEAD, q]
            if not in_atari(b, h):
                continue
            lib = atari_liberty(b, h)
            if _escape_works(b, st, q, lib, c, lw):
                nc = _add_point(lib, cand, nc)
            nc = _add_attacker_captures(b, w, h, o, cand, nc)
    last2 = st[S_LAST2]
    if last2 >= 0 and b[COLOR, last2] == c:
        # an atari made by our previous move that the opponent ignored
        for q in (last2 - 1, last2 + 1, last2 - w, last2 + w):
            nc = _add_capture(b, q, o, cand, nc)
    return nc


@njit(cache=True, nogil=True, inline="always")
def _many_libs(b: np.ndarray, h: int) -> bool:
    """Whether the group with head h surely has three liberties or more: O(1), from its
    pseudo-liberties. Each liberty touches at most four stones, so two give at most eight;
    no empty point touches both stones of a group of two, so up to two stones they count
    each liberty once."""
    n = b[LIBS, h]
    return n > 8 or (n >= 3 and b[GSIZE, h] <= 2)


@kernel
def two_lib_moves(b: np.ndarray, st: np.ndarray, c: int, last: int, cand: np.ndarray) -> int:
    """Defences of c's groups the last move left with two liberties, and ataris on the
    last move's group of two liberties that its escape cannot answer, into cand."""
    w = st[S_W]
    o = 3 - c
    nc = 0
    n, l0, l1 = (
        (0, -1, -1) if b[COLOR, last] != o or _many_libs(b, b[HEAD, last]) else two_libs(b, st, b[HEAD, last])
    )
    if n == 2:
        for a, m in ((l0, l1), (l1, l0)):
            if (
                check_move(b, st, a, c) == OK
                and libs_after(b, st, a, c, LIBS_CAP) >= 2
                and libs_after(b, st, m, o, LIBS_CAP) <= 2  # a is one of those: one is left
            ):
                nc = _add_point(a, cand, nc)
    seen0 = -1
    seen1 = -1
    for q in (last - 1, last + 1, last - w, last + w):
        if b[COLOR, q] != c:
            continue
        g = b[HEAD, q]
        if g == seen0 or g == seen1:
            continue
        seen1 = seen0
        seen0 = g
        if in_atari(b, g) or _many_libs(b, g):
            continue  # the tactical step's case, or three liberties at least
        n, l0, l1 = two_libs(b, st, g)
        if n != 2:
            continue
        for a in (l0, l1):
            if check_move(b, st, a, c) == OK and libs_after(b, st, a, c, LIBS_CAP) >= 3:
                nc = _add_point(a, cand, nc)
        nc = _add_attacker_captures(b, w, g, o, cand, nc)
    return nc


@kernel
def _pattern_moves(b: np.ndarray, st: np.ndarray, last: int, pat3: np.ndarray, cand: np.ndarray) -> int:
    """Empty points around the last move whose 3x3 neighbourhood matches a pattern, into cand."""
    w = st[S_W]
    nc = 0
    for q in (last - w - 1, last - w, last - w + 1, last - 1, last + 1, last + w - 1, last + w, last + w + 1):
        if b[COLOR, q] == EMPTY and pat3[pat3_code(b, w, q)] != 0:
            cand[nc] = q
            nc += 1
    return nc


@njit(cache=True, nogil=True, inline="always")
def is_legal(b: np.ndarray, st: np.ndarray, p: int, c: int) -> bool:
    """Whether c may play at p (simple ko)."""
    return check_move(b, st, p, c) == OK


@njit(cache=True, nogil=True, inline="always")
def _is_good_shape(b: np.ndarray, st: np.ndarray, p: int, c: int) -> bool:
    """Whether c may play the pattern move p: reasonable and leaving at least two liberties."""
    return is_reasonable(b, st, p, c) and libs_after(b, st, p, c, LIBS_CAP) >= 2


@kernel
def choose_move(b: np.ndarray, st: np.ndarray, c: int, pat3: np.ndarray, cand: np.ndarray, lw=None) -> int:
    """The heavy policy's move for c (a point or PASS); lw: see :func:`tactical_moves`."""
    last = st[S_LAST]
    if last >= 0:
        if np.random.random() < P_TACTICS:
            nc = tactical_moves(b, st, c, last, cand, lw)
            p = random_move(b, st, c, cand, nc, is_legal)
            if p != PASS:
                return p
        if np.random.random() < P_TWO_LIBS:
            nc = two_lib_moves(b, st, c, last, cand)
            p = random_move(b, st, c, cand, nc, is_legal)
            if p != PASS:
                return p
        if np.random.random() < P_PATTERN:
            nc = _pattern_moves(b, st, last, pat3, cand)
            p = random_move(b, st, c, cand, nc, _is_good_shape)
            if p != PASS:
                return p
    return safe_move(b, st, c)


@njit(cache=True, nogil=True, inline="always")
def _is_safe(b: np.ndarray, st: np.ndarray, p: int, c: int) -> bool:
    """Whether p is reasonable for c and no self-atari of two or more stones.

    A one-stone self-atari is refused with probability P_SELFATARI_ONE; a two-stone one
    is allowed when it is a sacrifice inside the opponent's eye space
    (:func:`gorilla.ai.tactics.nakade_sacrifice`: two stones and their liberty enclosed
    by the opponent, whose capture leaves a two-point eye that a throw-in then kills).
    """
    if not is_reasonable(b, st, p, c):
        return False
    if libs_after(b, st, p, c, LIBS_CAP) < 2:
        n = size_after(b, st, p, c)
        if n == 2:
            return nakade_sacrifice(b, st, p, c)
        return n < 2 and np.random.random() >= P_SELFATARI_ONE
    return True


@kernel
def safe_move(b: np.ndarray, st: np.ndarray, c: int) -> int:
    """A random reasonable move for c that is no self-atari of two or more stones, or PASS.

    The light policy with a self-atari filter (a one-stone self-atari is refused
    with probability P_SELFATARI_ONE): the heavy policy's fallback, and the
    ownership estimate's "safe" policy, under which nobody fills the shared
    liberties of a seki.
    """
    return random_move(b, st, c, b[ELIST], st[S_NEMPTY], _is_safe)


@kernel
def heavy_playout(
    b: np.ndarray,
    st: np.ndarray,
    zob: np.ndarray,
    max_moves: int,
    moves: np.ndarray,
    pat3: np.ndarray,
    cand: np.ndarray,
    lw=None,
) -> int:
    """Play the heavy policy in place until two passes or max_moves; returns moves played.

    With lw (the ladder scratch of :func:`tactical_moves`) escapes into ladders are read."""
    if lw is None:
        return playout(b, st, zob, max_moves, moves, choose_move, (pat3, cand))
    return playout(b, st, zob, max_moves, moves, choose_move, (pat3, cand, lw))


@kernel
def safe_playout(b: np.ndarray, st: np.ndarray, zob: np.ndarray, max_moves: int, moves: np.ndarray) -> int:
    """Play safe moves (:func:`safe_move`) in place until two passes or max_moves; returns moves played."""
    return playout(b, st, zob, max_moves, moves, safe_move, ())
