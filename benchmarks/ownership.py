"""Ownership estimate: playouts per second, and agreement with GNU Go's dead stones.

Speed: playouts per second of :func:`gorilla.ai.ownership.ownership` (one
thread) for each playout policy, on 9x9 and 19x19, from the empty board
(whole games, the slowest case) and from a board half filled with random
reasonable moves (closer to the end of a game).

Agreement: N seeded games that GNU Go plays to two passes from openings with
random moves mixed in (:func:`gorilla.match.selfplay.finished_game`); for each
policy, how often Gorilla's dead-stone list equals GNU Go's
``final_status_list dead``, how often the area scores (komi 7.5) are equal,
and the mean over games of the smallest distance of a string's opponent share
from the 0.5 threshold (how decisive the estimate is). The seki drawn in
``benchmarks/data/seki.txt`` (one eye each and a shared liberty; GNU Go's
``final_status_list seki`` lists both groups) is checked over 10 seeds per
policy too.

    python benchmarks/ownership.py [N] [--playouts 200] [--seconds 2] [--repeats 1]
        [--policies heavy safe light] [--sgf FILE...]

``--sgf FILE...`` measures only the agreement on those game records (the ones that
ended by two passes; e.g. the ``games/`` folder of ``gorilla match -o DIR``): dead
lists equal to GNU Go's ``final_status_list dead`` after replaying the moves, and the
number of stones judged differently.
"""

from __future__ import annotations

import time

from common import add_timing, diagram, gnugo_path, measure, middle_game, parser

from gorilla.ai.ownership import dead_stones, ownership, string_estimates
from gorilla.rules.game import Game
from gorilla.rules.position import Position
from gorilla.rules.scoring import result_string


def speed(size: int, policy: str, seconds: float, repeats: int = 1) -> tuple[float, float]:
    """(empty board, half-filled board) playouts per second."""
    batch = 200 if size <= 9 else 20

    def rate(pos: Position) -> float:
        def step(i: int) -> int:
            ownership(pos, playouts=batch, policy=policy)
            return batch

        return measure(step, seconds, repeats, warmup=lambda: ownership(pos, 4, seed=0, policy=policy)).rate

    # half filled: size*size/2 random reasonable moves
    return rate(Position(size)), rate(middle_game(size, size * size // 2, seed=1).position)


def agreement(n: int, playouts: int, policies: list[str]) -> None:
    from gorilla.match.gtp_client import GtpClient
    from gorilla.match.referee import gnugo_command
    from gorilla.match.selfplay import finished_game

    path = gnugo_path()
    if path is None:
        print("GNU Go not installed (apt-get install -y gnugo): agreement skipped")
        return
    stats = {p: {"dead": 0, "score": 0, "margin": 0.0} for p in policies}
    games = 0
    t0 = time.perf_counter()
    with GtpClient(gnugo_command(path)) as gnugo:
        for seed in range(n):
            fg = finished_game(gnugo, 9, seed)
            if not fg.finished:
                continue
            games += 1
            for p in policies:
                est = string_estimates(fg.game, playouts=playouts, policy=p)
                dead = sorted(q for s in est if s.dead for q in s.stones)
                stats[p]["dead"] += dead == fg.engine_dead
                stats[p]["score"] += result_string(fg.game.score(dead).margin) == fg.engine_score
                stats[p]["margin"] += min(
                    (abs(s.opponent_share - 0.5) for s in est if not s.pass_alive), default=0.5
                )
    print(
        f"\nagreement with GNU Go 3.8 on {games} finished 9x9 games "
        f"({n} seeds, {playouts} playouts, {time.perf_counter() - t0:.0f} s):"
    )
    for p in policies:
        s = stats[p]
        g = max(games, 1)
        print(
            f"  {p:6s} dead lists equal {s['dead']}/{games} ({100 * s['dead'] / g:.0f}%), "
            f"scores equal {s['score']}/{games} ({100 * s['score'] / g:.0f}%), "
            f"mean smallest margin {s['margin'] / g:.3f}"
        )


def record_agreement(paths: list[str], playouts: int, policies: list[str]) -> None:
    """Agreement with GNU Go's dead stones on game records that ended by two passes (the
    ``games/`` of ``gorilla match -o DIR``): the same counts as :func:`agreement`, and the
    stones judged differently, over every record whose last two moves are passes."""
    from gorilla.match.players import GtpPlayer
    from gorilla.rules.board import PASS
    from gorilla.rules.sgf import read_sgf

    path = gnugo_path()
    if path is None:
        print("GNU Go not installed (apt-get install -y gnugo): record agreement skipped")
        return
    stats = {p: {"dead": 0, "stones": 0} for p in policies}
    games = 0
    t0 = time.perf_counter()
    gnugo = GtpPlayer(f"{path} --mode gtp")
    try:
        for f in paths:
            game = read_sgf(f)
            if len(game.moves) < 2 or any(m.point != PASS for m in game.moves[-2:]):
                continue
            games += 1
            gnugo.new_game(game)  # size, komi, handicap stones and every move
            ref = set(gnugo.dead_stones(game) or ())
            for p in policies:
                mine = set(dead_stones(game, playouts=playouts, policy=p))
                stats[p]["dead"] += mine == ref
                stats[p]["stones"] += len(mine ^ ref)
    finally:
        gnugo.close()
    took = time.perf_counter() - t0
    print(f"\nagreement with GNU Go 3.8 on {games} game records ended by two passes ({took:.0f} s):")
    for p in policies:
        s = stats[p]
        print(f"  {p:6s} dead lists equal {s['dead']}/{games}, stones judged differently {s['stones']}")


def seki(playouts: int, policies: list[str]) -> None:
    from gorilla.rules.rulesets import CHINESE

    game = Game.from_position(diagram("seki"), CHINESE)
    print("\nseki kept alive (no dead stones), 10 seeds:")
    for p in policies:
        kept = sum(dead_stones(game, playouts=playouts, seed=s, policy=p) == [] for s in range(10))
        print(f"  {p:6s} {kept}/10")


def main(argv: list[str] | None = None) -> None:
    ap = parser(__doc__)
    ap.add_argument("n", nargs="?", type=int, default=20, help="seeded finished games (default 20)")
    ap.add_argument("--playouts", type=int, default=200)
    add_timing(ap, 2.0)
    ap.add_argument("--policies", nargs="+", default=["heavy", "safe", "light"])
    ap.add_argument("--sgf", nargs="+", default=[], metavar="FILE", help="also finished game records")
    args = ap.parse_args(argv)
    if args.sgf:  # only the records: the agreement on real games, no speed or seeded games
        record_agreement(args.sgf, args.playouts, args.policies)
        return
    print("ownership playouts per second (one thread):")
    for size in (9, 19):
        for p in args.policies:
            empty, half = speed(size, p, args.seconds, args.repeats)
            print(f"  {size}x{size} {p:6s} empty board {empty:8.0f}/s   half-filled board {half:8.0f}/s")
    seki(args.playouts, args.policies)
    agreement(args.n, args.playouts, args.policies)


if __name__ == "__main__":
    main()
