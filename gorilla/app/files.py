"""The game on disk, for both games: where the autosave lives (Go's and Gomoku's beside it), atomic
writes and the autosave thread (each game's text: Go's SGF in :mod:`gorilla.app.go.sgf_text`)."""

from __future__ import annotations

import contextlib
import os
import tempfile
import threading
from collections.abc import Callable


def default_autosave_path() -> str:
    """``$GORILLA_AUTOSAVE`` or ``autosave.sgf`` in the platform's user data folder
    (platformdirs: ``~/.local/share/gorilla`` on Linux)."""
    env = os.environ.get("GORILLA_AUTOSAVE")
    if env:
        return os.path.expanduser(env)
    import platformdirs

    return os.path.join(platformdirs.user_data_dir("gorilla", appauthor=False), "autosave.sgf")


def gomoku_autosave_path(path: str) -> str:
    """The autosave of Gomoku games beside Go's at path (``autosave.sgf`` ->
    ``autosave-gomoku.sgf``): a Gomoku game never overwrites the Go game that --resume
    continues, nor the other way round."""
    root, ext = os.path.splitext(path)
    return path if root.endswith("-gomoku") else f"{root}-gomoku{ext or '.sgf'}"


def go_autosave_path(path: str) -> str:
    """Go's autosave beside a Gomoku autosave at path (the inverse of
    :func:`gomoku_autosave_path`; any other path is Go's already)."""
    root, ext = os.path.splitext(path)
    return f"{root.removesuffix('-gomoku')}{ext}" if root.endswith("-gomoku") else path


def write_atomic(path: str, text: str) -> None:
    """Write text to path through a temporary file and os.replace (never a half-written file)."""
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".gorilla-", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(tmp, 0o644)  # mkstemp makes it 0600: give it a saved file's usual mode
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def reason(e: BaseException) -> str:
    """An exception as one short line for the user (file errors in plain words)."""
    text = str(e).strip().splitlines()
    msg = text[0] if text else type(e).__name__
    if isinstance(e, FileNotFoundError):
        return "no such file"
    if isinstance(e, IsADirectoryError):
        return "is a directory"
    if isinstance(e, PermissionError):
        return "permission denied"
    return msg


def autosaver_for(saver: Autosaver | None, path: str | None) -> Autosaver | None:
    """The autosave thread for path: saver when it writes there, else a new one (the old one
    writes what it holds and stops); None without a path."""
    if saver is not None and saver.path == path:
        return saver
    if saver is not None:
        saver.close()
    return Autosaver(path) if path else None


def autosave_failure(saver: Autosaver | None) -> str | None:
    """The panel's line for a failed autosave, once (None when none failed since)."""
    if saver is None or saver.error is None:
        return None
    error, saver.error = saver.error, None
    return f"Autosave failed: {error}"


class Autosaver:
    """Writes the newest snapshot of the game to one file on a background thread.

    The GUI thread only takes a snapshot (microseconds); the serialisation (the game's record
    codec, handed over as a function) and the atomic write happen here. Only the latest
    submitted game is written, so a burst of moves costs one write. ``flush()`` waits until
    everything submitted is on disk.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self.error: str | None = None
        self.writes = 0
        self._cond = threading.Condition()
        self._pending: Callable[[], str] | None = None  # makes the text to write
        self._busy = False
        self._closed = False
        self._thread: threading.Thread | None = None

    def submit(self, render: Callable[[], str]) -> None:
        """Queue a record to be written: render makes its text on this thread (from a snapshot
        the caller no longer changes); the newest wins."""
        with self._cond:
            if self._closed:
                return
            self._pending = render
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, daemon=True, name="gorilla-autosave")
                self._thread.start()
            self._cond.notify_all()

    def _run(self) -> None:
        while True:
            with self._cond:
                while self._pending is None and not self._closed:
                    self._cond.wait()
                if self._pending is None:
                    return
                render, self._pending = self._pending, None
                self._busy = True
            error = None
            try:
                write_atomic(self.path, render())
            except Exception as e:  # reported on the GUI thread
                error = reason(e)
            with self._cond:
                self._busy = False
                self.writes += 1
                if error is not None:
                    self.error = error
                self._cond.notify_all()

    def flush(self, timeout: float | None = 10.0) -> bool:
        """Wait until every submitted game is written; False on timeout."""
        with self._cond:
            return self._cond.wait_for(lambda: self._pending is None and not self._busy, timeout)

    def close(self) -> None:
        """Write what is pending, then stop the thread."""
        self.flush()
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        if self._thread is not None:
            self._thread.join(2.0)
