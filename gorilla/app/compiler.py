"""Compiling the engine in the background while the window keeps drawing.

Compiling a numba kernel holds the interpreter lock, so a thread of the
window's process would freeze the window. :class:`Compiler` runs
``python -m gorilla.ai.warmup GROUP...`` in a child process instead, which
fills the on-disk cache; each time the child finishes a group, a thread here
loads that group's compiled kernels (milliseconds to a second). Groups already
in the cache are only loaded, while the child compiles the others. The
controller asks :meth:`Compiler.ready` before it lets anything use a group: a
human can click while the rest compiles, and an AI's first move waits for its
kernels.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterable

from gorilla.ai import warmup


class Compiler:
    """Makes the kernel groups ready: compiled by a child process when cold, then loaded here."""

    def __init__(
        self,
        groups: Iterable[str],
        *,
        python: str | None = None,
        start: bool = True,
        base: Iterable[str] = ("rules",),
    ) -> None:
        # base: what every game of its kind needs first (Go's rules; a Gomoku game names its own)
        self.groups = list(dict.fromkeys([*base, *groups]))
        self.cold = [g for g in self.groups if not warmup.is_warm(g)]
        self.python = python or sys.executable
        self.error: str | None = None
        # the units the child compiles now (two at once with its helper), each since when
        self._running: dict[str, float] = {}
        self._compiled_weight = 0.0
        self._total = warmup.weight(self.cold)
        self._ready: set[str] = set()
        self._done = threading.Event()
        self._lock = threading.Lock()
        self._proc: subprocess.Popen | None = None
        self._thread = threading.Thread(target=self._run, daemon=True, name="gorilla-compiler")
        if start:
            self.start()

    def start(self) -> None:
        """Start compiling and loading (once; the window calls it after its first frame, so that
        loading kernels, which holds the interpreter lock, does not delay the window)."""
        if not self._thread.is_alive() and not self._done.is_set():
            self._thread.start()

    # --- state ------------------------------------------------------------------------
    def ready(self, *groups: str) -> bool:
        """Whether every named group (all of them when none is named) can be used now."""
        with self._lock:
            return all(g in self._ready for g in (groups or self.groups))

    @property
    def compiling(self) -> bool:
        """Whether cold groups are still being compiled (the panel shows a progress bar)."""
        return bool(self.cold) and not self._done.is_set()

    @property
    def fraction(self) -> float:
        """How much of the cold compile is done, 0..1 (the running units estimated by time)."""
        if not self.cold or self._done.is_set():
            return 1.0
        now = time.monotonic()
        running = dict(self._running)
        part = sum(min(0.95 * warmup.GROUPS[g][1], now - since) for g, since in running.items())
        return min(1.0, (self._compiled_weight + part) / max(self._total, 1e-9))

    def status(self) -> str:
        """One line for the panel: what is compiling and how far it is ('' when nothing is)."""
        if not self.compiling:
            return ""
        what = ", ".join(list(self._running)) or self.cold[0]
        return f"Compiling the engine ({what}): {100 * self.fraction:.0f}%, once after an install or update"

    def wait(self, timeout: float | None = None) -> bool:
        """Block until every group is ready (starting the work if needed); False on timeout."""
        self.start()
        return self._done.wait(timeout)

    def close(self) -> None:
        """Stop the child process if it still runs."""
        proc = self._proc
        if proc is not None and proc.poll() is None:
            proc.kill()

    # --- work ---------------------------------------------------------------------------
    def _load(self, group: str) -> None:
        warmup.warm([group])
        with self._lock:
            self._ready.add(group)

    def _run(self) -> None:
        try:
            proc = self._start_child() if self.cold else None
            for g in self.groups:  # the warm ones while the child compiles the rest
                if g not in self.cold:
                    self._load(g)
            if proc is not None:
                self._follow_child(proc)
            for g in self.groups:  # any the child could not do
                if not self.ready(g):
                    self._load(g)
        except Exception as e:  # shown in the panel; the groups stay not ready
            self.error = f"cannot compile the engine: {e}"
        finally:
            self._running.clear()
            self._done.set()

    def _start_child(self) -> subprocess.Popen | None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        imports = warmup.import_args(self.cold)
        try:
            self._proc = subprocess.Popen(
                [self.python, "-m", "gorilla.ai.warmup", *imports, *self.cold],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True, env=env,
            )  # fmt: skip
        except OSError:
            return None  # no child: the groups are compiled here, by _run
        return self._proc

    def _follow_child(self, proc: subprocess.Popen) -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            word, _, rest = line.strip().partition(" ")
            group = rest.split(" ", 1)[0]
            if word == "start" and group in warmup.GROUPS:
                self._running[group] = time.monotonic()
            elif word == "done" and group in warmup.GROUPS:
                self._running.pop(group, None)
                self._compiled_weight += warmup.GROUPS[group][1]
                self._load(group)
        proc.wait()
