"""The game tree below the board (``w``): every move a node, each variation a row of its own.

Drawn with pyglet shapes over the bottom of the board view, in the dialogs' colours: a
black or white disc per move (the root a grey square), lines from each node to its
children, the current node ringed, every tenth move numbered. The layout comes from
:func:`gorilla.app.go.tree_layout.layout_tree`. ``hit`` names the node under a click (the window
then asks the controller to go there), ``scroll`` moves the view (the mouse wheel), and
the view follows the current node when it changes. Only the nodes inside the box are drawn.
"""

from __future__ import annotations

from typing import Any

import pyglet
from pyglet import shapes

from gorilla.app.go.tree_layout import Place, layout_tree
from gorilla.gui.newgame_dialog import ACCENT, DIM
from gorilla.gui.toolbar import text_label
from gorilla.rules.board import BLACK

CELL = 22  # pixels between two columns and between two rows
RADIUS = 7
PAD = 14
BOX = (18, 21, 25, 225)
EDGE = (110, 116, 126, 255)
CURRENT = ACCENT  # the dialogs' colours
NUMBER = DIM


class TreeView:
    """The tree view widget: ``layout``, ``update(tree)``, ``hit``, ``scroll``, ``draw``."""

    def __init__(self) -> None:
        self.visible = False
        self.batch = pyglet.graphics.Batch()
        self.bg_group = pyglet.graphics.Group(order=0)
        self.fg_group = pyglet.graphics.Group(order=1)
        self.top_group = pyglet.graphics.Group(order=2)
        self.box = shapes.Rectangle(0, 0, 10, 10, color=BOX, batch=self.batch, group=self.bg_group)
        self.rect = (0, 0, 10, 10)
        self.max_height = 10
        self.offset = [0.0, 0.0]  # the view's scroll: pixels of the tree left of / above the box
        self.places: list[Place] = []
        self.shapes: list = []
        self._key: tuple | None = None
        self._current: Any = None  # the node the view last followed

    def layout(self, x: int, y: int, width: int, height: int) -> None:
        """Place the box at (x, y), width pixels wide and at most height pixels high (less for a
        tree of few rows)."""
        self.max_height = height
        self._fit(x, y, width, height)

    def _fit(self, x: int, y: int, width: int, height: int) -> None:
        self.rect = (x, y, width, height)
        self.box.position = (x, y)
        self.box.width, self.box.height = width, height
        self._key = None

    def _fit_rows(self) -> None:
        """The box as high as the tree's rows need, up to the most it may take."""
        rows = max((p.row for p in self.places), default=0)
        x, y, w, _ = self.rect
        h = min(self.max_height, 2 * PAD + rows * CELL + 4)
        if h != self.rect[3]:
            self._fit(x, y, w, h)

    def contains(self, x: float, y: float) -> bool:
        """Whether window pixel (x, y) is on the box while it shows."""
        bx, by, w, h = self.rect
        return self.visible and bx <= x <= bx + w and by <= y <= by + h

    def centre(self, place: Place) -> tuple[float, float]:
        """The window pixel of a node's centre (scrolled)."""
        bx, by, _, h = self.rect
        return bx + PAD + place.col * CELL - self.offset[0], by + h - PAD - place.row * CELL + self.offset[1]

    def _inside(self, x: float, y: float) -> bool:
        bx, by, w, h = self.rect
        return (
            bx + 2 <= x - RADIUS
            and x + RADIUS <= bx + w - 2
            and by + 2 <= y - RADIUS
            and y + RADIUS <= by + h - 2
        )

    def hit(self, x: float, y: float) -> Any:
        """The node under window pixel (x, y), or None."""
        if not self.contains(x, y):
            return None
        for p in self.places:
            cx, cy = self.centre(p)
            if abs(cx - x) <= RADIUS + 3 and abs(cy - y) <= RADIUS + 3 and self._inside(cx, cy):
                return p.node
        return None

    def scroll(self, dx: float, dy: float) -> None:
        """Scroll the view by pixels (the wheel: across; with Shift: up and down)."""
        cols = max((p.col for p in self.places), default=0)
        rows = max((p.row for p in self.places), default=0)
        _, _, w, h = self.rect
        self.offset[0] = min(max(0.0, self.offset[0] + dx), max(0.0, cols * CELL + 2 * PAD - w))
        self.offset[1] = min(max(0.0, self.offset[1] + dy), max(0.0, rows * CELL + 2 * PAD - h))
        self._key = None

    def _follow(self, place: Place) -> None:
        """Scroll so that the current node is inside the box (when it changed)."""
        bx, by, w, h = self.rect
        cx, cy = self.centre(place)
        if not bx + PAD <= cx <= bx + w - PAD:
            self.offset[0] = max(0.0, place.col * CELL - w / 2)
        if not by + PAD <= cy <= by + h - PAD:
            self.offset[1] = max(0.0, place.row * CELL - h / 2)

    def update(self, tree: Any, version: int) -> None:
        """Lay the tree out again when the record changed; rebuild the shapes when anything shown did."""
        if tree is None:
            self.places = []
            return
        current = tree.current
        key = (id(tree), version, len(tree), tuple(self.offset), self.rect)
        if key == self._key and current is self._current:
            return
        if key[:3] != (self._key or (None,) * 3)[:3] or not self.places:
            self.places = layout_tree(tree.root)
            self._fit_rows()
        here = next((p for p in self.places if p.node is current), None)
        if here is not None and current is not self._current:
            self._follow(here)
        self._current = current
        self._key = (id(tree), version, len(tree), tuple(self.offset), self.rect)
        self._build(here)

    def _build(self, here: Place | None) -> None:
        for s in self.shapes:
            s.delete()
        b, fg, top = self.batch, self.fg_group, self.top_group
        out: list = []
        cells = {(p.col, p.row): p for p in self.places}
        for p in self.places:
            x, y = self.centre(p)
            parent = cells.get((p.parent_col, p.parent_row))
            if parent is not None:
                px, py = self.centre(parent)
                if self._inside(x, y) and self._inside(px, py):
                    out.append(
                        shapes.Line(px, py, x, y, thickness=2, color=EDGE, batch=b, group=self.bg_group)
                    )
            if not self._inside(x, y):
                continue
            if p.node.parent is None:
                out.append(shapes.Rectangle(x - 5, y - 5, 10, 10, color=EDGE, batch=b, group=fg))
                continue
            fill = (18, 18, 20, 255) if p.node.color == BLACK else (236, 234, 226, 255)
            out.append(shapes.Circle(x, y, RADIUS + 1, color=EDGE, batch=b, group=self.bg_group))  # its rim
            out.append(shapes.Circle(x, y, RADIUS, color=fill, batch=b, group=fg))
            if p.col % 10 == 0:
                lab = text_label(b, top, 7, NUMBER, text=str(p.col))
                lab.anchor_x, lab.anchor_y = "center", "bottom"
                lab.position = (x, y + RADIUS + 1, 0)
                out.append(lab)
        if here is not None and self._inside(*self.centre(here)):
            x, y = self.centre(here)
            out.append(shapes.Arc(x, y, RADIUS + 3, thickness=3, color=CURRENT, batch=b, group=top))
        self.shapes = out

    def draw(self) -> None:
        """Draw the box and the tree when shown."""
        if self.visible and self.places:
            self.batch.draw()
