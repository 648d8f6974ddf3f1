"""What every game controller (Go's and Gomoku's) answers the same way: who plays each
colour, whether a search or an evaluation is running, and the panel's message and the
window's events. A mixin: the controller keeps ``agents`` (colour -> agent, None for a
human), ``_ai``/``_eval`` (running tasks), ``events``, ``message``, ``message_time``,
``version``, ``show_control`` and ``show_thinking``."""

from __future__ import annotations

import time
from typing import Any

from gorilla.app.tasks import Task

BLACK, WHITE = 1, 2  # the colours both games number alike
MAX_EVENTS = 200  # events the window has not drained yet: the oldest half goes beyond this


class PlayersState:
    """The shared part of the controllers' interface to the window (see the module docstring)."""

    agents: dict[int, Any]
    _ai: Task | None
    _eval: Task | None
    events: list[tuple[str, dict]]
    message: str
    message_time: float
    version: int
    show_control: bool
    show_thinking: bool

    def is_human(self, color: int) -> bool:
        """Whether a human plays color."""
        return self.agents.get(color) is None

    @property
    def ai_vs_ai(self) -> bool:
        """Whether both colours are played by AIs."""
        return not self.is_human(BLACK) and not self.is_human(WHITE)

    @property
    def current_ai_task(self) -> Task | None:
        """The AI move being searched now, if any."""
        return self._ai

    @property
    def thinking(self) -> bool:
        """Whether an AI is searching its move now."""
        return self._ai is not None

    @property
    def evaluating(self) -> bool:
        """Whether the evaluator (``e``) is running."""
        return self._eval is not None

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

    def say(self, text: str) -> None:
        """Show text as the panel's message (and redraw)."""
        self.message = text
        self.message_time = time.monotonic()
        self.version += 1

    def toggle_control(self) -> None:
        """Show or hide the control map (Go) or the threat map (Gomoku): ``c``."""
        self.show_control = not self.show_control
        self.version += 1

    def toggle_thinking(self) -> None:
        """Show or hide the AI's live candidates and line while it searches (``v``)."""
        self.show_thinking = not self.show_thinking
        self.version += 1
