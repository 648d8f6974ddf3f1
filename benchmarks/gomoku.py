"""Gomoku engine numbers: PVS nodes per second on 15x15, VCF solve times, and the agents' ladder.

    python benchmarks/gomoku.py [--seconds 2] [--games 4] [--move-time 0.1]

1. PVS: a fixed middle-game position (15x15, freestyle), ``--seconds`` of search; nodes
   per second and the depth reached.
2. VCF: the solve time of built positions with a win by continuous fours (and of one
   without, the full refutation).
3. Ladder: random < threat1 < pvs < pvs+vct, each neighbouring pair playing ``--games``
   games (colours alternating, balanced short openings) at ``--move-time`` seconds a move,
   in-process (the engine's own API, no protocol).

The machine is shared (2 cores, several processes): numbers are pessimistic.
"""

from __future__ import annotations

import argparse
import random
import time

from gorilla.gomoku import rules as R
from gorilla.gomoku import search as S
from gorilla.gomoku.agents import make_agent, warm_up
from gorilla.gomoku.game import GomokuGame
from gorilla.gomoku.vcf import new_state

MIDDLE = [(7, 7), (8, 8), (9, 6), (6, 9), (5, 8), (10, 5), (9, 9), (7, 10)]
VCF_WIN = (
    [(5, 5), (6, 5), (7, 5), (5, 6), (6, 6), (7, 6), (8, 7), (8, 8)],
    [(4, 5), (4, 6), (8, 9), (7, 7), (14, 14), (14, 0), (0, 0), (2, 13)],
)
VCF_NONE = (
    [(5, 5), (6, 5), (7, 5), (9, 9), (3, 9), (10, 3)],
    [(4, 5), (0, 0), (14, 14), (8, 9), (3, 3), (11, 11)],
)
OPENINGS = [[(7, 7), (8, 7)], [(7, 7), (8, 8)], [(7, 7), (7, 9)], [(7, 7), (9, 8)], [(7, 7), (6, 9)]]


def pvs_rate(seconds: float) -> None:
    g = GomokuGame(15)
    for x, y in MIDDLE:
        g.play_xy(x, y)
    st = new_state(20)
    res = S.search(R.copy_board(g.bd), st, g.to_move, seconds)
    rate = res.nodes / res.seconds
    print(
        f"PVS 15x15 middle game: {rate:,.0f} nodes/s, depth {res.depth},"
        f" {res.nodes:,} nodes in {res.seconds:.2f}s"
    )


def _setup(black, white) -> GomokuGame:
    g = GomokuGame(15)
    for b, w in zip(black, white, strict=False):
        g.play_xy(*b)
        g.play_xy(*w)
    return g


def vcf_times() -> None:
    for name, (black, white), expect in (("win", VCF_WIN, True), ("no win", VCF_NONE, False)):
        g = _setup(black, white)
        runs = []
        for _ in range(5):
            st = new_state(12)
            t0 = time.perf_counter()
            mv = S.solve_vcf(g.bd, st, R.BLACK, depth=20)
            runs.append(time.perf_counter() - t0)
            nodes = int(st[0][0])
        assert (mv >= 0) == expect
        first = g.xy(mv) if mv >= 0 else None
        print(f"VCF {name}: {min(runs) * 1e6:,.0f} us ({nodes} nodes), first move {first}")


def play(a: str, b: str, games: int, move_time: float, seed: int) -> tuple[int, int, int]:
    rng = random.Random(seed)
    wins = {a: 0, b: 0, "draw": 0}
    for i in range(games):
        names = (a, b) if i % 2 == 0 else (b, a)
        agents = {
            R.BLACK: make_agent(names[0], seed=rng.randrange(1 << 30)),
            R.WHITE: make_agent(names[1], seed=rng.randrange(1 << 30)),
        }
        g = GomokuGame(15)
        for x, y in OPENINGS[(i // 2) % len(OPENINGS)]:
            g.play_xy(x, y)
        while not g.over:
            g.play(agents[g.to_move].select(g, move_time).move)
        w = g.result.winner
        wins[names[w - 1] if w else "draw"] += 1
    return wins[a], wins[b], wins["draw"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--move-time", type=float, default=0.1)
    args = ap.parse_args()
    t0 = time.perf_counter()
    warm_up()
    print(f"warm-up (compile or cache load): {time.perf_counter() - t0:.1f}s")
    pvs_rate(args.seconds)
    vcf_times()
    ladder = ["random", "threat1", "pvs", "pvs+vct"]
    for lo, hi in zip(ladder, ladder[1:], strict=False):
        w_hi, w_lo, d = play(hi, lo, args.games, args.move_time, seed=1)
        print(f"{hi} vs {lo}: {w_hi}-{w_lo} ({d} draws) in {args.games} games at {args.move_time}s/move")


if __name__ == "__main__":
    main()
