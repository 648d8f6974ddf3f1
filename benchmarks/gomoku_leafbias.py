"""Gomoku: how far the static evaluation is from a judge's value where the side to move faces
threats, the figure behind ``search.F4_OFFSET``.

    python benchmarks/gomoku_leafbias.py GAMES_DIR [GAMES_DIR ...] [--positions 3000]
        [--first 4] [--last 40] [--seed 5] [--judge rapfi] [--judge-depth 14]
        [--judge-nodes 300000] [--sources DIR]

Positions: plies ``--first`` to ``--last`` of the 15x15 freestyle games under the folders
(as ``gomoku_regret.py`` draws them), those the PVS would score as leaves: no five to make or
block, and none of the node's win rules (an open four; a four-three or double three against
no four). The judge (Rapfi's classical build by default) values each; a found win or loss is
left out. Then a logistic fit of the judge's win rate (``sigmoid(value / 200)``) on
``k * eval / 1000 + b`` alone, and with one indicator per threat the side to move faces
(the opponent's open three, four-three and double-three points; its own four points), each
indicator's weight printed in evaluation units (``weight / k * 1000``): what the leaf should
add to the static sum when the indicator holds. The opponent's open three is the large one:
the static sum counts its four-making points as if they stood, and the side to move blocks
one of them with its very move.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gomoku_regret import add_judge_arguments, judge_brain, positions, win_rate  # noqa: E402
from gomoku_spar import engine_command, load_average  # noqa: E402

from gorilla.gomoku import rules as R  # noqa: E402
from gorilla.gomoku.patterns import P_33, P_43, P_FIVE, P_FOUR  # noqa: E402
from gorilla.gomoku.texel import log_loss, newton  # noqa: E402
from gorilla.gomoku.vcf import _scan, evaluate  # noqa: E402

INDICATORS = (
    "opponent's open three",
    "opponent's four-three point",
    "opponent's double-three point",
    "own four point",
)


def leaf_features(moves: list[tuple[int, int, int]], stm: int) -> tuple[int, list[float]] | None:
    """The static evaluation for stm and the indicators, or None when the PVS would not
    score the position as a leaf (a five, or one of its win rules)."""
    bd = R.new_board(15, R.FREESTYLE)
    for c, x, y in moves:
        R.place(bd, R.point(bd, x, y), c)
    o = 3 - stm
    cell, pcls = bd[0], bd[3]
    empty = cell == R.EMPTY
    if ((pcls[o] == P_FIVE) & empty).any() or ((pcls[stm] == P_FIVE) & empty).any():
        return None
    info = np.empty(5, dtype=np.int64)
    _scan(bd, stm, info)
    if info[0] >= 0 or ((info[3] >= 0 or info[4] >= 0) and info[1] == 0):
        return None
    feats = [
        float(info[2] > 0),
        float(((pcls[o] == P_43) & empty).any()),
        float(((pcls[o] == P_33) & empty).any()),
        float(((pcls[stm] == P_FOUR) & empty).any()),
    ]
    return int(evaluate(bd, stm)), feats


def logistic_fit(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, float]:
    """Weights of sigmoid(x @ w) against soft targets y (texel's Newton fit, no penalty) and
    the mean log-loss."""
    w = newton(x, y, np.zeros(x.shape[1]), np.zeros(x.shape[1]))
    return w, log_loss(x @ w, y)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("games", nargs="+", type=Path, help="folders of SGF games (15x15 freestyle)")
    ap.add_argument("--positions", type=int, default=3000)
    ap.add_argument("--first", type=int, default=4)
    ap.add_argument("--last", type=int, default=40)
    ap.add_argument("--seed", type=int, default=5)
    add_judge_arguments(ap)
    a = ap.parse_args(argv)
    judge_cmd = engine_command(a.judge, a.sources)
    todo = []
    for moves, stm in positions(a.games, 10 * a.positions, a.first, a.last, a.seed):
        f = leaf_features(moves, stm)
        if f is not None:
            todo.append((moves, stm, f))
        if len(todo) == a.positions:
            break
    if not todo:
        print("no positions: give folders of 15x15 freestyle SGF games")
        return 1
    print(f"{len(todo)} leaf positions, plies {a.first}-{a.last}; load {load_average()}")
    judge = judge_brain(judge_cmd, a.judge_depth, a.judge_nodes)
    rows, target = [], []
    try:
        for moves, stm, (ev, feats) in todo:
            value = judge.ask((moves, stm))[1]
            wr = win_rate(value)
            if wr is None or value is None or "M" in value:
                continue
            rows.append([ev / 1000.0, 1.0, *feats])
            target.append(wr)
    finally:
        judge.close()
    x, y = np.array(rows), np.array(target)
    print(f"judged {len(y)} without a found win ({a.judge}: depth {a.judge_depth}, {a.judge_nodes} nodes)")
    w0, loss0 = logistic_fit(x[:, :2], y)
    w, loss = logistic_fit(x, y)
    print(f"eval alone: log-loss {loss0:.4f}, k {w0[0]:.3f} a thousand units")
    print(f"with the indicators: log-loss {loss:.4f}, k {w[0]:.3f} a thousand units")
    for name, wi, col in zip(INDICATORS, w[2:], x[:, 2:].T, strict=True):
        print(f"  {name:32s} {int(col.sum()):6d} positions  {wi / w[0] * 1000:+8.0f} evaluation units")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
