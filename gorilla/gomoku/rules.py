"""Gomoku's rules core: a flat padded board with incremental line codes, as numba kernels.

A board of size N (5..25) is a flat array of ``(N + 10)**2`` cells: the board with a
five-point border (``BORDER``) on every side, so every walk of five steps along a
line stays inside the array. Point ``(x, y)`` (0-based, from the top-left) is
``(y + PAD) * W + x + PAD`` with ``W = N + 2 * PAD``.

Every point keeps, for each of the four line directions, the line code of its ten
neighbours on that line (:mod:`gorilla.gomoku.patterns`), updated incrementally
when a stone is placed or removed; from the codes come the direction classes of
both colours at every empty point, its point class (five, open four, four-three,
three-three, ...) and its score, and the running sums of the scores (the static
evaluation). A placement touches the 40 points within five steps on its lines.

The board's arrays travel together as a tuple ``bd`` (see :func:`new_board`):

``cell`` int8[M], ``code`` int32[4, M], ``dcls`` int8[3, 4, M] (direction class of
colour c), ``pcls`` int8[3, M] (point class), ``psc`` int32[5, M] (point score of colour c:
row c the move ordering's, row c + 2 the evaluation's), ``near`` int16[M] (stones within two
steps, the candidate moves), ``st`` int64[NS] (scalars), ``tab`` int8[3, 4**10] (the
direction-class tables of this rule), ``wts`` int32[2 * NWEIGHTS + 1] (the ordering's
weights, the evaluation's, whether they differ: :func:`board_weights`) and ``zob`` int64[3, M] (Zobrist keys).

Rules: ``FREESTYLE`` (five or more wins), ``STANDARD`` (exactly five), ``RENJU``
(Black: exactly five, and double-three with real threes, double-four and overline
are forbidden; White: five or more) and ``CARO`` (exactly five, not blocked by the
opponent's stones at both ends; the board edge blocks nothing). A full board is a draw.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gorilla.gomoku.patterns import (
    C_F4,
    C_THREE,
    DIR_WEIGHTS,
    EVAL_DIR_WEIGHTS,
    EVAL_POINT_BONUS,
    K_CARO,
    K_EXACT,
    K_FREE,
    NCLASSES,
    NPCLASSES,
    P_33,
    P_FIVE,
    P_FORBID,
    P_NONE,
    POINT_BONUS,
    combined,
    kind_table,
)

EMPTY, BLACK, WHITE, BORDER = 0, 1, 2, 3
PAD = 5
MIN_SIZE, MAX_SIZE = 5, 25

FREESTYLE, STANDARD, RENJU, CARO = range(4)
RULE_NAMES = ("freestyle", "standard", "renju", "caro")

# scalar slots
S_N, S_W, S_RULE, S_HASH, S_STONES, S_TOTAL_B, S_TOTAL_W = range(7)
# then, from S_COUNT, how many empty points have each point class for Black (NPCLASSES slots),
# then for White (:func:`class_count`): the searches skip their board scans when a count is 0
S_COUNT = 8
NSLOTS = S_COUNT + 2 * NPCLASSES

MAX_CELLS = (MAX_SIZE + 2 * PAD) ** 2
ZOBRIST = np.random.default_rng(0x60_40_15).integers(
    np.iinfo(np.int64).min, np.iinfo(np.int64).max, size=(3, MAX_CELLS), dtype=np.int64
)
ZOBRIST[EMPTY] = 0


def rule_from_name(name: str) -> int:
    """FREESTYLE/STANDARD/RENJU/CARO from its name; ValueError with one line if unknown."""
    key = name.strip().lower()
    if key == "exact":
        key = "standard"
    if key not in RULE_NAMES:
        raise ValueError(f"unknown gomoku rule {name!r} (one of {', '.join(RULE_NAMES)})")
    return RULE_NAMES.index(key)


def _kinds(rule: int) -> tuple[int, int]:
    """The five-rule tables of Black and White under a rule."""
    if rule == FREESTYLE:
        return K_FREE, K_FREE
    if rule == STANDARD:
        return K_EXACT, K_EXACT
    if rule == RENJU:
        return K_EXACT, K_FREE
    if rule == CARO:
        return K_CARO, K_CARO
    raise ValueError(f"unknown gomoku rule {rule}")


_RULE_TABLES: dict[int, np.ndarray] = {}


def rule_table(rule: int) -> np.ndarray:
    """The int8[4**10, 3] direction-class table of a rule (column 1 Black, column 2 White):
    a line code's two classes share a cache line, as the board kernels read both."""
    if rule not in _RULE_TABLES:
        kb, kw = _kinds(rule)
        t = np.zeros((kind_table(kb).shape[1], 3), dtype=np.int8)
        t[:, 1] = kind_table(kb)[1]
        t[:, 2] = kind_table(kw)[2]
        _RULE_TABLES[rule] = t
    return _RULE_TABLES[rule]


NWEIGHTS = NCLASSES + NPCLASSES  # one weight set: direction classes, then point classes


W_SPLIT = (
    2 * NWEIGHTS
)  # the weights array's last slot: 1 when the evaluation's set differs from the ordering's


def board_weights(weights: np.ndarray) -> np.ndarray:
    """A board's weights array, int32[2 * NWEIGHTS + 1], from one weight set (the ordering's and
    the evaluation's), two sets (the ordering's, then the evaluation's) or such an array: the
    sets, then W_SPLIT, whether they differ (if not, a point's one score serves both)."""
    w = np.asarray(weights, dtype=np.int32)
    if w.shape[0] == NWEIGHTS:
        w = np.concatenate([w, w])
    out = np.zeros(2 * NWEIGHTS + 1, dtype=np.int32)
    out[:W_SPLIT] = w[:W_SPLIT]
    out[W_SPLIT] = int(not np.array_equal(out[:NWEIGHTS], out[NWEIGHTS:W_SPLIT]))
    return out


def default_weights() -> np.ndarray:
    """The weights array (:func:`board_weights`): the move ordering's direction-class values and
    point-class bonuses, then the evaluation's."""
    return board_weights(np.concatenate([DIR_WEIGHTS, POINT_BONUS, EVAL_DIR_WEIGHTS, EVAL_POINT_BONUS]))


def new_board(n: int, rule: int, weights: np.ndarray | None = None) -> tuple:
    """An empty n x n board under a rule, as the ``bd`` tuple of arrays."""
    if not MIN_SIZE <= n <= MAX_SIZE:
        raise ValueError(f"board size {n} out of range {MIN_SIZE}..{MAX_SIZE}")
    w = n + 2 * PAD
    m = w * w
    cell = np.full(m, BORDER, dtype=np.int8)
    for y in range(n):
        cell[(y + PAD) * w + PAD : (y + PAD) * w + PAD + n] = EMPTY
    code = np.zeros((4, m), dtype=np.int32)
    dcls = np.zeros((3, 4, m), dtype=np.int8)
    pcls = np.zeros((3, m), dtype=np.int8)
    psc = np.zeros((5, m), dtype=np.int32)
    near = np.zeros(m, dtype=np.int16)
    st = np.zeros(NSLOTS, dtype=np.int64)
    st[S_N], st[S_W], st[S_RULE] = n, w, rule
    wts = default_weights() if weights is None else board_weights(weights)
    bd = (cell, code, dcls, pcls, psc, near, st, rule_table(rule), wts, ZOBRIST[:, :m].copy())
    init_board(bd)
    return bd


@njit(cache=True, nogil=True, inline="always")
def _count_slot(c: int, pc: int) -> int:
    """The slot of st that counts colour c's empty points of point class pc."""
    return S_COUNT + (c - 1) * NPCLASSES + pc


@njit(cache=True, nogil=True, inline="always")
def class_count(bd, c: int, pc: int) -> int:
    """How many empty points have point class pc for colour c (kept by the board kernels)."""
    return bd[6][_count_slot(c, pc)]


def count_of(bd, c: int, pc: int) -> int:
    """:func:`class_count` for Python callers: the same slot read without calling a kernel (a
    kernel called from Python with a signature no warm-up gave it compiles at that call)."""
    return int(bd[6][S_COUNT + (c - 1) * NPCLASSES + pc])


@njit(cache=True, nogil=True)
def dirs(w: int) -> tuple[int, int, int, int]:
    """The four line steps: horizontal, vertical, diagonal, anti-diagonal."""
    return (1, w, w + 1, w - 1)


@njit(cache=True, nogil=True)
def _slot(k: int) -> int:
    return k + 5 if k < 0 else k + 4


@njit(cache=True, nogil=True, inline="always")
def _refresh(dcls, pcls, psc, st, wts, q: int, renju: bool) -> None:
    """Recompute the point class and scores of empty point q for both colours: the ordering's
    (psc[c]) and the evaluation's (psc[c + 2] when the weight sets differ, else psc[c]), summed
    in st's totals. Inlined: the hot loops pass the arrays, never the board tuple, whose items
    numba counts references of."""
    for c in (1, 2):
        c0 = dcls[c, 0, q]
        c1 = dcls[c, 1, q]
        c2 = dcls[c, 2, q]
        c3 = dcls[c, 3, q]
        pc = combined(c0, c1, c2, c3, renju and c == 1)
        sc = wts[c0] + wts[c1] + wts[c2] + wts[c3] + wts[NCLASSES + pc]
        if pc == P_FORBID:
            sc = 0
        if wts[W_SPLIT] != 0:
            e = NWEIGHTS
            ev = wts[e + c0] + wts[e + c1] + wts[e + c2] + wts[e + c3] + wts[e + NCLASSES + pc]
            if pc == P_FORBID:
                ev = 0
            st[S_TOTAL_B + c - 1] += ev - psc[c + 2, q]
            psc[c + 2, q] = ev
        else:
            st[S_TOTAL_B + c - 1] += sc - psc[c, q]
        psc[c, q] = sc
        old = pcls[c, q]
        if old != pc:
            if old != P_NONE:
                st[_count_slot(c, old)] -= 1
            if pc != P_NONE:
                st[_count_slot(c, pc)] += 1
            pcls[c, q] = pc


@njit(cache=True, nogil=True)
def _refresh_point(bd, q: int) -> None:
    """Recompute the point class and score of empty point q for both colours."""
    st = bd[6]
    _refresh(bd[2], bd[3], bd[4], st, bd[8], q, st[S_RULE] == RENJU)


@njit(cache=True, nogil=True)
def init_board(bd) -> None:
    """Fill the line codes, classes and scores of a board from its cells (any stones on it)."""
    cell, code, dcls, pcls, psc, near, st, tab, wts, zob = bd
    w = st[S_W]
    m = cell.shape[0]
    ds = dirs(w)
    st[S_TOTAL_B] = 0
    st[S_TOTAL_W] = 0
    st[S_HASH] = 0
    st[S_STONES] = 0
    for i in range(S_COUNT, NSLOTS):
        st[i] = 0
    for p in range(m):
        for r in range(1, 5):
            psc[r, p] = 0
        pcls[1, p] = 0
        pcls[2, p] = 0
        near[p] = 0
    for p in range(m):
        if cell[p] == BLACK or cell[p] == WHITE:
            st[S_HASH] ^= zob[cell[p], p]
            st[S_STONES] += 1
            for dy in range(-2, 3):
                for dx in range(-2, 3):
                    q = p + dy * w + dx
                    if 0 <= q < m:
                        near[q] += 1
    for p in range(m):
        if cell[p] == BORDER:
            continue
        for d in range(4):
            v = 0
            for k in range(-5, 6):
                if k == 0:
                    continue
                q = p + k * ds[d]
                c = cell[q] if 0 <= q < m else BORDER
                v |= c << (2 * _slot(k))
            code[d, p] = v
            dcls[1, d, p] = tab[v, 1]
            dcls[2, d, p] = tab[v, 2]
        if cell[p] == EMPTY:
            _refresh_point(bd, p)


@njit(cache=True, nogil=True)
def _lines(cell, code, dcls, pcls, psc, st, tab, wts, p: int, delta: int) -> None:
    """Add delta (a colour, or minus it) at p to the codes of its 40 line neighbours and refresh
    them. It takes the board's arrays, not the tuple: numba counts the references of each array
    taken out of a tuple (two atomic operations), which the searches avoid (vcf._solve)."""
    w = st[S_W]
    renju = st[S_RULE] == RENJU
    for d in range(4):
        step = 1 if d == 0 else (w if d == 1 else (w + 1 if d == 2 else w - 1))
        for k in range(-5, 6):
            if k == 0:
                continue
            q = p + k * step
            code[d, q] += delta << (2 * (-k + 5 if k > 0 else -k + 4))
            if cell[q] == EMPTY:
                v = code[d, q]
                b = tab[v, 1]
                x = tab[v, 2]
                if b != dcls[1, d, q] or x != dcls[2, d, q]:  # else its classes and score stand
                    dcls[1, d, q] = b
                    dcls[2, d, q] = x
                    _refresh(dcls, pcls, psc, st, wts, q, renju)


@njit(cache=True, nogil=True)
def place(bd, p: int, c: int) -> None:
    """Put a stone of colour c on the empty point p."""
    cell, code, dcls, pcls, psc, near, st, tab, wts, zob = bd
    w = st[S_W]
    cell[p] = c
    st[S_HASH] ^= zob[c, p]
    st[S_STONES] += 1
    e = 3 if wts[W_SPLIT] != 0 else 1  # the rows of the evaluation's scores
    st[S_TOTAL_B] -= psc[e, p]
    st[S_TOTAL_W] -= psc[e + 1, p]
    for r in range(1, 5):
        psc[r, p] = 0
    for k in (1, 2):
        if pcls[k, p] != P_NONE:
            st[_count_slot(k, pcls[k, p])] -= 1
            pcls[k, p] = P_NONE
    for dy in range(-2, 3):
        for dx in range(-2, 3):
            near[p + dy * w + dx] += 1
    _lines(cell, code, dcls, pcls, psc, st, tab, wts, p, c)


@njit(cache=True, nogil=True)
def remove(bd, p: int) -> None:
    """Take the stone off p (any stone: undo, takeback)."""
    cell, code, dcls, pcls, psc, near, st, tab, wts, zob = bd
    w = st[S_W]
    c = cell[p]
    cell[p] = EMPTY
    st[S_HASH] ^= zob[c, p]
    st[S_STONES] -= 1
    for dy in range(-2, 3):
        for dx in range(-2, 3):
            near[p + dy * w + dx] -= 1
    _lines(cell, code, dcls, pcls, psc, st, tab, wts, p, -c)
    for d in range(4):
        v = code[d, p]
        dcls[1, d, p] = tab[v, 1]
        dcls[2, d, p] = tab[v, 2]
    _refresh(dcls, pcls, psc, st, wts, p, st[S_RULE] == RENJU)


@njit(cache=True, nogil=True)
def _certain(bd, p: int) -> int:
    """0: Black may play p under renju; 1: forbidden; 2: a double three to check."""
    if bd[6][S_RULE] != RENJU or bd[0][p] != EMPTY:
        return 0
    pc = bd[3][1, p]
    if pc == P_FORBID:
        return 1
    return 2 if pc == P_33 else 0


@njit(cache=True, nogil=True, _nrt=True)
def _place_threes(bd, p: int) -> np.ndarray:
    """Put Black's stone on p (a double three to check) and list, for each direction where
    it made a three, the points that would make that three a straight four: out[d, 0] of
    them in out[d, 1:]. The caller takes the stone off again."""
    ds = dirs(bd[6][S_W])
    out = np.zeros((4, 9), dtype=np.int64)
    threes = np.zeros(4, dtype=np.bool_)
    for d in range(4):
        threes[d] = bd[2][1, d, p] == C_THREE
    place(bd, p, BLACK)
    cell, dcls = bd[0], bd[2]
    for d in range(4):
        if threes[d]:
            for j in range(-4, 5):
                e = p + j * ds[d]
                if j != 0 and cell[e] == EMPTY and dcls[1, d, e] == C_F4:
                    out[d, 0] += 1
                    out[d, out[d, 0]] = e
    return out


FORBID_LEVELS = 3  # how deep the real-three test follows the completing points


@njit(cache=True, nogil=True, inline="always")
def _tally(real: np.ndarray, dd: np.ndarray, ii: np.ndarray, lv: int, forbidden: bool) -> None:
    """A completing point of level lv's three in direction dd[lv] examined: a playable one makes
    that three real (on to the next direction), a forbidden one sends it to the next point."""
    if forbidden:
        ii[lv] += 1
    else:
        real[lv] += 1
        dd[lv] += 1
        ii[lv] = 1


@njit(cache=True, nogil=True, _nrt=True)  # it allocates: not the searches' _nrt=False
def is_forbidden(bd, p: int) -> bool:
    """Whether Black may not play the empty point p under renju: an overline or a double
    four (unless it makes five), or a double three of *real* threes: threes one move
    from a straight four whose completing point is not itself forbidden, followed
    FORBID_LEVELS deep (where every three counts as real). numba's cache cannot hold a
    recursive kernel, so the levels are frames of an explicit stack."""
    k = _certain(bd, p)
    if k != 2:
        return k == 1
    pts = np.zeros(FORBID_LEVELS, dtype=np.int64)
    ends = np.zeros((FORBID_LEVELS, 4, 9), dtype=np.int64)
    dd = np.zeros(FORBID_LEVELS, dtype=np.int64)  # a frame's direction
    ii = np.ones(FORBID_LEVELS, dtype=np.int64)  # its next completing point in that direction
    real = np.zeros(FORBID_LEVELS, dtype=np.int64)  # its real threes so far
    lv = 0
    pts[0] = p
    ends[0] = _place_threes(bd, p)
    while True:
        d = dd[lv]
        if d >= 4:  # the frame is done: its point is forbidden with two real threes
            remove(bd, pts[lv])
            forbidden = real[lv] >= 2
            if lv == 0:
                return forbidden
            lv -= 1
            _tally(real, dd, ii, lv, forbidden)
            continue
        if ii[lv] > ends[lv, d, 0]:
            dd[lv] += 1
            ii[lv] = 1
            continue
        e = ends[lv, d, ii[lv]]
        k = _certain(bd, e)
        if k == 2 and lv + 1 < FORBID_LEVELS:  # a double three: a frame one level deeper
            lv += 1
            pts[lv] = e
            ends[lv] = _place_threes(bd, e)
            dd[lv] = 0
            ii[lv] = 1
            real[lv] = 0
            continue
        _tally(real, dd, ii, lv, k == 1)


@njit(cache=True, nogil=True)
def is_win(bd, p: int, c: int) -> bool:
    """Whether colour c playing the empty point p makes a winning five."""
    return bd[3][c, p] == P_FIVE


@njit(cache=True, nogil=True)
def legal(bd, p: int, c: int) -> bool:
    """Empty, on the board, and (Black under renju) not forbidden."""
    if p < 0 or p >= bd[0].shape[0] or bd[0][p] != EMPTY:
        return False
    if c == BLACK and bd[6][S_RULE] == RENJU:
        return not is_forbidden(bd, p)
    return True


def point(bd: tuple, x: int, y: int) -> int:
    """The flat index of (x, y)."""
    w = int(bd[6][S_W])
    return (y + PAD) * w + x + PAD


def xy(bd: tuple, p: int) -> tuple[int, int]:
    """(x, y) of a flat index."""
    w = int(bd[6][S_W])
    return p % w - PAD, p // w - PAD


def size(bd: tuple) -> int:
    """The board size N."""
    return int(bd[6][S_N])


def copy_board(bd: tuple) -> tuple:
    """A deep copy of the mutable arrays (the tables and keys are shared)."""
    cell, code, dcls, pcls, psc, near, st, tab, wts, zob = bd
    return (
        cell.copy(),
        code.copy(),
        dcls.copy(),
        pcls.copy(),
        psc.copy(),
        near.copy(),
        st.copy(),
        tab,
        wts,
        zob,
    )
