"""What a controller feeds the window, as a part both games share: the panel's message, the
events the window turns into sounds, the version that bumps on every visible change, and the
two views every game has (``c``: the control or threat map, ``v``: the AI's live thinking)."""

from __future__ import annotations

import time
from typing import Any

MAX_EVENTS = 200  # events the window has not drained yet: the oldest half goes beyond this


class Feed:
    """The message, events, version and the ``c``/``v`` toggles (see the module docstring)."""

    def __init__(self, show_thinking: bool = False) -> None:
        self.version = 0
        self.message = ""
        self.message_time = 0.0
        self.events: list[tuple[str, dict]] = []
        self.show_control = False
        self.show_thinking = show_thinking

    def touch(self) -> None:
        """Something visible changed: the window redraws."""
        self.version += 1

    def say(self, text: str) -> None:
        """Show text as the panel's message (and redraw)."""
        self.message = text
        self.message_time = time.monotonic()
        self.version += 1

    def emit(self, kind: str, **data: Any) -> None:
        """Record an event for the window (sounds): 'stone', 'capture' (stones=N), 'pass',
        'illegal', 'game_end' (result=...), 'countdown' (seconds=N)."""
        self.events.append((kind, data))
        if len(self.events) > MAX_EVENTS:
            del self.events[: MAX_EVENTS // 2]

    def drain_events(self) -> list[tuple[str, dict]]:
        """The events since the last call, oldest first."""
        out, self.events = self.events, []
        return out

    def toggle_control(self) -> None:
        """Show or hide the control map (Go) or the threat map (Gomoku): ``c``."""
        self.show_control = not self.show_control
        self.version += 1

    def toggle_thinking(self) -> None:
        """Show or hide the AI's live candidates and line while it searches (``v``)."""
        self.show_thinking = not self.show_thinking
        self.version += 1
