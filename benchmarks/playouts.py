"""Light playouts per second on an empty board, one thread and two threads.

Each thread runs a numba kernel (nogil) that copies the empty board and plays
random reasonable moves to the end (two passes), many playouts per call.
With ``--gnugo``, GNU Go 3.8's own Monte-Carlo mode (light, uniform
patterns) is timed too, on 9x9 (the only size it simulates). The machine has
2 cores shared with other work, so numbers measured while others run are
pessimistic.

    python benchmarks/playouts.py [--seconds 3] [--repeats 1] [--sizes 9 19] [--threads 1 2] [--gnugo]
"""

from __future__ import annotations

import time

import numpy as np
from common import Run, add_timing, gnugo_rate, median_of, parser, run_threads
from numba import njit

from gorilla.ai.playout.light import run_playout
from gorilla.rules import board as K


@njit(cache=True, nogil=True)
def many_light(b0: np.ndarray, st0: np.ndarray, zob: np.ndarray, n: int, seed: int) -> int:
    """n light playouts from (b0, st0); returns the total number of moves."""
    K.seed_rng(seed)
    b = b0.copy()
    st = st0.copy()
    moves = np.empty(0, dtype=np.int32)
    max_moves = 3 * st0[K.S_NEMPTY]
    total = 0
    for _ in range(n):
        b[:] = b0
        st[:] = st0
        total += run_playout(b, st, zob, max_moves, moves)
    return total


def rate(size: int, threads: int, seconds: float, repeats: int = 1) -> tuple[float, float]:
    """(playouts/s, moves per playout) with `threads` threads for about `seconds` (median of repeats)."""
    b0, st0 = K.new_board(size, False)
    chunk = 2000 if size <= 9 else 400

    def once() -> Run:
        counts = [0] * threads
        moves = [0] * threads
        stop = time.perf_counter() + seconds

        def work(i: int) -> None:
            seed = 1000 * i + 7
            while time.perf_counter() < stop:
                moves[i] += many_light(b0, st0, K.ZOBRIST, chunk, seed)
                counts[i] += chunk
                seed += 1

        wall, cpu = run_threads(work, threads)
        return Run(sum(counts), wall, cpu, sum(moves))

    run = median_of(once, repeats, warmup=lambda: many_light(b0, st0, K.ZOBRIST, 10, 1))
    return run.rate, run.per_unit


def main() -> None:
    ap = parser(__doc__)
    add_timing(ap, 3.0)
    ap.add_argument("--sizes", type=int, nargs="+", default=[9, 19])
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--gnugo", action="store_true", help="also time GNU Go's Monte-Carlo mode")
    args = ap.parse_args()
    for size in args.sizes:
        for th in args.threads:
            r, mpp = rate(size, th, args.seconds, args.repeats)
            print(
                f"{size}x{size} light playouts, {th} thread(s): {r:10.0f} playouts/s"
                f"  ({mpp:.1f} moves/playout)"
            )
        if args.gnugo:
            if size > 9:
                print(f"{size}x{size} GNU Go 3.8 --monte-carlo: none (its Monte-Carlo mode stops at 9x9)")
                continue
            g = gnugo_rate("uniform", size)
            if g is not None:
                print(f"{size}x{size} GNU Go 3.8 --monte-carlo light (uniform): {g:10.0f} playouts/s")


if __name__ == "__main__":
    main()
