"""Small tactical readers: liberties after a move, ladders, self-atari size, seki.

``libs_after`` and ``size_after`` count what a group will have after a move
(heavy playouts and priors use them to refuse self-ataris).

``ladder_dead`` reads whether a group in atari dies in a ladder when its
owner is to move: the defender extends (or captures an attacker in atari);
the attacker answers at either new liberty. It plays on copies of the board
arrays with the board kernels, so it costs a few board copies per step;
``ladder_read`` does it in a scratch allocated once (:func:`ladder_workspace`),
which lets heavy playouts read the ladder of an escape.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from numba import njit

from gorilla.rules.board import (
    BLACK,
    BORDER,
    COLOR,
    EMPTY,
    GSIZE,
    HEAD,
    NEXT,
    OK,
    S_W,
    WHITE,
    atari_liberty,
    check_move,
    copy_board,
    in_atari,
    kernel,
    neighbour_groups,
    place,
)
from gorilla.rules.position import Position
from gorilla.rules.scoring import ownership

MAX_LADDER = 60


@njit(cache=True, nogil=True, inline="always")
def _add_point(n: int, l0: int, l1: int, l2: int, r: int) -> tuple[int, int, int, int]:
    """Add r to the n distinct points (l0, l1, l2) kept so far (a fourth overwrites l2)."""
    if r == l0 or r == l1 or r == l2:
        return n, l0, l1, l2
    if n == 0:
        return 1, r, l1, l2
    if n == 1:
        return 2, l0, r, l2
    return n + 1, l0, l1, r


@njit(cache=True, nogil=True, inline="always")
def _add_group_libs(
    b: np.ndarray, w: int, h: int, skip: int, cap: int, n: int, l0: int, l1: int, l2: int
) -> tuple[int, int, int, int]:
    """Add the liberties of the group with head h other than skip to the set (n, l0, l1, l2)
    (see :func:`_add_point`), stopping once it holds cap points."""
    s = h
    while True:
        for r in (s - 1, s + 1, s - w, s + w):
            if r != skip and b[COLOR, r] == EMPTY:
                n, l0, l1, l2 = _add_point(n, l0, l1, l2, r)
                if n >= cap:
                    return n, l0, l1, l2
        s = b[NEXT, s]
        if s == h:
            break
    return n, l0, l1, l2


@njit(cache=True, nogil=True, inline="always")
def count_libs(b: np.ndarray, w: int, h: int, cap: int) -> int:
    """Distinct liberties of the group with head h, counted up to cap."""
    return _add_group_libs(b, w, h, -1, cap, 0, -1, -1, -1)[0]


# The cap every caller passes to libs_after: counting up to three liberties answers each
# question asked of it (none or one, exactly two, two or more), and one typed value (not a
# literal per call site) keeps it to one compiled version.
LIBS_CAP = np.int64(3)


@kernel
def libs_after(b: np.ndarray, st: np.ndarray, p: int, c: int, cap: int) -> int:
    """Distinct liberties (at most cap) of c's group at p after c plays the legal move p.

    Opposing neighbours in atari count as captured (their stone's point becomes
    a liberty); further liberties freed by larger captures are not counted.
    """
    w = st[S_W]
    o = 3 - c
    n = 0
    l0 = -1
    l1 = -1
    l2 = -1
    for q in (p - 1, p + 1, p - w, p + w):
        col = b[COLOR, q]
        if col == EMPTY or (col == o and in_atari(b, b[HEAD, q])):
            n, l0, l1, l2 = _add_point(n, l0, l1, l2, q)
            if n >= cap:
                return n
    for h in neighbour_groups(b, w, p, c):
        if h >= 0 and not in_atari(b, h):  # an atari group's only liberty is p
            n, l0, l1, l2 = _add_group_libs(b, w, h, p, cap, n, l0, l1, l2)
            if n >= cap:
                return n
    return n


@njit(cache=True, nogil=True, inline="always")
def ataris_around(b: np.ndarray, w: int, p: int, c: int) -> tuple[int, int, int]:
    """For c playing at p: (opposing stones in atari next to p, c's stones in atari next to
    p, one of those c stones or -1): what a capture and an escape from atari would take."""
    o = 3 - c
    capt = 0
    saving = 0
    saved = np.int64(-1)  # typed, not a literal: one compiled ladder_dead for the callers
    for q in (p - 1, p + 1, p - w, p + w):
        col = b[COLOR, q]
        if col == o or col == c:
            h = b[HEAD, q]
            if in_atari(b, h):
                if col == o:
                    capt += b[GSIZE, h]
                else:
                    saving += b[GSIZE, h]
                    saved = np.int64(q)
    return capt, saving, saved


@kernel
def size_after(b: np.ndarray, st: np.ndarray, p: int, c: int) -> int:
    """Stones in c's group at p after c plays p."""
    total = 1
    for h in neighbour_groups(b, st[S_W], p, c):
        if h >= 0:
            total += b[GSIZE, h]
    return total


@kernel
def nakade_sacrifice(b: np.ndarray, st: np.ndarray, p: int, c: int) -> bool:
    """Whether c playing at p is a two-stone self-atari inside the opponent's eye space:
    p joins one lone c stone, the pair keeps a single liberty, and the three points (the
    two stones and the liberty) touch nothing but each other, opponent stones and the
    edge. The opponent's capture then leaves a two-point eye, where a stone played
    inside kills (nakade): a sacrifice that heavy playouts may make, although they
    refuse other self-ataris of two stones or more."""
    w = st[S_W]
    o = 3 - c
    s = -1
    for q in (p - 1, p + 1, p - w, p + w):
        if b[COLOR, q] == c:
            if s >= 0 or b[GSIZE, b[HEAD, q]] != 1:
                return False
            s = q
    if s < 0:
        return False
    lib = -1
    for a in (p, s):
        for q in (a - 1, a + 1, a - w, a + w):
            if q == p or q == s:
                continue
            col = b[COLOR, q]
            if col == EMPTY:
                if lib >= 0 and lib != q:
                    return False
                lib = q
            elif col != o and col != BORDER:
                return False
            elif col == o and in_atari(b, b[HEAD, q]):
                return False  # p or s captures: no sacrifice
    if lib < 0:
        return False
    for q in (lib - 1, lib + 1, lib - w, lib + w):
        col = b[COLOR, q]
        if q != p and q != s and col != o and col != BORDER:
            return False
    return True


@kernel
def two_libs(b: np.ndarray, st: np.ndarray, h: int) -> tuple[int, int, int]:
    """(count up to 3, first, second) distinct liberties of the group with head h."""
    n, l0, l1, _ = _add_group_libs(b, st[S_W], h, -1, 3, 0, -1, -1, -1)
    return n, l0, l1


@kernel
def touches_atari(b: np.ndarray, w: int, h: int, c: int) -> bool:
    """Whether the group with head h touches a group of colour c in atari."""
    s = h
    while True:
        for r in (s - 1, s + 1, s - w, s + w):
            if b[COLOR, r] == c and in_atari(b, b[HEAD, r]):
                return True
        s = b[NEXT, s]
        if s == h:
            return False


@kernel
def _defender_steps(b: np.ndarray, st: np.ndarray, zob: np.ndarray, stone: int, libs: np.ndarray) -> int:
    """The group at stone is in atari, its owner to move: extend in place on (b, st).

    Returns 0 if it escapes (captures an attacker or gets 3+ liberties), 1 if it
    dies (cannot extend, or still one liberty), 2 with its two liberties in libs.
    """
    h = b[HEAD, stone]
    defender = np.int64(b[COLOR, stone])  # int64 like every other caller of place
    if touches_atari(b, st[S_W], h, 3 - b[COLOR, h]):
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
def ladder_workspace(b: np.ndarray, st: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Scratch for :func:`ladder_read` on boards like (b, st): board copies, scalars, and
    per level the two liberties and the next untried answer. Allocate once, reuse."""
    levels = min(MAX_LADDER, 2 * st[S_W]) + 2
    bs = np.empty((levels, b.shape[0], b.shape[1]), dtype=b.dtype)
    ss = np.empty((levels, st.shape[0]), dtype=st.dtype)
    lv = np.empty((levels, 3), dtype=np.int64)
    return bs, ss, lv


@njit(cache=True, nogil=True)
def ladder_dead(b: np.ndarray, st: np.ndarray, zob: np.ndarray, stone: int, depth: int) -> bool:
    """The group at stone is in atari with its owner to move: is it caught in a ladder?

    :func:`ladder_read` with a scratch of its own (see :func:`ladder_workspace`)."""
    bs, ss, lv = ladder_workspace(b, st)
    return ladder_read(b, st, zob, stone, depth, bs, ss, lv)


@kernel
def ladder_read(
    b: np.ndarray, st: np.ndarray, zob: np.ndarray, stone: int, depth: int, bs: np.ndarray, ss: np.ndarray,
    lv: np.ndarray,
) -> bool:  # fmt: skip
    """The group at stone is in atari with its owner to move: is it caught in a ladder?

    A depth-first search over the attacker's two answers at each step, kept on an
    explicit stack of board copies in the scratch (bs, ss, lv) from
    :func:`ladder_workspace` (numba's on-disk cache cannot hold recursive functions:
    a cached recursive kernel calls a null pointer). It allocates nothing, so
    playouts can read ladders too.
    """
    levels = min(MAX_LADDER - depth, 2 * st[S_W], bs.shape[0] - 2) + 1
    if levels <= 0:
        return False
    attacker = 3 - b[COLOR, stone]
    copy_board(b, st, bs[0], ss[0])
    d = 0
    enter = True
    while True:
        if enter:
            r = _defender_steps(bs[d], ss[d], zob, stone, lv[d])
            if r == 1:
                return True  # one working answer at every level above: the ladder works
            if r == 2 and d + 1 < levels:
                lv[d, 2] = 0
            else:
                d -= 1  # this line fails for the attacker: back to the previous choice
                if d < 0:
                    return False
        # the attacker's next untried answer at level d
        found = False
        while lv[d, 2] < 2:
            a = lv[d, lv[d, 2]]
            lv[d, 2] += 1
            if check_move(bs[d], ss[d], a, attacker) != OK:
                continue
            copy_board(bs[d], ss[d], bs[d + 1], ss[d + 1])
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
def threatens_atari(b: np.ndarray, st: np.ndarray, p: int, c: int) -> bool:
    """Whether p is one of the two liberties of an opposing group next to it (c's move there
    would put that group in atari)."""
    w = st[S_W]
    o = 3 - c
    for q in (p - 1, p + 1, p - w, p + w):
        if b[COLOR, q] == o:
            n, l0, l1 = two_libs(b, st, b[HEAD, q])
            if n == 2 and (l0 == p or l1 == p):
                return True
    return False


@njit(cache=True, nogil=True)
def atari_works(b: np.ndarray, st: np.ndarray, zob: np.ndarray, p: int, c: int) -> int:
    """Stones of the biggest opposing group that c's move at p puts in atari and catches in a ladder."""
    if not threatens_atari(b, st, p, c):
        return 0
    w = st[S_W]
    o = 3 - c
    best = 0
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


# --- seki (plain Python over Position) ----------------------------------------------


def _fill_is_bad(pos: Position, p: int, color: int) -> bool:
    """Whether color playing at p is illegal or leaves its new group with at most one liberty."""
    if not pos.is_legal(p, color):
        return True
    after = pos.played(p, color)
    return after.color_at(p) != color or after.liberties(p) <= 1


def seki_stones(pos: Position, dead: Iterable[int] = ()) -> list[int]:
    """Stones of live groups (dead ones removed) that share an unfillable neutral point."""
    dead_set = {int(p) for p in dead}
    live = pos.copy()
    if dead_set:
        # remove dead stones by rebuilding the position without them
        live = Position(pos.size, pos.suicide_allowed)
        for p in pos.points():
            c = pos.color_at(p)
            if c in (BLACK, WHITE) and p not in dead_set:
                live.setup_stone(p, c)
    owner = ownership(live)
    w = pos.size + 2
    seki: set[int] = set()
    for p in live.points():
        if live.color_at(p) != EMPTY or owner[p] != EMPTY:
            continue
        nbrs = [q for q in (p - 1, p + 1, p - w, p + w) if live.color_at(q) in (BLACK, WHITE)]
        colors = {live.color_at(q) for q in nbrs}
        if colors != {BLACK, WHITE}:
            continue
        if _fill_is_bad(live, p, BLACK) and _fill_is_bad(live, p, WHITE):
            for q in nbrs:
                seki.update(live.group(q))
    return sorted(seki)
