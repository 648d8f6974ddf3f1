"""MCTS speed: playouts per second of the whole search loop (descend, expand, playout, back up).

    python benchmarks/mcts.py [--seconds 5] [--sizes 9 19] [--threads 1 2]

Searches the empty board and a middle-game position (40 random reasonable
moves) for a fixed time with heavy playouts (and light ones for comparison),
one thread and several. The machine may be shared: numbers are lower bounds.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gorilla.ai.agent import Budget  # noqa: E402
from gorilla.ai.mcts.agent import MCTSAgent  # noqa: E402
from gorilla.rules.game import Game  # noqa: E402


def middle_game(size: int, moves: int, seed: int = 1) -> Game:
    rng = random.Random(seed)
    game = Game.new(size)
    for _ in range(moves):
        legal = game.legal_moves(reasonable=True)
        if not legal:
            break
        game.play(rng.choice(legal))
    return game


def measure(game: Game, seconds: float, threads: int, heavy: bool) -> float:
    agent = MCTSAgent(threads=threads, heavy=heavy, reuse=False, resign=0, seed=1)
    agent.select_move(game, Budget(playouts=200))  # compile / warm up
    agent.select_move(game, Budget(seconds=seconds))
    agent.close()
    return agent.last_playouts / agent.last_elapsed


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="MCTS playouts per second")
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--sizes", type=int, nargs="+", default=[9, 19])
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--light", action="store_true", help="also measure light playouts")
    args = ap.parse_args(argv)
    print(f"MCTS search, {args.seconds} s per measurement (machine may be shared: lower bounds)")
    for size in args.sizes:
        for label, game in (("empty", Game.new(size)), ("middle", middle_game(size, size * size // 2))):
            for heavy in (True, False) if args.light else (True,):
                for k in args.threads:
                    t0 = time.perf_counter()
                    rate = measure(game, args.seconds, k, heavy)
                    print(
                        f"{size:2d}x{size:<2d} {label:6s} {'heavy' if heavy else 'light'} "
                        f"threads={k}: {rate:9.0f} playouts/s  ({time.perf_counter() - t0:.1f} s)",
                        flush=True,
                    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
