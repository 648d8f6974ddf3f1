"""Start-up: compile times from an empty numba cache, and the same starts with a warm cache.

For each of an empty cache (a new temporary folder) and then that folder warm:

* compile: ``python -m gorilla.ai.warmup`` over what ``gorilla`` (window, MCTS with
  its move model, evaluator, dead stones, control map, the model's heat map) and
  ``gorilla gtp --ai mcts`` need, per group;
* gtp: ``gorilla gtp --ai mcts --time 1``: seconds until it answers its first
  command (it compiles before reading it) and seconds for the first ``genmove b``
  on an empty 9x9 board, and the move;
* window: ``gorilla --size 9 --white mcts:time=1`` under X (DISPLAY, or Xvfb via
  xvfb-run): seconds to the first frame drawn and until every kernel group is
  ready (the marker files of gorilla.ai.warmup), from GORILLA_FRAME_LOG.

    python benchmarks/startup.py [--skip-window]
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GROUPS = ["rules", "control", "flat", "mcts", "ownership", "policy"]


def compile_groups(cache: Path) -> dict[str, float]:
    """Seconds per group of ``python -m gorilla.ai.warmup`` on the cache folder."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    out = subprocess.run(
        [sys.executable, "-m", "gorilla.ai.warmup", *GROUPS],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return {w[1]: float(w[2]) for w in (ln.split() for ln in out.splitlines()) if w[0] == "done"}


def gtp_first_move(cache: Path) -> tuple[float, float, str]:
    """(seconds to the first answer, seconds of the first genmove, the move)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "PYTHONUNBUFFERED": "1"}
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "gorilla", "gtp", "--ai", "mcts", "--time", "1", "--size", "9"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env,
    )  # fmt: skip
    assert proc.stdin and proc.stdout
    proc.stdin.write("name\n")
    proc.stdin.flush()
    proc.stdout.readline()
    proc.stdout.readline()
    ready = time.perf_counter() - t0
    t1 = time.perf_counter()
    proc.stdin.write("genmove b\n")
    proc.stdin.flush()
    move = proc.stdout.readline().split()[-1]
    took = time.perf_counter() - t1
    proc.communicate("quit\n", timeout=60)
    return ready, took, move


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
    }
    t0 = time.time()
    proc = subprocess.Popen(
        [*prefix, sys.executable, "-m", "gorilla", "--size", "9", "--white", "mcts:time=1"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, start_new_session=True,
    )  # fmt: skip
    first = ready = None
    try:
        while time.time() - t0 < 900 and proc.poll() is None:
            if first is None and frames.exists() and frames.read_text().strip():
                first = float(frames.read_text().split()[0]) - t0
            if first is not None and all((cache / f"warm-{g}").exists() for g in GROUPS):
                ready = time.time() - t0
                break
            time.sleep(0.1)
    finally:
        os.killpg(proc.pid, signal.SIGTERM)  # xvfb-run and the app under it
        proc.wait(10)
    return (first, ready) if first is not None and ready is not None else None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--skip-window", action="store_true", help="do not time the window")
    args = ap.parse_args()
    print(f"machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory(prefix="gorilla-startup-") as tmp:
        cache = Path(tmp)

        def empty() -> None:
            shutil.rmtree(cache)
            cache.mkdir()

        for state in ("cold", "warm"):
            if not args.skip_window:
                if state == "cold":
                    empty()
                w = window(cache)
                if w is None:
                    print(f"{state:5} window: no X display and no xvfb-run (skipped)")
                else:
                    print(f"{state:5} window: first frame {w[0]:6.1f} s, every kernel ready {w[1]:6.1f} s")
            if state == "cold":
                empty()
            ready, took, move = gtp_first_move(cache)
            print(f"{state:5} gtp: ready after {ready:6.1f} s, first genmove {took:5.2f} s ({move})")
            if state == "cold":
                empty()
            groups = compile_groups(cache)
            parts = "  ".join(f"{g} {s:.1f}" for g, s in groups.items())
            print(f"{state:5} compile: total {sum(groups.values()):6.1f} s   ({parts})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
