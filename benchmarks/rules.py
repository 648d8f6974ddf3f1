"""Random-game moves per second through the board core (numba kernels) and the Python Game API.

    python benchmarks/rules.py [--seconds 3] [--repeats 1] [--sizes 9 19] [--gnugo]

1. numba: ``random_game`` (random reasonable moves until two passes) run in
   a numba loop over fresh copies of an empty board: the playout speed of
   the rules core itself.
2. Position: the same games from Python, one ``random_reasonable_move`` +
   ``Position.play`` call per move (the cost of crossing into numba).
3. Game: the full Python ``Game`` API (``legal_moves(reasonable=True)``,
   superko check, record) per move: what the GUI and GTP pay.
4. ``--gnugo``: a random game replayed with GTP ``play`` into
   ``python -m gorilla gtp`` and into GNU Go 3.8, moves per second each
   (process round trips included on both sides).

The machine is shared (2 cores, several processes): numbers are pessimistic.
"""

from __future__ import annotations

import random
import sys
import time

import numpy as np
from common import add_timing, gnugo_path, measure, parser
from numba import njit

from gorilla.rules import board as K
from gorilla.rules.board import PASS
from gorilla.rules.game import Game
from gorilla.rules.position import Position


@njit(cache=True, nogil=True)
def _many_games(b0: np.ndarray, st0: np.ndarray, zob: np.ndarray, games: int, max_moves: int) -> int:
    total = 0
    for _ in range(games):
        b = b0.copy()
        st = st0.copy()
        total += K.random_game(b, st, zob, max_moves)
    return total


def bench_numba(size: int, seconds: float, repeats: int = 1) -> tuple[float, float, int]:
    """(moves/s, games/s, games) with random_game in a numba loop."""
    b0, st0 = K.new_board(size, False)
    K.seed_rng(12345)
    max_moves = 3 * size * size

    def step(i: int) -> tuple[int, int]:
        batch = min(10 << min(i, 8), 2000)  # 10, 20, 40, ... games: short runs stop near `seconds`
        return _many_games(b0, st0, K.ZOBRIST, batch, max_moves), batch

    def warm_up() -> None:  # compile / load from cache
        _many_games(b0, st0, K.ZOBRIST, 2, max_moves)

    r = measure(step, seconds, repeats, warm_up)
    return r.rate, r.extra_rate, int(r.extra)


def bench_position(size: int, seconds: float, repeats: int = 1) -> tuple[float, int]:
    """(moves/s, games) calling one kernel per move from Python."""
    K.seed_rng(777)

    def game(i: int) -> tuple[int, int]:
        pos = Position(size)
        moves = 0
        for _ in range(3 * size * size):
            if pos.passes >= 2:
                break
            c = pos.to_move
            p = int(K.random_reasonable_move(pos.b, pos.st, c))
            if p == PASS:
                K.play_pass(pos.st)
            else:
                K.place(pos.b, pos.st, K.ZOBRIST, p, c)
            moves += 1
        return moves, 1

    r = measure(game, seconds, repeats)
    return r.rate, int(r.extra)


def bench_game(size: int, seconds: float, repeats: int = 1) -> tuple[float, int]:
    """(moves/s, games) through Game.legal_moves(reasonable=True) + Game.play."""
    rng = random.Random(99)

    def play(i: int) -> tuple[int, int]:
        game = Game.new(size, "chinese")
        while not game.over and len(game.moves) < 3 * size * size:
            legal = game.legal_moves(reasonable=True)
            game.play(rng.choice(legal) if legal else PASS)
        return len(game.moves), 1

    r = measure(play, seconds, repeats)
    return r.rate, int(r.extra)


def bench_gtp(size: int, gnugo: str, games: int = 3) -> tuple[float, float, int]:
    """GTP play moves/s into Gorilla and into GNU Go for the same random games."""
    from gorilla.match.gtp_client import GtpClient
    from gorilla.rules.coords import format_vertex

    records = []
    rng = random.Random(5)
    for _ in range(games):
        game = Game.new(size, "chinese")
        while not game.over:
            legal = game.legal_moves(reasonable=True)
            game.play(rng.choice(legal) if legal else PASS)
        records.append([("b" if m.color == 1 else "w", format_vertex(m.point, size)) for m in game.moves])
    rates = []
    for argv in (
        [sys.executable, "-m", "gorilla", "gtp", "--ko", "simple"],
        [gnugo, "--mode", "gtp", "--chinese-rules"],
    ):
        with GtpClient(argv) as eng:
            eng.send(f"boardsize {size}")
            n = 0
            t0 = time.perf_counter()
            for rec in records:
                eng.send("clear_board")
                for color, vtx in rec:
                    eng.send(f"play {color} {vtx}")
                    n += 1
            rates.append(n / (time.perf_counter() - t0))
    return rates[0], rates[1], sum(len(r) for r in records)


def main(argv: list[str] | None = None) -> int:
    ap = parser(__doc__)
    add_timing(ap, 3.0)
    ap.add_argument("--sizes", type=int, nargs="+", default=[9, 19])
    ap.add_argument("--gnugo", action="store_true", help="also compare GTP play throughput with GNU Go")
    args = ap.parse_args(argv)
    print("random games (reasonable moves until two passes); shared 2-core machine, numbers are pessimistic")
    for size in args.sizes:
        mps, gps, games = bench_numba(size, args.seconds, args.repeats)
        print(f"{size}x{size} numba loop     : {mps:12,.0f} moves/s  ({gps:,.0f} games/s, {games} games)")
        mps, games = bench_position(size, args.seconds, args.repeats)
        print(f"{size}x{size} Python+kernels : {mps:12,.0f} moves/s  ({games} games)")
        mps, games = bench_game(size, args.seconds, args.repeats)
        print(f"{size}x{size} Game API       : {mps:12,.0f} moves/s  ({games} games)")
    if args.gnugo:
        gnugo = gnugo_path()
        if gnugo is None:
            print("GNU Go not found: skipping the GTP comparison")
        else:
            for size in args.sizes:
                ours, theirs, n = bench_gtp(size, gnugo)
                print(
                    f"{size}x{size} GTP play       : Gorilla {ours:8,.0f} moves/s, "
                    f"GNU Go 3.8 {theirs:8,.0f} moves/s ({n} moves)"
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
