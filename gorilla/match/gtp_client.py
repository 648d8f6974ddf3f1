"""The GTP client: drive an external engine (GNU Go, Gorilla, Pachi, ...) over pipes, with timeouts.

The one client for everything that drives engines: the match runner, the
referee, self-play, benchmarks and tests.

The engine runs as a subprocess; a reader thread moves its stdout lines into a
queue so that every command can wait with a deadline (a hung engine never
hangs the match), and another keeps the last lines of its stderr so that a
crash can be reported with the engine's own last words.
"""

from __future__ import annotations

import collections
import contextlib
import os
import queue
import shlex
import subprocess
import threading
import time
from collections.abc import Sequence


class EngineFailure(Exception):
    """The engine broke the protocol; ``kind`` is 'crash', 'timeout' or 'garbage'."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


class GtpCommandError(Exception):
    """The engine answered a command with a GTP failure ('? message')."""


_EOF = object()


class GtpClient:
    """One external GTP engine process.

    ``command`` is a shell-style command line or an argv list. The process starts
    with :meth:`start`, on entering a ``with`` block, or at the first command.
    :meth:`send` returns a success text and raises on failure; :meth:`ask`
    returns ``(ok, text)`` instead.
    """

    def __init__(
        self, command: str | Sequence[str], startup_timeout: float = 60.0, cwd: str | None = None
    ) -> None:
        if isinstance(command, str):
            self.command = command
            self.argv = shlex.split(command)
        else:
            self.argv = [str(a) for a in command]
            self.command = shlex.join(self.argv)
        if not self.argv:
            raise ValueError("empty engine command")
        self.startup_timeout = startup_timeout
        self.cwd = cwd
        self.proc: subprocess.Popen | None = None
        self._lines: queue.Queue = queue.Queue()
        self._stderr: collections.deque[str] = collections.deque(maxlen=20)
        self.known: set[str] = set()
        self.name = ""
        self.version = ""
        self._started = False

    # --- process ---------------------------------------------------------
    def start(self) -> None:
        """Start the engine and ask who it is; raises EngineFailure when it does not answer."""
        self.close()
        self._started = True
        self._lines = queue.Queue()
        self._stderr = collections.deque(maxlen=20)
        try:
            self.proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=self.cwd,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
        except OSError as e:
            raise EngineFailure("crash", f"cannot start '{self.command}': {e.strerror or e}") from None
        threading.Thread(target=self._read_stdout, args=(self.proc, self._lines), daemon=True).start()
        threading.Thread(target=self._read_stderr, args=(self.proc, self._stderr), daemon=True).start()
        self.known = set(self.send("list_commands", self.startup_timeout).split())
        self.name = self._optional("name")
        self.version = self._optional("version")

    def _optional(self, cmd: str) -> str:
        if cmd not in self.known:
            return ""
        try:
            return self.send(cmd, 10.0).strip()
        except GtpCommandError:
            return ""

    @staticmethod
    def _read_stdout(proc: subprocess.Popen, lines: queue.Queue) -> None:
        try:
            for line in proc.stdout:  # type: ignore[union-attr]
                lines.put(line)
        except (OSError, ValueError):
            pass
        lines.put(_EOF)

    @staticmethod
    def _read_stderr(proc: subprocess.Popen, tail: collections.deque) -> None:
        try:
            for line in proc.stderr:  # type: ignore[union-attr]
                if line.strip():
                    tail.append(line.rstrip())
        except (OSError, ValueError):
            pass

    @property
    def alive(self) -> bool:
        """True while the engine process runs."""
        return self.proc is not None and self.proc.poll() is None

    def close(self, grace: float = 2.0) -> None:
        """Ask the engine to quit, then kill it if it does not."""
        proc, self.proc = self.proc, None
        if proc is None:
            return
        if proc.poll() is None:
            try:
                proc.stdin.write("quit\n")  # type: ignore[union-attr]
                proc.stdin.flush()  # type: ignore[union-attr]
            except (OSError, ValueError):
                pass
            try:
                proc.wait(grace)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        for f in (proc.stdin, proc.stdout, proc.stderr):
            with contextlib.suppress(OSError, ValueError):
                f.close()  # type: ignore[union-attr]

    def kill(self) -> None:
        """Kill the engine process at once (no ``quit``) and wait for it."""
        proc, self.proc = self.proc, None
        if proc is not None:
            if proc.poll() is None:
                proc.kill()
            proc.wait()

    # --- commands ----------------------------------------------------------
    def _crash_message(self) -> str:
        code = None
        if self.proc is not None:
            try:
                code = self.proc.wait(1.0)
            except subprocess.TimeoutExpired:
                code = None
        time.sleep(0.05)  # let the stderr reader catch up
        last = self._stderr[-1] if self._stderr else ""
        what = "engine exited" if code is not None else "engine closed its output"
        if code is not None:
            what += f" with code {code}"
        return what + (f": {last[:200]}" if last else "")

    def send(self, command: str, timeout: float | None = 30.0) -> str:
        """Send one command and return the success text.

        Raises GtpCommandError for '? message' and EngineFailure when the
        engine died, did not answer in time (the process is then killed), or
        answered something that is not GTP.
        """
        if not self._started:
            self.start()
        if self.proc is None or self.proc.poll() is not None:
            raise EngineFailure("crash", self._crash_message() if self.proc else "engine not running")
        try:
            self.proc.stdin.write(command.strip() + "\n")  # type: ignore[union-attr]
            self.proc.stdin.flush()  # type: ignore[union-attr]
        except (OSError, ValueError):
            raise EngineFailure("crash", self._crash_message()) from None
        deadline = None if timeout is None else time.monotonic() + timeout
        out: list[str] = []
        while True:
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                line = self._lines.get(timeout=wait)
            except queue.Empty:
                self.kill()
                what = command.split()[0]
                raise EngineFailure("timeout", f"no answer to '{what}' within {timeout:g} s") from None
            if line is _EOF:
                raise EngineFailure("crash", self._crash_message())
            text = line.rstrip("\r\n")
            if not out:
                if not text.strip():
                    continue  # blank lines before a response are allowed
                if text[0] not in "=?":
                    self.kill()
                    what = command.split()[0]
                    raise EngineFailure("garbage", f"answer to '{what}' is not GTP: {text[:80]!r}")
                out.append(text)
                continue
            if not text.strip():
                break
            out.append(text)
        head = out[0]
        # strip '=' / '?' and an optional numeric id
        body_first = head[1:].lstrip()
        if head[1:2].isdigit():
            body_first = head[1:].lstrip("0123456789").lstrip()
        body = "\n".join([body_first, *out[1:]]).strip()
        if head[0] == "?":
            raise GtpCommandError(body or "failed")
        return body

    def try_send(self, command: str, timeout: float | None = 30.0) -> str | None:
        """send(), returning None instead of raising GtpCommandError."""
        try:
            return self.send(command, timeout)
        except GtpCommandError:
            return None

    def ask(self, command: str, timeout: float | None = 30.0) -> tuple[bool, str]:
        """(True, text) for a success, (False, message) for a GTP failure; EngineFailure as send()."""
        try:
            return True, self.send(command, timeout)
        except GtpCommandError as e:
            return False, str(e)

    def __enter__(self) -> GtpClient:
        if not self._started:
            self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
