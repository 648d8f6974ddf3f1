"""The net's speed: evaluations per second of the numpy forward pass, beside KataGo's own.

For 9x9 and 19x19, batch 1 and a bigger batch (``--batch``, default 16), 1 and 2 threads:
positions of a seeded random game are encoded once, then ``Net.evaluate_inputs`` (the
layers and the post-processing, one symmetry) runs on them for ``--seconds`` per run;
``--repeats`` runs, the best counts (the machine may be shared). ``T`` threads are T
Python threads each evaluating its own batches, each with one BLAS thread, as a search
with T threads uses the net; every measurement runs in a fresh process with
``OPENBLAS_NUM_THREADS=1`` (and ``OMP_NUM_THREADS``, ``MKL_NUM_THREADS``). Also: the
time to load the net, and the rate of whole ``Net.evaluate(games)`` calls (the input
features included) for batch 1.

With ``--katago PATH`` KataGo's own rates come in the same run, measured between ours:
``katago benchmark -model NET -config CFG -v 100 -n 5 -t T -boardsize N`` (its nnEvals/s;
KataGo refuses ``-v 1``; its searches evaluate one position at a time with one thread), and
``kata-raw-nn 0`` over GTP timed for batch 1 (round trip and printing included). On a shared
machine wall-clock rates move with the load: every rate also comes per second of the
process's CPU time (KataGo's from its process's rusage), which moves much less.

    python benchmarks/net.py [--net FILE] [--katago PATH] [--config CFG] [--sizes 9 19]
        [--batch 16] [--threads 1 2] [--seconds 3] [--repeats 3]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ENV_1 = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


def _positions(size: int, count: int, seed: int):
    import random

    from gorilla.rules.game import Game

    rng = random.Random(seed)
    games = []
    game = Game.new(size, "chinese")
    while len(games) < count:
        moves = game.legal_moves(reasonable=True)
        if not moves or game.move_number > size * size * 0.7:
            game = Game.new(size, "chinese")
            continue
        game.play(rng.choice(moves))
        games.append(game.copy())
    return games


def worker(args: dict) -> dict:
    """One measurement, in this process: evaluations per second (and the load time)."""
    import numpy as np
    from common import run_threads

    from gorilla.ai.net import load_net
    from gorilla.ai.net.inputs import encode

    t0 = time.perf_counter()
    net = load_net(args["net"])
    load = time.perf_counter() - t0
    size, batch, threads, seconds = args["size"], args["batch"], args["threads"], args["seconds"]
    games = _positions(size, max(batch * threads, 8), 7)
    enc = [encode(g) for g in games]
    spatial = np.stack([s for s, _ in enc])
    glob = np.stack([g for _, g in enc])
    if args["mode"] == "evaluate":

        def step(k: int) -> None:
            net.evaluate(games[k % len(games) : k % len(games) + batch])

    else:

        def step(k: int) -> None:
            j = (k * batch) % (len(games) - batch + 1)
            net.evaluate_inputs(spatial[j : j + batch], glob[j : j + batch], 0)

    step(0)  # compile and warm
    counts = [0] * threads
    stop = time.perf_counter() + seconds

    def run(i: int) -> None:
        k = i
        while time.perf_counter() < stop:
            step(k)
            k += threads
            counts[i] += batch

    elapsed, cpu = run_threads(run, threads)
    return {"rate": sum(counts) / elapsed, "cpu_rate": sum(counts) / cpu, "load": load}


def measure(net: str, size: int, batch: int, threads: int, seconds: float, mode: str = "forward") -> dict:
    """:func:`worker` in a fresh process with one BLAS thread."""
    args = {"net": net, "size": size, "batch": batch, "threads": threads, "seconds": seconds, "mode": mode}
    env = dict(os.environ, **ENV_1)
    out = subprocess.run(
        [sys.executable, __file__, "--worker", json.dumps(args)],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    if out.returncode != 0:
        raise RuntimeError(out.stderr.strip().splitlines()[-1] if out.stderr.strip() else "worker failed")
    return json.loads(out.stdout.strip().splitlines()[-1])


# --- KataGo ---------------------------------------------------------------------------------


def katago_benchmark(katago: str, net: str, config: str, size: int, threads: int) -> tuple[float, float]:
    """KataGo's ``benchmark`` with ``threads`` search threads (100 visits a search, 5 positions):
    (its nnEvals/s, its evaluations per second of its CPU time, start-up included)."""
    cmd = [katago, "benchmark", "-model", net, "-config", config, "-v", "100", "-n", "5"]
    cmd += ["-t", str(threads), "-boardsize", str(size)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    text = out.stdout + out.stderr
    m = re.search(r"nnEvals/s = ([\d.]+).*?\(([\d.]+) secs\)", text)
    if not m:
        raise RuntimeError("no nnEvals/s in KataGo's benchmark output:\n" + text[-2000:])
    rate, secs = float(m.group(1)), float(m.group(2))
    return rate, rate * secs / cpu


def katago_raw_nn_rate(katago: str, net: str, config: str, size: int, seconds: float) -> float:
    """``kata-raw-nn 0`` answers per second over GTP, on a middle-game position."""
    sys.path.insert(0, str(HERE))
    from katago_reference import KataGo

    from gorilla.rules.coords import format_vertex

    game = _positions(size, size * size // 3, 3)[-1]
    kata = KataGo(katago, net, config)
    try:
        kata.send(f"boardsize {size}")
        kata.send("clear_board")
        for m in game.moves:
            kata.send(f"play {'B' if m.color == 1 else 'W'} {format_vertex(m.point, size)}")
        kata.send("kata-raw-nn 0")
        n, t0 = 0, time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            kata.send("kata-raw-nn 0")
            n += 1
        return n / (time.perf_counter() - t0)
    finally:
        kata.close()


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its table; returns the exit status."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--net", default=None, help="the net (default: the shipped one)")
    ap.add_argument("--katago", default=None, help="a KataGo binary: its rates beside ours")
    ap.add_argument("--config", default=None, help="KataGo's GTP config (default: a minimal one)")
    ap.add_argument("--sizes", type=int, nargs="+", default=[9, 19])
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--worker", default=None, help=argparse.SUPPRESS)
    ns = ap.parse_args(argv)
    if ns.worker:
        print(json.dumps(worker(json.loads(ns.worker))))
        return 0
    from gorilla.ai.net import default_net_path

    net = str(ns.net or default_net_path())
    tmp = tempfile.TemporaryDirectory()
    config = ns.config
    if ns.katago and config is None:
        sys.path.insert(0, str(HERE))
        from katago_reference import CONFIG

        config = str(Path(tmp.name) / "gtp.cfg")
        Path(config).write_text(CONFIG.format(log=Path(tmp.name) / "logs"))

    print(f"net {Path(net).name}; {ns.repeats} runs of {ns.seconds:g} s, the best; one BLAS thread a thread")
    loads = []
    rows = []
    for size in ns.sizes:
        for batch in (1, ns.batch):
            for threads in ns.threads:
                best, cpu_best = 0.0, 0.0
                for _ in range(ns.repeats):
                    r = measure(net, size, batch, threads, ns.seconds)
                    best, cpu_best = max(best, r["rate"]), max(cpu_best, r["cpu_rate"])
                    loads.append(r["load"])
                rows.append((size, batch, threads, "forward", best, cpu_best))
                print(
                    f"{size}x{size} batch {batch:3d} threads {threads}: {best:8.1f} evals/s "
                    f"({cpu_best:.1f} per CPU-second)",
                    flush=True,
                )
        for threads in ns.threads:
            runs = [measure(net, size, 1, threads, ns.seconds, "evaluate") for _ in range(ns.repeats)]
            best = max(r["rate"] for r in runs)
            rows.append((size, 1, threads, "evaluate(games)", best, max(r["cpu_rate"] for r in runs)))
            print(f"{size}x{size} evaluate(games) batch 1 threads {threads}: {best:8.1f} evals/s", flush=True)
    print(f"load time of the net: {min(loads):.3f} s (best), {sorted(loads)[len(loads) // 2]:.3f} s (median)")

    if ns.katago:
        for size in ns.sizes:
            for t in ns.threads:
                runs = [katago_benchmark(ns.katago, net, config, size, t) for _ in range(ns.repeats)]
                rate, cpu_rate = max(r[0] for r in runs), max(r[1] for r in runs)
                ours = max(r for r in rows if r[:4] == (size, 1, t, "forward"))
                print(
                    f"KataGo {size}x{size} benchmark -t {t}: {rate:8.1f} evals/s ({cpu_rate:.1f} per CPU s); "
                    f"ours batch 1: {ours[4]:.1f} ({ours[5]:.1f}) = {ours[4] / rate:.2f}x "
                    f"({ours[5] / cpu_rate:.2f}x per CPU-second)",
                    flush=True,
                )
            raw = max(katago_raw_nn_rate(ns.katago, net, config, size, ns.seconds) for _ in range(ns.repeats))
            print(f"KataGo {size}x{size} kata-raw-nn 0 over GTP: {raw:8.1f} answers/s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
