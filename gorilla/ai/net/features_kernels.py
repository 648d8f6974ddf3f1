"""The hot loops behind :mod:`gorilla.ai.net.inputs`: chains and liberties, KataGo's ladder
search and its pass-alive (Benson) areas, as numba kernels over Gorilla's padded board.

A board here is the colour row of :mod:`gorilla.rules.board` (``EMPTY``, ``BLACK``,
``WHITE``, ``BORDER``; width ``w = n + 2``, row 0 at the top). Scanning the flat index
upwards visits the points in the order KataGo's loops do (``y`` from the top, then ``x``),
which decides which stone of a group KataGo searches first and so which ladder-capture
moves it marks; neighbours are visited in KataGo's order too (up, left, right, down), which
orders the moves the ladder search tries.

The ladder search (:func:`ladder_captured`, :func:`ladder_captured_2libs`) is KataGo's
(``Board::searchIsLadderCaptured`` and ``searchIsLadderCapturedAttackerFirst2Libs`` in
``cpp/game/board.cpp``), written again: an explicit stack, the defender moving first with
every ko taken as won at the root, the defender's moves being the captures that gain
liberties and its liberty, the attacker's its two liberties ordered by KataGo's heuristic,
the early exits on liberty bounds, the double-ko rule, a limit of ``n * n * 3 // 2 + 1``
plies (a ladder that long counts as captured) and of 25000 moves (then it counts as not
captured). The scratch board keeps KataGo's exact liberty counts and undoes moves from a
trail. The areas (:func:`area`) are ``Board::calculateArea`` and
``calculateIndependentLifeArea``: Benson's pass-alive groups and territories, big empty
regions bordered by one colour, the other stones as they are.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gorilla.rules import board as K

# Constants that kernels pass to kernels are numpy scalars: a Python int constant in a call
# is typed as a literal of its value, and each value compiles the callee once more (the
# ladder board's _tset was compiled nine times). tests/test_first_start.py checks for that.
EMPTY, BLACK, WHITE, BORDER = (np.int64(v) for v in range(4))
ZERO, ONE = np.int64(0), np.int64(1)

LADDER_NODE_BUDGET = 25000

# rows of the ladder scratch board
COL, HEAD, NXT, NST, NLIB = (np.int64(v) for v in range(5))
NROWS = 5
KO_ROW = np.int64(5)  # a trail entry for the ko point (kept in st[S_KO])
# slots of the scratch scalars
S_KO, S_TRAIL, S_STAMP = range(3)

# area modes
AREA_NONE, AREA_PLAIN, AREA_KEEP_STONES = 0, 1, 2


# --- chains ------------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def chains(
    color: np.ndarray, w: int, head: np.ndarray, nxt: np.ndarray, nst: np.ndarray, nlib: np.ndarray
) -> None:
    """Every group's head (its first stone in scan order), its stones as a circular list
    (``nxt``), and at the head its size and exact number of liberties; -1 heads elsewhere."""
    m = color.shape[0]
    for p in range(m):
        head[p] = -1
    queue = np.empty(m, dtype=np.int32)
    seen = np.zeros(m, dtype=np.int32)
    for p in range(m):
        c = color[p]
        if (c != BLACK and c != WHITE) or head[p] >= 0:
            continue
        head[p] = p
        queue[0] = p
        qh = 0
        qt = 1
        while qh < qt:
            s = queue[qh]
            qh += 1
            for q in (s - w, s - 1, s + 1, s + w):
                if color[q] == c and head[q] < 0:
                    head[q] = p
                    queue[qt] = q
                    qt += 1
        libs = 0
        for i in range(qt):
            s = queue[i]
            nxt[s] = queue[i + 1] if i + 1 < qt else p
            for q in (s - w, s - 1, s + 1, s + w):
                if color[q] == EMPTY and seen[q] != p + 1:
                    seen[q] = p + 1
                    libs += 1
        nst[p] = qt
        nlib[p] = libs


# --- the ladder scratch board ----------------------------------------------------------------


# The ladder board's small helpers are called with int32 (array reads) and int64 arguments
# alike: one explicit signature each, so every call converts to it instead of compiling
# another specialization (compiled or loaded from the cache at import: a fraction of a second).
_BOARD = "int32[:, ::1], int64[::1], int32[:, ::1]"


@njit(f"void({_BOARD}, int64, int64, int64)", cache=True, nogil=True)
def _tset(bd: np.ndarray, st: np.ndarray, trail: np.ndarray, row: int, i: int, val: int) -> None:
    t = st[S_TRAIL]
    trail[t, 0] = row
    trail[t, 1] = i
    if row == KO_ROW:
        trail[t, 2] = st[S_KO]
        st[S_KO] = val
    else:
        trail[t, 2] = bd[row, i]
        bd[row, i] = val
    st[S_TRAIL] = t + 1


@njit(cache=True, nogil=True)
def _undo(bd: np.ndarray, st: np.ndarray, trail: np.ndarray, mark: int) -> None:
    t = st[S_TRAIL]
    while t > mark:
        t -= 1
        row = trail[t, 0]
        if row == KO_ROW:
            st[S_KO] = trail[t, 2]
        else:
            bd[row, trail[t, 1]] = trail[t, 2]
    st[S_TRAIL] = t


@njit(cache=True, nogil=True)
def _count_libs(bd: np.ndarray, st: np.ndarray, stamp: np.ndarray, w: int, h: int) -> int:
    st[S_STAMP] += 1
    g = st[S_STAMP]
    n = 0
    s = h
    while True:
        for q in (s - w, s - 1, s + 1, s + w):
            if bd[COL, q] == EMPTY and stamp[q] != g:
                stamp[q] = g
                n += 1
        s = bd[NXT, s]
        if s == h:
            break
    return n


@njit(cache=True, nogil=True)
def _merge(bd: np.ndarray, st: np.ndarray, trail: np.ndarray, h1: int, h2: int) -> int:
    """Merge chain h2 into h1 (the larger keeps its head), KataGo's list order:
    h1 -> h2 ... last2 -> next1 ... -> h1. Liberties are recounted by the caller."""
    if bd[NST, h1] < bd[NST, h2]:
        h1, h2 = h2, h1
    _tset(bd, st, trail, NST, h1, bd[NST, h1] + bd[NST, h2])
    s = h2
    while True:
        _tset(bd, st, trail, HEAD, s, h1)
        if bd[NXT, s] == h2:
            break
        s = bd[NXT, s]
    _tset(bd, st, trail, NXT, s, bd[NXT, h1])
    _tset(bd, st, trail, NXT, h1, h2)
    return h1


@njit(cache=True, nogil=True)
def _play(
    bd: np.ndarray, st: np.ndarray, trail: np.ndarray, stamp: np.ndarray, w: int, p: int, c: int
) -> None:
    """A legal move that is no suicide: captures, exact liberties and the ko point."""
    o = 3 - c
    _tset(bd, st, trail, COL, p, c)
    _tset(bd, st, trail, HEAD, p, p)
    _tset(bd, st, trail, NXT, p, p)
    _tset(bd, st, trail, NST, p, ONE)
    for q in (p - w, p - 1, p + 1, p + w):
        if bd[COL, q] == c and bd[HEAD, q] != bd[HEAD, p]:
            _merge(bd, st, trail, bd[HEAD, q], bd[HEAD, p])
    captured = 0
    ko = 0
    s0 = -1
    s1 = -1
    s2 = -1
    for q in (p - w, p - 1, p + 1, p + w):
        if bd[COL, q] != o:
            continue
        h = bd[HEAD, q]
        if h == s0 or h == s1 or h == s2:
            continue
        if s0 < 0:
            s0 = h
        elif s1 < 0:
            s1 = h
        else:
            s2 = h
        _tset(bd, st, trail, NLIB, h, bd[NLIB, h] - 1)
        if bd[NLIB, h] == 0:
            # take the chain off; each stone is a new liberty of the distinct groups beside it
            s = h
            while True:
                _tset(bd, st, trail, COL, s, EMPTY)
                captured += 1
                g0 = -1
                g1 = -1
                g2 = -1
                for r in (s - w, s - 1, s + 1, s + w):
                    if bd[COL, r] == c:
                        g = bd[HEAD, r]
                        if g != g0 and g != g1 and g != g2:
                            if g0 < 0:
                                g0 = g
                            elif g1 < 0:
                                g1 = g
                            else:
                                g2 = g
                            _tset(bd, st, trail, NLIB, g, bd[NLIB, g] + 1)
                s = bd[NXT, s]
                if s == h:
                    break
            ko = q
    hp = bd[HEAD, p]
    _tset(bd, st, trail, NLIB, hp, _count_libs(bd, st, stamp, w, hp))
    if captured == 1 and bd[NST, hp] == 1 and bd[NLIB, hp] == 1:
        _tset(bd, st, trail, KO_ROW, ZERO, ko)
    else:
        _tset(bd, st, trail, KO_ROW, ZERO, ZERO)


@njit(cache=True, nogil=True)
def _is_legal(bd: np.ndarray, st: np.ndarray, w: int, p: int, c: int) -> bool:
    """Empty, not the ko point, not a suicide (multi-stone suicide never counts in ladders)."""
    if bd[COL, p] != EMPTY or p == st[S_KO]:
        return False
    o = 3 - c
    for q in (p - w, p - 1, p + 1, p + w):
        col = bd[COL, q]
        if col == EMPTY:
            return True
        if col == c and bd[NLIB, bd[HEAD, q]] > 1:
            return True
        if col == o and bd[NLIB, bd[HEAD, q]] == 1:
            return True
    return False


@njit("int64(int32[:, ::1], int64, int64, int32[::1], int64, int64)", cache=True, nogil=True)
def _find_libs(bd: np.ndarray, w: int, loc: int, buf: np.ndarray, start: int, idx: int) -> int:
    """Append the liberties of loc's chain to buf at idx, skipping those already in buf[start:]."""
    n = 0
    s = loc
    while True:
        for q in (s - w, s - 1, s + 1, s + w):
            if bd[COL, q] == EMPTY:
                dup = False
                for j in range(start, idx + n):
                    if buf[j] == q:
                        dup = True
                        break
                if not dup:
                    buf[idx + n] = q
                    n += 1
        s = bd[NXT, s]
        if s == loc:
            break
    return n


@njit(cache=True, nogil=True)
def _find_captures(bd: np.ndarray, w: int, loc: int, buf: np.ndarray, start: int, idx: int) -> int:
    """Append the moves capturing a chain in atari beside loc's chain (liberty-gaining
    captures). A chain met twice adds nothing the second time: its liberty is in buf."""
    o = 3 - bd[COL, loc]
    n = 0
    s = loc
    while True:
        for q in (s - w, s - 1, s + 1, s + w):
            if bd[COL, q] == o and bd[NLIB, bd[HEAD, q]] == 1:
                n += _find_libs(bd, w, q, buf, start, idx + n)
        s = bd[NXT, s]
        if s == loc:
            break
    return n


@njit(cache=True, nogil=True)
def _has_captures(bd: np.ndarray, w: int, loc: int) -> bool:
    o = 3 - bd[COL, loc]
    s = loc
    while True:
        for q in (s - w, s - 1, s + 1, s + w):
            if bd[COL, q] == o and bd[NLIB, bd[HEAD, q]] == 1:
                return True
        s = bd[NXT, s]
        if s == loc:
            break
    return False


@njit(cache=True, nogil=True)
def _bound_libs_after(bd: np.ndarray, w: int, p: int, c: int) -> tuple[int, int]:
    """KataGo's quick lower and upper bounds on the liberties of a stone c plays at p."""
    o = 3 - c
    imm = 0
    caps = 0
    cap_libs = 0
    conn = 0
    max_conn = 0
    for q in (p - w, p - 1, p + 1, p + w):
        col = bd[COL, q]
        if col == EMPTY:
            imm += 1
        elif col == o:
            h = bd[HEAD, q]
            if bd[NLIB, h] == 1:
                caps += 1
                cap_libs += bd[NST, h]
        elif col == c:
            k = bd[NLIB, bd[HEAD, q]] - 1
            conn += k
            if k > max_conn:
                max_conn = k
    lower = caps + (max_conn if max_conn > imm else imm)
    upper = imm + cap_libs + conn
    return lower, upper


@njit(cache=True, nogil=True)
def _libs_after_play(bd: np.ndarray, w: int, p: int, c: int, mx: int) -> int:
    """The liberties a stone c plays at p would have, or mx if at least mx."""
    o = 3 - c
    libs = np.empty(mx + 1, dtype=np.int32)
    n = 0
    caps = np.full(4, -1, dtype=np.int32)
    ncaps = 0
    for q in (p - w, p - 1, p + 1, p + w):
        col = bd[COL, q]
        if col == EMPTY or (col == o and bd[NLIB, bd[HEAD, q]] == 1):
            libs[n] = q
            n += 1
            if n >= mx:
                return mx
            if col == o:
                h = bd[HEAD, q]
                if h != caps[0] and h != caps[1] and h != caps[2] and h != caps[3]:
                    caps[ncaps] = h
                    ncaps += 1
    conn = np.full(4, -1, dtype=np.int32)
    nconn = 0
    for q in (p - w, p - 1, p + 1, p + w):
        if bd[COL, q] != c:
            continue
        h = bd[HEAD, q]
        if h == conn[0] or h == conn[1] or h == conn[2] or h == conn[3]:
            continue
        conn[nconn] = h
        nconn += 1
        s = q
        while True:
            for r in (s - w, s - 1, s + 1, s + w):
                if r == p:
                    continue
                col = bd[COL, r]
                empty = col == EMPTY
                if not empty and col == o:
                    g = bd[HEAD, r]
                    empty = g == caps[0] or g == caps[1] or g == caps[2] or g == caps[3]
                if empty:
                    dup = False
                    for j in range(n):
                        if libs[j] == r:
                            dup = True
                            break
                    if not dup:
                        libs[n] = r
                        n += 1
                        if n >= mx:
                            return mx
            s = bd[NXT, s]
            if s == q:
                break
    return n


@njit(cache=True, nogil=True)
def _would_be_ko_capture(bd: np.ndarray, w: int, p: int, c: int) -> bool:
    if bd[COL, p] != EMPTY:
        return False
    o = 3 - c
    cap = -1
    for q in (p - w, p - 1, p + 1, p + w):
        col = bd[COL, q]
        if col != BORDER and col != o:
            return False
        if col == o and bd[NLIB, bd[HEAD, q]] == 1:
            if cap >= 0:
                return False
            cap = q
    if cap < 0:
        return False
    return bd[NST, bd[HEAD, cap]] == 1


@njit(cache=True, nogil=True)
def _immediate_libs(bd: np.ndarray, w: int, p: int) -> int:
    n = 0
    for q in (p - w, p - 1, p + 1, p + w):
        if bd[COL, q] == EMPTY:
            n += 1
    return n


@njit(cache=True, nogil=True)
def _connection_libs_x2(bd: np.ndarray, w: int, p: int, c: int) -> int:
    n = 0
    for q in (p - w, p - 1, p + 1, p + w):
        if bd[COL, q] == c:
            k = bd[NLIB, bd[HEAD, q]]
            if k > 1:
                n += k * 2 - 3
    return n


@njit(cache=True, nogil=True)
def ladder_captured(ws: tuple, w: int, n: int, loc: int, defender_first: bool) -> bool:
    """Whether the chain at loc (at most two liberties; one when the defender moves first)
    is captured in a ladder, as KataGo's ``searchIsLadderCaptured`` reads it. ws is the
    search's board and scratch, ``(bd, st, trail, stamp, buf, stack)`` (see :func:`ladders`).

    The board comes back as it was, but for the ko point when the search ran out of its
    move budget (KataGo's board keeps the ko point cleared then)."""
    bd, st, trail, stamp, buf, stack = ws
    c = bd[COL, loc]
    if c != BLACK and c != WHITE:
        return False
    libs = bd[NLIB, bd[HEAD, loc]]
    if libs > 2 or (defender_first and libs > 1):
        return False
    pla = c
    opp = 3 - c
    ko_saved = st[S_KO]
    if defender_first:
        st[S_KO] = 0
    stack_size = n * n * 3 // 2 + 1
    starts = stack[0]
    lens = stack[1]
    cur = stack[2]
    marks = stack[3]
    idx = 0
    nodes = 0
    cur[0] = -1
    starts[0] = 0
    lens[0] = 0
    ret = False
    deeper = False
    while True:
        if idx <= -1:
            st[S_KO] = ko_saved
            return ret
        if idx >= stack_size - 1:
            ret = True
            deeper = True
            idx -= 1
            continue
        if nodes >= LADDER_NODE_BUDGET:
            _undo(bd, st, trail, np.int64(marks[0]))
            return False
        is_def = (defender_first and idx % 2 == 0) or ((not defender_first) and idx % 2 == 1)
        if cur[idx] == -1:
            libs = bd[NLIB, bd[HEAD, loc]]
            if (not is_def) and libs <= 1:
                ret = True
                deeper = True
                idx -= 1
                continue
            if (not is_def) and libs >= 3:
                ret = False
                deeper = True
                idx -= 1
                continue
            if is_def and libs >= 2:
                ret = False
                deeper = True
                idx -= 1
                continue
            if is_def and st[S_KO] != 0:
                ret = False
                deeper = True
                idx -= 1
                continue
            start = starts[idx]
            if start + bd.shape[1] > buf.shape[0] or st[S_TRAIL] + 8 * bd.shape[1] > trail.shape[0]:
                # no room left in the scratch arrays (never in a real ladder): like the budget
                if idx > 0:
                    _undo(bd, st, trail, np.int64(marks[0]))
                return False
            if is_def:
                ln = _find_captures(bd, w, loc, buf, start, start)
                ln += _find_libs(bd, w, loc, buf, start, start + ln)
                lower, upper = _bound_libs_after(bd, w, buf[start + ln - 1], pla)
                if lower >= 3:
                    ret = False
                    deeper = True
                    idx -= 1
                    continue
                if ln == 1 and upper <= 1:
                    ret = True
                    deeper = True
                    idx -= 1
                    continue
            else:
                ln = _find_libs(bd, w, loc, buf, start, start)
                m0 = buf[start]
                m1 = buf[start + 1]
                l0 = _immediate_libs(bd, w, m0)
                l1 = _immediate_libs(bd, w, m1)
                if (
                    l0 == 0
                    and l1 == 0
                    and _would_be_ko_capture(bd, w, m0, opp)
                    and _would_be_ko_capture(bd, w, m1, opp)
                    and _libs_after_play(bd, w, m0, pla, 3) <= 2
                    and _libs_after_play(bd, w, m1, pla, 3) <= 2
                    and not _has_captures(bd, w, loc)
                ):
                    # a double ko the defender cannot win without ko threats: captured
                    ret = True
                    deeper = True
                    idx -= 1
                    continue
                d = m0 - m1
                if not (d == 1 or d == -1 or d == w or d == -w):
                    if l0 >= 3 and l1 >= 3:
                        ret = False
                        deeper = True
                        idx -= 1
                        continue
                    elif l0 >= 3:
                        ln = 1
                    elif l1 >= 3:
                        buf[start] = m1
                        ln = 1
                if ln > 1:
                    k0 = l0 * 2 + _connection_libs_x2(bd, w, m0, pla)
                    k1 = l1 * 2 + _connection_libs_x2(bd, w, m1, pla)
                    if k1 > k0:
                        buf[start] = m1
                        buf[start + 1] = m0
            lens[idx] = ln
            cur[idx] = 0
        else:
            if deeper:
                _undo(bd, st, trail, np.int64(marks[idx]))
            if is_def and not ret:
                deeper = True
                idx -= 1
                continue
            if (not is_def) and ret:
                deeper = True
                idx -= 1
                continue
            cur[idx] += 1
        if cur[idx] >= lens[idx]:
            ret = is_def
            deeper = True
            idx -= 1
            continue
        move = buf[starts[idx] + cur[idx]]
        mover = pla if is_def else opp
        if not _is_legal(bd, st, w, move, mover):
            ret = is_def
            deeper = False
            continue
        marks[idx] = st[S_TRAIL]
        _play(bd, st, trail, stamp, w, move, mover)
        nodes += 1
        idx += 1
        cur[idx] = -1
        starts[idx] = starts[idx - 1] + lens[idx - 1]
        lens[idx] = 0


@njit(cache=True, nogil=True)
def ladder_captured_2libs(ws: tuple, w: int, n: int, loc: int, working: np.ndarray) -> int:
    """KataGo's ``searchIsLadderCapturedAttackerFirst2Libs``: the attacker fills one of the
    two liberties of loc's chain and the defender cannot escape (ws as in
    :func:`ladder_captured`). Writes the liberties that work into working and returns how
    many (0: the chain cannot be laddered)."""
    bd, st, trail, stamp, buf, _ = ws
    c = bd[COL, loc]
    if c != BLACK and c != WHITE:
        return 0
    if bd[NLIB, bd[HEAD, loc]] != 2:
        return 0
    opp = 3 - c
    _find_libs(bd, w, loc, buf, ZERO, ZERO)
    m0 = buf[0]  # both read before the searches: they use buf as scratch
    m1 = buf[1]
    k = 0
    for j in range(2):
        move = m0 if j == 0 else m1
        if _is_legal(bd, st, w, move, opp):
            mark = st[S_TRAIL]
            _play(bd, st, trail, stamp, w, move, opp)
            caught = ladder_captured(ws, w, n, loc, True)
            _undo(bd, st, trail, mark)
            if caught:
                working[k] = move
                k += 1
    return k


@njit(cache=True, nogil=True)
def ladders(
    color: np.ndarray, w: int, n: int, ko: int, opp: int, laddered: np.ndarray, capture_moves: np.ndarray
) -> None:
    """KataGo's ``iterLadders``: mark in laddered every stone of a chain in atari that
    cannot escape or of a chain of two liberties that the attacker can ladder; for a chain
    of colour opp with two liberties, mark in capture_moves the liberties that ladder it
    (opp = 0 marks none). ko is the board's ko point (0: none)."""
    m = color.shape[0]
    bd = np.zeros((NROWS, m), dtype=np.int32)
    for p in range(m):
        bd[COL, p] = color[p]
    chains(color, w, bd[HEAD], bd[NXT], bd[NST], bd[NLIB])
    st = np.zeros(3, dtype=np.int64)
    st[S_KO] = ko
    trail = np.empty((64 * m, 3), dtype=np.int32)
    stamp = np.zeros(m, dtype=np.int64)
    buf = np.empty(16 * m, dtype=np.int32)
    stack = np.empty((4, n * n * 3 // 2 + 4), dtype=np.int32)
    ws = (bd, st, trail, stamp, buf, stack)
    working = np.empty(2, dtype=np.int32)
    solved_head = np.empty(m, dtype=np.int32)
    solved_val = np.empty(m, dtype=np.bool_)
    nsolved = 0
    for p in range(m):
        c = color[p]
        if c != BLACK and c != WHITE:
            continue
        h = bd[HEAD, p]
        libs = bd[NLIB, h]
        if libs != 1 and libs != 2:
            continue
        known = -1
        for i in range(nsolved):
            if solved_head[i] == h:
                known = i
                break
        if known >= 0:
            if solved_val[known]:
                laddered[p] = 1
            continue
        if libs == 1:
            val = ladder_captured(ws, w, n, p, True)
            k = 0
        else:
            k = ladder_captured_2libs(ws, w, n, p, working)
            val = k > 0
        solved_head[nsolved] = h
        solved_val[nsolved] = val
        nsolved += 1
        if val:
            laddered[p] = 1
            if c == opp:
                for i in range(k):
                    capture_moves[working[i]] = 1


# --- pass-alive areas ----------------------------------------------------------------------


@njit(cache=True, nogil=True)
def _area_for(
    color: np.ndarray,
    w: int,
    head: np.ndarray,
    nxt: np.ndarray,
    pla: int,
    safe_big: bool,
    unsafe_big: bool,
    suicide: bool,
    result: np.ndarray,
) -> None:
    """KataGo's ``calculateAreaForPla``: Benson's pass-alive chains and regions of pla."""
    m = color.shape[0]
    opp = 3 - pla
    region = np.full(m, -1, dtype=np.int32)
    members = np.empty(m, dtype=np.int32)
    reg_start = np.empty(m + 1, dtype=np.int32)
    vital = np.empty(4 * m, dtype=np.int32)
    vital_start = np.empty(m, dtype=np.int32)
    vital_len = np.zeros(m, dtype=np.int32)
    internal = np.zeros(m, dtype=np.int32)
    has_opp = np.zeros(m, dtype=np.bool_)
    borders_dead = np.zeros(m, dtype=np.bool_)
    nreg = 0
    nmem = 0
    vtotal = 0
    any_pla = False
    for p in range(m):
        if region[p] != -1:
            continue
        c = color[p]
        if c != EMPTY:
            if c == pla:
                any_pla = True
            continue
        r = nreg
        nreg += 1
        reg_start[r] = nmem
        vs = vtotal
        vital_start[r] = vs
        vl = 0
        for q in (p - w, p - 1, p + 1, p + w):
            if color[q] == pla:
                h = head[q]
                dup = False
                for j in range(vl):
                    if vital[vs + j] == h:
                        dup = True
                        break
                if not dup:
                    vital[vs + vl] = h
                    vl += 1
        region[p] = r
        members[nmem] = p
        qh = nmem
        nmem += 1
        while qh < nmem:
            s = members[qh]
            qh += 1
            if vl > 0 and (suicide or color[s] == EMPTY):
                k = 0
                for j in range(vl):
                    h = vital[vs + j]
                    touches = False
                    for q in (s - w, s - 1, s + 1, s + w):
                        if color[q] == pla and head[q] == h:
                            touches = True
                            break
                    if touches:
                        vital[vs + k] = h
                        k += 1
                vl = k
            if internal[r] < 2:
                near = False
                for q in (s - w, s - 1, s + 1, s + w):
                    if color[q] == pla:
                        near = True
                        break
                if not near:
                    internal[r] += 1
            if color[s] == opp:
                has_opp[r] = True
            for q in (s - w, s - 1, s + 1, s + w):
                cq = color[q]
                if (cq == EMPTY or cq == opp) and region[q] == -1:
                    region[q] = r
                    members[nmem] = q
                    nmem += 1
        vital_len[r] = vl
        vtotal += vl
    reg_start[nreg] = nmem

    vital_count = np.zeros(m, dtype=np.int32)
    for r in range(nreg):
        for j in range(vital_len[r]):
            vital_count[vital[vital_start[r] + j]] += 1
    killed = np.zeros(m, dtype=np.bool_)
    while True:
        killed_any = False
        for h in range(m):
            if color[h] != pla or head[h] != h or killed[h]:
                continue
            if vital_count[h] < 2:
                killed[h] = True
                killed_any = True
                s = h
                while True:
                    for q in (s - w, s - 1, s + 1, s + w):
                        r = region[q]
                        if r >= 0 and not borders_dead[r] and (color[q] == EMPTY or color[q] == opp):
                            borders_dead[r] = True
                            for j in range(vital_len[r]):
                                vital_count[vital[vital_start[r] + j]] -= 1
                    s = nxt[s]
                    if s == h:
                        break
        if not killed_any:
            break

    for h in range(m):
        if color[h] == pla and head[h] == h and not killed[h]:
            s = h
            while True:
                result[s] = pla
                s = nxt[s]
                if s == h:
                    break
    for r in range(nreg):
        mark = internal[r] <= 1 and not borders_dead[r] and any_pla
        mark = mark or (safe_big and not has_opp[r] and not borders_dead[r] and any_pla)
        if mark:
            for i in range(reg_start[r], reg_start[r + 1]):
                result[members[i]] = pla
        elif unsafe_big and not has_opp[r] and any_pla:
            for i in range(reg_start[r], reg_start[r + 1]):
                if result[members[i]] == EMPTY:
                    result[members[i]] = pla


@njit(cache=True, nogil=True)
def pass_alive(color: np.ndarray, w: int, pla: int, suicide: bool, result: np.ndarray) -> None:
    """Benson's algorithm alone (KataGo's ``calculateAreaForPla`` without big territories):
    pla's pass-alive chains and the regions they make pass-alive territory (opponent
    stones in them included) get pla in result, every other point EMPTY. suicide: whether
    multi-stone suicide is legal (then every point of a region, not only its empty ones,
    must touch a chain for the region to be vital to it)."""
    m = color.shape[0]
    head = np.empty(m, dtype=np.int32)
    nxt = np.empty(m, dtype=np.int32)
    nst = np.empty(m, dtype=np.int32)
    nlib = np.empty(m, dtype=np.int32)
    chains(color, w, head, nxt, nst, nlib)
    for p in range(m):
        result[p] = EMPTY
    _area_for(color, w, head, nxt, pla, np.bool_(False), np.bool_(False), suicide, result)


@njit(cache=True, nogil=True)
def area(
    color: np.ndarray,
    w: int,
    head: np.ndarray,
    nxt: np.ndarray,
    nlib: np.ndarray,
    mode: int,
    suicide: bool,
    result: np.ndarray,
) -> None:
    """The owner of every point as KataGo's area features see it.

    AREA_PLAIN: ``calculateArea`` with non-pass-alive stones, safe and unsafe big
    territories (area scoring without tax). AREA_KEEP_STONES: ``calculateIndependentLifeArea``
    keeping stones (area scoring with a group tax): only regions that touch no dame and no
    owner's stone in atari, plus the stones of the basic area. EMPTY elsewhere."""
    m = color.shape[0]
    for p in range(m):
        result[p] = EMPTY
    if mode == AREA_NONE:
        return
    basic = np.zeros(m, dtype=np.int32) if mode == AREA_KEEP_STONES else result
    _area_for(color, w, head, nxt, np.int64(BLACK), np.bool_(True), np.bool_(True), suicide, basic)
    _area_for(color, w, head, nxt, np.int64(WHITE), np.bool_(True), np.bool_(True), suicide, basic)
    for p in range(m):
        if basic[p] == EMPTY and (color[p] == BLACK or color[p] == WHITE):
            basic[p] = color[p]
    if mode != AREA_KEEP_STONES:
        return
    seki = np.zeros(m, dtype=np.bool_)
    queue = np.empty(m, dtype=np.int32)
    for p in range(m):
        a = basic[p]
        if a == EMPTY or seki[p] or color[p] == BORDER:
            continue
        atari = color[p] == a and nlib[head[p]] == 1
        dame = False
        for q in (p - w, p - 1, p + 1, p + w):
            if color[q] == EMPTY and basic[q] == EMPTY:
                dame = True
        if atari or dame:
            seki[p] = True
            queue[0] = p
            qh = 0
            qt = 1
            while qh < qt:
                s = queue[qh]
                qh += 1
                for q in (s - w, s - 1, s + 1, s + w):
                    if basic[q] == a and not seki[q]:
                        seki[q] = True
                        queue[qt] = q
                        qt += 1
    for p in range(m):
        a = basic[p]
        if a != EMPTY and not seki[p]:
            result[p] = a
    for p in range(m):
        a = basic[p]
        if a != EMPTY and a == color[p]:
            result[p] = a


# --- the board's planes ---------------------------------------------------------------------


@njit(cache=True, nogil=True)
def board_planes(
    color: np.ndarray,
    prev1: np.ndarray,
    prev2: np.ndarray,
    n: int,
    ko: int,
    ko1: int,
    ko2: int,
    pla: int,
    area_mode: int,
    suicide: bool,
    spatial: np.ndarray,
) -> int:
    """Planes 0-5 (on board, own and opponent stones, chains of 1, 2 and 3 liberties),
    14-17 (ladders now, one and two moves ago, ladder-capture moves) and 18-19 (own and
    opponent area) for pla to move, into spatial (22, n, n), which must be zero there.

    prev1 and prev2 are the boards one and two moves ago (the same board when there is no
    history), ko, ko1, ko2 their ko points. Returns own area minus opponent area."""
    w = n + 2
    m = color.shape[0]
    opp = 3 - pla
    head = np.empty(m, dtype=np.int32)
    nxt = np.empty(m, dtype=np.int32)
    nst = np.empty(m, dtype=np.int32)
    nlib = np.empty(m, dtype=np.int32)
    chains(color, w, head, nxt, nst, nlib)
    for r in range(n):
        for c in range(n):
            p = (r + 1) * w + c + 1
            spatial[0, r, c] = 1.0
            col = color[p]
            if col == pla:
                spatial[1, r, c] = 1.0
            elif col == opp:
                spatial[2, r, c] = 1.0
            if col == BLACK or col == WHITE:
                k = nlib[head[p]]
                if k == 1:
                    spatial[3, r, c] = 1.0
                elif k == 2:
                    spatial[4, r, c] = 1.0
                elif k == 3:
                    spatial[5, r, c] = 1.0
    marks = np.zeros((4, m), dtype=np.int8)
    ladders(color, w, n, ko, opp, marks[0], marks[3])
    ladders(prev1, w, n, ko1, np.int64(0), marks[1], marks[3])
    ladders(prev2, w, n, ko2, np.int64(0), marks[2], marks[3])
    own = np.empty(m, dtype=np.int32)
    area(color, w, head, nxt, nlib, area_mode, suicide, own)
    score = 0
    for r in range(n):
        for c in range(n):
            p = (r + 1) * w + c + 1
            for k in range(4):
                if marks[k, p]:
                    spatial[14 + k, r, c] = 1.0
            if own[p] == pla:
                spatial[18, r, c] = 1.0
                score += 1
            elif own[p] == opp:
                spatial[19, r, c] = 1.0
                score -= 1
    return score


# --- superko ----------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def superko_banned(
    b: np.ndarray,
    st: np.ndarray,
    zob: np.ndarray,
    pla: int,
    ko: int,
    suicide: bool,
    ever: np.ndarray,
    seen: np.ndarray,
    salt: int,
    out: np.ndarray,
) -> int:
    """The points where pla may not play because the board after the move, its hash xor
    salt (the side to move's key under situational superko, else 0), is in seen, as KataGo
    marks them: never the ko point nor a point that is illegal anyway, never a point that
    never held a stone unless the move is a suicide. Writes them into out, returns how many."""
    w = st[K.S_W]
    o = 3 - pla
    k = 0
    for p in range(b.shape[1]):
        if b[K.COLOR, p] != EMPTY:
            continue
        is_suicide = True
        illegal = True
        for q in (p - w, p - 1, p + 1, p + w):
            col = b[K.COLOR, q]
            if col == EMPTY:
                is_suicide = False
                illegal = False
            elif col == pla:
                if not K.in_atari(b, b[K.HEAD, q]):
                    is_suicide = False
                    illegal = False
                elif suicide:
                    illegal = False
            elif col == o and K.in_atari(b, b[K.HEAD, q]):
                is_suicide = False
                illegal = False
        if not ever[p] and not is_suicide:
            continue
        if illegal or p == ko:
            continue
        h = K.hash_after(b, st, zob, p, pla) ^ salt
        for j in range(seen.shape[0]):
            if seen[j] == h:
                out[k] = p
                k += 1
                break
    return k
