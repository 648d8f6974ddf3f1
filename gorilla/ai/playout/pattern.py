"""Pattern playouts: moves drawn in proportion to compiled pattern values (numba, nogil).

``run_pattern_playout(b, st, zob, max_moves, moves, table, cidx, ws) -> n`` has
the calling convention of :func:`gorilla.ai.playout.light.run_playout` plus the
compiled tables (:mod:`gorilla.ai.playout.tables`) and a per-thread workspace
from :func:`new_workspace`. It plays from (b, st) in place until two passes or
``max_moves`` moves and records the points played (PASS = -1) in ``moves``.

Each move of colour c at an empty point q has the value
``table[cidx[c - 1, code[q]], context]`` where ``code[q]`` is q's 3x3
neighbourhood (kept up to date incrementally as stones are placed and
captured) and the context packs near / osafe / xsafe / xsuicide / ocap / xcap
(see :mod:`gorilla.ai.playout.database`). Illegal moves (occupied, simple ko,
suicide) are worth 0. A side whose moves are all worth 0 passes; two passes in a
row end the playout, i.e. it ends when all values are zero for both players.

The bookkeeping follows GNU Go's Monte-Carlo board. Every empty point keeps
its context (Black's view; :func:`white_context` derives White's from it) and,
for each colour, a *base* value (as if far from the last move, ko ignored) and
a *near* value. Base values are kept in per-row running sums, so a draw costs
O(rows + columns). Each move queues the points whose context may have
changed -- the stone played and its four neighbours, everything around a
capture, and the liberties of groups whose liberty count fell to two or one
or rose from there (only the classes 0, 1 and 2-or-more enter a context) --
and recomputes them once for both colours; the four diagonal neighbours only
look their values up again under their new code. For one draw, the points
near the last move take their near values and an illegal ko capture takes 0;
then the base values are put back (:func:`apply_near`, :func:`restore`).
:func:`checked_playout` compares all of this with a recomputation from
scratch after every move.

"Near" the previous move means in its 3x3 neighbourhood, or the liberty of a
string in atari that contains or touches the previous move (the move to
extend out of the atari it created, or to capture it).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gorilla.ai.playout.database import NEAR, OCAP_SHIFT, OSAFE, XCAP_SHIFT, XSAFE, XSUICIDE
from gorilla.ai.playout.pat3 import pat3_code
from gorilla.rules.board import (
    COLOR,
    EMPTY,
    GSIZE,
    HEAD,
    LIBS,
    LSQ,
    LSUM,
    MAX_POINTS,
    NEXT,
    PASS,
    S_KO,
    S_KOCOL,
    S_LAST,
    S_N,
    S_PASSES,
    S_TOMOVE,
    S_W,
    STONES,
    atari_liberty,
    in_atari,
    kernel,
    neighbour_groups,
    place,
    play_pass,
)

MAX_MOVES = 600  # the hard cap GNU Go uses for its 9x9 playouts

# workspace rows
CODE = 0  # 3x3 neighbourhood code of every point
CTX = 1  # point_context(q, BLACK) of every empty point
VAL = 2  # VAL + c - 1: base value of each point for colour c (0: occupied or suicide)
ROWSUM = 4  # ROWSUM + c - 1: sums of VAL + c - 1 by board row
ROWOF = 6  # board row of each point
QMARK = 7  # queue stamp per point
QLIST = 8  # points queued by the current move
SAVEP = 9  # points whose value one draw changed (near, ko) ...
SAVEV = 10  # ... and their base values, restored after the draw
HMARK = 11  # stamp per group head or captured stone (already looked at by this move)
VALN = 12  # VALN + c - 1: near value of each empty point for colour c
SC = 14  # scalars
NWS = 15
# scalar slots (row SC)
TOT = 0  # TOT + c - 1: sum of colour c's values
QSTAMP = 2


def new_workspace() -> np.ndarray:
    """Scratch space for one thread's pattern playouts (any board size)."""
    return np.zeros((NWS, MAX_POINTS), dtype=np.int64)


@njit(cache=True, nogil=True, inline="always")
def _addlib(n: int, a: int, bb: int, r: int) -> tuple[int, int, int]:
    """Add liberty r to a saturating (count <= 2, first, second) set."""
    if n >= 2 or r == a or r == bb:
        return n, a, bb
    if n == 0:
        return 1, r, bb
    return 2, a, r


@kernel
def _extra_libs(b: np.ndarray, w: int, q: int, x: int, n: int, a: int, bb: int) -> tuple[int, int, int]:
    """Liberties of x's string at q freed by captures of stones not adjacent to q (rare)."""
    y = 3 - x
    for r in (q - 1, q + 1, q - w, q + w):
        if b[COLOR, r] != y:
            continue
        g = b[HEAD, r]
        if not (in_atari(b, g) and atari_liberty(b, g) == q):
            continue
        s = g
        while True:
            if s != q - 1 and s != q + 1 and s != q - w and s != q + w:
                for t in (s - 1, s + 1, s - w, s + w):
                    if b[COLOR, t] == x:
                        ht = b[HEAD, t]
                        for u in (q - 1, q + 1, q - w, q + w):
                            if b[COLOR, u] == x and b[HEAD, u] == ht:
                                n, a, bb = _addlib(n, a, bb, s)
                                break
            if n >= 2:
                return n, a, bb
            s = b[NEXT, s]
            if s == g:
                break
    return n, a, bb


@njit(cache=True, nogil=True, inline="always")
def _libs_besides(b: np.ndarray, w: int, q: int, h: int, col: int) -> int:
    """The liberties other than q of group h (colour col) next to q: the point when there is
    one, -1 for two or more, 0 for none (q is its last; point 0 is off the board)."""
    k = 0
    for t in (q - 1, q + 1, q - w, q + w):
        if b[HEAD, t] == h and b[COLOR, t] == col:
            k += 1
    n1 = np.int64(b[LIBS, h]) - k
    if n1 == 0:
        return 0
    s1 = np.int64(b[LSUM, h]) - k * q
    if s1 * s1 == n1 * (np.int64(b[LSQ, h]) - k * q * q):
        return s1 // n1
    return -1


@kernel
def _context_full(b: np.ndarray, w: int, q: int, c: int) -> int:
    """point_context for a point with at most one empty neighbour.

    Each neighbour group's liberties other than q come from its pseudo-liberty sums;
    up to two distinct liberties are tracked per side, and liberties freed by captured
    stones that do not touch q are found by walking the captured group (rare).
    """
    cn = 0
    ca = -1
    cb = -1
    on = 0
    oa = -1
    ob = -1
    ccap = 0
    xcap = 0
    for r in (q - 1, q + 1, q - w, q + w):
        if b[COLOR, r] == EMPTY:
            cn, ca, cb = _addlib(cn, ca, cb, r)
            on, oa, ob = _addlib(on, oa, ob, r)
    for h in neighbour_groups(b, w, q, STONES):  # one pass over both colours: a hot loop
        if h < 0:
            break
        col = b[COLOR, h]
        lib = _libs_besides(b, w, q, h, col)
        if lib == 0:
            # captured by the move: its stones next to q become liberties of the other side
            sz = np.int64(b[GSIZE, h])
            if col == c:
                xcap += sz
                for t in (q - 1, q + 1, q - w, q + w):
                    if b[COLOR, t] == col and b[HEAD, t] == h:
                        on, oa, ob = _addlib(on, oa, ob, t)
            else:
                ccap += sz
                for t in (q - 1, q + 1, q - w, q + w):
                    if b[COLOR, t] == col and b[HEAD, t] == h:
                        cn, ca, cb = _addlib(cn, ca, cb, t)
        elif lib > 0:
            if col == c:
                cn, ca, cb = _addlib(cn, ca, cb, lib)
            else:
                on, oa, ob = _addlib(on, oa, ob, lib)
        elif col == c:
            cn = 2
        else:
            on = 2
    o = 3 - c
    if cn < 2 and ccap > 0:
        cn, ca, cb = _extra_libs(b, w, q, c, cn, ca, cb)
    if on < 2 and xcap > 0:
        on, oa, ob = _extra_libs(b, w, q, o, on, oa, ob)
    ctx = (min(ccap, 3) << OCAP_SHIFT) | (min(xcap, 3) << XCAP_SHIFT)
    if cn >= 2:
        ctx |= OSAFE
    if on >= 2:
        ctx |= XSAFE
    if on == 0:
        ctx |= XSUICIDE
    return ctx | (cn << 8)


@njit(cache=True, nogil=True, inline="always")
def point_context(b: np.ndarray, w: int, q: int, c: int) -> int:
    """Context bits (without NEAR) of c playing at empty q, plus ``libs << 8``.

    libs is c's liberty count after the move, 0, 1 or 2 (two or more); captured
    stones count as liberties. Pseudo-liberty sums give each neighbour group's
    liberties other than q in O(1) (libEGO's trick applied to the remainder).
    """
    x0 = b[COLOR, q - 1]
    x1 = b[COLOR, q + 1]
    x2 = b[COLOR, q - w]
    x3 = b[COLOR, q + w]
    if (x0 == EMPTY) + (x1 == EMPTY) + (x2 == EMPTY) + (x3 == EMPTY) >= 2:
        # two empty neighbours: safe for both sides; only captures remain to be found, and a
        # neighbour group is captured at q only if all its (at most two) pseudo-liberties are q
        ccap = 0
        xcap = 0
        seen = -1
        for r in (q - 1, q + 1, q - w, q + w):
            col = b[COLOR, r]
            if col == 1 or col == 2:
                h = b[HEAD, r]
                if h != seen and b[LIBS, h] <= 2:
                    seen = h
                    k = 0
                    for t in (q - 1, q + 1, q - w, q + w):
                        if b[HEAD, t] == h and b[COLOR, t] == col:
                            k += 1
                    if b[LIBS, h] == k:
                        if col == c:
                            xcap += np.int64(b[GSIZE, h])
                        else:
                            ccap += np.int64(b[GSIZE, h])
        ctx = OSAFE | XSAFE | (2 << 8)
        ctx |= (ccap if ccap < 3 else 3) << OCAP_SHIFT
        return ctx | ((xcap if xcap < 3 else 3) << XCAP_SHIFT)
    return _context_full(b, w, q, c)


@njit(cache=True, nogil=True, inline="always")
def _shift_code(ws: np.ndarray, w: int, s: int, delta: int) -> None:
    """Point s changed colour by delta: update the codes of its 8 neighbours."""
    ws[CODE, s + w + 1] += delta
    ws[CODE, s + w] += delta << 2
    ws[CODE, s + w - 1] += delta << 4
    ws[CODE, s + 1] += delta << 6
    ws[CODE, s - 1] += delta << 8
    ws[CODE, s - w + 1] += delta << 10
    ws[CODE, s - w] += delta << 12
    ws[CODE, s - w - 1] += delta << 14


@njit(cache=True, nogil=True, inline="always")
def white_context(raw: int) -> int:
    """White's context from Black's ``point_context`` at the same point (-1: suicide for White).

    One call serves both colours: White's osafe / xsafe / xsuicide are Black's
    xsafe / osafe / suicide, and the capture counts swap.
    """
    if raw & XSUICIDE:
        return -1
    ctx = ((raw & XSAFE) >> 1) | ((raw & OSAFE) << 1)
    if raw < 256:
        ctx |= XSUICIDE
    ctx |= ((raw >> OCAP_SHIFT) & 3) << XCAP_SHIFT
    ctx |= ((raw >> XCAP_SHIFT) & 3) << OCAP_SHIFT
    return ctx


@njit(cache=True, nogil=True, inline="always")
def _set_val(ws: np.ndarray, k: int, q: int, v: int) -> None:
    old = ws[VAL + k, q]
    if old != v:
        ws[VAL + k, q] = v
        d = v - old
        ws[ROWSUM + k, ws[ROWOF, q]] += d
        ws[SC, TOT + k] += d


@njit(cache=True, nogil=True, inline="always")
def _revalue(ws: np.ndarray, q: int, raw: int, table: np.ndarray, cidx: np.ndarray) -> None:
    """Both colours' values at empty q from its context raw: base (VAL, summed) and near (VALN)."""
    code = ws[CODE, q]
    vb = 0
    vbn = 0
    if raw >= 256:
        row = cidx[0, code]
        ctx = raw & 255
        vb = np.int64(table[row, ctx])
        vbn = np.int64(table[row, ctx | NEAR])
    vw = 0
    vwn = 0
    ctx = white_context(raw)
    if ctx >= 0:
        row = cidx[1, code]
        vw = np.int64(table[row, ctx])
        vwn = np.int64(table[row, ctx | NEAR])
    ws[VALN, q] = vbn
    ws[VALN + 1, q] = vwn
    _set_val(ws, 0, q, vb)
    _set_val(ws, 1, q, vw)


@njit(cache=True, nogil=True, inline="always")
def _queue(ws: np.ndarray, stamp: int, n: int, q: int) -> int:
    if ws[QMARK, q] != stamp:
        ws[QMARK, q] = stamp
        ws[QLIST, n] = q
        n += 1
    return n


@njit(cache=True, nogil=True, inline="always")
def _queue_libs_if_low(b: np.ndarray, ws: np.ndarray, w: int, stamp: int, n: int, h: int) -> int:
    """Queue the liberties of the group of stone h when it has at most two.

    O(1) after finding one liberty a: the pseudo-liberties other than a's (a touches m
    of the group's stones) are all one point exactly when ``s**2 == cnt * sq`` (libEGO's
    atari test applied to the rest).
    """
    g = b[HEAD, h]
    cnt = np.int64(b[LIBS, g])
    if cnt >= 9:
        return n  # a liberty touches at most 4 stones: 9 pseudo-liberties are 3 or more liberties
    col = b[COLOR, g]
    a = -1
    s = h
    while a < 0:
        for r in (s - 1, s + 1, s - w, s + w):
            if b[COLOR, r] == EMPTY:
                a = r
                break
        s = b[NEXT, s]
    m = 0
    for t in (a - 1, a + 1, a - w, a + w):
        if b[HEAD, t] == g and b[COLOR, t] == col:
            m += 1
    cnt -= m
    if cnt == 0:
        return _queue(ws, stamp, n, a)
    s1 = np.int64(b[LSUM, g]) - m * a
    q1 = np.int64(b[LSQ, g]) - m * a * a
    if s1 * s1 == cnt * q1:
        n = _queue(ws, stamp, n, a)
        n = _queue(ws, stamp, n, s1 // cnt)
    return n


@kernel
def _update(b: np.ndarray, ws: np.ndarray, w: int, n: int, table: np.ndarray, cidx: np.ndarray) -> None:
    """Recompute the context and both base values of the n queued points."""
    for i in range(n):
        q = ws[QLIST, i]
        if b[COLOR, q] != EMPTY:
            _set_val(ws, 0, q, 0)
            _set_val(ws, 1, q, 0)
            ws[VALN, q] = 0
            ws[VALN + 1, q] = 0
            continue
        raw = point_context(b, w, q, 1)
        ws[CTX, q] = raw
        _revalue(ws, q, raw, table, cidx)


@kernel
def _queue_old_libs_if_low(b: np.ndarray, ws: np.ndarray, w: int, stamp: int, n: int, h: int) -> int:
    """Queue the liberties of the group at h that it had before this move's capture, if at most two.

    Points captured by this move (marked in HMARK) do not count. A group that had three or
    more liberties keeps every liberty's context: each still has two others after the capture.
    """
    a = -1
    bb = -1
    k = 0
    s = np.int64(h)
    while True:
        for r in (s - 1, s + 1, s - w, s + w):
            if b[COLOR, r] == EMPTY and ws[HMARK, r] != stamp and r != a and r != bb:
                if k == 0:
                    a = r
                elif k == 1:
                    bb = r
                else:
                    return n
                k += 1
        s = np.int64(b[NEXT, s])
        if s == h:
            break
    if k >= 1:
        n = _queue(ws, stamp, n, a)
    if k >= 2:
        n = _queue(ws, stamp, n, bb)
    return n


@kernel
def _mark_captured(ws: np.ndarray, b: np.ndarray, w: int, stamp: int, g: int, o: int) -> None:
    """The o group at g was captured (now empty, its NEXT ring intact): new codes, HMARK = stamp."""
    s = np.int64(g)
    while True:
        _shift_code(ws, w, s, -o)
        ws[HMARK, s] = stamp
        s = np.int64(b[NEXT, s])
        if s == g:
            break


@kernel
def _queue_captured(b: np.ndarray, ws: np.ndarray, w: int, stamp: int, n: int, g: int, c: int) -> int:
    """Queue what c's capture of the group at g changed (every captured stone marked first).

    Queued: the 3x3 of every captured stone and, for each of c's groups next to it (each
    looked at once), its old liberties when it had at most two. Returns the new queue length.
    """
    s = np.int64(g)
    while True:
        for r in (s - w - 1, s - w, s - w + 1, s - 1, s, s + 1, s + w - 1, s + w, s + w + 1):
            if b[COLOR, r] == EMPTY:
                n = _queue(ws, stamp, n, r)
        for r in (s - 1, s + 1, s - w, s + w):
            if b[COLOR, r] == c:
                h = b[HEAD, r]
                if ws[HMARK, h] != stamp:
                    ws[HMARK, h] = stamp
                    n = _queue_old_libs_if_low(b, ws, w, stamp, n, h)
        s = np.int64(b[NEXT, s])
        if s == g:
            break
    return n


@kernel
def do_move(b, st, zob, ws, table, cidx, p: int, c: int) -> int:
    """Play c at p (legal, not suicide) and bring both colours' values up to date.

    Returns the number of points queued (whose context was recomputed).
    """
    w = st[S_W]
    o = 3 - c
    stamp = ws[SC, QSTAMP] + 1
    ws[SC, QSTAMP] = stamp
    n = 0
    # before the stone goes down: the enemy groups next to p, and the single liberty each of
    # c's groups next to p keeps besides p (it merges into p's group, whose liberties may be
    # many: that liberty's context changes all the same)
    enemies = neighbour_groups(b, w, p, o)
    for h in neighbour_groups(b, w, p, c):
        if h < 0:
            break
        lib = _libs_besides(b, w, p, h, c)
        if lib > 0:
            n = _queue(ws, stamp, n, lib)
    place(b, st, zob, p, c)
    _shift_code(ws, w, p, c)
    n = _queue(ws, stamp, n, p)
    ne = 0
    for r in (p - 1, p + 1, p - w, p + w):
        if b[COLOR, r] == EMPTY:
            n = _queue(ws, stamp, n, r)
            ne += 1
    if ne < 2:
        # with two empty neighbours p's group has either exactly those two liberties (just
        # queued) or three or more, which changes no liberty's context: only the liberty
        # classes 0, 1 and 2-or-more matter, and the neighbour groups' single liberties were
        # queued above
        n = _queue_libs_if_low(b, ws, w, stamp, n, p)
    # enemy groups: captured (their stones are empty now, the NEXT ring intact) or with at
    # most two liberties left
    captured = False
    for e in enemies:
        if e >= 0:
            if b[COLOR, e] == EMPTY:
                if not captured:
                    captured = True
                    ws[HMARK, b[HEAD, p]] = stamp  # the mover's group: its liberties were queued above
                _mark_captured(ws, b, w, stamp, e, o)
            else:
                n = _queue_libs_if_low(b, ws, w, stamp, n, e)
    if captured:
        for e in enemies:
            if e >= 0 and b[COLOR, e] == EMPTY:
                n = _queue_captured(b, ws, w, stamp, n, e, c)
    _update(b, ws, w, n, table, cidx)
    # p's diagonal neighbours: a new neighbourhood code, but their context can only have
    # changed through a group whose liberties were queued above
    for r in (p - w - 1, p - w + 1, p + w - 1, p + w + 1):
        if b[COLOR, r] == EMPTY and ws[QMARK, r] != stamp:
            _revalue(ws, r, ws[CTX, r], table, cidx)
    return n


@njit(cache=True, nogil=True, inline="always")
def _atari_lib(b: np.ndarray, r: int) -> int:
    """The liberty of the string at r when r is a stone in atari, else 0 (off the board)."""
    col = b[COLOR, r]
    if col == 1 or col == 2:
        h = b[HEAD, r]
        if in_atari(b, h):
            return atari_liberty(b, h)
    return 0


@njit(cache=True, nogil=True, inline="always")
def _ring(w: int, p: int) -> tuple[int, int, int, int, int, int, int, int]:
    """The 8 points around p, row by row."""
    return (p - w - 1, p - w, p - w + 1, p - 1, p + 1, p + w - 1, p + w, p + w + 1)


@njit(cache=True, nogil=True, inline="always")
def _near_one(ws: np.ndarray, k: int, q: int, ns: int) -> int:
    """Give q its near value for colour k + 1 (saving the base value); returns the new save count."""
    v = ws[VALN + k, q]
    old = ws[VAL + k, q]
    if v != old:
        ws[SAVEP, ns] = q
        ws[SAVEV, ns] = old
        ns += 1
        _set_val(ws, k, q, v)
    return ns


@kernel
def apply_near(b: np.ndarray, st: np.ndarray, ws: np.ndarray, c: int) -> int:
    """Colour c's values for this draw: near values near the last move, 0 for an illegal ko capture.

    Returns how many values changed; :func:`restore` puts the base values back.
    """
    k = c - 1
    ns = 0
    last = st[S_LAST]
    if last >= 0:
        # no emptiness or duplicate checks: stones and the border have near value = value = 0,
        # and giving a point its near value twice changes nothing the second time
        w = st[S_W]
        for r in _ring(w, last):
            ns = _near_one(ws, k, r, ns)
        for r in (last, last - 1, last + 1, last - w, last + w):
            lib = _atari_lib(b, r)
            if lib > 0:
                ns = _near_one(ws, k, lib, ns)
    ko = st[S_KO]
    if ko > 0 and st[S_KOCOL] == c:
        old = ws[VAL + k, ko]
        if old != 0:
            ws[SAVEP, ns] = ko
            ws[SAVEV, ns] = old
            ns += 1
            _set_val(ws, k, ko, 0)
    return ns


@kernel
def restore(ws: np.ndarray, c: int, ns: int) -> None:
    """Undo :func:`apply_near` (in reverse order: a point may have been saved twice)."""
    k = c - 1
    for i in range(ns - 1, -1, -1):
        _set_val(ws, k, ws[SAVEP, i], ws[SAVEV, i])


@kernel
def start(b, st, ws, table, cidx) -> None:
    """Set up the workspace (codes, contexts, both colours' values) for a playout from (b, st)."""
    w = st[S_W]
    n = st[S_N]
    for y in range(n + 2):
        ws[ROWSUM, y] = 0
        ws[ROWSUM + 1, y] = 0
    ws[SC, TOT] = 0
    ws[SC, TOT + 1] = 0
    for p in range(w * w):  # stones and the border keep value 0 (apply_near relies on it)
        ws[VAL, p] = 0
        ws[VAL + 1, p] = 0
        ws[VALN, p] = 0
        ws[VALN + 1, p] = 0
    for y in range(1, n + 1):
        for x in range(1, n + 1):
            p = y * w + x
            ws[ROWOF, p] = y
            ws[CODE, p] = pat3_code(b, w, p)
            if b[COLOR, p] == EMPTY:
                raw = point_context(b, w, p, 1)
                ws[CTX, p] = raw
                _revalue(ws, p, raw, table, cidx)


@kernel
def draw(ws: np.ndarray, st: np.ndarray, c: int) -> int:
    """A point drawn with probability proportional to c's values (total must be > 0)."""
    k = c - 1
    w = st[S_W]
    n = st[S_N]
    r = np.random.randint(0, ws[SC, TOT + k])
    for y in range(1, n + 1):
        rs = ws[ROWSUM + k, y]
        if r < rs:
            base = y * w
            for x in range(1, n + 1):
                v = ws[VAL + k, base + x]
                if r < v:
                    return base + x
                r -= v
        r -= rs
    return PASS  # unreachable when the sums are consistent


@kernel
def run_pattern_playout(
    b: np.ndarray,
    st: np.ndarray,
    zob: np.ndarray,
    max_moves: int,
    moves: np.ndarray,
    table: np.ndarray,
    cidx: np.ndarray,
    ws: np.ndarray,
) -> int:
    """A pattern playout in place; returns moves played (passes included)."""
    start(b, st, ws, table, cidx)
    n = 0
    while n < max_moves and st[S_PASSES] < 2:
        c = st[S_TOMOVE]
        ns = apply_near(b, st, ws, c)
        p = PASS
        if ws[SC, TOT + c - 1] > 0:
            p = draw(ws, st, c)
        restore(ws, c, ns)
        if p == PASS:
            play_pass(st)
        else:
            do_move(b, st, zob, ws, table, cidx, p, c)
        if n < moves.shape[0]:
            moves[n] = p
        n += 1
    return n


@njit(cache=True, nogil=True)
def move_values(b: np.ndarray, st: np.ndarray, c: int, table: np.ndarray, cidx: np.ndarray) -> np.ndarray:
    """Every point's value for c computed from scratch (near = the last move's), int64 per point.

    The reference :func:`checked_playout` holds the incremental bookkeeping to.
    """
    w = st[S_W]
    m = w * w
    near = np.zeros(m, dtype=np.bool_)
    last = st[S_LAST]
    if last >= 0:
        for r in _ring(w, last):
            near[r] = b[COLOR, r] == EMPTY
        for r in (last, last - 1, last + 1, last - w, last + w):
            lib = _atari_lib(b, r)
            if lib > 0:
                near[lib] = True
    out = np.zeros(m, dtype=np.int64)
    for p in range(m):
        if b[COLOR, p] != EMPTY or (p == st[S_KO] and c == st[S_KOCOL]):
            continue
        raw = point_context(b, w, p, c)
        if raw < 256:
            continue  # suicide is never played in a playout
        ctx = raw & 255
        if near[p]:
            ctx |= NEAR
        out[p] = np.int64(table[cidx[c - 1, pat3_code(b, w, p)], ctx])
    return out


@kernel
def _consistent(b, st, ws, table, cidx, c: int, ref: np.ndarray) -> bool:
    w = st[S_W]
    k = c - 1
    ok = True
    tot = 0
    for y in range(1, st[S_N] + 1):
        rs = 0
        for x in range(1, st[S_N] + 1):
            q = y * w + x
            if ws[VAL + k, q] != ref[q]:
                ok = False
            if b[COLOR, q] == EMPTY and ws[CODE, q] != pat3_code(b, w, q):
                ok = False
            rs += ref[q]
        if rs != ws[ROWSUM + k, y]:
            ok = False
        tot += rs
    return ok and tot == ws[SC, TOT + k]


@njit(cache=True, nogil=True)
def checked_playout(b, st, zob, max_moves, table, cidx, ws) -> int:
    """A pattern playout that compares the incremental values with move_values every move.

    Both colours' values are checked (the side to move's with its near values
    and ko applied, the other's as they are restored after the draw).
    Returns the number of moves whose values disagreed (0 when the bookkeeping is right).
    """
    start(b, st, ws, table, cidx)
    bad = 0
    n = 0
    while n < max_moves and st[S_PASSES] < 2:
        c = st[S_TOMOVE]
        ns = apply_near(b, st, ws, c)
        ok = _consistent(b, st, ws, table, cidx, c, move_values(b, st, c, table, cidx))
        p = PASS
        if ws[SC, TOT + c - 1] > 0:
            p = draw(ws, st, c)
        restore(ws, c, ns)
        # base values: what the values would be with no last move and no ko
        last = st[S_LAST]
        ko = st[S_KO]
        st[S_LAST] = PASS
        st[S_KO] = 0
        for cc in (1, 2):
            if not _consistent(b, st, ws, table, cidx, cc, move_values(b, st, cc, table, cidx)):
                ok = False
        st[S_LAST] = last
        st[S_KO] = ko
        if not ok:
            bad += 1
        if p == PASS:
            play_pass(st)
        else:
            do_move(b, st, zob, ws, table, cidx, p, c)
        n += 1
    return bad
