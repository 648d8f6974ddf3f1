"""The game-info dialog (Ctrl+I, or a click on a player's name in the panel): what the record
says of its game (:class:`gorilla.app.record_info.RecordInfo`): in Go the players' names and
ranks, the event, the place, the date, the result, the komi and the rules (SGF PB, BR, PW, WR,
EV, PC, DT, RE, KM, RU); in Gomoku the names and the event. Drawn with the new-game dialog's
look.

Keys: Up/Down or Tab/Shift+Tab move between the rows, typing edits the focused row (the Rules
row: Left/Right choose), Backspace deletes, Enter keeps the rows (in the record, the autosave
and the next Ctrl+S; a wrong row: its one line in red and the dialog stays), Esc leaves them as
they were. A click on a row focuses it.
"""

from __future__ import annotations

from collections.abc import Callable

import pyglet
from pyglet.window import key

from gorilla.app.newgame import RULES
from gorilla.app.record_info import ROW_LABELS, RecordInfo
from gorilla.gui.modal import ENTER, HANDLED, Host, Modal
from gorilla.gui.newgame_dialog import ACCENT, DIM, ERROR, ROW_H, TEXT
from gorilla.gui.toolbar import centre_box, dialog_box, field_bar, text_label

WIDTH = 460
LABEL_W = 130
CHOICES = {"rules": RULES}  # rows chosen with Left/Right, not typed


class InfoDialog(Modal):
    """The record's rows; ``keep(info)`` on Enter returns None when the record took them, else
    the one line that says why not (see the module docstring)."""

    def __init__(self, window: Host, info: RecordInfo, keep: Callable[[RecordInfo], str | None]):
        super().__init__(window)
        self.info = info
        self.rows = info.rows
        self.values = info.values()
        self.keep = keep
        self.focus = 0
        self.error_text = ""
        self.batch = pyglet.graphics.Batch()
        bg, mid, fg = (pyglet.graphics.Group(order=i) for i in range(3))
        self.height = 60 + len(self.rows) * ROW_H + 60
        self.box = dialog_box(self.batch, bg, WIDTH, self.height)
        self.bar = field_bar(self.batch, mid, WIDTH - 20, ROW_H - 4)
        self.title = text_label(self.batch, fg, 15, TEXT, text="Game info", weight="bold")
        self.labels = [
            text_label(self.batch, fg, 11, DIM, text=ROW_LABELS.get(r, r), anchor_y="center")
            for r in self.rows
        ]
        self.texts = [text_label(self.batch, fg, 11, TEXT, anchor_y="center") for _ in self.rows]
        self.error = text_label(self.batch, fg, 10, ERROR, WIDTH - 40)
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
        for i in range(len(self.rows)):
            self.labels[i].position = (self.x + 20, self.row_y(i), 0)
            self.texts[i].position = (self.x + LABEL_W, self.row_y(i), 0)
        self.error.position = (self.x + 20, self.y + 54, 0)
        self.hint.position = (self.x + 20, self.y + 12, 0)
        self.refresh()

    def refresh(self) -> None:
        """The rows' text, the cursor on the focused one (a choice row: between its arrows)."""
        for i, lab in enumerate(self.texts):
            value = self.values[i]
            if self.rows[i] in CHOICES:
                shown = f"<  {value}  >" if i == self.focus else value
            else:
                shown = value + ("_" if i == self.focus else "")
            if lab.text != shown:
                lab.text = shown
        if self.error.text != self.error_text:
            self.error.text = self.error_text
        self.bar.position = (self.x + 10, self.row_y(self.focus) - (ROW_H - 4) // 2)

    def prompt_line(self) -> str | None:
        """No one-line prompt: the dialog shows its rows."""
        return None

    def _enter(self) -> None:
        """Keep the rows: the dialog closes, or stays with the record's one line why not."""
        problem = self.keep(self.info.with_values(self.values))
        if problem is None:
            self.close()
        else:
            self.error_text = problem

    def _choose(self, step: int) -> None:
        """Left/Right on a choice row: the next or previous choice."""
        choices = CHOICES.get(self.rows[self.focus])
        if choices:
            now = self.values[self.focus]
            i = choices.index(now) if now in choices else -step
            self.values[self.focus] = choices[(i + step) % len(choices)]

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        """Rows, Backspace, Enter keeps, Esc cancels."""
        if symbol in ENTER:
            self._enter()
        elif symbol == key.ESCAPE:
            self.close()
        elif symbol == key.UP or (symbol == key.TAB and modifiers & key.MOD_SHIFT):
            self.focus = (self.focus - 1) % len(self.rows)
        elif symbol in (key.DOWN, key.TAB):
            self.focus = (self.focus + 1) % len(self.rows)
        elif symbol in (key.LEFT, key.RIGHT):
            self._choose(1 if symbol == key.RIGHT else -1)
        elif symbol == key.BACKSPACE and self.rows[self.focus] not in CHOICES:
            self.values[self.focus] = self.values[self.focus][:-1]
        self.refresh()
        self.window.invalidate()
        return HANDLED

    def on_text(self, text: str) -> bool:
        """Typed text goes into the focused row (not into a choice row)."""
        if self.rows[self.focus] not in CHOICES:
            self.values[self.focus] += "".join(ch for ch in text if ch.isprintable() and ch not in "\r\n")
        self.refresh()
        self.window.invalidate()
        return HANDLED

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool:
        """A click on a row focuses it; the clicks stop here while the dialog is open."""
        for i in range(len(self.rows)):
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
