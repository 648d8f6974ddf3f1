"""The real 3D window in process: pyglet events in, controller changes and screen pixels out.

Each test opens the real :class:`gorilla.gui.window.GorillaWindow` on an X display (pytest-xvfb
gives the session one; CI installs Xvfb), dispatches real pyglet events through the window's
event queue (``dispatch_event`` queues, ``dispatch_events`` delivers them as the event loop
does) and runs frames with the window's own 60 Hz callback ``tick``. Pixels are read back from
the X server with ``XGetImage`` on the window, i.e. what a person would see after the frame was
shown (not a private render), so "the stone is on the next frame" means on screen.

Screen positions come from the window's camera (``point_to_screen``); a click there goes
through the window's ray picking (``screen_to_point``), and the pixel checks confirm that the
renderer draws the stone where the camera says it is. Without a display the tests skip with a
message locally and fail in CI (CI=true), as tests/test_app_e2e.py does for its tools.
"""

from __future__ import annotations

import ctypes
import os
import threading
import time

import numpy as np
import pytest

from gorilla.ai.agent import Agent
from gorilla.app.go.controller import Controller
from gorilla.app.go.sgf_text import game_from_sgf
from gorilla.app.status_text import status_lines
from gorilla.gui.meshes import STONE_HALF_HEIGHT
from gorilla.rules.board import BLACK, EMPTY, PASS, WHITE
from gorilla.rules.coords import parse_vertex
from gorilla.rules.game import Game

pytestmark = pytest.mark.gui


def _no_display(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"the window tests need an X display in CI: {reason} (apt-get install -y xvfb)")
    pytest.skip(f"no usable X display for the 3D window: {reason} (run under Xvfb: pytest-xvfb or xvfb-run)")


@pytest.fixture(scope="module")
def gui():
    """The pyglet modules, or skip (locally) / fail (CI) when no window can be opened."""
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        _no_display("DISPLAY is not set")
    try:
        import pyglet  # noqa: F401  (importing pyglet.window opens the shadow GL window)
        import pyglet.window  # noqa: F401

        from gorilla.gui import window as gw
    except Exception as e:  # NoSuchDisplayException, missing libGL, ...
        _no_display(f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}")
    return gw


class Harness:
    """One real window over one controller, with helpers that act like a person and a screen."""

    def __init__(self, gw, controller: Controller, width: int = 800, height: int = 600) -> None:
        import pyglet
        from pyglet.window import key, mouse

        self.pyglet, self.key, self.mouse, self.gw = pyglet, key, mouse, gw
        self.c = controller
        try:
            self.w = gw.GorillaWindow(controller, width=width, height=height)
        except Exception as e:  # no GL 3.3 core config, no GLX ...
            controller.close()
            _no_display(f"cannot create the window: {type(e).__name__}: {e}")
        self.frame()

    # --- the event loop, by hand ------------------------------------------------------------
    def frame(self) -> None:
        """What one pass of the event loop does: deliver queued events, run the 60 Hz tick."""
        self.w.dispatch_events()
        self.w.tick(1 / 60)

    def frames(self, seconds: float) -> None:
        """Run the real pyglet clock (which calls the window's tick) for a while."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.w.dispatch_events()
            self.pyglet.clock.tick()
            time.sleep(0.004)

    def event(self, name: str, *args) -> None:
        self.w.dispatch_event(name, *args)

    # --- input ----------------------------------------------------------------------------
    def click(self, x: int, y: int, button: int | None = None, modifiers: int = 0) -> None:
        button = self.mouse.LEFT if button is None else button
        self.event("on_mouse_motion", x, y, 0, 0)
        self.event("on_mouse_press", x, y, button, modifiers)
        self.event("on_mouse_release", x, y, button, modifiers)
        self.frame()

    def click_point(self, vertex: str, button: int | None = None) -> tuple[int, int]:
        x, y = self.screen_of(vertex)
        self.click(x, y, button)
        return x, y

    def drag(self, x: int, y: int, dx: int, dy: int, button: int, modifiers: int = 0, steps: int = 8) -> None:
        self.event("on_mouse_press", x, y, button, modifiers)
        for i in range(1, steps + 1):
            px, py = x + dx * (i - 1) // steps, y + dy * (i - 1) // steps
            nx, ny = x + dx * i // steps, y + dy * i // steps
            self.event("on_mouse_drag", nx, ny, nx - px, ny - py, button, modifiers)
        self.event("on_mouse_release", x + dx, y + dy, button, modifiers)
        self.frame()

    def press(self, symbol: int, modifiers: int = 0) -> None:
        self.event("on_key_press", symbol, modifiers)
        self.event("on_key_release", symbol, modifiers)
        self.frame()

    def type_text(self, text: str) -> None:
        self.event("on_text", text)
        self.frame()

    # --- geometry and pixels -------------------------------------------------------------------
    def point(self, vertex: str) -> int:
        return parse_vertex(vertex, self.c.game.size)

    def screen_of(self, vertex: str, height: float = 0.0) -> tuple[int, int]:
        """Window pixel of a point on the board (height 0) or above it (a stone's centre)."""
        x, y = (round(v) for v in self.w.camera.point_to_screen(self.point(vertex), height))
        vx, vy, vw, vh = self.w.camera.viewport
        assert vx + 20 <= x < vx + vw - 20 and vy + 20 <= y < vy + vh - 20, f"{vertex} is off the view"
        return x, y

    def screen(self) -> np.ndarray:
        """The window's pixels as the X server shows them: (h, w, 3) uint8, row 0 at the bottom."""
        from pyglet import gl
        from pyglet.libs.x11 import xlib

        w = self.w
        w.switch_to()
        gl.glFinish()
        display = getattr(w, "_x_display", None)
        if display is None or not hasattr(w, "_window"):  # not Xlib (or a pyglet that renamed them)
            return w.capture()
        xlib.XSync(display, False)
        img = xlib.XGetImage(display, w._window, 0, 0, w.width, w.height, 0xFFFFFFFF, 2)  # ZPixmap
        assert img, "XGetImage failed (window not viewable?)"
        try:
            im = img.contents
            if im.bits_per_pixel != 32 or im.red_mask != 0xFF0000 or im.blue_mask != 0xFF:
                return w.capture()  # an unusual visual: read the GL back buffer instead
            addr = ctypes.c_void_p.from_buffer(im, xlib.XImage.data.offset).value
            raw = ctypes.string_at(addr, im.bytes_per_line * im.height)
            rows = np.frombuffer(raw, dtype=np.uint8).reshape(im.height, im.bytes_per_line // 4, 4)
            bgr = rows[:, : im.width, :3]
            return bgr[::-1, :, ::-1].copy()  # bottom row first, RGB
        finally:
            xlib.XFree(ctypes.c_void_p.from_buffer(img.contents, xlib.XImage.data.offset))
            xlib.XFree(img)

    def patch(self, vertex: str, img: np.ndarray | None = None, r: int = 2) -> np.ndarray:
        """Mean RGB of a small square around where the camera projects a stone's centre on the point."""
        img = self.screen() if img is None else img
        x, y = self.screen_of(vertex, STONE_HALF_HEIGHT)
        return img[y - r : y + r + 1, x - r : x + r + 1].reshape(-1, 3).astype(float).mean(axis=0)

    def close(self) -> None:
        self.w.close()
        self.c.close()


@pytest.fixture
def app_window(gui, tmp_path, monkeypatch):
    """A factory of windows over fresh controllers: ``factory(size, width, height, settings,
    **controller_options)``; remembered settings go to a folder of the test's own, which is
    also the current folder (where the file pickers start)."""
    from gorilla.app.settings import Settings

    monkeypatch.setenv("GORILLA_CONFIG_DIR", str(tmp_path / "cfg"))
    monkeypatch.chdir(tmp_path)
    made: list[Harness] = []

    def factory(size: int = 9, width: int = 800, height: int = 600, settings=None, **kw) -> Harness:
        c = Controller(Game.new(size), autosave=str(tmp_path / "autosave.sgf"), **kw)
        h = Harness.__new__(Harness)
        import pyglet
        from pyglet.window import key, mouse

        h.pyglet, h.key, h.mouse, h.gw, h.c = pyglet, key, mouse, gui, c
        h.w = gui.GorillaWindow(c, settings=settings or Settings(), width=width, height=height)
        h.frame()
        made.append(h)
        return h

    yield factory
    for h in made:
        h.close()


@pytest.fixture
def make(gui, tmp_path, monkeypatch):
    """A factory of windows (no settings) over fresh controllers; the test's folder is the
    current one (where the file pickers start)."""
    monkeypatch.chdir(tmp_path)
    made: list[Harness] = []

    def factory(black: str | Agent = "human", white: str | Agent = "human", size: int = 9, **kw) -> Harness:
        kw.setdefault("autosave", str(tmp_path / "autosave.sgf"))
        h = Harness(gui, Controller(Game.new(size), black, white, **kw))
        made.append(h)
        return h

    yield factory
    for h in made:
        h.close()


def luminance(rgb: np.ndarray) -> float:
    return float(0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2])


def is_black_stone(rgb: np.ndarray) -> bool:
    # dark and grey: the grid lines are dark too, but brown
    return luminance(rgb) < 60 and float(rgb.max() - rgb.min()) < 12


def is_white_stone(rgb: np.ndarray) -> bool:
    # light and grey: the wood is as light in places but orange
    return luminance(rgb) > 150 and float(rgb.max() - rgb.min()) < 30


def is_wood(rgb: np.ndarray) -> bool:
    # orange-brown, with or without a grid line through the patch
    return float(rgb[0] - rgb[2]) > 25 and luminance(rgb) > 40


# --- clicks at several camera angles ---------------------------------------------------------------
def test_click_at_d4_places_the_stone_there_after_orbit_tilt_zoom_and_pan(make):
    h = make()
    k, m = h.key, h.mouse
    cx, cy = h.w.camera.viewport[2] // 2, h.w.camera.viewport[3] // 2

    def ctrl_drag_orbit():
        h.drag(cx, cy, 90, -40, m.LEFT, k.MOD_CTRL)

    def arrow_orbit_and_tilt():
        for sym in (k.LEFT,) * 12 + (k.DOWN,) * 5:
            h.press(sym, k.MOD_ALT)  # plain arrows move through the record

    def scroll_zoom_in():
        for _ in range(3):
            h.event("on_mouse_scroll", cx, cy, 0, 1)
        h.frame()

    def middle_drag_pan():
        h.drag(cx, cy, -60, 35, m.MIDDLE)

    def right_drag_orbit():
        h.drag(cx, cy, -120, 30, m.RIGHT)

    def top_view():
        h.press(k.T)

    views = [
        ("default", lambda: None),
        ("ctrl-drag orbit", ctrl_drag_orbit),
        ("arrow keys", arrow_orbit_and_tilt),
        ("scroll zoom", scroll_zoom_in),
        ("middle-drag pan", middle_drag_pan),
        ("right-drag orbit", right_drag_orbit),
        ("top view", top_view),
    ]
    d4 = h.point("D4")
    seen_states = set()
    for name, change in views:
        before = h.w.camera.state()
        moves_before = h.c.game.move_number
        change()
        state = h.w.camera.state()
        if name != "default":
            assert state != before, f"{name} did not move the camera"
        assert h.c.game.move_number == moves_before, f"{name} changed the game"
        seen_states.add(state)
        empty = h.patch("D4")
        assert not is_black_stone(empty) and not is_white_stone(empty), f"{name}: a stone at D4 already"
        x, y = h.click_point("D4")
        assert h.c.game.position.color_at(d4) == BLACK, f"{name}: click at {x},{y} did not play D4"
        assert h.c.game.moves[-1].point == d4
        assert is_black_stone(h.patch("D4")), f"{name}: no dark stone drawn at D4's projection"
        h.press(k.U)  # undo for the next view
        assert h.c.game.position.color_at(d4) == EMPTY
    assert len(seen_states) == len(views)
    h.press(k.HOME, k.MOD_ALT)  # Alt+Home: the default view (Home goes to the start)
    assert h.w.camera.state() == seen_default(h)


def seen_default(h: Harness) -> tuple:
    from gorilla.gui.camera import Camera

    cam = Camera(size=h.c.game.size, viewport=h.w.camera.viewport)
    cam.reset()
    return cam.state()


def test_a_drag_is_not_a_click_and_clicks_off_the_board_or_on_the_panel_play_nothing(make):
    h = make()
    x, y = h.screen_of("E5")
    h.drag(x, y, 40, 0, h.mouse.LEFT)  # a plain drag past the click slop orbits, never plays
    assert h.c.game.move_number == 0
    h.click(3, 3)  # the corner of the view: off the board
    h.click(h.w.width - 40, h.w.height // 2)  # the side panel
    assert h.c.game.move_number == 0
    # a small wobble within the click slop still plays
    x, y = h.screen_of("E5")
    h.event("on_mouse_press", x, y, h.mouse.LEFT, 0)
    h.event("on_mouse_drag", x + 2, y + 1, 2, 1, h.mouse.LEFT, 0)
    h.event("on_mouse_release", x + 2, y + 1, h.mouse.LEFT, 0)
    h.frame()
    assert h.c.game.position.color_at(h.point("E5")) == BLACK


# --- mouse buttons and keys -------------------------------------------------------------------------
def test_right_click_passes_and_illegal_clicks_say_why(make):
    h = make()
    h.click_point("C3")
    h.click_point("E5", h.mouse.RIGHT)  # right click anywhere: White passes
    assert [(m.color, m.point) for m in h.c.game.moves] == [(BLACK, h.point("C3")), (WHITE, PASS)]
    h.click_point("C3")  # occupied
    assert h.c.game.move_number == 2
    assert "Illegal move at C3" in h.c.message
    assert any("Illegal move at C3" in line for line in status_lines(h.c))
    h.press(h.key.P)  # p passes too
    assert (h.c.game.moves[-1].color, h.c.game.moves[-1].point) == (BLACK, PASS)
    assert h.c.game.over  # two passes


def test_undo_with_u_and_ctrl_z_redo_with_ctrl_y_and_reset_with_r(make):
    h = make()
    k = h.key
    for v in ("D4", "F6", "C6"):
        h.click_point(v)
    assert h.c.game.move_number == 3
    h.press(k.U)
    assert h.c.game.move_number == 2 and h.c.game.position.color_at(h.point("C6")) == EMPTY
    h.press(k.Z, k.MOD_CTRL)
    assert h.c.game.move_number == 1 and h.c.game.position.color_at(h.point("F6")) == EMPTY
    h.press(k.Y, k.MOD_CTRL)
    assert h.c.game.move_number == 2 and h.c.game.position.color_at(h.point("F6")) == WHITE
    h.press(k.Z, k.MOD_CTRL | k.MOD_SHIFT)
    assert h.c.game.move_number == 3 and h.c.game.position.color_at(h.point("C6")) == BLACK
    assert is_white_stone(h.patch("F6"))
    h.press(k.R)  # a game with moves: the question in a box over the board, the game stays
    assert h.w.confirm == "reset" and h.c.game.move_number == 3
    box = h.w.modals[-1]
    img = h.screen()
    inside = img[box.y + 4 : box.y + box.height - 4, box.x + 4 : box.x + 14].reshape(-1, 3)
    assert inside.max() < 40, "the question's box is dark and opaque"
    h.press(k.ESCAPE)
    assert h.w.confirm is None and h.c.game.move_number == 3 and "cancelled" in h.c.message
    assert is_white_stone(h.patch("F6"))
    h.press(k.R)
    h.press(k.R)  # r again: yes
    assert h.c.game.move_number == 0 and h.c.message == "New game (u brings the last one back)"
    assert is_wood(h.patch("F6")), "the reset board must be drawn without stones"
    h.press(k.Z, k.MOD_CTRL)  # right after the reset, undo brings the old game back
    assert h.c.game.move_number == 3 and is_white_stone(h.patch("F6")) and is_black_stone(h.patch("C6"))
    h.press(k.R)
    h.press(k.Y)
    h.click_point("E5")  # a move in the new game: undo takes it back, not the reset
    h.press(k.U)
    h.press(k.U)
    assert h.c.game.move_number == 0 and h.c.message == "Nothing to undo"
    h.press(k.R)  # E5 is still in the record (redo): it asks
    assert h.w.confirm == "reset"
    h.press(k.R)
    h.press(k.R)  # an empty record resets at once
    assert h.w.confirm is None and h.c.message == "New game"


def test_ctrl_s_saves_next_to_the_autosave_and_ctrl_o_loads_it_back(make, tmp_path):
    h = make()
    k = h.key
    for v in ("D4", "E5", "C3"):
        h.click_point(v)
    saved = [(m.color, m.point) for m in h.c.game.moves]
    assert h.c.flush_autosave() and (tmp_path / "autosave.sgf").is_file()
    h.press(k.O, k.MOD_CTRL)  # nothing saved yet: the picker shows the folder, the autosave not selected
    b = h.w.picker.browser
    assert b.folder == str(tmp_path) and [e.name for e in b.entries if e.kind == "file"] == ["autosave.sgf"]
    assert b.selected.kind == "parent"
    h.press(k.ESCAPE)
    h.press(k.S, k.MOD_CTRL)  # the picker, a time-stamped name typed in: Enter saves
    assert h.w.picker.browser.mode == "save" and h.w.prompt.startswith("gorilla-")
    h.press(k.ENTER)
    files = sorted(p for p in tmp_path.glob("gorilla-*.sgf"))
    assert len(files) == 1, list(tmp_path.iterdir())
    assert h.w.picker is None and h.c.message == f"Saved {files[0]}"
    assert [(m.color, m.point) for m in game_from_sgf(files[0].read_text()).moves] == saved

    h.press(k.R)
    h.press(k.Y)
    h.click_point("G7")
    assert h.c.game.move_number == 1
    # Ctrl+O opens the picker with the latest save selected; Enter loads it
    h.press(k.O, k.MOD_CTRL)
    assert h.w.picker.browser.selected.path == str(files[0])
    h.press(k.ENTER)
    assert h.w.picker is None
    assert [(m.color, m.point) for m in h.c.game.moves] == saved
    assert h.c.message == f"Loaded {files[0]}"
    assert is_black_stone(h.patch("C3")) and is_white_stone(h.patch("E5"))

    # a typed path that is not there: one line in the picker, which stays open, the game stays
    h.press(k.O, k.MOD_CTRL)
    h.type_text(str(tmp_path / "missing.sgf"))
    h.press(k.RETURN)
    assert h.w.picker is not None and h.w.picker.browser.error == f"No such file: {tmp_path / 'missing.sgf'}"
    assert [(m.color, m.point) for m in h.c.game.moves] == saved
    h.press(k.ESCAPE)
    # keys typed into the picker are not commands
    h.press(k.O, k.MOD_CTRL)
    h.press(k.R)
    h.type_text("r")
    assert h.c.game.move_number == 3 and h.w.prompt == "r"
    h.press(k.ESCAPE)
    assert h.w.prompt is None and h.c.game.move_number == 3


def test_help_view_toggles_and_a_click_closes_it_without_playing(make):
    h = make()
    h.press(h.key.H)
    assert h.w.show_help
    hud = h.w.hud  # keys and descriptions are two labels: no description may wrap onto a second line
    assert hud.help_text.content_height == hud.help_keys.content_height
    shown = h.screen()
    h.click_point("D4")
    assert not h.w.show_help and h.c.game.move_number == 0
    assert np.abs(h.screen().astype(int) - shown).max() > 100  # the help view went away
    h.press(h.key.H)
    h.press(h.key.ESCAPE)
    assert not h.w.show_help and not h.w.has_exit  # Esc never closes the window


def test_space_advances_ai_vs_ai_and_a_toggles_continuous_play(make):
    h = make("random:seed=1", "random:seed=2")

    def frames_until(cond, seconds: float = 20.0) -> None:
        end = time.monotonic() + seconds  # a loaded machine may take a while; the order matters
        while not cond() and time.monotonic() < end:
            h.frames(0.05)

    h.frames(0.2)
    assert h.c.game.move_number == 0  # step mode: nothing without a click or space
    h.press(h.key.SPACE)
    frames_until(lambda: h.c.game.move_number >= 1)
    h.frames(0.3)
    assert h.c.game.move_number == 1  # one move a step
    h.click(5, 5)  # a click anywhere (here off the board) asks for the next move
    frames_until(lambda: h.c.game.move_number >= 2)
    h.frames(0.3)
    assert h.c.game.move_number == 2
    h.press(h.key.A)
    assert h.c.continuous
    frames_until(lambda: h.c.game.move_number > 4)
    assert h.c.game.move_number > 4, "continuous play did not go on by itself"
    h.press(h.key.A)
    assert not h.c.continuous
    frames_until(lambda: not h.c.thinking)
    n = h.c.game.move_number
    h.frames(0.3)
    assert h.c.game.move_number == n


# --- pixels -------------------------------------------------------------------------------------------
def test_black_stones_are_dark_and_white_stones_light_where_the_camera_projects_them(make):
    h = make(size=13)
    h.click_point("D4")
    h.click_point("K10")
    h.click_point("G7")
    img = h.screen()
    assert is_black_stone(h.patch("D4", img)), h.patch("D4", img)
    assert is_black_stone(h.patch("G7", img)), h.patch("G7", img)
    assert is_white_stone(h.patch("K10", img)), h.patch("K10", img)
    assert is_wood(h.patch("K4", img)) and is_wood(h.patch("D10", img))
    # the same after orbiting so that the board is seen from the side
    h.drag(200, 300, 150, 60, h.mouse.LEFT, h.key.MOD_CTRL)
    img = h.screen()
    assert is_black_stone(h.patch("D4", img)) and is_white_stone(h.patch("K10", img))


def test_c_toggles_the_control_map_overlay_pixels(make):
    pytest.importorskip("gorilla.ai.control_map", reason="gorilla.ai.control_map is not written yet")
    h = make()
    for v in ("C3", "G7", "C7", "G3"):
        h.click_point(v)
    plain = h.screen()
    h.press(h.key.C)
    assert h.c.show_control
    shown = h.screen()
    vw = h.w.camera.viewport[2]
    diff = np.abs(shown[:, :vw].astype(int) - plain[:, :vw]).max(axis=2)
    assert (diff > 12).sum() > 2000, "the control map changed almost no pixels"
    # Black's corner (C3) darkens, White's (G7) lightens: look next to the stones, on the wood
    assert luminance(h.patch("B2", shown)) < luminance(h.patch("B2", plain)) - 5
    assert luminance(h.patch("H8", shown)) > luminance(h.patch("H8", plain)) + 5
    h.press(h.key.C)
    assert not h.c.show_control
    back = h.screen()
    assert np.abs(back[:, :vw].astype(int) - plain[:, :vw]).max() <= 2


def test_e_evaluates_and_shows_the_heat_map(make):
    pytest.importorskip("gorilla.ai.evaluator", reason="gorilla.ai.evaluator is not written yet")
    h = make(eval_games=2, eval_turns=2)
    h.click_point("E5")
    plain = h.screen()
    h.press(h.key.E)
    assert h.c.evaluating or h.c.evaluation is not None
    deadline = time.monotonic() + 30
    while h.c.evaluation is None and time.monotonic() < deadline:
        h.frames(0.1)
    assert h.c.evaluation is not None and h.c.show_eval
    shown = h.screen()
    vw = h.w.camera.viewport[2]
    assert (np.abs(shown[:, :vw].astype(int) - plain[:, :vw]).max(axis=2) > 30).sum() > 500


# --- thinking -------------------------------------------------------------------------------------------
def test_frames_keep_coming_while_the_ai_thinks_and_the_stone_shows_on_the_next_frame(make):
    h = make("human", "alphabeta:time=2")
    frames0 = h.w.frames
    x, y = h.screen_of("D4")
    h.event("on_mouse_press", x, y, h.mouse.LEFT, 0)
    h.event("on_mouse_release", x, y, h.mouse.LEFT, 0)
    h.frame()  # one pass of the event loop: the click, then one frame
    assert h.w.frames == frames0 + 1
    assert h.c.thinking, "White's AI should be thinking now"
    assert is_black_stone(h.patch("D4")), "the clicked stone must be on screen in the very next frame"
    # a click while the AI thinks plays nothing and says why
    h.click_point("F6")
    assert h.c.game.move_number == 1 and "thinking" in h.c.message
    # the window keeps drawing (the HUD's clock and progress bar) while the AI works: five frames
    # before its 2 s search ends (counted, not timed: the frame gaps are benchmarks/render.py's)
    drawn = h.w.frames
    end = time.monotonic() + 20
    while h.w.frames < drawn + 5 and h.c.thinking and time.monotonic() < end:
        h.frames(0.05)
    assert h.c.thinking, f"only {h.w.frames - drawn} frames while the AI thought"
    deadline = time.monotonic() + 20
    while h.c.thinking and time.monotonic() < deadline:
        h.frames(0.05)
    assert h.c.game.move_number == 2 and h.c.game.moves[-1].color == WHITE
    reply = h.c.game.moves[-1].point
    if reply >= 0:
        from gorilla.rules.coords import format_vertex

        assert is_white_stone(h.patch(format_vertex(reply, 9)))


class LateAgent(Agent):
    """A real (random) player that ignores cancel and answers late: a search that overruns."""

    name = "late"

    def __init__(self, delay: float) -> None:
        from gorilla.ai.random_agent import RandomAgent

        self.inner = RandomAgent(seed=3)
        self.delay = delay
        self.answers: list[int] = []
        self.started = threading.Event()

    def select_move(self, game, budget=None, cancel=None, progress=None):
        self.started.set()
        time.sleep(self.delay)
        move = self.inner.select_move(game)
        self.answers.append(move)
        return move


def test_reset_while_the_ai_thinks_cancels_it_and_its_late_answer_is_never_played(make):
    late = LateAgent(delay=0.6)
    h = make("human", late)
    h.click_point("E5")
    assert h.c.thinking and late.started.wait(5)
    h.press(h.key.R)
    h.press(h.key.R)  # yes: a game with a move asks first
    assert not h.c.thinking and h.c.game.move_number == 0
    deadline = time.monotonic() + 5
    while not late.answers and time.monotonic() < deadline:
        h.frames(0.05)
    assert late.answers, "the cancelled search never answered"
    h.frames(0.3)  # frames after the late answer arrived
    assert h.c.game.move_number == 0, "a late answer from before the reset was played"
    assert is_wood(h.patch("E5"))
    # the game goes on normally afterwards
    h.click_point("D4")
    deadline = time.monotonic() + 10
    while h.c.game.move_number < 2 and time.monotonic() < deadline:
        h.frames(0.05)
    assert [m.color for m in h.c.game.moves] == [BLACK, WHITE]
    assert late.answers[-1] == h.c.game.moves[-1].point


def test_v_shows_the_live_thinking_view_on_the_board(make):
    h = make("human", "alphabeta:time=2")
    h.press(h.key.V)
    assert h.c.show_thinking
    h.click_point("E5")
    deadline = time.monotonic() + 10
    while h.c.progress is None and h.c.thinking and time.monotonic() < deadline:
        h.frames(0.05)
    assert h.c.thinking and h.c.progress is not None, "no progress from the thinking AI"
    h.frame()  # the frame that shows the progress
    vw = h.w.camera.viewport[2]
    shown = h.screen()[:, :vw]
    h.press(h.key.V)
    assert not h.c.show_thinking
    hidden = h.screen()[:, :vw]
    assert (np.abs(shown.astype(int) - hidden).max(axis=2) > 30).sum() > 100, "no live view on the board"
