"""Whole-game review against KataGo's own analysis: points lost per move, and the review's time.

Gorilla's review (:func:`gorilla.app.go.review.analyse_line`, the window's ``g`` and ``gorilla
analyze``, at its default budget: ``review.NET_VISITS`` visits a position, one thread) and
KataGo's analysis engine (``katago analysis``, the same net, ``--visits`` visits a position,
one search thread) analyse the same game, ``--sgf`` (default ``benchmarks/data/review-19x19.sgf``,
250 moves of GNU Go self-play; ``review-19x19-tygem.sgf`` is a 250-move TYGEM game) or its first
``--moves`` moves; ``--threads`` sets the review's search threads (2: the two cores).
KataGo's points lost by a move are the fall of the mover's score lead from the position before
it to the position after it (root values, clamped at 0), as KaTrain reads them. Prints the
review's time (and, for a shorter line, the time scaled to the whole game), then how many
moves' points lost agree within 1.5 points (the issue's goal: >= 80%), the median and 90th
percentile of the difference.

    python benchmarks/review_vs_katago.py [--moves 250] [--visits 400] [--sgf FILE] [--threads 2]
        [--review-visits N] [--katago /work/scratch/katago/build/katago] [--model assets/net/...bin.gz]
        [--leads FILE.json] [--review FILE.json] [--review-only]
        # --leads, --review: KataGo's leads, the review's points lost: read if the file exists,
        # else computed and written (the two halves can run apart)
"""

from __future__ import annotations

import json
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np
from common import machine, parser

from gorilla.ai.agent import Budget
from gorilla.ai.net import default_net_path
from gorilla.app.go import review
from gorilla.rules.board import BLACK
from gorilla.rules.coords import format_vertex
from gorilla.rules.game import Game
from gorilla.rules.sgf import read_sgf

DATA = Path(__file__).resolve().parent / "data"
AGREE = 1.5  # points

CONFIG = """\
logDir = {log}
logToStderr = false
numAnalysisThreads = 1
numSearchThreads = 1
nnMaxBatchSize = 8
nnCacheSizePowerOfTwo = 16
numEigenThreadsPerModel = 1
reportAnalysisWinratesAs = BLACK
"""


def katago_answers(game: Game, katago: str, model: str, visits: int, query_id: str = "review") -> dict:
    """KataGo's analysis engine's answer for every position of game's line (turn 0 .. n), by
    turn: one query with ``analyzeTurns``, Chinese rules, ``visits`` a position (CONFIG)."""
    moves = [
        ["B" if m.color == BLACK else "W", format_vertex(m.point, game.size)] for m in game.moves
    ]  # fmt: skip
    query = {
        "id": query_id,
        "moves": moves,
        "rules": "chinese",
        "komi": game.komi,
        "boardXSize": game.size,
        "boardYSize": game.size,
        "analyzeTurns": list(range(len(moves) + 1)),
        "maxVisits": visits,
    }
    with tempfile.TemporaryDirectory() as tmp:
        cfg = Path(tmp) / "analysis.cfg"
        cfg.write_text(CONFIG.format(log=tmp))
        out = subprocess.run(
            [katago, "analysis", "-model", model, "-config", str(cfg)],
            input=json.dumps(query) + "\n",
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    answers: dict[int, dict] = {}
    for line in out.splitlines():
        if not line.strip().startswith("{"):
            continue
        r = json.loads(line)
        if "error" in r:
            raise RuntimeError(r["error"])
        answers[r["turnNumber"]] = r
    return answers


def katago_leads(game: Game, katago: str, model: str, visits: int) -> list[float]:
    """KataGo's root score lead (Black's view) for every position of game's line: turn 0 .. n."""
    answers = katago_answers(game, katago, model, visits)
    return [float(answers[t]["rootInfo"]["scoreLead"]) for t in range(len(game.moves) + 1)]


def katago_points_lost(game: Game, leads: list[float]) -> list[float]:
    """Each move's points lost by KataGo's leads: the fall of the mover's lead, at least 0."""
    lost = []
    for k, m in enumerate(game.moves):
        fall = leads[k] - leads[k + 1] if m.color == BLACK else leads[k + 1] - leads[k]
        lost.append(max(0.0, fall))
    return lost


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("--moves", type=int, default=250)
    ap.add_argument("--visits", type=int, default=400, help="KataGo's visits a position")
    ap.add_argument("--katago", default="/work/scratch/katago/build/katago")
    ap.add_argument("--model", default=str(default_net_path()))
    ap.add_argument("--sgf", default=str(DATA / "review-19x19.sgf"), help="the game reviewed")
    ap.add_argument("--threads", type=int, default=1, help="the review's search threads")
    ap.add_argument(
        "--review-visits", type=int, default=0, help="the review's visits a position (0: review.NET_VISITS)"
    )
    ap.add_argument("--leads", help="JSON file of KataGo's leads: read if it exists, else written")
    ap.add_argument("--review", help="JSON file of the review's points lost: read if it exists, else written")
    ap.add_argument("--review-only", action="store_true", help="stop after the review (no KataGo)")
    args = ap.parse_args()
    full = read_sgf(Path(args.sgf))
    game = full.at(min(args.moves, full.move_number))
    game.redo_stack = []
    print(time.strftime("%Y-%m-%d %H:%M"), machine())
    mine = Path(args.review) if args.review else None
    if mine is not None and mine.exists():
        ours = {int(k): v for k, v in json.loads(mine.read_text()).items()}
        print(f"gorilla review: read from {mine}")
    else:
        ours = timed_review(game, full, args)
        if mine is not None:
            mine.write_text(json.dumps(ours))
    if not args.review_only:
        compare(game, ours, args)


def timed_review(game: Game, full: Game, args) -> dict[int, float]:
    """Gorilla's review of game, timed (wall and CPU seconds printed): move number -> points lost."""
    warm = Game.new(19)
    review.analyse_line(warm, Budget(playouts=8))  # the kernels compiled or loaded
    n = game.move_number
    t0 = time.perf_counter()
    c0 = time.process_time()
    visits = args.review_visits or review.net_visits(game.size)
    revs = review.analyse_line(game, Budget(playouts=visits), threads=args.threads, seed=1)
    spent, cpu = time.perf_counter() - t0, time.process_time() - c0
    whole = spent / (n + 1) * (full.move_number + 1)
    scaled = f" (scaled to {full.move_number} moves: {whole:.0f} s)" if n < full.move_number else ""
    what = f"{n} moves of {Path(args.sgf).name}, {visits} visits/position"
    what += f", {args.threads} thread(s)"
    print(f"gorilla review: {what}: {spent:.1f} s wall, {cpu:.1f} CPU s{scaled}", flush=True)
    return {r.number: r.points_lost for r in revs}


def compare(game: Game, ours: dict[int, float], args) -> None:
    """KataGo's analysis of game (run, or read from --leads), and the agreement with ours."""
    n = game.move_number
    kept = Path(args.leads) if args.leads else None
    if kept is not None and kept.exists():
        leads = json.loads(kept.read_text())[: n + 1]
        print(f"katago analysis: {args.visits} visits/position: read from {kept}")
    else:
        t0 = time.perf_counter()
        leads = katago_leads(game, args.katago, args.model, args.visits)
        print(f"katago analysis: {args.visits} visits/position, 1 thread: {time.perf_counter() - t0:.1f} s")
        if kept is not None:
            kept.write_text(json.dumps(leads))
    theirs = katago_points_lost(game, leads)
    diffs = np.array([abs(ours[k + 1] - theirs[k]) for k in range(n) if k + 1 in ours])
    agree = float(np.mean(diffs <= AGREE))
    print(
        f"points lost within {AGREE} of KataGo's: {100 * agree:.0f}% of {diffs.size} moves; "
        f"|difference| median {np.median(diffs):.2f}, 90th percentile {np.percentile(diffs, 90):.2f}, "
        f"max {diffs.max():.1f}"
    )
    big = [k + 1 for k in range(n) if theirs[k] >= 3.0]
    found = [k for k in big if ours.get(k, 0.0) >= 3.0]
    print(f"KataGo's mistakes (3+ points): {len(big)}; gorilla's review marks {len(found)} of them 3+")


if __name__ == "__main__":
    main()
