"""The point under the mouse belongs to the board on show (issue 35): a new game of another size
(Ctrl+N then Start or Enter), a loaded record of another size, a switch to a Gomoku board, all
with the pointer over the board, recompute the hover point with the new camera. Before, the old
board's point outlived it: an IndexError closed the window, or the hover stone stood elsewhere."""

from __future__ import annotations

import functools

import pytest
from test_window import Harness, app_window, gui, luminance  # noqa: F401  (fixtures)
from test_window_gomoku import start_gomoku
from test_window_newgame import choose

from gorilla.app.go.sgf_text import game_from_sgf, game_to_sgf
from gorilla.rules.board import EMPTY
from gorilla.rules.coords import parse_vertex
from gorilla.rules.game import Game

pytestmark = pytest.mark.gui


@pytest.fixture
def window(app_window):  # noqa: F811
    """Windows on a 19x19 board, 1000x700."""
    return functools.partial(app_window, 19, 1000, 700)


def pointer_over_board(h: Harness, vertex: str = "K10") -> tuple[int, int]:
    """Move the mouse over a point of the board on show; the window hovers that point."""
    x, y = h.screen_of(vertex)
    h.event("on_mouse_motion", x, y, 0, 0)
    h.frame()
    assert h.w.hover == h.point(vertex)
    return x, y


def assert_hover_follows_the_board(h: Harness, x: int, y: int) -> None:
    """The hover point is the one under (x, y) on the current board, with the current camera."""
    game = h.w.controller.game
    assert h.w.camera.size == game.size
    assert h.w.hover == h.w.screen_to_point(x, y)
    if h.w.hover is not None:
        assert h.w.hover in game.position.points()
    h.frame()  # and the window draws it (before the fix: IndexError in the scene)
    h.w.redraw_now()


def test_ctrl_n_to_9x9_and_a_click_on_start_over_the_board(window):
    h = window()
    pointer_over_board(h)
    h.press(h.key.N, h.key.MOD_CTRL)
    choose(h, "size", 9)
    x, y = h.w.dialog.buttons.centre("Start")
    assert h.w.screen_to_point(x, y) is not None, "Start should lie over the board for this test"
    h.click(x, y)  # motion over the 19x19 board, then the press and release on Start
    assert h.w.dialog is None and h.c.game.size == 9
    assert_hover_follows_the_board(h, x, y)
    assert h.w.hover is not None  # Start lies over the 9x9 board too


def test_enter_in_the_dialog_with_the_pointer_over_the_board(window):
    h = window()
    x, y = pointer_over_board(h, "B2")  # near the corner: off the smaller board afterwards
    h.press(h.key.N, h.key.MOD_CTRL)
    choose(h, "size", 9)
    h.press(h.key.ENTER)
    assert h.w.dialog is None and h.c.game.size == 9
    assert_hover_follows_the_board(h, x, y)
    # the pointer moves again: the hover point is the 9x9 board's
    cx, cy = h.screen_of("E5")
    h.event("on_mouse_motion", cx, cy, 0, 0)
    h.frame()
    assert h.w.hover == h.point("E5")


def test_loading_a_9x9_record_from_a_19x19_board_with_the_pointer_over_it(window, tmp_path):
    h = window()
    h.click_point("Q16")
    record = Game.new(9)
    record.play(parse_vertex("E5", 9))
    path = tmp_path / "nine.sgf"  # next to the autosave file: Ctrl+O offers the latest save
    path.write_text(game_to_sgf(record), encoding="utf-8")
    assert game_from_sgf(path.read_text()).size == 9
    x, y = pointer_over_board(h, "K10")
    h.press(h.key.O, h.key.MOD_CTRL)
    assert h.w.picker.browser.selected.path == str(path)
    h.press(h.key.ENTER)
    assert h.w.picker is None and h.c.game.size == 9 and h.c.game.move_number == 1
    assert_hover_follows_the_board(h, x, y)


@pytest.mark.slow  # a cold cache: Gomoku's engine compiles in a child process first (minutes)
def test_a_15x15_gomoku_board_from_19x19_draws_the_hover_stone_under_the_pointer(window):
    h = window()
    x, y = pointer_over_board(h, "F6")
    start_gomoku(h, "gomoku freestyle", 15, "human", "human")
    h.frame()
    assert h.c.game.size == 15
    assert_hover_follows_the_board(h, x, y)
    p = h.w.hover
    assert p is not None and h.c.game.position.color_at(p) == EMPTY
    # the hover stone is drawn on that point, and that point lies under the pointer
    sx, sy = h.w.point_to_screen(p)
    assert abs(sx - x) + abs(sy - y) < 40
    with_stone = h.screen()
    h.event("on_mouse_leave", x, y)
    h.frame()
    assert h.w.hover is None
    without = h.screen()
    r = 3
    ghost = with_stone[sy - r : sy + r + 1, sx - r : sx + r + 1].reshape(-1, 3).mean(axis=0)
    wood = without[sy - r : sy + r + 1, sx - r : sx + r + 1].reshape(-1, 3).mean(axis=0)
    assert luminance(ghost) < luminance(wood) - 20  # Black's translucent stone darkens the wood
