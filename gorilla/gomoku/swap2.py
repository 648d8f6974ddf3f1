"""Swap2 decisions of a built-in Gomoku agent (the match's players and ``gorilla pbrain``'s
``SWAP2BOARD``): which three stones to open with, and whether to take Black.

Freestyle and standard Gomoku favour Black, so the opener wants three stones after which
neither colour is ahead (the other player chooses its colour next), and the chooser takes
Black whenever its search finds White behind. The opener's candidates are the shipped
three-stone openings, ``assets/gomoku_swap2.txt``, chosen nearest even for White to move by
this engine's own longer searches (``benchmarks/gomoku_swap2_book.py``; its header says how);
CANDIDATES of them are searched for a share of the time and the one whose score is nearest
even is played. (The match openings, ``gomoku_openings.txt``, are balanced with four or five
stones: their first three leave Black a stone ahead, and a strong chooser takes Black on
every one: benchmarks/RESULTS.md#2026-11-29-gomoku-even-openings-rapfi-far-ahead-of-aiwine-session-39.)
"""

from __future__ import annotations

import random

from gorilla import asset_file
from gorilla.gomoku.game import GomokuGame
from gorilla.gomoku.openings import DEFAULT_OPENINGS, load_openings

SWAP2_OPENINGS = asset_file("gomoku_swap2.txt")

CANDIDATES = 6  # three-stone openings searched by the opener
SWAP_BELOW = 0  # the chooser takes Black when its search scores White (to move) below this


def three_stone_openings(size: int = 15) -> list[list[tuple[int, int]]]:
    """The distinct three-stone openings (dx, dy from the centre) of the shipped Swap2 book that
    fit a size x size board however they are turned; where fewer than CANDIDATES fit (boards
    under 7x7), the first three stones of the match openings (within 2 of the centre) join them."""
    reach = min(size // 2, size - 1 - size // 2)

    def fitting(path) -> list[list[tuple[int, int]]]:
        out: list[list[tuple[int, int]]] = []
        for op in load_openings(path):
            three = op[:3]
            if len(three) == 3 and three not in out and all(max(abs(x), abs(y)) <= reach for x, y in three):
                out.append(three)
        return out

    book = fitting(SWAP2_OPENINGS)
    if len(book) < CANDIDATES:
        book += [op for op in fitting(DEFAULT_OPENINGS) if op not in book]
    return book


def symmetric(dx: int, dy: int, k: int) -> tuple[int, int]:
    """Offset (dx, dy) under the k-th (0-7) of the square's symmetries (0: itself)."""
    if k & 4:
        dx, dy = dy, dx
    return (-dx if k & 1 else dx), (-dy if k & 2 else dy)


def place_three(agent, game: GomokuGame, seconds: float, seed: int) -> list[tuple[int, int]]:
    """The opener's three stones (x, y) on game's empty board: of CANDIDATES openings drawn by
    seed, each turned or mirrored by seed, the one the agent's search scores nearest even for
    White to move."""
    rng = random.Random(seed)
    pool = three_stone_openings(game.size)
    picks = rng.sample(pool, min(CANDIDATES, len(pool)))
    c = game.size // 2
    best: tuple[int, list[tuple[int, int]]] | None = None
    for op in picks:
        turn = rng.randrange(8)  # the book holds one of each set of mirror images: any of them
        stones = [(c + x, c + y) for x, y in (symmetric(dx, dy, turn) for dx, dy in op)]
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
