"""Final status of the stones on the board (GTP ``final_status_list``): alive, dead or seki.

Dead stones come from the ownership estimate (:func:`gorilla.ai.ownership.dead_stones`).
A live group is in *seki* when it touches a neutral point that neither side
can fill without putting its own stones in atari (or committing suicide):
the shared liberties of a seki, as opposed to ordinary dame.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable

import numpy as np

from gorilla.rules import board as K
from gorilla.rules.board import BLACK, EMPTY, WHITE
from gorilla.rules.game import Game
from gorilla.rules.position import Position
from gorilla.rules.scoring import ownership

STATUSES = ("alive", "dead", "seki")


def estimate_dead(game: Game) -> list[int]:
    """Dead stones: the game's marked ones, else the ownership estimate."""
    if game.dead:
        return sorted(game.dead)
    try:
        mod = importlib.import_module("gorilla.ai.ownership")
    except ModuleNotFoundError as e:  # the estimator is not installed: everything lives
        if e.name in ("gorilla.ai.ownership",):
            return []
        raise
    return sorted(int(p) for p in mod.dead_stones(game))


def _fill_is_bad(pos: Position, p: int, color: int) -> bool:
    """Whether color playing at p is illegal or leaves its new group with at most one liberty."""
    if not pos.is_legal(p, color):
        return True
    after = pos.played(p, color)
    return after.color_at(p) != color or after.liberties(p) <= 1


def seki_stones(pos: Position, dead: Iterable[int] = ()) -> list[int]:
    """Stones of live groups (dead ones removed) that share an unfillable neutral point."""
    dead_set = {int(p) for p in dead}
    live = pos.copy()
    if dead_set:
        # remove dead stones by rebuilding the position without them
        live = Position(pos.size, pos.suicide_allowed)
        for p in pos.points():
            c = pos.color_at(p)
            if c in (BLACK, WHITE) and p not in dead_set:
                live.setup_stone(p, c)
    owner = ownership(live)
    w = pos.size + 2
    seki: set[int] = set()
    for p in live.points():
        if live.color_at(p) != EMPTY or owner[p] != EMPTY:
            continue
        nbrs = [q for q in (p - 1, p + 1, p - w, p + w) if live.color_at(q) in (BLACK, WHITE)]
        colors = {live.color_at(q) for q in nbrs}
        if colors != {BLACK, WHITE}:
            continue
        if _fill_is_bad(live, p, BLACK) and _fill_is_bad(live, p, WHITE):
            for q in nbrs:
                seki.update(live.group(q))
    return sorted(seki)


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
