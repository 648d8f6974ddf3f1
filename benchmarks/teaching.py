"""The teaching game's judgement delay: the seconds from a taught human's move to its judgement
on screen (the frame whose poll applies it), on 9x9 and 19x19, median and 90th percentile.

Each sample is a position of a seeded middle game (random reasonable moves, Black to move) in
a controller teaching Black (the settings' defaults: the visits by board size). Two cases:

- ``thought``: Black moves once the position was searched ahead (the pre-judgement a taught
  player's turn starts, as while a person thinks); what is left is the position after the move;
- ``at once``: Black moves before the first frame (both positions are searched after the move).

The controller is polled every 5 ms, as the window's 60 Hz tick polls it (or faster). Beside
the wall-clock delay, the CPU seconds of the judgement's searches after the move (on their
thread): on a shared machine the delay is load, the CPU time what an idle core would take.
The issue's goal: on screen within 1 s on 9x9 and 2 s on 19x19 on two cores.

``--stops N``: the analysis of the position shown (``v``) stopped by a move N times a size:
the seconds from the move to its search's return (its last batch), median and p90 (the
issue's goal: within 0.2 s).

    python benchmarks/teaching.py --samples 10
"""

from __future__ import annotations

import os
import random
import statistics
import time

from common import middle_game, parser

from gorilla.app.go.controller import Controller
from gorilla.app.go.teaching import TeachSettings, default_visits, position_key
from gorilla.rules.board import BLACK, PASS


def one_delay(size: int, seed: int, thought: bool, visits: int) -> tuple[float, float]:
    """The judgement delay of one move and its searches' CPU seconds after the move."""
    game = middle_game(size, 2 * (size + seed % size), seed)
    if game.to_move != BLACK:
        game.play(PASS)
    teaching = TeachSettings(visits=visits)
    c = Controller(game, "human", "human", autosave=None, teach="black", teaching=teaching)
    try:
        key = position_key(c.game)
        while thought and key not in c.teacher.cache:  # the frames while Black thinks
            c.poll()
            time.sleep(0.005)
        legal = c.game.legal_moves(reasonable=True)
        move = random.Random(seed).choice(legal) if legal else PASS
        assert c.play(move), c.message
        after = position_key(c.game)
        while after not in c.teacher.judged:
            c.poll()
            time.sleep(0.005)
        j = c.teacher.judged[after]
        return j.delay, j.cpu
    finally:
        c.close()


def one_stop(size: int, seed: int) -> float:
    """Seconds from a move to the return of the analysis's search it cancels (v on, a second of
    analysis before the move)."""
    game = middle_game(size, 2 * (size + seed % size), seed)
    c = Controller(game, "human", "human", autosave=None)
    try:
        c.toggle_thinking()
        end = time.monotonic() + 1.0
        while time.monotonic() < end or c.ponder_view() is None:
            c.poll()
            time.sleep(0.01)
        run = c.workers.get("ponder")
        legal = c.game.legal_moves(reasonable=True)
        t0 = time.perf_counter()
        assert c.play(random.Random(seed).choice(legal) if legal else PASS), c.message
        run.done.wait()
        return time.perf_counter() - t0
    finally:
        c.close()


def stats(xs: list[float]) -> tuple[float, float]:
    xs = sorted(xs)
    return statistics.median(xs), xs[int(0.9 * (len(xs) - 1))]


def main(argv: list[str] | None = None) -> int:
    ap = parser(__doc__)
    ap.add_argument("--samples", type=int, default=10, help="moves judged per size and case")
    ap.add_argument("--sizes", type=int, nargs="+", default=[9, 19])
    ap.add_argument("--visits", type=int, default=0, help="visits a position (0: the default by size)")
    ap.add_argument("--stops", type=int, default=0, help="also time the analysis (v) stopped by a move")
    args = ap.parse_args(argv)
    one_delay(9, 0, True, 20)  # the net loaded and its kernels compiled before any timing
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores at the start")
    for size in args.sizes:
        visits = args.visits or default_visits(size)
        for thought in (True, False) if args.samples else ():
            runs = [one_delay(size, seed, thought, visits) for seed in range(1, args.samples + 1)]
            delays, cpus = [d for d, _ in runs], [c for _, c in runs]
            med, p90 = stats(delays)
            cmed, c90 = stats(cpus)
            case = "thought" if thought else "at once"
            print(
                f"{size}x{size}, {visits} visits a position, {case}: on screen after median {med:.2f} s,"
                f" p90 {p90:.2f} s, max {max(delays):.2f} s; the searches' CPU median {cmed:.2f} s,"
                f" p90 {c90:.2f} s ({len(delays)} moves)"
            )
    for size in args.sizes if args.stops else []:
        stops = [one_stop(size, seed) for seed in range(1, args.stops + 1)]
        med, p90 = stats(stops)
        print(
            f"{size}x{size}, the analysis stopped by a move: its search returned after median"
            f" {1000 * med:.0f} ms, p90 {1000 * p90:.0f} ms, max {1000 * max(stops):.0f} ms"
            f" ({len(stops)} moves)"
        )
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores at the end")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
