"""The net giving handicap stones, with and without the playout doubling advantage (PDA).

White is the net's search at fixed visits, once with the PDA its handicap game sets (``pda``
left to ``auto``: KataGo's dynamic PDA, gorilla/ai/puct/pda.py) and once without (``pda=0``),
both never resigning by default (``--extra resign=0``: a resignation would end the comparison);
Black is a weaker player (GNU Go at a level, or an AI spec) taking the stones. Every game has
the same colours (``--no-alternate``); GNU Go referees the dead stones. The table gives White's
wins with their 95% Wilson interval and the games' mean length in moves.

    python benchmarks/handicap_pda.py --handicap 2 --opponent gnugo:10 --visits 200 --games 10 --seeds 0 100
    python benchmarks/handicap_pda.py --size 13 --handicap 4 --opponent rank:5k --games 10

Matches are kept in ``--out`` (default ``/tmp/handicap-pda``) and read back, not played again.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

from common import machine, need_gnugo, parser
from teaching_calibration import folder_name, opponent_command

from gorilla.match.runner import load_results
from gorilla.match.stats import wilson


def match(white: str, args, seed: int, gnugo: str) -> tuple[float, int, float, float]:
    """(White's wins, games, mean moves a game, seconds) of one match, played unless kept."""
    name = folder_name(white, f"{args.opponent}-h{args.handicap}-k{args.komi:g}", args.size, seed)
    out = Path(args.out) / name
    if args.fresh and out.exists():
        shutil.rmtree(out)
    t0 = time.perf_counter()
    summary = out / "summary.json"
    if not summary.exists() or json.loads(summary.read_text())["games"] < args.games:
        cmd = [
            sys.executable, "-m", "gorilla", "match", opponent_command(args.opponent, gnugo), white,
            "--no-alternate", "--handicap", str(args.handicap), "--komi", str(args.komi),
            "-n", str(args.games), "--size", str(args.size), "--seed", str(seed),
            "--referee", f"{gnugo} --mode gtp", "-o", str(out),
        ]  # fmt: skip
        if (out / "match.json").exists():
            cmd.append("--resume")  # a match stopped part way: its missing games
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    s = json.loads(summary.read_text())
    moves = [r["moves"] for r in load_results(out)]
    wins = s["wins"]["B"] + 0.5 * s.get("draws", 0)
    return wins, s["games"], sum(moves) / max(1, len(moves)), time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    ap = parser(__doc__)
    ap.add_argument("--opponent", default="gnugo:10", help="Black: gnugo:LEVEL or an AI spec")
    ap.add_argument("--handicap", type=int, default=2)
    ap.add_argument("--komi", type=float, default=0.5)
    ap.add_argument("--visits", type=int, default=200)
    ap.add_argument("--pdas", nargs="+", default=["auto", "0"], help="White's pda settings compared")
    ap.add_argument("--extra", default="resign=0", help="more of White's settings, alike in both")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--size", type=int, default=9)
    ap.add_argument("--seeds", type=int, nargs="+", default=[0])
    ap.add_argument("--out", default="/tmp/handicap-pda")
    ap.add_argument("--fresh", action="store_true")
    ap.add_argument("--gnugo", default=None)
    args = ap.parse_args(argv)
    gnugo = need_gnugo(args.gnugo)
    print(machine())
    print(
        f"{args.size}x{args.size}, Black {args.opponent} with {args.handicap} stones, komi {args.komi:g}; "
        f"White net:visits={args.visits}; {args.games} games a seed, seeds {args.seeds}"
    )
    rows = ["| White | wins | mean moves |", "|---|---|---|"]
    for pda in args.pdas:
        white = f"net:visits={args.visits}" + ("" if pda == "auto" else f",pda={pda}")
        white += f",{args.extra}" if args.extra else ""
        wins = games = 0
        lengths = []
        for seed in args.seeds:
            w, n, mean, secs = match(white, args, seed, gnugo)
            print(f"{white}, seed {seed}: {w:g}/{n}, {mean:.0f} moves a game ({secs:.0f} s)", flush=True)
            wins, games = wins + w, games + n
            lengths.append(mean)
        lo, hi = wilson(wins, games)
        mean = sum(lengths) / len(lengths)
        rows.append(f"| {white} | {wins:g}/{games} ({100 * lo:.0f}-{100 * hi:.0f}%) | {mean:.0f} |")
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
