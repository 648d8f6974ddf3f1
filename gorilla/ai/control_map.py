"""Gorilla's control map: who controls each point, as a float in [-1, 1].

-1 is fully Black's, +1 fully White's (``control_map`` returns it as a
size x size array, row 0 = the top row, column 0 = column A).

Every stone sends out a *wave* (Gorilla's "propagation"): its own point gets
power 1; from each point the wave reaches, it moves on to the adjacent points
that are on the board and hold no enemy stone, friendly stones included. The
exact rule, in integer *costs* so the powers are exact powers of two:

* a step costs 1 (the power halves);
* a step onto a point *under enemy control* costs 3 (power / 8), where a point
  is under enemy control when it touches an enemy stone (it is a liberty of
  an enemy stone);
* a point gets the power ``2**-cost`` of its cheapest path, if that cost is at
  most ``MAX_COST`` = 4 (power 1/16); the wave stops beyond.

So one lone stone gives 1/2 to its neighbours, 1/4 two steps away and so on up
to four steps; two friendly stones add up (and the sum is clamped to
[-1, 1]); a point between two opposing stones gets the same from both and
reads 0; a wall of enemy stones stops the wave. A stone's own point reads
exactly -1 (Black) or +1 (White).

Gorilla asked whether a point was under enemy control by reading the running
map, which made the map depend on the order the stones were played in (and a
full recompute after a capture gave another map than the incremental one).
Asking the stones instead keeps every wave a function of the position alone,
so the map is the (unclamped) sum of independent waves, clamped when read:
the incremental map equals a full recompute, bit for bit, because every power
is a power of two.

Incremental update (``add_stone``), as Gorilla did when a stone is placed: add
the new stone's wave, and redo the enemy waves it changes (those from enemy
stones within ``MAX_COST + 1`` steps, since the new stone blocks them or makes
its neighbours enemy-controlled for them). After a capture the map is
recomputed from the remaining stones (``play_update``).

Position evaluation (Gorilla): the sum of one side's control minus the sum of
the other's, i.e. ``sum(map)`` for White and ``-sum(map)`` for Black.
``classic_score`` is Gorilla's scoring hack for a finished board: each side
gets the sum of its control, komi goes to White.

The kernels work on the flat board arrays of :mod:`gorilla.rules.board`: the
colour row ``b[COLOR]``, the width ``w = n + 2``, an ``acc`` float64 array of
``w * w`` unclamped sums and an int32 workspace from ``new_workspace``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gorilla.rules import board as K
from gorilla.rules.board import BLACK, BORDER, COLOR, EMPTY, S_W, WHITE, place
from gorilla.rules.position import IllegalMove, Position
from gorilla.rules.scoring import result_string

STEP_COST = 1  # an ordinary step halves the power
ENEMY_COST = 3  # a step onto a point touching an enemy stone divides it by 8
MAX_COST = 4  # powers below 1/16 are dropped
_NB = MAX_COST + 1
# workspace rows: buckets 0..MAX_COST, then the cost of each point, touched points, bucket counts
_DIST, _TOUCHED, _COUNT = _NB, _NB + 1, _NB + 2
_WS_ROWS = _NB + 3


def new_workspace(w: int) -> np.ndarray:
    """Scratch space for the wave kernels on a board of width w (= size + 2)."""
    ws = np.zeros((_WS_ROWS, w * w), dtype=np.int32)
    ws[_DIST, :] = MAX_COST + 1
    return ws


@njit(cache=True, nogil=True, inline="always")
def _touches(col: np.ndarray, w: int, q: int, o: int) -> bool:
    return col[q - 1] == o or col[q + 1] == o or col[q - w] == o or col[q + w] == o


@njit(cache=True, nogil=True)
def add_wave(col: np.ndarray, w: int, acc: np.ndarray, p: int, mult: float, ws: np.ndarray) -> None:
    """Add mult times the wave of the stone at p (colour col[p]) to acc.

    A bucketed shortest-path search (Dial's algorithm) over the costs in the
    module docstring; ``ws[_DIST]`` must hold MAX_COST + 1 everywhere and is
    left so.
    """
    c = col[p]
    o = 3 - c
    sign = -mult if c == BLACK else mult
    dist = ws[_DIST]
    touched = ws[_TOUCHED]
    cnt = ws[_COUNT]
    for k in range(_NB):
        cnt[k] = 0
    dist[p] = 0
    touched[0] = p
    nt = 1
    ws[0, 0] = p
    cnt[0] = 1
    for d in range(_NB):
        i = 0
        while i < cnt[d]:
            q = ws[d, i]
            i += 1
            if dist[q] != d:
                continue  # reached more cheaply since it was queued
            for r in (q - 1, q + 1, q - w, q + w):
                cr = col[r]
                if cr == BORDER or cr == o:
                    continue
                nd = d + (ENEMY_COST if _touches(col, w, r, o) else STEP_COST)
                if nd <= MAX_COST and nd < dist[r]:
                    if dist[r] > MAX_COST:
                        touched[nt] = r
                        nt += 1
                    dist[r] = nd
                    ws[nd, cnt[nd]] = r
                    cnt[nd] += 1
    for i in range(nt):
        q = touched[i]
        acc[q] += sign * 0.5 ** dist[q]
        dist[q] = MAX_COST + 1


@njit(cache=True, nogil=True)
def compute(col: np.ndarray, w: int, acc: np.ndarray, ws: np.ndarray) -> None:
    """Full recompute: acc = the sum of every stone's wave."""
    acc[:] = 0.0
    for p in range(w * w):
        c = col[p]
        if c == BLACK or c == WHITE:
            add_wave(col, w, acc, p, 1.0, ws)


@njit(cache=True, nogil=True)
def add_stone(col: np.ndarray, w: int, acc: np.ndarray, p: int, ws: np.ndarray) -> None:
    """Update acc for a stone just placed at p that captured nothing (col already has it)."""
    c = col[p]
    o = 3 - c
    old = col.copy()
    old[p] = EMPTY
    r0 = p // w
    c0 = p % w
    reach = MAX_COST + 1
    for r in range(max(1, r0 - reach), min(w - 1, r0 + reach + 1)):
        span = reach - abs(r - r0)
        for x in range(max(1, c0 - span), min(w - 1, c0 + span + 1)):
            e = r * w + x
            if col[e] == o:
                add_wave(old, w, acc, e, -1.0, ws)
                add_wave(col, w, acc, e, 1.0, ws)
    add_wave(col, w, acc, p, 1.0, ws)


@njit(cache=True, nogil=True)
def play_update(
    b: np.ndarray, st: np.ndarray, zob: np.ndarray, acc: np.ndarray, ws: np.ndarray, p: int, c: int
) -> int:
    """Place a legal move of c at p (board.place) and keep acc up to date: the
    incremental update, or a full recompute when stones left the board. Returns captures."""
    w = st[S_W]
    caps = place(b, st, zob, p, c)
    if caps > 0 or b[COLOR, p] != c:  # a capture, or an allowed suicide
        compute(b[COLOR], w, acc, ws)
    else:
        add_stone(b[COLOR], w, acc, p, ws)
    return caps


@njit(cache=True, nogil=True)
def read(col: np.ndarray, acc: np.ndarray, out: np.ndarray) -> None:
    """out[p] = the control of p: -1/+1 on stones, the clamped sum elsewhere, 0 on the border."""
    for p in range(col.shape[0]):
        c = col[p]
        if c == BLACK:
            out[p] = -1.0
        elif c == WHITE:
            out[p] = 1.0
        elif c == EMPTY:
            v = acc[p]
            out[p] = -1.0 if v < -1.0 else (1.0 if v > 1.0 else v)
        else:
            out[p] = 0.0


@njit(cache=True, nogil=True)
def white_sum(col: np.ndarray, acc: np.ndarray) -> float:
    """The sum of the map over the board: White's control minus Black's."""
    s = 0.0
    for p in range(col.shape[0]):
        c = col[p]
        if c == BLACK:
            s -= 1.0
        elif c == WHITE:
            s += 1.0
        elif c == EMPTY:
            v = acc[p]
            s += -1.0 if v < -1.0 else (1.0 if v > 1.0 else v)
    return s


@njit(cache=True, nogil=True)
def evaluate_arrays(b: np.ndarray, st: np.ndarray, color: int, acc: np.ndarray, ws: np.ndarray) -> float:
    """Gorilla's position evaluation on the board arrays: color's control minus the
    opponent's (a full recompute into acc; no Python involved, for the playouts)."""
    col = b[COLOR]
    compute(col, st[S_W], acc, ws)
    s = white_sum(col, acc)
    return s if color == WHITE else -s


# --- the Python API -------------------------------------------------------------------------------


def _flat_map(position: Position) -> np.ndarray:
    w = position.size + 2
    col = position.b[COLOR]
    acc = np.zeros(w * w, dtype=np.float64)
    compute(col, w, acc, new_workspace(w))
    out = np.empty(w * w, dtype=np.float64)
    read(col, acc, out)
    return out


def control_map(position: Position) -> np.ndarray:
    """The control map as a size x size float array: row 0 = the top row, column 0 = A;
    -1 fully Black's .. +1 fully White's."""
    w = position.size + 2
    return _flat_map(position).reshape(w, w)[1:-1, 1:-1].copy()


def evaluate_position(position: Position, color: int) -> float:
    """Gorilla's evaluation: the sum of color's control minus the sum of the opponent's."""
    s = float(control_map(position).sum())
    return s if color == WHITE else -s


def control_totals(position: Position) -> tuple[float, float]:
    """(Black's control, White's control): the sums of each side's part of the map."""
    m = control_map(position)
    return float(np.clip(-m, 0.0, None).sum()), float(np.clip(m, 0.0, None).sum())


def classic_score(position: Position, komi: float) -> float:
    """Gorilla's "gorilla-classic" count of a finished board: Black's control minus
    White's control minus komi. Positive = Black ahead, as ``Score.margin``."""
    black, white = control_totals(position)
    return black - white - komi


def classic_result(position: Position, komi: float) -> str:
    """The SGF result ('B+3.5', 'W+0.25', '0') of the gorilla-classic count."""
    return result_string(round(classic_score(position, komi), 2))


# Scoring methods by name that live in the AI layer (the rules' own methods, area,
# territory and stones, are chosen by the ruleset; rules must not import ai).
SCORING_METHODS = {"gorilla-classic": classic_score}


class IncrementalControl:
    """A position and its control map kept up to date move by move, as Gorilla did:
    each placed stone adds its wave, a capture recomputes from the remaining stones."""

    def __init__(self, position: Position) -> None:
        self.position = position.copy()
        self.w = position.size + 2
        self.ws = new_workspace(self.w)
        self.acc = np.zeros(self.w * self.w, dtype=np.float64)
        compute(self.position.b[COLOR], self.w, self.acc, self.ws)

    def play(self, p: int, color: int | None = None) -> int:
        """Play a move (a point or PASS) for color, default the side to move; returns captures.
        Raises IllegalMove and changes nothing when it is illegal."""
        pos = self.position
        c = pos.to_move if color is None else color
        if p == K.PASS:
            return pos.play(p, c)
        reason = pos.check(p, c)
        if reason is not None:
            raise IllegalMove(reason)
        return int(play_update(pos.b, pos.st, K.ZOBRIST, self.acc, self.ws, p, c))

    def values(self) -> np.ndarray:
        """The map as control_map gives it."""
        out = np.empty(self.w * self.w, dtype=np.float64)
        read(self.position.b[COLOR], self.acc, out)
        return out.reshape(self.w, self.w)[1:-1, 1:-1].copy()


__all__ = [
    "control_map",
    "evaluate_position",
    "evaluate_arrays",
    "classic_score",
    "classic_result",
    "control_totals",
    "IncrementalControl",
    "SCORING_METHODS",
]
