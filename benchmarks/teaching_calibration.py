"""The teaching AIs (``scoreloss``, ``policy``) against GNU Go 3.8 levels and the rank AIs.

The same method as ``benchmarks/rank_calibration.py``: each pairing is a small seeded match by
Gorilla's match runner (``python -m gorilla match``: colours alternating, GNU Go as the referee
of dead stones, one process at a time, so one core), at fixed visits (never time, so the
figures do not depend on the machine's load). The table gives each AI's score per opponent
with its 95% Wilson interval, and the rank it corresponds to: where its score against the rank
AIs (``rank:Nk``, whose scale ``gorilla/ai/rank.py`` states and rank_calibration.py checked
against GNU Go) crosses one half, interpolated between the two rank AIs around the crossing in
the log-odds of the score (half a win added to each side so that 0/n and n/n stay finite),
to the nearest rank (1 dan is 0 kyu; ``rank:3d`` and above all play the policy's first choice).

    python benchmarks/teaching_calibration.py --games 10 --seeds 0 100
    python benchmarks/teaching_calibration.py --players policy scoreloss:strength=0.5,visits=200 \\
        --opponents gnugo:1 gnugo:10 rank:5k rank:1d --games 4

Results (summary.json per match) are kept in ``--out`` (default ``/tmp/teaching-calibration``);
a match already there is read back, not played again (``--fresh`` plays it again), one stopped
part way is resumed, so a long run can be stopped and started again, and ``--table`` prints
the table of what is there.
"""

from __future__ import annotations

import json
import math
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

from common import machine, need_gnugo, parser

from gorilla.match.stats import wilson

PLAYERS = [
    "policy",
    "policy:temperature=1",
    "scoreloss:strength=0.1,visits=200",
    "scoreloss:strength=0.5,visits=200",
]
OPPONENTS = ["gnugo:1", "gnugo:5", "gnugo:10", "rank:10k", "rank:5k", "rank:1d", "rank:3d"]


def folder_name(player: str, opponent: str, size: int, seed: int) -> str:
    """The match's folder: the pairing in characters safe in a path."""
    safe = re.sub(r"[^A-Za-z0-9.=-]+", "_", f"{size}x{size}-{player}-vs-{opponent}")
    return safe + (f"-s{seed}" if seed else "")


def opponent_command(opponent: str, gnugo: str) -> str:
    """``gnugo:L`` as GNU Go's GTP command at level L; anything else is an AI spec."""
    if opponent.startswith("gnugo:"):
        return f"{gnugo} --mode gtp --level {int(opponent.partition(':')[2])}"
    return opponent


def match(player: str, opponent: str, seed: int, args, gnugo: str) -> tuple[float, int, float]:
    """(player's wins, games, seconds) of one match, played unless its summary is kept."""
    out = Path(args.out) / folder_name(player, opponent, args.size, seed)
    if args.fresh and out.exists():
        shutil.rmtree(out)
    t0 = time.perf_counter()
    if kept(player, opponent, seed, args)[1] < args.games:  # the runner writes its summary game by game
        cmd = [
            sys.executable, "-m", "gorilla", "match", player, opponent_command(opponent, gnugo),
            "-n", str(args.games), "--size", str(args.size), "--seed", str(seed),
            "--referee", f"{gnugo} --mode gtp", "-o", str(out),
        ]  # fmt: skip
        if (out / "match.json").exists():
            cmd.append("--resume")  # a match stopped part way: its missing games
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    wins, games = kept(player, opponent, seed, args)
    return wins, games, time.perf_counter() - t0


def kept(player: str, opponent: str, seed: int, args) -> tuple[float, int]:
    """(player's wins, games) of a match kept in ``--out``; (0, 0) if it is not there."""
    summary = Path(args.out) / folder_name(player, opponent, args.size, seed) / "summary.json"
    if not summary.exists():
        return 0.0, 0
    s = json.loads(summary.read_text())
    return s["wins"]["A"] + 0.5 * s.get("draws", 0), s["games"]


def kyu_of(opponent: str) -> int | None:
    """A rank AI's rank as kyu (``rank:5k`` -> 5, ``rank:1d`` -> 0, ``rank:3d`` -> -2); else None."""
    m = re.fullmatch(r"rank:(\d+)([kd])", opponent)
    if not m:
        return None
    n = int(m.group(1))
    return n if m.group(2) == "k" else 1 - n


def rank_name(kyu: float) -> str:
    """A kyu figure as the nearest rank: 7.4 -> '7k', 0.8 -> '1k', -0.6 -> '2d' (1 dan is kyu 0)."""
    k = round(kyu)
    return f"{k}k" if k > 0 else f"{1 - k}d"


def estimate_rank(scores: dict[int, tuple[float, int]]) -> str:
    """Where the score against the rank AIs (kyu -> (wins, games)) crosses one half, as a rank."""
    pts = sorted((k, (w + 0.5) / (n + 1)) for k, (w, n) in scores.items() if n > 0)
    if not pts:
        return "-"
    pts.reverse()  # the weakest rank AI (most kyu) first
    logit = [(k, math.log(s / (1 - s))) for k, s in pts]
    if logit[0][1] < 0:
        return f"below {rank_name(logit[0][0])}"
    for (k0, a), (k1, b) in zip(logit, logit[1:], strict=False):
        if a >= 0 > b:
            return rank_name(k0 + (k1 - k0) * a / (a - b))
    return f"above {rank_name(logit[-1][0])}"


def cell(wins: float, games: int) -> str:
    """'7/10 (40-89%)': the score and its 95% Wilson interval."""
    if games == 0:
        return "-"
    lo, hi = wilson(wins, games)
    return f"{wins:g}/{games} ({100 * lo:.0f}-{100 * hi:.0f}%)"


def main(argv: list[str] | None = None) -> int:
    ap = parser(__doc__)
    ap.add_argument("--players", nargs="+", default=PLAYERS)
    ap.add_argument("--opponents", nargs="+", default=OPPONENTS, help="gnugo:LEVEL or an AI spec")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--size", type=int, default=9)
    ap.add_argument("--seeds", type=int, nargs="+", default=[0], help="one match per seed, summed")
    ap.add_argument("--out", default="/tmp/teaching-calibration")
    ap.add_argument("--fresh", action="store_true")
    ap.add_argument("--table", action="store_true", help="print the table of the matches kept; play none")
    ap.add_argument("--gnugo", default=None)
    args = ap.parse_args(argv)
    gnugo = need_gnugo(args.gnugo)
    print(machine())
    print(f"{args.size}x{args.size}, {args.games} games a seed, seeds {args.seeds}, colours alternating")
    header = "| AI | " + " | ".join(args.opponents) + " | rank |"
    rows = [header, "|" + "---|" * (len(args.opponents) + 2)]
    for seed in [] if args.table else args.seeds:  # every pairing per seed: a table early, refined later
        for player in args.players:
            for opp in args.opponents:
                w, n, secs = match(player, opp, seed, args, gnugo)
                print(f"{player} vs {opp}, seed {seed}: {w:g}/{n} ({secs:.0f} s)", flush=True)
    for player in args.players:
        cells, ranks = [], {}
        for opp in args.opponents:
            wins = games = 0
            for seed in args.seeds:
                w, n = kept(player, opp, seed, args)
                wins, games = wins + w, games + n
            cells.append(cell(wins, games))
            if kyu_of(opp) is not None:
                ranks[kyu_of(opp)] = (wins, games)
        rows.append(f"| {player} | " + " | ".join(cells) + f" | {estimate_rank(ranks)} |")
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
