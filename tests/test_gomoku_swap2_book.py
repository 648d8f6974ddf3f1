"""The Swap2 opener's book (assets/gomoku_swap2.txt) and its maker, benchmarks/gomoku_swap2_book.py:
one opening of each set of mirror images, scored by the engine's own search, the nearest even
kept; the shipped book is more even than the match openings' first three stones."""

from __future__ import annotations

import random

from helpers import load_benchmark

from gorilla.gomoku import rules as R
from gorilla.gomoku import swap2
from gorilla.gomoku.agents import make_agent
from gorilla.gomoku.game import GomokuGame
from gorilla.gomoku.openings import DEFAULT_OPENINGS, load_openings, parse_openings

book = load_benchmark("gomoku_swap2_book")


def test_the_eight_symmetries_are_distinct_and_the_first_is_the_identity():
    images = {swap2.symmetric(1, 2, k) for k in range(8)}
    assert len(images) == 8 and swap2.symmetric(1, 2, 0) == (1, 2)
    assert all(abs(x) + abs(y) == 3 for x, y in images)


def test_an_opening_and_its_images_have_one_representative():
    op = ((-1, 0), (2, 1), (3, -2))
    key = book.canonical(op)
    for k in range(8):
        b1, w, b2 = (swap2.symmetric(x, y, k) for x, y in op)
        assert book.canonical((b1, w, b2)) == key == book.canonical((b2, w, b1))
    assert book.canonical(((0, 0), (1, 0), (2, 0))) != book.canonical(((0, 0), (1, 1), (2, 0)))


def test_the_samples_are_distinct_up_to_symmetry_and_within_the_radius():
    ops = book.sample_openings(60, 2, seed=3)
    assert len(ops) == 60 and len({book.canonical(op) for op in ops}) == 60
    assert all(len(set(op)) == 3 and max(max(abs(x), abs(y)) for x, y in op) <= 2 for op in ops)
    assert ops == book.sample_openings(60, 2, seed=3) != book.sample_openings(60, 2, seed=4)


def test_a_written_line_reads_back_as_the_opening():
    op = ((-4, -3), (4, 4), (3, 3))
    line = book.format_line(op, [-3, 39], 0.52)
    assert parse_openings(line) == [list(op)] and "-3 / +39" in line and "0.52" in line


def test_the_maker_keeps_the_openings_its_search_scores_nearest_even():
    agent = make_agent("threat1")  # a deterministic score
    lopsided = ((0, 0), (4, 4), (1, 0))  # two Black stones side by side, White far away
    ops = book.sample_openings(8, 3, seed=1) + [lopsided]
    kept = book.choose(agent, ops, [0.05, 0.05], keep=3)
    assert len(kept) == 3 and lopsided not in [op for op, _ in kept]
    size = {op: abs(book.score(agent, op, 15, 0.05)) for op in ops}  # threat1: the same each time
    chosen = [op for op, _ in kept]
    assert max(size[op] for op in chosen) <= min(s for op, s in size.items() if op not in chosen)


def _scores(openings: list[list[tuple[int, int]]]) -> list[int]:
    agent = make_agent("pvs")
    agent.max_depth = 4  # a fixed depth: the same scores on any machine
    return [book.score(agent, tuple(op), 15, 30.0) for op in openings]


def test_the_shipped_book_is_more_even_than_the_match_openings_first_three_stones():
    ours = swap2.three_stone_openings()
    assert len(ours) >= 30 and all(len(op) == 3 and len(set(op)) == 3 for op in ours)
    prefixes: list[list[tuple[int, int]]] = []
    for op in load_openings(DEFAULT_OPENINGS):
        if op[:3] not in prefixes:
            prefixes.append(op[:3])
    pick = random.Random(0).sample(ours, 12)
    mine, theirs = _scores(pick), _scores(random.Random(0).sample(prefixes, 12))
    # the prefixes leave Black a stone ahead: White to move is behind in most of them
    assert sum(s < 0 for s in theirs) >= 9
    assert sum(abs(s) for s in mine) * 2 < sum(abs(s) for s in theirs)
    assert max(abs(s) for s in mine) < 1000  # an open three alone is worth 6,700 or more


def test_the_opener_turns_its_book_opening_any_way_and_keeps_it_on_the_board():
    agent = make_agent("threat1")
    seen = set()
    for seed in range(6):
        stones = swap2.place_three(agent, GomokuGame(15, R.FREESTYLE), 0.05, seed=seed)
        assert len(set(stones)) == 3 and all(0 <= v < 15 for xy in stones for v in xy)
        seen.add(book.canonical(tuple((x - 7, y - 7) for x, y in stones)))
        assert book.canonical(tuple((x - 7, y - 7) for x, y in stones)) in {
            book.canonical(tuple(op)) for op in swap2.three_stone_openings()
        }
    assert len(seen) > 1


def test_on_a_small_board_the_opener_keeps_to_openings_that_fit():
    agent = make_agent("threat1")
    for size in (5, 6, 7, 8, 9):
        reach = min(size // 2, size - 1 - size // 2)
        pool = swap2.three_stone_openings(size)
        assert len(pool) >= swap2.CANDIDATES
        assert all(max(abs(x), abs(y)) <= reach for op in pool for x, y in op)
        for seed in range(3):
            stones = swap2.place_three(agent, GomokuGame(size, R.FREESTYLE), 0.02, seed=seed)
            assert len(set(stones)) == 3 and all(0 <= v < size for xy in stones for v in xy)
    assert len(swap2.three_stone_openings(9)) == len(swap2.three_stone_openings(15))  # the whole book
