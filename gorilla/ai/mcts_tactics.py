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
    place,
)

MAX_LADDER = 60


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
def ladder_dead(b: np.ndarray, st: np.ndarray, zob: np.ndarray, stone: int, depth: int) -> bool:
    """The group at stone is in atari with its owner to move: is it caught in a ladder?"""
    h = b[HEAD, stone]
    defender = b[COLOR, stone]
    attacker = 3 - defender
    if _attacker_in_atari(b, st, h):
        return False  # it can capture its way out (close enough)
    lib = atari_liberty(b, h)
    if check_move(b, st, lib, defender) != OK:
        return True
    b2 = b.copy()
    st2 = st.copy()
    place(b2, st2, zob, lib, defender)
    n, l0, l1 = two_libs(b2, st2, b2[HEAD, lib])
    if n >= 3:
        return False
    if n <= 1:
        return True
    if depth >= MAX_LADDER:
        return False
    for a in (l0, l1):
        if check_move(b2, st2, a, attacker) != OK:
            continue
        b3 = b2.copy()
        st3 = st2.copy()
        place(b3, st3, zob, a, attacker)
        ha = b3[HEAD, a]
        if in_atari(b3, ha):
            continue  # the atari stone itself can be captured
        if in_atari(b3, b3[HEAD, lib]) and ladder_dead(b3, st3, zob, lib, depth + 1):
            return True
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
