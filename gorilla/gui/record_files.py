"""Saving and loading records from the window: Ctrl+S and Ctrl+O open the file picker
(:mod:`gorilla.gui.file_picker`) in the last folder used, with a fresh name to save or the
latest record selected, and its Enter saves or loads (a record of the other game starts a game
of its kind first); the files used are remembered as recent.

``RecordFiles`` is a mixin of :class:`gorilla.gui.window.GorillaWindow`.
"""

from __future__ import annotations

import glob
import os
import time
from collections.abc import Callable

from gorilla.app.file_browser import FileBrowser, recent_files, remember_file, start_folder
from gorilla.gui.file_picker import FilePicker


def latest_sgf(directory: str, exclude: str | None = None) -> str | None:
    """The most recently written .sgf in directory, leaving out exclude (the autosave file)."""
    skip = os.path.abspath(os.path.expanduser(exclude)) if exclude else None
    files = [
        f
        for f in glob.glob(os.path.join(directory, "*.sgf"))
        if os.path.isfile(f) and os.path.abspath(f) != skip
    ]
    return max(files, key=os.path.getmtime) if files else None


class RecordFiles:
    """Ctrl+S and Ctrl+O: the picker, and what its Enter does."""

    def save(self) -> FilePicker:
        """Ctrl+S: the file picker in the last folder used (else the current one), a time-stamped
        name typed in; Enter saves there (the controller reports it)."""
        directory = start_folder(self.settings)
        name = time.strftime("gorilla-%Y%m%d-%H%M%S.sgf")
        n = 1
        while os.path.exists(os.path.join(directory, name)):
            n += 1
            name = time.strftime("gorilla-%Y%m%d-%H%M%S") + f"-{n}.sgf"
        return self._open_picker(FileBrowser("save", directory, name), self._save_to)

    def open_prompt(self) -> FilePicker:
        """Ctrl+O: the file picker in the last folder used (else the current one), its most
        recent record selected (Enter loads it), the recent files first. The autosave file is
        never selected (it is the game on the board)."""
        directory = start_folder(self.settings)
        latest = latest_sgf(directory, exclude=self.controller.autosave)
        browser = FileBrowser("open", directory, recent=recent_files(self.settings), select=latest)
        return self._open_picker(browser, self._load_from)

    def _open_picker(self, browser: FileBrowser, done: Callable[[str], None]) -> FilePicker:
        m = self.open_modal(FilePicker(self, browser, done))
        m.layout(self.view_width, self.height)
        return m

    def _load_from(self, path: str) -> None:
        """Load a record; one of the other game (a Gomoku record, GM[4], during a Go game, or a
        Go record during a Gomoku game) starts a game of its kind between two humans first."""
        from gorilla.app.game_kinds import game_of, record_game

        ng = record_game(path)
        if ng is not None and ng.game != game_of(self.controller):
            if not self._start_new_game(ng):
                return
            if ng.game == "gomoku":  # it loads the record itself, once its rules are ready
                remember_file(self.settings, path)
                return
        self.controller.load(path)
        if self.controller.message.startswith("Loaded"):
            remember_file(self.settings, path)

    def _save_to(self, path: str) -> None:
        self.controller.save(path)
        if self.controller.message.startswith("Saved"):
            remember_file(self.settings, path)
