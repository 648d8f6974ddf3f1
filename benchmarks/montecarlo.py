"""Gorilla's flat Monte-Carlo AI: sample games per second, and its strength against random.

Prints the flat-MC sample games per second on 9x9 (one thread) for G=10, T=3
(control-map evaluation) and T=0 (to the end, area count), on the empty board
and on a middle-game position (40 random moves), then plays ``random``
against ``montecarlo:5,5`` with the match runner (``gorilla match random
montecarlo:5,5 -n N --size 9``; colours alternate) and prints Monte-Carlo's
wins with a 95% Wilson interval. The machine has 2 cores shared with other
work, so the rates are pessimistic.

    python benchmarks/montecarlo.py [--games 20] [--size 9] [--seconds 2] [--repeats 1]
"""

from __future__ import annotations

import tempfile
import time

from common import add_timing, measure, middle_game, parser

from gorilla.ai.montecarlo import move_values
from gorilla.match.runner import MatchConfig, run_match
from gorilla.match.stats import wilson
from gorilla.rules.game import Game


def rate(game: Game, games: int, turns: int, seconds: float, repeats: int = 1) -> tuple[float, int]:
    """(sample games per second, moves evaluated per call) over about `seconds` (median of repeats)."""

    def step(i: int) -> tuple[int, int]:
        vals = move_values(game, games, turns, seed=i)
        return sum(v.samples for v in vals.values()), len(vals)

    r = measure(step, seconds, repeats, warmup=lambda: move_values(game, 1, turns, seed=1))
    return r.rate, round(r.extra / r.calls)


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("--games", "-n", type=int, default=20, help="match games, random vs montecarlo:5,5")
    ap.add_argument("--size", type=int, default=9)
    add_timing(ap, 2.0)
    a = ap.parse_args()
    size = a.size
    positions = {"empty board": Game.new(size), "after 40 random moves": middle_game(size, 40, 7)}
    print(f"flat Monte-Carlo sample games per second, {size}x{size}, one thread")
    for label, game in positions.items():
        for g, t in ((10, 3), (10, 0)):
            r, moves = rate(game, g, t, a.seconds, a.repeats)
            per_move = g * moves / r
            print(
                f"  {label:22s} G={g} T={t}: {r:10.0f} samples/s "
                f"({moves} moves x {g} = {g * moves} samples, {1000 * per_move:.1f} ms per decision)"
            )
    if a.games <= 0:
        return
    with tempfile.TemporaryDirectory() as out:
        cfg = MatchConfig(players=["random", "montecarlo:5,5"], games=a.games, size=size, out=out)
        t0 = time.perf_counter()
        s = run_match(cfg)
        el = time.perf_counter() - t0
    n = s["games"]
    mc = s["wins"]["B"] + 0.5 * s["draws"]
    lo, hi = wilson(mc, n)
    print(f"random vs montecarlo:5,5, {n} games on {size}x{size} (colours alternate), {el:.0f} s")
    print(
        f"  montecarlo:5,5 won {s['wins']['B']}, random won {s['wins']['A']}, draws {s['draws']}: "
        f"win rate {100 * mc / n:.1f}% (95% Wilson {100 * lo:.1f}-{100 * hi:.1f}%), "
        f"{len(s['forfeits'])} forfeits"
    )


if __name__ == "__main__":
    main()
