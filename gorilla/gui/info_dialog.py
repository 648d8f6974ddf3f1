"""The game-info dialog (Ctrl+I, or a click on a player's name in the panel): the record's
Black, White and event names (SGF PB, PW, EV), drawn with the new-game dialog's look.

Keys: Up/Down or Tab/Shift+Tab move between the rows, typing edits the focused row,
Backspace deletes, Enter keeps the names (in the record, the autosave and the next Ctrl+S),
Esc leaves them as they were. A click on a row focuses it.
"""

from __future__ import annotations

from collections.abc import Callable

import pyglet
from pyglet.window import key

from gorilla.gui.modal import ENTER, HANDLED, Host, Modal
from gorilla.gui.newgame_dialog import ACCENT, DIM, ROW_H, TEXT
from gorilla.gui.toolbar import centre_box, dialog_box, field_bar, text_label

WIDTH = 460
LABEL_W = 110
ROWS = ("Black", "White", "Event")


class InfoDialog(Modal):
    """Three text rows; ``keep(black, white, event)`` on Enter (see the module docstring)."""

    def __init__(self, window: Host, values: tuple[str, str, str], keep: Callable[[str, str, str], object]):
        super().__init__(window)
        self.values = list(values)
        self.keep = keep
        self.focus = 0
        self.batch = pyglet.graphics.Batch()
        bg, mid, fg = (pyglet.graphics.Group(order=i) for i in range(3))
        self.height = 60 + len(ROWS) * ROW_H + 30
        self.box = dialog_box(self.batch, bg, WIDTH, self.height)
        self.bar = field_bar(self.batch, mid, WIDTH - 20, ROW_H - 4)
        self.title = text_label(self.batch, fg, 15, TEXT, text="Game info", weight="bold")
        self.labels = [text_label(self.batch, fg, 11, DIM, text=r, anchor_y="center") for r in ROWS]
        self.texts = [text_label(self.batch, fg, 11, TEXT, anchor_y="center") for _ in ROWS]
        self.hint = text_label(self.batch, fg, 9, ACCENT, text="Tab: row   Enter: keep   Esc: cancel")
        self.x = self.y = 0
        self.refresh()

    def row_y(self, i: int) -> int:
        """The centre line of row i."""
        return self.y + self.height - 60 - i * ROW_H - ROW_H // 2

    def layout(self, view_width: int, height: int) -> None:
        """Centre the dialog in the board view."""
        self.x, self.y = centre_box(self.box, view_width, height)
        self.title.position = (self.x + 20, self.y + self.height - 32, 0)
        for i in range(len(ROWS)):
            self.labels[i].position = (self.x + 20, self.row_y(i), 0)
            self.texts[i].position = (self.x + LABEL_W, self.row_y(i), 0)
        self.hint.position = (self.x + 20, self.y + 12, 0)
        self.refresh()

    def refresh(self) -> None:
        """The rows' text, the cursor on the focused one."""
        for i, lab in enumerate(self.texts):
            shown = self.values[i] + ("_" if i == self.focus else "")
            if lab.text != shown:
                lab.text = shown
        self.bar.position = (self.x + 10, self.row_y(self.focus) - (ROW_H - 4) // 2)

    def prompt_line(self) -> str | None:
        """No one-line prompt: the dialog shows its rows."""
        return None

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        """Rows, Backspace, Enter keeps, Esc cancels."""
        if symbol in ENTER:
            self.close()
            self.keep(*self.values)
        elif symbol == key.ESCAPE:
            self.close()
        elif symbol == key.UP or (symbol == key.TAB and modifiers & key.MOD_SHIFT):
            self.focus = (self.focus - 1) % len(ROWS)
        elif symbol in (key.DOWN, key.TAB):
            self.focus = (self.focus + 1) % len(ROWS)
        elif symbol == key.BACKSPACE:
            self.values[self.focus] = self.values[self.focus][:-1]
        self.refresh()
        self.window.invalidate()
        return HANDLED

    def on_text(self, text: str) -> bool:
        """Typed text goes into the focused row."""
        self.values[self.focus] += "".join(ch for ch in text if ch.isprintable() and ch not in "\r\n")
        self.refresh()
        self.window.invalidate()
        return HANDLED

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool:
        """A click on a row focuses it; the clicks stop here while the dialog is open."""
        for i in range(len(ROWS)):
            if abs(y - self.row_y(i)) <= ROW_H // 2 and self.x <= x <= self.x + WIDTH:
                self.focus = i
        self.refresh()
        self.window.invalidate()
        return HANDLED

    def on_mouse_release(self, x: int, y: int, button: int, modifiers: int) -> bool:
        """Stops here (no move under the dialog)."""
        return HANDLED

    def draw(self) -> None:
        """The box, the rows, the hint."""
        self.batch.draw()
