"""Gomoku in the app with clocks and Gomocup engines (no window): Go's clocks (a fallen flag
loses, an AI thinks what its clock affords), ``pbrain:COMMAND`` players (Gorilla's own
``gorilla pbrain`` as the real external engine: its moves through Gorilla's rules, the board
sent again after an undo), and engines that crash, hang, answer an occupied or off-board
point: one message and a forfeit."""

from __future__ import annotations

import shlex
import sys
import textwrap
import time
from pathlib import Path

import pytest

from gorilla.app.clock import parse_clock
from gorilla.app.clocks import Clocks
from gorilla.app.gomoku import pbrain_player
from gorilla.app.gomoku.controller import GomokuController
from gorilla.app.gomoku.pbrain_player import PbrainAgent
from gorilla.app.gomoku.players import parse_player
from gorilla.app.gomoku.view import to_view
from gorilla.app.newgame import PBRAIN_CUSTOM, FormError, NewGameForm
from gorilla.gomoku import rules as R
from gorilla.gomoku.game import GomokuGame

PY = shlex.quote(sys.executable)
GORILLA = f"pbrain:{PY} -m gorilla pbrain --agent threat1"


class FakeTime:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def heard(log: Path, word: str, seconds: float = 60.0) -> None:
    """Wait until the fake engine has heard word."""
    end = time.monotonic() + seconds
    while not (log.exists() and word in log.read_text()):
        assert time.monotonic() < end, f"the engine never heard {word}"
        time.sleep(0.05)


def q(c: GomokuController, x: int, y: int) -> int:
    return to_view(c.gomoku, c.gomoku.point(x, y))


# a Gomocup engine that answers START and then misbehaves as told ("crash", "hang",
# "occupied", "offboard", "garbage"); it logs every line it hears
FAKE = textwrap.dedent(
    """
    import sys
    mode, log = sys.argv[1], open(sys.argv[2], "a")
    for line in sys.stdin:
        log.write(line); log.flush()
        cmd = line.strip().split(" ")[0].upper()
        if cmd in ("START", "RESTART"):
            print("OK", flush=True)
        elif cmd == "END":
            break
        elif cmd in ("BEGIN", "TURN", "DONE"):
            if mode == "crash":
                sys.exit(3)
            if mode == "occupied":
                print("MESSAGE thinking", flush=True)
                print("7,7", flush=True)
            elif mode == "offboard":
                print("20,3", flush=True)
            elif mode == "garbage":
                print("pass", flush=True)
            # hang: never answers
    """
)


@pytest.fixture
def fake(tmp_path: Path):
    script = tmp_path / "fake_brain.py"
    script.write_text(FAKE)
    log = tmp_path / "heard.txt"

    def spec(mode: str) -> str:
        return f"pbrain:{PY} {shlex.quote(str(script))} {mode} {shlex.quote(str(log))}"

    spec.log = log  # type: ignore[attr-defined]
    return spec


def test_gorilla_pbrain_as_an_external_engine_plays_and_is_resynced_after_undo():
    c = GomokuController(GomokuGame(15), "human", GORILLA)
    try:
        assert isinstance(c.agents[R.WHITE], PbrainAgent)
        assert c.players[R.WHITE].startswith("pbrain:") and "pbrain --agent threat1" in c.players[R.WHITE]
        assert c.play(q(c, 7, 7))
        assert c.wait(300)  # START compiles the engine's kernels on a cold cache
        assert len(c.gomoku.moves) == 2 and not c.over, c.message
        first_reply = c.gomoku.moves[1]
        assert first_reply[1] == R.WHITE and first_reply[0] != c.gomoku.point(7, 7)
        assert c.play(q(c, 3, 3))  # TURN: the engine heard only this move
        assert c.wait(60) and len(c.gomoku.moves) == 4
        assert c.undo() and len(c.gomoku.moves) == 2  # the human's move and the engine's reply
        assert c.play(q(c, 11, 11))  # a position the engine never saw: the whole board again
        assert c.wait(60) and len(c.gomoku.moves) == 4 and not c.over, c.message
        assert len({p for p, _ in c.gomoku.moves}) == 4
    finally:
        c.close()


@pytest.mark.parametrize(
    ("mode", "words"),
    [
        ("crash", "crash"),
        ("occupied", "illegal move"),
        ("offboard", "off the 15x15 board"),
        ("garbage", "not x,y"),
    ],
)
def test_an_engine_that_fails_forfeits_with_one_message(fake, mode, words):
    c = GomokuController(GomokuGame(15), "human", fake(mode))
    try:
        assert c.play(q(c, 7, 7))  # the engine answers 7,7 too: occupied
        assert c.wait(60)
        assert c.over and c.game.result == "B+F" and c.game.end_reason == "forfeit"
        assert words in c.message and "\n" not in c.message and c.message.startswith("White")
        assert len(c.gomoku.moves) == 1  # nothing of the engine's was played
        assert not c.play(q(c, 3, 3)) and len(c.gomoku.moves) == 1
    finally:
        c.close()


def test_an_engine_that_hangs_forfeits_on_its_move_time(fake, monkeypatch):
    monkeypatch.setattr(pbrain_player, "GRACE", 0.5)
    c = GomokuController(GomokuGame(15), fake("hang"), "human")
    try:
        c.wait(60)
        assert c.over and c.game.result == "W+F" and "timeout" in c.message
        heard = fake.log.read_text()
        assert "START 15" in heard and "INFO timeout_turn 1000" in heard and "BEGIN" in heard
    finally:
        c.close()


def test_an_engine_that_hangs_loses_on_time_when_its_flag_falls(fake):
    t = FakeTime()
    c = GomokuController(GomokuGame(15), "human", fake("hang"), clock=parse_clock("5s"), now=t)
    try:
        assert c.play(q(c, 7, 7))
        c.poll()
        assert c.thinking and c.clocks.clock.running == R.WHITE
        heard(fake.log, "DONE")  # the engine has the position and thinks (for ever)
        t.t += 5.5
        c.poll()
        assert c.over and c.game.result == "B+T" and "White lost on time" in c.message
        assert not c.thinking
        assert "INFO timeout_turn 500" in fake.log.read_text()  # the clock affords a tenth of 5 s
        assert not c.undo() and "lost on time" in c.message  # a loss on time is not taken back
    finally:
        c.close()


def test_the_clocks_start_with_the_first_move_and_a_fallen_flag_loses():
    t = FakeTime()
    c = GomokuController(GomokuGame(15), "human", "human", clock=parse_clock("1m+2x10s"), now=t)
    assert c.new_game_choices()["clock"] == "1m+2x10s"
    views = c.clock_views()
    assert views is not None and views[R.BLACK].seconds == 60
    t.t += 30  # before the first move no clock runs
    assert c.play(q(c, 7, 7)) and c.clocks.clock.running == R.WHITE
    assert c.clock_views()[R.BLACK].seconds == 60
    t.t += 50
    assert c.play(q(c, 8, 8))
    assert c.clock_views()[R.WHITE].seconds == pytest.approx(10)
    assert any(line.startswith("Clock: Black 1:00") for line in c.status_lines())
    t.t += 60 + 2 * 10 + 1  # Black uses its main time and both periods
    assert not c.play(q(c, 9, 9))  # the move after the flag fell is not played
    assert c.over and c.game.result == "W+T" and "Black lost on time" in c.message
    assert len(c.gomoku.moves) == 2


def test_share_of_the_clock():
    t = FakeTime()
    clocks = Clocks(parse_clock("10m"), t)
    assert clocks.share(1.0, R.BLACK) is None  # 10 minutes afford a second
    assert clocks.share(120.0, R.BLACK) == pytest.approx(60.0)
    byo = Clocks(parse_clock("10s+3x2s"), t)
    assert byo.share(5.0, R.BLACK) == pytest.approx(0.1 * 10 + 0.8 * 2)
    assert Clocks(parse_clock("none"), t).share(5.0, R.BLACK) is None


def test_players_and_the_form_take_gomocup_engines():
    assert parse_player(GORILLA) == (GORILLA, 1.0)
    with pytest.raises(ValueError, match="not found"):
        parse_player("pbrain:/nonexistent/pbrain-x")
    with pytest.raises(ValueError, match="no command"):
        parse_player("pbrain:  ")
    form = NewGameForm()
    form.set("rules", "gomoku renju")
    form.set("size", 15)
    form.set("white", PBRAIN_CUSTOM)
    with pytest.raises(FormError, match="White engine command"):
        form.result()
    form.set("white_cmd", f"{PY} -m gorilla pbrain")
    form.set("clock", "5m+5s")
    ng = form.result()
    assert ng.game == "gomoku" and ng.white == f"pbrain:{PY} -m gorilla pbrain"
    assert ng.clock.spec() == "5m+5s"
    form.set("rules", "chinese")  # Go offers no Gomocup engine: its own players come back
    assert form.result().white == "human" and not form.shows("white_cmd")
    form.set("rules", "gomoku renju")  # ... and the Gomoku rows with Gomoku
    assert form.result().white == f"pbrain:{PY} -m gorilla pbrain"


def test_a_new_game_from_the_form_brings_its_clock_and_players():
    c = GomokuController(GomokuGame(15), "human", "human")
    form = NewGameForm()
    form.set("rules", "gomoku freestyle")
    form.set("size", 15)
    form.set("clock", "2m")
    assert c.new_game(form.result())
    assert c.time_control.spec() == "2m" and c.clock_views() is not None
    form.set("white", PBRAIN_CUSTOM)
    form.set("white_cmd", "/nonexistent/brain")
    assert not c.new_game(form.result()) and "not found" in c.message
    assert c.time_control.spec() == "2m" and c.is_human(R.WHITE)  # nothing changed


def test_the_command_line_takes_a_clock_and_a_gomocup_engine_for_gomoku():
    from gorilla.app.game_kinds import GomokuLoading
    from gorilla.launcher.cli import UsageError, build_controller, parse_args

    o = parse_args(["--game", "gomoku", "--clock", "5m+5s", "--white", GORILLA])
    assert o.clock.spec() == "5m+5s" and o.white == GORILLA
    with pytest.raises(UsageError, match="--clock"):
        parse_args(["--game", "gomoku", "--clock", "5m+"])
    c = build_controller(o)  # the controller, or the stand-in while the engine compiles
    try:
        if isinstance(c, GomokuLoading):
            assert c.start.clock.spec() == "5m+5s" and c.new_game_choices()["clock"] == "5m+5s"
        else:
            assert isinstance(c, GomokuController) and c.time_control.spec() == "5m+5s"
            assert isinstance(c.agents[R.WHITE], PbrainAgent)
    finally:
        c.close()
