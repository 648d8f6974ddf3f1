"""Move features for the move-pattern model (Coulom 2007), as numba kernels.

Every candidate move gets at most one *level* in each feature group (``-1``:
the group says nothing about this move). The groups, in the order of the
columns of :func:`position_features`' output:

* ``G_PASS``: 0 a pass, 1 a pass right after the opponent passed.
* ``G_CAPTURE``: 0 a capture, 1 a capture of a group that touches a group of
  ours in atari (which it saves), 2 a capture of the stone(s) the opponent
  just played.
* ``G_ESCAPE``: extending a group of ours out of atari without capturing:
  0 it escapes (3+ liberties, or 2 and no ladder), 1 it runs into a ladder.
* ``G_SELFATARI``: the move leaves its group with one liberty and captures
  nothing: 0 a lone stone, 1 two or more stones.
* ``G_ATARI``: the move puts an opposing group in atari: 0 caught in a ladder,
  1 any other atari.
* ``G_DIST1``, ``G_DIST2``: Coulom's distance ``dx + dy + max(dx, dy)`` to the
  previous move and to the one before it: levels 0..14 for 2..16, 15 for 17+.
* ``G_EDGE``: distance to the edge: 0 first line .. 3 fourth line, 4 further.
* ``G_PAT3``: the 3x3 shape around the move, the eight neighbours seen by the
  mover (empty, ours, theirs, edge) with the atari status of the four
  orthogonal neighbours (Pachi's pattern3), made canonical over the eight
  symmetries: the level is ``pidx[code]`` for the 20-bit code (see
  :func:`canonical_table`; a model maps the canonical codes it knows to
  levels, the others to ``-1``).
* ``G_DIAMOND``: the largest diamond-shaped pattern around the move
  (``|dx| + |dy| <= r`` for r in :data:`RADII`, points empty / ours / theirs /
  off the board) that the model knows. A diamond's key is a Zobrist hash of
  its points and radius, the smallest over the eight symmetries (one pass per
  symmetry builds every radius, ring after ring); ``dkeys`` is the model's
  increasing array of known keys and the level a key's index there.

The kernels read the board arrays of :mod:`gorilla.rules.board` and the
tactical readers of :mod:`gorilla.ai.tactics`; nothing is cached between
positions (the costly readers, ladders, only run where an atari is involved).
"""

from __future__ import annotations

from functools import cache

import numpy as np
from numba import njit

from gorilla.ai.tactics import (
    LIBS_CAP,
    atari_works,
    ataris_around,
    ladder_dead,
    libs_after,
    size_after,
    threatens_atari,
    touches_atari,
)
from gorilla.rules.board import (
    BLACK,
    BORDER,
    COLOR,
    EMPTY,
    HEAD,
    PASS,
    S_LAST,
    S_LAST2,
    S_N,
    S_PASSES,
    S_W,
    WHITE,
    in_atari,
    legal_moves,
)

G_PASS, G_CAPTURE, G_ESCAPE, G_SELFATARI, G_ATARI, G_DIST1, G_DIST2, G_EDGE, G_PAT3, G_DIAMOND = range(10)
NGROUPS = 10
GROUP_NAMES = ("pass", "capture", "escape", "selfatari", "atari", "dist1", "dist2", "edge", "pat3", "diamond")
# levels of the fixed groups (G_PAT3's and G_DIAMOND's counts come from the model)
FIXED_LEVELS = (2, 3, 2, 2, 2, 16, 16, 5)
PAT3_BITS = 20
PAT3_CODES = 1 << PAT3_BITS

# the eight neighbours of pat3_code's order, as (dx, dy); the orthogonal ones carry the atari bits
_CELLS = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))
_ORTHO = (1, 3, 4, 6)  # N, W, E, S: atari bits 16, 17, 18, 19


def _transforms() -> list[tuple[list[int], list[int]]]:
    """For each of the 8 symmetries: where each cell goes, and where each atari bit goes."""
    out = []
    for swap in (False, True):
        for sx in (1, -1):
            for sy in (1, -1):
                cell_to = []
                for dx, dy in _CELLS:
                    x, y = (dy, dx) if swap else (dx, dy)
                    cell_to.append(_CELLS.index((x * sx, y * sy)))
                atari_to = [_ORTHO.index(cell_to[k]) for k in _ORTHO]
                out.append((cell_to, atari_to))
    return out


@cache
def canonical_table() -> np.ndarray:
    """int32 over all 2**20 codes: the smallest code among the code's eight symmetric images.

    A code is the eight neighbours (2 bits each, colours relative to the mover:
    1 ours, 2 theirs, 3 edge) in pat3's order, then four atari bits (N, W, E, S)."""
    codes = np.arange(PAT3_CODES, dtype=np.int64)
    cells = [(codes >> (2 * k)) & 3 for k in range(8)]
    ataris = [(codes >> (16 + j)) & 1 for j in range(4)]
    best = codes.copy()
    for cell_to, atari_to in _transforms():
        img = np.zeros_like(codes)
        for k in range(8):
            img |= cells[k] << (2 * cell_to[k])
        for j in range(4):
            img |= ataris[j] << (16 + atari_to[j])
        np.minimum(best, img, out=best)
    return best.astype(np.int32)


RADII = (3, 4, 5, 6, 7, 8)
NRADII = len(RADII)


def _diamond_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Offsets of the diamond of radius RADII[-1] ring by ring (dx, dy per symmetry), where each
    radius ends in that order, the Zobrist keys per (offset, state) and per radius."""
    rmax = RADII[-1]
    order = sorted(
        (
            (dx, dy)
            for dx in range(-rmax, rmax + 1)
            for dy in range(-rmax, rmax + 1)
            if abs(dx) + abs(dy) <= rmax
        ),
        key=lambda d: (abs(d[0]) + abs(d[1]), d),
    )
    dx = np.empty((8, len(order)), dtype=np.int64)
    dy = np.empty((8, len(order)), dtype=np.int64)
    s = 0
    for swap in (False, True):
        for sx in (1, -1):
            for sy in (1, -1):
                for k, (x, y) in enumerate(order):
                    x2, y2 = (y, x) if swap else (x, y)
                    dx[s, k] = x2 * sx
                    dy[s, k] = y2 * sy
                s += 1
    ends = np.array([sum(1 for d in order if abs(d[0]) + abs(d[1]) <= r) for r in RADII], dtype=np.int64)
    rng = np.random.default_rng(0xD1A40)
    keys = rng.integers(1, np.iinfo(np.int64).max, size=(len(order), 4), dtype=np.int64)
    rkeys = rng.integers(1, np.iinfo(np.int64).max, size=len(RADII), dtype=np.int64)
    return dx, dy, ends, keys, rkeys


DIAMOND_DX, DIAMOND_DY, DIAMOND_ENDS, DIAMOND_KEYS, DIAMOND_RKEYS = _diamond_tables()


def _sparse_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The same keys rewritten so that an empty point costs nothing (:func:`diamond_level`):
    per (offset, state) the key XOR the empty key (0 for an empty point), per radius every
    offset's empty key XOR the radius key, and per symmetry where each offset of symmetry 0
    falls in that symmetry's order."""
    delta = DIAMOND_KEYS ^ DIAMOND_KEYS[:, :1]
    base = np.empty(len(RADII), dtype=np.int64)
    for i, end in enumerate(DIAMOND_ENDS):
        base[i] = np.bitwise_xor.reduce(DIAMOND_KEYS[:end, 0]) ^ DIAMOND_RKEYS[i]
    inv = np.empty(DIAMOND_DX.shape, dtype=np.int64)
    for s in range(8):
        at = {(int(x), int(y)): k for k, (x, y) in enumerate(zip(DIAMOND_DX[s], DIAMOND_DY[s], strict=True))}
        for j in range(DIAMOND_DX.shape[1]):
            inv[s, j] = at[int(DIAMOND_DX[0, j]), int(DIAMOND_DY[0, j])]
    return delta, base, inv


DIAMOND_DELTA, DIAMOND_BASE, DIAMOND_INV = _sparse_tables()


@njit(cache=True, nogil=True, inline="always")
def _rel(v: int, c: int) -> int:
    """A point's colour seen by mover c: 0 empty, 1 ours, 2 theirs, 3 edge."""
    if v == EMPTY or v == BORDER:
        return v
    return 1 if v == c else 2


@njit(cache=True, nogil=True)
def pat3_key(b: np.ndarray, w: int, p: int, c: int) -> int:
    """The 20-bit 3x3 code of p for mover c (neighbours relative to c, then atari bits)."""
    code = (
        _rel(b[COLOR, p - w - 1], c)
        | (_rel(b[COLOR, p - w], c) << 2)
        | (_rel(b[COLOR, p - w + 1], c) << 4)
        | (_rel(b[COLOR, p - 1], c) << 6)
        | (_rel(b[COLOR, p + 1], c) << 8)
        | (_rel(b[COLOR, p + w - 1], c) << 10)
        | (_rel(b[COLOR, p + w], c) << 12)
        | (_rel(b[COLOR, p + w + 1], c) << 14)
    )
    bit = 1 << 16
    for q in (p - w, p - 1, p + 1, p + w):
        v = b[COLOR, q]
        if (v == BLACK or v == WHITE) and in_atari(b, b[HEAD, q]):
            code |= bit
        bit <<= 1
    return code


@njit(cache=True, nogil=True)
def diamond_keys(b: np.ndarray, st: np.ndarray, p: int, c: int, out: np.ndarray) -> None:
    """out[i] = the canonical key of the diamond of radius RADII[i] around p, for mover c."""
    w = st[S_W]
    n = st[S_N]
    x0 = p % w - 1
    y0 = p // w - 1
    nr = DIAMOND_ENDS.shape[0]
    for i in range(nr):
        out[i] = np.iinfo(np.int64).max
    for s in range(8):
        h = np.int64(0)
        k = 0
        for i in range(nr):
            end = DIAMOND_ENDS[i]
            while k < end:
                x = x0 + DIAMOND_DX[s, k]
                y = y0 + DIAMOND_DY[s, k]
                v = _rel(b[COLOR, (y + 1) * w + x + 1], c) if 0 <= x < n and 0 <= y < n else 3
                h ^= DIAMOND_KEYS[k, v]
                k += 1
            key = h ^ DIAMOND_RKEYS[i]
            if key < out[i]:
                out[i] = key


@njit(cache=True, nogil=True)
def diamond_level(b: np.ndarray, st: np.ndarray, p: int, c: int, dkeys: np.ndarray, hs: np.ndarray) -> int:
    """The index in dkeys (increasing) of the largest diamond around p it holds, or -1.

    Radius by radius, stopping at the first one the model does not know: a model keeps a
    diamond only if it keeps the smaller ones inside it (each was played wherever the
    larger one was), so no larger one can match. hs: 8 int64 of scratch."""
    if dkeys.shape[0] == 0:
        return -1
    w = st[S_W]
    n = st[S_N]
    x0 = p % w - 1
    y0 = p // w - 1
    for s in range(8):
        hs[s] = 0
    # each point is read once (in symmetry 0's order) and only a stone or the edge changes the
    # eight symmetric hashes: the keys are those of diamond_keys, rewritten by _sparse_tables
    start = 0
    best = -1
    for i in range(DIAMOND_ENDS.shape[0]):
        end = DIAMOND_ENDS[i]
        for j in range(start, end):
            x = x0 + DIAMOND_DX[0, j]
            y = y0 + DIAMOND_DY[0, j]
            v = _rel(b[COLOR, (y + 1) * w + x + 1], c) if 0 <= x < n and 0 <= y < n else 3
            if v != 0:
                for s in range(8):
                    hs[s] ^= DIAMOND_DELTA[DIAMOND_INV[s, j], v]
        start = end
        key = np.iinfo(np.int64).max
        for s in range(8):
            key = min(key, hs[s] ^ DIAMOND_BASE[i])
        j = np.searchsorted(dkeys, key)
        if j < dkeys.shape[0] and dkeys[j] == key:
            best = j
        else:
            break
    return best


@njit(cache=True, nogil=True, inline="always")
def _dist_level(p: int, q: int, w: int) -> int:
    dx = abs(p % w - q % w)
    dy = abs(p // w - q // w)
    d = dx + dy + max(dx, dy)
    return min(d, 17) - 2


@njit(cache=True, nogil=True)
def move_features(
    b: np.ndarray,
    st: np.ndarray,
    zob: np.ndarray,
    p: int,
    c: int,
    pidx: np.ndarray,
    dkeys: np.ndarray,
    tmp: np.ndarray,
    out: np.ndarray,
) -> None:
    """Write the levels (``-1``: none) of c playing the legal move p (or PASS) into
    out[:NGROUPS]; tmp is 8 int64 of scratch."""
    for g in range(NGROUPS):
        out[g] = -1
    last = st[S_LAST]
    if p == PASS:
        out[G_PASS] = 1 if st[S_PASSES] > 0 else 0
        return
    w = st[S_W]
    n = st[S_N]
    o = 3 - c
    saves = False
    takes_last = False
    capt, saving, saved = ataris_around(b, w, p, c)
    if capt > 0:
        for q in (p - 1, p + 1, p - w, p + w):
            if b[COLOR, q] == o and in_atari(b, b[HEAD, q]):
                h = b[HEAD, q]
                if last >= 0 and b[COLOR, last] == o and b[HEAD, last] == h:
                    takes_last = True
                if not saves:
                    saves = touches_atari(b, w, h, c)
        out[G_CAPTURE] = 1 if saves else (2 if takes_last else 0)
    la = libs_after(b, st, p, c, LIBS_CAP)
    if saving > 0 and capt == 0 and la >= 2:
        dead = la == 2 and ladder_dead(b, st, zob, saved, 0)
        out[G_ESCAPE] = 1 if dead else 0
    if la <= 1 and capt == 0:
        out[G_SELFATARI] = 0 if size_after(b, st, p, c) == 1 else 1
    if la >= 2 and threatens_atari(b, st, p, c):
        out[G_ATARI] = 0 if atari_works(b, st, zob, p, c) > 0 else 1
    if last >= 0:
        out[G_DIST1] = _dist_level(p, last, w)
    last2 = st[S_LAST2]
    if last2 >= 0:
        out[G_DIST2] = _dist_level(p, last2, w)
    x = p % w - 1
    y = p // w - 1
    line = min(min(x, y), min(n - 1 - x, n - 1 - y))
    out[G_EDGE] = min(line, 4)
    out[G_PAT3] = pidx[pat3_key(b, w, p, c)]
    out[G_DIAMOND] = diamond_level(b, st, p, c, dkeys, tmp)


@njit(cache=True, nogil=True)
def position_features(
    b: np.ndarray,
    st: np.ndarray,
    zob: np.ndarray,
    c: int,
    pidx: np.ndarray,
    dkeys: np.ndarray,
    moves: np.ndarray,
    feats: np.ndarray,
) -> int:
    """Every legal move of c (simple ko, own eyes included), then PASS, into moves; their
    levels into the rows of feats (shape (len(moves), NGROUPS)). Returns the count."""
    n = legal_moves(b, st, c, False, moves)
    moves[n] = PASS
    tmp = np.empty(8, dtype=np.int64)
    for i in range(n + 1):
        move_features(b, st, zob, moves[i], c, pidx, dkeys, tmp, feats[i])
    return n + 1
