"""Points lost a move by each teaching AI, as the net's review judges them (app/go/review.py).

The positions are middle-game positions of seeded games between sampled-policy players (9x9,
every third position from move 4 to 40); each AI chooses its move in each, and the review's
own search (``--review-visits``, the net) judges it: the fall of the mover's root score lead
(KaTrain's points lost), 0 for the review's best move. The table gives the mean with its
standard error, the share of moves losing 2 points or more, and the share equal to the
review's best move.

    python benchmarks/teaching_lost.py --games 6 --review-visits 100
"""

from __future__ import annotations

import statistics
import time

from common import machine, parser

from gorilla.ai.agent import Budget, make_agent
from gorilla.app.go.review import evaluate_position, move_review
from gorilla.app.go.review import make_agent as review_agent
from gorilla.rules.board import PASS
from gorilla.rules.game import Game

SPECS = [
    "scoreloss:strength=0.1",
    "scoreloss:strength=0.2",
    "scoreloss:strength=0.5",
    "scoreloss:strength=1",
    "policy:temperature=1",
    "policy",
    "net:visits=200",
]


def positions(games: int, size: int) -> list[Game]:
    """Every third position from move 4 to 40 of seeded sampled-policy games."""
    out = []
    for seed in range(games):
        agent = make_agent("policy:temperature=1", seed=seed)
        game = Game.new(size, komi=7)
        while not game.over and game.move_number < 40:
            if game.move_number >= 4 and (game.move_number - 4) % 3 == 0:
                out.append(game.copy())
            move = agent.select_move(game)
            game.pass_move() if move == PASS else game.play(move)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = parser(__doc__)
    ap.add_argument("--specs", nargs="+", default=SPECS)
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--size", type=int, default=9)
    ap.add_argument("--review-visits", type=int, default=100)
    args = ap.parse_args(argv)
    print(machine())
    pos = positions(args.games, args.size)
    judge, budget = review_agent(engine="net", seed=5), Budget(playouts=args.review_visits)
    before = [evaluate_position(g, judge, budget, None) for g in pos]
    print(f"{len(pos)} positions, review {args.review_visits} visits")
    rows = ["| AI | points lost a move | losing 2+ | the review's best |", "|---|---|---|---|"]
    for spec in args.specs:
        t0 = time.perf_counter()
        agent = make_agent(spec, seed=1, **({"resign": 0} if spec.startswith(("net", "scoreloss")) else {}))
        lost, best = [], 0
        for game, b in zip(pos, before, strict=True):
            move = agent.select_move(game)
            after = game.copy()
            after.pass_move() if move == PASS else after.play(move)
            a = evaluate_position(after, judge, budget, None)
            lost.append(move_review(0, game.to_move, move, b, a).points_lost)
            best += move == b.best
        mean, se = statistics.mean(lost), statistics.stdev(lost) / len(lost) ** 0.5
        big = sum(x >= 2 for x in lost) / len(lost)
        rows.append(f"| {spec} | {mean:.2f} +- {se:.2f} | {100 * big:.0f}% | {100 * best / len(lost):.0f}% |")
        print(rows[-1], f"({time.perf_counter() - t0:.0f} s)", flush=True)
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
