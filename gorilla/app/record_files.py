"""The record on disk, as a part both games share: Ctrl+S's save and the autosave (a snapshot of
the record handed to :class:`gorilla.app.files.Autosaver`'s thread after each change). The
game's kind writes the text (:meth:`gorilla.app.kind.GameKind.write`: Go's SGF, Gomoku's SGF
``GM[4]`` or Piskvork's ``.psq``)."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from gorilla.app.feed import Feed
from gorilla.app.files import Autosaver, autosave_failure, autosaver_for, reason, write_atomic
from gorilla.app.record import Record
from gorilla.rules.sgf import Timing


class RecordFiles:
    """Saving one record (see the module docstring); ``kind`` is the game's, ``autosave`` the
    autosave's path (None: no autosave) and may change; ``timing(n)`` the clocks' TM/OT and
    the times left after each of the first n moves, for the record."""

    def __init__(
        self,
        kind: Any,
        record: Record,
        feed: Feed,
        timing: Callable[[int], Timing | None],
        autosave: str | None,
    ) -> None:
        self.kind, self.record, self.feed, self.timing = kind, record, feed, timing
        self.autosave = autosave
        self._autosaver = Autosaver(autosave) if autosave else None

    def autosave_now(self) -> None:
        """Hand a snapshot of the record to the autosave thread (an empty board never
        overwrites a saved game)."""
        saver = self._autosaver = autosaver_for(self._autosaver, self.autosave)
        if saver is None:
            return
        render = self.kind.autosave(self.record, self.timing)
        if render is not None:
            saver.submit(render)

    def flush_autosave(self, timeout: float | None = 10.0) -> bool:
        """Wait until the autosave file holds the current game."""
        return True if self._autosaver is None else self._autosaver.flush(timeout)

    def check(self) -> None:
        """Every frame: a failed autosave is said in the panel (once)."""
        failure = autosave_failure(self._autosaver)
        if failure is not None:
            self.feed.say(failure)

    def save(self, path: str) -> None:
        """Save the record where path says, in the format its name asks for (Go: SGF; Gomoku: SGF,
        or Piskvork's record for ``.psq``); a failure becomes the message, nothing else changes."""
        try:
            text = self.kind.write(self.record, path, self.timing)
            write_atomic(os.path.expanduser(path), text)
        except Exception as e:
            self.feed.say(f"Cannot save {path}: {reason(e)}")
            return
        self.feed.say(f"Saved {path}")

    def close(self) -> None:
        """Stop the autosave thread (what it holds is written first)."""
        if self._autosaver is not None:
            self._autosaver.close()
