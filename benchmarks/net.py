"""The net's speed: evaluations per second of the numpy forward pass, beside KataGo's own.

For each net (``--nets``, default the shipped one; a bare file name is looked for in
``assets/net/``, ``tests/data/net/`` and the project's ``shared/nets/``), 9x9 and 19x19,
batch 1 and a bigger batch (``--batch``, default 16), 1 and 2 threads: positions of a
seeded random game are encoded once, then ``Net.evaluate_inputs`` (the layers and the
post-processing, one symmetry) runs on them for ``--seconds`` per run. ``T`` threads are T
Python threads each evaluating its own batches, each with one BLAS thread, as a search with
T threads uses the net; every measurement runs in a fresh process with
``OPENBLAS_NUM_THREADS=1`` (and ``OMP_NUM_THREADS``, ``MKL_NUM_THREADS``). Also: the time to
load the net, and the rate of whole ``Net.evaluate(games)`` calls (the input features
included) for batch 1.

With ``--katago PATH`` KataGo's own rates are measured side by side: each of the
``--repeats`` rounds runs ours and then KataGo's, and the medians are printed.
KataGo's are ``kata-raw-nn 0`` over GTP timed for one thread (round trip and printing
included; its evaluator skips its cache for this command) and ``katago benchmark -model NET
-config CFG -v V -n 2 -t T -boardsize N`` for its nnEvals/s (``--katago-visits`` V, default
24: KataGo refuses fewer than 2; a search of T threads batches their evaluations). On a
shared machine wall-clock rates move with the load (``uptime``'s, printed with each row):
every rate also comes per second of the process's CPU time (KataGo's from its process's
``/proc`` counters or rusage), which moves much less; the ratios are given on both.

The FLOPs of one evaluation (``Forward.flops``: a multiply-add is two, a 3x3 convolution
counted as the direct one) times the CPU-second rate give the GFLOP/s reached, as a share of
the machine's single-thread sgemm peak, measured in the same run: the best of a few
2048x2048 float32 matrix products in numpy on one BLAS thread.

    python benchmarks/net.py [--nets FILE...] [--katago PATH] [--config CFG] [--sizes 9 19]
        [--batch 16] [--threads 1 2] [--seconds 3] [--repeats 3] [--katago-visits 24]
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


def katago_benchmark(
    katago: str, net: str, config: str, size: int, threads: int, visits: int = 24
) -> tuple[float, float]:
    """KataGo's ``benchmark`` with ``threads`` search threads (``visits`` a search, 2 positions):
    (its nnEvals/s, its evaluations per second of its CPU time, start-up included)."""
    cmd = [katago, "benchmark", "-model", net, "-config", config, "-v", str(visits), "-n", "2"]
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


def _proc_cpu(pid: int) -> float:
    """A process's CPU seconds (user + system, all its threads) from ``/proc``."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def katago_raw_nn_rate(katago: str, net: str, config: str, size: int, seconds: float) -> tuple[float, float]:
    """``kata-raw-nn 0`` answers per second over GTP, on a middle-game position: (wall, per
    CPU-second of KataGo's process)."""
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
        n, t0, c0 = 0, time.perf_counter(), _proc_cpu(kata.proc.pid)
        while time.perf_counter() - t0 < seconds or n < 2:
            kata.send("kata-raw-nn 0")
            n += 1
        wall, cpu = time.perf_counter() - t0, _proc_cpu(kata.proc.pid) - c0
        return n / wall, n / max(cpu, 1e-9)
    finally:
        kata.close()


def sgemm_peak() -> float:
    """The machine's single-thread float32 matrix product rate (GFLOP/s), in a fresh process."""
    code = (
        "import numpy as np, time\n"
        "a = np.random.rand(2048, 2048).astype(np.float32); b = a.copy(); a @ b; best = 0.0\n"
        "for _ in range(5):\n"
        "    t = time.process_time(); a @ b; best = max(best, 2 * 2048**3 / (time.process_time() - t))\n"
        "print(best / 1e9)\n"
    )
    env = dict(os.environ, **ENV_1)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    return float(out.stdout.strip())


def find_net(name: str) -> str:
    """A net's path: the name itself, or a file of that name in the known folders."""
    p = Path(name)
    if p.exists():
        return str(p)
    from gorilla.ai.net import default_net_path

    folders = [default_net_path().parent, HERE.parent / "tests" / "data" / "net"]
    folders += [d / "shared" / "nets" for d in HERE.parents]
    for d in folders:
        if (d / name).is_file():
            return str(d / name)
    raise SystemExit(f"{name}: no such net (looked in assets/net, tests/data/net, shared/nets)")


def _median(xs: list[float]) -> float:
    return sorted(xs)[len(xs) // 2]


def _uptime_load() -> str:
    return f"{os.getloadavg()[0]:.1f}"


def _ours(net: str, size: int, batch: int, threads: int, ns) -> tuple[float, float, float]:
    """The medians of ``--repeats`` runs: (wall rate, CPU rate, load time)."""
    runs = [measure(net, size, batch, threads, ns.seconds) for _ in range(ns.repeats)]
    return (
        _median([r["rate"] for r in runs]),
        _median([r["cpu_rate"] for r in runs]),
        _median([r["load"] for r in runs]),
    )


def bench_net(net: str, ns, config: str | None, peak: float) -> None:
    """Every row of one net: ours, then KataGo's beside it."""
    from gorilla.ai.net import load_net

    fw = load_net(net).forward
    print(f"\nnet {Path(net).name} ({fw.model.describe()})", flush=True)
    for size in ns.sizes:
        flops = fw.flops(size, size)
        print(f"{size}x{size}: {flops / 1e9:.3f} GFLOP per evaluation", flush=True)
        for threads in ns.threads:
            for batch in (1, ns.batch):
                wall, cpu, load = _ours(net, size, batch, threads, ns)
                share = flops * cpu / 1e9 / peak
                print(
                    f"  ours   batch {batch:3d} threads {threads}: {wall:8.2f} evals/s, {cpu:8.2f} per CPU-s "
                    f"({flops * cpu / 1e9:5.1f} GFLOP/s, {share:4.0%} of peak); load {_uptime_load()}",
                    flush=True,
                )
            if ns.katago and threads == 1:
                kr = [katago_raw_nn_rate(ns.katago, net, config, size, ns.seconds) for _ in range(ns.repeats)]
                kw, kc = _median([r[0] for r in kr]), _median([r[1] for r in kr])
                w1, c1, _ = _ours(net, size, 1, 1, ns)
                print(
                    f"  KataGo kata-raw-nn          : {kw:8.2f} evals/s, {kc:8.2f} per CPU-s "
                    f"({flops * kc / 1e9:5.1f} GFLOP/s); ours batch 1 again {w1:.2f}, {c1:.2f}: "
                    f"{w1 / kw:.2f}x wall, {c1 / kc:.2f}x per CPU-s; load {_uptime_load()}",
                    flush=True,
                )
            if ns.katago:
                kb = [katago_benchmark(ns.katago, net, config, size, threads, ns.katago_visits)]
                kb += [katago_benchmark(ns.katago, net, config, size, threads, ns.katago_visits)]
                bw, bc = _median([r[0] for r in kb]), _median([r[1] for r in kb])
                print(
                    f"  KataGo benchmark -t {threads}       : {bw:8.2f} nnEvals/s, {bc:8.2f} per CPU-s "
                    f"(start-up included); load {_uptime_load()}",
                    flush=True,
                )
        for threads in ns.threads:
            runs = [measure(net, size, 1, threads, ns.seconds, "evaluate") for _ in range(ns.repeats)]
            print(
                f"  ours Net.evaluate(games) batch 1 threads {threads}: "
                f"{_median([r['rate'] for r in runs]):8.2f} evals/s",
                flush=True,
            )


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its table; returns the exit status."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--nets", nargs="+", default=None, help="the nets (default: the shipped one)")
    ap.add_argument("--katago", default=None, help="a KataGo binary: its rates beside ours")
    ap.add_argument("--config", default=None, help="KataGo's GTP config (default: a minimal one)")
    ap.add_argument("--sizes", type=int, nargs="+", default=[9, 19])
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--katago-visits", type=int, default=24)
    ap.add_argument("--worker", default=None, help=argparse.SUPPRESS)
    ns = ap.parse_args(argv)
    if ns.worker:
        print(json.dumps(worker(json.loads(ns.worker))))
        return 0
    from gorilla.ai.net import default_net_path

    nets = [find_net(n) for n in ns.nets] if ns.nets else [str(default_net_path())]
    tmp = tempfile.TemporaryDirectory()
    config = ns.config
    if ns.katago and config is None:
        sys.path.insert(0, str(HERE))
        from katago_reference import CONFIG

        config = str(Path(tmp.name) / "gtp.cfg")
        Path(config).write_text(CONFIG.format(log=Path(tmp.name) / "logs"))
    peak = sgemm_peak()
    print(
        f"single-thread sgemm peak {peak:.1f} GFLOP/s (2048^3, numpy, one BLAS thread); medians of "
        f"{ns.repeats} runs of {ns.seconds:g} s; one BLAS thread a thread; load {_uptime_load()}",
        flush=True,
    )
    for net in nets:
        bench_net(net, ns, config, peak)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
