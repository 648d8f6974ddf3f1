"""Clock arithmetic: every time system on an injected time, and the --clock notation."""

from __future__ import annotations

import math

import pytest

from gorilla.app.clock import (
    NO_CLOCK,
    ClockSpecError,
    GameClock,
    PlayerClock,
    TimeControl,
    format_duration,
    parse_clock,
    parse_duration,
)
from gorilla.rules.board import BLACK, WHITE


@pytest.mark.parametrize(
    "text, seconds",
    [("90", 90), ("90s", 90), ("10m", 600), ("1m30s", 90), ("1.5m", 90), ("1h", 3600), ("1:30", 90)],
)
def test_durations(text: str, seconds: float) -> None:
    assert parse_duration(text) == seconds


@pytest.mark.parametrize(
    "spec, tc",
    [
        ("none", NO_CLOCK),
        ("10m", TimeControl("absolute", 600)),
        ("10m+5x30s", TimeControl("byoyomi", 600, period=30, periods=5)),
        ("0+3x10s", TimeControl("byoyomi", 0, period=10, periods=3)),
        ("10m+25/5m", TimeControl("canadian", 600, period=300, stones=25)),
        ("5m+10s", TimeControl("fischer", 300, increment=10)),
        (" 1m30s + 2x1m ", TimeControl("byoyomi", 90, period=60, periods=2)),
    ],
)
def test_parse_clock_and_back(spec: str, tc: TimeControl) -> None:
    assert parse_clock(spec) == tc
    assert parse_clock(tc.spec()) == tc


@pytest.mark.parametrize(
    "spec, words",
    [
        ("10q", "bad duration"),
        ("10m+", "nothing after"),
        ("10m+0x30s", "at least one period"),
        ("10m+ax30s", "PERIODSxSECONDS"),
        ("10m+0/5m", "at least one move"),
        ("0", None),
        ("0+10s", "main time above zero"),
        ("-5m", "bad duration"),
    ],
)
def test_bad_specs_one_line(spec: str, words: str | None) -> None:
    if words is None:
        assert parse_clock(spec) == NO_CLOCK
        return
    with pytest.raises(ClockSpecError) as e:
        parse_clock(spec)
    assert words in str(e.value) and "\n" not in str(e.value)


def test_format_duration() -> None:
    shown = [format_duration(s) for s in (0, 30, 90, 600, 3600, 1.5)]
    assert shown == ["0", "30s", "1m30s", "10m", "1h", "1.5s"]


def play(clock: PlayerClock, durations: list[float], start: float = 0.0) -> tuple[float, list[bool]]:
    """Moves taking these many seconds each; the time after them and whether each was in time."""
    now, ok = start, []
    for d in durations:
        clock.start(now)
        now += d
        ok.append(clock.stop(now))
    return now, ok


def test_absolute_flag_falls_exactly_at_zero() -> None:
    tc = TimeControl("absolute", 60)
    c = PlayerClock(tc)
    c.start(100.0)
    assert c.view(159.9).seconds == pytest.approx(0.1) and not c.flag(159.9)
    assert c.flag(160.0) and c.view(160.0).flagged
    assert PlayerClock(tc).stop(0.0) is True  # a clock that never ran has not fallen
    late = PlayerClock(tc)
    late.start(0.0)
    assert late.stop(60.0) is False and late.flagged
    ok = PlayerClock(tc)
    _, res = play(ok, [30, 29.5])
    assert res == [True, True] and ok.main == pytest.approx(0.5)


BYOYOMI = TimeControl("byoyomi", 10, period=10, periods=3)
CANADIAN = TimeControl("canadian", 10, period=20, stones=3)


@pytest.mark.parametrize(
    "control, moves, in_time, after",
    [
        (BYOYOMI, [5, 4], [True, True], {"main": 1, "periods": 3}),  # still in main time
        # main time used up exactly: the first period is intact
        (BYOYOMI, [5, 5], [True, True], {"main": 0, "periods": 3}),
        (BYOYOMI, [10, 9.9], [True, True], {"main": 0, "periods": 3}),  # a move inside a period keeps it
        (BYOYOMI, [10, 10], [True, True], {"main": 0, "periods": 2}),  # a period used up exactly is lost
        (BYOYOMI, [10, 25], [True, True], {"main": 0, "periods": 1}),  # two and a half periods: two lost
        (BYOYOMI, [10, 30], [True, False], None),  # the last period used up: the flag falls at zero
        # 12 s: 2 s into the first period, which resets
        (BYOYOMI, [12, 9, 9, 9], [True] * 4, {"main": 0, "periods": 3}),
        (CANADIAN, [5], [True], {"period_left": 20, "stones": 3}),  # main time only: overtime untouched
        # main runs out during the move: it is the first stone of the period
        (CANADIAN, [12], [True], {"period_left": 18, "stones": 2}),
        (CANADIAN, [12, 3, 4], [True] * 3, {"period_left": 20, "stones": 3}),  # the third stone: reset
        (CANADIAN, [12, 3, 4, 19.5], [True] * 4, {"period_left": 0.5, "stones": 2}),
        (CANADIAN, [12, 3, 15], [True, True, False], None),  # 2 + 3 + 15 = the 20 s period used up
    ],
)
def test_overtime_periods(control: TimeControl, moves, in_time, after: dict | None) -> None:
    """Byo-yomi periods are lost one by one; a Canadian period resets after its stones."""
    c = PlayerClock(control)
    _, ok = play(c, moves)
    assert ok == in_time
    if after is not None:
        assert {k: getattr(c, k) for k in after} == pytest.approx(after)


def test_byoyomi_view_counts_down_through_periods() -> None:
    c = PlayerClock(TimeControl("byoyomi", 10, period=10, periods=3))
    c.start(0.0)
    v = c.view(5.0)
    assert (v.seconds, v.overtime, v.periods, v.to_lose) == (5.0, False, 3, 35.0)
    v = c.view(23.0)
    assert v.overtime and v.periods == 2
    assert v.seconds == pytest.approx(7.0) and v.to_lose == pytest.approx(17.0)
    assert v.text() == "7.0 (2)"
    assert not c.flag(39.99) and c.flag(40.0)


def test_fischer_increment() -> None:
    c = PlayerClock(TimeControl("fischer", 30, increment=5))
    _, ok = play(c, [10, 10, 10])
    assert ok == [True] * 3 and c.main == pytest.approx(15.0)
    c.start(0.0)
    assert not c.flag(14.99) and c.flag(15.0)
    assert c.stop(15.0) is False


def test_no_clock_never_falls() -> None:
    c = PlayerClock(NO_CLOCK)
    c.start(0.0)
    assert not c.flag(1e9) and c.stop(1e9) and c.view(5).to_lose == math.inf and c.view(5).text() == "-"


def test_game_clock_press_pause_and_flag() -> None:
    g = GameClock(TimeControl("absolute", 60))
    g.start(WHITE, 0.0)  # Black's first move was free
    assert g.running == WHITE
    assert g.press(WHITE, 10.0) and g.running == BLACK
    assert g.view(WHITE, 99.0).seconds == 50.0
    g.pause(20.0)
    assert g.running == 0 and g.paused
    assert g.view(BLACK, 500.0).seconds == 50.0  # paused: nothing runs
    g.resume(BLACK, 500.0)
    assert g.flagged(549.9) == 0 and g.flagged(550.0) == BLACK
    assert g.press(BLACK, 551.0) is False and g.running == 0


def test_gtp_views() -> None:
    byo = TimeControl("byoyomi", 60, period=30, periods=5)
    assert byo.gtp_time_settings() == (60, 30, 1) and byo.kgs_time_settings() == "byoyomi 60 30 5"
    assert byo.sgf_ot() == "5x30 byo-yomi"
    c = PlayerClock(byo)
    c.start(0.0)
    assert c.gtp_time_left(10.0) == (50.0, 0)
    assert c.gtp_time_left(70.0) == (20.0, 1) and c.kgs_time_left(70.0) == (20.0, 5)
    can = TimeControl("canadian", 0, period=300, stones=25)
    assert PlayerClock(can).gtp_time_left(0.0) == (300.0, 25)
    assert NO_CLOCK.gtp_time_settings() == (0.0, 1.0, 0) and NO_CLOCK.kgs_time_settings() == "none"
