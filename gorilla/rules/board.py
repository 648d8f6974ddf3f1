"""The board core: numba kernels over flat numpy arrays.

A board of size N lives in an int32 array ``b`` of shape ``(NROWS, (N+2)**2)``:
the board is padded with a one-point border so neighbours never need bounds
checks. Point ``p`` of row ``r`` (0 = top) and column ``c`` (0 = left) is
``(r + 1) * W + c + 1`` with ``W = N + 2``. Scalars (size, ko point, hash,
captures, ...) live in an int64 array ``st`` of length ``NSLOTS``.

Groups are circular linked lists of stones (``NEXT``) with a head (``HEAD``);
the head carries the group's size and its *pseudo-liberties*: the count, sum
and sum of squares of (stone, empty neighbour) adjacencies. A group is in
atari exactly when all its pseudo-liberties are the same point, i.e. when
``sum**2 == count * sum_sq`` (libEGO's trick), so atari tests and the atari
liberty cost O(1).

Every kernel is ``@njit(cache=True, nogil=True)``; playouts and search threads
call these same functions, so there is one implementation of the rules.
Playouts share one loop, :func:`playout`, and one random choice among
candidate points, :func:`random_move`; each takes the policy (or the test a
point must pass) as a kernel, bound when the caller is compiled.
"""

from __future__ import annotations

import numpy as np
from numba import njit

EMPTY, BLACK, WHITE, BORDER = 0, 1, 2, 3
PASS = -1
RESIGN = -2

MIN_SIZE = 2
MAX_SIZE = 25
MAX_POINTS = (MAX_SIZE + 2) ** 2

# rows of the board array
COLOR, HEAD, NEXT, LIBS, LSUM, LSQ, GSIZE, EPOS, ELIST = range(9)
NROWS = 9

# slots of the scalar array
(
    S_N,
    S_W,
    S_KO,
    S_KOCOL,
    S_HASH,
    S_CAP_B,
    S_CAP_W,
    S_LAST,
    S_LAST2,
    S_NEMPTY,
    S_SUICIDE,
    S_MOVES,
    S_PASSES,
    S_TOMOVE,
) = range(14)
NSLOTS = 16

# results of check_move
OK, OCCUPIED, SUICIDE, KO = 0, 1, 2, 3

STONES = -1  # the colour argument of neighbour_groups that stands for either colour

# Kernels that never create or return arrays are compiled without numba's reference
# counting (NRT): with it, each of them increfs and decrefs the board arrays on entry, on
# every exit and around every inlined helper (some 40 atomic runtime calls in check_move
# alone). They must never allocate.
kernel = njit(cache=True, nogil=True, _nrt=False)

# Zobrist keys: one table for every board size (index by colour and point).
ZOBRIST = np.random.default_rng(0x60_2113).integers(
    np.iinfo(np.int64).min, np.iinfo(np.int64).max, size=(3, MAX_POINTS), dtype=np.int64
)
ZOBRIST[EMPTY, :] = 0


def new_board(n: int, suicide: bool) -> tuple[np.ndarray, np.ndarray]:
    """An empty n x n board and its scalars; Black to move.

    Plain numpy, no kernel: a new game needs nothing compiled (the window opens with
    an empty board while the kernels compile)."""
    w = n + 2
    m = w * w
    b = np.zeros((NROWS, m), dtype=np.int32)
    st = np.zeros(NSLOTS, dtype=np.int64)
    st[S_N] = n
    st[S_W] = w
    st[S_LAST] = PASS
    st[S_LAST2] = PASS
    st[S_SUICIDE] = 1 if suicide else 0
    st[S_TOMOVE] = BLACK
    k = 0
    for p in range(m):
        r = p // w
        c = p % w
        if r == 0 or c == 0 or r == w - 1 or c == w - 1:
            b[COLOR, p] = BORDER
            b[EPOS, p] = -1
        else:
            b[EPOS, p] = k
            b[ELIST, k] = p
            k += 1
    st[S_NEMPTY] = k
    return b, st


@njit(cache=True, nogil=True, inline="always")
def in_atari(b: np.ndarray, h: int) -> bool:
    """Whether the group with head h has exactly one liberty."""
    n = np.int64(b[LIBS, h])
    s = np.int64(b[LSUM, h])
    return n > 0 and s * s == n * np.int64(b[LSQ, h])


@njit(cache=True, nogil=True, inline="always")
def atari_liberty(b: np.ndarray, h: int) -> int:
    """The single liberty of a group in atari."""
    return b[LSUM, h] // b[LIBS, h]


@njit(cache=True, nogil=True, inline="always")
def _add_lib(b: np.ndarray, h: int, p: int) -> None:
    b[LIBS, h] += 1
    b[LSUM, h] += p
    b[LSQ, h] += p * p


@njit(cache=True, nogil=True, inline="always")
def _sub_lib(b: np.ndarray, h: int, p: int) -> None:
    b[LIBS, h] -= 1
    b[LSUM, h] -= p
    b[LSQ, h] -= p * p


@njit(cache=True, nogil=True, inline="always")
def _remove_empty(b: np.ndarray, st: np.ndarray, p: int) -> None:
    i = b[EPOS, p]
    last = st[S_NEMPTY] - 1
    q = b[ELIST, last]
    b[ELIST, i] = q
    b[EPOS, q] = i
    b[EPOS, p] = -1
    st[S_NEMPTY] = last


@njit(cache=True, nogil=True, inline="always")
def _add_empty(b: np.ndarray, st: np.ndarray, p: int) -> None:
    k = st[S_NEMPTY]
    b[ELIST, k] = p
    b[EPOS, p] = k
    st[S_NEMPTY] = k + 1


@kernel
def copy_board(src_b: np.ndarray, src_st: np.ndarray, b: np.ndarray, st: np.ndarray) -> None:
    """Copy a board and its scalars into scratch arrays of the same shapes.

    Element loops, not slice assignment: ``b[:, :] = src`` makes numba compile its
    shape-mismatch error path with string formatting, seconds of compile time in
    every kernel that resets a scratch board."""
    rows = min(src_b.shape[0], b.shape[0])
    cols = min(src_b.shape[1], b.shape[1])
    for r in range(rows):
        for p in range(cols):
            b[r, p] = src_b[r, p]
    for i in range(min(src_st.shape[0], st.shape[0])):
        st[i] = src_st[i]


@kernel
def check_move(b: np.ndarray, st: np.ndarray, p: int, c: int) -> int:
    """OK, OCCUPIED, KO or SUICIDE for colour c playing at p (simple ko only)."""
    if b[COLOR, p] != EMPTY:
        return OCCUPIED
    if p == st[S_KO] and c == st[S_KOCOL]:
        return KO
    if st[S_SUICIDE] != 0:
        return OK
    w = st[S_W]
    o = 3 - c
    for q in (p - 1, p + 1, p - w, p + w):
        col = b[COLOR, q]
        if col == EMPTY:
            return OK
        if col == c:
            if not in_atari(b, b[HEAD, q]):
                return OK
        elif col == o and in_atari(b, b[HEAD, q]):
            return OK
    return SUICIDE


@kernel
def _merge(b: np.ndarray, h1: int, h2: int) -> int:
    """Merge two groups; returns the surviving head (the larger group's)."""
    if b[GSIZE, h1] < b[GSIZE, h2]:
        h1, h2 = h2, h1
    s = h2
    while True:
        b[HEAD, s] = h1
        s = b[NEXT, s]
        if s == h2:
            break
    t = b[NEXT, h1]
    b[NEXT, h1] = b[NEXT, h2]
    b[NEXT, h2] = t
    b[GSIZE, h1] += b[GSIZE, h2]
    b[LIBS, h1] += b[LIBS, h2]
    b[LSUM, h1] += b[LSUM, h2]
    b[LSQ, h1] += b[LSQ, h2]
    return h1


@kernel
def _remove_group(b: np.ndarray, st: np.ndarray, zob: np.ndarray, h: int) -> int:
    """Take a group off the board; returns its size."""
    w = st[S_W]
    col = b[COLOR, h]
    o = 3 - col
    n = 0
    s = h
    while True:
        b[COLOR, s] = EMPTY
        _add_empty(b, st, s)
        st[S_HASH] ^= zob[col, s]
        n += 1
        for q in (s - 1, s + 1, s - w, s + w):
            if b[COLOR, q] == o:
                _add_lib(b, b[HEAD, q], s)
        s = b[NEXT, s]
        if s == h:
            break
    return n


@kernel
def place(b: np.ndarray, st: np.ndarray, zob: np.ndarray, p: int, c: int) -> int:
    """Put a stone of colour c at p, which must pass check_move.

    Captures, handles (allowed) suicide, sets the ko point and the side to
    move. Returns the number of opposing stones captured.
    """
    w = st[S_W]
    o = 3 - c
    b[COLOR, p] = c
    b[HEAD, p] = p
    b[NEXT, p] = p
    b[GSIZE, p] = 1
    b[LIBS, p] = 0
    b[LSUM, p] = 0
    b[LSQ, p] = 0
    _remove_empty(b, st, p)
    st[S_HASH] ^= zob[c, p]
    for q in (p - 1, p + 1, p - w, p + w):
        col = b[COLOR, q]
        if col == EMPTY:
            _add_lib(b, p, q)
        elif col != BORDER:
            _sub_lib(b, b[HEAD, q], p)
    h = p
    for q in (p - 1, p + 1, p - w, p + w):
        if b[COLOR, q] == c and b[HEAD, q] != h:
            h = _merge(b, h, b[HEAD, q])
    captured = 0
    ko = 0
    for q in (p - 1, p + 1, p - w, p + w):
        if b[COLOR, q] == o:
            g = np.int64(b[HEAD, q])  # int64 like the suicide call below: one compiled version
            if b[LIBS, g] == 0:
                k = _remove_group(b, st, zob, g)
                captured += k
                if k == 1:
                    ko = q
    if c == BLACK:
        st[S_CAP_B] += captured
    else:
        st[S_CAP_W] += captured
    st[S_KO] = 0
    if b[LIBS, h] == 0:
        # suicide, only reachable when the rules allow it
        k = _remove_group(b, st, zob, h)
        if o == BLACK:
            st[S_CAP_B] += k
        else:
            st[S_CAP_W] += k
    elif captured == 1 and b[GSIZE, h] == 1 and in_atari(b, h):
        st[S_KO] = ko
        st[S_KOCOL] = o
    st[S_LAST2] = st[S_LAST]
    st[S_LAST] = p
    st[S_TOMOVE] = o
    st[S_PASSES] = 0
    st[S_MOVES] += 1
    return captured


@kernel
def play(b: np.ndarray, st: np.ndarray, zob: np.ndarray, p: int, c: int) -> int:
    """Play c at p if legal (simple ko): captures >= 0, or -OCCUPIED/-KO/-SUICIDE."""
    err = check_move(b, st, p, c)
    if err != OK:
        return -err
    return place(b, st, zob, p, c)


@kernel
def play_pass(st: np.ndarray) -> None:
    """The side to move passes: the ko point clears and the move goes to the other side."""
    st[S_KO] = 0
    st[S_LAST2] = st[S_LAST]
    st[S_LAST] = PASS
    st[S_TOMOVE] = 3 - st[S_TOMOVE]
    st[S_PASSES] += 1
    st[S_MOVES] += 1


@njit(cache=True, nogil=True, inline="always")
def neighbour_groups(b: np.ndarray, w: int, p: int, c: int) -> tuple[int, int, int, int]:
    """The heads of the distinct groups of colour c (STONES: of either colour) next to p,
    in neighbour order, then -1s."""
    h0 = -1
    h1 = -1
    h2 = -1
    h3 = -1
    for q in (p - 1, p + 1, p - w, p + w):
        col = b[COLOR, q]
        if col == c or (c == STONES and (col == BLACK or col == WHITE)):
            h = b[HEAD, q]
            if h0 < 0:
                h0 = h
            elif h != h0:
                if h1 < 0:
                    h1 = h
                elif h != h1:
                    if h2 < 0:
                        h2 = h
                    elif h != h2:
                        h3 = h
    return h0, h1, h2, h3


@njit(cache=True, nogil=True, inline="always")
def _group_keys(b: np.ndarray, zob: np.ndarray, col: int, h: int) -> int:
    """The XOR of the Zobrist keys of the stones of the group with head h (colour col)."""
    k = zob[col, h]
    s = b[NEXT, h]
    while s != h:
        k ^= zob[col, s]
        s = b[NEXT, s]
    return k


@kernel
def hash_after(b: np.ndarray, st: np.ndarray, zob: np.ndarray, p: int, c: int) -> int:
    """The position hash after c plays a move at p that passes check_move."""
    w = st[S_W]
    o = 3 - c
    hv = st[S_HASH] ^ zob[c, p]
    lives = False
    for g in neighbour_groups(b, w, p, o):
        if g >= 0 and in_atari(b, g):
            hv ^= _group_keys(b, zob, o, g)
            lives = True
    for q in (p - 1, p + 1, p - w, p + w):
        col = b[COLOR, q]
        if col == EMPTY or (col == c and not in_atari(b, b[HEAD, q])):
            lives = True
    if not lives:
        # suicide: the stone and every friendly neighbour group leave the board
        hv ^= zob[c, p]
        for g in neighbour_groups(b, w, p, c):
            if g >= 0:
                hv ^= _group_keys(b, zob, c, g)
    return hv


@kernel
def hashes_after(
    b: np.ndarray, st: np.ndarray, zob: np.ndarray, pts: np.ndarray, c: int, out: np.ndarray
) -> None:
    """``out[i]``: the position hash after c plays ``pts[i]`` (each passing check_move): the
    superko test of every legal move in one call."""
    for i in range(pts.shape[0]):
        out[i] = hash_after(b, st, zob, pts[i], c)


@kernel
def is_eye(b: np.ndarray, st: np.ndarray, p: int, c: int) -> bool:
    """Whether empty p is a single-point true eye of colour c."""
    w = st[S_W]
    for q in (p - 1, p + 1, p - w, p + w):
        col = b[COLOR, q]
        if col != c and col != BORDER:
            return False
    o = 3 - c
    bad = 0
    edge = 0
    for q in (p - w - 1, p - w + 1, p + w - 1, p + w + 1):
        col = b[COLOR, q]
        if col == o:
            bad += 1
        elif col == BORDER:
            edge = 1
    return bad + edge < 2


@kernel
def legal_moves(b: np.ndarray, st: np.ndarray, c: int, reasonable: bool, out: np.ndarray) -> int:
    """Write the legal (simple-ko) moves for c into out; returns how many.

    With ``reasonable`` the mover's own single-point true eyes are left out.
    Points come in board order.
    """
    n = 0
    m = st[S_W] * st[S_W]
    for p in range(m):
        if b[COLOR, p] == EMPTY and check_move(b, st, p, c) == OK:
            if reasonable and is_eye(b, st, p, c):
                continue
            out[n] = p
            n += 1
    return n


@njit(cache=True, nogil=True, inline="always")
def random_move(b: np.ndarray, st: np.ndarray, c: int, points: np.ndarray, n: int, accept) -> int:
    """A random one of points[:n] that ``accept(b, st, p, c)`` allows, or PASS when none does.

    Tries them cyclically from a random start (libEGO's walk over the empty
    points); cheap when most pass. ``accept`` is a kernel, bound at compile time:
    pass it by name from a kernel. This helper is inlined, so the function value
    never reaches machine code (where numba could not cache it).
    """
    if n == 0:
        return PASS
    start = np.random.randint(n)
    for i in range(n):
        p = np.int64(points[(start + i) % n])  # one compiled accept() for int32 and int64 lists
        if accept(b, st, p, c):
            return p
    return PASS


@njit(cache=True, nogil=True, inline="always")
def is_reasonable(b: np.ndarray, st: np.ndarray, p: int, c: int) -> bool:
    """Whether empty p is a legal move for c (simple ko) that fills none of c's own true eyes."""
    return check_move(b, st, p, c) == OK and not is_eye(b, st, p, c)


@kernel
def random_reasonable_move(b: np.ndarray, st: np.ndarray, c: int) -> int:
    """A random legal move for c that fills none of its own eyes, or PASS.

    The empty list walked in place (the light playout's hot path: no row view of
    ``b`` as with :func:`random_move`)."""
    ne = st[S_NEMPTY]
    if ne == 0:
        return PASS
    start = np.random.randint(ne)
    for i in range(ne):
        p = np.int64(b[ELIST, (start + i) % ne])  # int64 like every other caller of check_move
        if check_move(b, st, p, c) == OK and not is_eye(b, st, p, c):
            return p
    return PASS


@njit(cache=True, nogil=True, inline="always")
def playout(b: np.ndarray, st: np.ndarray, zob: np.ndarray, max_moves: int, moves, policy, args) -> int:
    """Play ``policy(b, st, c, *args)`` for the side to move c until two passes or max_moves.

    The one playout loop: random games and the light, heavy and safe playouts are
    this loop with another policy (a kernel returning a point or PASS, passed by name
    from a kernel and bound at compile time; inlined like :func:`random_move`). Plays
    in place on (b, st) and returns the number of moves played; when ``moves`` is an
    array (not None) it records the points played (PASS = -1) as far as it has room,
    move i by the side to move at the start when i is even.
    """
    n = 0
    while n < max_moves and st[S_PASSES] < 2:
        c = st[S_TOMOVE]
        p = policy(b, st, c, *args)
        if p == PASS:
            play_pass(st)
        else:
            place(b, st, zob, p, c)
        if moves is not None and n < moves.shape[0]:
            moves[n] = p
        n += 1
    return n


@kernel
def random_game(b: np.ndarray, st: np.ndarray, zob: np.ndarray, max_moves: int) -> int:
    """Play random reasonable moves until two passes or max_moves; returns moves played."""
    return playout(b, st, zob, max_moves, None, random_reasonable_move, ())


@kernel
def seed_rng(seed: int) -> None:
    """Seed numba's random generator of the calling thread."""
    np.random.seed(seed)


@njit(cache=True, nogil=True)
def area_owner(b: np.ndarray, st: np.ndarray, dead: np.ndarray) -> np.ndarray:
    """Tromp-Taylor ownership after removing dead stones (dead[p] != 0).

    Returns an int8 array over points: BLACK or WHITE for stones and for
    empty regions that reach only that colour, EMPTY (0) for neutral points
    and BORDER on the border.
    """
    m = st[S_W] * st[S_W]
    w = st[S_W]
    col = np.empty(m, dtype=np.int8)
    for p in range(m):
        c = b[COLOR, p]
        if c != BORDER and dead[p] != 0:
            c = EMPTY
        col[p] = c
    owner = col.copy()
    seen = np.zeros(m, dtype=np.uint8)
    stack = np.empty(m, dtype=np.int32)
    region = np.empty(m, dtype=np.int32)
    for p0 in range(m):
        if col[p0] != EMPTY or seen[p0]:
            continue
        reach = 0
        nr = 0
        ns = 1
        stack[0] = p0
        seen[p0] = 1
        while ns > 0:
            ns -= 1
            p = stack[ns]
            region[nr] = p
            nr += 1
            for q in (p - 1, p + 1, p - w, p + w):
                cq = col[q]
                if cq == EMPTY:
                    if not seen[q]:
                        seen[q] = 1
                        stack[ns] = q
                        ns += 1
                elif cq != BORDER:
                    reach |= cq
        o = EMPTY
        if reach == BLACK or reach == WHITE:
            o = reach
        for i in range(nr):
            owner[region[i]] = o
    return owner


@njit(cache=True, nogil=True, inline="always")
def surrounding_colour(b: np.ndarray, w: int, p: int) -> int:
    """BLACK or WHITE when the stones next to p are all of that colour, else EMPTY (none or both)."""
    nb = 0
    nw = 0
    for q in (p - 1, p + 1, p - w, p + w):
        cq = b[COLOR, q]
        if cq == BLACK:
            nb += 1
        elif cq == WHITE:
            nw += 1
    if nw == 0 and nb > 0:
        return BLACK
    if nb == 0 and nw > 0:
        return WHITE
    return EMPTY


@kernel
def quick_area_score(b: np.ndarray, st: np.ndarray, stones_only: bool = False) -> int:
    """Black minus White area (no komi) for a playout's end position.

    Counts stones, and each empty point for the colour of its neighbours
    when they are all one colour: exact once only single-point eyes remain.
    With ``stones_only`` it counts the stones alone (Little-Go's count).
    """
    w = st[S_W]
    s = 0
    for p in range(w * w):
        c = b[COLOR, p]
        if c == EMPTY and not stones_only:
            c = surrounding_colour(b, w, p)
        if c == BLACK:
            s += 1
        elif c == WHITE:
            s -= 1
    return s
