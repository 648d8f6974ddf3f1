"""The file picker's model, headless: a folder's listing (``..``, folders, the records: ``.sgf``
files and Piskvork's ``.psq`` Gomoku records, sorted),
the recent files, a selection, a typed name (a typed folder lists at once), and what Enter
does (open a folder, pick a file, or for Save a new name); where the pickers start (the last
folder used, else the current one). The window's picker (:mod:`gorilla.gui.file_picker`) draws it and
forwards keys and clicks. A bad path or an unreadable folder is one line in ``error`` and
changes nothing else. The recent files and the last folder are kept in the settings
(``recent_files``, ``last_folder``). No pyglet.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

RECENT = 8  # recent files remembered and listed
EXT = ".sgf"  # added to a name saved without one
LISTED = (".sgf", ".psq")  # the records a folder lists


@dataclass(frozen=True)
class Entry:
    """One row of the listing: what it shows and where it leads."""

    name: str
    path: str
    kind: str  # "parent", "dir", "file" or "recent"

    @property
    def label(self) -> str:
        """The row's text: folders end with a slash, recent files show their folder."""
        if self.kind == "dir":
            return self.name + "/"
        if self.kind == "recent":
            return f"{self.name}   ({os.path.dirname(self.path)})"
        return self.name


def recent_files(settings: Any) -> list[str]:
    """The remembered recent files that still exist, newest first."""
    if settings is None:
        return []
    paths = settings.get("recent_files") or []
    return [p for p in paths if isinstance(p, str) and os.path.isfile(p)][:RECENT]


def remember_file(settings: Any, path: str) -> None:
    """Put path first in the recent files, and its folder as the last one used (remembered)."""
    if settings is None:
        return
    path = os.path.abspath(path)
    old = [p for p in settings.get("recent_files") or [] if isinstance(p, str) and p != path]
    settings.set("last_folder", os.path.dirname(path), save=False)
    settings.set("recent_files", [path, *old][:RECENT])


def start_folder(settings: Any) -> str:
    """Where the file pickers start: the folder of the last file opened or saved through them
    (remembered), else the current folder."""
    last = settings.get("last_folder") if settings is not None else None
    if isinstance(last, str) and last and os.path.isdir(last):
        return last
    return os.getcwd()


def _key(name: str) -> tuple[str, str]:
    return name.lower(), name


class FileBrowser:
    """A folder's SGF listing with a selection and a typed name (see the module docstring).

    mode "open" picks an existing file; "save" a new or existing file name (an existing one
    after a second Enter). ``activate()`` returns the chosen path, or None when Enter changed
    folder or failed (``error`` says why).
    """

    def __init__(self, mode: str, folder: str, name: str = "", recent: list[str] | None = None,
                 select: str | None = None) -> None:  # fmt: skip
        self.mode = mode
        self.folder = os.path.abspath(os.path.expanduser(folder))
        self.name = name
        self.recent = list(recent or []) if mode == "open" else []
        self.error = ""
        self.index = 0
        self._confirm: str | None = None  # an existing file a first Enter would replace (Save)
        self.entries: list[Entry] = []
        if not self.refresh():
            self.folder = os.path.abspath(os.path.expanduser("~"))
            self.refresh()
        if select is not None:
            self.select_path(select)

    # --- the listing ------------------------------------------------------------------------
    def refresh(self) -> bool:
        """Read the folder again; False (and the error) when it cannot be read (nothing changes)."""
        try:
            names = os.listdir(self.folder)
        except OSError as e:
            self.error = f"Cannot open {self.folder}: {e.strerror or e}"
            return False
        dirs, files = [], []
        for n in names:
            if n.startswith("."):
                continue
            path = os.path.join(self.folder, n)
            if os.path.isdir(path):
                dirs.append(n)
            elif n.lower().endswith(LISTED) and os.path.isfile(path):
                files.append(n)
        entries = [Entry(os.path.basename(p), p, "recent") for p in self.recent]
        parent = os.path.dirname(self.folder)
        if parent != self.folder:
            entries.append(Entry("..", parent, "parent"))
        entries += [Entry(n, os.path.join(self.folder, n), "dir") for n in sorted(dirs, key=_key)]
        entries += [Entry(n, os.path.join(self.folder, n), "file") for n in sorted(files, key=_key)]
        self.entries = entries
        self.index = min(self.index, max(0, len(entries) - 1))
        return True

    @property
    def selected(self) -> Entry | None:
        """The selected row, if any."""
        return self.entries[self.index] if 0 <= self.index < len(self.entries) else None

    def select_path(self, path: str) -> bool:
        """Select the row of path (the first one: a recent file before its folder's row)."""
        path = os.path.abspath(path)
        for i, e in enumerate(self.entries):
            if e.path == path and e.kind in ("file", "recent", "dir"):
                self.index = i
                return True
        return False

    def move(self, step: int) -> None:
        """Up (-1) / Down (+1) the listing (Page Up/Down: more), clamped."""
        if self.entries:
            self.index = min(len(self.entries) - 1, max(0, self.index + step))
        self._confirm = None

    # --- typing -------------------------------------------------------------------------------
    def type_text(self, text: str) -> None:
        """Typed characters go into the name; a typed folder lists at once (:meth:`follow_typed`)."""
        self.name += "".join(ch for ch in text if ch.isprintable() and ch not in "\r\n")
        self.error = ""
        self._confirm = None
        self.follow_typed()

    def follow_typed(self) -> bool:
        """When the name typed so far holds a folder (``games/``, ``~/``, ``/tmp/sgf/a``), list
        that folder at once and keep the rest typed; True when it did."""
        head, sep, tail = self.name.rpartition("/")
        if not sep:
            return False
        folder = os.path.expanduser(head + sep)
        folder = folder if os.path.isabs(folder) else os.path.join(self.folder, folder)
        if not os.path.isdir(folder) or not self.enter_folder(folder):
            return False
        self.name = tail
        return True

    def backspace(self) -> None:
        """Delete the name's last character; on an empty name, go up to the parent folder."""
        if self.name:
            self.name = self.name[:-1]
        else:
            self.enter_folder(os.path.dirname(self.folder))
        self._confirm = None

    def enter_folder(self, folder: str) -> bool:
        """Show folder; a folder that cannot be read is one line and the listing stays."""
        old = self.folder
        self.folder = os.path.abspath(folder)
        self.index = 0
        if not self.refresh():
            self.folder = old
            self.refresh()
            return False
        self.error = ""
        if os.path.dirname(old) == self.folder:
            self.select_path(old)  # back up: the folder we came from stays selected
        return True

    # --- Enter ----------------------------------------------------------------------------------
    def _typed_path(self) -> str:
        typed = os.path.expanduser(self.name.strip())
        return typed if os.path.isabs(typed) else os.path.join(self.folder, typed)

    def activate(self) -> str | None:
        """Enter (or a double click): the typed name if any, else the selected row (module docstring)."""
        if self.name.strip():
            path = self._typed_path()
            if os.path.isdir(path):
                if self.enter_folder(path):
                    self.name = ""
                return None
            return self._choose(path)
        entry = self.selected
        if entry is None:
            self.error = "Nothing to open here" if self.mode == "open" else "Type a file name"
            return None
        if entry.kind in ("parent", "dir"):
            self.enter_folder(entry.path)
            return None
        if self.mode == "save":
            self.name = entry.name
        return self._choose(entry.path)

    def _choose(self, path: str) -> str | None:
        if self.mode == "open":
            if not os.path.isfile(path):
                self.error = f"No such file: {path}"
                return None
            if not os.access(path, os.R_OK):
                self.error = f"Cannot read {path}"
                return None
            return path
        if not os.path.splitext(path)[1]:
            path += EXT
        folder = os.path.dirname(path)
        if not os.path.isdir(folder):
            self.error = f"No such folder: {folder}"
            return None
        if os.path.isdir(path):
            self.error = f"{path} is a folder"
            return None
        if os.path.exists(path) and self._confirm != path:
            self._confirm = path
            self.error = f"{os.path.basename(path)} exists: Enter again replaces it"
            return None
        return path


__all__ = ["Entry", "FileBrowser", "recent_files", "remember_file", "start_folder"]
