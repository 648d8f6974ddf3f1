"""The clocks as a part both games share, owning their state: the time control, both players'
clocks (:class:`gorilla.app.clock.GameClock`), whether they have started, the time left after
each move (SGF ``BL``/``WL``) and the countdown of the last seconds.

The referee (:mod:`gorilla.app.referee`) asks and is told: :meth:`Clocks.pressed` after a move,
:meth:`Clocks.watch` every frame (a fallen flag, a second to count aloud); before an AI move the
game's kind reads what the clock affords (:meth:`Clocks.share`, :meth:`Clocks.to_lose`) and tells
its agent. The referee keeps the game's end (``ended``) and the messages.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from gorilla.app.clock import NO_CLOCK, ClockView, GameClock, TimeControl, from_sgf
from gorilla.rules.board import BLACK, WHITE
from gorilla.rules.sgf import Timing

COUNTDOWN_FROM = 10  # seconds: the last seconds of a period (or of sudden death) are counted aloud


class Clocks:
    """Both clocks of one game under one time control (see the module docstring)."""

    def __init__(self, time_control: TimeControl = NO_CLOCK, now: Callable[[], float] | None = None) -> None:
        import time

        self.now = now or time.monotonic  # the monotonic time the clocks read (tests inject their own)
        self.time_control = time_control
        self.new()

    def new(self) -> None:
        """Fresh clocks for a new or loaded game; they start with its first move."""
        self.clock = GameClock(self.time_control)
        self.started = False
        self.times_left: dict[int, tuple[float, int]] = {}  # move number -> time left after it
        self._countdown: tuple[int, int, int] | None = None

    @property
    def enabled(self) -> bool:
        """Whether the game is on the clock."""
        return self.time_control.enabled

    def restore_timing(self, timing: Timing | None, colors: list[int], ongoing: bool, to_move: int) -> bool:
        """The clock of a record (any game's): its time control, and each player's time left
        after its last move listed (colors: the colour of each move, in order); to_move's
        clock runs when the game goes on. False (nothing changed) without a readable TM/OT."""
        tc = None if timing is None else from_sgf(timing.main, timing.overtime)
        if tc is None:
            return False
        self.time_control = tc
        self.new()
        self.times_left = dict(timing.left)
        last: dict[int, tuple[float, int]] = {}
        for number, color in enumerate(colors, 1):
            if number in timing.left:
                last[color] = timing.left[number]
        for color, (seconds, count) in last.items():
            self.clock.clocks[color].set_left(seconds, count)
        if ongoing:
            self.started = True
            self.clock.start(to_move, self.now())
        return True

    def share(self, seconds: float, color: int) -> float | None:
        """The think (seconds) color's clock affords an AI that wants ``seconds`` a move, when
        that is less; None when the clock affords it (or there is no clock). In main time a
        tenth of what is left (plus most of a byo-yomi period), in overtime most of a period."""
        tc = self.time_control
        if not tc.enabled:
            return None
        v = self.clock.view(color, self.now())
        if v.overtime:
            window = v.seconds / max(1, v.stones) if tc.system == "canadian" else v.seconds
            share = 0.8 * window - 0.2
        else:
            window = v.seconds
            share = 0.1 * window + (0.8 * tc.period if tc.system == "byoyomi" else 0.0)
        if share >= seconds:
            return None
        return max(0.05, share)

    def to_lose(self, color: int) -> float:
        """Seconds until color's flag falls if it does not move (inf without a clock)."""
        if not self.enabled:
            return math.inf
        return self.clock.view(color, self.now()).to_lose

    def pressed(self, color: int, game: Any, record: bool = True) -> None:
        """After color's move: press its clock (the first move starts the clocks). record: keep
        the time left for the SGF (not for a Swap2 opening's turns, whose stones are not all
        the mover's colour)."""
        if not self.enabled:
            return
        now = self.now()
        if not self.started:
            self.started = True
            self.clock.start(3 - color, now)
        else:
            self.clock.press(color, now)
        if not record:
            return
        v = self.clock.view(color, now)
        count = (v.periods or v.stones) if v.overtime else 0
        self.times_left[len(game.moves)] = (max(0.0, v.seconds), count)
        if game.over:
            self.clock.stop(now)

    def follow_turn(self, to_move: int) -> None:
        """After undo or redo: the clock of the side to move runs (no time is given back)."""
        if self.started and not self.clock.paused:
            self.clock.start(to_move, self.now())

    def exchange(self) -> None:
        """The players change colours (a Swap2 choice): each keeps its own clock, running or not."""
        c = self.clock.clocks
        c[BLACK], c[WHITE] = c[WHITE], c[BLACK]

    def hold(self, color: int) -> None:
        """color's clock, if it runs, restarts from now: the time its AI waits for its engine to
        load (its kernels compiling) is not counted."""
        running = self.clock.clocks[color]
        if running.running:
            running.running_since = self.now()

    def flag_fell(self, color: int) -> bool:
        """Whether color's flag has fallen (checked before a move)."""
        return self.enabled and self.clock.clocks[color].flag(self.now())

    def watch(self, moves: int) -> tuple[int, int]:
        """Every frame: (the colour whose flag fell or 0, the whole second to count aloud now or 0)."""
        if not self.enabled or not self.started:
            return 0, 0
        now = self.now()
        flagged = self.clock.flagged(now)
        if flagged:
            return flagged, 0
        color = self.clock.running
        if not color:
            return 0, 0
        v = self.clock.view(color, now)
        if v.to_lose == math.inf or (self.time_control.system in ("byoyomi", "canadian") and not v.overtime):
            return 0, 0
        whole = math.ceil(v.seconds)
        if 0 < whole <= COUNTDOWN_FROM and (color, moves, whole) != self._countdown:
            self._countdown = (color, moves, whole)
            return 0, whole
        return 0, 0

    def stop(self) -> None:
        """Stop both clocks (the game is over)."""
        self.clock.stop(self.now())

    def flag(self, color: int) -> None:
        """color lost on time: the clocks stop, its flag is down."""
        self.stop()
        self.clock.clocks[color].flagged = True

    def toggle_pause(self, to_move: int) -> bool:
        """Pause the running clocks, or resume them with to_move's; True when now paused."""
        now = self.now()
        if self.clock.paused:
            self.clock.resume(to_move, now)
            return False
        self.clock.pause(now)
        return True

    def views(self) -> dict[int, ClockView] | None:
        """Both clocks as shown now, None without a clock."""
        if not self.enabled:
            return None
        now = self.now()
        return {c: self.clock.view(c, now) for c in (BLACK, WHITE)}

    def sgf_timing(self, moves: int) -> Timing | None:
        """TM/OT and the time left after each of the first moves, for the SGF (None without a clock)."""
        tc = self.time_control
        if not tc.enabled:
            return None
        return Timing(tc.main, tc.sgf_ot(), {k: v for k, v in self.times_left.items() if k <= moves})
