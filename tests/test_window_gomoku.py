"""Gomoku in the real window under Xvfb, with real input: clicks place stones, the AI answers,
five in a row ends the game and is ringed; renju's forbidden point is marked and refuses
Black's click; AI vs AI steps on space; e values every move and c shows the threat map on the
board; Left/Right move through the game; Swap2's panel and clock follow the player who acts."""

from __future__ import annotations

import time

import numpy as np
import pytest
from test_window import Harness, app_window, gui  # noqa: F401  (fixtures)
from test_window_newgame import choose, type_row

from gorilla.app.go.controller import Controller
from gorilla.app.gomoku.controller import GomokuController, gomoku_controller
from gorilla.app.gomoku.values import THREAT_SHADE
from gorilla.gomoku import rules as R
from gorilla.gomoku.game import SWAP2_PLACE2
from gorilla.rules.coords import format_vertex

pytestmark = pytest.mark.gui


@pytest.fixture
def gomoku(gui):  # noqa: F811
    made: list[Harness] = []

    def factory(
        size: int = 15, rule: str = "freestyle", black: str = "human", white: str = "human"
    ) -> Harness:
        h = Harness(gui, gomoku_controller(size, rule, black, white), 900, 700)
        made.append(h)
        return h

    yield factory
    for h in made:
        h.close()


def vertex(h: Harness, x: int, y: int) -> str:
    """The window's name of Gomoku point (x, y) (0-based from the top-left)."""
    n = h.c.game.size
    return format_vertex((y + 1) * (n + 2) + x + 1, n)


def stone(h: Harness, x: int, y: int) -> int:
    c: GomokuController = h.c
    return c.gomoku.color_at(x, y)


def wait_for(h: Harness, cond, seconds: float = 30.0) -> None:
    end = time.monotonic() + seconds
    while not cond():
        assert time.monotonic() < end, "timed out"
        h.frames(0.05)


def start_gomoku(h: Harness, rules: str, size: int, black: str, white: str, **rows) -> None:
    """Ctrl+N, a Gomoku game chosen row by row (and any other rows), Enter; then its controller
    once it is there (a cold cache: the engine compiles in a child process, the window keeps
    drawing), the old one closed."""
    h.press(h.key.N, h.key.MOD_CTRL)
    chosen = {"rules": rules, "size": size, "black": black, "white": white, **rows}
    for row, value in chosen.items():
        choose(h, row, value)
    h.press(h.key.ENTER)
    assert h.w.dialog is None
    wait_for(h, lambda: isinstance(h.w.controller, GomokuController), 300)
    old, h.c = h.c, h.w.controller
    old.close()


def test_human_five_in_a_row_ends_the_game(gomoku):
    h = gomoku(15)
    for i in range(4):
        h.click_point(vertex(h, 3 + i, 7))  # Black builds the row
        h.click_point(vertex(h, 3 + i, 10))  # White plays along elsewhere
    assert [stone(h, 3 + i, 7) for i in range(4)] == [R.BLACK] * 4
    assert not h.c.over
    img = h.screen()
    dark = h.patch(vertex(h, 3, 7), img).mean()
    light = h.patch(vertex(h, 3, 10), img).mean()
    assert dark < 90 < 160 < light  # the stones are drawn where they were clicked

    def gold(img: np.ndarray) -> int:  # pixels of the rings around the five's stones
        r, g, b = (img[..., k].astype(int) for k in range(3))
        return int(((r > 200) & (g > 120) & (b < 60)).sum())

    before = gold(h.screen())
    h.click_point(vertex(h, 7, 7))
    assert h.c.over and h.c.gomoku.result.winner == R.BLACK
    assert "Black wins with five in a row" in h.c.message
    h.frames(0.1)
    assert before == 0 and gold(h.screen()) > 200, before  # the five is ringed in gold
    n = len(h.c.gomoku.moves)
    h.click_point(vertex(h, 0, 0))  # after the end a click plays nothing
    assert len(h.c.gomoku.moves) == n and stone(h, 0, 0) == R.EMPTY
    h.press(h.key.U)  # undo takes the five back and the game goes on
    assert not h.c.over and stone(h, 7, 7) == R.EMPTY


def test_the_ai_answers_every_click_and_its_five_ends_the_game(gomoku):
    h = gomoku(15, black="human", white="threat1:0.2")
    far = [(x, y) for y in (0, 14) for x in range(0, 15, 3)] + [(0, y) for y in range(2, 13, 3)]
    for x, y in far:
        if h.c.over:
            break
        if stone(h, x, y) != R.EMPTY:
            continue
        before = len(h.c.gomoku.moves)
        h.click_point(vertex(h, x, y))
        assert stone(h, x, y) == R.BLACK
        wait_for(h, lambda b=before: len(h.c.gomoku.moves) == b + 2 or h.c.over)
    assert h.c.over, "the AI never made its five against scattered stones"
    assert h.c.gomoku.result.winner == R.WHITE and h.c.game.result == "W+"
    assert any("Game over" in ln for ln in h.c.status_lines())


def test_renju_forbidden_point_refuses_blacks_click(gomoku):
    h = gomoku(15, rule="renju")
    for b, w in (((7, 7), (0, 0)), ((8, 7), (0, 2)), ((9, 8), (0, 4)), ((9, 9), (0, 6))):
        h.click_point(vertex(h, *b))
        h.click_point(vertex(h, *w))
    x, y = 9, 7  # two open threes at once: along row 7 and down column 9
    assert R.is_forbidden(h.c.gomoku.bd, h.c.gomoku.point(x, y))
    h.frames(0.1)
    img = h.screen()
    cross, wood = h.patch(vertex(h, x, y), img, r=3), h.patch(vertex(h, 11, 3), img, r=3)
    assert cross[0] - cross[1] > wood[0] - wood[1] + 25, (cross, wood)  # a red cross marks it
    h.click_point(vertex(h, x, y))
    assert stone(h, x, y) == R.EMPTY and h.c.gomoku.to_move == R.BLACK
    assert "forbidden" in h.c.message


def test_ai_vs_ai_steps_on_space_and_e_and_c_show_on_the_board(gomoku):
    h = gomoku(15, black="pvs:0.2", white="pvs+vct:0.2")
    h.frames(0.3)
    assert len(h.c.gomoku.moves) == 0  # stepwise: nothing without space or a click

    def step() -> None:  # space: the AI to move plays one move
        k = len(h.c.gomoku.moves) + 1
        h.press(h.key.SPACE)
        wait_for(h, lambda: len(h.c.gomoku.moves) == k and not h.c.thinking)

    for k in range(1, 4):
        step()
        h.frames(0.2)
        assert len(h.c.gomoku.moves) == k
    before = h.screen()
    h.press(h.key.E)
    wait_for(h, lambda: h.c.evaluation is not None)
    ev = h.c.evaluation.evaluation
    assert len(ev.values) >= 10 and ev.best in ev.values
    h.frames(0.2)
    after = h.screen()
    assert np.abs(after.astype(int) - before.astype(int)).sum() > 0  # the heat map is drawn
    h.press(h.key.C)
    assert h.c.show_control

    def threats() -> np.ndarray:  # the empty points where either side makes a three or more, by the rules
        g = h.c.gomoku
        n = g.size
        shade = np.zeros((n, n), dtype=bool)
        for y in range(n):
            for x in range(n):
                p = g.point(x, y)
                cls = (int(g.bd[3][c, p]) for c in (R.BLACK, R.WHITE))
                shade[y, x] = g.bd[0][p] == R.EMPTY and any(k in THREAT_SHADE for k in cls)
        return shade

    # the AIs' first moves depend on the clock: step on until somebody threatens something
    while not threats().any() and len(h.c.gomoku.moves) < 12:
        step()
    expected = threats()
    tm = h.c.control_map()
    assert expected.any() and np.array_equal(tm != 0, expected)  # shaded exactly where a threat is
    h.frames(0.2)


@pytest.mark.slow  # back in Go, the Go kernels load in a child process first (a minute on a busy machine)
def test_the_new_game_dialog_switches_to_gomoku_and_back_to_go(app_window):  # noqa: F811
    h = app_window(9, 1000, 700)
    start_gomoku(h, "gomoku renju", 15, "human", "threat1")
    assert (h.c.gomoku.size, h.c.gomoku.rule) == (15, R.RENJU) and h.w.camera.size == 15
    h.click_point(vertex(h, 7, 7))
    wait_for(h, lambda: len(h.c.gomoku.moves) == 2)  # the AI answers
    assert stone(h, 7, 7) == R.BLACK
    h.click(*h.w.toolbar.centre("Undo"))  # the panel's buttons act on the new controller
    assert h.c.gomoku.moves == []
    h.press(h.key.N, h.key.MOD_CTRL)
    choose(h, "rules", "chinese")
    choose(h, "size", 9)
    choose(h, "white", "human")
    h.press(h.key.ENTER)
    assert h.w.dialog is None
    old, h.c = h.c, h.w.controller
    old.close()
    assert isinstance(h.c, Controller) and h.c.game.size == 9
    h.click_point("E5")  # played once the Go kernels are loaded (compiled in a child process)
    wait_for(h, lambda: h.c.game.move_number == 1, 240)


def test_the_panel_shows_no_captures_in_gomoku(gomoku):
    h = gomoku(15)
    h.frames(0.1)
    for c in (R.BLACK, R.WHITE):
        caps = h.w.hud.rows[c][3]
        assert not caps.visible and "captures" not in caps.text


def test_gomokus_pass_button_is_dimmed_and_takes_no_click(gomoku):
    from gorilla.gui.toolbar import CAPTION, CAPTION_OFF

    h = gomoku(15)
    h.frames(0.1)
    bar = h.w.toolbar
    assert not bar.buttons["Pass"].enabled and tuple(bar.captions["Pass"].color) == CAPTION_OFF
    assert all(bar.buttons[b].enabled for b in bar.buttons if b != "Pass")
    assert tuple(bar.captions["Undo"].color) == CAPTION

    def caption_light(name: str) -> float:  # the brightest pixel of the caption, read back
        x, y = bar.centre(name)
        img = h.screen()
        return float(img[y - 5 : y + 5, x - 15 : x + 15].max())

    assert caption_light("Pass") < 150 < caption_light("Undo")
    h.click_point(vertex(h, 7, 7))
    h.click(*bar.centre("Pass"))
    assert "Pass" not in bar.pressed and len(h.c.gomoku.moves) == 1 and h.c.gomoku.to_move == R.WHITE
    h.click(*bar.centre("Undo"))  # the others act
    assert bar.pressed[-1] == "Undo" and h.c.gomoku.moves == []


def test_a_command_line_game_waits_for_its_engine_on_an_empty_board(gui, tmp_path):  # noqa: F811
    # what `gorilla --game gomoku` opens when the engine is not compiled yet: a stand-in with the
    # compile's progress (the child process fills the cache; here it only loads, the cache being
    # warm), then the game asked for: its size, rule, players and the record to load
    from gorilla.app.compiler import Compiler
    from gorilla.app.game_kinds import GomokuLoading, GomokuStart
    from gorilla.gomoku import sgf
    from gorilla.gomoku.game import GomokuGame

    rec = GomokuGame(13, R.RENJU)
    for x, y in ((6, 6), (7, 7), (5, 5)):
        rec.play_xy(x, y)
    path = tmp_path / "rec.sgf"
    sgf.save(rec, str(path), "human", "threat1")
    start = GomokuStart(size=13, rules="gomoku renju", black="human", white="threat1:0.2", load=str(path))
    loading = GomokuLoading(start, Compiler(["gomoku"], start=False))
    h = Harness(gui, loading, 900, 700)
    try:
        assert h.w.controller is loading and h.c.game.size == 13  # the window is up before the engine
        assert not any(h.w.hud.rows[c][3].visible for c in (R.BLACK, R.WHITE))
        h.click_point("G7")  # no move before the game starts (the panel shows the compile's progress)
        assert loading.game.move_number == 0 and not loading.game.moves
        wait_for(h, lambda: isinstance(h.w.controller, GomokuController), 300)
        h.c = h.w.controller
        assert (h.c.gomoku.size, h.c.gomoku.rule) == (13, R.RENJU)
        assert h.c.players[R.WHITE].startswith("threat1") and h.c.is_human(R.BLACK)
        wait_for(h, lambda: len(h.c.gomoku.moves) == 4)  # the loaded record, then White's answer
        assert [m for m, _ in h.c.gomoku.moves[:3]] == [m for m, _ in rec.moves]
    finally:
        h.close()
        loading.close()


@pytest.mark.slow  # the engine compiles from nothing in the child (a minute or two)
def test_gorilla_game_gomoku_opens_the_window_before_the_rules_are_compiled(gui, tmp_path):  # noqa: F811
    import os
    import subprocess
    import sys

    cache, frames = tmp_path / "cache", tmp_path / "frames.log"
    env = {
        **os.environ,
        "NUMBA_CACHE_DIR": str(cache),
        "GORILLA_FRAME_LOG": str(frames),
        "GORILLA_CONFIG_DIR": str(tmp_path / "cfg"),
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "gorilla", "--game", "gomoku", "--size", "9"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip

    def drawn() -> int:
        return len(frames.read_text().split()) if frames.exists() else 0

    def until(cond, seconds: float) -> None:
        end = time.monotonic() + seconds
        while not cond():
            assert proc.poll() is None, proc.communicate()[1]
            assert time.monotonic() < end, "timed out"
            time.sleep(0.05)

    try:
        until(lambda: drawn() > 0, 120)
        assert not (cache / "warm-gomoku-basic").exists()  # the window draws while the rules compile
        until(lambda: (cache / "warm-gomoku-basic").exists(), 600)
        # two humans (the default players) wait for the rules alone, not for the agents' parts
        assert not any((cache / f"warm-gomoku{part}").exists() for part in ("", "-pvs", "-threats", "-mcts"))
        n = drawn()
        until(lambda: drawn() > n, 60)  # and goes on drawing once it is ready
    finally:
        proc.terminate()
        proc.communicate(timeout=30)


def test_the_dialog_sets_a_gomocup_engine_and_a_clock_and_the_human_loses_on_time(app_window):  # noqa: F811
    # Gorilla's own `gorilla pbrain` as the external Gomocup engine, typed in White's command row
    import shlex
    import sys

    from gorilla.app.gomoku.pbrain_player import PbrainAgent
    from gorilla.app.newgame import PBRAIN_CUSTOM

    t = [1000.0]
    h = app_window(9, 1000, 700, now=lambda: t[0])
    h.press(h.key.N, h.key.MOD_CTRL)
    rows = (("rules", "gomoku freestyle"), ("size", 15), ("black", "human"), ("white", PBRAIN_CUSTOM))
    for row, value in rows:
        choose(h, row, value)
    type_row(h, "white_cmd", f"{shlex.quote(sys.executable)} -m gorilla pbrain --agent threat1")
    type_row(h, "clock", "1m")
    h.press(h.key.ENTER)
    assert h.w.dialog is None
    wait_for(h, lambda: isinstance(h.w.controller, GomokuController), 300)
    old, h.c = h.c, h.w.controller
    old.close()
    c: GomokuController = h.c
    assert isinstance(c.agents[R.WHITE], PbrainAgent) and c.time_control.spec() == "1m"
    h.frames(0.1)
    assert h.w.hud.clocks[R.BLACK].visible and h.w.hud.clocks[R.BLACK].text == "1:00"
    h.click_point(vertex(h, 7, 7))
    wait_for(h, lambda: len(c.gomoku.moves) == 2, 300)  # the engine starts (and loads its kernels)
    assert stone(h, 7, 7) == R.BLACK and c.gomoku.moves[1][1] == R.WHITE and not c.over, c.message
    assert c.clocks.clock.running == R.BLACK
    t[0] += 61  # Black thinks past its minute
    h.frames(0.1)
    assert c.over and c.game.result == "W+T" and "Black lost on time" in c.message
    assert h.w.hud.clocks[R.BLACK].text != "1:00"
    h.click_point(vertex(h, 3, 3))
    assert len(c.gomoku.moves) == 2  # no move after the game is over


def test_a_new_gomoku_game_starts_while_its_ai_compiles_and_the_ai_waits(app_window, tmp_path, monkeypatch):  # noqa: F811
    # the first game's players were ready; the dialog's new agent (the MCTS) is not in the
    # cache: the window compiles its parts in a child (a stand-in here). The game starts at
    # once (its rules are in the cache): the human plays, the AI's first move and its clock
    # wait for its parts, then it answers
    from test_window_panel import fake_compiler_python

    from gorilla.ai import warmup
    from gorilla.app import game_kinds
    from gorilla.app.compiler import Compiler

    fake = fake_compiler_python(tmp_path, 4.0, "gomoku-mcts")
    asked: list[list[str]] = []

    def compiler(groups, **kw):
        asked.append(list(groups))
        return Compiler(groups, python=fake, **kw)

    monkeypatch.setattr(game_kinds, "Compiler", compiler)
    monkeypatch.setattr(warmup, "is_warm", lambda group: group != "gomoku-mcts")
    t = [1000.0]
    h = app_window(9, 1000, 700, now=lambda: t[0])
    old = h.c
    h.press(h.key.N, h.key.MOD_CTRL)
    for row, value in (("rules", "gomoku freestyle"), ("size", 15), ("black", "human"), ("white", "mcts")):
        choose(h, row, value)
    type_row(h, "clock", "1m")
    h.press(h.key.ENTER)
    wait_for(h, lambda: isinstance(h.w.controller, GomokuController), 10)
    assert asked == [["gomoku-basic", "gomoku-mcts"]]  # the rules and the MCTS, not the PVS
    h.c = c = h.w.controller
    old.close()
    assert c.seats.specs[R.WHITE] == "mcts" and c.game.size == 15 and c.game.moves == []
    assert c.compiler.compiling and not c.kernels_ready("gomoku-mcts")
    h.click_point(vertex(h, 7, 7))  # the human plays while the MCTS compiles
    assert stone(h, 7, 7) == R.BLACK and c.clocks.clock.running == R.WHITE
    h.click_point(vertex(h, 3, 3))  # White's turn: the panel says why nothing is played
    assert len(c.gomoku.moves) == 1 and "White (mcts 1s) moves once its engine is compiled" in c.message
    t[0] += 30  # the compile takes half of White's minute: not White's time
    h.frames(0.3)
    assert len(c.gomoku.moves) == 1 and not c.thinking
    assert "Compiling the engine (gomoku-mcts)" in h.w.hud.info.text
    assert "you can play meanwhile" in h.w.hud.ai_text.text
    assert c.clock_views()[R.WHITE].text() == "1:00"
    wait_for(h, lambda: len(c.gomoku.moves) == 2, 120)  # compiled and loaded: the MCTS answers
    assert c.gomoku.moves[1][1] == R.WHITE and not c.over, c.message
    assert "Compiling" not in h.w.hud.info.text


def test_a_swap2_opening_from_the_dialog_the_ai_opens_and_the_human_takes_black_with_pass(app_window):  # noqa: F811
    # the form's Opening row: the AI in the Black row opens with three stones; the human
    # chooses: the Pass button lights up, a click on it takes Black, and the AI (now White)
    # plays the fourth stone; the panel names the players at their new colours
    h = app_window(9, 1000, 700)
    start_gomoku(h, "gomoku freestyle", 15, "threat1", "human", opening="swap2")
    c: GomokuController = h.c
    wait_for(h, lambda: len(c.gomoku.moves) == 3 and not c.thinking, 60)
    h.frames(0.1)
    bar = h.w.toolbar
    assert bar.buttons["Pass"].enabled and "passes to take Black" in h.w.hud.info.text
    assert [col for _, col in c.gomoku.moves] == [R.BLACK, R.WHITE, R.BLACK]
    h.click(*bar.centre("Pass"))
    assert bar.pressed[-1] == "Pass" and c.is_human(R.BLACK)
    wait_for(h, lambda: len(c.gomoku.moves) == 4, 60)
    h.frames(0.1)
    assert c.gomoku.moves[3][1] == R.WHITE and not bar.buttons["Pass"].enabled
    assert h.w.hud.rows[R.BLACK][2].text.lower() == "human"  # the panel's Black row: the human now
    assert h.w.hud.rows[R.WHITE][2].text.lower().startswith("threat1")


def test_in_a_swap2_opening_the_panel_highlights_the_player_who_acts_and_its_clock_runs(app_window):  # noqa: F811
    # the AI (Black row) opens; the human (White row) asks for two more stones with the key 2
    # and puts White's: Black's stone is next, yet the human still acts, so the panel's turn
    # box stays on the White row, and the human's clock is the one that runs
    h = app_window(9, 1000, 700)
    h.press(h.key.N, h.key.MOD_CTRL)
    for row, value in (
        ("rules", "gomoku freestyle"),
        ("size", 15),
        ("black", "threat1"),
        ("white", "human"),
        ("opening", "swap2"),
    ):
        choose(h, row, value)
    type_row(h, "clock", "5m")
    h.press(h.key.ENTER)
    wait_for(h, lambda: isinstance(h.w.controller, GomokuController), 300)
    old, h.c = h.c, h.w.controller
    old.close()
    c: GomokuController = h.c
    wait_for(h, lambda: len(c.gomoku.moves) == 3 and not c.thinking, 60)
    h.press(h.key._2)
    assert c.gomoku.swap2_phase == SWAP2_PLACE2, c.message
    free = next((x, 0) for x in range(15) if stone(h, x, 0) == R.EMPTY)
    h.click_point(vertex(h, *free))
    h.frames(1.2)
    assert len(c.gomoku.moves) == 4 and c.gomoku.to_move == R.BLACK and c.acting == R.WHITE
    box, label = h.w.hud.turn_box, h.w.hud.rows[R.WHITE][2]
    assert box.visible and box.y <= label.y <= box.y + box.height  # the White row: the human's
    assert c.clocks.clock.running == R.WHITE and c.clock_views()[R.WHITE].seconds < 299.5
    assert c.clock_views()[R.BLACK].seconds == 300  # the opener's three stones were free


def test_left_and_right_move_through_the_game_on_the_board(gomoku):
    # Left takes the last stone off the board on show, Right puts it back, Home shows the
    # empty board; the panel says the AI-less review is on, End brings the game back
    h = gomoku(15)
    h.click_point(vertex(h, 5, 5))
    h.click_point(vertex(h, 9, 9))
    h.frames(0.1)
    dark = h.patch(vertex(h, 5, 5)).mean()
    light = h.patch(vertex(h, 9, 9)).mean()
    wood = h.patch(vertex(h, 12, 2)).mean()
    assert dark < 90 < 160 < light
    h.event("on_mouse_motion", 5, 5, 0, 0)  # the pointer off the board: no hover stone
    h.press(h.key.LEFT)
    h.frames(0.1)
    assert abs(h.patch(vertex(h, 9, 9)).mean() - wood) < 30 and h.patch(vertex(h, 5, 5)).mean() < 90
    assert "Reviewing move 1 of 2" in h.w.hud.info.text
    h.press(h.key.RIGHT)
    h.frames(0.1)
    assert h.patch(vertex(h, 9, 9)).mean() > 160 and not h.c.reviewing
    h.press(h.key.HOME)
    h.frames(0.1)
    assert h.c.gomoku.moves == [] and abs(h.patch(vertex(h, 5, 5)).mean() - wood) < 30
    h.press(h.key.END)
    assert len(h.c.gomoku.moves) == 2 and not h.c.reviewing


def test_ctrl_o_opens_a_record_of_either_game_whatever_the_board_shows(app_window, tmp_path):  # noqa: F811
    from gorilla.app.go.sgf_text import game_to_sgf
    from gorilla.gomoku import sgf
    from gorilla.gomoku.game import GomokuGame
    from gorilla.rules.coords import parse_vertex
    from gorilla.rules.game import Game
    from gorilla.rules.sgf import Timing

    record = GomokuGame(15, R.RENJU)
    for x, y in ((7, 7), (8, 8), (6, 6)):
        record.play_xy(x, y)
    gomoku_file = tmp_path / "five.sgf"
    gomoku_file.write_text(sgf.dumps(record, timing=Timing(300, "", {2: (280.0, 0), 3: (290.0, 0)})))
    h = app_window(9, 1000, 700)
    assert isinstance(h.c, Controller)
    h.press(h.key.O, h.key.MOD_CTRL)  # a Gomoku record while the board shows Go
    h.type_text(str(gomoku_file))
    h.press(h.key.RETURN)
    wait_for(h, lambda: isinstance(h.w.controller, GomokuController) and h.w.controller.gomoku.moves, 300)
    old, h.c = h.c, h.w.controller
    old.close()
    c: GomokuController = h.c
    assert c.gomoku.rule == R.RENJU and c.gomoku.diagram() == record.diagram() and h.w.camera.size == 15
    assert (
        c.time_control.spec() == "5m" and 250 < c.clock_views()[R.WHITE].seconds <= 280
    )  # White to move: its clock runs
    assert c.is_human(R.BLACK) and c.is_human(R.WHITE) and c.message == f"Loaded {gomoku_file}"
    h.frames(0.1)
    assert stone(h, 8, 8) == R.WHITE
    go = Game.new(9)
    for v in ("D4", "E5"):
        go.play(parse_vertex(v, 9))
    go_file = tmp_path / "go.sgf"
    go_file.write_text(game_to_sgf(go))
    h.press(h.key.O, h.key.MOD_CTRL)  # and a Go record while the board shows Gomoku
    h.type_text(str(go_file))
    h.press(h.key.RETURN)
    assert isinstance(h.w.controller, Controller)
    old, h.c = h.c, h.w.controller
    old.close()
    assert h.c.game.size == 9 and len(h.c.game.moves) == 2 and h.c.message == f"Loaded {go_file}"


def test_ctrl_o_lists_and_opens_a_piskvork_record_and_ctrl_s_writes_one(app_window, tmp_path):  # noqa: F811
    from test_gomoku_psq import CUP

    cup = tmp_path / "cup.psq"
    cup.write_text(CUP)
    h = app_window(9, 1000, 700)
    h.press(h.key.O, h.key.MOD_CTRL)
    assert "cup.psq" in [e.name for e in h.w.picker.browser.entries]
    h.type_text(str(cup))
    h.press(h.key.RETURN)
    wait_for(h, lambda: isinstance(h.w.controller, GomokuController) and h.w.controller.gomoku.moves, 300)
    old, h.c = h.c, h.w.controller
    old.close()
    c: GomokuController = h.c
    assert c.gomoku.size == 20 and h.w.camera.size == 20 and len(c.gomoku.moves) == 9 and c.over
    h.frames(0.1)
    assert stone(h, 9, 9) == R.BLACK and stone(h, 9, 10) == R.WHITE  # Piskvork's 10,10 and 10,11
    h.press(h.key.S, h.key.MOD_CTRL)
    for _ in range(len(h.w.prompt)):
        h.press(h.key.BACKSPACE)
    h.type_text(str(tmp_path / "again.psq"))
    h.press(h.key.RETURN)
    saved = (tmp_path / "again.psq").read_text().splitlines()
    assert saved[1:10] == CUP.splitlines()[1:10] and c.message == f"Saved {tmp_path / 'again.psq'}"


def test_gomoku_columns_are_lettered_with_i_as_gomoku_programs_do_and_go_skips_it(gomoku, app_window):  # noqa: F811
    from gorilla.gui.camera import board_to_world
    from gorilla.gui.meshes import COORD_OFFSET

    def label_crop(h: Harness, column: int) -> np.ndarray:
        """The pixels of a column's letter on the board's near edge."""
        wx, wz = board_to_world(column, 0, 15)
        x, y = (round(v) for v in h.w.camera.world_to_screen((wx, 0.0, wz + COORD_OFFSET)))
        h.frames(0.1)
        return h.screen()[y - 12 : y + 13, x - 9 : x + 10].astype(int)  # the letter, grown to 15 pixels

    g = gomoku(15)
    g.click_point(vertex(g, 8, 7))
    assert "Move 1, last I8" in g.c.status_lines()  # column 8 from 0 is I
    gomoku_a, gomoku_i = label_crop(g, 0), label_crop(g, 8)
    g.w.set_visible(False)  # one window on the display at a time: the pixels read are its own
    go = app_window(15, 900, 700)
    assert g.w.camera.viewport == go.w.camera.viewport
    # pixels that differ clearly (by more than 40 in a channel)
    same = int((np.abs(gomoku_a - label_crop(go, 0)).max(axis=2) > 40).sum())  # A on both boards
    differ = int((np.abs(gomoku_i - label_crop(go, 8)).max(axis=2) > 40).sum())  # I against Go's J
    assert same <= 2 and differ >= 8, (same, differ)


def test_g_draws_the_gomoku_analysis_graph_and_a_click_on_it_shows_that_move(gomoku):
    from test_gomoku_analysis import game

    from gorilla.gui.graph import SCORE, WINRATE

    h = gomoku(15)
    c: GomokuController = h.c
    c.load_game(game())
    c.game_review.seconds = 0.1
    h.frames(0.1)
    gx, gy, w, hh = (int(v) for v in h.w.graph.rect)

    def plot_pixels(colour: tuple) -> int:  # pixels of the plot within 40 of a curve's colour
        img = h.screen()[gy + 2 : gy + hh - 2, gx + 2 : gx + w - 2].astype(int)
        return int((np.abs(img - np.array(colour[:3])).max(axis=2) < 40).sum())

    assert plot_pixels(WINRATE) < 20  # before: no curve
    h.press(h.key.G)
    wait_for(h, lambda: not c.game_review.running and c.game_review.reviews, 120)
    h.frames(0.2)
    assert h.w.graph.total == 11 and c.message.startswith("Analysed 11 moves")
    assert plot_pixels(WINRATE) > 100 and plot_pixels(SCORE) < 20  # the win rate, no score lead
    h.click(round(gx + w * 8 / 11), round(gy + hh / 2))  # move 8, the blunder
    assert len(c.gomoku.moves) == 8 and c.reviewing
    assert any(ln.startswith("Gorilla: White O1") for ln in c.status_lines())

    from gorilla.gui.meshes import STONE_HALF_HEIGHT

    def red_on(x: int, y: int) -> int:  # strongly red pixels on the top of the stone at (x, y)
        h.frames(0.1)
        sx, sy = h.screen_of(vertex(h, x, y), 2 * STONE_HALF_HEIGHT)
        box = h.screen()[sy - 10 : sy + 11, sx - 10 : sx + 11].reshape(-1, 3).astype(int)
        return int(((box[:, 0] > 150) & (box[:, 1] < 90) & (box[:, 2] < 90)).sum())

    assert red_on(14, 14) > 5 and red_on(7, 7) == 0  # the blunder's dot red, the first move's green
    h.press(h.key.D)  # the dots off
    assert red_on(14, 14) == 0 and not c.game_review.show_dots


def test_with_move_numbers_the_last_move_shows_its_number_in_red_and_no_ring(gomoku):
    from gorilla.gui.meshes import STONE_HALF_HEIGHT
    from gorilla.gui.scene import build_scene

    h = gomoku(15)
    for x, y in ((7, 7), (8, 8)):
        h.click_point(vertex(h, x, y))
    h.frames(0.1)
    last = h.c.game.last_move.point

    def red_pixels() -> int:  # strongly red pixels on the last stone's top
        img = h.screen()
        x, y = h.screen_of(vertex(h, 8, 8), 2 * STONE_HALF_HEIGHT)
        box = img[y - 12 : y + 13, x - 12 : x + 13].reshape(-1, 3).astype(int)
        return int(((box[:, 0] > 150) & (box[:, 1] < 100) & (box[:, 2] < 100)).sum())

    assert not h.w._last_numbered() and red_pixels() == 0  # numbers off: the ring, no red
    while h.w.move_numbers != "all":
        h.press(h.key.I)
    h.frames(0.1)
    assert h.w._last_numbered() and red_pixels() > 5  # its number in red
    # the last move's ring is left out of the scene
    assert len(build_scene(h.c).over) == len(build_scene(h.c, numbered_last=True).over) + 1
    assert last in h.w.shown_numbers()


def test_gomoku_takes_a_typed_comment_and_the_game_info_dialogs_names(gomoku, tmp_path):
    from gorilla.rules.board import BLACK, WHITE

    h = gomoku(15)
    c: GomokuController = h.c
    for x, y in ((7, 7), (8, 8)):
        h.click_point(vertex(h, x, y))
    # Enter: the comment box takes the keys (no key acts meanwhile), Enter keeps the text
    h.press(h.key.ENTER)
    h.type_text("a shoulder hit r")
    h.press(h.key.ENTER)
    assert c.comment == "a shoulder hit r" and h.w.comment is None and len(c.gomoku.moves) == 2
    h.frames(0.1)
    assert "Comment: a shoulder hit r" in h.w.hud.info.text
    # Ctrl+I: the names dialog, as in Go (not "Go only"); the panel's rows show the names
    h.press(h.key.I, h.key.MOD_CTRL)
    h.type_text("Ann")
    h.press(h.key.TAB)
    h.type_text("Bob")
    h.press(h.key.TAB)
    h.type_text("Club night")
    h.press(h.key.ENTER)
    h.frames(0.1)
    assert h.w.hud.rows[BLACK][2].text == "Ann" and h.w.hud.rows[WHITE][2].text == "Bob"
    assert "Event: Club night" in h.w.hud.info.text and "Go only" not in (c.message or "")
    out = tmp_path / "club.sgf"
    c.save(str(out))
    text = out.read_text(encoding="utf-8")
    assert "PB[Ann]" in text and "EV[Club night]" in text and "W[ii]C[a shoulder hit r]" in text
