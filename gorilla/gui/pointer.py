"""The mouse over the window: the hover point, a click (a move, a pass, a set-up stone, a
numbered stone's move, a graph or tree node, a toolbar button, a player's name), a drag that
orbits or pans the camera, the wheel's zoom (the tree's scroll over the tree), and the brief
red mark a click on an occupied point leaves.

A mixin of :class:`gorilla.gui.window.GorillaWindow` (pyglet calls its ``on_mouse_*``
handlers); an open modal input is above it on the handler stack and takes its events first.
"""

from __future__ import annotations

import math
import time

from pyglet.window import key, mouse

from gorilla.gui.scene import flash_marker
from gorilla.gui.tree_view import CELL as TREE_CELL
from gorilla.rules.board import WHITE

CLICK_SLOP = 6  # pixels a click may move and still be a click, not a drag
ORBIT_SPEED = 0.008  # radians per pixel
FLASH_SECONDS = 0.6  # the red mark on an occupied point that was clicked


class Pointer:
    """The mouse handlers: the press is remembered (``_press``), its release is a click unless
    the mouse moved past CLICK_SLOP (``_dragging``); ``hover`` is the point under the mouse."""

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
