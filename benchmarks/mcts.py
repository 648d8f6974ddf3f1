"""MCTS speed: playouts per second of the whole search loop (descend, expand, playout, back up).

    python benchmarks/mcts.py [--seconds 5] [--repeats 1] [--sizes 9 19] [--threads 1 2] [--light]
                              [--policy W --widen S] [--model FILE] [--playouts heavy softmax]

Searches the empty board and a middle-game position (half the board's points
in random reasonable moves: 40 on 9x9, 180 on 19x19) for a fixed time with
heavy playouts (and light ones with ``--light``; ``--playouts`` names the kinds:
heavy, ladders (heavy reading the ladders of escapes), light, softmax), one thread and several;
``--repeats N`` prints the median of N searches. ``--policy W`` (and
``--widen S``) search with the move model's priors (and progressive widening), the shipped
model or ``--model FILE``. The machine may be shared: numbers are lower bounds.
"""

from __future__ import annotations

import itertools
import sys
import time

from common import Run, add_timing, median_of, middle_game, parser

from gorilla.ai.agent import Budget
from gorilla.ai.mcts.agent import MCTSAgent
from gorilla.rules.game import Game


def measure(
    game: Game,
    seconds: float,
    threads: int,
    playout: str,
    repeats: int = 1,
    policy: float = 0.0,
    widen: float = 0.0,
    model: str | None = None,
) -> float:
    """Playouts per second of one search of `seconds` (the median of `repeats`), after a warm-up."""
    agent = MCTSAgent(
        threads=threads,
        playout="heavy" if playout == "ladders" else playout,
        ladders=playout == "ladders",
        reuse=False,
        resign=0,
        seed=1,
        policy=policy,
        widen=widen,
        model=model,
    )

    def warm_up() -> None:  # numba compiling or loading its cache, the agent's threads started
        agent.select_move(game, Budget(playouts=200))

    def search() -> Run:
        c0 = time.process_time()
        agent.select_move(game, Budget(seconds=seconds))
        return Run(agent.last_playouts, agent.last_elapsed, time.process_time() - c0)

    try:
        return median_of(search, repeats, warm_up).rate
    finally:
        agent.close()


def main(argv: list[str] | None = None) -> int:
    ap = parser(__doc__)
    add_timing(ap, 5.0)
    ap.add_argument("--sizes", type=int, nargs="+", default=[9, 19])
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--light", action="store_true", help="also measure light playouts")
    playout_kinds = ["heavy", "ladders", "light", "softmax"]
    ap.add_argument("--playouts", nargs="+", default=["heavy"], choices=playout_kinds, help="kinds")
    ap.add_argument("--policy", type=float, default=0.0, help="the move model's prior weight (0: off)")
    ap.add_argument("--widen", type=float, default=0.0, help="progressive widening's scale (0: off)")
    ap.add_argument("--model", help="a move model file instead of the shipped one")
    args = ap.parse_args(argv)
    model = f", move model {args.policy:g} widen {args.widen:g}" if args.policy else ""
    if args.policy and args.model:
        model += f" ({args.model})"
    print(f"MCTS search, {args.seconds} s per measurement{model} (machine may be shared: lower bounds)")
    kinds = list(dict.fromkeys([*args.playouts, *(["light"] if args.light else [])]))
    for size in args.sizes:
        positions = (("empty", Game.new(size)), ("middle", middle_game(size, size * size // 2)))
        for (label, game), playout, k in itertools.product(positions, kinds, args.threads):
            t0 = time.perf_counter()
            rate = measure(game, args.seconds, k, playout, args.repeats, args.policy, args.widen, args.model)
            print(
                f"{size:2d}x{size:<2d} {label:6s} {playout:7s} "
                f"threads={k}: {rate:9.0f} playouts/s  ({time.perf_counter() - t0:.1f} s)",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
