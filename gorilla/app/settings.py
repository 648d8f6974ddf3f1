"""Remembered settings (the last new game, volume, mute, move numbers, coordinates, recent files,
the teaching game's thresholds) and where they live.

Settings are one JSON object in ``settings.json`` in the platform's user config
folder (platformdirs; ``$GORILLA_CONFIG_DIR`` overrides it, for tests). A file
that cannot be read or parsed is ignored with one line on stderr, and the
defaults are used; unknown keys are kept, values of the wrong type are dropped.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from typing import Any

import platformdirs

from gorilla.app.files import write_atomic

APP = "gorilla"
FILE = "settings.json"

DEFAULTS: dict[str, Any] = {
    "volume": 0.7,  # 0..1
    "muted": False,
    "move_numbers": "off",  # off, last10, all
    "coordinates": True,
    "new_game": {},  # the new-game dialog's last choices for Go
    "new_game_gomoku": {},  # ... and for Gomoku
    "recent_files": [],  # the SGF files last opened or saved through the file picker, newest first
    "last_folder": "",  # the folder of the last of them: where the file pickers start
    # the teaching game's thresholds, take-back, chances, dots and visits (gorilla.app.go.teaching's
    # TeachSettings; a key left out takes its default, docs/teaching.md lists them)
    "teaching": {},
}
MOVE_NUMBER_MODES = ("off", "last10", "all")


def config_dir() -> str:
    """``$GORILLA_CONFIG_DIR`` or the platform's user config folder for Gorilla."""
    env = os.environ.get("GORILLA_CONFIG_DIR")
    return os.path.expanduser(env) if env else platformdirs.user_config_dir(APP, appauthor=False)


class Settings:
    """The remembered settings: ``get``/``set`` keys, ``save()`` writes them (atomically)."""

    def __init__(self, path: str | None = None) -> None:
        self.path = path or os.path.join(config_dir(), FILE)
        self.values: dict[str, Any] = json.loads(json.dumps(DEFAULTS))
        self.problem: str | None = None
        self._load()

    def _load(self) -> None:
        try:
            with open(self.path, encoding="utf-8") as f:
                data = json.load(f)
        except FileNotFoundError:
            return
        except (OSError, ValueError) as e:
            self._ignore(f"cannot read {self.path} ({type(e).__name__}); using the defaults")
            return
        if not isinstance(data, dict):
            self._ignore(f"{self.path} is not a JSON object; using the defaults")
            return
        for key, value in data.items():
            default = DEFAULTS.get(key)
            if default is None or isinstance(value, type(default)) or _number(default, value):
                self.values[key] = value
        if self.values["move_numbers"] not in MOVE_NUMBER_MODES:
            self.values["move_numbers"] = DEFAULTS["move_numbers"]
        self.values["volume"] = min(1.0, max(0.0, float(self.values["volume"])))

    def _ignore(self, line: str) -> None:
        self.problem = line
        print(f"gorilla: {line}", file=sys.stderr)

    def get(self, key: str) -> Any:
        """The value of key (its default when not set)."""
        return self.values.get(key, DEFAULTS.get(key))

    def set(self, key: str, value: Any, save: bool = True) -> None:
        """Set key and (by default) write the file; a write failure is ignored (nothing is lost in play)."""
        self.values[key] = value
        if save:
            self.save()

    def save(self) -> bool:
        """Write the settings; False (and one line on stderr) when the folder is not writable."""
        try:
            write_atomic(self.path, json.dumps(self.values, indent=2, sort_keys=True) + "\n")
        except OSError as e:
            with contextlib.suppress(Exception):
                print(f"gorilla: cannot save settings to {self.path}: {e.strerror or e}", file=sys.stderr)
            return False
        return True


def _number(default: Any, value: Any) -> bool:
    """An int where a float is expected is fine (JSON writes 1.0 as 1 in some tools)."""
    return isinstance(default, float) and isinstance(value, int) and not isinstance(value, bool)
