"""The desktop window: input -> controller requests, controller state -> 3D board and HUD.

Draw on demand: a 60 Hz tick calls ``controller.poll()`` and redraws only when the
controller's ``version``, the camera, the hover point or the window changed (and at
~10 Hz while an AI thinks, so its progress bar moves).

``GorillaWindow`` owns the window's parts (camera, renderer, panel, graph, tree, toolbar,
sounds), its geometry and its view switches; it is composed of mixins that each own one job:
:mod:`~gorilla.gui.frames` (the tick and the frame), :mod:`~gorilla.gui.pointer` (the mouse),
:mod:`~gorilla.gui.keys` (the keys and each command's action), :mod:`~gorilla.gui.board_labels`
(the text over the board), :mod:`~gorilla.gui.dialogs` (the modal inputs),
:mod:`~gorilla.gui.game_start` (a new game) and :mod:`~gorilla.gui.record_files` (save, load).
"""

from __future__ import annotations

import math
import os

import pyglet
from pyglet import gl

from gorilla.app.commands import BUTTONS
from gorilla.app.table import Table
from gorilla.gui.board_labels import BoardLabels
from gorilla.gui.camera import Camera
from gorilla.gui.dialogs import Dialogs
from gorilla.gui.frames import FrameLoop
from gorilla.gui.game_start import GameStart
from gorilla.gui.graph import Graph
from gorilla.gui.hud import Hud
from gorilla.gui.keys import BUTTON_COMMANDS, Keys
from gorilla.gui.keys import bound_command as bound_command  # (re-exported: tests/test_commands.py)
from gorilla.gui.keys import key_symbols as key_symbols
from gorilla.gui.layout import MIN_HEIGHT, MIN_WIDTH, Layout, window_layout
from gorilla.gui.modal import Modal
from gorilla.gui.pointer import Pointer
from gorilla.gui.record_files import RecordFiles
from gorilla.gui.renderer import Renderer
from gorilla.gui.sounds import Sounds
from gorilla.gui.toolbar import Toolbar
from gorilla.gui.tree_view import TreeView

MOVE_NUMBER_MODES = ("off", "last10", "all")


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


class GorillaWindow(
    FrameLoop, Pointer, Keys, BoardLabels, Dialogs, GameStart, RecordFiles, pyglet.window.Window
):
    """The rotatable 3D board, driven by a :class:`gorilla.app.go.controller.Controller`."""

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

    def evaluate(self) -> None:
        """``e``: evaluate every move; with an evaluation of this position, hide or show its labels."""
        c = self.controller
        if c.evaluation is None:
            c.evaluate()
            return
        c.toggle_eval()
        c.say("Evaluation shown (e hides it)" if c.show_eval else "Evaluation hidden (e shows it again)")

    def toggle_tree(self) -> None:
        """``w``: the game tree below the board on or off."""
        self.tree_view.visible = not self.tree_view.visible
        if self.controller.tree is None and self.tree_view.visible:
            self.controller.say("No game tree here (Go only)")

    def close_help(self) -> None:
        """Esc: close the help (Esc never closes the window; Ctrl+Q does)."""
        self.show_help = False

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
