"""Pattern playouts: moves drawn in proportion to compiled pattern values (numba, nogil).

``run_pattern_playout(b, st, zob, max_moves, moves, table, cidx, ws) -> n`` has
the calling convention of :func:`gorilla.ai.playout.run_playout` plus the
compiled tables (:mod:`gorilla.ai.patterns.compile`) and a per-thread workspace
from :func:`new_workspace`. It plays from (b, st) in place until two passes or
``max_moves`` moves and records the points played (PASS = -1) in ``moves``.

Each move of colour c at an empty point q has the value
``table[cidx[c - 1, code[q]], context]`` where ``code[q]`` is q's 3x3
neighbourhood (kept up to date incrementally as stones are placed and
captured) and the context packs near / osafe / xsafe / xsuicide / ocap / xcap
(see :mod:`gorilla.ai.patterns.database`). Illegal moves (occupied, simple ko,
suicide) are worth 0. A side whose moves are all worth 0 passes; two passes in a
row end the playout, i.e. it ends when all values are zero for both players.

The context is computed once per point and move for both colours (Black's
view is cached in ``CTX``; :func:`white_context` derives White's from it) and
only where the board changed (``CDIRTY``). The values of each colour are kept
in per-row running sums so a draw costs
O(rows + columns). They are refreshed lazily when that colour is to move: only
points whose neighbourhood or context may have changed since its last turn are
recomputed -- the 3x3 of every stone placed or captured, the old and new
"near" sets, the ko points, and the liberties of groups touched by a move whose
liberty class (1, 2 or more) changed.

"Near" the previous move means in its 3x3 neighbourhood, or the liberty of a
string in atari that contains or touches the previous move (the move to
extend out of the atari it created, or to capture it).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gorilla.ai.mcts_patterns import pat3_code
from gorilla.ai.patterns.database import NEAR, OCAP_SHIFT, OSAFE, XCAP_SHIFT, XSAFE, XSUICIDE
from gorilla.rules.board import (
    BORDER,
    COLOR,
    ELIST,
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
    S_NEMPTY,
    S_PASSES,
    S_TOMOVE,
    S_W,
    atari_liberty,
    in_atari,
    kernel,
    place,
    play_pass,
)

MAX_MOVES = 600  # the hard cap GNU Go uses for its 9x9 playouts

# workspace rows
CODE = 0
VAL = 1  # VAL + c - 1
PEND = 3  # pending flags, per colour
DLIST = 5  # pending lists, per colour
NLIST = 7  # near list of each colour's last refresh
NEARM = 9  # near stamp per point
ROWSUM = 11  # per colour, indexed by board row
CAPL = 13  # captured stones of the current move
SC = 14  # scalars
CTX = 15  # cached point_context(q, BLACK), shared by both colours
CDIRTY = 16  # 1 when CTX[q] must be recomputed
NWS = 17
# scalar slots (row SC)
TOT = 0  # + c - 1
NPEND = 2
NNEAR = 4
FULL = 6
STAMP = 8


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


@kernel
def _context_slow(b: np.ndarray, w: int, q: int, c: int) -> int:
    """point_context with the liberties freed by capturing stones away from q (rare)."""
    o = 3 - c
    cn = 0
    ca = -1
    cb = -1
    on = 0
    oa = -1
    ob = -1
    ccap = 0
    xcap = 0
    h0 = -1
    h1 = -1
    h2 = -1
    for r in (q - 1, q + 1, q - w, q + w):
        col = b[COLOR, r]
        if col == EMPTY:
            cn, ca, cb = _addlib(cn, ca, cb, r)
            on, oa, ob = _addlib(on, oa, ob, r)
            continue
        if col == BORDER:
            continue
        h = b[HEAD, r]
        if h == h0 or h == h1 or h == h2:
            continue
        if h0 < 0:
            h0 = h
        elif h1 < 0:
            h1 = h
        else:
            h2 = h
        k = 0
        for t in (q - 1, q + 1, q - w, q + w):
            if b[COLOR, t] == col and b[HEAD, t] == h:
                k += 1
        n1 = np.int64(b[LIBS, h]) - k
        if n1 == 0:
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
        else:
            s1 = np.int64(b[LSUM, h]) - k * q
            q1 = np.int64(b[LSQ, h]) - k * q * q
            if s1 * s1 == n1 * q1:
                lib = s1 // n1
                if col == c:
                    cn, ca, cb = _addlib(cn, ca, cb, lib)
                else:
                    on, oa, ob = _addlib(on, oa, ob, lib)
            elif col == c:
                cn = 2
            else:
                on = 2
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
    cn = 0
    ca = -1
    on = 0
    oa = -1
    ccap = 0
    xcap = 0
    slow = False
    h0 = -1
    h1 = -1
    h2 = -1
    for r in (q - 1, q + 1, q - w, q + w):
        col = b[COLOR, r]
        if col == EMPTY:
            if cn < 2 and r != ca:
                if cn == 0:
                    ca = r
                cn += 1
            if on < 2 and r != oa:
                if on == 0:
                    oa = r
                on += 1
            continue
        if col == BORDER:
            continue
        h = b[HEAD, r]
        if h == h0 or h == h1 or h == h2:
            continue
        if h0 < 0:
            h0 = h
        elif h1 < 0:
            h1 = h
        else:
            h2 = h
        k = 0
        for t in (q - 1, q + 1, q - w, q + w):
            if b[HEAD, t] == h and b[COLOR, t] == col:
                k += 1
        n1 = np.int64(b[LIBS, h]) - k
        if n1 == 0:
            # q is the group's only liberty: the other colour captures it there
            sz = np.int64(b[GSIZE, h])
            if sz > k:
                slow = True
            if col == c:
                xcap += sz
                for t in (q - 1, q + 1, q - w, q + w):
                    if b[HEAD, t] == h and b[COLOR, t] == col and on < 2 and t != oa:
                        if on == 0:
                            oa = t
                        on += 1
            else:
                ccap += sz
                for t in (q - 1, q + 1, q - w, q + w):
                    if b[HEAD, t] == h and b[COLOR, t] == col and cn < 2 and t != ca:
                        if cn == 0:
                            ca = t
                        cn += 1
        else:
            s1 = np.int64(b[LSUM, h]) - k * q
            q1 = np.int64(b[LSQ, h]) - k * q * q
            if s1 * s1 == n1 * q1:
                lib = s1 // n1
                if col == c:
                    if cn < 2 and lib != ca:
                        if cn == 0:
                            ca = lib
                        cn += 1
                elif on < 2 and lib != oa:
                    if on == 0:
                        oa = lib
                    on += 1
            elif col == c:
                cn = 2
            else:
                on = 2
    if slow and (cn < 2 or on < 2):
        return _context_slow(b, w, q, c)
    ctx = (ccap if ccap < 3 else 3) << OCAP_SHIFT
    ctx |= (xcap if xcap < 3 else 3) << XCAP_SHIFT
    if cn >= 2:
        ctx |= OSAFE
    if on >= 2:
        ctx |= XSAFE
    if on == 0:
        ctx |= XSUICIDE
    return ctx | (cn << 8)


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
def _value(b, st, ws, table, cidx, q: int, c: int, stamp: int) -> int:
    if b[COLOR, q] != EMPTY:
        return 0
    if q == st[S_KO] and c == st[S_KOCOL]:
        return 0
    if ws[CDIRTY, q] != 0:
        ws[CDIRTY, q] = 0
        ws[CTX, q] = point_context(b, st[S_W], q, 1)
    raw = ws[CTX, q]
    if c == 1:
        if raw < 256:
            return 0  # suicide is never played in a playout
        ctx = raw & 255
    else:
        ctx = white_context(raw)
        if ctx < 0:
            return 0
    if ws[NEARM, q] == stamp:
        ctx |= NEAR
    return np.int64(table[cidx[c - 1, ws[CODE, q]], ctx])


@njit(cache=True, nogil=True, inline="always")
def _pend(ws: np.ndarray, k: int, q: int) -> None:
    if ws[PEND + k, q] == 0:
        ws[PEND + k, q] = 1
        n = ws[SC, NPEND + k]
        ws[DLIST + k, n] = q
        ws[SC, NPEND + k] = n + 1


@njit(cache=True, nogil=True, inline="always")
def _pend2(ws: np.ndarray, q: int) -> None:
    """q's neighbourhood or context may have changed: recompute it for both colours."""
    ws[CDIRTY, q] = 1
    _pend(ws, 0, q)
    _pend(ws, 1, q)


@njit(cache=True, nogil=True, inline="always")
def _mark_near(b: np.ndarray, st: np.ndarray, ws: np.ndarray, k: int) -> int:
    """Stamp the near set of the last move into NEARM and NLIST[k]; returns the stamp."""
    stamp = ws[SC, STAMP] + 1
    ws[SC, STAMP] = stamp
    last = st[S_LAST]
    w = st[S_W]
    nn = 0
    if last >= 0:
        for r in (
            last - w - 1,
            last - w,
            last - w + 1,
            last - 1,
            last + 1,
            last + w - 1,
            last + w,
            last + w + 1,
        ):
            if b[COLOR, r] == EMPTY:
                ws[NEARM, r] = stamp
                ws[NLIST + k, nn] = r
                nn += 1
        for r in (last, last - 1, last + 1, last - w, last + w):
            col = b[COLOR, r]
            if col == 1 or col == 2:
                h = b[HEAD, r]
                if in_atari(b, h):
                    lib = atari_liberty(b, h)
                    if ws[NEARM, lib] != stamp:
                        ws[NEARM, lib] = stamp
                        ws[NLIST + k, nn] = lib
                        nn += 1
    ws[SC, NNEAR + k] = nn
    return stamp


@njit(cache=True, nogil=True, inline="always")
def _set_val(ws: np.ndarray, k: int, q: int, v: int, w: int) -> None:
    old = ws[VAL + k, q]
    if old != v:
        ws[VAL + k, q] = v
        d = v - old
        ws[ROWSUM + k, q // w] += d
        ws[SC, TOT + k] += d


@kernel
def refresh(b, st, ws, table, cidx, c: int) -> None:
    """Bring colour c's move values up to date for the current position and last move."""
    k = c - 1
    w = st[S_W]
    if ws[SC, FULL + k] != 0:
        ws[SC, FULL + k] = 0
        for i in range(ws[SC, NPEND + k]):
            ws[PEND + k, ws[DLIST + k, i]] = 0
        ws[SC, NPEND + k] = 0
        stamp = _mark_near(b, st, ws, k)
        m = w * w
        for q in range(m):
            ws[VAL + k, q] = 0
        for y in range(w):
            ws[ROWSUM + k, y] = 0
        tot = 0
        for i in range(st[S_NEMPTY]):
            q = b[ELIST, i]
            v = _value(b, st, ws, table, cidx, q, c, stamp)
            ws[VAL + k, q] = v
            ws[ROWSUM + k, q // w] += v
            tot += v
        ws[SC, TOT + k] = tot
        return
    for i in range(ws[SC, NNEAR + k]):
        _pend(ws, k, ws[NLIST + k, i])
    stamp = _mark_near(b, st, ws, k)
    for i in range(ws[SC, NNEAR + k]):
        _pend(ws, k, ws[NLIST + k, i])
    for i in range(ws[SC, NPEND + k]):
        q = ws[DLIST + k, i]
        ws[PEND + k, q] = 0
        _set_val(ws, k, q, _value(b, st, ws, table, cidx, q, c, stamp), w)
    ws[SC, NPEND + k] = 0


@njit(cache=True, nogil=True, inline="always")
def _pend_libs_if_low(b: np.ndarray, ws: np.ndarray, w: int, h: int) -> None:
    """Queue the liberties of the group at h when it has at most two."""
    a = -1
    bb = -1
    n = 0
    s = h
    while True:
        for r in (s - 1, s + 1, s - w, s + w):
            if b[COLOR, r] == EMPTY and r != a and r != bb:
                if n == 0:
                    a = r
                elif n == 1:
                    bb = r
                else:
                    return
                n += 1
        s = b[NEXT, s]
        if s == h:
            break
    if n >= 1:
        _pend2(ws, a)
    if n >= 2:
        _pend2(ws, bb)


@kernel
def _pend_all_libs(b: np.ndarray, ws: np.ndarray, w: int, h: int) -> None:
    s = h
    while True:
        for r in (s - 1, s + 1, s - w, s + w):
            if b[COLOR, r] == EMPTY:
                _pend2(ws, r)
        s = b[NEXT, s]
        if s == h:
            break


@kernel
def do_move(b: np.ndarray, st: np.ndarray, zob: np.ndarray, ws: np.ndarray, p: int, c: int) -> int:
    """Play c at p (legal, not suicide) and queue every point whose value may change."""
    w = st[S_W]
    o = 3 - c
    if st[S_KO] > 0:
        _pend2(ws, st[S_KO])
    ncap = 0
    h0 = -1
    h1 = -1
    h2 = -1
    e0 = -1
    e1 = -1
    e2 = -1
    e3 = -1
    for r in (p - 1, p + 1, p - w, p + w):
        col = b[COLOR, r]
        if col != c and col != o:
            continue
        h = b[HEAD, r]
        if h == h0 or h == h1 or h == h2:
            continue
        if h0 < 0:
            h0 = h
        elif h1 < 0:
            h1 = h
        else:
            h2 = h
        k = 0
        for t in (p - 1, p + 1, p - w, p + w):
            if b[COLOR, t] == col and b[HEAD, t] == h:
                k += 1
        n1 = np.int64(b[LIBS, h]) - k
        if n1 == 0:
            if col == o:
                s = h
                while True:
                    ws[CAPL, ncap] = s
                    ncap += 1
                    s = b[NEXT, s]
                    if s == h:
                        break
            continue
        s1 = np.int64(b[LSUM, h]) - k * p
        q1 = np.int64(b[LSQ, h]) - k * p * p
        if s1 * s1 == n1 * q1:
            _pend2(ws, s1 // n1)
        elif col == o:
            if e0 < 0:
                e0 = h
            elif e1 < 0:
                e1 = h
            elif e2 < 0:
                e2 = h
            else:
                e3 = h
    place(b, st, zob, p, c)
    _shift_code(ws, w, p, c)
    _pend2(ws, p)
    for r in (p - w - 1, p - w, p - w + 1, p - 1, p + 1, p + w - 1, p + w, p + w + 1):
        if b[COLOR, r] == EMPTY:
            _pend2(ws, r)
    if st[S_KO] > 0:
        _pend2(ws, st[S_KO])
    if b[COLOR, p] == c:
        _pend_libs_if_low(b, ws, w, b[HEAD, p])
    for e in (e0, e1, e2, e3):
        if e >= 0:
            _pend_libs_if_low(b, ws, w, e)
    if ncap > 0:
        for i in range(ncap):
            s = ws[CAPL, i]
            _shift_code(ws, w, s, -o)
        for i in range(ncap):
            s = ws[CAPL, i]
            for r in (s - w - 1, s - w, s - w + 1, s - 1, s, s + 1, s + w - 1, s + w, s + w + 1):
                col = b[COLOR, r]
                if col == EMPTY:
                    _pend2(ws, r)
            for r in (s - 1, s + 1, s - w, s + w):
                if b[COLOR, r] == c:
                    _pend_all_libs(b, ws, w, b[HEAD, r])
    return ncap


@kernel
def start(b: np.ndarray, st: np.ndarray, ws: np.ndarray) -> None:
    """Set up the workspace for a playout from (b, st)."""
    w = st[S_W]
    n = st[S_N]
    for y in range(1, n + 1):
        for x in range(1, n + 1):
            p = y * w + x
            ws[CODE, p] = pat3_code(b, w, p)
            ws[CDIRTY, p] = 1
    ws[SC, FULL] = 1
    ws[SC, FULL + 1] = 1
    for k in range(2):
        for i in range(ws[SC, NPEND + k]):
            ws[PEND + k, ws[DLIST + k, i]] = 0
        ws[SC, NPEND + k] = 0


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
    start(b, st, ws)
    n = 0
    while n < max_moves and st[S_PASSES] < 2:
        c = st[S_TOMOVE]
        refresh(b, st, ws, table, cidx, c)
        if ws[SC, TOT + c - 1] == 0:
            if st[S_KO] > 0:
                _pend2(ws, st[S_KO])
            play_pass(st)
            p = PASS
        else:
            p = draw(ws, st, c)
            do_move(b, st, zob, ws, p, c)
        if n < moves.shape[0]:
            moves[n] = p
        n += 1
    return n


@njit(cache=True, nogil=True)
def move_values(b: np.ndarray, st: np.ndarray, c: int, table: np.ndarray, cidx: np.ndarray) -> np.ndarray:
    """Every point's value for c computed from scratch (near = the last move's), int64 per point."""
    w = st[S_W]
    m = w * w
    ws = np.zeros((NWS, m), dtype=np.int64)
    for p in range(m):
        if b[COLOR, p] != BORDER:
            ws[CODE, p] = pat3_code(b, w, p)
            ws[CDIRTY, p] = 1
    stamp = _mark_near(b, st, ws, 0)
    out = np.zeros(m, dtype=np.int64)
    for p in range(m):
        if b[COLOR, p] == EMPTY:
            out[p] = _value(b, st, ws, table, cidx, p, c, stamp)
    return out


@kernel
def checked_playout(b, st, zob, max_moves, table, cidx, ws) -> int:
    """A pattern playout that compares the incremental values with move_values every move.

    Returns the number of moves whose values disagreed (0 when the bookkeeping is right).
    """
    start(b, st, ws)
    w = st[S_W]
    m = w * w
    bad = 0
    n = 0
    while n < max_moves and st[S_PASSES] < 2:
        c = st[S_TOMOVE]
        refresh(b, st, ws, table, cidx, c)
        ref = move_values(b, st, c, table, cidx)
        tot = 0
        ok = True
        for q in range(m):
            if b[COLOR, q] != BORDER:
                if ws[VAL + c - 1, q] != ref[q]:
                    ok = False
                if b[COLOR, q] == EMPTY and ws[CODE, q] != pat3_code(b, w, q):
                    ok = False
                tot += ref[q]
        if tot != ws[SC, TOT + c - 1]:
            ok = False
        if not ok:
            bad += 1
        if ws[SC, TOT + c - 1] == 0:
            if st[S_KO] > 0:
                _pend2(ws, st[S_KO])
            play_pass(st)
        else:
            p = draw(ws, st, c)
            do_move(b, st, zob, ws, p, c)
        n += 1
    return bad
