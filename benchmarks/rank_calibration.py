"""Rank AIs (``rank:Nk``) against GNU Go 3.8 levels: the table that checks gorilla/ai/rank.py.

Each pairing is a small seeded match by Gorilla's match runner (``python -m gorilla match``:
colours alternating, GNU Go as the referee of dead stones, one process at a time, so one core),
and the table prints the rank AI's wins of the games played per GNU Go level.

    python benchmarks/rank_calibration.py --ranks 20k 15k 10k 5k 1d --levels 1 10 --games 4 --seeds 0 100
    python benchmarks/rank_calibration.py --size 19 --ranks 15k 5k --levels 10 --games 4

Results (summary.json per match) are kept in ``--out`` (default ``/tmp/rank-calibration``);
a match already there is read back, not played again (``--fresh`` plays it again).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

from common import machine, need_gnugo, parser


def match(rank: str, level: int, seed: int, args, gnugo: str) -> tuple[float, int, float]:
    """(rank AI's wins, games, seconds) of one match, played unless its summary is kept."""
    out = Path(args.out) / f"{args.size}x{args.size}-{rank}-vs-gnugo{level}{f'-s{seed}' if seed else ''}"
    summary = out / "summary.json"
    if args.fresh and out.exists():
        shutil.rmtree(out)
    t0 = time.perf_counter()
    if not summary.exists():
        cmd = [
            sys.executable, "-m", "gorilla", "match", f"rank:{rank}",
            f"{gnugo} --mode gtp --level {level}",
            "-n", str(args.games), "--size", str(args.size), "--seed", str(seed),
            "--referee", f"{gnugo} --mode gtp", "-o", str(out),
        ]  # fmt: skip
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    s = json.loads(summary.read_text())
    wins = s["wins"]["A"] + 0.5 * s.get("draws", 0)
    return wins, s["games"], time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    ap = parser(__doc__)
    ap.add_argument("--ranks", nargs="+", default=["20k", "15k", "10k", "5k", "1d"])
    ap.add_argument("--levels", nargs="+", type=int, default=[1, 5, 10])
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--size", type=int, default=9)
    ap.add_argument("--seeds", type=int, nargs="+", default=[0], help="one match per seed, summed")
    ap.add_argument("--out", default="/tmp/rank-calibration")
    ap.add_argument("--fresh", action="store_true")
    ap.add_argument("--gnugo", default=None)
    args = ap.parse_args(argv)
    gnugo = need_gnugo(args.gnugo)
    print(machine())
    print(f"{args.size}x{args.size}, {args.games} games a seed, seeds {args.seeds}, colours alternating")
    header = "| rank | " + " | ".join(f"GNU Go level {lv}" for lv in args.levels) + " |"
    rows = [header, "|" + "---|" * (len(args.levels) + 1)]
    for rank in args.ranks:
        cells = []
        for level in args.levels:
            wins = games = 0
            for seed in args.seeds:
                w, n, secs = match(rank, level, seed, args, gnugo)
                wins, games = wins + w, games + n
                line = f"rank:{rank} vs gnugo level {level}, seed {seed}: {w:g}/{n} ({secs:.0f} s)"
                print(line, flush=True)
            cells.append(f"{wins:g}/{games}")
        rows.append(f"| rank:{rank} | " + " | ".join(cells) + " |")
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
