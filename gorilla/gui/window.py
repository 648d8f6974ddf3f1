"""The desktop window: input -> controller requests, controller state -> 3D board and HUD.

Draw on demand: a 60 Hz tick calls ``controller.poll()`` and redraws only when the
controller's ``version``, the camera, the hover point or the window changed (and at
~10 Hz while an AI thinks, so its progress bar moves).
"""

from __future__ import annotations

import contextlib
import ctypes
import glob
import math
import os
import time
from collections.abc import Callable
from typing import TypeVar

import numpy as np
import pyglet
from pyglet import gl
from pyglet.window import key, mouse

from gorilla.app.commands import BUTTONS, COMMANDS, split_key
from gorilla.app.file_browser import FileBrowser, recent_files, remember_file, start_folder
from gorilla.app.table import Table
from gorilla.gui.camera import Camera
from gorilla.gui.file_picker import FilePicker
from gorilla.gui.graph import Graph, graph_data
from gorilla.gui.hud import LABEL_MAX, LABEL_MIN, Hud
from gorilla.gui.info_dialog import InfoDialog
from gorilla.gui.layout import MIN_HEIGHT, MIN_WIDTH, Layout, window_layout
from gorilla.gui.meshes import STONE_HALF_HEIGHT
from gorilla.gui.modal import CommentBox, Confirm, DialogInput, Modal
from gorilla.gui.newgame_dialog import NewGameDialog
from gorilla.gui.overlay import BoardLabel, label_font_size
from gorilla.gui.renderer import BACKGROUND, Renderer
from gorilla.gui.report_dialog import ReportDialog
from gorilla.gui.scene import build_scene, flash_marker
from gorilla.gui.sounds import Sounds
from gorilla.gui.toolbar import Toolbar
from gorilla.gui.tree_view import CELL as TREE_CELL
from gorilla.gui.tree_view import TreeView
from gorilla.rules.board import WHITE
from gorilla.rules.coords import to_index, to_xy

CLICK_SLOP = 6  # pixels a click may move and still be a click, not a drag
ORBIT_SPEED = 0.008  # radians per pixel
THINKING_FPS = 10.0
MOVE_NUMBER_MODES = ("off", "last10", "all")


MARK_GLYPHS = {"TR": "\u25b3", "SQ": "\u25a1", "CR": "\u25cb", "MA": "\u00d7"}  # SGF markup as drawn
MARK_INK = (200, 20, 20, 255)  # markup on an empty point: red against the wood and its lines
MARK_SIZE = 14  # points
VARIATION_INK = (30, 90, 230, 255)  # the letters of the variations' next moves
LAST_NUMBER_INK = (235, 40, 30, 255)  # the last move's number (it stands for the ring): red on either stone
FLASH_SECONDS = 0.6  # the red mark on an occupied point that was clicked
M = TypeVar("M", bound="Modal")


# the keys of gorilla.app.commands as pyglet symbols (a letter or a digit: its character)
KEY_SYMBOLS: dict[str, tuple[int, ...]] = {
    "Enter": (key.ENTER, key.RETURN),
    "Esc": (key.ESCAPE,),
    "Space": (key.SPACE,),
    "Delete": (key.DELETE,),
    "Left": (key.LEFT,),
    "Right": (key.RIGHT,),
    "Up": (key.UP,),
    "Down": (key.DOWN,),
    "Home": (key.HOME,),
    "End": (key.END,),
    "PageUp": (key.PAGEUP,),
    "PageDown": (key.PAGEDOWN,),
    "Pause": (key.PAUSE,),
    "F1": (key.F1,),
    "F3": (key.F3,),
    "[": (key.BRACKETLEFT,),
    "]": (key.BRACKETRIGHT,),
    "+": (key.PLUS,),
    "=": (key.EQUAL,),
    "-": (key.MINUS,),
    "Num+": (key.NUM_ADD,),
    "Num-": (key.NUM_SUBTRACT,),
}
BUTTON_COMMANDS: dict[str, str] = {cmd.button: cmd.name for cmd in COMMANDS if cmd.button}


def key_symbols(name: str) -> tuple[int, ...]:
    """The pyglet symbols of a key named as in the commands table."""
    if name in KEY_SYMBOLS:
        return KEY_SYMBOLS[name]
    if len(name) != 1 or not name.isalnum():
        raise ValueError(f"no pyglet key for {name!r}")
    return (ord(name.lower()),)  # pyglet numbers a letter or digit key by its lower-case character


def _bindings() -> dict[tuple[bool, bool, bool, int], str]:
    """(Ctrl, Alt, Shift, symbol) -> the command's name, for every key of every command."""
    out: dict[tuple[bool, bool, bool, int], str] = {}
    for command in COMMANDS:
        for chord in command.keys:
            mods, name = split_key(chord)
            for symbol in key_symbols(name):
                out["Ctrl" in mods, "Alt" in mods, "Shift" in mods, symbol] = command.name
    return out


BINDINGS = _bindings()


def bound_command(symbol: int, modifiers: int) -> str | None:
    """The command a key press runs: its own chord, else without Shift, then without Alt
    (Shift+c is c, Alt+Shift+Left is Alt+Left); a Ctrl key only runs a Ctrl command."""
    ctrl = bool(modifiers & (key.MOD_CTRL | key.MOD_COMMAND))
    alt, shift = bool(modifiers & key.MOD_ALT), bool(modifiers & key.MOD_SHIFT)
    for a, s in ((alt, shift), (alt, False), (False, shift), (False, False)):
        name = BINDINGS.get((ctrl, a, s, symbol))
        if name is not None:
            return name
    return None


def gl_config(samples: int = 0) -> gl.Config:
    """OpenGL 3.3 core, depth buffer, double buffered; multisampled if asked and offered.

    No multisampling by default: grid, markers and stone silhouettes are anti-aliased in
    their shaders, and MSAA would double the frame cost on a software renderer.
    """
    display = pyglet.display.get_display()
    screen = display.get_default_screen()
    base = dict(major_version=3, minor_version=3, forward_compatible=True, double_buffer=True, depth_size=24)
    if samples:
        try:
            return screen.get_best_config(gl.Config(sample_buffers=1, samples=samples, **base))
        except pyglet.window.NoSuchConfigException:
            pass
    return screen.get_best_config(gl.Config(**base))


def latest_sgf(directory: str, exclude: str | None = None) -> str | None:
    """The most recently written .sgf in directory, leaving out exclude (the autosave file)."""
    skip = os.path.abspath(os.path.expanduser(exclude)) if exclude else None
    files = [
        f
        for f in glob.glob(os.path.join(directory, "*.sgf"))
        if os.path.isfile(f) and os.path.abspath(f) != skip
    ]
    return max(files, key=os.path.getmtime) if files else None


class GorillaWindow(pyglet.window.Window):
    """The rotatable 3D board, driven by a :class:`gorilla.app.controller.Controller`."""

    def __init__(self, controller: Table, settings=None, **kwargs) -> None:
        # never smaller than the minimum (which the window manager then keeps)
        kwargs["width"] = max(MIN_WIDTH, kwargs.get("width", 1024))
        kwargs["height"] = max(MIN_HEIGHT, kwargs.get("height", 768))
        kwargs.setdefault("caption", "Gorilla")
        kwargs.setdefault("resizable", True)
        if "config" not in kwargs:
            kwargs["config"] = gl_config(samples=kwargs.pop("samples", 0))
        super().__init__(**kwargs)
        self.set_minimum_size(MIN_WIDTH, MIN_HEIGHT)
        self.controller = controller
        self.camera = Camera(size=controller.game.size)
        self.renderer = Renderer(controller.game.size)
        self.layout: Layout = window_layout(self.width, self.height, 0)
        self.hud = Hud(self, self.layout)
        self.graph = Graph()
        self.tree_view = TreeView()
        self.settings = settings  # gorilla.app.settings.Settings, or None: nothing is remembered
        self.sounds = Sounds(settings)
        self.sounds.load()
        self.modals: list[Modal] = []  # the open modal inputs, on the handler stack, the newest last
        # (Compiler, NewGame): a Gomoku game waiting for its engine (from the command line: at once)
        self._gomoku_wait = controller.gomoku_wait
        self.commands = self._command_actions()
        self.toolbar = Toolbar(
            {b: self.commands[BUTTON_COMMANDS[b]] for b in BUTTONS},
            self.layout.toolbar[2],
            ["DejaVu Sans", "Arial", "Helvetica"],
        )
        self.move_numbers = settings.get("move_numbers") if settings is not None else "off"
        self.renderer.show_coordinates = bool(settings.get("coordinates")) if settings is not None else True
        self.show_help = False
        self.hover: int | None = None  # the point under the mouse, on the board of self._board
        self._mouse: tuple[int, int] | None = None  # the last mouse position in the window
        self._board: tuple[int, int] = (id(controller), controller.game.size)  # what camera and hover show
        self.frames = 0
        self.frame_times: list[float] = []
        self.last_frame_ms = 0.0
        self._seen: tuple | None = None
        self._dirty = True
        self._last_draw = 0.0
        self._press: tuple[int, int, int, int] | None = None  # x, y, button, modifiers
        self._dragging = False
        self._flash: tuple[int, float] | None = None  # (point, until): a click on an occupied point
        # GORILLA_FRAME_LOG=FILE: one wall-clock time per frame drawn (for tests and profiling)
        log = os.environ.get("GORILLA_FRAME_LOG")
        self._frame_log = open(log, "a", encoding="utf-8") if log else None  # noqa: SIM115
        self._update_viewport()
        self.camera.reset()
        pyglet.clock.schedule_interval(self.tick, 1 / 60)

    # --- geometry -------------------------------------------------------------------------
    def _update_viewport(self) -> None:
        """The board's view from the layout, the zoom kept relative to the fit: a smaller window
        shows the whole board smaller, never cut."""
        self.layout = window_layout(self.width, self.height, self.toolbar.height)
        fit = self.camera.default_distance()
        self.camera.viewport = self.layout.view
        self.camera.distance *= self.camera.default_distance() / fit

    @property
    def view_width(self) -> int:
        """The width of the board's view (the window less the panel)."""
        return self.layout.view[2]

    def on_resize(self, width: int, height: int) -> None:
        """Fit the 3D view and the panel to the new window size."""
        super().on_resize(width, height)
        self._update_viewport()
        lay = self.layout
        self.hud.layout(lay)
        self.toolbar.set_width(lay.toolbar[2])
        self.toolbar.layout(lay.toolbar[0], lay.toolbar[1])
        self.graph.layout(*(lay.graph or (lay.panel_x + 16, 0, lay.text_width, 0)))
        self.tree_view.layout(*lay.tree)
        for m in self.modals:
            m.layout(self.view_width, height)
        self._dirty = True

    def on_expose(self) -> None:
        """Redraw at the next tick (the window was uncovered)."""
        self._dirty = True

    def screen_to_point(self, x: float, y: float) -> int | None:
        """The board point under window pixel (x, y), or None (off the board or over the panel)."""
        vx, vy, vw, vh = self.camera.viewport
        if not (vx <= x < vx + vw and vy <= y < vy + vh):
            return None
        return self.camera.screen_to_point(x, y)

    def point_to_screen(self, point: int) -> tuple[int, int]:
        """The window pixel (x, y), rounded, of a board point."""
        sx, sy = self.camera.point_to_screen(point)
        return round(sx), round(sy)

    # --- the frame loop ---------------------------------------------------------------------
    def tick(self, dt: float = 0.0) -> None:
        """Poll the controller; redraw if anything visible changed."""
        if self._gomoku_wait is not None:
            self._wait_for_gomoku()  # may swap the controller
        c = self.controller
        c.poll()
        for kind, data in c.drain_events():
            self.sounds.on_event(kind, data)
        self._follow_board()
        compiler = c.compiler
        busy = c.thinking or c.evaluating or (compiler is not None and compiler.compiling)
        busy = busy or (c.review is not None and c.review.running)
        state = (
            busy,  # the end of a search or a compile redraws (its bar and line go) without input
            c.version,
            self.camera.state(),
            self.hover,
            self.show_help,
            tuple(m.prompt_line() for m in self.modals),
            c.game.size,
            self.move_numbers,
            self.renderer.show_coordinates,
            self._clock_text(),
            self.tree_view.visible,
            tuple(self.tree_view.offset),
            self._flash_on(),
        )
        now = time.monotonic()
        if state != self._seen or (busy and now - self._last_draw >= 1.0 / THINKING_FPS):
            self._dirty = True
        if self._dirty:
            self._seen = state
            self.draw(dt)

    def _follow_board(self) -> None:
        """Camera and hover point follow the board on show: a game of another size (a new game,
        a loaded record) resets the camera, and a new board or controller recomputes the point
        under the mouse from its last position (a point of the old board means nothing on it)."""
        c = self.controller
        board = (id(c), c.game.size)
        if board == self._board and c.game.size == self.camera.size:
            return
        self._board = board
        if c.game.size != self.camera.size:
            self.camera.size = c.game.size
            self.camera.reset()
        self.hover = None if self._mouse is None or self._dragging else self.screen_to_point(*self._mouse)
        self._dirty = True

    def on_draw(self) -> None:
        """Draw one frame: the scene built from the controller, then the HUD."""
        t0 = time.perf_counter()
        self._dirty = False
        self._last_draw = time.monotonic()
        self._follow_board()  # pyglet may draw before the tick has seen a new board
        c = self.controller
        scene = build_scene(c, self.hover, self._flash_marks(), numbered_last=self._last_numbered())
        self.renderer.upload(scene)
        fw, fh = self.get_framebuffer_size()
        scale = fw / max(1, self.width)
        gl.glViewport(0, 0, fw, fh)
        gl.glClearColor(*BACKGROUND)
        gl.glClear(gl.GL_COLOR_BUFFER_BIT | gl.GL_DEPTH_BUFFER_BIT)
        self.renderer.draw(self.camera, scale)
        gl.glViewport(0, 0, fw, fh)
        gl.glEnable(gl.GL_BLEND)
        gl.glBlendFunc(gl.GL_SRC_ALPHA, gl.GL_ONE_MINUS_SRC_ALPHA)
        if self.tree_view.visible:
            self.tree_view.update(c.tree, c.version)
        self.hud.set_board_labels(self._label_items(scene))
        curve = graph_data(c) if self.layout.graph is not None else None  # None: no analysis, no room
        if curve is not None:
            self.graph.update(curve)
        self.hud.update(c, scene.notice, self.graph.top if curve is not None else self.layout.text_bottom)
        prompts = [line for m in self.modals if (line := m.prompt_line()) is not None]
        self.hud.set_prompt(prompts[-1] if prompts else None)
        self.tree_view.draw()  # under the panel's prompt and help
        self.hud.draw()
        if curve is not None:
            self.graph.draw()
        self.toolbar.offer({b: c.offers(BUTTON_COMMANDS[b]) for b in self.toolbar.buttons})
        self.toolbar.draw()
        if self.show_help:
            self.hud.draw_help()  # over the panel, its graph and its buttons
        for m in self.modals:
            m.draw()
        self.frames += 1
        if self.frames == 1 and c.compiler is not None:
            c.compiler.start()  # kernels compile or load once the window is on the screen
        now = time.perf_counter()
        self.frame_times.append(now)
        if len(self.frame_times) > 2000:
            del self.frame_times[:1000]
        self.last_frame_ms = (now - t0) * 1000.0
        if self._frame_log is not None:
            with contextlib.suppress(OSError):
                self._frame_log.write(f"{time.time():.3f}\n")
                self._frame_log.flush()

    def draw(self, dt: float = 0.0) -> None:
        """Render and show a frame now (on_draw is called directly: pyglet may be queueing events)."""
        self.switch_to()
        self.on_draw()
        self.flip()

    def redraw_now(self) -> None:
        """Render a frame into the back buffer without showing it (tests, screenshots)."""
        self.switch_to()
        self.controller.poll()
        self.on_draw()

    def capture(self) -> np.ndarray:
        """The current back buffer after a fresh draw, as an (h, w, 3) uint8 array (row 0 = bottom)."""
        self.redraw_now()
        gl.glFinish()
        fw, fh = self.get_framebuffer_size()
        buf = (ctypes.c_ubyte * (fw * fh * 4))()
        gl.glPixelStorei(gl.GL_PACK_ALIGNMENT, 1)
        gl.glReadBuffer(gl.GL_BACK)
        gl.glReadPixels(0, 0, fw, fh, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, buf)
        self.flip()
        return np.frombuffer(buf, dtype=np.uint8).reshape(fh, fw, 4)[:, :, :3].copy()

    def save_screenshot(self, path: str) -> None:
        """Write a PNG of a freshly drawn frame."""
        self.redraw_now()
        pyglet.image.get_buffer_manager().get_color_buffer().save(path)
        self.flip()

    # --- mouse ---------------------------------------------------------------------------------
    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        """Track the board point under the mouse (the hover stone)."""
        self._mouse = (x, y)
        self.hud.pointer = (x, y)
        p = None if self.tree_view.contains(x, y) else self.screen_to_point(x, y)
        if p != self.hover:
            self.hover = p
        self.toolbar.on_mouse_motion(x, y, dx, dy)
        self._dirty = True

    def on_mouse_leave(self, x: int, y: int) -> None:
        """No hover point while the mouse is outside the window."""
        self._mouse = None
        self.hud.pointer = None
        self.hover = None

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        """Remember the press: its release is a click, or ends a drag (a toolbar button takes it)."""
        self._press = (x, y, button, modifiers)
        self._mouse = (x, y)
        self._dragging = False
        if x >= self.camera.viewport[2] and button == mouse.LEFT:
            n = self.graph.hit(x, y) if self.layout.graph is not None else None
            if n is not None:
                self.controller.goto_move(n)  # a click on the graph shows that move
            if self.hud.name_row_at(x, y) is not None:
                self.edit_game_info()  # a click on a player's name edits the names
            self.toolbar.on_mouse_press(x, y, button, modifiers)
            self._dirty = True

    def on_mouse_drag(self, x: int, y: int, dx: int, dy: int, buttons: int, modifiers: int) -> None:
        """Middle drag pans; left or right drag orbits once past CLICK_SLOP pixels.

        With Ctrl/Shift held or the right button, more than a pixel starts the drag.
        """
        self._mouse = (x, y)
        if buttons & mouse.MIDDLE:
            self._dragging = True
            self.camera.pan(dx, dy)
            return
        if not buttons & (mouse.LEFT | mouse.RIGHT):
            return
        if not self._dragging and self._press is not None:
            px, py, _, pmods = self._press
            moved = math.hypot(x - px, y - py)
            with_mod = bool(pmods & (key.MOD_CTRL | key.MOD_SHIFT)) or bool(buttons & mouse.RIGHT)
            if moved > CLICK_SLOP or (with_mod and moved > 1):
                self._dragging = True
        if self._dragging:
            self.camera.orbit(-dx * ORBIT_SPEED, -dy * ORBIT_SPEED)
            self.hover = None

    def on_mouse_release(self, x: int, y: int, button: int, modifiers: int) -> None:
        """A click (not a drag): left plays the point (AI vs AI, off the board: next move), right passes.

        While the help shows, a click only closes it; a Ctrl/Shift left click does nothing.
        """
        press, self._press = self._press, None
        if self._dragging:
            self._dragging = False
            return
        if press is not None and press[3] & (key.MOD_CTRL | key.MOD_SHIFT) and button == mouse.LEFT:
            return  # a modifier-click without movement: neither a move nor a drag
        if self.tree_view.contains(x, y):
            node = self.tree_view.hit(x, y) if button == mouse.LEFT else None
            if node is not None:
                self.controller.go_to_node(node)  # a click on the tree shows that move
            return
        if self.show_help:
            self.show_help = False
            return
        c = self.controller
        if button == mouse.LEFT:
            if x >= self.camera.viewport[2]:
                self.toolbar.on_mouse_release(x, y, button, modifiers)
                self._dirty = True
                return  # the side panel
            p = self.screen_to_point(x, y)
            number = self.shown_numbers().get(p) if p is not None else None
            if number is not None and not c.editing and not c.game.over:
                c.goto_move(number)  # a click on a numbered stone goes to its move
            elif p is not None:
                self._flash_if_occupied(p)
                c.click(p)
            elif c.ai_vs_ai:
                c.advance()
        elif button == mouse.RIGHT:
            p = self.screen_to_point(x, y) if c.editing else None
            if p is not None:
                c.setup_click(p, WHITE)  # set-up mode: a right click is a white stone
            else:
                c.pass_turn()
        self._mouse = (x, y)
        self.hover = self.screen_to_point(x, y)

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> None:
        """Zoom: scrolling up zooms in; over the game tree, the wheel scrolls the tree."""
        if self.tree_view.contains(x, y):
            self.tree_view.scroll((scroll_x - scroll_y) * 3 * TREE_CELL, 0)
            self._dirty = True
            return
        self.camera.zoom(0.9**scroll_y)

    # --- keys ----------------------------------------------------------------------------------
    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        """The keys of :data:`gorilla.app.commands.COMMANDS`, each running its command.

        An open modal input (:mod:`gorilla.gui.modal`: the dialog, the comment box, the path
        field, a confirmation) is above this handler and takes its keys first. Esc closes the
        help, never the window.
        """
        self._dirty = True  # (a modal input open takes the keys before this: gorilla.gui.modal)
        name = bound_command(symbol, modifiers)
        if name is not None:
            self.commands[name]()
            self._dirty = True
        return pyglet.event.EVENT_HANDLED

    def _command_actions(self) -> dict[str, Callable[[], object]]:
        """What each command of :data:`gorilla.app.commands.COMMANDS` does, by name (the
        controller is looked up at each call: a new game may swap it)."""
        cam = self.camera
        step = math.radians(5)

        def c():
            return self.controller

        return {
            "toggle_control": lambda: c().toggle_control(),
            "evaluate": self.evaluate,
            "toggle_thinking": lambda: c().toggle_thinking(),
            "toggle_policy": lambda: c().toggle_policy(),
            "toggle_ownership": lambda: c().toggle_ownership(),
            "undo": lambda: c().undo(),
            "redo": lambda: c().redo(),
            "back": lambda: c().go_back(1),
            "back10": lambda: c().go_back(10),
            "forward": lambda: c().go_forward(1),
            "forward10": lambda: c().go_forward(10),
            "line_start": lambda: c().go_start(),
            "line_end": lambda: c().go_end(),
            "previous_variation": lambda: c().switch_variation(-1),
            "next_variation": lambda: c().switch_variation(1),
            "promote": lambda: c().promote_variation(),
            "delete_branch": lambda: c().delete_branch(),
            "comment": self.edit_comment,
            "setup": lambda: c().toggle_setup(),
            "tree_view": self.toggle_tree,
            "game_info": self.edit_game_info,
            "setup_side": lambda: c().setup_side_to_move(),
            "reset": self.ask_reset,
            "new_game": self.new_game,
            "pause": lambda: c().toggle_pause(),
            "pass": lambda: c().pass_turn(),
            "two_more": lambda: c().two_more(),
            "resign": self.ask_resign,
            "next_move": lambda: c().advance(),
            "continuous": lambda: c().set_continuous(not c().continuous),
            "analyse": lambda: c().toggle_analysis(),
            "next_mistake": lambda: c().next_mistake(1),
            "previous_mistake": lambda: c().next_mistake(-1),
            "mistake_threshold": lambda: c().cycle_mistake_threshold(),
            "mistake_dots": lambda: c().toggle_mistake_dots(),
            "report": self.show_report,
            "move_numbers": self.cycle_move_numbers,
            "coordinates": self.toggle_coordinates,
            "mute": self.toggle_mute,
            "volume_down": lambda: self.change_volume(-0.1),
            "volume_up": lambda: self.change_volume(0.1),
            "save": self.save,
            "load": self.open_prompt,
            "orbit_left": lambda: cam.orbit(step, 0),
            "orbit_right": lambda: cam.orbit(-step, 0),
            "tilt_up": lambda: cam.orbit(0, step),
            "tilt_down": lambda: cam.orbit(0, -step),
            "default_view": cam.reset,
            "zoom_in": lambda: cam.zoom(0.9),
            "zoom_out": lambda: cam.zoom(1 / 0.9),
            "top_view": self.top_view,
            "help": self.toggle_help,
            "close_help": self.close_help,
            "quit": self.close,
        }

    def evaluate(self) -> None:
        """``e``: evaluate every move; with an evaluation of this position, hide or show its labels."""
        c = self.controller
        if c.evaluation is None:
            c.evaluate()
            return
        c.toggle_eval()
        c.say("Evaluation shown (e hides it)" if c.show_eval else "Evaluation hidden (e shows it again)")

    def edit_game_info(self) -> None:
        """Ctrl+I (or a click on a name in the panel): what the record says of its game (the
        names, ranks, event, place, date, result, komi and rules; Gomoku's: names and event)."""
        c = self.controller
        info = c.names()
        if info is None:
            c.set_game_info("", "", "")  # a game that keeps no names says so
            return

        def keep(edited) -> str | None:
            table = self.controller
            return None if table.set_record_info(edited) is not False else table.message

        m = self.open_modal(InfoDialog(self, info, keep))
        m.layout(self.view_width, self.height)

    def show_report(self) -> None:
        """F3 (or the Report button): the game report of the line on the board, once analysed."""
        c = self.controller
        report = c.game_report()
        if report is None:
            c.say(
                "No game report yet: g analyses the game"
                if c.review is not None
                else "The game report: Go only"
            )
            return
        info = c.names()
        names = (info.black, info.white) if info is not None else ("", "")
        m = self.open_modal(ReportDialog(self, report, names))
        m.layout(self.view_width, self.height)

    def toggle_tree(self) -> None:
        """``w``: the game tree below the board on or off."""
        self.tree_view.visible = not self.tree_view.visible
        if self.controller.tree is None and self.tree_view.visible:
            self.controller.say("No game tree here (Go only)")

    def close_help(self) -> None:
        """Esc: close the help (Esc never closes the window; Ctrl+Q does)."""
        self.show_help = False

    # --- modal inputs ------------------------------------------------------------------------------
    def open_modal(self, modal: Modal) -> Modal:
        """Put a modal input on the handler stack: its events stop there until it closes."""
        self.push_handlers(modal)
        self.modals.append(modal)
        self._dirty = True
        return modal

    def modal_closed(self, modal: Modal) -> None:
        """A modal input took itself off the stack."""
        if modal in self.modals:
            self.modals.remove(modal)
        self._dirty = True

    def invalidate(self) -> None:
        """Redraw at the next tick."""
        self._dirty = True

    def _modal(self, kind: type[M]) -> M | None:
        return next((m for m in reversed(self.modals) if isinstance(m, kind)), None)

    @property
    def dialog(self) -> NewGameDialog | None:
        """The new-game dialog while it is open."""
        m = self._modal(DialogInput)
        return None if m is None else m.dialog

    @property
    def picker(self) -> FilePicker | None:
        """The file picker (Ctrl+O, Ctrl+S) while it is open."""
        return self._modal(FilePicker)

    @property
    def prompt(self) -> str | None:
        """The name (or path) typed into the file picker while it is open."""
        m = self._modal(FilePicker)
        return None if m is None else m.browser.name

    @property
    def comment(self) -> str | None:
        """The comment being typed while the box is open."""
        m = self._modal(CommentBox)
        return None if m is None else m.text

    @property
    def confirm(self) -> str | None:
        """What waits for its confirmation ('resign'), or None."""
        m = self._modal(Confirm)
        return None if m is None else m.what

    def edit_comment(self) -> None:
        """Enter: the comment box takes the keys (Enter keeps the text, Shift+Enter a new line,
        Esc leaves keeping it too)."""
        self.open_modal(
            CommentBox(self, self.controller.comment, lambda text: self.controller.set_comment(text))
        )

    def _clock_text(self) -> str:
        """The clocks as shown (a new second redraws the panel)."""
        views = self.controller.clock_views()
        return "" if views is None else " ".join(v.text() for v in views.values())

    def _label_items(self, scene) -> list[tuple]:
        """Every label drawn over the board: the overlay's numbers (each the largest that fits
        its disc, or none), the other overlays' (the teaching view's: sized to the grid's
        spacing where each stands), the move numbers and the markup."""
        shown = [] if scene.stone_labels else scene.labels  # a line shown hides them
        items = self._overlay_label_items([lab for lab in shown if isinstance(lab, BoardLabel)])
        for p, text, *ink in (lab for lab in shown if not isinstance(lab, BoardLabel)):
            x, y = self.camera.point_to_screen(p)
            size = self._label_size(p, len(text))
            lift = ink[1] * size if len(ink) > 1 else 0  # two lines on one point (v's score, visits)
            items.append((x, y + lift, text, ink[0] if ink else (255, 255, 255, 255), size))
        for p, text, ink in scene.stone_labels:  # the numbers of the line under the pointer
            x, y = self.camera.point_to_screen(p, STONE_HALF_HEIGHT * 2)
            items.append((x, y, text, ink, self._label_size(p, 2)))
        marks = self._markup_items()
        marked = {(round(m[0]), round(m[1])) for m in marks}
        items.extend(i for i in self._move_number_items() if (round(i[0]), round(i[1])) not in marked)
        items.extend(marks)
        items.extend(self._variation_items())
        return [i for i in items if not self.tree_view.contains(i[0], i[1])]  # none under the tree

    def _overlay_label_items(self, labels: list) -> list[tuple]:
        """The overlay's numbers, alike: the same form for all (the short one, 57 for 57%, where
        one needs it) at the size of the smallest; a number that does not fit its disc is left
        out, the ringed best's only where it does not fit a point smaller."""
        rooms = []
        for lab in labels:
            across, along = self._spacing(lab.point)
            rooms.append((lab.room * across, lab.room * along))
        fits = [self.hud.fit_label(lab.texts, *room) for lab, room in zip(labels, rooms, strict=True)]
        short = max((lab.texts.index(f[0]) for lab, f in zip(labels, fits, strict=True) if f), default=0)
        fits = [
            self.hud.fit_label(lab.texts[min(short, len(lab.texts) - 1) :], *room, LABEL_MIN - lab.best)
            for lab, room in zip(labels, rooms, strict=True)
        ]
        others = [f[1] for lab, f in zip(labels, fits, strict=True) if f and not lab.best]
        size = min(others, default=LABEL_MAX)
        items = []
        for lab, f in zip(labels, fits, strict=True):
            if f is not None:
                x, y = self.camera.point_to_screen(lab.point)
                items.append((x, y, f[0], lab.ink, min(size, f[1])))
        return items

    def _spacing(self, point: int) -> tuple[float, float]:
        """The pixels between point and its neighbours on screen: (across, along the board's
        perspective), the larger of the two neighbours' each way."""
        size = self.controller.game.size
        x, y = to_xy(point, size)
        sx, sy = self.camera.point_to_screen(point)
        nx = to_index(x + 1 if x + 1 < size else x - 1, y, size)
        ny = to_index(x, y + 1 if y + 1 < size else y - 1, size)
        ax, ay = self.camera.point_to_screen(nx)
        bx, by = self.camera.point_to_screen(ny)
        return max(abs(ax - sx), abs(bx - sx)), max(abs(ay - sy), abs(by - sy))

    def _label_size(self, point: int, chars: int) -> int:
        """The font size of a label of chars characters on point (a stone's number): from the
        pixels between the point and its neighbours on screen."""
        across, along = self._spacing(point)
        return min(label_font_size(across, chars), label_font_size(2.2 * along, 4))

    def _variation_items(self) -> list[tuple]:
        """Letters (A, B, ...) on the points where the variations branching here play next."""
        tree = self.controller.tree
        if tree is None or len(tree.current.children) < 2:
            return []
        pos = self.controller.game.position
        out = []
        for i, child in enumerate(tree.current.children[:26]):
            if pos.on_board(child.point) and pos.color_at(child.point) == 0:
                x, y = self.camera.point_to_screen(child.point)
                out.append((x, y, chr(ord("A") + i), VARIATION_INK, MARK_SIZE))
        return out

    # --- the red mark on an occupied point ---------------------------------------------------------
    def _flash_if_occupied(self, point: int) -> None:
        """A click on a stone (not to mark the dead, not in set-up): a brief red mark on it."""
        c = self.controller
        if c.editing or c.over or c.game.position.color_at(point) not in (1, 2):
            return
        self._flash = (point, time.monotonic() + FLASH_SECONDS)

    def _flash_on(self) -> bool:
        return self._flash is not None and time.monotonic() < self._flash[1]

    def _flash_marks(self) -> list[list[float]]:
        """The red mark's marker row while it lasts."""
        if not self._flash_on():
            self._flash = None
            return []
        return [flash_marker(self._flash[0], self.controller.game.size)]

    def _markup_items(self) -> list[tuple[float, float, str, tuple, int]]:
        """(x, y, text, colour) of the current move's markup from the record: triangles, squares,
        circles, crosses (SGF TR, SQ, CR, MA) and labels (LB), on the stone or the wood."""
        tree = self.controller.tree
        if tree is None:
            return []
        node = tree.current
        pos = self.controller.game.position
        out = []
        marks = [(p, MARK_GLYPHS[ident]) for ident, pts in node.marks.items() for p in sorted(pts)]
        for p, text in [*marks, *sorted(node.labels.items())]:
            if not pos.on_board(p):
                continue
            color = pos.color_at(p)
            x, y = self.camera.point_to_screen(p, STONE_HALF_HEIGHT * 2 if color in (1, 2) else 0.0)
            ink = {1: (255, 255, 255, 255), 2: (20, 20, 20, 255)}.get(color, MARK_INK)
            out.append((x, y, text[:3], ink, MARK_SIZE))
        return out

    def shown_numbers(self) -> dict[int, int]:
        """point -> the number of the move whose stone stands there, for the numbers shown."""
        if self.move_numbers == "off":
            return {}
        game = self.controller.game
        pos = game.position
        latest: dict[int, int] = {}
        for i, m in enumerate(game.moves, 1):
            if m.point >= 0:
                latest[m.point] = i
        n = len(game.moves)
        return {
            point: number
            for point, number in latest.items()
            if pos.color_at(point) in (1, 2) and not (self.move_numbers == "last10" and number <= n - 10)
        }

    def _last_numbered(self) -> bool:
        """Whether the last move's stone shows its number (then in LAST_NUMBER_INK, no ring): the
        numbers are on (the last 10 hold it) and its stone stands; once a frame, so no walk
        through the moves."""
        game = self.controller.game
        last = game.last_move
        return (
            self.move_numbers != "off"
            and last is not None
            and last.point >= 0
            and game.position.color_at(last.point) in (1, 2)
        )

    def _move_number_items(self) -> list[tuple[float, float, str, tuple]]:
        """(x, y, text, colour) of the move numbers shown on the stones (off, the last 10, all);
        the last move's number in LAST_NUMBER_INK (it stands for the last move's ring)."""
        game = self.controller.game
        pos = game.position
        last = game.last_move
        out = []
        for point, number in self.shown_numbers().items():
            color = pos.color_at(point)
            x, y = self.camera.point_to_screen(point, STONE_HALF_HEIGHT * 2)
            ink = (255, 255, 255, 255) if color == 1 else (20, 20, 20, 255)
            if last is not None and point == last.point:
                ink = LAST_NUMBER_INK
            out.append((x, y, str(number + game.move_offset), ink))
        return out

    def cycle_move_numbers(self) -> str:
        """Move numbers on the stones: off -> last 10 -> all -> off (remembered)."""
        i = MOVE_NUMBER_MODES.index(self.move_numbers) if self.move_numbers in MOVE_NUMBER_MODES else 0
        self.move_numbers = MOVE_NUMBER_MODES[(i + 1) % len(MOVE_NUMBER_MODES)]
        if self.settings is not None:
            self.settings.set("move_numbers", self.move_numbers)
        self.controller.say(f"Move numbers: {self.move_numbers.replace('last10', 'last 10')}")
        return self.move_numbers

    def toggle_coordinates(self) -> bool:
        """Coordinates along the board's edges on or off (remembered)."""
        on = not self.renderer.show_coordinates
        self.renderer.show_coordinates = on
        if self.settings is not None:
            self.settings.set("coordinates", on)
        self.controller.say(f"Coordinates {'on' if on else 'off'}")
        return on

    def toggle_mute(self) -> None:
        """Sound off or on (remembered)."""
        muted = self.sounds.toggle_mute()
        self.controller.say("Sound off" if muted else f"Sound on, volume {round(self.sounds.volume * 100)}%")

    def change_volume(self, step: float) -> None:
        """Louder or softer by step (remembered); unmutes."""
        if self.sounds.muted:
            self.sounds.toggle_mute()
        volume = self.sounds.set_volume(self.sounds.volume + step)
        self.controller.say(f"Volume {round(volume * 100)}%")
        self.sounds.play(self.sounds.stone())

    def new_game(self) -> None:
        """The New button: the new-game dialog (a resignation waiting for its confirmation is dropped)."""
        confirm = self._modal(Confirm)
        if confirm is not None:
            confirm.close()
        self.open_new_game()

    def open_new_game(self) -> NewGameDialog:
        """Open the new-game dialog for the game on the board: its game's last choices
        (remembered in the settings, Go's and Gomoku's apart), else the game's own."""
        from gorilla.app.game_kinds import game_of
        from gorilla.app.newgame import SETTINGS_KEY, form_for

        if self.dialog is None:
            s = self.settings
            remembered = {k: s.get(k) for k in SETTINGS_KEY.values()} if s is not None else {}
            form = form_for(game_of(self.controller), self.controller.new_game_choices(), remembered)
            m = self.open_modal(
                DialogInput(self, NewGameDialog(form, self._start_new_game, self._close_dialog))
            )
            m.layout(self.view_width, self.height)
        self._dirty = True
        return self.dialog

    def _start_new_game(self, ng, compiler=None) -> bool:
        from gorilla.app.game_kinds import gomoku_compiler, rules_ready, start_game

        if ng.game == "gomoku" and compiler is None:
            waiting = self._gomoku_wait[0] if self._gomoku_wait is not None else None
            compiler = gomoku_compiler([ng.black, ng.white], waiting or self.controller.compiler)
            if waiting is not None and waiting is not compiler:
                waiting.close()  # a game asked for before the last one started, with other players
            if compiler is not None and not rules_ready(compiler):
                # a cold cache: compile in a child; the game starts when its rules are loaded
                self._gomoku_wait = (compiler, ng)
                self.controller.say("Compiling the Gomoku engine: the game starts when its rules are ready")
                return True
        self._gomoku_wait = None
        if compiler is not None and compiler.error:
            self.controller.say(f"Gomoku: {compiler.error}")
            return False
        # Go or Gomoku, as the Rules row says; a Gomoku game's AIs may still be compiling
        self.controller, ok = start_game(self.controller, ng, compiler)
        if ok and self.settings is not None and self.dialog is not None:
            from gorilla.app.newgame import SETTINGS_KEY

            self.settings.set(SETTINGS_KEY[ng.game], self.dialog.form.remember())
        if not ok and self.dialog is not None:
            self.dialog.form.error = self.controller.message
        return ok

    def _wait_for_gomoku(self) -> None:
        """While Gomoku's rules compile for a new game: the compile's progress; then the game
        (its AIs' parts may still be compiling: the game's controller follows them)."""
        from gorilla.app.game_kinds import rules_ready

        compiler, ng = self._gomoku_wait
        if rules_ready(compiler):
            self._start_new_game(ng, compiler)
        else:
            status = compiler.status()
            if status and status != self.controller.message:
                self.controller.say(status)

    def _close_dialog(self) -> None:
        m = self._modal(DialogInput)
        if m is not None:
            m.close()
        self._dirty = True

    def ask_resign(self) -> None:
        """Resign, after a confirmation: Resign again, y or Enter confirms; any other key cancels."""
        c = self.controller
        pending = self._modal(Confirm)
        if pending is not None and pending.what == "resign":
            pending.close()
            c.resign()
            return
        if c.over or not c.is_human(c.acting):
            c.say("Only the human to move can resign")
            return
        side = "Black" if c.acting == 1 else "White"
        self._ask(
            Confirm(self, "resign", lambda: self.controller.resign(), lambda: self.controller.say(
                "Resignation cancelled"), f"Resign as {side}? The Resign button again: yes")
        )  # fmt: skip

    def ask_reset(self) -> None:
        """``r``: a new game like this one; a game with moves asks first (r again, y or Enter
        confirms, any other key keeps the game), and undo brings the old game back after."""
        c = self.controller
        moves = len(c.game.moves) + (len(c.tree.continuation()) if c.tree is not None else 0)
        if not moves and not (c.tree is not None and c.tree.root.children):
            c.reset()
            return
        back = "u brings it back" if c.tree is not None else "Ctrl+S saves it first"
        question = f"Start a new game like this one? This game ({moves} moves) goes; {back}. r again: yes"
        self._ask(
            Confirm(self, "reset", lambda: self.controller.reset(), lambda: self.controller.say(
                "Reset cancelled: the game stays"), question, (key.R,))
        )  # fmt: skip

    def _ask(self, confirm: Confirm) -> None:
        """Open a confirmation in the middle of the board view."""
        self.open_modal(confirm)
        confirm.layout(self.view_width, self.height)

    def toggle_help(self) -> None:
        """Show or hide the key help."""
        self.show_help = not self.show_help

    def top_view(self) -> None:
        """Look straight down on the centred board; from the top view, back to the default view."""
        cam = self.camera
        if cam.pitch > math.radians(85):
            cam.reset()
        else:
            cam.yaw, cam.pitch = 0.0, math.radians(89.5)
            cam.target_x = cam.target_z = 0.0

    def save(self) -> FilePicker:
        """Ctrl+S: the file picker in the last folder used (else the current one), a time-stamped
        name typed in; Enter saves there (the controller reports it)."""
        directory = start_folder(self.settings)
        name = time.strftime("gorilla-%Y%m%d-%H%M%S.sgf")
        n = 1
        while os.path.exists(os.path.join(directory, name)):
            n += 1
            name = time.strftime("gorilla-%Y%m%d-%H%M%S") + f"-{n}.sgf"
        return self._open_picker(FileBrowser("save", directory, name), self._save_to)

    def open_prompt(self) -> FilePicker:
        """Ctrl+O: the file picker in the last folder used (else the current one), its most
        recent record selected (Enter loads it), the recent files first. The autosave file is
        never selected (it is the game on the board)."""
        directory = start_folder(self.settings)
        latest = latest_sgf(directory, exclude=self.controller.autosave)
        browser = FileBrowser("open", directory, recent=recent_files(self.settings), select=latest)
        return self._open_picker(browser, self._load_from)

    def _open_picker(self, browser: FileBrowser, done: Callable[[str], None]) -> FilePicker:
        m = self.open_modal(FilePicker(self, browser, done))
        m.layout(self.view_width, self.height)
        return m

    def _load_from(self, path: str) -> None:
        """Load a record; one of the other game (a Gomoku record, GM[4], during a Go game, or a
        Go record during a Gomoku game) starts a game of its kind between two humans first."""
        from gorilla.app.game_kinds import game_of, record_game

        ng = record_game(path)
        if ng is not None and ng.game != game_of(self.controller):
            if not self._start_new_game(ng):
                return
            if ng.game == "gomoku":  # it loads the record itself, once its rules are ready
                remember_file(self.settings, path)
                return
        self.controller.load(path)
        if self.controller.message.startswith("Loaded"):
            remember_file(self.settings, path)

    def _save_to(self, path: str) -> None:
        self.controller.save(path)
        if self.controller.message.startswith("Saved"):
            remember_file(self.settings, path)

    def close(self) -> None:
        """Stop the tick and close the window."""
        pyglet.clock.unschedule(self.tick)
        super().close()


def run_window(controller, *, width: int = 1024, height: int = 768) -> None:
    """Open the window and run the event loop until it is closed; cancels the AI on exit."""
    from gorilla.app.settings import Settings

    window = GorillaWindow(controller, settings=Settings(), width=width, height=height)
    try:
        pyglet.app.run(None)
    finally:
        pyglet.clock.unschedule(window.tick)
        controller.close()
        if not window.has_exit:  # closed by something other than the user
            window.close()
