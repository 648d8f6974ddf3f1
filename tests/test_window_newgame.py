"""The new-game dialog in a real window under Xvfb, driven with keys and clicks: 9x9 against the
MCTS with a byo-yomi clock (the human loses on time), GNU Go chosen as White, bad rows."""

from __future__ import annotations

import functools
import time

import pytest
from test_window import Harness, app_window, gui  # noqa: F401  (fixtures)

from gorilla.app.newgame import NewGameForm
from gorilla.app.settings import Settings
from gorilla.rules.board import BLACK, WHITE

pytestmark = pytest.mark.gui


@pytest.fixture
def window(app_window):  # noqa: F811
    """Windows on a 19x19 board, 1000x700."""
    return functools.partial(app_window, 19, 1000, 700)


def choose(h: Harness, row: str, value) -> None:
    """Move the focus to row with Up/Down and pick value with Right, as a person would."""
    form: NewGameForm = h.w.dialog.form
    keys = [f.key for f in form.fields]
    target = keys.index(row)
    while form.focus != target:
        h.press(h.key.DOWN if form.focus < target else h.key.UP)
    for _ in range(len(form.focused.choices)):
        if form.focused.value == value:
            return
        h.press(h.key.RIGHT)
    raise AssertionError(f"{value!r} is not offered in {row}")


def type_row(h: Harness, row: str, text: str) -> None:
    form = h.w.dialog.form
    target = [f.key for f in form.fields].index(row)
    while form.focus != target:
        h.press(h.key.DOWN if form.focus < target else h.key.UP)
    for _ in range(len(form.focused.text)):
        h.press(h.key.BACKSPACE)
    h.type_text(text)


def run_until(h: Harness, cond, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < deadline, "timed out"
        h.frames(0.05)


def test_ctrl_n_9x9_against_mcts_with_byoyomi_and_the_human_loses_on_time(window, tmp_path):
    t = [1000.0]
    h = window(now=lambda: t[0])
    h.press(h.key.N, h.key.MOD_CTRL)
    assert h.w.dialog is not None and h.w.dialog.form.focused.key == "size"
    for _ in range(10):
        h.press(h.key.LEFT)  # 19x19 -> 9x9
    assert h.w.dialog.form["size"].value == 9
    choose(h, "white", "mcts:playouts=1000")
    type_row(h, "clock", "20s+2x5s")
    h.press(h.key.ENTER)
    assert h.w.dialog is None
    c = h.c
    assert c.game.size == 9 and c.players[WHITE] == "mcts:playouts=1000"
    assert c.time_control.spec() == "20s+2x5s"
    h.click_point("E5")
    run_until(h, lambda: c.game.move_number == 2, timeout=240)  # the MCTS compiles on a cold cache
    assert c.game.moves[1].color == WHITE and c.game.moves[1].point >= 0
    assert c.clock.running == BLACK
    t[0] += 20 + 2 * 5  # Black thinks too long: main time and both periods
    h.frame()
    assert c.over and c.game.result == "W+T" and "Black lost on time" in c.message
    path = tmp_path / "lost.sgf"
    c.save(str(path))
    text = path.read_text()
    assert "RE[W+T]" in text and "TM[20]" in text and "OT[2x5 byo-yomi]" in text and "WL[" in text
    assert Settings().get("new_game")["white"] == "mcts:playouts=1000"
    # the dialog opens again with the remembered choices
    h.press(h.key.N, h.key.MOD_CTRL)
    form = h.w.dialog.form
    assert form["size"].value == 9 and form["clock"].text == "20s+2x5s"
    h.press(h.key.ESCAPE)
    assert h.w.dialog is None and c.game.result == "W+T"


def test_bad_rows_give_one_line_and_the_game_stays(window):
    h = window()
    h.click_point("D4")
    h.click(*h.w.toolbar.centre("New"))  # the New button opens the dialog too
    assert h.w.dialog is not None
    type_row(h, "clock", "10m+")
    h.press(h.key.ENTER)
    assert h.w.dialog is not None and h.w.dialog.form.error.startswith("Clock: nothing after '+'")
    type_row(h, "clock", "none")
    choose(h, "white", "gtp-command")
    type_row(h, "white_cmd", "/nonexistent/engine --gtp")
    x, y = h.w.dialog.buttons.centre("Start")
    h.click(x, y)
    assert h.w.dialog is None  # the engine starts with the first move: the game is set up
    h.click_point("D4")
    run_until(h, lambda: h.c.ai_error is not None, timeout=20)
    assert "did not start" in h.c.message and h.c.game.move_number == 1


@pytest.mark.gnugo
def test_gnugo_chosen_as_white_in_the_dialog_plays_real_moves(window, gnugo_path):
    h = window()
    h.press(h.key.N, h.key.MOD_CTRL)
    for _ in range(10):
        h.press(h.key.LEFT)
    choose(h, "white", "gtp:gnugo")
    h.press(h.key.ENTER)
    c = h.c
    assert c.players[WHITE] == "gnugo" and c.game.size == 9
    for vertex in ("E5", "C3"):
        if c.game.position.color_at(h.point(vertex)) == 0:
            h.click_point(vertex)
        else:
            h.click_point("G7")
        run_until(h, lambda: c.game.to_move == BLACK and not c.thinking, timeout=30)
    whites = [m for m in c.game.moves if m.color == WHITE]
    assert len(whites) == 2 and all(m.point >= 0 for m in whites)
    assert c.agents[WHITE].engine_name.startswith("GNU Go")
