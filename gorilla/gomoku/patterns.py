"""Line-code tables: what one stone makes along one line, and what a point makes in all four.

A *line code* describes the ten points around a point ``p`` on one line (offsets
-5..-1 and +1..+5), two bits each: 0 empty, 1 black, 2 white, 3 off the board.
Offset ``k`` sits in bits ``2 * slot(k)`` with ``slot(k) = k + 5`` for ``k < 0`` and
``k + 4`` for ``k > 0``. The tables give, for a stone of one colour placed at ``p``,
the *direction class* it makes on that line (five, open four, four, open three, ...).
They are computed once per five-rule (``K_FREE``: five or more wins, ``K_EXACT``:
exactly five, ``K_CARO``: exactly five not blocked by the opponent at both ends),
by a numba kernel that classifies codes from the fullest lines down:

- ``C_FIVE``: the stone completes a winning five; ``C_OVER``: a run of six or more
  where that does not win;
- ``C_F4``: a straight four (``_XXXX_``: two points complete a five);
  ``C_F4D``: two points complete a five but not as a straight four (``X_XXX_X``,
  two fours on one line); ``C_FOUR``: exactly one point completes a five;
- ``C_THREE``: one more stone can make ``C_F4``/``C_F4D`` (an open three);
  ``C_THREE_B``: one more stone can make a four (a closed three);
- ``C_TWO``, ``C_TWO_B``, ``C_ONE``: the same one step further down.

The four direction classes of a point combine into a *point class* (``P_*``:
five, open/double four, four-three, three-three, four, three, ...), and weights
(data: ``DIR_WEIGHTS`` and ``POINT_BONUS``) into a point score, the move ordering's; the
evaluation's weights (``EVAL_DIR_WEIGHTS``, ``EVAL_POINT_BONUS``) into the point's share of
the static evaluation.
"""

from __future__ import annotations

import functools
import itertools
import sys
from pathlib import Path

import numpy as np
from numba import njit

# direction classes
C_NONE, C_ONE, C_TWO_B, C_TWO, C_THREE_B, C_THREE, C_FOUR, C_F4D, C_F4, C_FIVE, C_OVER = range(11)
NCLASSES = 11
CLASS_NAMES = (
    "none",
    "one",
    "two-b",
    "two",
    "three-b",
    "three",
    "four",
    "four-d",
    "open-four",
    "five",
    "overline",
)

# point classes (for one colour at an empty point)
P_NONE, P_LOW, P_THREE, P_FOUR, P_33, P_43, P_F4, P_FIVE, P_FORBID = range(9)
NPCLASSES = 9
PCLASS_NAMES = ("none", "low", "three", "four", "three-three", "four-three", "open-four", "five", "forbidden")

# five-rules of the tables
K_FREE, K_EXACT, K_CARO = range(3)

NCODES = 4**10

# weights as data: the value of each direction class and the bonus of each point class, for
# the move ordering (a point's score: the searches try the best first)
DIR_WEIGHTS = np.array([0, 2, 6, 20, 25, 100, 120, 1000, 1000, 10000, 0], dtype=np.int32)
POINT_BONUS = np.array([0, 0, 0, 0, 500, 800, 2000, 20000, 0], dtype=np.int32)
# and for the static evaluation (a colour's total over the empty points); weights fitted to game
# results (gorilla.gomoku.texel) predict them better (held-out log-loss 0.558 against 0.587) but
# scored 19-21/40 against AIWine where these scored 22/40
# (benchmarks/RESULTS.md#2026-11-27-gomoku-a-texel-fit-of-the-evaluation-session-21)
EVAL_DIR_WEIGHTS = DIR_WEIGHTS.copy()
EVAL_POINT_BONUS = POINT_BONUS.copy()


def slot(k: int) -> int:
    """The slot (bit pair) of offset k in a line code, k in -5..5 without 0."""
    return k + 5 if k < 0 else k + 4


def encode(cells: dict[int, int]) -> int:
    """A line code from {offset: value}; offsets not given are empty."""
    return sum(v << (2 * slot(k)) for k, v in cells.items())


@njit(cache=True, nogil=True)
def _run(cells: np.ndarray) -> tuple[int, int]:
    """The first and last index of the run of own stones (1) through the centre (index 5) of cells[11]."""
    lo = 5
    while lo > 0 and cells[lo - 1] == 1:
        lo -= 1
    hi = 5
    while hi < 10 and cells[hi + 1] == 1:
        hi += 1
    return lo, hi


@njit(cache=True, nogil=True)
def _is_five(cells: np.ndarray, kind: int) -> bool:
    """Whether the run of own stones (1) through the centre (index 5) of cells[11] wins."""
    lo, hi = _run(cells)
    n = hi - lo + 1
    if kind == K_FREE:
        return n >= 5
    if n != 5:
        return False
    if kind == K_CARO:
        left = cells[lo - 1] if lo > 0 else 0
        right = cells[hi + 1] if hi < 10 else 0
        return not (left == 2 and right == 2)
    return True


@njit(cache=True, nogil=True)
def build_table(kind: int) -> np.ndarray:
    """The direction class of an own stone (1) at the centre of every line code (2 = opponent)."""
    tab = np.zeros(NCODES, dtype=np.int8)
    owns = np.zeros(NCODES, dtype=np.int8)
    for code in range(NCODES):
        n = 0
        for s in range(10):
            if (code >> (2 * s)) & 3 == 1:
                n += 1
        owns[code] = n
    cells = np.zeros(11, dtype=np.int8)
    fives = np.zeros(11, dtype=np.int8)
    for count in range(10, -1, -1):
        for code in range(NCODES):
            if owns[code] != count:
                continue
            for s in range(10):
                idx = s if s < 5 else s + 1
                cells[idx] = (code >> (2 * s)) & 3
            cells[5] = 1
            if _is_five(cells, kind):
                tab[code] = C_FIVE
                continue
            lo, hi = _run(cells)
            if hi - lo + 1 >= 6:
                tab[code] = C_OVER
                continue
            nfive = 0
            for i in range(1, 10):
                fives[i] = 0
                if i != 5 and cells[i] == 0:
                    cells[i] = 1
                    if _is_five(cells, kind):
                        fives[i] = 1
                        nfive += 1
                    cells[i] = 0
            if nfive >= 2:
                straight = False
                for i in range(0, 6):
                    if fives[i] == 1 and i + 5 <= 10 and fives[i + 5] == 1:
                        ok = True
                        for j in range(i + 1, i + 5):
                            if cells[j] != 1:
                                ok = False
                        if ok:
                            straight = True
                tab[code] = C_F4 if straight else C_F4D
                continue
            if nfive == 1:
                tab[code] = C_FOUR
                continue
            best = C_NONE
            for i in range(1, 10):
                if i == 5 or cells[i] != 0:
                    continue
                s = i if i < 5 else i - 1
                sub = tab[code | (1 << (2 * s))]
                if sub == C_F4 or sub == C_F4D:
                    v = C_THREE
                elif sub == C_FOUR:
                    v = C_THREE_B
                elif sub == C_THREE:
                    v = C_TWO
                elif sub == C_THREE_B:
                    v = C_TWO_B
                elif sub == C_TWO or sub == C_TWO_B:
                    v = C_ONE
                else:
                    v = C_NONE
                if v > best:
                    best = v
            tab[code] = best
    return tab


def _swap_colours() -> np.ndarray:
    """For every code, the code with black and white exchanged."""
    codes = np.arange(NCODES, dtype=np.int64)
    out = np.zeros(NCODES, dtype=np.int64)
    swap = np.array([0, 2, 1, 3], dtype=np.int64)
    for s in range(10):
        out |= swap[(codes >> (2 * s)) & 3] << (2 * s)
    return out


_KIND_TABLES: dict[int, np.ndarray] = {}
_SWAP: list[np.ndarray] = []


def kind_table(kind: int) -> np.ndarray:
    """Rows 1 (black) and 2 (white) of the direction-class table of one five-rule, indexed by line code."""
    if kind not in _KIND_TABLES:
        if not _SWAP:
            _SWAP.append(_swap_colours())
        own = build_table(kind)
        t = np.zeros((3, NCODES), dtype=np.int8)
        t[1] = own
        t[2] = own[_SWAP[0]]
        _KIND_TABLES[kind] = t
    return _KIND_TABLES[kind]


@njit(cache=True, nogil=True, inline="always")
def combine(c0: int, c1: int, c2: int, c3: int, renju_black: bool) -> int:
    """The point class of four direction classes (renju_black: Black under renju, where
    double fours and overlines are forbidden; a double three is left as P_33 to be checked)."""
    n5 = 0
    nf4 = 0
    n4 = 0
    n3 = 0
    nover = 0
    nfours = 0
    for c in (c0, c1, c2, c3):
        if c == C_FIVE:
            n5 += 1
        elif c == C_F4:
            nf4 += 1
            nfours += 1
        elif c == C_F4D:
            nf4 += 1
            nfours += 2
        elif c == C_FOUR:
            n4 += 1
            nfours += 1
        elif c == C_THREE:
            n3 += 1
        elif c == C_OVER:
            nover += 1
    if n5 > 0:
        return P_FIVE
    if renju_black and (nover > 0 or nfours >= 2):
        return P_FORBID
    if renju_black and n3 >= 2:
        return P_33  # forbidden if both threes are real (rules.is_forbidden)
    if nf4 > 0 or n4 >= 2:
        return P_F4
    if n4 == 1 and n3 >= 1:
        return P_43
    if n3 >= 2:
        return P_33
    if n4 == 1:
        return P_FOUR
    if n3 == 1:
        return P_THREE
    if c0 + c1 + c2 + c3 > 0:
        return P_LOW
    return P_NONE


def _combine_table() -> np.ndarray:
    """combine() of every four direction classes, as int8[2 * NCLASSES**4]: the index is
    ((renju_black * 11 + c0) * 11 + c1) * 11 ... (:func:`combined`)."""
    t = np.zeros(2 * NCLASSES**4, dtype=np.int8)
    i = 0
    for rb in (False, True):
        for c0 in range(NCLASSES):
            for c1 in range(NCLASSES):
                for c2 in range(NCLASSES):
                    for c3 in range(NCLASSES):
                        t[i] = combine(c0, c1, c2, c3, rb)
                        i += 1
    return t


COMBINED = _combine_table()


@njit(cache=True, nogil=True, inline="always")
def combined(c0: int, c1: int, c2: int, c3: int, renju_black: bool) -> int:
    """combine() by a table lookup (the board kernels' hot path)."""
    i = ((np.int64(renju_black) * NCLASSES + c0) * NCLASSES + c1) * NCLASSES + c2
    return COMBINED[i * NCLASSES + c3]


@functools.lru_cache(maxsize=1)
def _linear_order_tables() -> np.ndarray:
    c = np.indices((NCLASSES,) * 4).reshape(4, -1)
    pc = np.array([combined(int(a), int(b), int(d), int(e), False) for a, b, d, e in c.T], dtype=np.int64)
    lin = DIR_WEIGHTS[c].sum(axis=0) + POINT_BONUS[pc]
    out = np.stack([lin, lin]).astype(np.int32)
    out.setflags(write=False)
    return out


def linear_order_tables() -> np.ndarray:
    """The move ordering's tables as the linear weights give them: int32[2, NCLASSES**4], row 0
    the side to move's value of a point by its four direction classes (index
    ``((c0 * 11 + c1) * 11 + c2) * 11 + c3``), row 1 its opponent's; both are the point score
    (``DIR_WEIGHTS`` and ``POINT_BONUS``), so that ordering by the tables is ordering by the
    score."""
    return _linear_order_tables().copy()


@functools.lru_cache(maxsize=4)
def _read_order_tables(path: Path, stamp: tuple[int, int]) -> np.ndarray:
    out = linear_order_tables()
    for line in path.read_text(encoding="utf-8").splitlines():
        parts = line.split("#", 1)[0].split()
        if not parts:
            continue
        if len(parts) != 6:
            raise ValueError(f"{path}: expected 'c0 c1 c2 c3 own opp', got {line!r}")
        cls = [int(v) for v in parts[:4]]
        own, opp = int(parts[4]), int(parts[5])
        for a, b, d, e in set(itertools.permutations(cls)):
            i = ((a * NCLASSES + b) * NCLASSES + d) * NCLASSES + e
            out[0, i] = own
            out[1, i] = opp
    out.setflags(write=False)
    return out


def order_tables(path: str | Path | None = None) -> np.ndarray:
    """The move ordering's tables (:func:`linear_order_tables`'s shape) read from ``path``
    (default ``assets/gomoku_order.txt``): lines ``c0 c1 c2 c3 own opp`` with c0 <= c1 <= c2 <= c3,
    the values of a point whose direction classes are those four in any order, for the side to
    move and for its opponent; ``#`` starts a comment. The combinations the file does not name
    keep the linear values; without the file, the linear tables. A malformed line raises
    ValueError; in the default file it is one line on stderr and the linear tables."""
    from gorilla import asset_file

    f = asset_file("gomoku_order.txt") if path is None else Path(path)
    try:
        st = f.stat()
    except OSError:
        return linear_order_tables()
    try:
        return _read_order_tables(f, (st.st_mtime_ns, st.st_size)).copy()
    except ValueError as e:
        if path is not None:
            raise
        print(f"gorilla: {e}; the move ordering uses the linear point scores", file=sys.stderr)
        return linear_order_tables()
