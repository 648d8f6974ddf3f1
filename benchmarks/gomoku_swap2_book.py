"""Gomoku: the Swap2 opener's three-stone openings, chosen balanced by Gorilla's own search.

    python benchmarks/gomoku_swap2_book.py [--samples 400] [--keep 40] [--radius 4]
        [--seconds 0.5 1.5] [--seed 1] [--out assets/gomoku_swap2.txt]
        [--judge rapfi|none] [--sources DIR]

In Swap2 the opener puts three stones (Black, White, Black) and the other player then picks
its colour, so the opener wants three stones after which neither colour is ahead. This draws
``--samples`` random three-stone openings (each stone within ``--radius`` of the centre, one
of each set of mirror images and rotations), scores each for White to move by the
``pvs+vct`` search in ``--seconds``' first time, searches the third nearest even again for
each further time, and keeps the ``--keep`` whose largest score (by size) is smallest. It
writes them in the openings format (:mod:`gorilla.gomoku.openings`; the comment gives the
scores from White's side), which :mod:`gorilla.gomoku.swap2` reads.

``--judge rapfi`` also asks Rapfi's classical build (a search of 14 plies, at most 300,000
nodes) for its value of every kept opening and of the same number drawn at random, and
prints both sides' White win rates (``sigmoid(value / 200)``): how balanced the book is by
an outside engine. The judge's values are printed, not used to choose.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gomoku_regret import judge_brain, win_rate  # noqa: E402
from gomoku_spar import default_sources, engine_command  # noqa: E402

from gorilla.gomoku.agents import make_agent, ready_engine  # noqa: E402
from gorilla.gomoku.game import GomokuGame  # noqa: E402
from gorilla.gomoku.swap2 import symmetric  # noqa: E402

Opening = tuple[tuple[int, int], tuple[int, int], tuple[int, int]]  # (dx, dy) of B, W, B


def canonical(op: Opening) -> Opening:
    """One representative of op's mirror images and rotations (the two Black stones unordered)."""
    best: Opening | None = None
    for k in range(8):
        b1, w, b2 = (symmetric(x, y, k) for x, y in op)
        cand = (min(b1, b2), w, max(b1, b2))
        if best is None or cand < best:
            best = cand
    assert best is not None
    return best


def sample_openings(count: int, radius: int, seed: int) -> list[Opening]:
    """count distinct (up to symmetry) three-stone openings, each stone on its own point within
    radius of the centre, seeded."""
    if radius < 1 or count > 10_000:
        raise ValueError("radius must be at least 1 and count at most 10,000")
    rng = random.Random(seed)
    seen: set[Opening] = set()
    out: list[Opening] = []
    tries = 0
    while len(out) < count and tries < 100 * count:
        tries += 1
        pts = tuple((rng.randint(-radius, radius), rng.randint(-radius, radius)) for _ in range(3))
        if len(set(pts)) < 3:
            continue
        key = canonical(pts)  # type: ignore[arg-type]
        if key not in seen:
            seen.add(key)
            out.append(key)
    return out


def format_line(op: Opening, scores: list[int], judged: float | None = None) -> str:
    """An openings-file line: the stones, then a comment with the scores (White to move)."""
    stones = " ".join(f"{dx},{dy}" for dx, dy in op)
    note = " / ".join(f"{s:+d}" for s in scores)
    extra = f"; Rapfi White {judged:.2f}" if judged is not None else ""
    return f"{stones:<28}# PVS for White {note}{extra}"


HEADER = """\
# Three-stone openings for the Swap2 opener (gorilla.gomoku.swap2): Black, White, Black,
# dx,dy offsets from the centre (the openings format of gomoku_openings.txt).
#
# Chosen by benchmarks/gomoku_swap2_book.py: {samples} random openings (every stone within
# {radius} of the centre, one of each set of mirror images and rotations), each searched by
# the pvs+vct engine for White to move for {first} s, the third nearest even again for
# {more} s, and the {keep} whose largest score by size is smallest kept. The comment gives
# the scores (engine units, White's side; an open three is worth 6,700-9,400).
"""


def score(agent, op: Opening, size: int, seconds: float) -> int:
    """The search's score of op for White to move."""
    agent.new_game()
    g = GomokuGame(size)
    c = size // 2
    for dx, dy in op:
        g.play_xy(c + dx, c + dy)
    return int(agent.select(g, seconds).score)


Scored = list[tuple[Opening, list[int]]]


def choose(agent, ops: list[Opening], times: list[float], keep: int, size: int = 15) -> Scored:
    """The keep openings of ops nearest even: all scored at times[0], the third nearest even
    (at least keep) again at each further time, ranked by their largest score by size."""
    scored = [(op, [score(agent, op, size, times[0])]) for op in ops]
    for t in times[1:]:
        scored.sort(key=lambda e: max(abs(s) for s in e[1]))
        scored = scored[: max(keep, len(scored) // 3)]
        for op, ss in scored:
            ss.append(score(agent, op, size, t))
    scored.sort(key=lambda e: max(abs(s) for s in e[1]))
    return scored[:keep]


def judge_white(brain, op: Opening, size: int = 15) -> float:
    """The judge's win rate for White to move after op."""
    c = size // 2
    moves = [(1 if i % 2 == 0 else 2, c + dx, c + dy) for i, (dx, dy) in enumerate(op)]
    _, value = brain.ask((moves, 2))
    wr = win_rate(value)
    return float("nan") if wr is None else wr


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--samples", type=int, default=400)
    ap.add_argument("--keep", type=int, default=40)
    ap.add_argument("--radius", type=int, default=4)
    ap.add_argument("--seconds", type=float, nargs="+", default=[0.5, 1.5])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--judge", default="none", help="rapfi: print an outside engine's values too")
    ap.add_argument("--sources", type=Path, default=default_sources())
    args = ap.parse_args(argv)
    ready_engine(["pvs+vct"])
    agent = make_agent("pvs+vct")
    ops = sample_openings(args.samples, args.radius, args.seed)
    t0 = time.time()
    kept = choose(agent, ops, args.seconds, args.keep)
    print(f"{len(ops)} openings searched, {len(kept)} kept in {time.time() - t0:.0f} s")
    judged: dict[Opening, float] = {}
    if args.judge != "none":
        brain = judge_brain(engine_command(args.judge, args.sources), 14, 300_000)
        rest = [op for op in ops if op not in {k for k, _ in kept}]
        drawn = random.Random(args.seed).sample(rest, min(len(kept), len(rest)))
        for op in [k for k, _ in kept] + drawn:
            judged[op] = judge_white(brain, op)
        brain.close()
        for name, group in (("kept", [k for k, _ in kept]), ("drawn at random", drawn)):
            wr = [judged[op] for op in group]
            off = sorted(abs(w - 0.5) for w in wr)
            print(
                f"{args.judge}, White's win rate, {name} ({len(wr)}): mean {sum(wr) / len(wr):.3f}, "
                f"median distance from even {off[len(off) // 2]:.3f}, "
                f"within 0.1 of even {sum(d <= 0.1 for d in off)}, "
                f"White under 0.4 {sum(w < 0.4 for w in wr)}, over 0.6 {sum(w > 0.6 for w in wr)}"
            )
    lines = [format_line(op, ss, judged.get(op)) for op, ss in kept]
    text = HEADER.format(
        samples=len(ops),
        radius=args.radius,
        first=args.seconds[0],
        more=" then ".join(str(t) for t in args.seconds[1:]) or "-",
        keep=len(kept),
    )
    text += "\n".join(lines) + "\n"
    if args.out:
        args.out.write_text(text, encoding="utf-8")
        print(f"wrote {args.out}")
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
