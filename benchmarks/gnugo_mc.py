"""GNU Go 3.8's Monte-Carlo playout speed, timed so that its start-up cancels out.

One ``genmove`` with ``--monte-carlo --mc-games-per-level N --level 1`` runs N
simulations; timing it for two N and dividing the difference in simulations by
the difference in time removes the process start-up. Two moves are played
first: on the empty board GNU Go answers from its opening book without
simulating. Used by ``benchmarks/playouts.py`` and ``benchmarks/patterns.py``.
"""

from __future__ import annotations

import shutil
import subprocess
import time


def gnugo_path() -> str | None:
    return shutil.which("gnugo") or shutil.which("/usr/games/gnugo")


def gnugo_rate(patterns: str, size: int = 9, games: tuple[int, int] = (2000, 12000)) -> float | None:
    """GNU Go's Monte-Carlo simulations per second with a pattern database ('uniform' = light)."""
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
