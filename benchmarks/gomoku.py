"""Gomoku engine numbers: PVS nodes per second on 15x15, VCF solve times, and the agents' ladder.

    python benchmarks/gomoku.py [--seconds 2] [--games 16] [--turn-ms 300] [--only pvs,mcts,vcf,ladder]
        [--pairs A/B,...] [--out FOLDER]

1. PVS: a fixed middle-game position (15x15, freestyle), ``--seconds`` of search; nodes
   per second and the depth reached.
   MCTS: iterations per second from the same position.
2. VCF: the solve time of built positions with a win by continuous fours (and of one
   without, the full refutation).
3. Ladder: random < threat1 < pvs < pvs+vct (``--pairs all``: and mcts against threat1 and
   pvs; ``--pairs A/B,...``: any pairs): each pair plays ``--games`` games of
   ``gorilla match --game gomoku`` (the match runner, built-in agents in-process)
   from the shipped openings (``assets/gomoku_openings.txt``, each opening with both
   colours) at ``--turn-ms`` milliseconds a move (the Gomocup ``timeout_turn``; every
   agent thinks the same time). The match folders stay under ``--out`` (SGFs,
   results.jsonl, summary.json).

The machine is shared (2 cores, several processes): numbers are pessimistic.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from gorilla.gomoku import rules as R
from gorilla.gomoku import search as S
from gorilla.gomoku.agents import warm_up
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


def mcts_rate(seconds: float) -> None:
    """MCTS iterations per second from the same middle-game position."""
    from gorilla.gomoku.agents import make_agent

    g = GomokuGame(15)
    for x, y in MIDDLE:
        g.play_xy(x, y)
    res = make_agent("mcts", seed=1).select(g, seconds)
    print(
        f"MCTS 15x15 middle game: {res.nodes / res.seconds:,.0f} iterations/s,"
        f" {res.nodes:,} in {res.seconds:.2f}s, best {g.xy(res.move)}"
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


LADDER = [("threat1", "random"), ("pvs", "threat1"), ("pvs+vct", "pvs")]  # the ladder
OTHERS = [("mcts", "threat1"), ("mcts", "pvs")]


def ladder(games: int, turn_ms: int, out: Path, pairs: list[tuple[str, str]] = LADDER) -> None:
    """Each pair plays a match of games from the shipped openings at turn_ms a move."""
    from gorilla.match.gomoku_games import DEFAULT_OPENINGS
    from gorilla.match.runner import MatchConfig, run_match

    for a, b in pairs:
        cfg = MatchConfig(players=[a, b], games=games, size=15, rules="freestyle", game="gomoku")
        cfg.openings_file, cfg.timeout_turn = str(DEFAULT_OPENINGS), turn_ms
        cfg.out = str(out / f"{a}-vs-{b}".replace("+", "p"))
        t0 = time.perf_counter()
        with open(cfg.out + ".log", "w", encoding="utf-8") as log:
            s = run_match(cfg, log=log)
        lo, hi = s["win_rate_A_95"]
        ft = s["time_per_move"]
        bc = s["by_color"]["A"]
        print(
            f"{a} vs {b}: {s['wins']['A']}-{s['wins']['B']} ({s['draws']} draws, "
            f"{len(s['forfeits'])} forfeits) in {s['games']} games at {turn_ms} ms a move; "
            f"A {100 * s['win_rate_A']:.1f}% [{100 * lo:.1f}-{100 * hi:.1f}%]; A won "
            f"{bc['black']['wins']}/{bc['black']['games']} as Black, "
            f"{bc['white']['wins']}/{bc['white']['games']} as White; "
            f"Black won {s['color_wins']['black']}, White {s['color_wins']['white']}; mean move "
            f"{ft['A']['mean']:.3f}s / {ft['B']['mean']:.3f}s; {time.perf_counter() - t0:.0f}s",
            flush=True,
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--games", type=int, default=16, help="games per pair of the ladder (16)")
    ap.add_argument("--turn-ms", type=int, default=300, help="milliseconds a move in the ladder (300)")
    ap.add_argument("--only", default="pvs,mcts,vcf,ladder", help="which parts: pvs, mcts, vcf, ladder")
    ap.add_argument(
        "--pairs",
        default=None,
        help="the ladder's pairs as A/B,A/B (default: threat1/random,pvs/threat1,pvs+vct/pvs; "
        "'all' adds mcts/threat1,mcts/pvs)",
    )
    ap.add_argument("--out", default=None, help="folder of the ladder's matches (default: a temporary one)")
    args = ap.parse_args()
    parts = set(args.only.split(","))
    t0 = time.perf_counter()
    warm_up()
    print(f"warm-up (compile or cache load): {time.perf_counter() - t0:.1f}s")
    if "pvs" in parts:
        pvs_rate(args.seconds)
    if "mcts" in parts:
        mcts_rate(args.seconds)
    if "vcf" in parts:
        vcf_times()
    if "ladder" in parts:
        out = Path(args.out or tempfile.mkdtemp(prefix="gomoku-ladder-"))
        out.mkdir(parents=True, exist_ok=True)
        print(f"ladder matches in {out}")
        if args.pairs is None:
            pairs = LADDER
        elif args.pairs == "all":
            pairs = LADDER + OTHERS
        else:
            pairs = [(a, b) for a, _, b in (t.partition("/") for t in args.pairs.split(","))]
        ladder(args.games, args.turn_ms, out, pairs)


if __name__ == "__main__":
    main()
