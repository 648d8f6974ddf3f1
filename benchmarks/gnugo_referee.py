"""Referee hundreds of random games between ``python -m gorilla gtp`` and GNU Go; print the differences.

Every game: random reasonable moves plus attempts that are often illegal
(occupied, ko retakes, suicides), legality compared on every attempt, boards
and legal-move lists after every move, area score / captures / final_score at
the end, and every ``--sgf-every``-th game Gorilla's SGF loaded into GNU Go.

    python benchmarks/gnugo_referee.py [--games 200] [--size 9] [--games19 20] [--sgf-every 5] [-v]
"""

from __future__ import annotations

import sys
import time

from common import need_gnugo, parser

from gorilla.match.gtp_client import GtpClient
from gorilla.match.referee import Referee, gnugo_command, gorilla_command


def main(argv: list[str] | None = None) -> int:
    ap = parser(__doc__)
    ap.add_argument("--games", type=int, default=200, help="9x9 games (default 200)")
    ap.add_argument("--games19", type=int, default=20, help="19x19 games (default 20)")
    ap.add_argument("--size", type=int, default=9, help="size of the small-board games (default 9)")
    ap.add_argument("--seed", type=int, default=0, help="first seed")
    ap.add_argument("--sgf-every", type=int, default=5, help="SGF round trip every n-th game")
    ap.add_argument("--gnugo", default=None, help="path of gnugo")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    gnugo = need_gnugo(args.gnugo)
    ours = GtpClient(gorilla_command(sys.executable))
    ref_engine = GtpClient(gnugo_command(gnugo))
    referee = Referee(ours, ref_engine)
    t0 = time.perf_counter()
    totals = {"games": 0, "moves": 0, "attempts": 0, "refused": 0, "scored": 0, "sgf": 0}
    bad_games: list[tuple[int, int, list[str]]] = []
    plan = [(args.size, args.seed + i) for i in range(args.games)]
    plan += [(19, args.seed + i) for i in range(args.games19)]
    try:
        for n, (size, seed) in enumerate(plan, 1):
            report, game = referee.play_game(size, seed)
            if args.sgf_every and n % args.sgf_every == 0 and not report.differences:
                referee.sgf_round_trip(game, report)
                totals["sgf"] += 1
            totals["games"] += 1
            totals["moves"] += report.moves
            totals["attempts"] += report.attempts
            totals["refused"] += report.refused
            totals["scored"] += report.scored
            if report.differences:
                bad_games.append((size, seed, report.differences))
                print(f"DIFFERENCE {size}x{size} seed {seed}: {report.differences[0]}", flush=True)
            elif args.verbose:
                print(f"{size}x{size} seed {seed}: {report.moves} moves, {report.result}", flush=True)
    finally:
        ours.close()
        ref_engine.close()
    dt = time.perf_counter() - t0
    print(
        f"games {totals['games']} ({args.games} on {args.size}x{args.size}, {args.games19} on 19x19), "
        f"moves {totals['moves']}, illegal-move attempts {totals['attempts']} "
        f"(refused by both {totals['refused']}), final_score compared {totals['scored']}, "
        f"SGF round trips {totals['sgf']}, {dt:.1f} s"
    )
    print(f"differences: {sum(len(d) for _, _, d in bad_games)} in {len(bad_games)} games")
    return 1 if bad_games else 0


if __name__ == "__main__":
    raise SystemExit(main())
