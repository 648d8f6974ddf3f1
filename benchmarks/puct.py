"""The net's search speed: visits per second of the ``net`` agent, beside KataGo's own search.

For each board size and number of search threads, the ``net`` agent searches ``--visits``
visits from a fresh tree on ``--positions`` positions of a seeded random game (the same
positions as ``benchmarks/net.py``); the median visits/s over the positions is printed.
Every measurement runs in a fresh process with one BLAS thread per search thread
(``OPENBLAS_NUM_THREADS=1``), as the search uses the net.

With ``--katago PATH --config CFG``, KataGo's own ``benchmark`` runs in the same session on
the same net: ``katago benchmark -model NET -config CFG -v VISITS -t 1,2 -boardsize N``
(its visits/s), and the ratio ours / KataGo's is printed per size and thread count.

    python benchmarks/puct.py [--sizes 9 19] [--threads 1 2] [--visits 200] [--positions 5]
        [--batch 4] [--katago PATH --config CFG]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from net import _positions  # noqa: E402  (the same seeded positions as the net's benchmark)

ENV_1 = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


def worker(args: dict) -> dict:
    """One measurement in this process: visits/s on each position."""
    from gorilla.ai.agent import Budget
    from gorilla.ai.puct.agent import NetAgent

    games = _positions(args["size"], args["positions"] * 7, seed=11)[::7][: args["positions"]]
    agent = NetAgent(threads=args["threads"], batch=args["batch"], seed=1, resign=0.0)
    agent.select_move(games[0], Budget(playouts=16))  # compile and load before timing
    rates = []
    for g in games:
        agent.new_game()
        t0 = time.perf_counter()
        agent.select_move(g, Budget(playouts=args["visits"]))
        rates.append(agent.last_visits / (time.perf_counter() - t0))
    agent.close()
    return {"rates": rates}


def measure(size: int, threads: int, ns: argparse.Namespace) -> list[float]:
    """visits/s per position, measured in a fresh process."""
    args = {"size": size, "threads": threads, "visits": ns.visits, "positions": ns.positions}
    args["batch"] = ns.batch
    env = dict(os.environ, **ENV_1)
    out = subprocess.run(
        [sys.executable, __file__, "--worker", json.dumps(args)], capture_output=True, text=True, env=env
    )
    if out.returncode != 0:
        raise RuntimeError(out.stderr[-2000:])
    return json.loads(out.stdout.strip().splitlines()[-1])["rates"]


def katago_visits(ns: argparse.Namespace, size: int) -> dict[int, float]:
    """KataGo's benchmark visits/s per number of search threads."""
    from gorilla.ai.net import default_net_path

    cmd = [ns.katago, "benchmark", "-model", str(default_net_path()), "-config", ns.config]
    cmd += ["-v", str(ns.visits), "-t", ",".join(map(str, ns.threads)), "-boardsize", str(size)]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=1800)
    text = out.stdout + out.stderr
    rates = {
        int(m.group(1)): float(m.group(2))
        for m in re.finditer(r"numSearchThreads\s*=\s*(\d+):.*?visits/s\s*=\s*([\d.]+)", text)
    }
    if not rates:
        raise RuntimeError("no visits/s in KataGo's benchmark output:\n" + text[-2000:])
    return rates


def main() -> int:
    """Print the table; the exit status."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--worker", help=argparse.SUPPRESS)
    p.add_argument("--sizes", type=int, nargs="+", default=[9, 19])
    p.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    p.add_argument("--visits", type=int, default=200)
    p.add_argument("--positions", type=int, default=5)
    p.add_argument("--batch", type=int, default=4)
    p.add_argument("--katago", help="a KataGo binary (Eigen backend) to measure beside ours")
    p.add_argument("--config", help="its GTP config (numSearchThreads is set by the benchmark)")
    ns = p.parse_args()
    if ns.worker:
        print(json.dumps(worker(json.loads(ns.worker))))
        return 0
    if ns.katago and not ns.config:
        p.error("--katago needs --config")
    print(f"net search, {ns.visits} visits from a fresh tree, batch {ns.batch}, {ns.positions} positions")
    for size in ns.sizes:
        ours = {t: statistics.median(measure(size, t, ns)) for t in ns.threads}
        theirs = katago_visits(ns, size) if ns.katago else {}
        for t in ns.threads:
            line = f"{size:2d}x{size:<2d} threads {t}: Gorilla {ours[t]:7.1f} visits/s"
            if t in theirs:
                line += f"   KataGo {theirs[t]:7.1f} visits/s   ratio {ours[t] / theirs[t]:.2f}"
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
