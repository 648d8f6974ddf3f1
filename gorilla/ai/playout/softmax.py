"""Softmax playouts: each move drawn in proportion to the move model's strength of its cheap features.

A move's strength is the product of the gammas (``exp(beta * loggamma)``, beta an
inverse temperature: :func:`strengths`) of the features of the move model
(:mod:`gorilla.ai.policy`) that are cheap to keep up to date:

* its 3x3 shape with the atari bits (``G_PAT3``, the model's ``pidx`` of
  :func:`~gorilla.ai.policy.features.pat3_key`);
* a capture (``G_CAPTURE`` 0, or 1 when it saves a group of ours in atari);
* an escape from atari (``G_ESCAPE``; no ladder reading: three liberties after
  it escape, two take the mean of the model's two levels);
* an atari (``G_ATARI``, the level of an atari that is no ladder);
* a self-atari of one stone (``G_SELFATARI`` 0).

A move that fills a true eye of one's own, a suicide or a self-atari of two or
more stones gets no strength (the heavy playout refuses them too); when no
move has any, the side passes. The distance to the last move (``G_DIST1``)
multiplies the strength of the points within two lines of it by
``(gamma(d) / gamma(d = 7)) ** dist`` (dist 0 leaves it out), and with
probability ``SP_TACTICS`` (:func:`settings`) the heavy playout's captures and
escapes around the last move come first.

Each colour's strength of each point lives in an array (the workspace), with
a sum per row of the board: a move only recomputes the points whose 3x3
neighbourhood or neighbouring groups changed (the eight neighbours of the
move and of the stones it captured, the liberties of the groups next to them
whose liberties changed below four, and the liberty of an opposing group in
atari next to those), and a draw walks
the rows, then the points of one row (O(sqrt N)). The distance factors and the
ko point are applied at the draw, to the 5x5 window around the last move.

``run_softmax_playout`` has the calling convention of the other playouts
(``run(b, st, zob, max_moves, seq, *pargs)``) and records the moves in ``seq``
for AMAF like :func:`gorilla.ai.playout.light.run_playout`.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from gorilla.ai.playout.heavy import is_legal, tactical_moves
from gorilla.ai.policy.features import (
    G_ATARI,
    G_CAPTURE,
    G_DIST1,
    G_ESCAPE,
    G_PAT3,
    G_SELFATARI,
    pat3_key,
)
from gorilla.ai.tactics import (
    LIBS_CAP,
    ataris_around,
    count_libs,
    libs_after,
    size_after,
    touches_atari,
    two_libs,
)
from gorilla.rules.board import (
    BLACK,
    COLOR,
    EMPTY,
    HEAD,
    MAX_POINTS,
    MAX_SIZE,
    NEXT,
    OK,
    PASS,
    S_KO,
    S_KOCOL,
    S_LAST,
    S_N,
    S_PASSES,
    S_TOMOVE,
    S_W,
    WHITE,
    atari_liberty,
    check_move,
    in_atari,
    is_eye,
    kernel,
    place,
    play_pass,
    random_move,
)

# slots of the settings array
SP_TACTICS = 0
NSETTINGS = 1

WINDOW = 2  # the distance factors apply to points within WINDOW lines of the last move
_FAR_LEVEL = 5  # G_DIST1's level of d = 7, the nearest distance outside the window

# rows of the float workspace: strengths of Black's and White's moves, a point's strength at
# this draw (-1: the stored one), a row's change at this draw
FW_BLACK, FW_WHITE, FW_ADJ, FW_ROWADJ = range(4)
NFW = 4
# rows of the int workspace: queued marks, the queue, captured stones, the heads walked
IW_MARK, IW_QUEUE, IW_CAPT, IW_HEADS = range(4)
NIW = 4
MAX_ROWS = MAX_SIZE + 2


def new_workspace() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(floats, row sums, ints): one search thread's scratch for boards up to MAX_SIZE."""
    fw = np.zeros((NFW, MAX_POINTS), dtype=np.float64)
    fw[FW_ADJ, :] = -1.0
    return fw, np.zeros((2, MAX_ROWS), dtype=np.float64), np.zeros((NIW, MAX_POINTS), dtype=np.int64)


def strengths(lg: np.ndarray, offs: np.ndarray, beta: float = 1.0, dist: float = 1.0) -> np.ndarray:
    """The gammas the playout multiplies: ``exp(beta * loggamma)`` of the model's levels (the
    inverse temperature beta), G_DIST1's levels as factors ``exp(beta * dist * (loggamma -
    loggamma(d = 7)))`` (dist 0: no distance factors)."""
    gam = np.exp(beta * lg.astype(np.float64))
    d = int(offs[G_DIST1])
    dl = lg[d : int(offs[G_DIST1 + 1])].astype(np.float64)
    gam[d : int(offs[G_DIST1 + 1])] = np.exp(beta * dist * (dl - dl[_FAR_LEVEL]))
    return gam


def settings(tactics: float = 0.0) -> np.ndarray:
    """The settings array: the share of the heavy playout's tactics."""
    sp = np.zeros(NSETTINGS, dtype=np.float64)
    sp[SP_TACTICS] = tactics
    return sp


@njit(cache=True, nogil=True, inline="always")
def _playable(b: np.ndarray, st: np.ndarray, p: int, c: int) -> bool:
    """Whether c may play p (ko aside) without filling an own true eye."""
    return check_move(b, st, p, c) == OK and not is_eye(b, st, p, c)


@njit(cache=True, nogil=True, inline="always")
def _threats(b: np.ndarray, st: np.ndarray, p: int) -> tuple[bool, bool]:
    """Whether Black, and whether White, playing p takes a liberty of an opposing group with
    two (p is one of them: it is an empty neighbour)."""
    w = st[S_W]
    ab = False
    aw = False
    for q in (p - 1, p + 1, p - w, p + w):
        col = b[COLOR, q]
        if (col == WHITE and not ab) or (col == BLACK and not aw):
            h = b[HEAD, q]
            if not in_atari(b, h) and two_libs(b, st, h)[0] == 2:
                if col == WHITE:
                    ab = True
                else:
                    aw = True
    return ab, aw


@njit(cache=True, nogil=True, inline="always")
def _strength(b, st, p: int, c: int, capt: int, saving: int, atari: bool, key: int, pidx, offs, gam) -> float:
    """c's strength at p, a move it may play (see :func:`point_strength`), from what both
    colours share: the opposing and own stones in atari next to p, whether p takes the
    second-last liberty of an opposing group, the 3x3 key for c."""
    w = st[S_W]
    o = 3 - c
    la = libs_after(b, st, p, c, LIBS_CAP)
    s = 1.0
    if capt == 0 and la <= 1:
        if la == 0 or size_after(b, st, p, c) >= 2:
            return 0.0
        s = gam[offs[G_SELFATARI]]
    lv = pidx[key]
    if lv >= 0:
        s *= gam[offs[G_PAT3] + lv]
    if capt > 0:
        saves = False
        for q in (p - 1, p + 1, p - w, p + w):
            if b[COLOR, q] == o and in_atari(b, b[HEAD, q]) and touches_atari(b, w, b[HEAD, q], c):
                saves = True
        s *= gam[offs[G_CAPTURE] + (1 if saves else 0)]
    elif saving > 0 and la >= 2:
        e = offs[G_ESCAPE]
        s *= gam[e] if la >= 3 else math.sqrt(gam[e] * gam[e + 1])
    if la >= 2 and atari:
        s *= gam[offs[G_ATARI] + 1]
    return s


@kernel
def point_strength(
    b: np.ndarray, st: np.ndarray, p: int, c: int, pidx: np.ndarray, offs: np.ndarray, gam
) -> float:
    """The strength of c playing the empty point p (ko aside; gam from :func:`strengths`), or
    0 when the playout must not play it (illegal, an own true eye, a suicide, a self-atari
    of two or more stones). One colour's half of :func:`point_strengths`."""
    if not _playable(b, st, p, c):
        return 0.0
    w = st[S_W]
    capt, saving, _ = ataris_around(b, w, p, c)
    ab, aw = _threats(b, st, p)
    return _strength(
        b, st, p, c, capt, saving, ab if c == BLACK else aw, pat3_key(b, w, p, c), pidx, offs, gam
    )


@kernel
def point_strengths(b: np.ndarray, st: np.ndarray, p: int, pidx: np.ndarray, offs: np.ndarray, gam) -> tuple:
    """(Black's, White's) :func:`point_strength` at the empty point p, sharing what they can:
    the 3x3 key (White's is Black's with the colours swapped), the stones in atari around p
    (one side's captures are the other's escapes), the two-liberty groups next to p."""
    okb = _playable(b, st, p, BLACK)
    okw = _playable(b, st, p, WHITE)
    if not okb and not okw:
        return 0.0, 0.0
    w = st[S_W]
    kb = pat3_key(b, w, p, BLACK)
    kw = ((kb & 0x5555) << 1) | ((kb & 0xAAAA) >> 1) | (kb & 0xF0000)
    capt, saving, _ = ataris_around(b, w, p, BLACK)
    ab, aw = _threats(b, st, p)
    sb = _strength(b, st, p, BLACK, capt, saving, ab, kb, pidx, offs, gam) if okb else 0.0
    sw = _strength(b, st, p, WHITE, saving, capt, aw, kw, pidx, offs, gam) if okw else 0.0
    return sb, sw


@njit(cache=True, nogil=True, inline="always")
def _set_point(b, st, p: int, pidx, offs, gam, fw) -> None:
    """Both colours' strengths of p (0 for a stone or a move never played)."""
    if b[COLOR, p] == EMPTY:
        sb, sw = point_strengths(b, st, p, pidx, offs, gam)
        fw[0, p] = sb
        fw[1, p] = sw
    else:
        fw[0, p] = 0.0
        fw[1, p] = 0.0


@kernel
def _row_sums(st, fw, rows, y0: int, y1: int) -> None:
    """rows[c, y] = the sum of colour c's strengths in row y, for y in y0..y1."""
    w = st[S_W]
    for y in range(y0, y1 + 1):
        sb = 0.0
        sw = 0.0
        for p in range(y * w + 1, y * w + w - 1):
            sb += fw[0, p]
            sw += fw[1, p]
        rows[0, y] = sb
        rows[1, y] = sw


@kernel
def init_weights(b, st, pidx, offs, gam, fw, rows) -> None:
    """Every point's strengths and the row sums from scratch (the ko point is the draw's)."""
    w = st[S_W]
    ko = st[S_KO]
    st[S_KO] = 0
    for p in range(w * w):
        _set_point(b, st, p, pidx, offs, gam, fw)
    st[S_KO] = ko
    for y in range(w):
        rows[0, y] = 0.0
        rows[1, y] = 0.0
    _row_sums(st, fw, rows, 1, w - 2)


@njit(cache=True, nogil=True, inline="always")
def _push(iw, n: int, q: int) -> int:
    """Queue the point q unless it is queued; returns the queue's length."""
    if iw[IW_MARK, q] == 0:
        iw[IW_MARK, q] = 1
        iw[IW_QUEUE, n] = q
        n += 1
    return n


@njit(cache=True, nogil=True, inline="always")
def _push_around(iw, n: int, q: int, w: int) -> int:
    """Queue q and its eight neighbours."""
    for r in (q - w - 1, q - w, q - w + 1, q - 1, q, q + 1, q + w - 1, q + w, q + w + 1):
        n = _push(iw, n, r)
    return n


@kernel
def _push_group(b, iw, n: int, h: int, w: int, nh: int) -> tuple[int, int]:
    """Queue the liberties of the group with head h and the liberty of each opposing group in
    atari next to it, unless h was walked already; returns (queue length, heads walked)."""
    for i in range(nh):
        if iw[IW_HEADS, i] == h:
            return n, nh
    iw[IW_HEADS, nh] = h
    nh += 1
    o = 3 - b[COLOR, h]
    s = h
    while True:
        for r in (s - 1, s + 1, s - w, s + w):
            col = b[COLOR, r]
            if col == EMPTY:
                n = _push(iw, n, r)
            elif col == o and in_atari(b, b[HEAD, r]):
                n = _push(iw, n, atari_liberty(b, b[HEAD, r]))
        s = b[NEXT, s]
        if s == h:
            break
    return n, nh


@kernel
def update_weights(b, st, p: int, ncapt: int, roomy: bool, pidx, offs, gam, fw, rows, iw) -> int:
    """After a stone at p that captured iw[IW_CAPT, :ncapt]: recompute the strengths that
    can have changed and the sums of their rows; returns how many points it recomputed.
    roomy: every group of the mover next to p had four liberties or more before the move."""
    w = st[S_W]
    n = _push_around(iw, 0, p, w)
    nh = 0
    h = b[HEAD, p]
    if not roomy or count_libs(b, w, h, 4) < 4:
        # its liberties have changed in a way that matters (the new ones are p's neighbours)
        n, nh = _push_group(b, iw, n, h, w, nh)
    o = 3 - b[COLOR, p]
    for q in (p - 1, p + 1, p - w, p + w):
        # an opposing group lost the liberty p: nothing changes at its liberties while it
        # keeps four (libs_after saturates at three, no atari, no two liberties)
        if b[COLOR, q] == o and count_libs(b, w, b[HEAD, q], 4) < 4:
            n, nh = _push_group(b, iw, n, b[HEAD, q], w, nh)
    for i in range(ncapt):
        s = iw[IW_CAPT, i]
        n = _push_around(iw, n, s, w)
        for q in (s - 1, s + 1, s - w, s + w):
            col = b[COLOR, q]
            if col == BLACK or col == WHITE:
                n, nh = _push_group(b, iw, n, b[HEAD, q], w, nh)
    ko = st[S_KO]
    st[S_KO] = 0
    y0 = w
    y1 = 0
    for i in range(n):
        q = iw[IW_QUEUE, i]
        iw[IW_MARK, q] = 0
        _set_point(b, st, q, pidx, offs, gam, fw)
        y = q // w
        y0 = min(y0, y)
        y1 = max(y1, y)
    st[S_KO] = ko
    _row_sums(st, fw, rows, max(y0, 1), min(y1, w - 2))
    return n


@njit(cache=True, nogil=True, inline="always")
def _adjust(fw, w: int, q: int, stored: float, x: float) -> float:
    """Give q (whose stored strength is stored) the strength x at this draw; returns the
    change of its row's sum."""
    old = fw[FW_ADJ, q] if fw[FW_ADJ, q] >= 0.0 else stored
    d = x - old
    fw[FW_ADJ, q] = x
    fw[FW_ROWADJ, q // w] += d
    return d


@kernel
def draw_move(b, st, c: int, offs, gam, fw, rows) -> int:
    """A point drawn for c in proportion to its strength (distance factors and ko applied
    around the last move), or PASS when no point has any."""
    w = st[S_W]
    n = st[S_N]
    ci = c - 1
    total = 0.0
    for y in range(1, n + 1):
        fw[FW_ROWADJ, y] = 0.0
        total += rows[ci, y]
    last = st[S_LAST]
    lo = 0
    hi = -1
    if last >= 0:
        lo = max(last // w - WINDOW, 1)
        hi = min(last // w + WINDOW, n)
        d1 = offs[G_DIST1]
        if gam[d1] != 1.0:
            lx = last % w
            for y in range(lo, hi + 1):
                for x in range(max(lx - WINDOW, 1), min(lx + WINDOW, n) + 1):
                    q = y * w + x
                    wq = fw[ci, q]
                    if wq > 0.0:
                        dx = abs(x - lx)
                        dy = abs(y - last // w)
                        lv = min(dx + dy + max(dx, dy), 17) - 2
                        total += _adjust(fw, w, q, wq, wq * gam[d1 + lv])
    ko = st[S_KO]
    if ko > 0 and st[S_KOCOL] == c and fw[ci, ko] > 0.0:
        total += _adjust(fw, w, ko, fw[ci, ko], 0.0)
        lo = min(lo, ko // w) if hi >= lo else ko // w
        hi = max(hi, ko // w)
    best = PASS
    if total > 0.0:
        r = np.random.random() * total
        for y in range(1, n + 1):
            s = rows[ci, y] + fw[FW_ROWADJ, y]
            if r >= s and y < n:
                r -= s
                continue
            for q in range(y * w + 1, y * w + n + 1):
                x = fw[FW_ADJ, q] if fw[FW_ADJ, q] >= 0.0 else fw[ci, q]
                if x > 0.0:
                    best = q
                    r -= x
                    if r < 0.0:
                        break
            if best != PASS:
                break
        if best == PASS:  # rounding left r past the last row: any point with a strength
            for q in range(w * w - 1, -1, -1):
                if (fw[FW_ADJ, q] if fw[FW_ADJ, q] >= 0.0 else fw[ci, q]) > 0.0:
                    best = q
                    break
    # the draw's adjustments are forgotten
    if hi >= lo:
        for y in range(lo, hi + 1):
            for q in range(y * w + 1, y * w + n + 1):
                fw[FW_ADJ, q] = -1.0
    return best


@njit(cache=True, nogil=True, inline="always")
def _captured(b, st, p: int, c: int, iw) -> int:
    """The stones c's move at p captures into iw[IW_CAPT]; returns how many."""
    w = st[S_W]
    o = 3 - c
    k = 0
    for q in (p - 1, p + 1, p - w, p + w):
        if b[COLOR, q] == o:
            h = b[HEAD, q]
            if in_atari(b, h) and iw[IW_MARK, h] == 0:
                iw[IW_MARK, h] = 1
                s = h
                while True:
                    iw[IW_CAPT, k] = s
                    k += 1
                    s = b[NEXT, s]
                    if s == h:
                        break
    for q in (p - 1, p + 1, p - w, p + w):
        if b[COLOR, q] == o:
            iw[IW_MARK, b[HEAD, q]] = 0
    return k


@kernel
def choose_move(b, st, c: int, offs, gam, sp, fw, rows, cand) -> int:
    """The softmax policy's move for c: with probability sp[SP_TACTICS] a heavy-playout
    capture or escape around the last move, else a draw by strength."""
    last = st[S_LAST]
    if last >= 0 and sp[SP_TACTICS] > 0.0 and np.random.random() < sp[SP_TACTICS]:
        nc = tactical_moves(b, st, c, last, cand)
        p = random_move(b, st, c, cand, nc, is_legal)
        if p != PASS and fw[c - 1, p] > 0.0:
            return p
    return draw_move(b, st, c, offs, gam, fw, rows)


@kernel
def play_softmax(b, st, zob, p: int, c: int, pidx, offs, gam, fw, rows, iw) -> int:
    """c plays p (or PASS) and the strengths follow; returns how many points were recomputed."""
    if p == PASS:
        play_pass(st)
        return 0
    k = _captured(b, st, p, c, iw)
    roomy = True
    w = st[S_W]
    for q in (p - 1, p + 1, p - w, p + w):
        if b[COLOR, q] == c and count_libs(b, w, b[HEAD, q], 4) < 4:
            roomy = False
    place(b, st, zob, p, c)
    return update_weights(b, st, p, k, roomy, pidx, offs, gam, fw, rows, iw)


@kernel
def run_softmax_playout(
    b: np.ndarray,
    st: np.ndarray,
    zob: np.ndarray,
    max_moves: int,
    moves: np.ndarray,
    pidx: np.ndarray,
    offs: np.ndarray,
    gam: np.ndarray,
    sp: np.ndarray,
    fw: np.ndarray,
    rows: np.ndarray,
    iw: np.ndarray,
    cand: np.ndarray,
) -> int:
    """Play the softmax policy in place until two passes or max_moves; records the points
    played (PASS = -1) in moves as far as it has room; returns the moves played.

    pidx, offs: the move model's 3x3 index and group offsets; gam: its gammas
    (:func:`strengths`); sp: the settings (:func:`settings`); fw, rows, iw: the workspace
    (:func:`new_workspace`); cand: 64 int64 of scratch for the heavy playout's tactics."""
    init_weights(b, st, pidx, offs, gam, fw, rows)
    n = 0
    while n < max_moves and st[S_PASSES] < 2:
        c = st[S_TOMOVE]
        p = choose_move(b, st, c, offs, gam, sp, fw, rows, cand)
        play_softmax(b, st, zob, p, c, pidx, offs, gam, fw, rows, iw)
        if n < moves.shape[0]:
            moves[n] = p
        n += 1
    return n
