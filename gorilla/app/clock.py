"""Game clocks: the time systems as plain arithmetic on an injected monotonic time.

No threads and no reading of the system clock: every call takes ``now`` (seconds
from any monotonic source), so the arithmetic is exact and testable.

Time systems (:class:`TimeControl`):

- ``none``: no clock.
- ``absolute``: main time, then the flag falls.
- ``byoyomi`` (Japanese): main time, then ``periods`` periods of ``period`` seconds;
  a move played within a period keeps it, a period used up is lost, the last one
  lost is a flag fall.
- ``canadian``: main time, then ``stones`` moves in ``period`` seconds, again and
  again; the move during which main time runs out is the first of the first period.
- ``fischer``: main time; ``increment`` seconds are added after each move.

The flag falls when the time left reaches zero: a move completed exactly at zero
is too late.

The compact notation of :func:`parse_clock` (``--clock SPEC``)::

    none            no clock
    10m             absolute: 10 minutes
    10m+5x30s       Japanese byo-yomi: 10 minutes, then 5 periods of 30 seconds
    10m+25/5m       Canadian: 10 minutes, then 25 moves in every 5 minutes
    5m+10s          Fischer: 5 minutes, plus 10 seconds after every move
    0+3x10s         byo-yomi only (no main time)

A duration is a number with an optional unit, several may be joined: ``90``,
``90s``, ``1m30s``, ``1.5m``, ``1h``, or ``M:SS`` (``1:30``); a bare number is seconds.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from gorilla.rules.board import BLACK, WHITE

SYSTEMS = ("none", "absolute", "byoyomi", "canadian", "fischer")


class ClockSpecError(ValueError):
    """A --clock SPEC that cannot be read; the message is one line."""


@dataclass(frozen=True)
class TimeControl:
    """A time system and its numbers (seconds); see the module docstring."""

    system: str = "none"
    main: float = 0.0
    period: float = 0.0  # byo-yomi: one period; Canadian: the time for ``stones`` moves
    periods: int = 0  # byo-yomi periods
    stones: int = 0  # Canadian moves per period
    increment: float = 0.0  # Fischer

    def __post_init__(self) -> None:
        if self.system not in SYSTEMS:
            raise ClockSpecError(f"unknown time system '{self.system}' (one of {', '.join(SYSTEMS)})")
        if self.main < 0 or self.period < 0 or self.increment < 0 or self.periods < 0 or self.stones < 0:
            raise ClockSpecError("times and counts cannot be negative")
        if self.system == "absolute" and self.main <= 0:
            raise ClockSpecError("absolute time needs a main time above zero")
        if self.system == "byoyomi" and (self.periods < 1 or self.period <= 0):
            raise ClockSpecError("byo-yomi needs at least one period of more than zero seconds")
        if self.system == "canadian" and (self.stones < 1 or self.period <= 0):
            raise ClockSpecError("Canadian overtime needs at least one move in more than zero seconds")
        if self.system == "fischer" and self.main <= 0:
            raise ClockSpecError("Fischer time needs a main time above zero")

    @property
    def enabled(self) -> bool:
        """Whether there is a clock at all."""
        return self.system != "none"

    def _text(self, column: int) -> str:
        """Column ``column`` of :data:`_TEXTS` for this system, its fields filled in."""
        return _TEXTS[self.system][column].format(
            m=format_duration(self.main),
            t=format_duration(self.period),
            i=format_duration(self.increment),
            n=self.periods,
            s=self.stones,
            main=self.main,
            period=self.period,
            increment=self.increment,
        )

    def spec(self) -> str:
        """The compact notation that :func:`parse_clock` reads back."""
        return self._text(0)

    def describe(self) -> str:
        """In words, for the panel and the dialog."""
        return self._text(1)

    def sgf_ot(self) -> str:
        """The SGF OT property (overtime), '' when there is none."""
        return self._text(2)

    def gtp_time_settings(self) -> tuple[float, float, int]:
        """GTP ``time_settings main byo stones`` (byo-yomi as one stone per period, Fischer as absolute)."""
        if self.system == "none":
            return 0.0, 1.0, 0  # byo > 0 with no stones: no time limit
        if self.system == "byoyomi":
            return self.main, self.period, 1
        if self.system == "canadian":
            return self.main, self.period, self.stones
        return self.main, 0.0, 0

    def kgs_time_settings(self) -> str:
        """KGS ``kgs-time_settings`` arguments (Fischer, which KGS lacks, as absolute)."""
        return self._text(3)


# Each system's texts: spec(), describe(), sgf_ot(), kgs_time_settings(). Fields: m, t, i the
# main time, the period and the increment as format_duration writes them; n periods, s stones;
# main, period, increment in seconds.
_TEXTS = {
    "none": ("none", "no clock", "", "none"),
    "absolute": ("{m}", "{m} absolute", "", "absolute {main:g}"),
    "byoyomi": (
        "{m}+{n}x{t}",
        "{m} + {n}x{t} byo-yomi",
        "{n}x{period:g} byo-yomi",
        "byoyomi {main:g} {period:g} {n}",
    ),
    "canadian": (
        "{m}+{s}/{t}",
        "{m} + {s} moves in {t}",
        "{s}/{period:g} Canadian",
        "canadian {main:g} {period:g} {s}",
    ),
    "fischer": ("{m}+{i}", "{m} + {i} per move (Fischer)", "{increment:g} fischer", "absolute {main:g}"),
}


NO_CLOCK = TimeControl()


def from_sgf(main: float, overtime: str) -> TimeControl | None:
    """The time control of an SGF's TM and OT ('5x30 byo-yomi', '25/600 Canadian', '10 fischer',
    as Gorilla and KGS write them); None when there is no clock or OT is not understood."""
    ot = overtime.strip().lower()
    try:
        if not ot:
            return TimeControl("absolute", main) if main > 0 else None
        m = re.fullmatch(r"(\d+)\s*x\s*(\d+(?:\.\d+)?)\s*(byo-?yomi)?", ot)
        if m:
            return TimeControl("byoyomi", main, period=float(m[2]), periods=int(m[1]))
        m = re.fullmatch(r"(\d+)\s*/\s*(\d+(?:\.\d+)?)\s*(canadian)?", ot)
        if m:
            return TimeControl("canadian", main, period=float(m[2]), stones=int(m[1]))
        m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*fischer", ot)
        if m:
            return TimeControl("fischer", main, increment=float(m[1]))
    except ClockSpecError:
        return None
    return None


_UNIT = {"s": 1.0, "m": 60.0, "h": 3600.0}


def parse_duration(text: str) -> float:
    """Seconds in '90', '90s', '1m30s', '1.5m', '1h', '1:30'; raises ClockSpecError."""
    t = text.strip().lower()
    if not t:
        raise ClockSpecError("missing a duration")
    if ":" in t:
        parts = t.split(":")
        if len(parts) > 3 or not all(re.fullmatch(r"\d+(\.\d+)?", p) for p in parts):
            raise ClockSpecError(f"bad duration '{text}' (e.g. 90s, 10m, 1m30s, 1:30)")
        total = 0.0
        for p in parts:
            total = total * 60 + float(p)
        return total
    if re.fullmatch(r"\d+(\.\d+)?", t):
        return float(t)
    pieces = re.findall(r"(\d+(?:\.\d+)?)([hms])", t)
    if not pieces or "".join(n + u for n, u in pieces) != t:
        raise ClockSpecError(f"bad duration '{text}' (e.g. 90s, 10m, 1m30s, 1:30)")
    return sum(float(n) * _UNIT[u] for n, u in pieces)


def format_duration(seconds: float) -> str:
    """A compact duration: '10m', '1m30s', '30s', '0' (what parse_duration reads back)."""
    s = float(seconds)
    if s <= 0:
        return "0"
    out = ""
    if s >= 3600 and s % 3600 == 0:
        return f"{int(s // 3600)}h"
    m, rest = divmod(s, 60)
    if m:
        out += f"{int(m)}m"
    if rest:
        out += f"{rest:g}s"
    return out


def parse_clock(text: str) -> TimeControl:
    """A TimeControl from the compact notation (module docstring); raises ClockSpecError (one line)."""
    t = text.strip().lower().replace(" ", "")
    if t in ("", "none", "off", "no", "0"):
        return NO_CLOCK
    main_text, plus, over = t.partition("+")
    main = parse_duration(main_text)
    if not plus:
        return TimeControl("absolute", main)
    if not over:
        raise ClockSpecError(f"nothing after '+' in '{text}' (e.g. 10m+5x30s)")
    if "x" in over:
        n, _, per = over.partition("x")
        if not n.isdigit():
            raise ClockSpecError(f"byo-yomi needs PERIODSxSECONDS, got '{over}'")
        return TimeControl("byoyomi", main, period=parse_duration(per), periods=int(n))
    if "/" in over:
        n, _, per = over.partition("/")
        if not n.isdigit():
            raise ClockSpecError(f"Canadian overtime needs STONES/TIME, got '{over}'")
        return TimeControl("canadian", main, period=parse_duration(per), stones=int(n))
    return TimeControl("fischer", main, increment=parse_duration(over))


@dataclass(frozen=True)
class ClockView:
    """One side's clock as shown: the seconds on the display and the overtime state."""

    seconds: float  # main time left, or time left in the current period
    overtime: bool = False  # in byo-yomi / Canadian overtime
    periods: int = 0  # byo-yomi periods left (the current one included)
    stones: int = 0  # Canadian moves left in the period
    flagged: bool = False
    to_lose: float = math.inf  # seconds until the flag falls if no move is played

    def text(self) -> str:
        """'9:58', '7.5 (3)' (byo-yomi periods left), '4:10 / 12' (Canadian moves left), 'time'."""
        if self.flagged:
            return "time"
        if self.to_lose == math.inf:
            return "-"
        s = max(0.0, self.seconds)
        if s < 10:
            shown = f"{s:.1f}"
        else:
            h, rem = divmod(math.ceil(s), 3600)
            m, sec = divmod(rem, 60)
            shown = f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}"
        if self.periods:
            shown += f" ({self.periods})"
        elif self.overtime and self.stones:
            shown += f" / {self.stones}"
        return shown


class PlayerClock:
    """One side's clock; it runs between :meth:`start` and :meth:`stop`."""

    def set_left(self, seconds: float, count: int) -> None:
        """Set the time left as a record gives it (SGF BL/WL and OB/OW): count is the byo-yomi
        periods or Canadian moves left, 0 while in main time."""
        tc = self.tc
        if count and tc.system in ("byoyomi", "canadian"):
            self.main, self.overtime = 0.0, True
            if tc.system == "byoyomi":
                self.periods = count
            else:
                self.period_left, self.stones = seconds, count
        else:
            self.main = seconds

    def __init__(self, tc: TimeControl) -> None:
        self.tc = tc
        self.main = tc.main
        self.periods = tc.periods  # byo-yomi periods left
        self.period_left = tc.period  # Canadian: time left in the period
        self.stones = tc.stones  # Canadian moves left in the period
        self.overtime = tc.system in ("byoyomi", "canadian") and tc.main <= 0
        self.running_since: float | None = None
        self.flagged = False

    @property
    def running(self) -> bool:
        """Whether this clock is counting down now."""
        return self.running_since is not None

    def start(self, now: float) -> None:
        """Start counting down (no effect when running)."""
        if self.running_since is None:
            self.running_since = now

    def _elapsed(self, now: float) -> float:
        return 0.0 if self.running_since is None else max(0.0, now - self.running_since)

    def view(self, now: float) -> ClockView:
        """What the clock shows at now (nothing changes)."""
        tc = self.tc
        e = self._elapsed(now)
        if tc.system == "none":
            return ClockView(0.0)
        if self.flagged:
            return ClockView(0.0, self.overtime, 0, 0, True, 0.0)
        if tc.system in ("absolute", "fischer"):
            left = self.main - e
            return ClockView(left, flagged=left <= 0, to_lose=max(0.0, left))
        main, over = self.main, self.overtime
        if not over:
            if e < main:
                total = main - e
                if tc.system == "byoyomi":
                    total += self.periods * tc.period
                else:
                    total += tc.period
                periods = self.periods if tc.system == "byoyomi" else 0
                return ClockView(main - e, periods=periods, to_lose=total)
            e -= main
            over = True
        if tc.system == "byoyomi":
            lost = int(e // tc.period)
            left_periods = self.periods - lost
            if left_periods <= 0:
                return ClockView(0.0, True, 0, 0, True, 0.0)
            in_period = tc.period - (e - lost * tc.period)
            return ClockView(
                in_period, True, left_periods, 0, False, in_period + (left_periods - 1) * tc.period
            )
        # Canadian
        period_left = self.period_left if self.overtime else tc.period
        stones = self.stones if self.overtime else tc.stones
        left = period_left - e
        return ClockView(left, True, 0, stones, left <= 0, max(0.0, left))

    def flag(self, now: float) -> bool:
        """Whether the flag has fallen at now."""
        return self.flagged or self.view(now).flagged

    def stop(self, now: float, moved: bool = True) -> bool:
        """Stop the clock and charge the time since start; ``moved``: a move ended the turn
        (byo-yomi periods and Canadian periods reset, the Fischer increment is added).

        Returns False when the flag had fallen (the clock then stays fallen).
        """
        if self.running_since is None:
            return not self.flagged
        tc = self.tc
        v = self.view(now)
        self.running_since = None
        if tc.system == "none":
            return True
        if v.flagged:
            self.flagged = True
            self.main = 0.0
            return False
        if tc.system in ("absolute", "fischer"):
            self.main = v.seconds + (tc.increment if moved and tc.system == "fischer" else 0.0)
            return True
        if not v.overtime:
            self.main = v.seconds
            return True
        entering = not self.overtime
        self.main = 0.0
        self.overtime = True
        if tc.system == "byoyomi":
            self.periods = v.periods
            return True  # a move (or a pause) keeps the period; it starts afresh next turn
        if entering:
            self.stones = tc.stones
        self.period_left = v.seconds
        if moved:
            self.stones -= 1
            if self.stones <= 0:
                self.period_left, self.stones = tc.period, tc.stones
        return True

    def gtp_time_left(self, now: float) -> tuple[float, int]:
        """GTP ``time_left`` (seconds, stones): stones 0 in main time, else the moves of the period
        (byo-yomi: one move per period)."""
        v = self.view(now)
        if self.tc.system == "none":
            return 0.0, 0
        if not v.overtime:
            return max(0.0, v.seconds), 0
        if self.tc.system == "byoyomi":
            return max(0.0, v.seconds), 1
        return max(0.0, v.seconds), max(1, v.stones)

    def kgs_time_left(self, now: float) -> tuple[float, int]:
        """KGS ``time_left`` for ``kgs-time_settings``: byo-yomi gives the periods left, not stones."""
        v = self.view(now)
        if self.tc.system == "byoyomi" and v.overtime:
            return max(0.0, v.seconds), v.periods
        return self.gtp_time_left(now)


class GameClock:
    """Both sides' clocks: at most one runs; ``press`` ends a turn and starts the other side's."""

    def __init__(self, tc: TimeControl) -> None:
        self.tc = tc
        self.clocks = {BLACK: PlayerClock(tc), WHITE: PlayerClock(tc)}
        self.paused = False

    @property
    def enabled(self) -> bool:
        """Whether there is a clock at all."""
        return self.tc.enabled

    @property
    def running(self) -> int:
        """The colour whose clock runs, 0 for none."""
        for c, clock in self.clocks.items():
            if clock.running:
                return c
        return 0

    def start(self, color: int, now: float) -> None:
        """Run color's clock (stopping the other's without a move)."""
        other = self.clocks[3 - color]
        if other.running:
            other.stop(now, moved=False)
        self.paused = False
        self.clocks[color].start(now)

    def press(self, color: int, now: float) -> bool:
        """color has moved: stop its clock (charging the move) and start the opponent's.

        Returns False, starting nothing, when color's flag had fallen.
        """
        if not self.clocks[color].stop(now, moved=True):
            return False
        if not self.paused:
            self.clocks[3 - color].start(now)
        return True

    def stop(self, now: float) -> None:
        """Stop both clocks (the game ended), charging the time used."""
        for clock in self.clocks.values():
            if clock.running:
                clock.stop(now, moved=False)

    def pause(self, now: float) -> None:
        """Stop the running clock until :meth:`resume`."""
        if self.running:
            self.paused = True
            self.stop(now)

    def resume(self, color: int, now: float) -> None:
        """Start color's clock again after a pause."""
        self.paused = False
        self.clocks[color].start(now)

    def flagged(self, now: float) -> int:
        """The colour whose flag has fallen, 0 for none."""
        for c, clock in self.clocks.items():
            if clock.flag(now):
                return c
        return 0

    def view(self, color: int, now: float) -> ClockView:
        """color's clock as shown at now."""
        return self.clocks[color].view(now)
