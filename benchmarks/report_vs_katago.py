"""The game report against KataGo's: mean points lost and the top-1 match per player, same games.

Gorilla's review (:func:`gorilla.app.go.review.analyse_line` at its default budget,
``review.net_visits(size)`` visits a position, or ``--review-visits``) and KataGo's analysis engine
(``katago analysis``, the same net, ``--visits`` visits a position, one search thread, the
configuration of ``review_vs_katago.py``) analyse the same games (``--sgf``, several; by
default the four games of ``DEFAULT_GAMES`` in ``benchmarks/data``: two 9x9 and one 13x13 GNU Go
self-play games, a 155-move TYGEM 19x19 game). Gorilla's report is :mod:`gorilla.app.go.report`'s, from
its review; KataGo's is computed here from KataGo's values alone, the way KaTrain reads them: a
move's points lost is the fall of the mover's root score lead from the position before it to
the position after it, at least 0; the top-1 match is the move played being KataGo's first
choice (``order`` 0) in the position before it, the top-5 match its ``order`` being under 5;
passes are left out. Prints, per game and player and over all the games, the two reports'
moves, mean points lost, top-1 and top-5 match and accuracy, and whether the issue's goals hold
(mean points lost within 0.5 of KataGo's, top-1 match within 10 percentage points).

``--kept DIR`` keeps each side's analysis in DIR (``NAME-katagoV.json``, ``NAME-gorillaV.json``:
every position's Black lead, Black win rate and first five moves): read if there, else computed
and written, so the two halves can run apart (``--katago-only``, ``--gorilla-only``).
``--reference FILE`` writes KataGo's values and figures of every game as the test data
``tests/data/report_katago.json`` (``tests/test_report_katago.py`` reads it). ``--katago-again``
analyses each game with KataGo a second time and prints the two KataGo reports side by side:
how far KataGo is from itself on the same games (its search is not deterministic).

    python benchmarks/report_vs_katago.py [--sgf F ...] [--visits 400] [--review-visits 256]
        [--katago /work/scratch/KataGo/cpp/build/katago] [--kept DIR] [--katago-only]
        [--gorilla-only] [--threads 1] [--reference tests/data/report_katago.json] [--katago-again]
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from common import machine, parser
from review_vs_katago import katago_answers

from gorilla.ai.net import default_net_path
from gorilla.rules.board import BLACK, PASS, RESIGN, WHITE
from gorilla.rules.coords import format_vertex, parse_vertex
from gorilla.rules.game import Game
from gorilla.rules.sgf import read_sgf

DATA = Path(__file__).resolve().parent / "data"
DEFAULT_GAMES = (  # review-19x19-tygem.sgf (250 moves) too with --sgf: KataGo takes an hour over it here
    "review-9x9.sgf",
    "report-9x9-gnugo.sgf",
    "report-13x13-gnugo.sgf",
    "report-19x19-tygem.sgf",
)
KATAGO = "/work/scratch/KataGo/cpp/build/katago"
TOP = 5  # moves kept a position
LOST_GOAL = 0.5  # points: mean points lost within this of KataGo's
TOP1_GOAL = 0.10  # the top-1 match within this


def katago_positions(game: Game, katago: str, model: str, visits: int) -> list[dict]:
    """KataGo's analysis of every position of game's moves (turn 0 .. n): Black's root score
    lead and win rate, and its first TOP moves (GTP vertices, by ``order``)."""
    answers = katago_answers(game, katago, model, visits, query_id="report")
    found = []
    for t in range(len(game.moves) + 1):
        r = answers[t]
        infos = sorted(r["moveInfos"], key=lambda d: d["order"])
        found.append(
            {
                "lead": float(r["rootInfo"]["scoreLead"]),
                "winrate": float(r["rootInfo"]["winrate"]),
                "top": [d["move"] for d in infos[:TOP]],
            }
        )
    return found


def katago_figures(game: Game, positions: list[dict], zero_best: bool = False) -> dict[str, dict]:
    """KataGo's report per player ("B", "W") from its values alone (see the module docstring):
    moves, mean points lost, top-1 and top-5 match, accuracy (100 x 0.75 ^ mean points lost).
    zero_best: KataGo's first choice loses 0, as in Gorilla's review (KaTrain does not)."""
    lost: dict[str, list[float]] = {"B": [], "W": []}
    top1 = {"B": 0, "W": 0}
    top5 = {"B": 0, "W": 0}
    for k, m in enumerate(game.moves):
        if m.point == PASS:
            continue
        who = "B" if m.color == BLACK else "W"
        before, after = positions[k]["lead"], positions[k + 1]["lead"]
        top = [parse_vertex(v, game.size) for v in positions[k]["top"]]
        fall = before - after if who == "B" else after - before
        lost[who].append(0.0 if zero_best and top and top[0] == m.point else max(0.0, fall))
        top1[who] += int(bool(top) and top[0] == m.point)
        top5[who] += int(m.point in top[:TOP])
    out = {}
    for who, xs in lost.items():
        n = len(xs)
        mean = sum(xs) / n if n else 0.0
        out[who] = {
            "moves": n,
            "mean_lost": mean,
            "top1": top1[who] / n if n else 0.0,
            "top5": top5[who] / n if n else 0.0,
            "accuracy": 100.0 * 0.75**mean,
        }
    return out


def gorilla_positions(game: Game, visits: int, threads: int) -> tuple[list[dict], dict[str, dict], float]:
    """Gorilla's review of game: every position's values (as katago_positions gives KataGo's),
    its report's whole-game figures per player, and the review's wall seconds."""
    from gorilla.ai.agent import Budget
    from gorilla.app.go import report, review

    cache: dict = {}
    t0 = time.perf_counter()
    revs = review.analyse_line(game, Budget(playouts=visits), threads=threads, seed=1, cache=cache)
    spent = time.perf_counter() - t0
    positions = []
    for key in review.line_keys(game):
        ev = cache[key]
        top = ev.top or [ev.best]
        positions.append(
            {"lead": ev.score, "winrate": ev.winrate, "top": [format_vertex(p, game.size) for p in top]}
        )
    rep = report.game_report(revs, [cache.get(k) for k in review.line_keys(game)], game.size)
    figures = {}
    for color, who in ((BLACK, "B"), (WHITE, "W")):
        s = rep.stats(color, report.GAME)
        figures[who] = {
            "moves": s.moves,
            "mean_lost": s.mean_lost,
            "top1": s.top1,
            "top5": s.top5,
            "accuracy": s.accuracy,
        }
    return positions, figures, spent


def kept(path: Path | None, make):
    """The JSON at path if it exists, else make()'s value (written to path when given)."""
    if path is not None and path.exists():
        return json.loads(path.read_text())
    value = make()
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(value))
    return value


def figures_line(label: str, f: dict) -> str:
    """One player's figures as a table row."""
    return (
        f"  {label:<10} {f['moves']:>4} moves  mean lost {f['mean_lost']:5.2f}  top-1 {100 * f['top1']:5.1f}%"
        f"  top-5 {100 * f['top5']:5.1f}%  accuracy {f['accuracy']:5.1f}"
    )


def pooled(per_game: list[dict], who: str) -> dict:
    """One player's figures over several games (weighted by moves)."""
    n = sum(g[who]["moves"] for g in per_game)
    mean = sum(g[who]["mean_lost"] * g[who]["moves"] for g in per_game) / max(1, n)
    return {
        "moves": n,
        "mean_lost": mean,
        "top1": sum(g[who]["top1"] * g[who]["moves"] for g in per_game) / max(1, n),
        "top5": sum(g[who]["top5"] * g[who]["moves"] for g in per_game) / max(1, n),
        "accuracy": 100.0 * 0.75**mean,
    }


def compare(
    name: str, ours: dict, theirs: dict, labels: tuple[str, str] = ("gorilla", "katago")
) -> list[bool]:
    """Print the two reports of one game; whether each player's figures meet the goals."""
    ok = []
    for who in ("B", "W"):
        print(figures_line(f"{who} {labels[0]}", ours[who]))
        print(figures_line(f"{who} {labels[1]}", theirs[who]))
        dl = abs(ours[who]["mean_lost"] - theirs[who]["mean_lost"])
        dt = abs(ours[who]["top1"] - theirs[who]["top1"])
        good = dl <= LOST_GOAL and dt <= TOP1_GOAL
        ok.append(good)
        verdict = "ok" if good else "MISSED"
        print(f"    {name} {who}: |mean lost diff| {dl:.2f}, |top-1 diff| {100 * dt:.1f} pp: {verdict}")
    return ok


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("--sgf", nargs="*", default=[str(DATA / g) for g in DEFAULT_GAMES])
    ap.add_argument("--visits", type=int, default=400, help="KataGo's visits a position")
    ap.add_argument("--review-visits", type=int, default=0, help="Gorilla's (0: review.net_visits)")
    ap.add_argument("--katago", default=KATAGO)
    ap.add_argument("--model", default=str(default_net_path()))
    ap.add_argument("--threads", type=int, default=1, help="the review's search threads")
    ap.add_argument("--kept", help="a folder keeping each side's analysis")
    ap.add_argument("--katago-only", action="store_true")
    ap.add_argument("--gorilla-only", action="store_true")
    ap.add_argument("--reference", help="write KataGo's values and figures here (the test data)")
    ap.add_argument(
        "--katago-again",
        action="store_true",
        help="a second KataGo analysis of each game: KataGo's own spread",
    )
    args = ap.parse_args()
    from gorilla.app.go import review

    folder = Path(args.kept) if args.kept else None
    print(time.strftime("%Y-%m-%d %H:%M"), machine(), flush=True)
    ours_all, theirs_all, oks, reference, again_all, theirs_again = [], [], [], [], [], []
    for path in map(Path, args.sgf):
        game = read_sgf(path)
        if game.moves and game.moves[-1].point == RESIGN:  # a resignation is no move to judge
            game = game.at(game.move_number - 1)
        game.redo_stack = []
        name = path.stem
        visits = args.review_visits or review.net_visits(game.size)
        print(f"{name}: {game.size}x{game.size}, {game.move_number} moves", flush=True)
        theirs = None
        if not args.gorilla_only:
            t0 = time.perf_counter()
            pos = kept(
                folder and folder / f"{name}-katago{args.visits}.json",
                lambda g=game: katago_positions(g, args.katago, args.model, args.visits),
            )
            print(f"  katago: {args.visits} visits/position, {time.perf_counter() - t0:.1f} s", flush=True)
            theirs = katago_figures(game, pos)
            reference.append(reference_entry(name, path.name, args.visits, game, pos))
            if args.katago_again:
                again_all.append(katago_again(game, name, folder, args, theirs))
                theirs_again.append(theirs)
        if args.katago_only:
            continue
        t0 = time.perf_counter()
        mine = kept(
            folder and folder / f"{name}-gorilla{visits}.json",
            lambda g=game, n=visits: gorilla_figures(g, n, args),
        )
        print(f"  gorilla: {visits} visits/position, {args.threads} thread(s), {mine['seconds']:.1f} s review"
              f" ({time.perf_counter() - t0:.1f} s here)", flush=True)  # fmt: skip
        if theirs is not None:
            oks += compare(name, mine["figures"], theirs)
            same_rule = katago_figures(game, pos, zero_best=True)
            for who in ("B", "W"):
                print(figures_line(f"{who} katago, its first choice losing 0", same_rule[who]))
            ours_all.append(mine["figures"])
            theirs_all.append(theirs)
    if ours_all:
        print("all games:")
        compare("all", {w: pooled(ours_all, w) for w in "BW"}, {w: pooled(theirs_all, w) for w in "BW"})
        print(f"goals met by {sum(oks)} of {len(oks)} players")
    if again_all:
        print("all games, KataGo twice:")
        both = {w: pooled(again_all, w) for w in "BW"}, {w: pooled(theirs_again, w) for w in "BW"}
        compare("all", *both, labels=("katago 2", "katago"))
    if args.reference:
        Path(args.reference).write_text(
            json.dumps({"katago": "1.17.2", "games": reference}, separators=(",", ":"))
        )
        print(f"wrote {args.reference}")


def katago_again(game: Game, name: str, folder: Path | None, args, theirs: dict) -> dict:
    """KataGo's second analysis of game (kept as NAME-katagoV-again.json), its figures printed
    beside the first's: how far two runs of KataGo itself are apart."""
    pos = kept(
        folder and folder / f"{name}-katago{args.visits}-again.json",
        lambda: katago_positions(game, args.katago, args.model, args.visits),
    )
    again = katago_figures(game, pos)
    compare(f"{name} (KataGo twice)", again, theirs, labels=("katago 2", "katago"))
    return again


def reference_entry(name: str, sgf: str, visits: int, game: Game, positions: list[dict]) -> dict:
    """One game's test data: KataGo's leads (3 decimals) and first moves of every position, and
    the figures of those values (tests/test_report_katago.py recomputes them)."""
    kept = [{"lead": round(p["lead"], 3), "top": p["top"]} for p in positions]
    figures = katago_figures(game, kept)
    return {"name": name, "sgf": sgf, "visits": visits, "positions": kept, "figures": figures}


def gorilla_figures(game: Game, visits: int, args) -> dict:
    """Gorilla's half for one game, as kept in --kept: positions, figures, review seconds."""
    pos, figures, spent = gorilla_positions(game, visits, args.threads)
    return {"positions": pos, "figures": figures, "seconds": spent}


if __name__ == "__main__":
    main()
