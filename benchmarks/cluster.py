"""Games per minute of one match with -j processes and on a local Ray cluster, and Ray's start-up.

    python benchmarks/cluster.py [--games 20] [--workers 2] [--size 7] [--players SPEC SPEC] [--repeats 1]

For each repeat it plays the same seeded match twice, interleaved: with
``--workers`` processes (``-j``) and on a local Ray instance with as many
worker actors. The local Ray instance is started (and stopped) once per
repeat and timed on its own; a match's time runs from the call to the last
game saved, so it includes starting the processes or actors and their
warm-up (loading the compiled kernels). Prints the medians.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from gorilla.ai.warmup import groups_for, warm
from gorilla.match.cluster import Cluster
from gorilla.match.runner import MatchConfig, run_match


def timed_match(cfg: MatchConfig, games: object = None) -> float:
    """Seconds for run_match(cfg) (its progress lines dropped)."""
    import io

    t0 = time.perf_counter()
    summary = run_match(cfg, log=io.StringIO(), games=games)  # type: ignore[arg-type]
    assert summary["games"] == cfg.games
    return time.perf_counter() - t0


def main() -> None:
    """Run the benchmark and print its lines."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--size", type=int, default=7)
    p.add_argument("--players", nargs=2, default=["mcts:playouts=300", "mcts:playouts=300"])
    p.add_argument("--repeats", type=int, default=1)
    a = p.parse_args()
    warm(groups_for(a.players, extra=("ownership",)))
    starts, local, cluster = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(a.repeats):
            cfg = MatchConfig(list(a.players), games=a.games, size=a.size, openings=2, seed=r, jobs=a.workers)
            cfg.out = str(Path(tmp) / f"j{r}")
            local.append(timed_match(cfg))
            t0 = time.perf_counter()
            with Cluster(None, num_cpus=a.workers) as c:
                starts.append(time.perf_counter() - t0)
                cfg.out, cfg.cluster = str(Path(tmp) / f"c{r}"), ""
                cluster.append(timed_match(cfg, c.games))
    med = statistics.median
    n, w = a.games, a.workers
    print(f"match: {a.players[0]} vs {a.players[1]}, {n} games on {a.size}x{a.size}, {w} workers")
    print(f"-j {w}:               {60 * n / med(local):6.1f} games/min ({med(local):.1f} s)")
    print(f"--cluster, {w} actors: {60 * n / med(cluster):6.1f} games/min ({med(cluster):.1f} s)")
    print(f"local Ray start-up:   {med(starts):6.1f} s")


if __name__ == "__main__":
    main()
