"""Ownership and dead stones estimated from playouts to the end of the game.

:func:`ownership` copies the position, plays it out to two passes many times
and averages the Tromp-Taylor owner of every point at the end
(:func:`gorilla.rules.board.area_owner`, no stones marked dead). Playouts
alternate the side to move first (even ones start with Black, odd ones with
White), so the estimate does not favour whoever happens to have the move
after the two passes that ended the game. One numba ``nogil`` kernel,
:func:`ownership_playouts`, runs the playouts and counts the owners; Python
calls it once, or in batches when a ``cancel`` event has to be watched.

Three playout policies (``policy=``): ``"heavy"``, the MCTS's heavy playouts
(:func:`gorilla.ai.playout.heavy.heavy_playout`: tactics, 3x3 patterns, no
self-atari of two or more stones), the default; ``"light"``, uniform
reasonable moves (:func:`gorilla.ai.playout.light.run_playout`); and ``"safe"``,
light moves with the heavy self-atari filter
(:func:`gorilla.ai.playout.heavy.safe_playout`). Light playouts fill the shared
liberties of a seki and kill one side of it (in 20 of 20 seeds on the seki in
``tests/test_ownership.py``); heavy and safe ones leave it standing. On games
that GNU Go finished all three agree with GNU Go's dead stones about equally
often, but the heavy playouts decide with the widest margins (the opponent's
share is furthest from the threshold), so they are the default;
``benchmarks/ownership.py`` prints these numbers.

:func:`dead_stones` decides per string (a whole string is dead or alive
together). A string is dead when the mean over its stones of the fraction of
playouts in which the opponent owns the stone's point (its *opponent share*)
exceeds :data:`DEAD_THRESHOLD` (one half: "owned by the opponent in most
playouts"). Playouts cannot read, so a lone invader in a large open area
lives in about half of them; such a string (opponent share above
:data:`UNCLEAR_FLOOR`) is also dead when the opponent owns most of its
*zone*: the string with the empty points and friendly stones connected to it,
up to the opponent's stones (a region bounded by the opponent only). A
string that is *pass-alive* (Benson's unconditional life: two vital regions
the opponent cannot take even if its owner passes forever, i.e. two real
eyes) is never dead, whatever the playouts say; this is :func:`pass_alive`, a
second small kernel over the same board arrays. Seki stones stay alive
because the heavy playouts leave a seki standing; the seki detector
(:func:`gorilla.ai.tactics.seki_stones`) then names them, and :func:`status_lists`
gives every stone its final status (GTP ``final_status_list``).

Where the net plays the board (7x7..19x19, not Little-Go's count) the dead stones at the end
come from the net instead (:func:`net_dead_stones`: its ownership of the stones as they stand,
with either side to move; pass-alive strings never dead); :func:`estimated_dead_stones` picks,
and the GTP commands, the window and the terminal call it.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
from numba import njit

from gorilla.ai.playout.heavy import heavy_playout, safe_playout
from gorilla.ai.playout.light import run_playout
from gorilla.ai.playout.pat3 import PAT3
from gorilla.ai.tactics import seki_stones
from gorilla.rules import board as K
from gorilla.rules.board import (
    BLACK,
    BORDER,
    COLOR,
    EMPTY,
    HEAD,
    S_PASSES,
    S_TOMOVE,
    WHITE,
    area_owner,
    copy_board,
)
from gorilla.rules.game import Game
from gorilla.rules.position import Position

DEFAULT_PLAYOUTS = 200
DEAD_THRESHOLD = 0.5  # a string is dead when the opponent owns its points in more than half the playouts
UNCLEAR_FLOOR = 0.3  # ... or in more than this share while the opponent owns most of the string's zone
BATCH = 16  # playouts per kernel call while a cancel event is watched

# playout policies
LIGHT, HEAVY, SAFE = 0, 1, 2
POLICIES = {"light": LIGHT, "heavy": HEAVY, "safe": SAFE}


@njit(cache=True, nogil=True)
def ownership_playouts(
    b0: np.ndarray,
    st0: np.ndarray,
    zob: np.ndarray,
    first: int,
    count: int,
    policy: int,
    max_moves: int,
    pat3: np.ndarray,
    own_b: np.ndarray,
    own_w: np.ndarray,
) -> None:
    """Play playouts first .. first+count-1 from (b0, st0) and add their end owners to own_b / own_w.

    Playout i starts with Black to move when i is even and with White when odd;
    the passes that ended the game are forgotten. b0 and st0 are not changed.
    """
    m = b0.shape[1]
    b = np.empty_like(b0)
    st = np.empty_like(st0)
    moves = np.zeros(0, dtype=np.int32)
    cand = np.zeros(64, dtype=np.int64)
    dead = np.zeros(m, dtype=np.int8)
    for i in range(first, first + count):
        copy_board(b0, st0, b, st)
        st[S_PASSES] = 0
        st[S_TOMOVE] = BLACK if i % 2 == 0 else WHITE
        if policy == HEAVY:
            heavy_playout(b, st, zob, max_moves, moves, pat3, cand)
        elif policy == SAFE:
            safe_playout(b, st, zob, max_moves, moves)
        else:
            run_playout(b, st, zob, max_moves, moves)
        owner = area_owner(b, st, dead)
        for p in range(m):
            o = owner[p]
            if o == BLACK:
                own_b[p] += 1
            elif o == WHITE:
                own_w[p] += 1


@njit(cache=True, nogil=True)
def components(col: np.ndarray, w: int, c: int) -> np.ndarray:
    """Label the maximal connected sets of on-board points not of colour c (0, 1, ...); -1 elsewhere.

    With c the opponent of x these are x's *zones*: x's stones and the empty
    points around them, up to the opponent's stones and the edge.
    """
    m = col.shape[0]
    label = np.full(m, -1, dtype=np.int32)
    stack = np.empty(m, dtype=np.int32)
    n = 0
    for p0 in range(m):
        if col[p0] == c or col[p0] == BORDER or label[p0] >= 0:
            continue
        label[p0] = n
        ns = 1
        stack[0] = p0
        while ns > 0:
            ns -= 1
            p = stack[ns]
            for q in (p - 1, p + 1, p - w, p + w):
                cq = col[q]
                if cq != c and cq != BORDER and label[q] < 0:
                    label[q] = n
                    stack[ns] = q
                    ns += 1
        n += 1
    return label


@njit(cache=True, nogil=True)
def pass_alive(b: np.ndarray, w: int, c: int) -> np.ndarray:
    """Benson's algorithm: 1 at every stone of colour c that is unconditionally alive.

    Chains are the strings of c; regions are the maximal connected sets of
    points that are not c. A region is vital to a chain when every empty point
    of the region is a liberty of that chain. Repeatedly drop the chains with
    fewer than two vital regions among the remaining ones, and the regions that
    touch a dropped chain; the chains left are alive even if c passes forever.
    """
    m = w * w
    col = b[COLOR]
    region = components(col, w, c)
    nreg = 0  # a loop, not region.max(): that compiles numpy's reduction (~0.7 s) for this alone
    for p in range(m):
        nreg = max(nreg, region[p] + 1)
    # chain ids by head
    chain = np.full(m, -1, dtype=np.int32)
    nch = 0
    for p in range(m):
        if col[p] == c:
            h = b[HEAD, p]
            if chain[h] < 0:
                chain[h] = nch
                nch += 1
            chain[p] = chain[h]
    # vital[r, k]: region r is vital to chain k; touch[r, k]: region r borders chain k
    touch = np.zeros((nreg, nch), dtype=np.uint8)
    vital = np.ones((nreg, nch), dtype=np.uint8)
    for p in range(m):
        r = region[p]
        if r < 0:
            continue
        for q in (p - 1, p + 1, p - w, p + w):
            if col[q] == c:
                touch[r, chain[q]] = 1
    for p in range(m):
        r = region[p]
        if r < 0 or col[p] != EMPTY:
            continue
        # this empty point must be a liberty of every chain the region is vital to
        for k in range(nch):
            if vital[r, k] == 0:
                continue
            lib = False
            for q in (p - 1, p + 1, p - w, p + w):
                if col[q] == c and chain[q] == k:
                    lib = True
            if not lib:
                vital[r, k] = 0
    chain_ok = np.ones(nch, dtype=np.uint8)
    region_ok = np.ones(nreg, dtype=np.uint8)
    changed = True
    while changed:
        changed = False
        for k in range(nch):
            if chain_ok[k] == 0:
                continue
            nv = 0
            for r in range(nreg):
                if region_ok[r] and touch[r, k] and vital[r, k]:
                    nv += 1
            if nv < 2:
                chain_ok[k] = 0
                changed = True
        for r in range(nreg):
            if region_ok[r] == 0:
                continue
            for k in range(nch):
                if touch[r, k] and chain_ok[k] == 0:
                    region_ok[r] = 0
                    changed = True
                    break
    out = np.zeros(m, dtype=np.uint8)
    for p in range(m):
        if col[p] == c and chain_ok[chain[p]]:
            out[p] = 1
    return out


def _position(game_or_position: Game | Position) -> Position:
    if isinstance(game_or_position, Game):
        return game_or_position.position
    if isinstance(game_or_position, Position):
        return game_or_position
    raise TypeError(f"expected a Game or a Position, got {type(game_or_position).__name__}")


def owner_counts(
    game_or_position: Game | Position,
    playouts: int = DEFAULT_PLAYOUTS,
    seed: int | None = None,
    cancel: threading.Event | None = None,
    policy: str = "heavy",
) -> tuple[np.ndarray, np.ndarray, int]:
    """(Black counts, White counts, playouts run): how often each flat point ended owned by each colour."""
    pos = _position(game_or_position)
    if policy not in POLICIES:
        raise ValueError(f"unknown playout policy '{policy}' (expected one of {', '.join(POLICIES)})")
    n = int(playouts)
    if n < 1:
        raise ValueError(f"playouts must be at least 1, got {playouts}")
    m = pos.b.shape[1]
    own_b = np.zeros(m, dtype=np.int64)
    own_w = np.zeros(m, dtype=np.int64)
    max_moves = 3 * pos.size * pos.size + 50
    if seed is not None:
        K.seed_rng(int(seed) & 0x7FFFFFFF)
    done = 0
    try:
        step = n if cancel is None else BATCH
        while done < n:
            if cancel is not None and cancel.is_set():
                break
            k = min(step, n - done)
            ownership_playouts(
                pos.b, pos.st, K.ZOBRIST, done, k, POLICIES[policy], max_moves, PAT3, own_b, own_w
            )
            done += k
    finally:
        if seed is not None:  # do not leave this thread's playouts repeatable for later callers
            K.seed_rng(int.from_bytes(os.urandom(4), "little") & 0x7FFFFFFF)
    return own_b, own_w, done


def _grid(flat: np.ndarray, size: int) -> np.ndarray:
    w = size + 2
    return flat.reshape(w, w)[1:-1, 1:-1]


def ownership(
    game_or_position: Game | Position,
    playouts: int = DEFAULT_PLAYOUTS,
    seed: int | None = None,
    cancel: threading.Event | None = None,
    policy: str = "heavy",
) -> np.ndarray:
    """Expected owner of every point, size x size floats in [-1, 1]: -1 Black, +1 White, row 0 on top.

    The mean over the playouts of +1 (White owns the point at the end), -1
    (Black owns it) or 0 (neutral). If cancel is set before any playout ran,
    the result is all zeros.
    """
    pos = _position(game_or_position)
    own_b, own_w, done = owner_counts(pos, playouts, seed, cancel, policy)
    if done == 0:
        return np.zeros((pos.size, pos.size), dtype=np.float64)
    return _grid((own_w - own_b).astype(np.float64) / done, pos.size)


def _strings(pos: Position) -> Iterator[tuple[list[int], int, int]]:
    """Every string of stones on the board once: (its points, its colour, one of its points)."""
    colors = pos.b[COLOR]
    seen: set[int] = set()
    for p in np.flatnonzero((colors == BLACK) | (colors == WHITE)):
        p = int(p)
        if p in seen:
            continue
        string = pos.group(p)
        seen.update(string)
        yield string, int(colors[p]), p


@dataclass(frozen=True)
class StringEstimate:
    """One string of stones at the end: its points, colour, the opponent's share and Benson's verdict."""

    stones: tuple[int, ...]
    color: int
    opponent_share: float  # mean over the stones of the fraction of playouts the opponent owned the point
    zone_share: float  # the same mean over the string's zone (its stones, friends and empty points around)
    pass_alive: bool

    @property
    def dead(self) -> bool:
        """Whether the string counts as dead (see :func:`dead_stones` for the rule)."""
        if self.pass_alive:
            return False
        if self.opponent_share > DEAD_THRESHOLD:
            return True
        return self.opponent_share > UNCLEAR_FLOOR and self.zone_share > DEAD_THRESHOLD


def string_estimates(
    game: Game | Position,
    playouts: int = DEFAULT_PLAYOUTS,
    seed: int | None = 0,
    cancel: threading.Event | None = None,
    policy: str = "heavy",
) -> list[StringEstimate]:
    """Every string on the board with its estimate, in board order; [] when cancelled before any playout."""
    pos = _position(game)
    own_b, own_w, done = owner_counts(pos, playouts, seed, cancel, policy)
    if done == 0:
        return []
    w = pos.size + 2
    colors = pos.b[COLOR]
    safe = {BLACK: pass_alive(pos.b, w, BLACK), WHITE: pass_alive(pos.b, w, WHITE)}
    zone_share = {}
    for c, opp in ((BLACK, own_w), (WHITE, own_b)):
        label = components(colors, w, 3 - c)
        on = label >= 0
        n = int(label.max()) + 1
        total = np.bincount(label[on], weights=opp[on].astype(np.float64), minlength=n)
        size = np.bincount(label[on], minlength=n)
        zone_share[c] = (label, total / np.maximum(size, 1) / done)
    out: list[StringEstimate] = []
    for string, c, p in _strings(pos):
        opp = own_w if c == BLACK else own_b
        share = float(np.mean(opp[string])) / done
        label, zshare = zone_share[c]
        out.append(StringEstimate(tuple(string), c, share, float(zshare[label[p]]), bool(safe[c][p])))
    return out


def dead_stones(
    game: Game | Position,
    playouts: int = DEFAULT_PLAYOUTS,
    seed: int | None = 0,
    cancel: threading.Event | None = None,
    policy: str = "heavy",
) -> list[int]:
    """The dead stones (flat points, sorted): strings the opponent owns in most playouts.

    See :class:`StringEstimate` and the module docstring for the rule (the
    opponent's share of the string above :data:`DEAD_THRESHOLD`, or above
    :data:`UNCLEAR_FLOOR` with the opponent owning most of its zone; never a
    pass-alive string). The default seed makes the answer repeatable, so
    GTP's ``final_status_list`` and ``final_score`` agree with each other.
    Returns [] when cancelled before any playout ran.
    """
    dead = [p for s in string_estimates(game, playouts, seed, cancel, policy) if s.dead for p in s.stones]
    return sorted(dead)


__all__ = [
    "DEAD_THRESHOLD",
    "DEFAULT_PLAYOUTS",
    "dead_stones",
    "owner_counts",
    "ownership",
    "ownership_playouts",
    "pass_alive",
    "string_estimates",
    "StringEstimate",
]


# --- final status ---------------------------------------------------------------------

STATUSES = ("alive", "dead", "seki")


NET_DEAD = 0.0  # by the net: a string is dead when the opponent's mean ownership of it is above this


def net_dead_stones(game: Game) -> list[int]:
    """The dead stones (flat points, sorted) by the net: the strings the net gives the opponent
    more likely than not (their mean :func:`gorilla.ai.puct.estimate.settled_ownership` beyond
    :data:`NET_DEAD` from the opponent's side); never a pass-alive string. ValueError (one line)
    on a board the net does not play."""
    from gorilla.ai.puct.estimate import settled_ownership

    own = settled_ownership(game)  # Black +1
    pos = game.position
    w = game.size + 2
    safe = {BLACK: pass_alive(pos.b, w, BLACK), WHITE: pass_alive(pos.b, w, WHITE)}
    dead: list[int] = []
    for string, c, p in _strings(pos):
        theirs = float(np.mean(own[string])) * (-1.0 if c == BLACK else 1.0)
        if theirs > NET_DEAD and not safe[c][p]:
            dead.extend(int(q) for q in string)
    return sorted(dead)


def estimated_dead_stones(
    game: Game, playouts: int = DEFAULT_PLAYOUTS, cancel: threading.Event | None = None
) -> list[int]:
    """The dead stones by the net's ownership where the net plays the board
    (:func:`net_dead_stones`), else by playouts (:func:`dead_stones`)."""
    from gorilla.ai.puct.evaluator import supports

    if supports(game):
        return net_dead_stones(game)
    return sorted(int(p) for p in dead_stones(game, playouts, cancel=cancel))


def estimate_dead(game: Game) -> list[int]:
    """Dead stones: the game's marked ones, else :func:`estimated_dead_stones`."""
    if game.dead:
        return sorted(game.dead)
    return estimated_dead_stones(game)


def status_lists(game: Game) -> dict[str, list[int]]:
    """Stones by final status: {'alive': [...], 'dead': [...], 'seki': [...]}."""
    pos = game.position
    dead = [p for p in estimate_dead(game) if pos.color_at(p) in (BLACK, WHITE)]
    seki = set(seki_stones(pos, dead))
    colors = pos.b[K.COLOR]
    stones = [int(p) for p in np.flatnonzero((colors == BLACK) | (colors == WHITE))]
    dead_set = set(dead)
    alive = [p for p in stones if p not in dead_set and p not in seki]
    return {"alive": alive, "dead": sorted(dead_set), "seki": sorted(seki)}
