"""The controller's clocks and GTP engines as players: flag fall, pause, time fed to AIs, SGF
TM/OT/BL/WL, events for the sounds, and GNU Go (and broken engines) as opponents."""

from __future__ import annotations

import sys
import textwrap

import pytest
from helpers import v
from test_controller import ScriptedAgent, drive

from gorilla.app.clock import TimeControl, parse_clock
from gorilla.app.go.controller import Controller
from gorilla.app.go.sgf_text import game_from_sgf, game_to_sgf
from gorilla.app.status_text import status_lines
from gorilla.rules import sgf
from gorilla.rules.board import BLACK, PASS, WHITE
from gorilla.rules.game import Game


class FakeTime:
    """A monotonic time the test moves by hand."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def human_game(spec: str, **kw) -> tuple[Controller, FakeTime]:
    t = FakeTime()
    return Controller(Game.new(9), clock=parse_clock(spec), now=t, **kw), t


def test_clocks_start_with_the_first_move_and_a_flag_loses_on_time():
    c, t = human_game("1m")
    t.t += 500  # before the first move nothing runs
    assert c.click(v("D4"))
    assert c.clock.running == WHITE and c.clock_views()[BLACK].seconds == 60
    t.t += 20
    assert c.click(v("E5"))
    assert c.clock_views()[WHITE].seconds == pytest.approx(40)
    t.t += 59.9
    c.poll()
    assert not c.over
    t.t += 0.1  # exactly zero: the flag falls
    c.poll()
    assert c.over and c.ended == "time" and c.game.result == "W+T"
    assert "Black lost on time" in c.message
    assert not c.click(v("F6")) and c.game.move_number == 2
    assert not c.undo()  # a time loss is final
    assert any("on time" in ln and "W+T" in ln for ln in status_lines(c))
    text = game_to_sgf(c.game, c.sgf_timing())
    assert "RE[W+T]" in text and "TM[60]" in text
    assert game_from_sgf(text).result == "W+T"
    kinds = [k for k, _ in c.drain_events()]
    assert kinds[:2] == ["stone", "stone"] and kinds[-1] == "game_end" and "countdown" in kinds


def test_a_move_after_the_flag_fell_is_not_played():
    c, t = human_game("10s")
    c.click(v("D4"))
    c.click(v("E5"))
    t.t += 10.0  # no poll in between (a busy frame): the click itself finds the fallen flag
    assert not c.click(v("F6"))
    assert c.game.move_number == 2 and c.game.result == "W+T"


def test_byoyomi_periods_in_the_sgf_and_the_panel():
    c, t = human_game("5s+3x10s")
    c.click(v("D4"))  # starts White's clock
    t.t += 2
    c.click(v("E5"))  # White: 3 s of main time left
    t.t += 1
    c.click(v("F6"))  # Black's first timed move
    t.t += 3 + 10 + 4  # White: main time, one period, 4 s into the next
    views = c.clock_views()
    assert views[WHITE].overtime and views[WHITE].periods == 2 and views[WHITE].seconds == pytest.approx(6)
    assert "Clock: Black 4.0 (3)  White 6.0 (2)" in status_lines(c)
    c.click(v("G7"))
    timing = sgf.read_timing(game_to_sgf(c.game, c.sgf_timing()))
    assert timing.main == 5 and timing.overtime == "3x10 byo-yomi"
    assert timing.left[2] == (3.0, 0) and timing.left[3] == (4.0, 0) and timing.left[4] == (10.0, 2)


def test_pause_between_humans_only():
    c, t = human_game("1m")
    c.click(v("D4"))
    t.t += 10
    assert c.toggle_pause() and c.clock.paused
    t.t += 1000
    assert not c.click(v("E5")) and "paused" in c.message
    c.poll()
    assert not c.over
    assert c.toggle_pause()
    assert c.clock_views()[WHITE].seconds == pytest.approx(50)
    ai, _ = human_game("1m", white=ScriptedAgent([v("E5")]))
    ai.click(v("D4"))
    assert not ai.toggle_pause() and "two humans" in ai.message
    ai.close()


def test_agents_get_their_time_before_each_move():
    class Timed(ScriptedAgent):
        def __init__(self, moves):
            super().__init__(moves)
            self.settings = None
            self.left: list[tuple[int, float, int]] = []

        def set_time(self, main, byo, stones):
            self.settings = (main, byo, stones)

        def time_left(self, color, seconds, stones):
            self.left.append((color, seconds, stones))

    agent = Timed([v("E5"), v("F5")])
    t = FakeTime()
    c = Controller(Game.new(9), "human", agent, clock=parse_clock("30s+25/5m"), now=t)
    assert agent.settings == (30, 300, 25)
    c.click(v("D4"))
    c.wait(5)
    assert agent.left == [(WHITE, 30.0, 0)] and c.game.move_number == 2
    t.t += 40
    c.click(v("D5"))  # Black: 30 s main, 10 s into overtime
    c.wait(5)
    assert agent.left[-1] == (WHITE, 30.0, 0)
    assert c.clock.clocks[BLACK].stones == 24 and c.clock.clocks[BLACK].period_left == pytest.approx(290)
    c.close()


def test_new_game_and_load_give_fresh_clocks(tmp_path):
    c, t = human_game("1m")
    c.click(v("D4"))
    t.t += 70
    c.poll()
    assert c.ended == "time"
    path = tmp_path / "lost.sgf"
    c.save(str(path))
    c.reset()
    assert not c.over and not c.clock_started and c.clock_views()[BLACK].seconds == 60
    c.load(str(path))
    assert c.over and c.ended == "record" and c.game.result == "B+T"


def test_set_time_control_applies_before_the_first_move():
    c, _ = human_game("none")
    assert c.clock_views() is None
    c.set_time_control(TimeControl("fischer", 60, increment=5))
    assert c.clock_views()[BLACK].seconds == 60


def test_resign_by_a_human_ends_the_game_with_an_event():
    c, _ = human_game("none")
    c.click(v("D4"))
    assert c.resign()
    assert c.game.result == "B+R" and ("game_end", {"result": "B+R"}) in c.drain_events()


def test_pass_illegal_and_capture_events():
    c = Controller(Game.new(9))
    for p in ("B1", "A1"):
        c.click(v(p))
    c.click(v("A2"))  # captures A1
    c.click(v("B1"))  # occupied: illegal
    c.pass_turn()
    kinds = c.drain_events()
    assert kinds == [
        ("stone", {"stones": 0, "move": 1}),
        ("stone", {"stones": 0, "move": 2}),
        ("capture", {"stones": 1, "move": 3}),
        ("illegal", {}),
        ("pass", {}),
    ]


# --- GTP engines --------------------------------------------------------------------------------
FAKE = textwrap.dedent(
    """\
    import sys
    mode = sys.argv[1]
    for line in sys.stdin:
        cmd = line.split()
        if not cmd:
            continue
        if cmd[0] == "quit":
            print("=\\n", flush=True)
            break
        if cmd[0] == "list_commands":
            known = "genmove play boardsize clear_board komi set_free_handicap kgs-time_settings"
            print("= " + "\\n".join(known.split()) + "\\n", flush=True)
        elif cmd[0] == "genmove":
            answer = {"illegal": "D4", "resign": "resign", "pass": "pass", "log": "pass"}.get(mode)
            if mode == "log":
                with open(sys.argv[2], "a") as log:
                    log.write(line)
            if mode == "garbage":
                print("I think the best move is the one I like", flush=True)
                continue
            print(f"= {answer}\\n", flush=True)
        else:
            if mode == "log":
                with open(sys.argv[2], "a") as log:
                    log.write(line)
            print("=\\n", flush=True)
    """
)


@pytest.fixture(scope="module")
def fake_engine(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("fake") / "fake_gtp.py"
    path.write_text(FAKE)
    return f"gtp:{sys.executable} {path}"


def test_engine_that_does_not_start_gives_one_message_and_the_game_stays():
    c = Controller(Game.new(9), "human", "gtp:/nonexistent/engine --gtp")
    assert c.players[WHITE] == "engine --gtp"  # folders left out
    c.click(v("D4"))
    drive(c, lambda: c.ai_error is not None)
    assert c.message.startswith("White: ") and "did not start" in c.message and "\n" not in c.message
    assert c.game.move_number == 1 and not c.over
    c.close()


def test_engine_illegal_move_forfeits(fake_engine):
    c = Controller(Game.new(9), "human", f"{fake_engine} illegal")
    c.click(v("D4"))
    drive(c, lambda: c.over)
    assert c.ended == "forfeit" and c.game.result == "B+F"
    assert "illegal move D4" in c.message and "forfeits" in c.message
    assert c.game.move_number == 1
    c.close()


def test_engine_garbage_is_one_message(fake_engine):
    c = Controller(Game.new(9), "human", f"{fake_engine} garbage")
    c.click(v("D4"))
    drive(c, lambda: c.ai_error is not None)
    assert "not GTP" in c.message and c.game.move_number == 1 and not c.over
    c.close()


@pytest.mark.parametrize("mode, result", [("resign", "B+R"), ("pass", None)])
def test_engine_resign_and_pass_are_honoured(fake_engine, mode, result):
    c = Controller(Game.new(9), "human", f"{fake_engine} {mode}")
    c.click(v("D4"))
    drive(c, lambda: c.game.move_number == 2)
    assert c.game.result == result
    if mode == "pass":
        assert c.game.moves[-1].point == PASS
    c.close()


@pytest.mark.gnugo
def test_gnugo_plays_real_moves_with_time_settings(gnugo_path):
    c = Controller(
        Game.new(9), "human", f"gtp:{gnugo_path} --mode gtp --level 0", clock=parse_clock("2m+3x10s")
    )
    assert c.game.info.white_name == "gnugo --mode gtp --level 0"
    for _ in range(2):
        p = next(v(p) for p in ("E5", "C3", "G7", "C7") if c.game.position.color_at(v(p)) == 0)
        assert c.click(p)
        drive(c, lambda: c.game.to_move == BLACK and not c.thinking, timeout=30)
    moves = c.game.moves
    assert len(moves) == 4 and all(m.color == WHITE and m.point >= 0 for m in moves[1::2])
    assert c.clock.clocks[WHITE].main < 120
    agent = c.agents[WHITE]
    assert agent.engine_name.startswith("GNU Go")
    c.undo()  # the engine follows an undo (its board is set up again)
    p = next(v(p) for p in ("G3", "G7", "C7", "J9") if c.game.position.color_at(v(p)) == 0)
    assert c.click(p)
    drive(c, lambda: c.game.move_number == 4, timeout=30)
    assert c.game.moves[2].point == p and c.game.moves[3].color == WHITE and c.game.moves[3].point >= 0
    c.close()
    assert not agent.client.alive


@pytest.mark.gnugo
def test_gnugo_via_known_name(gnugo_path):
    c = Controller(Game.new(9), "gtp:gnugo", "human")
    assert c.players[BLACK] == "gnugo"
    drive(c, lambda: c.game.move_number == 1, timeout=30)
    assert c.game.moves[0].point >= 0
    c.close()


def test_terminal_shows_the_clock_and_ends_on_time():
    import io

    from gorilla.app.go.terminal import run_terminal

    t = FakeTime()

    class SlowInput(io.StringIO):
        """Every line takes the player 25 seconds to type."""

        def readline(self, *a):
            t.t += 25
            return super().readline(*a)

    c = Controller(Game.new(9), clock=parse_clock("1m"), now=t)
    out = io.StringIO()
    rc = run_terminal(c, SlowInput("D4\nE5\nF6\nG7\nH8\nJ9\nA1\n"), out)
    text = out.getvalue()
    assert rc == 0 and "Black to move [1:00]> " in text and "White to move [0:35]> " in text
    assert text.rstrip().endswith("White to move [0:10]> White lost on time: B+T")
    assert c.game.move_number == 5 and c.game.result == "B+T"


def test_engine_gets_the_board_handicap_and_the_clock(fake_engine, tmp_path):
    log = tmp_path / "commands.txt"
    t = FakeTime()
    c = Controller(
        Game.new(9, handicap=2), f"{fake_engine} log {log}", "human", clock=parse_clock("1m+3x10s"), now=t
    )
    c.wait(10)  # White moves first after the handicap: the engine (Black) waits
    assert c.game.to_move == WHITE and not log.exists()
    c.click(v("E5"))
    drive(c, lambda: c.game.move_number == 2)
    lines = log.read_text().splitlines()
    assert lines[:3] == ["boardsize 9", "clear_board", "komi 7.5"]
    assert sorted(lines[3].split()) == ["C3", "G7", "set_free_handicap"]
    assert lines[4:] == ["play w E5", "kgs-time_settings byoyomi 60 10 3", "time_left b 60 0", "genmove b"]
    c.close()


def test_a_fixed_time_per_move_is_cut_to_what_the_clock_allows():
    class FixedTime(ScriptedAgent):
        name = "scripted:time=8"

        def select_move(self, game, budget=None, cancel=None, progress=None):
            self.budgets = [*getattr(self, "budgets", []), budget]
            return super().select_move(game, budget, cancel, progress)

    agent = FixedTime([v("E5")])
    c = Controller(Game.new(9), "human", agent, clock=parse_clock("1m"), now=FakeTime())
    c.click(v("D4"))
    c.wait(5)
    assert agent.budgets[-1].seconds == pytest.approx(6.0)  # a tenth of a minute, not 8 s
    c.close()

    agent = FixedTime([v("E5"), v("F5")])
    t = FakeTime()
    c = Controller(Game.new(9), "human", agent, clock=parse_clock("2m+3x5s"), now=t)
    c.click(v("D4"))
    c.wait(5)
    assert agent.budgets[-1] is None  # 12 s + 4 s of byo-yomi afford its 8 s
    t.t += 122  # Black is 2 s into byo-yomi; White goes there by hand
    c.clock.clocks[WHITE].main = 0.0
    c.clock.clocks[WHITE].overtime = True
    c.click(v("D5"))
    c.wait(5)
    assert agent.budgets[-1].seconds == pytest.approx(0.8 * 5 - 0.2)  # a 5 s period: under 4 s
    c.close()


@pytest.mark.parametrize(
    "tm, ot, spec",
    [
        (600, "5x30 byo-yomi", "10m+5x30s"),
        (600, "25/300 Canadian", "10m+25/5m"),
        (300, "10 fischer", "5m+10s"),
        (60, "", "1m"),
        (0, "", None),
        (60, "something odd", None),
    ],
)
def test_time_control_from_sgf(tm, ot, spec):
    from gorilla.app.clock import from_sgf

    tc = from_sgf(tm, ot)
    assert (tc.spec() if tc else None) == spec


def test_loading_a_record_brings_its_clock_back(tmp_path):
    c, t = human_game("1m+3x10s")
    c.click(v("D4"))
    t.t += 70  # White: main time and one period
    c.click(v("E5"))
    t.t += 12
    c.click(v("F6"))
    path = tmp_path / "timed.sgf"
    c.save(str(path))
    d, t2 = human_game("none")
    d.load(str(path))
    assert d.time_control.spec() == "1m+3x10s" and d.clock_started and d.clock.running == WHITE
    views = d.clock_views()
    assert (views[WHITE].overtime, views[WHITE].periods, views[WHITE].seconds) == (True, 2, 10.0)
    assert views[BLACK].seconds == pytest.approx(48.0) and not views[BLACK].overtime
    t2.t += 25  # White's last two periods
    d.poll()
    assert d.game.result == "B+T"


def test_an_ais_clock_does_not_run_while_its_engine_compiles(tmp_path, monkeypatch):
    # Go: the AI's kernels compile in a child (a stand-in that takes 3 s); the human plays, the
    # time passes on the AI's clock while it waits for them, and none of it is counted
    import time

    from test_window_panel import fake_compiler_python

    from gorilla.ai import warmup
    from gorilla.app.compiler import Compiler

    monkeypatch.setattr(warmup, "is_warm", lambda group: group != "mcts")
    compiler = Compiler(["mcts"], python=fake_compiler_python(tmp_path, 3.0, "mcts"))
    c, t = human_game("1m", white="mcts:playouts=50", compiler=compiler)
    try:
        end = time.monotonic() + 30
        while not c.kernels_ready("rules"):
            assert time.monotonic() < end
            time.sleep(0.02)
        assert c.click(v("D4")) and c.clock.running == WHITE
        t.t += 30  # half of White's minute goes by while its engine compiles
        c.poll()
        assert not c.thinking and c.clock_views()[WHITE].seconds == pytest.approx(60)
        while c.game.move_number < 2:  # compiled and loaded: it plays, on its full minute
            assert time.monotonic() < end + 60, c.message
            c.poll()
            time.sleep(0.02)
        assert c.clock_views()[WHITE].seconds == pytest.approx(60, abs=0.5)
    finally:
        c.close()
