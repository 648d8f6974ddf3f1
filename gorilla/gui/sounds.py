"""The game's sounds through ``pyglet.media``: stones, captures, pass, illegal move, game end,
byo-yomi countdown; a mute switch and a volume, remembered in the settings.

The sounds are Gorilla's own, synthesised by ``assets/make_sounds.py`` into
``assets/sounds/``. With no audio device (a server, CI) pyglet falls back to its
silent driver (it is always last in ``pyglet.options['audio']``) and the app runs
without sound and without an error; ``GORILLA_AUDIO=silent`` asks for it directly.
Every sound asked for is appended to :attr:`Sounds.log`, with or without a device,
so tests can check which event made which sound.
"""

from __future__ import annotations

import contextlib
import os
import random
from pathlib import Path
from typing import Any

import pyglet

from gorilla import asset_dirs

SOUND_DIRS = asset_dirs("sounds")
STONES = ("stone0", "stone1", "stone2", "stone3")
NAMES = (*STONES, "capture", "pass", "illegal", "game_end", "countdown", "countdown_last")


def prepare_audio_driver() -> None:
    """Put pyglet's silent driver last in its list (and first with GORILLA_AUDIO=silent).

    Must run before ``pyglet.media`` is first used.
    """
    drivers = [d for d in pyglet.options["audio"] if d != "silent"]
    wanted = os.environ.get("GORILLA_AUDIO", "").strip().lower()
    if wanted:
        drivers = [d for d in wanted.split(",") if d and d != "silent"]
    pyglet.options["audio"] = (*drivers, "silent")


def sound_dir() -> Path | None:
    """The folder holding the WAV files, or None when it is missing."""
    for d in SOUND_DIRS:
        if (d / "stone0.wav").is_file():
            return d
    return None


def capture_volume(stones: int) -> float:
    """Louder with more stones taken: 0.55 for one, rising to 1.0 at ten or more."""
    return min(1.0, 0.5 + 0.05 * max(1, stones))


class Sounds:
    """Plays the game's sounds; ``on_event`` maps controller events to sounds."""

    def __init__(self, settings: Any = None, seed: int | None = None) -> None:
        self.settings = settings
        self.volume = float(settings.get("volume")) if settings is not None else 0.7
        self.muted = bool(settings.get("muted")) if settings is not None else False
        self.log: list[tuple[str, float]] = []  # (sound, volume) of every sound asked for
        self.problem: str | None = None  # why there is no sound, if known
        self._rng = random.Random(seed)
        self._sources: dict[str, Any] = {}
        self._last_stone = ""
        self._loaded = False

    def load(self) -> None:
        """Open the audio driver and decode the sounds (about 0.3 s: do it before the first frame)."""
        if self._loaded:
            return
        self._loaded = True
        folder = sound_dir()
        if folder is None:
            self.problem = "no sound files (assets/sounds)"
            return
        prepare_audio_driver()
        try:
            import pyglet.media as media

            for name in NAMES:
                self._sources[name] = media.load(str(folder / f"{name}.wav"), streaming=False)
        except Exception as e:  # no decoder, no driver: the game goes on silently
            self.problem = f"no sound: {str(e).splitlines()[0] if str(e) else type(e).__name__}"
            self._sources = {}

    def play(self, name: str, volume: float = 1.0) -> None:
        """Play a sound at volume (times the master volume); logged even when muted or silent."""
        gain = max(0.0, min(1.0, volume)) * self.volume
        self.log.append((name, round(gain, 3)))
        if len(self.log) > 1000:
            del self.log[:500]
        if self.muted or gain <= 0:
            return
        if not self._loaded:
            self.load()
        source = self._sources.get(name)
        if source is None:
            return
        with contextlib.suppress(Exception):
            player = source.play()
            player.volume = gain

    def stone(self) -> str:
        """A stone variant, never the same twice in a row."""
        choices = [s for s in STONES if s != self._last_stone]
        self._last_stone = self._rng.choice(choices)
        return self._last_stone

    def on_event(self, kind: str, data: dict) -> None:
        """Play the sound of one controller event (see Controller.emit)."""
        if kind == "stone":
            self.play(self.stone())
        elif kind == "capture":
            self.play(self.stone())
            self.play("capture", capture_volume(int(data.get("stones", 1))))
        elif kind == "pass":
            self.play("pass", 0.8)
        elif kind == "illegal":
            self.play("illegal", 0.7)
        elif kind == "game_end":
            self.play("game_end", 0.9)
        elif kind == "countdown":
            seconds = int(data.get("seconds", 0))
            self.play("countdown_last" if seconds <= 3 else "countdown", 0.8)

    def toggle_mute(self) -> bool:
        """Mute or unmute (remembered); returns whether it is muted now."""
        self.muted = not self.muted
        if self.settings is not None:
            self.settings.set("muted", self.muted)
        return self.muted

    def set_volume(self, volume: float) -> float:
        """Set the master volume, 0..1 (remembered); returns it."""
        self.volume = round(max(0.0, min(1.0, float(volume))), 2)
        if self.settings is not None:
            self.settings.set("volume", self.volume)
        return self.volume
