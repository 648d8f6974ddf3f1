"""Gomoku: the move ordering's tables fitted to a strong engine's moves.

    python benchmarks/gomoku_orderfit.py label GAMES_DIR [GAMES_DIR ...] --out LAB.jsonl
        [--player rapfi] [--judge rapfi] [--turn-ms 300] [--sources DIR]
    python benchmarks/gomoku_orderfit.py fit LAB.jsonl [...] [--reg 3e-5] [--holdout 3]
        [--out assets/gomoku_order.txt]

The PVS tries its moves best first, and late moves are where pruning and reductions cut; so
this measures how often the ordering puts the engine's move first, in its first 3, 8 and 20
(the inner nodes' width), and fits the ordering's tables to those moves.

``label`` takes the quiet positions of the 15x15 freestyle records under the folders (from
ply 3: neither side can make five, the side to move has no open-four or four-three point and
its opponent no open three to answer; the PVS's threat rules decide the others). Where the
record's player of the side to move has ``--player`` in its name (``PB``/``PW``), its move is
the label; the other positions are given to ``--judge`` (Rapfi's classical build by default,
one thread, ``--turn-ms`` a move) and its move is the label. ``--judge none`` keeps only the
record's moves. One JSON line per position: ``moves``, ``mover``, ``move``, ``source``.

``fit`` scores a candidate point (empty, near a stone) as :func:`gorilla.gomoku.patterns.order_tables`
does: ``own[combo of the side to move] + opp[combo of its opponent]``, a combination of the
point's four direction classes for each colour (Rapfi's classical picker has this form), and
fits the two tables by a softmax over each position's candidates (L-BFGS), pulled towards the
linear point scores (``--reg`` per squared change in the softmax's units; the temperature is
the one that fits the linear scores best, so the tables keep their units). Every
``--holdout``-th opening (the first three stones) is held out: the script prints the held-out
top-k of the linear scores and of the fit, then fits on every position and writes the tables
(``c0 c1 c2 c3 own opp`` lines) to ``--out``. The engine reads ``assets/gomoku_order.txt``
(:data:`gorilla.gomoku.search.ORDER_TABLES`).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import zlib
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gomoku_rankfit import COMBO_OF, COMBOS, NCOMBOS, board_of  # noqa: E402
from gomoku_regret import judge_brain  # noqa: E402
from gomoku_spar import default_sources, engine_command, load_average  # noqa: E402

from gorilla.gomoku import patterns as P  # noqa: E402
from gorilla.gomoku import rules as R  # noqa: E402
from gorilla.gomoku.texel import game_moves  # noqa: E402

Moves = list[tuple[int, int, int]]
KS = (1, 3, 8, 20)


def quiet(bd: tuple, c: int) -> bool:
    """No five-making point for either side, no open-four or four-three point for c (to move),
    no open three of the opponent's to answer."""
    o = 3 - c
    if R.class_count(bd, c, P.P_FIVE) or R.class_count(bd, o, P.P_FIVE):
        return False
    if R.class_count(bd, c, P.P_F4) or R.class_count(bd, c, P.P_43):
        return False
    return R.class_count(bd, o, P.P_F4) == 0


def candidates(bd: tuple, c: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(points, combo of c, combo of the opponent, linear score): the empty points near a stone,
    as the PVS's move generator takes them (row by row)."""
    pts = np.nonzero((bd[0] == R.EMPTY) & (bd[5] > 0))[0]
    out = []
    for col in (c, 3 - c):
        d = bd[2][col].astype(np.int64)
        idx = ((d[0, pts] * P.NCLASSES + d[1, pts]) * P.NCLASSES + d[2, pts]) * P.NCLASSES + d[3, pts]
        out.append(COMBO_OF[idx])
    lin = bd[4][c, pts].astype(np.int64) + bd[4][3 - c, pts]
    return pts, out[0], out[1], lin


def _records(folders: list[Path]) -> list[tuple[str, str, Moves]]:
    """(black player, white player, moves) of each distinct 15x15 record under the folders."""
    seen: set[tuple] = set()
    out = []
    for folder in folders:
        for path in sorted(Path(folder).rglob("*.sgf")):
            text = path.read_text(encoding="utf-8", errors="replace")
            if "SZ[15]" not in text or "RU[renju]" in text:
                continue
            rec = game_moves(text)
            if rec is None or tuple(rec[1]) in seen:
                continue
            seen.add(tuple(rec[1]))
            names = []
            for tag in ("PB[", "PW["):
                i = text.find(tag)
                names.append(text[i + 3 : text.find("]", i)] if i >= 0 else "")
            out.append((names[0], names[1], rec[1]))
    return out


def label(args: argparse.Namespace) -> int:
    judge = None
    if args.judge != "none":
        judge = judge_brain(engine_command(args.judge, args.sources), None, None, args.turn_ms)
    start = time.perf_counter()
    seen: set[tuple] = set()
    counts = {"record": 0, "judge": 0}
    with open(args.out, "w") as out:
        for black, white, moves in _records(args.folders):
            for k in range(3, len(moves)):
                c, x, y = moves[k]
                key = tuple(moves[:k])
                if key in seen or not quiet(board_of(moves[:k]), c):
                    continue
                seen.add(key)
                player = black if c == R.BLACK else white
                if args.player and args.player in player:
                    move, source = (x, y), "record"
                elif judge is not None:
                    move, source = judge.ask((moves[:k], c))[0], "judge"
                else:
                    continue
                counts[source] += 1
                rec = {"moves": moves[:k], "mover": c, "move": list(move), "source": source}
                out.write(json.dumps(rec) + "\n")
    if judge is not None:
        judge.close()
    print(
        f"{counts['record']} positions labelled by the records' moves, {counts['judge']} by the judge,"
        f" in {time.perf_counter() - start:.0f} s; load {load_average()}"
    )
    return 0


class Data:
    """The candidates of labelled positions, flattened: combos, linear scores, each position's
    offset and its label's row."""

    def __init__(self, rows: list[tuple[np.ndarray, np.ndarray, np.ndarray, int]]) -> None:
        self.own = np.concatenate([r[0] for r in rows])
        self.opp = np.concatenate([r[1] for r in rows])
        self.lin = np.concatenate([r[2] for r in rows]).astype(np.float64)
        lens = np.array([len(r[0]) for r in rows])
        self.off = np.concatenate([[0], np.cumsum(lens)])
        self.seg = np.repeat(np.arange(len(rows)), lens)
        self.lab = self.off[:-1] + np.array([r[3] for r in rows])
        self.n = len(rows)

    def nll(self, z: np.ndarray) -> tuple[float, np.ndarray]:
        """The mean negative log-likelihood of the labels under logits z, and its gradient in z."""
        m = np.maximum.reduceat(z, self.off[:-1])
        e = np.exp(z - m[self.seg])
        s = np.add.reduceat(e, self.off[:-1])
        loss = float(np.sum(np.log(s) + m - z[self.lab])) / self.n
        g = e / s[self.seg]
        g[self.lab] -= 1.0
        return loss, g / self.n

    def topk(self, z: np.ndarray) -> list[float]:
        """The share of positions whose label is among the first k by z (ties: the earlier
        candidate first, as the move generator's insertion keeps them)."""
        hits = np.zeros(len(KS))
        for i in range(self.n):
            a, b = self.off[i], self.off[i + 1]
            s = z[a:b]
            j = self.lab[i] - a
            rank = int(np.sum(s > s[j]) + np.sum(s[:j] == s[j]))
            hits += [rank < k for k in KS]
        return list(hits / self.n)


def linear_combo_values() -> np.ndarray:
    """Each combination's linear point score (patterns.linear_order_tables)."""
    tab = P.linear_order_tables()[0]
    n = P.NCLASSES
    return np.array([tab[((a * n + b) * n + c) * n + d] for a, b, c, d in COMBOS], float)


def lbfgs(
    f: Callable[[np.ndarray], tuple[float, np.ndarray]], x: np.ndarray, iters: int = 500, memory: int = 10
) -> np.ndarray:
    """Minimise a smooth convex f (value, gradient) from x: L-BFGS with a backtracking line
    search (numpy only: no SciPy at run time)."""
    fx, g = f(x)
    ss: list[np.ndarray] = []
    ys: list[np.ndarray] = []
    for _ in range(iters):
        q = g.copy()
        alphas = []
        for s_, y_ in zip(reversed(ss), reversed(ys), strict=True):
            a = (s_ @ q) / (y_ @ s_)
            alphas.append(a)
            q -= a * y_
        if ys:
            q *= (ss[-1] @ ys[-1]) / (ys[-1] @ ys[-1])
        for (s_, y_), a in zip(zip(ss, ys, strict=True), reversed(alphas), strict=True):
            q += s_ * (a - (y_ @ q) / (y_ @ s_))
        d = -q
        slope = g @ d
        if slope >= 0:  # not a descent direction: start the memory again
            ss, ys, d, slope = [], [], -g, -(g @ g)
        step = 1.0
        while True:
            xn = x + step * d
            fn, gn = f(xn)
            if fn <= fx + 1e-4 * step * slope or step < 1e-10:
                break
            step *= 0.5
        if fx - fn < 1e-10 * max(1.0, abs(fx)):
            return xn
        s_, y_ = xn - x, gn - g
        if s_ @ y_ > 1e-12:
            ss.append(s_)
            ys.append(y_)
            if len(ss) > memory:
                ss.pop(0)
                ys.pop(0)
        x, fx, g = xn, fn, gn
    return x


def fit_tables(data: Data, reg: float) -> tuple[np.ndarray, np.ndarray, float]:
    """(own, opp, temperature): the tables in the linear scores' units."""
    a0 = linear_combo_values()
    temp = min((data.nll(data.lin / t)[0], t) for t in (25, 50, 100, 200, 400, 800))[1]
    prior = np.concatenate([a0, a0]) / temp

    def f(theta: np.ndarray) -> tuple[float, np.ndarray]:
        loss, g = data.nll(theta[data.own] + theta[NCOMBOS + data.opp])
        d = theta - prior
        grad = np.concatenate([np.bincount(data.own, g, NCOMBOS), np.bincount(data.opp, g, NCOMBOS)])
        return loss + reg * float(d @ d), grad + 2 * reg * d

    x = lbfgs(f, prior.copy())
    return x[:NCOMBOS] * temp, x[NCOMBOS:] * temp, temp


def fit(args: argparse.Namespace) -> int:
    rows, held = [], []
    for path in args.labels:
        for line in Path(path).read_text().splitlines():
            rec = json.loads(line)
            moves = [tuple(m) for m in rec["moves"]]
            bd = board_of(moves)
            pts, own, opp, lin = candidates(bd, rec["mover"])
            where = np.nonzero(pts == R.point(bd, *rec["move"]))[0]
            if len(where) == 0:
                continue
            rows.append((own, opp, lin, int(where[0])))
            held.append(zlib.crc32(json.dumps(rec["moves"][:3]).encode()) % args.holdout == 0)
    held_a = np.array(held)
    print(f"{len(rows)} positions: {len(rows) - int(held_a.sum())} to fit, {int(held_a.sum())} held out")
    a0 = linear_combo_values()
    if 0 < held_a.sum() < len(rows):
        train = Data([r for r, h in zip(rows, held, strict=True) if not h])
        test = Data([r for r, h in zip(rows, held, strict=True) if h])

        def show(name: str, own: np.ndarray, opp: np.ndarray) -> None:
            z = own[test.own] + opp[test.opp]
            cells = ", ".join(f"top-{k} {100 * v:.1f}%" for k, v in zip(KS, test.topk(z), strict=True))
            print(f"  {name}: {cells}")

        show("linear point scores", a0, a0)
        own, opp, temp = fit_tables(train, args.reg)
        show(f"fitted tables (reg {args.reg:g}, temperature {temp:g})", own, opp)
    else:
        print("  no held-out comparison: every opening fell on one side (more games, or another --holdout)")
    if args.out is not None:
        own, opp, _ = fit_tables(Data(rows), args.reg)
        with open(args.out, "w") as f:
            f.write(
                "# Gomoku move ordering (15x15 freestyle): c0 c1 c2 c3 (a point's four direction classes,\n"
                "# gorilla.gomoku.patterns) then its value for the side to move and for its opponent.\n"
                f"# Fitted by benchmarks/gomoku_orderfit.py to the moves of {len(rows)} positions"
                f" (reg {args.reg:g}).\n"
            )
            for i, c in enumerate(COMBOS):
                f.write(f"{c[0]} {c[1]} {c[2]} {c[3]} {round(own[i])} {round(opp[i])}\n")
        print(f"wrote {args.out}")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    lb = sub.add_parser("label", help="label the records' quiet positions with an engine's moves")
    lb.add_argument("folders", nargs="+", type=Path)
    lb.add_argument("--out", type=Path, required=True)
    lb.add_argument("--player", default="rapfi", help="the records' player whose moves are labels ('': none)")
    lb.add_argument("--judge", default="rapfi", help="the engine that labels the other positions, or none")
    lb.add_argument("--turn-ms", type=int, default=300)
    lb.add_argument("--sources", type=Path, default=default_sources())
    ft = sub.add_parser("fit", help="fit the ordering's tables to labelled positions")
    ft.add_argument("labels", nargs="+", type=Path)
    ft.add_argument("--reg", type=float, default=3e-5)
    ft.add_argument("--holdout", type=int, default=3)
    ft.add_argument("--out", type=Path)
    args = ap.parse_args(argv)
    return label(args) if args.cmd == "label" else fit(args)


if __name__ == "__main__":
    sys.exit(main())
