"""Start-up: the first AI move from an empty numba cache, per-unit compile times, and warm starts.

Each cold figure is the median of ``--repeats`` runs, each on a new empty cache folder
(``NUMBA_CACHE_DIR``), as after a fresh install:

* compile: ``python -m gorilla.ai.warmup`` over what ``gorilla gtp --ai AI`` compiles before
  its first command (``gorilla.gtp.main.first_groups``; AI is ``--ai``, default ``net``): seconds
  and CPU seconds per unit (a group, or a part of one that a helper process compiles at the same
  time, see gorilla.ai.warmup.PARTS), the units each process compiles, and the idle-machine
  estimate: the units' CPU seconds laid out on the two processes as they ran (on an idle
  2-core machine each process has a core, and CPU seconds are wall seconds);
* gtp: ``gorilla gtp --ai AI --time 1``, then ``boardsize N`` and ``genmove b``: seconds
  from the start to the move, and the CPU seconds of the process and its helper;
* window: ``gorilla --size 9 --white AI:time=1`` under X (DISPLAY, or Xvfb via xvfb-run):
  seconds to the first frame and until the kernel groups of its first AI move are ready.

Then the same with the cache warm. GORILLA_COMPILE_JOBS=1 compiles in one process (as before
the helper), for a before/after on one machine. The machine's load average is printed with
every line: on a shared machine the wall-clock figures stretch with it, CPU seconds much less.

``--ai gomoku`` times the compile of Gomoku's whole engine (every agent's kernels);
``--ai gomoku:AGENT`` that of one agent's kernels (what ``gorilla pbrain --agent AGENT``'s
first START, a match's first game and the window's first Gomoku game with that agent wait
for; a window's game between two humans waits for the rules alone, as ``gomoku:random``).
With ``gomoku:AGENT`` it also times the window's compile for a game of a human against
AGENT (``game_kinds.gomoku_compiler``, in a child process as in the window): the seconds
until the human can play (the rules are loaded; the game starts then) and until the AI can
(its parts loaded: before session 33 the game started only then).

    python benchmarks/startup.py [--ai net|mcts|gomoku|gomoku:AGENT] [--repeats 3] [--sizes 9 19]
        [--skip-window]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

AI = "net"  # the AI of the GTP engine and the window's White (--ai)


def gomoku() -> bool:
    """Whether --ai names Gomoku's engine (``gomoku``) or one of its agents (``gomoku:AGENT``)."""
    return AI == "gomoku" or AI.startswith("gomoku:")


def gtp_groups() -> list[str]:
    if gomoku():
        from gorilla.gomoku.agents import engine_groups  # registers Gomoku's groups

        return engine_groups(None if AI == "gomoku" else [AI.partition(":")[2]])
    from gorilla.gtp.main import first_groups

    return first_groups(AI)


def window_groups() -> list[str]:
    from gorilla.ai.warmup import groups_for

    return groups_for([AI])


def load() -> str:
    return f"load {os.getloadavg()[0]:.1f}"


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def compile_units(cache: Path, groups: list[str]) -> tuple[float, dict[str, tuple[float, float]]]:
    """(wall seconds, {unit: (seconds, CPU seconds)}) of ``python -m gorilla.ai.warmup``."""
    from gorilla.ai.warmup import import_args

    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    t = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-m", "gorilla.ai.warmup", *import_args(groups), *groups],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    took = time.perf_counter() - t
    units = {}
    for w in (ln.split() for ln in out.splitlines()):
        if w and w[0] == "done":
            units[w[1]] = (float(w[2]), float(w[3]) if len(w) > 3 else float("nan"))
    return took, units


def idle_estimate(groups: list[str], units: dict[str, tuple[float, float]]) -> tuple[float, list, list]:
    """(seconds, this process's units, the helper's) with each unit taking its CPU seconds and
    the split gorilla.ai.warmup.plan makes on an empty cache."""
    from gorilla.ai import warmup

    with tempfile.TemporaryDirectory() as empty:
        old = os.environ.get("NUMBA_CACHE_DIR")
        os.environ["NUMBA_CACHE_DIR"] = empty
        try:
            cold = warmup.units(groups)
            mine, theirs, _ = warmup.plan(cold)
        finally:
            if old is None:
                os.environ.pop("NUMBA_CACHE_DIR")
            else:
                os.environ["NUMBA_CACHE_DIR"] = old
    cpu = {u: units.get(u, (0.0, 0.0))[1] for u in cold}
    ready, t = {}, 0.0
    for u in mine:
        if any(p in theirs for p in warmup.PARTS.get(u, ())):
            continue
        t += cpu[u]
        ready[u] = t
    h = warmup.HELPER_START if theirs else 0.0
    for u in theirs:
        h += cpu[u]
        ready[u] = h
    for u in mine:
        if u not in ready:
            t = max([t] + [ready.get(p, 0.0) for p in warmup.PARTS.get(u, ())]) + cpu[u]
    return max(t, h), mine, theirs


def gtp_first_move(cache: Path, size: int) -> tuple[float, float, float, str, str]:
    """(seconds to the first genmove's answer, seconds of that genmove, CPU seconds of the
    process and its helper, the move, stderr)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "PYTHONUNBUFFERED": "1"}
    cpu0 = children_cpu()
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "gorilla", "gtp", "--ai", AI, "--time", "1"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )  # fmt: skip
    assert proc.stdin and proc.stdout
    proc.stdin.write(f"1 boardsize {size}\n2 clear_board\n")
    proc.stdin.flush()
    for _ in range(4):
        proc.stdout.readline()
    t1 = time.perf_counter()
    proc.stdin.write("3 genmove b\n")
    proc.stdin.flush()
    answer = proc.stdout.readline()
    done = time.perf_counter()
    _, err = proc.communicate("quit\n", timeout=120)
    move = answer.split()[-1] if answer.startswith("=3") else f"?{answer.strip()}"
    return done - t0, done - t1, children_cpu() - cpu0, move, err.strip().replace("\n", " | ")


def window(cache: Path) -> tuple[float, float] | None:
    """(seconds to the first frame, seconds until every group is ready), or None without X."""
    prefix: list[str] = []
    if not os.environ.get("DISPLAY"):
        if not shutil.which("xvfb-run"):
            return None
        prefix = ["xvfb-run", "-a", "-s", "-screen 0 1280x900x24"]
    frames = cache / "frames.txt"
    frames.unlink(missing_ok=True)
    env = {
        **os.environ,
        "NUMBA_CACHE_DIR": str(cache),
        "GORILLA_FRAME_LOG": str(frames),
        "GORILLA_AUTOSAVE": str(cache / "autosave.sgf"),
        "GORILLA_AUDIO": "silent",
    }
    t0 = time.time()
    proc = subprocess.Popen(
        [*prefix, sys.executable, "-m", "gorilla", "--size", "9", "--white", f"{AI}:time=1"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, start_new_session=True,
    )  # fmt: skip
    first = ready = None
    try:
        while time.time() - t0 < 900 and proc.poll() is None:
            if first is None and frames.exists() and frames.read_text().strip():
                first = float(frames.read_text().split()[0]) - t0
            if first is not None and all((cache / f"warm-{g}").exists() for g in window_groups()):
                ready = time.time() - t0
                break
            time.sleep(0.1)
    finally:
        os.killpg(proc.pid, signal.SIGTERM)  # xvfb-run and the app under it
        proc.wait(10)
    return (first, ready) if first is not None and ready is not None else None


GAME = """
import sys, time
t0 = time.perf_counter()
from gorilla.app.game_kinds import gomoku_compiler, rules_ready
c = gomoku_compiler(["human", sys.argv[1]])
assert c is not None, "the cache is not empty"
while not rules_ready(c):
    time.sleep(0.02)
rules = time.perf_counter() - t0
c.wait()
print(rules, time.perf_counter() - t0, c.error or "")
"""


def gomoku_game(cache: Path, agent: str) -> tuple[float, float]:
    """(seconds until a human can play, until the AI can) in a window's game of a human
    against agent on an empty cache: the window's compiler, in a process of its own."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    out = subprocess.run(
        [sys.executable, "-c", GAME, agent], env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    if len(out) > 2:
        raise SystemExit(f"the compile failed: {' '.join(out[2:])}")
    return float(out[0]), float(out[1])


def median(xs: list[float]) -> str:
    return f"{statistics.median(xs):6.1f}" + (
        f" (of {', '.join(f'{x:.1f}' for x in xs)})" if len(xs) > 1 else ""
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--ai",
        default="net",
        help="the AI (default net; mcts for the classical search; gomoku: the compile of its engine"
        " only; gomoku:AGENT that of one Gomoku agent's kernels)",
    )
    ap.add_argument("--repeats", type=int, default=3, help="cold runs per figure (median; default 3)")
    ap.add_argument("--sizes", type=int, nargs="+", default=[9, 19], help="board sizes of the GTP move")
    ap.add_argument("--skip-window", action="store_true", help="do not time the window")
    ap.add_argument("--skip-compile", action="store_true", help="do not time the compile per unit")
    args = ap.parse_args()
    global AI
    AI = args.ai
    if gomoku():  # the engine's compile (what pbrain's START and the window's Gomoku wait for)
        args.sizes, args.skip_window = [], True
    first = gtp_groups()
    jobs = os.environ.get("GORILLA_COMPILE_JOBS", "default")
    print(f"machine: {os.cpu_count()} cores, {load()}; GORILLA_COMPILE_JOBS={jobs}", flush=True)
    with tempfile.TemporaryDirectory(prefix="gorilla-startup-") as tmp:
        cache = Path(tmp) / "cache"

        def empty() -> Path:
            shutil.rmtree(cache, ignore_errors=True)
            cache.mkdir()
            return cache

        if not args.skip_compile:
            runs = [compile_units(empty(), first) for _ in range(args.repeats)]
            walls = [w for w, _ in runs]
            names = list(runs[-1][1])
            per = "  ".join(
                f"{u} {statistics.median(r[1][u][0] for r in runs):.1f} s"
                f" / {statistics.median(r[1][u][1] for r in runs):.1f} cpu"
                for u in names
            )
            print(f"cold compile ({', '.join(first)}): {median(walls)} s, {load()}\n   per unit: {per}")
            cpu = {u: (0.0, statistics.median(r[1][u][1] for r in runs)) for u in names}
            est, mine, theirs = idle_estimate(first, cpu)
            print(f"   this process: {', '.join(mine)}; helper: {', '.join(theirs) or '-'}")
            print(f"   idle 2-core estimate (CPU seconds laid out on the processes): {est:.1f} s")
        for size in args.sizes:
            firsts, cpus, moves = [], [], []
            err = ""
            for _ in range(args.repeats):
                first, _, cpu, move, err = gtp_first_move(empty(), size)
                firsts.append(first)
                cpus.append(cpu)
                moves.append(move)
            print(
                f"cold gtp {size}x{size}: first move after {median(firsts)} s,"
                f" CPU {statistics.median(cpus):.1f} s"
                f" ({' '.join(moves)}), {load()}\n   stderr: {err}",
                flush=True,
            )
            first, took, cpu, move, _ = gtp_first_move(cache, size)
            print(
                f"warm gtp {size}x{size}: first move after {first:6.1f} s (genmove {took:.2f} s, {move}),"
                f" {load()}"
            )
        if AI.startswith("gomoku:"):
            agent = AI.partition(":")[2]
            runs = [gomoku_game(empty(), agent) for _ in range(args.repeats)]
            print(
                f"cold window game, human against {agent}: the human plays after"
                f" {median([r[0] for r in runs])} s, the AI after {median([r[1] for r in runs])} s, {load()}",
                flush=True,
            )
        if not args.skip_window:
            cold = [window(empty()) for _ in range(args.repeats)]
            if any(w is None for w in cold):
                print("window: no X display and no xvfb-run, or no first frame (skipped)")
            else:
                frames, ready = [w[0] for w in cold], [w[1] for w in cold]
                print(
                    f"cold window: first frame {median(frames)} s,"
                    f" every kernel ready {median(ready)} s, {load()}"
                )
                w = window(cache)
                if w is not None:
                    print(
                        f"warm window: first frame {w[0]:6.1f} s, every kernel ready {w[1]:6.1f} s, {load()}"
                    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
