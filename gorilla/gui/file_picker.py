"""The file picker (Ctrl+O opens a game, Ctrl+S saves it), drawn in pyglet with the new-game
dialog's look over :class:`gorilla.app.file_browser.FileBrowser`; a modal pushed handler
(:mod:`gorilla.gui.modal`).

Keys: Up/Down (Page Up/Down, Home/End) choose a row, Enter opens a folder or picks the file
(a typed name or path first, when there is one), typing goes into the name, Backspace
deletes from it or, when it is empty, goes up a folder, Esc cancels. Mouse: a click selects
a row, a double click (or the Open/Save button) takes it, the wheel scrolls the list.
No other toolkit: pyglet has no file dialog, and a second GUI toolkit's window would fight
pyglet's event loop.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pyglet
from pyglet.window import key

from gorilla.app.file_browser import FileBrowser
from gorilla.gui.modal import ENTER, HANDLED, Host, Modal
from gorilla.gui.newgame_dialog import DIM, ERROR, TEXT
from gorilla.gui.toolbar import FONT, Toolbar, centre_box, dialog_box, field_bar, text_label

WIDTH = 560
ROW = 22
VISIBLE = 12  # rows of the listing shown at once
DOUBLE_CLICK = 0.4  # seconds
RECENT_INK = (160, 200, 255, 255)


class FilePicker(Modal):
    """The picker; ``done(path)`` gets the chosen file (see the module docstring)."""

    def __init__(self, window: Host, browser: FileBrowser, done: Callable[[str], object]) -> None:
        super().__init__(window)
        self.browser = browser
        self.done = done
        self.top = 0  # the first row shown
        self._last_click: tuple[int, float] | None = None
        self.batch = pyglet.graphics.Batch()
        bg, mid, fg = (pyglet.graphics.Group(order=i) for i in range(3))
        self.height = 86 + 30 + VISIBLE * ROW + 84
        self.box = dialog_box(self.batch, bg, WIDTH, self.height)
        self.field = field_bar(self.batch, mid, WIDTH - 40, 24)
        self.bar = field_bar(self.batch, mid, WIDTH - 40, ROW - 2)
        what = "Open a game (SGF)" if browser.mode == "open" else "Save the game (SGF)"
        self.title = text_label(self.batch, fg, 15, TEXT, text=what, weight="bold")
        self.folder = text_label(self.batch, fg, 10, DIM)
        self.name = text_label(self.batch, fg, 11, TEXT, anchor_y="center")
        self.rows = [text_label(self.batch, fg, 11, TEXT, anchor_y="center") for _ in range(VISIBLE)]
        self.error = text_label(self.batch, fg, 10, ERROR, anchor_y="center")
        hint = "Up/Down: choose   Enter: open   Backspace: up a folder   type: a name or path   Esc: cancel"
        self.hint = text_label(self.batch, fg, 8, DIM, text=hint)
        verb = "Open" if browser.mode == "open" else "Save"
        self.buttons = Toolbar({verb: self.activate, "Cancel": self.close}, 206, FONT, per_row=2)
        self.x = self.y = 0
        self.refresh()

    # --- layout ---------------------------------------------------------------------------------
    def row_y(self, i: int) -> int:
        """The centre line of shown row i (0: the top one)."""
        return self.y + self.height - 116 - i * ROW - ROW // 2

    def layout(self, view_width: int, height: int) -> None:
        """Centre the picker in the board view."""
        self.x, self.y = centre_box(self.box, view_width, height)
        top = self.y + self.height
        self.title.position = (self.x + 20, top - 32, 0)
        self.folder.position = (self.x + 20, top - 54, 0)
        self.field.position = (self.x + 20, top - 90)
        self.name.position = (self.x + 28, top - 78, 0)
        for i, lab in enumerate(self.rows):
            lab.position = (self.x + 28, self.row_y(i), 0)
        self.error.position = (self.x + 20, self.y + 66, 0)
        self.hint.position = (self.x + 20, self.y + 12, 0)
        self.buttons.layout(self.x + WIDTH - 20 - 206, self.y + 50)
        self.refresh()

    def refresh(self) -> None:
        """Show the browser's folder, name, rows, selection and error."""
        b = self.browser
        folder = b.folder if len(b.folder) <= 70 else "\u2026" + b.folder[-69:]
        self._text(self.folder, folder)
        self._text(self.name, ("Name: " if b.mode == "save" else "Go to: ") + b.name + "_")
        self.top = min(max(self.top, b.index - VISIBLE + 1), b.index)
        self.top = max(0, min(self.top, max(0, len(b.entries) - VISIBLE)))
        for i, lab in enumerate(self.rows):
            k = self.top + i
            entry = b.entries[k] if k < len(b.entries) else None
            self._text(lab, "" if entry is None else entry.label)
            ink = RECENT_INK if entry is not None and entry.kind == "recent" else TEXT
            if tuple(lab.color) != ink:
                lab.color = ink
        shown = self.top <= b.index < self.top + VISIBLE and b.entries
        self.bar.visible = bool(shown)
        self.bar.position = (self.x + 20, self.row_y(b.index - self.top) - (ROW - 2) // 2)
        self._text(self.error, b.error)

    @staticmethod
    def _text(label, text: str) -> None:
        if label.text != text:
            label.text = text

    # --- actions ----------------------------------------------------------------------------------
    def activate(self) -> None:
        """Enter, a double click, the Open/Save button: a folder opens, a file is taken."""
        path = self.browser.activate()
        if path is not None:
            self.close()
            self.done(path)
        else:
            self.refresh()
        self.window.invalidate()

    def prompt_line(self) -> str | None:
        """No one-line prompt: the picker shows its own field."""
        return None

    # --- input ------------------------------------------------------------------------------------
    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        """The picker's keys (module docstring)."""
        b = self.browser
        steps = {key.UP: -1, key.DOWN: 1, key.PAGEUP: -VISIBLE, key.PAGEDOWN: VISIBLE}
        if symbol in ENTER:
            self.activate()
            return HANDLED
        if symbol == key.ESCAPE:
            self.close()
        elif symbol in steps:
            b.move(steps[symbol])
        elif symbol == key.HOME:
            b.move(-len(b.entries))
        elif symbol == key.END:
            b.move(len(b.entries))
        elif symbol == key.BACKSPACE:
            b.backspace()
        self.refresh()
        self.window.invalidate()
        return HANDLED

    def on_text(self, text: str) -> bool:
        """Typed text goes into the name."""
        self.browser.type_text(text)
        self.refresh()
        self.window.invalidate()
        return HANDLED

    def row_at(self, x: float, y: float) -> int | None:
        """The listing's index under window pixel (x, y), or None."""
        if not self.x + 20 <= x <= self.x + WIDTH - 20:
            return None
        for i in range(VISIBLE):
            if abs(y - self.row_y(i)) <= ROW // 2 and self.top + i < len(self.browser.entries):
                return self.top + i
        return None

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool:
        """A button; a row: select it, a second click on it soon after takes it."""
        if self.buttons.on_mouse_press(x, y, button, modifiers):
            return HANDLED
        k = self.row_at(x, y)
        if k is not None:
            now = time.monotonic()
            double = (
                self._last_click is not None
                and self._last_click[0] == k
                and now - self._last_click[1] < DOUBLE_CLICK
            )
            self.browser.index = k
            self._last_click = None if double else (k, now)
            if double:
                self.activate()
                return HANDLED
        self.refresh()
        self.window.invalidate()
        return HANDLED

    def on_mouse_release(self, x: int, y: int, button: int, modifiers: int) -> bool:
        """A release over a pressed button runs it."""
        self.buttons.on_mouse_release(x, y, button, modifiers)
        self.window.invalidate()
        return HANDLED

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> bool:
        """The wheel scrolls the listing three rows a notch (the selection stays in view)."""
        b = self.browser
        self.top = max(0, min(self.top - round(scroll_y) * 3, max(0, len(b.entries) - VISIBLE)))
        b.index = min(max(b.index, self.top), self.top + VISIBLE - 1, max(0, len(b.entries) - 1))
        self.refresh()
        self.window.invalidate()
        return HANDLED

    def draw(self) -> None:
        """The box, the rows, the buttons."""
        self.batch.draw()
        self.buttons.draw()
