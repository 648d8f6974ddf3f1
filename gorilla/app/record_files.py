"""The record on disk, as the Go controller's part: Ctrl+S's save and the autosave (a snapshot
of the record handed to :class:`gorilla.app.files.Autosaver`'s thread after each change). Both
write a snapshot that ``keep`` has annotated first (the controller's: the review's values and
report, :mod:`gorilla.app.review_file`)."""

from __future__ import annotations

import os
from collections.abc import Callable

from gorilla.app.feed import Feed
from gorilla.app.files import (
    Autosaver,
    autosave_failure,
    autosaver_for,
    game_to_sgf,
    mark_line,
    reason,
    write_atomic,
)
from gorilla.app.record import Record
from gorilla.rules.gametree import GameTree
from gorilla.rules.sgf import Timing


class RecordFiles:
    """Saving one record (see the module docstring); ``autosave`` is the autosave's path (None:
    no autosave) and may change; ``timing()`` the clocks' TM/OT and times left for the SGF;
    ``keep(tree)`` writes what the record does not hold into a snapshot about to be saved."""

    def __init__(
        self,
        record: Record,
        feed: Feed,
        timing: Callable[[], Timing | None],
        autosave: str | None,
        keep: Callable[[GameTree], None] | None = None,
    ) -> None:
        self.record = record
        self.feed = feed
        self.timing = timing
        self.keep = keep
        self.autosave = autosave
        self._autosaver = Autosaver(autosave) if autosave else None

    def autosave_now(self) -> None:
        """Hand a snapshot of the record to the autosave thread (an empty board never overwrites a
        saved game). The tree keeps its own order (the main line stays the main line); the line
        on show is named in the root (:func:`gorilla.app.files.mark_line`), so that a resume
        goes on at its end."""
        saver = self._autosaver = autosaver_for(self._autosaver, self.autosave)
        tree, game = self.record.tree, self.record.game
        if saver is None or not (tree.root.children or game.setup):
            return
        snap = tree.snapshot()
        mark_line(snap)
        saver.submit(self._kept(snap), self.timing())

    def _kept(self, snap: GameTree) -> GameTree:
        """snap with what ``keep`` writes into it."""
        if self.keep is not None:
            self.keep(snap)
        return snap

    def flush_autosave(self, timeout: float | None = 10.0) -> bool:
        """Wait until the autosave file holds the current game."""
        return True if self._autosaver is None else self._autosaver.flush(timeout)

    def check(self) -> None:
        """Every frame: a failed autosave is said in the panel (once)."""
        failure = autosave_failure(self._autosaver)
        if failure is not None:
            self.feed.say(failure)

    def save(self, path: str) -> None:
        """Save the game as SGF; a failure becomes the message, nothing else changes (a name
        ending in ``.psq``, Piskvork's Gomoku record, is refused: a Go game is saved as SGF)."""
        if path.lower().endswith(".psq"):
            self.feed.say(f"Cannot save {path}: .psq holds Gomoku games; save a Go game as .sgf")
            return
        try:
            snap = self._kept(self.record.tree.snapshot())
            write_atomic(os.path.expanduser(path), game_to_sgf(snap, self.timing()))
        except Exception as e:
            self.feed.say(f"Cannot save {path}: {reason(e)}")
            return
        self.feed.say(f"Saved {path}")

    def close(self) -> None:
        """Stop the autosave thread (what it holds is written first)."""
        if self._autosaver is not None:
            self._autosaver.close()
