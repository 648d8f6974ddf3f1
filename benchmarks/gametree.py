"""The game tree: SGF load and save of a big record, and moving through a long game in the app.

    python benchmarks/gametree.py [--repeats 3] [--nodes 10000] [--moves 250]

1. load: ``load_tree`` of a 19x19 record of about ``--nodes`` move nodes (random games
   of 100 moves as variations of the root), every move played through the rules;
2. save: ``save_tree`` of that record;
3. step: the controller (no window) on a ``--moves`` 19x19 game: milliseconds per
   one-move step back and forward (what ←/→ cost), per jump to the start and back
   to the end (Home/End), and per move played at an old position (a new variation,
   the autosave snapshot included).

Medians of ``--repeats`` runs after one warm-up; the machine is shared, so these are
upper bounds.
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable

from common import middle_game, parser

from gorilla.app.go.controller import Controller
from gorilla.rules.board import PASS
from gorilla.rules.coords import to_xy
from gorilla.rules.game import Game
from gorilla.rules.sgf import load_tree, save_tree

LETTERS = "abcdefghijklmnopqrs"


def big_record(nodes: int, seed: int = 7) -> bytes:
    """A 19x19 SGF of about nodes move nodes: random games of up to 100 moves from the root."""
    rng = random.Random(seed)
    parts, count = [], 0
    while count < nodes:
        g = Game.new(19)
        line = []
        for _ in range(min(100, nodes - count)):
            legal = g.legal_moves(reasonable=True)
            p = rng.choice(legal) if legal else PASS
            color = g.to_move
            g.play(p, color)
            x, y = to_xy(p, 19) if p != PASS else (-1, -1)
            line.append(f";{'BW'[color - 1]}[{LETTERS[x] + LETTERS[y] if p != PASS else ''}]")
            if g.over:
                break
        count += len(line)
        parts.append("(" + "".join(line) + ")")
    return ("(;GM[1]FF[4]SZ[19]" + "".join(parts) + ")").encode()


def median_seconds(fn: Callable[[], object], repeats: int) -> float:
    """Median wall seconds of fn over repeats runs, after one warm-up run."""
    fn()
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    """Print the numbers (see the module docstring)."""
    ap = parser(__doc__)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--nodes", type=int, default=10_000)
    ap.add_argument("--moves", type=int, default=250)
    args = ap.parse_args(argv)

    data = big_record(args.nodes)
    tree = load_tree(data)
    print(f"record: {len(tree) - 1} move nodes, {len(tree.root.children)} variations at the root")
    print(f"load_tree: {median_seconds(lambda: load_tree(data), args.repeats):.2f} s")
    print(f"save_tree: {median_seconds(lambda: save_tree(tree), args.repeats):.2f} s")

    game = middle_game(19, args.moves, seed=3)
    with tempfile.TemporaryDirectory() as folder:
        c = Controller(game.copy(), autosave=f"{folder}/auto.sgf")
        n = c.game.move_number

        def steps() -> None:
            for _ in range(20):
                c.go_back(1)
            for _ in range(20):
                c.go_forward(1)

        def home_end() -> None:
            c.go_start()
            c.go_end()

        def variation() -> None:
            c.goto_move(n // 2)
            legal = c.game.legal_moves()
            c.click(legal[len(legal) // 2])
            c.go_end()

        step = median_seconds(steps, args.repeats) / 40
        jump = median_seconds(home_end, args.repeats) / 2
        var = median_seconds(variation, args.repeats)
        c.close()
    print(f"{n}-move 19x19 game: step {1000 * step:.1f} ms, Home/End {1000 * jump:.1f} ms")
    print(f"  a move at move {n // 2} (new variation) with the jump there and back: {1000 * var:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
