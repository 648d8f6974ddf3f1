"""Swap2 decisions of a built-in Gomoku agent (the match's players and ``gorilla pbrain``'s
``SWAP2BOARD``): which three stones to open with, and whether to take Black.

Freestyle and standard Gomoku favour Black, so the opener wants three stones after which
neither colour is ahead (the other player chooses its colour next), and the chooser takes
Black whenever its search finds White behind. The opener's candidates are the first three
stones of the shipped balanced openings (:mod:`gorilla.gomoku.openings`); each is searched
for a share of the time and the one whose score is nearest even is played.
"""

from __future__ import annotations

import random

from gorilla.gomoku.game import GomokuGame
from gorilla.gomoku.openings import DEFAULT_OPENINGS, load_openings

CANDIDATES = 6  # three-stone openings searched by the opener
SWAP_BELOW = 0  # the chooser takes Black when its search scores White (to move) below this


def three_stone_openings() -> list[list[tuple[int, int]]]:
    """The distinct first three stones (dx, dy from the centre) of the shipped openings."""
    out: list[list[tuple[int, int]]] = []
    for op in load_openings(DEFAULT_OPENINGS):
        if len(op) >= 3 and op[:3] not in out:
            out.append(op[:3])
    return out


def place_three(agent, game: GomokuGame, seconds: float, seed: int) -> list[tuple[int, int]]:
    """The opener's three stones (x, y) on game's empty board: of CANDIDATES openings drawn by
    seed, the one the agent's search scores nearest even for White to move."""
    rng = random.Random(seed)
    pool = three_stone_openings()
    picks = rng.sample(pool, min(CANDIDATES, len(pool)))
    c = game.size // 2
    best: tuple[int, list[tuple[int, int]]] | None = None
    for op in picks:
        stones = [(c + dx, c + dy) for dx, dy in op]
        g = game.copy()
        for x, y in stones:
            g.play_xy(x, y)
        score = abs(agent.select(g, seconds / len(picks)).score)
        if best is None or score < best[0]:
            best = (score, stones)
    assert best is not None
    return best[1]


def choose(agent, game: GomokuGame, seconds: float) -> tuple[int, int] | None:
    """After 3 or 5 stones (White to move): None to take Black (SWAP), or White's move (x, y)
    when the agent's search does not find White behind."""
    res = agent.select(game, seconds)
    if res.move < 0 or res.score < SWAP_BELOW:
        return None
    return game.xy(res.move)
