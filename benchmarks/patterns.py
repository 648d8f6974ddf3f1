"""Pattern playouts: speed (playouts per second) and strength (MCTS with one database vs another).

    python benchmarks/patterns.py speed [--db mogo,montegnu,uniform] [--size 9] [--seconds 3] [--gnugo]
    python benchmarks/patterns.py strength [--a mogo] [--b uniform] [--games 10] [--playouts 300] [-j 1]

``speed`` runs the pattern playout kernel from the empty board in a numba loop
(one thread, many playouts per call) and prints playouts per second by the
wall clock and by this process's CPU time (the machine is shared, so CPU time
is the fairer number), next to Gorilla's light and heavy playouts
(``--repeats N``: the median of N timed runs per row). With
``--gnugo`` it also times GNU Go 3.8's own Monte-Carlo mode: one ``genmove``
on 9x9 with ``--mc-games-per-level N --level 1`` (N simulations) for two N,
so that the difference removes GNU Go's start-up time (after two moves: on
the empty board GNU Go answers without simulating).

``strength`` plays ``mcts:patterns=A`` against ``mcts:patterns=B`` at equal
playouts per move with ``gorilla match`` (colours alternate) and prints its
summary line; the SGFs and results are kept in ``--out``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time

import numpy as np
from common import add_timing, gnugo_rate, measure, parser
from numba import njit
from playouts import many_light

from gorilla.ai.playout import catalog as PT
from gorilla.ai.playout.heavy import heavy_playout
from gorilla.ai.playout.pat3 import PAT3
from gorilla.ai.playout.pattern import MAX_MOVES, new_workspace, run_pattern_playout
from gorilla.rules import board as K


@njit(cache=True, nogil=True)
def _many_pattern(b0, st0, zob, n, table, cidx, ws, seed) -> int:
    K.seed_rng(seed)
    b = b0.copy()
    st = st0.copy()
    moves = np.empty(0, dtype=np.int32)
    total = 0
    for _ in range(n):
        b[:] = b0
        st[:] = st0
        total += run_pattern_playout(b, st, zob, MAX_MOVES, moves, table, cidx, ws)
    return total


@njit(cache=True, nogil=True)
def _many_heavy(b0, st0, zob, n, pat3, seed) -> int:
    K.seed_rng(seed)
    b = b0.copy()
    st = st0.copy()
    moves = np.zeros(MAX_MOVES + 8, dtype=np.int32)
    cand = np.zeros(64, dtype=np.int64)
    total = 0
    for _ in range(n):
        b[:] = b0
        st[:] = st0
        total += heavy_playout(b, st, zob, MAX_MOVES, moves, pat3, cand)
    return total


def _rate(run, seconds: float, repeats: int = 1) -> tuple[float, float, float]:
    """(playouts/s wall, playouts/s CPU, moves per playout) for run(n, seed) -> total moves."""
    chunk = 200
    r = measure(lambda i: (chunk, run(chunk, 7 + i)), seconds, repeats, warmup=lambda: run(20, 1))
    return r.rate, r.cpu_rate, r.per_unit


def speed(args: argparse.Namespace) -> None:
    size = args.size
    b0, st0 = K.new_board(size, False)
    ws = new_workspace()
    print(f"{size}x{size}, one thread, from the empty board ({args.seconds:g} s each)")
    rows = []
    for name in args.db.split(","):
        cp = PT.resolve(name)
        rows.append(
            (
                f"pattern playout ({name})",
                lambda n, s, cp=cp: _many_pattern(b0, st0, K.ZOBRIST, n, cp.table, cp.cidx, ws, s),
            )
        )
    rows += [
        ("light playout (uniform, cyclic walk)", lambda n, s: many_light(b0, st0, K.ZOBRIST, n, s)),
        ("heavy playout (the MCTS default)", lambda n, s: _many_heavy(b0, st0, K.ZOBRIST, n, PAT3, s)),
    ]
    for label, run in rows:
        wall, cpu, mpp = _rate(run, args.seconds, args.repeats)
        print(f"  {label:38s} {wall:9.0f} playouts/s wall  {cpu:9.0f} /s CPU  ({mpp:.1f} moves/playout)")
    if args.gnugo:
        for pat in ("mogo_classic", "montegnu_classic", "uniform"):
            r = gnugo_rate(pat, size)
            if r is None:
                print("  GNU Go not found (apt-get install gnugo)")
                break
            print(
                f"  GNU Go 3.8 --monte-carlo ({pat:16s}) {r:9.0f} playouts/s wall (genmove, start-up removed)"
            )
    print("targets: GNU Go's Monte-Carlo mode ~22,000/s, Pachi's heavy playouts ~13,000/s")


def strength(args: argparse.Namespace) -> int:
    out = args.out or tempfile.mkdtemp(prefix="patterns-strength-")
    players = [f"mcts:playouts={args.playouts},patterns={db}" for db in (args.a, args.b)]
    cmd = [sys.executable, "-m", "gorilla", "match", *players, "-n", str(args.games), "--size", "9",
           "-j", str(args.jobs), "--seed", str(args.seed), "--out", out]  # fmt: skip
    print(" ".join(cmd), flush=True)
    t0 = time.perf_counter()
    r = subprocess.run(cmd)
    print(f"({time.perf_counter() - t0:.0f} s; games and summary.json in {out})")
    return r.returncode


def main() -> int:
    ap = parser(__doc__)
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("speed", help="playouts per second")
    s.add_argument(
        "--db", default="mogo,montegnu,uniform", help="databases (names or files), comma-separated"
    )
    s.add_argument("--size", type=int, default=9)
    add_timing(s, 3.0)
    s.add_argument("--gnugo", action="store_true", help="also time GNU Go's Monte-Carlo mode")
    t = sub.add_parser("strength", help="mcts:patterns=A vs mcts:patterns=B at equal playouts")
    t.add_argument("--a", default="mogo")
    t.add_argument("--b", default="uniform")
    t.add_argument("--games", type=int, default=10)
    t.add_argument("--playouts", type=int, default=300)
    t.add_argument("--jobs", "-j", type=int, default=1)
    t.add_argument("--seed", type=int, default=1)
    t.add_argument("--out", default=None)
    args = ap.parse_args()
    if args.cmd == "speed":
        speed(args)
        return 0
    return strength(args)


if __name__ == "__main__":
    raise SystemExit(main())
