"""Small tactical readers for the priors: liberties of a group and ladders.

``ladder_dead`` reads whether a group in atari dies in a ladder when its
owner is to move: the defender extends (or captures an attacker in atari);
the attacker answers at either new liberty. It plays on copies of the board
arrays with the board kernels, so it costs a few board copies per step and
is only used when a node is expanded, never inside playouts.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gorilla.rules.board import (
    COLOR,
    EMPTY,
    GSIZE,
    HEAD,
    NEXT,
    OK,
    S_W,
    atari_liberty,
    check_move,
    in_atari,
    kernel,
    place,
)

MAX_LADDER = 60


@kernel
def two_libs(b: np.ndarray, st: np.ndarray, h: int) -> tuple[int, int, int]:
    """(count up to 3, first, second) distinct liberties of the group with head h."""
    w = st[S_W]
    n = 0
    l0 = -1
    l1 = -1
    s = h
    while True:
        for r in (s - 1, s + 1, s - w, s + w):
            if b[COLOR, r] == EMPTY and r != l0 and r != l1:
                if n == 0:
                    l0 = r
                elif n == 1:
                    l1 = r
                n += 1
                if n >= 3:
                    return n, l0, l1
        s = b[NEXT, s]
        if s == h:
            break
    return n, l0, l1


@kernel
def _attacker_in_atari(b: np.ndarray, st: np.ndarray, h: int) -> bool:
    """Whether some opposing group next to the group with head h is in atari."""
    w = st[S_W]
    c = b[COLOR, h]
    o = 3 - c
    s = h
    while True:
        for r in (s - 1, s + 1, s - w, s + w):
            if b[COLOR, r] == o and in_atari(b, b[HEAD, r]):
                return True
        s = b[NEXT, s]
        if s == h:
            break
    return False


@kernel
def _defender_steps(b: np.ndarray, st: np.ndarray, zob: np.ndarray, stone: int, libs: np.ndarray) -> int:
    """The group at stone is in atari, its owner to move: extend in place on (b, st).

    Returns 0 if it escapes (captures an attacker or gets 3+ liberties), 1 if it
    dies (cannot extend, or still one liberty), 2 with its two liberties in libs.
    """
    h = b[HEAD, stone]
    defender = b[COLOR, stone]
    if _attacker_in_atari(b, st, h):
        return 0  # it can capture its way out (close enough)
    lib = atari_liberty(b, h)
    if check_move(b, st, lib, defender) != OK:
        return 1
    place(b, st, zob, lib, defender)
    n, l0, l1 = two_libs(b, st, b[HEAD, lib])
    if n >= 3:
        return 0
    if n <= 1:
        return 1
    libs[0] = l0
    libs[1] = l1
    return 2


@njit(cache=True, nogil=True)
def ladder_dead(b: np.ndarray, st: np.ndarray, zob: np.ndarray, stone: int, depth: int) -> bool:
    """The group at stone is in atari with its owner to move: is it caught in a ladder?

    A depth-first search over the attacker's two answers at each step, kept on an
    explicit stack of board copies (numba's on-disk cache cannot hold recursive
    functions: a cached recursive kernel calls a null pointer).
    """
    levels = min(MAX_LADDER - depth, 2 * st[S_W]) + 1
    if levels <= 0:
        return False
    attacker = 3 - b[COLOR, stone]
    bs = np.empty((levels + 1, b.shape[0], b.shape[1]), dtype=b.dtype)
    ss = np.empty((levels + 1, st.shape[0]), dtype=st.dtype)
    libs = np.empty((levels + 1, 2), dtype=np.int64)
    nxt = np.zeros(levels + 1, dtype=np.int64)
    bs[0] = b
    ss[0] = st
    d = 0
    enter = True
    while True:
        if enter:
            r = _defender_steps(bs[d], ss[d], zob, stone, libs[d])
            if r == 1:
                return True  # one working answer at every level above: the ladder works
            if r == 2 and d + 1 < levels:
                nxt[d] = 0
            else:
                d -= 1  # this line fails for the attacker: back to the previous choice
                if d < 0:
                    return False
        # the attacker's next untried answer at level d
        found = False
        while nxt[d] < 2:
            a = libs[d, nxt[d]]
            nxt[d] += 1
            if check_move(bs[d], ss[d], a, attacker) != OK:
                continue
            bs[d + 1] = bs[d]
            ss[d + 1] = ss[d]
            place(bs[d + 1], ss[d + 1], zob, a, attacker)
            if in_atari(bs[d + 1], bs[d + 1][HEAD, a]):
                continue  # the atari stone itself can be captured
            if in_atari(bs[d + 1], bs[d + 1][HEAD, stone]):
                found = True
                break
        if found:
            d += 1
            enter = True
        else:
            d -= 1
            enter = False
            if d < 0:
                return False


@njit(cache=True, nogil=True)
def atari_works(b: np.ndarray, st: np.ndarray, zob: np.ndarray, p: int, c: int) -> int:
    """Stones of the biggest opposing group that c's move at p puts in atari and catches in a ladder."""
    w = st[S_W]
    o = 3 - c
    best = 0
    threat = False
    for q in (p - 1, p + 1, p - w, p + w):
        if b[COLOR, q] == o:
            n, l0, l1 = two_libs(b, st, b[HEAD, q])
            if n == 2 and (l0 == p or l1 == p):
                threat = True
    if not threat:
        return 0
    b2 = b.copy()
    st2 = st.copy()
    place(b2, st2, zob, p, c)
    if in_atari(b2, b2[HEAD, p]):
        return 0
    for q in (p - 1, p + 1, p - w, p + w):
        if b2[COLOR, q] == o:
            g = b2[HEAD, q]
            if in_atari(b2, g) and b2[GSIZE, g] > best and ladder_dead(b2, st2, zob, q, 0):
                best = b2[GSIZE, g]
    return best
