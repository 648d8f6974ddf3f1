"""Whole-game analysis: seconds to analyse a 250-move 19x19 game and a 60-move 9x9 game.

The games are GNU Go (level 0) self-play records kept in ``benchmarks/data/``
(``review-19x19.sgf``, ``review-9x9.sgf``); a missing one is played again with
:func:`gorilla.match.selfplay.finished_game` (needs GNU Go). Each is analysed
by :func:`gorilla.app.go.review.analyse_line` at the default budget
(``review.DEFAULT_PLAYOUTS`` playouts a position, as ``gorilla analyze`` and
the window's ``g``) with one and with two search threads, after a warm-up
(the kernels compiled or loaded, one position searched). ``--sample K``
searches every K-th position of the line only and scales the time to the
whole game (the per-position time times the number of positions), for
machines where a full run does not fit; it leaves out the searches after the
engine's best move that the full analysis adds for each move that is not the
engine's (up to one more search a move).

    python benchmarks/review.py [--threads 1 2] [--playouts N] [--sample K] [--sizes 9 19]
"""

from __future__ import annotations

import time
from pathlib import Path

from common import machine, need_gnugo, parser

from gorilla.ai.agent import Budget
from gorilla.app.go import review
from gorilla.rules.game import Game
from gorilla.rules.sgf import read_sgf, save_sgf

DATA = Path(__file__).resolve().parent / "data"
GAMES = {9: 60, 19: 250}  # size -> moves


def game_for(size: int) -> Game:
    """The benchmark game of this size, played by GNU Go and saved the first time."""
    path = DATA / f"review-{size}x{size}.sgf"
    if not path.exists():
        from gorilla.match.gtp_client import GtpClient
        from gorilla.match.referee import gnugo_command
        from gorilla.match.selfplay import finished_game

        with GtpClient(gnugo_command(need_gnugo())) as engine:
            for seed in range(1, 50):
                fg = finished_game(engine, size, seed, random_moves=0, max_moves=GAMES[size])
                if len(fg.game.moves) >= GAMES[size]:
                    break
        path.write_text(save_sgf(fg.game))
    return read_sgf(path)


def timed(game: Game, threads: int, playouts: int, sample: int) -> tuple[float, int]:
    """(seconds to analyse the positions, positions analysed): every sample-th position."""
    budget = Budget(playouts=playouts)
    if sample == 1:  # the real thing: the whole line as gorilla analyze and the window run it
        t0 = time.perf_counter()
        review.analyse_line(game, budget, threads=threads, seed=1)
        return time.perf_counter() - t0, len(game.moves) + 1
    g = game.copy()
    g.goto(0)
    agent = review.make_agent(threads, seed=1)
    spent, count = 0.0, 0
    try:
        k = 0
        while True:
            if k % sample == 0:
                t0 = time.perf_counter()
                review.evaluate_position(g, agent, budget, None)
                spent += time.perf_counter() - t0
                count += 1
            if not g.redo_stack:
                break
            g.redo()
            k += 1
    finally:
        agent.close()
    return spent, count


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--playouts", type=int, default=review.DEFAULT_PLAYOUTS)
    ap.add_argument("--sample", type=int, default=1, help="analyse every K-th position (default 1: all)")
    ap.add_argument("--sizes", type=int, nargs="+", default=[9, 19])
    args = ap.parse_args()
    print(time.strftime("%Y-%m-%d %H:%M"), machine())
    for size in args.sizes:
        game = game_for(size)
        positions = len(game.moves) + 1
        warm = game.copy()
        warm.goto(0)
        review.evaluate_position(warm, review.make_agent(1), Budget(playouts=50), None)  # compile / load
        for threads in args.threads:
            spent, count = timed(game, threads, args.playouts, args.sample)
            per = spent / max(1, count)
            whole = per * positions
            how = "measured" if args.sample == 1 else f"{count} of {positions} positions, scaled"
            print(
                f"{size}x{size} {len(game.moves)} moves, {args.playouts} playouts/position,"
                f" threads={threads}: {whole:.1f} s ({per * 1000:.0f} ms/position, {how})",
                flush=True,
            )


if __name__ == "__main__":
    main()
