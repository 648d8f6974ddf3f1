"""Gomoku: the evaluation tables fitted to a judge's ranking of sibling positions.

    python benchmarks/gomoku_rankfit.py label GAMES_DIR [GAMES_DIR ...] --out SIBS.jsonl
        [--parents 3000] [--first 4] [--last 30] [--seed 5] [--children 8]
        [--judge rapfi] [--judge-depth 12] [--judge-nodes 100000] [--sources DIR]
    python benchmarks/gomoku_rankfit.py fit SIBS.jsonl [...] [--reg 3e-4] [--holdout 3]
        [--out TABLES.npz]

The search compares sibling positions: the children of one node, one stone apart. So this
measures how often the evaluation ranks siblings as a judge does, and fits tables of Rapfi's
structure to that ranking rather than to a judge's value of a position (session 23 fitted tables
to Rapfi's values: they predicted them better and played worse). The engine's evaluation is
linear in the threat weights (:mod:`gorilla.gomoku.patterns`); a table holds a value for each
of the 1,001 combinations of a point's four direction classes (``COMBOS`` below), one table for
the side to move's points and one for its opponent's, and the linear evaluation is the tables
``(5/4 lin, lin)`` where ``lin`` is a combination's four direction weights plus its point
class's bonus. The kernels do not read tables: session 26 played two fitted sets through a
scratch patch (23/80 and 18/80 against Rapfi where the linear evaluation scored 21/80, then 20/80
on 80 more games where it scored 20/80; 15% fewer nodes/s), see benchmarks/RESULTS.md.

``label`` draws parent positions (plies ``--first`` to ``--last`` of the 15x15 freestyle games
under the folders, as ``gomoku_regret.py`` draws them) where no point of either side makes a
four or better, and plays each of the mover's ``--children`` best-ordered points (the PVS's
root order); a child that stays quiet is valued by the judge (Rapfi's classical build by
default; a found win or loss is left out). One JSON line per parent with two children or more.

``fit`` counts each child's empty points by the combination of their four direction classes
(:data:`gorilla.gomoku.patterns.COMBOS`), for the mover and for the side to move at the child,
and fits the two tables (the side to move's, its opponent's) by a logistic regression on the
pairs of siblings whose values differ by 20 or more: the probability that the evaluation ranks
``a`` over ``b`` is ``sigmoid(k * (eval(a) - eval(b)))`` against the judge's
``sigmoid((value(a) - value(b)) / 200)``, with ``k`` fitted to the linear evaluation (so the
tables keep its units: the search's margins) and a pull towards the linear evaluation's values
(``--reg`` per (change / max(value, 10))^2). It prints the held-out log-loss and the share of
held-out pairs each evaluation ranks as the judge does (every ``--holdout``-th parent held out),
then writes the tables fitted on every pair to ``--out`` (arrays ``stm`` and ``opp``).
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gomoku_regret import add_judge_arguments, judge_brain, positions  # noqa: E402
from gomoku_spar import engine_command, load_average  # noqa: E402

from gorilla.gomoku import patterns as P  # noqa: E402
from gorilla.gomoku import rules as R  # noqa: E402
from gorilla.gomoku.texel import has_class, log_loss, newton  # noqa: E402
from gorilla.gomoku.vcf import new_state, root_moves  # noqa: E402

Moves = list[tuple[int, int, int]]
MIN_GAP = 20  # the judge's values of two siblings differ by this much for the pair to count
# the combinations of four direction classes (sorted), and the index of any four in that list
COMBOS = tuple(itertools.combinations_with_replacement(range(P.NCLASSES), 4))
NCOMBOS = len(COMBOS)  # 1001


def _combo_index() -> np.ndarray:
    """COMBO_OF: the index in COMBOS of four classes c0..c3 at ((c0 * 11 + c1) * 11 + c2) * 11 + c3."""
    out = np.zeros(P.NCLASSES**4, dtype=np.int64)
    for i, cmb in enumerate(COMBOS):
        for perm in set(itertools.permutations(cmb)):
            out[((perm[0] * P.NCLASSES + perm[1]) * P.NCLASSES + perm[2]) * P.NCLASSES + perm[3]] = i
    return out


COMBO_OF = _combo_index()


def board_of(moves: Moves) -> tuple:
    """A 15x15 freestyle board with the moves (colour, x, y) on it."""
    bd = R.new_board(15, R.FREESTYLE)
    for c, x, y in moves:
        R.place(bd, R.point(bd, x, y), c)
    return bd


def quiet(bd: tuple) -> bool:
    """No empty point makes a four or better for either side (the PVS scores such a leaf by
    its threat rules, not by the evaluation)."""
    return not (has_class(bd, R.BLACK, P.P_FOUR) or has_class(bd, R.WHITE, P.P_FOUR))


def combo_counts(bd: tuple, c: int) -> np.ndarray:
    """How many empty points of colour c have each combination of direction classes."""
    empty = np.nonzero(bd[0] == R.EMPTY)[0]
    d = bd[2][c]
    idx = ((d[0, empty].astype(np.int64) * P.NCLASSES + d[1, empty]) * P.NCLASSES + d[2, empty]) * P.NCLASSES
    return np.bincount(COMBO_OF[idx + d[3, empty]], minlength=NCOMBOS)


def child_features(moves: Moves, mover: int, child: tuple[int, int]) -> np.ndarray:
    """A child's row: the combination counts of the side to move at the child (the mover's
    opponent), then minus the mover's, so that row @ (stm table, opp table) is the child's
    evaluation for its side to move (row @ linear_start(): the engine's, unrounded)."""
    bd = board_of(moves + [(mover, *child)])
    return np.concatenate([combo_counts(bd, 3 - mover), -combo_counts(bd, mover)]).astype(np.float64)


def label(args: argparse.Namespace) -> int:
    judge = judge_brain(engine_command(args.judge, args.sources), args.judge_depth, args.judge_nodes)
    start = time.perf_counter()
    done = 0
    cand = np.empty(args.children, dtype=np.int32)
    with open(args.out, "w") as out:
        for moves, mover in positions(args.folders, 10 * args.parents, args.first, args.last, args.seed):
            if done >= args.parents:
                break
            bd = board_of(moves)
            if not quiet(bd):
                continue
            kids = []
            for q in cand[: root_moves(bd, new_state(16), mover, cand)]:
                R.place(bd, int(q), mover)
                if quiet(bd):
                    x, y = R.xy(bd, int(q))
                    _, value = judge.ask((moves + [(mover, x, y)], 3 - mover))
                    if value is not None and "M" not in value:
                        kids.append({"move": [x, y], "value": -int(value)})  # the mover's view
                R.remove(bd, int(q))
            if len(kids) >= 2:
                out.write(json.dumps({"moves": moves, "mover": mover, "children": kids}) + "\n")
                done += 1
    judge.close()
    print(f"{done} parents labelled in {time.perf_counter() - start:.0f} s; load {load_average()}")
    return 0


def pairs(parents: list[dict]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(rows, a, b, target, parent): the children's rows, and for each pair of siblings whose
    values differ by MIN_GAP or more the two rows' indices, the judge's probability that a is
    the better for the mover, and the pair's parent."""
    rows, a, b, target, parent = [], [], [], [], []
    for gi, g in enumerate(parents):
        moves = [tuple(m) for m in g["moves"]]
        base = len(rows)
        kids = g["children"]
        rows += [child_features(moves, g["mover"], tuple(k["move"])) for k in kids]
        for i in range(len(kids)):
            for j in range(i + 1, len(kids)):
                gap = kids[i]["value"] - kids[j]["value"]
                if abs(gap) >= MIN_GAP:
                    a.append(base + i)
                    b.append(base + j)
                    target.append(1.0 / (1.0 + np.exp(-gap / 200.0)))
                    parent.append(gi)
    return np.array(rows), np.array(a), np.array(b), np.array(target), np.array(parent)


def fit_tables(
    rows: np.ndarray, a: np.ndarray, b: np.ndarray, target: np.ndarray, start: np.ndarray, reg: float
) -> tuple[np.ndarray, float]:
    """The tables (stm, then opp, as one vector: row @ tables is a child's evaluation for its
    side to move, and the mover ranks the children by its negation) refitted from start on the
    pairs, and the logistic scale k fitted to start. Only the combinations some pair's rows
    differ in are refitted."""
    diff = rows[b] - rows[a]  # the mover's evaluation of a less b's
    e0 = diff @ start
    s = max(1.0, float(np.std(e0)))
    k = float(newton((e0 / s)[:, None], target, np.zeros(1), np.zeros(1))[0]) / s
    used = np.nonzero(np.any(diff != 0, axis=0))[0]
    unit = np.maximum(np.abs(start[used]), 10.0)
    fixed = start.copy()
    fixed[used] = 0
    X = k * diff[:, used] * unit
    regs = np.full(len(used), 2 * reg)
    theta = newton(X, target, start[used] / unit, regs, offset=k * diff @ fixed, iters=30)
    out = start.copy()
    out[used] = theta * unit
    return out, k


def agreement(
    rows: np.ndarray, a: np.ndarray, b: np.ndarray, target: np.ndarray, tables: np.ndarray
) -> float:
    """The share of pairs the evaluation ranks as the judge does."""
    e = rows @ tables
    return float(np.mean(np.sign(e[b] - e[a]) == np.sign(target - 0.5)))


def linear_start() -> np.ndarray:
    """The linear evaluation as tables: 5/4 of a combination's weights for the side to move."""
    lin = np.array(
        [
            sum(int(P.EVAL_DIR_WEIGHTS[c]) for c in cmb) + int(P.EVAL_POINT_BONUS[P.combine(*cmb, False)])
            for cmb in COMBOS
        ],
        dtype=np.float64,
    )
    return np.concatenate([1.25 * lin, lin])


def fit(args: argparse.Namespace) -> int:
    parents = []
    for f in args.labels:
        with open(f) as fh:
            parents += [json.loads(line) for line in fh]
    rows, a, b, target, parent = pairs(parents)
    if len(a) == 0:
        raise SystemExit("no pairs of siblings with different values in the labels")
    start = linear_start()
    held = parent % args.holdout == 0
    tr, te = ~held, held
    print(f"{len(parents)} parents, {len(rows)} children, {len(a)} pairs ({te.sum()} held out)")
    tables, k = fit_tables(rows, a[tr], b[tr], target[tr], start, args.reg)
    for name, t in (("linear evaluation", start), ("fitted tables", tables)):
        z = k * (rows[b[te]] - rows[a[te]]) @ t
        print(
            f"{name:18}: held-out log-loss {log_loss(z, target[te]):.4f}, "
            f"ranks {agreement(rows, a[te], b[te], target[te], t):.1%} of the pairs as the judge"
        )
    if args.out:
        tables, _ = fit_tables(rows, a, b, target, start, args.reg)
        np.savez_compressed(
            args.out,
            stm=np.round(tables[:NCOMBOS]).astype(np.int32),
            opp=np.round(tables[NCOMBOS:]).astype(np.int32),
        )
        print(f"tables fitted on every pair written to {args.out}")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    lab = sub.add_parser("label", help="label sibling positions with a judge")
    lab.add_argument("folders", nargs="+", type=Path)
    lab.add_argument("--out", type=Path, required=True)
    lab.add_argument("--parents", type=int, default=3000)
    lab.add_argument("--first", type=int, default=4)
    lab.add_argument("--last", type=int, default=30)
    lab.add_argument("--seed", type=int, default=5)
    lab.add_argument("--children", type=int, default=8)
    add_judge_arguments(lab)
    lab.set_defaults(judge_depth=12, judge_nodes=100_000)
    ft = sub.add_parser("fit", help="fit the tables to labelled siblings")
    ft.add_argument("labels", nargs="+", type=Path)
    ft.add_argument("--reg", type=float, default=3e-4)
    ft.add_argument("--holdout", type=int, default=3)
    ft.add_argument("--out", type=Path)
    args = ap.parse_args(argv)
    return label(args) if args.cmd == "label" else fit(args)


if __name__ == "__main__":
    sys.exit(main())
