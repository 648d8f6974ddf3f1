"""Time management for the MCTS: seconds per move, or main time plus Canadian byo-yomi.

GTP semantics: ``time_settings main byo stones``; ``byo > 0, stones == 0``
means no time limit; ``byo == 0`` means sudden death after the main time.
``time_left seconds stones``: ``stones == 0`` while in main time, else the
stones still to play in the current byo-yomi period. Without ``time_left``
the clock is kept from the time actually spent.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class MoveTime:
    """How long to think: aim for ``target``, never go beyond ``limit``."""

    target: float
    limit: float


class Clock:
    """Our side's clock; ``plan`` says how long to think about the next move."""

    def __init__(self, lag: float = 0.15) -> None:
        self.lag = lag  # reserve for the process, the pipe and the controller
        self.enabled = False
        self.main = 0.0
        self.byo_time = 0.0
        self.byo_stones = 0
        self.left = 0.0  # seconds left in main time or in the current period
        self.stones = 0  # 0 while in main time, else stones left in the period

    def set_time(self, main: float, byo_time: float, byo_stones: int) -> None:
        """GTP time_settings (see the module docstring); starts the clock afresh."""
        self.enabled = not (byo_time > 0 and byo_stones == 0)
        self.main = float(main)
        self.byo_time = float(byo_time)
        self.byo_stones = int(byo_stones)
        if main > 0:
            self.left, self.stones = float(main), 0
        else:
            self.left, self.stones = float(byo_time), int(byo_stones)

    def time_left(self, seconds: float, stones: int) -> None:
        """GTP time_left: the controller's word on the time and stones left."""
        self.left = float(seconds)
        self.stones = int(stones)

    def spent(self, seconds: float) -> None:
        """Book the time a move took (until the controller tells us better with time_left)."""
        if not self.enabled:
            return
        self.left -= seconds
        if self.stones == 0:
            if self.left <= 0 and self.byo_stones > 0:
                self.left, self.stones = self.byo_time + min(0.0, self.left), self.byo_stones
        else:
            self.stones -= 1
            if self.stones <= 0:
                self.left, self.stones = self.byo_time, self.byo_stones

    def plan(self, empty_points: int, board_points: int) -> MoveTime | None:
        """The time for our next move, or None without a clock."""
        if not self.enabled:
            return None
        lag = self.lag
        if self.stones > 0:
            per = max(0.05, (self.left - lag) / self.stones)
            return MoveTime(0.85 * per, per)
        # main time: share it over the moves we still expect to play, more early on
        moves_left = max(8.0, 0.35 * empty_points)
        early = 1.0 + 0.5 * max(0.0, empty_points / max(1, board_points) - 0.5) * 2
        target = max(0.0, self.left - lag) / moves_left * early
        byo_per = self.byo_time / self.byo_stones if self.byo_stones > 0 else 0.0
        if byo_per > 0:
            target += 0.8 * max(0.0, byo_per - lag)
            limit = max(target, min(3 * target, 0.5 * self.left + 0.8 * byo_per))
        else:
            limit = min(3 * target, max(0.0, 0.25 * (self.left - lag)))
        target = max(0.02, min(target, limit))
        return MoveTime(target, max(target, limit))
