"""The panel's toolbar: New, Pass, Resign, Undo, Evaluate, Save, Load as ``pyglet.gui.PushButton``s.

The buttons' faces are flat rectangles made here (no image files);
their captions are labels drawn over them. The window routes mouse events over
the panel to :meth:`Toolbar.on_mouse_press` / ``on_mouse_release``; each button
calls its action when released over it. Every action also has a key.
"""

from __future__ import annotations

from collections.abc import Callable

import pyglet
from pyglet import shapes
from pyglet.gui import PushButton
from pyglet.text import Label

FONT = ["DejaVu Sans", "Arial", "Helvetica"]  # the panel's fonts, first found wins

BUTTON_H = 24
GAP = 6
PER_ROW = 4
FACES = {"up": (52, 60, 72, 255), "down": (88, 166, 255, 255), "hover": (70, 80, 96, 255)}
CAPTION = (226, 228, 232, 255)
CAPTION_OFF = (110, 116, 124, 255)  # the caption of a button the game does not offer
DIALOG_BG = (18, 21, 25, 255)  # a dialog's background: opaque, nothing of the board shows through
BAR = (44, 52, 64, 255)  # a dialog's focus bar or text field


def _face(width: int, height: int, rgba: tuple[int, int, int, int]) -> pyglet.image.ImageData:
    """A flat button face with a one-pixel lighter border."""
    pattern = pyglet.image.SolidColorImagePattern(rgba)
    img = pattern.create_image(width, height)
    data = bytearray(img.get_image_data().get_data("RGBA", width * 4))
    edge = bytes(min(255, c + 28) for c in rgba[:3]) + bytes([255])
    for x in range(width):
        for y in (0, height - 1):
            data[(y * width + x) * 4 : (y * width + x) * 4 + 4] = edge
    for y in range(height):
        for x in (0, width - 1):
            data[(y * width + x) * 4 : (y * width + x) * 4 + 4] = edge
    return pyglet.image.ImageData(width, height, "RGBA", bytes(data))


def text_label(
    batch: pyglet.graphics.Batch,
    group: pyglet.graphics.Group,
    size: int,
    color: tuple[int, int, int, int],
    width: int | None = None,
    text: str = "",
    font: list[str] = FONT,
    **kw: object,
) -> Label:
    """A label in the panel's style (HUD, toolbar, dialogs); with a width it wraps and hangs from its top."""
    if width is not None:
        kw.update(multiline=True, width=width, anchor_y="top")
    return Label(text, font_name=font, font_size=size, color=color, batch=batch, group=group, **kw)


ELLIPSIS = "\u2026"


def elide_middle(word: str, width: float, measure: Callable[[str], float]) -> str:
    """word cut in its middle with an ellipsis so that measure(result) <= width (a path keeps
    its start and, longer, its end: the file's name); a word that fits comes back whole."""
    if measure(word) <= width:
        return word
    lo, hi = 0, len(word) - 1  # the most characters kept that fit with the ellipsis
    while lo < hi:
        mid = (lo + hi + 1) // 2
        head = mid // 3
        lo, hi = (
            (mid, hi)
            if measure(word[:head] + ELLIPSIS + word[len(word) - (mid - head) :]) <= width
            else (lo, mid - 1)
        )
    head = lo // 3
    return word[:head] + ELLIPSIS + word[len(word) - (lo - head) :] if lo else ELLIPSIS


def fit_words(text: str, width: float, measure: Callable[[str], float]) -> str:
    """text whose every word fits a line width pixels wide (measure: a word's width), so that a
    wrapped label never runs past its width: a longer word (a path) is elided in its middle."""
    return "\n".join(
        " ".join(w if len(w) < 6 else elide_middle(w, width, measure) for w in line.split(" "))
        for line in text.split("\n")
    )


def measurer(label: Label) -> Callable[[str], float]:
    """A word's width in pixels in label's font (a label of its own, drawn nowhere)."""
    probe = Label("", font_name=label.font_name, font_size=label.font_size, weight=label.weight)

    def measure(word: str) -> float:
        probe.text = word
        return probe.content_width

    return measure


def set_fitted(label: Label, text: str) -> None:
    """Set a wrapped label's text with every word fitted to its width (:func:`fit_words`)."""
    fitted = fit_words(text, label.width, measurer(label)) if label.width else text
    if label.text != fitted:
        label.text = fitted


def dialog_box(
    batch: pyglet.graphics.Batch, group: pyglet.graphics.Group, width: int, height: int
) -> shapes.Rectangle:
    """A dialog's background (the new-game dialog, the file picker, the game-info dialog);
    :func:`centre_box` places it."""
    return shapes.Rectangle(0, 0, width, height, color=DIALOG_BG, batch=batch, group=group)


def field_bar(
    batch: pyglet.graphics.Batch, group: pyglet.graphics.Group, width: int, height: int
) -> shapes.Rectangle:
    """A dialog's focus bar or text field."""
    return shapes.Rectangle(0, 0, width, height, color=BAR, batch=batch, group=group)


def centre_box(box: shapes.Rectangle, view_width: int, height: int) -> tuple[int, int]:
    """Put box in the middle of the board view (view_width x height pixels), at least 10
    pixels from its lower left corner; returns its new (x, y)."""
    x = max(10, (view_width - int(box.width)) // 2)
    y = max(10, (height - int(box.height)) // 2)
    box.position = (x, y)
    return x, y


class Toolbar:
    """A grid of buttons in the panel; ``actions`` maps each caption to what it does."""

    def __init__(
        self, actions: dict[str, Callable[[], object]], width: int, font: list[str], per_row: int = PER_ROW
    ) -> None:
        self.batch = pyglet.graphics.Batch()
        self.actions = dict(actions)
        self.font = font
        self.per_row = per_row
        self.buttons: dict[str, PushButton] = {}
        self.captions: dict[str, Label] = {}
        self.pressed: list[str] = []  # captions whose action ran, oldest first (tests, logs)
        self._bg = pyglet.graphics.Group(order=0)
        self._fg = pyglet.graphics.Group(order=1)
        self.width = self.button_w = 0
        self.set_width(width)

    def set_width(self, width: int) -> None:
        """Make the buttons for a toolbar width pixels wide (the panel narrows in a small window);
        the same width keeps them."""
        if width == self.width:
            return
        self.width = width
        self.button_w = max(20, (width - GAP * (self.per_row - 1)) // self.per_row)
        faces = {k: _face(self.button_w, BUTTON_H, c) for k, c in FACES.items()}
        offered = {name: b.enabled for name, b in self.buttons.items()}
        for b in self.buttons.values():
            b._sprite.delete()  # a button's face stays in the batch until deleted
        for name in self.actions:
            b = PushButton(0, 0, faces["down"], faces["up"], faces["hover"], batch=self.batch, group=self._bg)
            b.enabled = offered.get(name, True)
            self.buttons[name] = b
            if name not in self.captions:
                self.captions[name] = text_label(
                    self.batch, self._fg, 9, CAPTION, text=name, font=self.font, anchor_x="left",
                    anchor_y="bottom",
                )  # fmt: skip
        self._fit_captions()

    def _fit_captions(self) -> None:
        """The captions' font: 9 points, smaller where the widest caption would not fit its button."""
        for size in (9, 8, 7):
            for cap in self.captions.values():
                cap.font_size = size
            if max(cap.content_width for cap in self.captions.values()) <= self.button_w - 6:
                return

    @property
    def height(self) -> int:
        """The toolbar's height in pixels."""
        rows = (len(self.buttons) + self.per_row - 1) // self.per_row
        return rows * BUTTON_H + (rows - 1) * GAP

    def offer(self, offered: dict[str, bool]) -> None:
        """Enable the buttons whose command the game has and dim the others (a dimmed button
        takes no click)."""
        for name, on in offered.items():
            b = self.buttons[name]
            if b.enabled != on:
                b.enabled = on
                self.captions[name].color = CAPTION if on else CAPTION_OFF

    def run(self, name: str) -> None:
        """Run a button's action (as a click on it does)."""
        self.pressed.append(name)
        self.actions[name]()

    def layout(self, x: int, top: int) -> None:
        """Place the grid with its top-left corner at (x, top)."""
        for i, name in enumerate(self.buttons):
            row, col = divmod(i, self.per_row)
            bx = x + col * (self.button_w + GAP)
            by = top - (row + 1) * BUTTON_H - row * GAP
            self.buttons[name].position = (bx, by)
            cap = self.captions[name]  # centred on whole pixels: a glyph at half a pixel loses its thin stems
            cx = bx + (self.button_w - cap.content_width) // 2
            cap.position = (int(cx), int(by + (BUTTON_H - cap.content_height) // 2), 0)

    def centre(self, name: str) -> tuple[int, int]:
        """The window pixel at the middle of a button (tests click there)."""
        b = self.buttons[name]
        return int(b.x + self.button_w / 2), int(b.y + BUTTON_H / 2)

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool:
        """Press the button under (x, y); True when there is one."""
        hit = False
        for b in self.buttons.values():
            if b._check_hit(x, y):
                b.on_mouse_press(x, y, button, modifiers)
                hit = True
        return hit

    def on_mouse_release(self, x: int, y: int, button: int, modifiers: int) -> None:
        """Release: the pressed button still under (x, y) runs its action."""
        for name, b in self.buttons.items():
            run = b.value and b._check_hit(x, y)
            b.on_mouse_release(x, y, button, modifiers)
            if run:
                self.run(name)

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        """Hover faces."""
        for b in self.buttons.values():
            b.on_mouse_motion(x, y, dx, dy)

    def draw(self) -> None:
        """Draw the buttons and their captions."""
        self.batch.draw()
