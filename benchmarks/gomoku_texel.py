"""Texel tuning of the Gomoku evaluation's weights on game records (:mod:`gorilla.gomoku.texel`).

    python benchmarks/gomoku_texel.py DIR [DIR ...] [--cache F.npz] [--free w_one,w_two,...]
        [--attack 1.25 1.5] [--reg 0.001] [--holdout 0.25] [--splits 3]

Reads every SGF under the folders (match runs: ``gorilla match`` / ``gomoku_spar.py`` output),
each distinct game once, takes the quiet positions after the opening (no five to make or stop,
no open three to answer, no VCF for either side), labels each with the game's result for the
side to move, and fits the free evaluation weights (the others held) by logistic regression
of the result on the static evaluation, for each attack factor given (the evaluation is
``attack * own - opponent's``). Prints, per attack factor, the held-out log-loss of the
current and the fitted weights (games split ``--splits`` times, ``--holdout`` of them held
out), the weights fitted on all positions, and the agent spec that plays them
(``pvs+vct:ew_...``: the evaluation's weights only, the move ordering's kept).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from gorilla.gomoku import rules as R
from gorilla.gomoku import texel as T
from gorilla.gomoku.agents import WEIGHT_KEYS

DEFAULT_FREE = "w_one,w_two_b,w_two,w_three_b,w_three,w_four,b_three_three"


def positions(folders: list[Path], cache: Path | None) -> T.Positions:
    """The quiet positions of the folders' games (from the cache when it exists)."""
    if cache and cache.exists():
        d = np.load(cache)
        return T.Positions(d["own"], d["opp"], d["y"], d["game"], d["ply"])
    recs = T.load_records(folders)
    print(f"{len(recs)} distinct games", file=sys.stderr)
    pos = T.collect(recs)
    if cache:
        np.savez(cache, own=pos.own, opp=pos.opp, y=pos.y, game=pos.game, ply=pos.ply)
    return pos


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folders", nargs="*", type=Path, help="folders of SGF game records")
    ap.add_argument(
        "--cache", type=Path, default=None, help="positions file (.npz): read if it exists, else written"
    )
    ap.add_argument("--free", default=DEFAULT_FREE, help=f"weights to fit (default {DEFAULT_FREE})")
    ap.add_argument("--attack", type=float, nargs="+", default=[1.25], help="attack factors (default 1.25)")
    ap.add_argument("--reg", type=float, default=1e-3, help="L2 pull towards the current weights")
    ap.add_argument("--holdout", type=float, default=0.25, help="share of games held out")
    ap.add_argument("--splits", type=int, default=3, help="train/test splits (seeds 0..)")
    a = ap.parse_args(argv)

    pos = positions(a.folders, a.cache)
    games = len(np.unique(pos.game))
    print(f"{len(pos.y)} quiet positions of {games} games, side to move won {pos.y.mean():.3f}")
    w0 = R.default_weights()[R.NWEIGHTS : R.W_SPLIT].astype(np.float64)  # the evaluation's weights
    names = [k.strip() for k in a.free.split(",") if k.strip()]
    free = [WEIGHT_KEYS[k] for k in names]
    for attack in a.attack:
        k, b = T.fit_scale(pos, w0, attack)
        cur, new = [], []
        for seed in range(a.splits):
            tr, te = T.split(pos, a.holdout, seed)
            kt, bt = T.fit_scale(tr, w0, attack)
            cur.append(T.log_loss(kt * T.evaluation(te, w0, attack) + bt, te.y))
            w, bf = T.fit(tr, w0, free, attack, k, a.reg)
            new.append(T.log_loss(k * T.evaluation(te, w, attack) + bf, te.y))
        w, bf = T.fit(pos, w0, free, attack, k, a.reg)
        loss = f"held-out log-loss current {np.mean(cur):.4f}, fitted {np.mean(new):.4f}"
        print(f"attack {attack}: K {k:.6f}; {loss}")
        print(f"  side-to-move term: current {b:+.3f}, fitted {bf:+.3f}")
        for name, i in zip(names, free, strict=True):
            print(f"  {name:16} {w0[i]:8.0f} -> {w[i]:8.1f}")
        spec = ",".join(f"e{name}={int(round(w[i]))}" for name, i in zip(names, free, strict=True))
        print(f"  agent: pvs+vct:{spec}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
