"""The text drawn over the board: which labels a frame shows and where (the overlays' numbers
fitted to their discs, the teaching view's, the numbers of the line under the pointer, the
move numbers, the record's markup, the variations' letters), at what size (from the grid's
spacing on screen), and the pool of pyglet labels that shows them.

``LabelPool`` is the HUD's (drawn with the panel, under it); ``BoardLabels`` is a mixin of
:class:`gorilla.gui.window.GorillaWindow` that projects the labels through its camera.
"""

from __future__ import annotations

import pyglet
from pyglet.text import Label

from gorilla.gui.meshes import STONE_HALF_HEIGHT
from gorilla.gui.overlay import BoardLabel, label_font_size
from gorilla.gui.toolbar import FONT
from gorilla.rules.coords import to_index, to_xy

LABEL_MIN, LABEL_MAX = 6, 11  # a number on a disc of the board: its font's sizes
LABEL_FILL = 0.88  # of the disc's width (and height) its number may take
DIGIT_HEIGHT = 0.97  # pixels a point of a bold digit is high (96 dpi)
MARK_GLYPHS = {"TR": "\u25b3", "SQ": "\u25a1", "CR": "\u25cb", "MA": "\u00d7"}  # SGF markup as drawn
MARK_INK = (200, 20, 20, 255)  # markup on an empty point: red against the wood and its lines
MARK_SIZE = 14  # points
VARIATION_INK = (30, 90, 230, 255)  # the letters of the variations' next moves
LAST_NUMBER_INK = (235, 40, 30, 255)  # the last move's number (it stands for the ring): red on either stone


class LabelPool:
    """The labels over the board, one pyglet Label per item shown (kept and reused, the
    others hidden), and the measure that fits a number to its disc."""

    def __init__(self) -> None:
        self.batch = pyglet.graphics.Batch()
        self.labels: list[Label] = []
        self._probe = Label("", font_name=FONT, font_size=10, weight="bold")  # measures board labels
        self._label_widths: dict[str, float] = {}

    def fit(
        self, texts: tuple[str, ...], rx: float, ry: float, least: int = LABEL_MIN
    ) -> tuple[str, int] | None:
        """The first of texts that fits an ellipse rx x ry pixels (half-axes) at a readable
        size, and its font size (the largest up to LABEL_MAX); None when none fits at least."""
        for text in texts:
            w10 = self._label_widths.get(text)
            if w10 is None:  # the width at 10 points; it grows with the size
                self._probe.text = text
                w10 = self._label_widths[text] = max(1.0, self._probe.content_width)
            size = min(
                LABEL_MAX, int(10 * 2 * rx * LABEL_FILL / w10), int(2 * ry * LABEL_FILL / DIGIT_HEIGHT)
            )
            if size >= least:
                return text, size
        return None

    def show(self, items: list[tuple]) -> None:
        """Show one label per (x, y, text), (x, y, text, rgba) or (x, y, text, rgba, font size),
        centred on window pixel (x, y); hide the others."""
        while len(self.labels) < len(items):
            self.labels.append(
                Label(
                    "",
                    font_name=FONT,
                    font_size=9,
                    weight="bold",
                    color=(255, 255, 255, 255),
                    anchor_x="center",
                    anchor_y="center",
                    batch=self.batch,
                )
            )
        for lab, (x, y, text, *rest) in zip(self.labels, items, strict=False):
            lab.position = (round(x), round(y), 0)  # whole pixels: at half a pixel thin stems fade
            if lab.text != text:
                lab.text = text
            size = rest[1] if len(rest) > 1 else 9
            if lab.font_size != size:
                lab.font_size = size
            color = rest[0] if rest else (255, 255, 255, 255)
            if tuple(lab.color) != tuple(color):
                lab.color = color
            lab.visible = True
        for lab in self.labels[len(items) :]:
            lab.visible = False

    def draw(self) -> None:
        """Draw the labels shown."""
        self.batch.draw()


class BoardLabels:
    """The window's labels over the board for one frame (``_label_items``) and the move
    numbers shown on the stones (off, the last 10, all: ``move_numbers``)."""

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
        fits = [self.hud.labels.fit(lab.texts, *room) for lab, room in zip(labels, rooms, strict=True)]
        short = max((lab.texts.index(f[0]) for lab, f in zip(labels, fits, strict=True) if f), default=0)
        fits = [
            self.hud.labels.fit(lab.texts[min(short, len(lab.texts) - 1) :], *room, LABEL_MIN - lab.best)
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
