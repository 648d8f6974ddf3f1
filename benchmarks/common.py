"""What the benchmarks share: GNU Go, test positions, the timing loop and the command line.

The benchmark scripts import this module as ``common``: ``python benchmarks/X.py``
puts ``benchmarks/`` first on ``sys.path``, and the ``gorilla`` package itself
comes from the installed package (or ``PYTHONPATH``).

- GNU Go: :func:`gnugo_path` and :func:`need_gnugo` (through
  :func:`gorilla.match.engines.find_gnugo`, which looks on PATH and in
  /usr/games), and :func:`gnugo_rate`, GNU Go 3.8's Monte-Carlo playout speed
  with its start-up time removed.
- Positions: :func:`middle_game` (random reasonable moves from the empty board,
  seeded) and :func:`diagram` (a position kept in ``benchmarks/data/``).
- Timing: :func:`measure` warms up, then times ``repeats`` runs of about
  ``seconds`` each and returns the median run (:class:`Run`); :func:`median_of`
  does the same for a measurement that times itself.
- Command line: :func:`parser` (the description is the script's docstring's
  first line) and :func:`add_timing` (``--seconds``, ``--repeats``).

Run on its own, it prints the machine line that ``benchmarks/RESULTS.md`` records:

    python benchmarks/common.py
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from gorilla.match.engines import find_gnugo
from gorilla.rules.board import PASS
from gorilla.rules.game import Game
from gorilla.rules.position import Position

DATA = Path(__file__).resolve().parent / "data"

# --- GNU Go -------------------------------------------------------------------------------------------


def gnugo_path(explicit: str | None = None) -> str | None:
    """An explicit path if given, else GNU Go found on PATH or in /usr/games, else None."""
    return explicit or find_gnugo()


def need_gnugo(explicit: str | None = None) -> str:
    """:func:`gnugo_path` for a benchmark that cannot run without GNU Go: exits with status 2 if none."""
    path = gnugo_path(explicit)
    if path is None:
        print("gnugo not found (apt-get install -y gnugo)", file=sys.stderr)
        raise SystemExit(2)
    return path


def gnugo_rate(patterns: str, size: int = 9, games: tuple[int, int] = (2000, 12000)) -> float | None:
    """GNU Go's Monte-Carlo simulations per second with a pattern database ('uniform' = light).

    One ``genmove`` with ``--monte-carlo --mc-games-per-level N --level 1`` runs N
    simulations; timing it for two N and dividing the difference in simulations by
    the difference in time removes the process start-up. Two moves are played
    first: on the empty board GNU Go answers from its opening book without
    simulating. None where GNU Go is not installed or fails.
    """
    path = gnugo_path()
    if path is None:
        return None
    times = []
    for n in games:
        cmd = [path, "--mode", "gtp", "--monte-carlo", "--nofuseki", "--mc-patterns", patterns,
               "--mc-games-per-level", str(n), "--level", "1", "--boardsize", str(size)]  # fmt: skip
        t0 = time.perf_counter()
        mid = (size + 1) // 2
        gtp = f"play b {'ABCDEFGHJKLMNOPQRST'[mid - 1]}{mid}\nplay w C3\ngenmove b\nquit\n"
        r = subprocess.run(cmd, input=gtp, capture_output=True, text=True, timeout=600)
        times.append(time.perf_counter() - t0)
        if r.returncode != 0:
            return None
    return (games[1] - games[0]) / max(times[1] - times[0], 1e-9)


# --- positions ----------------------------------------------------------------------------------------


def middle_game(size: int, moves: int, seed: int = 1) -> Game:
    """A game of `moves` random reasonable moves from the empty board (a pass where there is none)."""
    rng = random.Random(seed)
    game = Game.new(size)
    for _ in range(moves):
        if game.over:
            break
        legal = game.legal_moves(reasonable=True)
        game.play(rng.choice(legal) if legal else PASS)
    return game


def diagram(name: str) -> Position:
    """The position drawn in ``benchmarks/data/<name>.txt`` (``X``, ``O``, ``.``; ``#`` lines are notes)."""
    text = (DATA / f"{name}.txt").read_text()
    return Position.from_diagram("\n".join(r for r in text.splitlines() if not r.startswith("#")))


# --- timing -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Run:
    """One timed run: units of work (playouts, moves, samples), a second count, wall and CPU seconds."""

    units: float
    wall: float
    cpu: float
    extra: float = 0.0  # a second count: moves when units are playouts, games when units are moves
    calls: int = 1

    @property
    def rate(self) -> float:
        """Units per second of wall time."""
        return self.units / max(self.wall, 1e-9)

    @property
    def cpu_rate(self) -> float:
        """Units per second of this process's CPU time (the fairer number on a shared machine)."""
        return self.units / max(self.cpu, 1e-9)

    @property
    def extra_rate(self) -> float:
        return self.extra / max(self.wall, 1e-9)

    @property
    def per_unit(self) -> float:
        """The second count per unit (moves per playout)."""
        return self.extra / max(self.units, 1)


def run_for(seconds: float, step: Callable[[int], float | tuple[float, float]]) -> Run:
    """Call step(i) for i = 0, 1, ... until `seconds` have passed (at least once).

    step returns the units of work it did, or (units, extra)."""
    units = extra = 0.0
    i = 0
    w0, c0 = time.perf_counter(), time.process_time()
    while True:
        done = step(i)
        i += 1
        if isinstance(done, tuple):
            units += done[0]
            extra += done[1]
        else:
            units += done
        if time.perf_counter() - w0 >= seconds:
            break
    return Run(units, time.perf_counter() - w0, time.process_time() - c0, extra, i)


def run_threads(target: Callable[[int], object], threads: int) -> tuple[float, float]:
    """Run target(0), ..., target(threads - 1) on threads at once; (wall seconds, the process's
    CPU seconds) until the last returns."""
    w0, c0 = time.perf_counter(), time.process_time()
    pool = [threading.Thread(target=target, args=(i,)) for i in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    return time.perf_counter() - w0, time.process_time() - c0


def median_of(once: Callable[[], Run], repeats: int = 1, warmup: Callable[[], object] | None = None) -> Run:
    """warmup() (numba compiling or loading its cache), then `repeats` runs: the one with the median rate."""
    if warmup is not None:
        warmup()
    runs = sorted((once() for _ in range(max(1, repeats))), key=lambda r: r.rate)
    return runs[len(runs) // 2]


def measure(
    step: Callable[[int], float | tuple[float, float]],
    seconds: float,
    repeats: int = 1,
    warmup: Callable[[], object] | None = None,
) -> Run:
    """warmup(), then `repeats` runs of step for about `seconds` each (:func:`run_for`): the median run."""
    return median_of(lambda: run_for(seconds, step), repeats, warmup)


# --- command line -------------------------------------------------------------------------------------


def parser(doc: str | None) -> argparse.ArgumentParser:
    """An argument parser whose description is the first line of a script's docstring."""
    return argparse.ArgumentParser(description=(doc or "").strip().splitlines()[0])


def add_timing(ap: argparse.ArgumentParser, seconds: float) -> None:
    """--seconds (per measurement) and --repeats (timed runs per measurement; the median is printed)."""
    ap.add_argument(
        "--seconds", type=float, default=seconds, help=f"seconds per measurement (default {seconds:g})"
    )
    ap.add_argument(
        "--repeats",
        type=int,
        default=1,
        help="timed runs per measurement after the warm-up; the median is printed (default 1)",
    )


def machine() -> str:
    """CPU count, CPU model and load average: the line RESULTS.md keeps with each set of figures."""
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            model = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return f"{os.cpu_count()} CPUs ({model}), load average {load}"


if __name__ == "__main__":
    print(time.strftime("%Y-%m-%d %H:%M"), machine())
