"""The window's layout at every size (issue 64), in a real window under Xvfb: a minimum size, a
panel that narrows in a small window, a board that always fits its view (never cut), the help
box on top of everything and opaque, the panel's long lines wrapped within its width."""

from __future__ import annotations

import time

import numpy as np
import pytest
from test_window import Harness, gui, is_wood, make  # noqa: F401  (fixtures)

from gorilla.gui.layout import MIN_HEIGHT, MIN_WIDTH, PANEL_MAX, PANEL_MIN
from gorilla.rules.coords import to_index

pytestmark = pytest.mark.gui


def resize(h: Harness, width: int, height: int) -> None:
    """Resize the window as a user drags its corner (Xvfb has no window manager to refuse it)."""
    h.w.set_size(width, height)
    end = time.monotonic() + 5
    while (h.w.layout.width, h.w.layout.height) != (
        width,
        height,
    ) and time.monotonic() < end:  # on_resize ran
        h.frames(0.02)
    assert (h.w.layout.width, h.w.layout.height) == (width, height), "the window was not resized"
    h.frames(0.05)


def corners_inside(h: Harness, margin: int = 4) -> bool:
    """Whether the four corner points of the board project inside the board's view."""
    n = h.c.game.size
    vx, vy, vw, vh = h.w.camera.viewport
    for x, y in ((0, 0), (n - 1, 0), (0, n - 1), (n - 1, n - 1)):
        sx, sy = h.w.camera.point_to_screen(to_index(x, y, n))
        if not (vx + margin <= sx < vx + vw - margin and vy + margin <= sy < vy + vh - margin):
            return False
    return True


def test_a_small_window_narrows_the_panel_and_the_whole_board_stays_in_view(make):  # noqa: F811
    h = make(size=19)
    assert h.w._minimum_size == (MIN_WIDTH, MIN_HEIGHT)  # the window manager keeps it at least this
    assert corners_inside(h)
    for width, height in ((1024, 768), (MIN_WIDTH, MIN_HEIGHT), (1200, 880)):
        resize(h, width, height)
        lay = h.w.layout
        assert h.w.camera.viewport == lay.view == (0, 0, width - lay.panel_w, height)
        assert PANEL_MIN <= lay.panel_w <= PANEL_MAX and lay.view[2] > lay.panel_w
        assert corners_inside(h), f"the board is cut at {width}x{height}"
        img = h.screen()
        for v in ("A1", "T1", "A19", "T19"):  # the corner points are drawn, on the wood
            assert is_wood(h.patch(v, img)), f"{v} at {width}x{height}"
        for name, b in h.w.toolbar.buttons.items():  # every caption inside its button
            cap = h.w.toolbar.captions[name]
            assert cap.content_width <= h.w.toolbar.button_w - 4, name
            assert b.x >= lay.panel_x and b.x + h.w.toolbar.button_w <= width
    assert h.w.layout.panel_w == PANEL_MAX  # back in a big window, the panel is as wide as ever


def test_a_window_asked_smaller_than_the_minimum_opens_at_the_minimum(gui, tmp_path):  # noqa: F811
    from gorilla.app.go.controller import Controller
    from gorilla.rules.game import Game

    c = Controller(Game.new(9), autosave=str(tmp_path / "a.sgf"))
    h = Harness(gui, c, width=400, height=300)
    try:
        assert (h.w.width, h.w.height) == (MIN_WIDTH, MIN_HEIGHT)
    finally:
        h.close()


def test_below_the_minimum_the_graph_never_covers_the_players(make):  # noqa: F811
    h = make()
    h.c.review.engine, h.c.review.playouts = "mcts", 50
    h.click_point("E5")
    h.press(h.key.G)  # an analysis: the graph shows in a window of any usual size
    while h.c.review.running:
        h.frames(0.1)
    h.frame()
    graph_on = h.w.layout.graph is not None
    resize(h, 400, 300)  # a window manager that ignores the minimum
    assert graph_on and h.w.layout.graph is None
    img = h.screen().astype(int)
    for c in (1, 2):
        _, _, name, _ = h.w.hud.rows[c]
        y = round(name.y)
        row = img[y - 6 : y + 6, h.w.layout.panel_x + 4 : h.w.width - 4]
        graph_bg = np.abs(row - np.array([34, 38, 44])).max(axis=2) <= 3
        assert graph_bg.mean() < 0.05, "the graph's background is drawn over a player's row"
        assert name.y - name.content_height / 2 > h.w.layout.text_bottom


@pytest.mark.parametrize("size", [(1024, 768), (MIN_WIDTH, MIN_HEIGHT)])
def test_the_help_is_on_top_of_the_panel_and_its_buttons_opaque_and_fits_the_window(make, size):  # noqa: F811
    from gorilla.gui.hud import HELP_BG

    h = make()
    resize(h, *size)
    h.press(h.key.H)
    hud = h.w.hud
    x, y, bw, bh = hud.help_box()
    assert x >= 0 and x + bw <= size[0] and y >= 0 and y + bh <= size[1]
    assert x + bw > h.w.layout.panel_x and y < h.w.layout.toolbar[1]  # it covers buttons of the panel
    for lab in (hud.help_title, hud.help_keys, hud.help_text):  # every line inside the box, none wrapped
        left = lab.x
        top = lab.y
        assert x <= left and left + lab.content_width <= x + bw and top <= y + bh
        assert top - lab.content_height >= y, lab.text[:20]
    assert hud.help_text.content_height == hud.help_keys.content_height
    assert hud.help_text.x > hud.help_keys.x + hud.help_keys.content_width
    inside = np.s_[round(y) + 2 : round(y + bh) - 2, round(x) + 2 : round(x + bw) - 2]
    shown = h.screen()[inside].astype(int)
    assert (np.abs(shown - np.array(HELP_BG[:3])).max(axis=2) == 0).mean() > 0.5  # the box's own colour
    # what lies under the box changes (the panel's text, a button under the pointer): not one pixel
    # of the box does
    h.c.say("A message that puts long lines of text into the panel under the help box, " * 3)
    bx, by = h.w.toolbar.centre("Save")
    h.event("on_mouse_motion", bx, by, 0, 0)
    h.frame()
    assert np.array_equal(h.screen()[inside].astype(int), shown)
    h.press(h.key.H)
    assert not np.array_equal(h.screen()[inside].astype(int), shown)


@pytest.mark.parametrize("size", [(1024, 768), (MIN_WIDTH, MIN_HEIGHT)])
def test_long_lines_wrap_within_the_panel_and_a_long_path_is_elided_in_its_middle(make, size):  # noqa: F811
    from gorilla.gui.hud import WARN

    h = make()
    resize(h, *size)
    path = "/very/long/path/to/some/folder/with/games/and/more/folders/game-of-the-century.sgf"
    h.c.say(f"Loaded {path}")
    h.frame()
    msg = h.w.hud.message
    assert msg.text.startswith("Loaded /very") and msg.text.endswith("century.sgf") and "\u2026" in msg.text
    for lab in (msg, h.w.hud.info):
        assert lab.x + lab.content_width <= h.w.width - 16  # within the panel's right margin
    img = h.screen().astype(int)
    warn = (np.abs(img - np.array(WARN[:3])).max(axis=2) < 40)[:, h.w.layout.panel_x :]
    assert warn.sum() > 50  # the message is drawn
    assert not warn[:, -14:].any(), "the message runs into the panel's right margin"
    # a message of many words wraps, and stops above the graph (here its hint alone) and the toolbar
    h.c.say(" ".join(["Analysis done, a long report of every move of the game"] * 40))
    h.frame()
    assert msg.content_width <= msg.width and msg.y - msg.content_height >= h.w.graph.top
    assert msg.text.endswith("\u2026")


def test_at_the_minimum_a_finished_games_text_and_its_message_stay_above_the_graph(make):  # noqa: F811
    # a 9x9 game played out and scored (eight lines of text) with its analysis graph, then n:
    # the game's text gets smaller and loses its date and its last lines before it would run
    # into the graph, and leaves room for the message
    h = make()
    resize(h, MIN_WIDTH, MIN_HEIGHT)
    h.c.review.engine, h.c.review.playouts = "mcts", 30
    for v in ("E5", "C4", "G4", "D6"):
        h.click_point(v)
    h.press(h.key.P)
    h.press(h.key.P)
    h.frame()
    full = h.w.hud.info.text.split("\n")
    assert h.c.game.over and len(full) >= 6, full
    h.press(h.key.G)
    while h.c.review.running:
        h.frames(0.1)
    h.frame()  # the frame that reads the finished analysis ("Analysis done"), before n's message
    h.press(h.key.N)
    h.frame()
    hud, graph = h.w.hud, h.w.graph
    assert h.w.layout.graph is not None and hud.message.text.startswith("No mistake")
    shown = hud.info.text.split("\n")
    assert shown[0] == full[0] and len(shown) < len(full)  # cut from the end, first line kept
    for lab in (hud.info, hud.message):
        assert lab.y - lab.content_height >= graph.top - 1, lab.text[:40]
        assert lab.content_width <= lab.width
    assert hud.info.y - hud.info.content_height >= hud.message.y  # the message below, not over


@pytest.mark.parametrize("size", [(1024, 768), (MIN_WIDTH, MIN_HEIGHT)])
def test_the_buttons_captions_fit_and_sit_on_whole_pixels(make, size):  # noqa: F811
    # a caption centred on half a pixel loses its thin stems on a software renderer ('Load'
    # read 'Loac' at 640x480): each sits on whole pixels, inside its button
    h = make()
    resize(h, *size)
    tb = h.w.toolbar
    for name, cap in tb.captions.items():
        b = tb.buttons[name]
        assert cap.x == int(cap.x) and cap.y == int(cap.y), name
        assert b.x + 2 <= cap.x and cap.x + cap.content_width <= b.x + tb.button_w - 2, name
        centre = cap.x + cap.content_width / 2
        assert abs(centre - (b.x + tb.button_w / 2)) <= 1, name


def test_a_matchs_record_names_its_ais_by_their_short_names(make, tmp_path):  # noqa: F811
    # a record of two AI players ('gorilla match' writes their specs): at 640x480 the panel has
    # no room for 'mcts:playouts=200,threads=1'; cut, the two read alike ('mcts:pla...'); their
    # short names tell them apart, as the players' own do
    path = tmp_path / "ais.sgf"
    path.write_text("(;SZ[9]PB[mcts:playouts=200,threads=1]PW[mcts:playouts=100];B[ee];W[cc])")
    h = make()
    resize(h, MIN_WIDTH, MIN_HEIGHT)
    h.c.load(str(path))
    h.frame()
    black, white = (h.w.hud.rows[c][2] for c in (1, 2))
    assert (black.text, white.text) == ("MCTS 200p", "MCTS 100p")
    path.write_text("(;SZ[9]PB[Honinbo Shusaku]PW[Random: a guest];B[ee])")  # people keep their names
    h.c.load(str(path))
    h.frame()
    assert h.w.hud.rows[1][2].text.startswith("Honinbo") and h.w.hud.rows[2][2].text.startswith("Random:")
