"""The window's frame loop: the 60 Hz tick that polls the controller and redraws only when
something visible changed, one frame's drawing (scene, labels, panel, toolbar, help, modals,
in that order), and the frames read back for tests and screenshots.

A mixin of :class:`gorilla.gui.window.GorillaWindow`: it reads the window's parts (camera,
renderer, hud, graph, tree view, toolbar, modals) and keeps the frame counters on it.
"""

from __future__ import annotations

import contextlib
import ctypes
import time

import numpy as np
import pyglet
from pyglet import gl

from gorilla.gui.graph import graph_data
from gorilla.gui.keys import BUTTON_COMMANDS
from gorilla.gui.renderer import BACKGROUND
from gorilla.gui.scene import build_scene

THINKING_FPS = 10.0  # frames a second while an AI thinks (its progress bar moves)


class FrameLoop:
    """Draw on demand: ``tick`` redraws when the controller's version, the camera, the hover
    point, the modals' prompts, the clocks or the window changed (``_dirty``), and at
    THINKING_FPS while a search, a compile or a review runs."""

    def on_expose(self) -> None:
        """Redraw at the next tick (the window was uncovered)."""
        self._dirty = True

    def invalidate(self) -> None:
        """Redraw at the next tick."""
        self._dirty = True

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
        self.hud.labels.show(self._label_items(scene))
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

    def _clock_text(self) -> str:
        """The clocks as shown (a new second redraws the panel)."""
        views = self.controller.clock_views()
        return "" if views is None else " ".join(v.text() for v in views.values())
