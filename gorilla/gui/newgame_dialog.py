"""The new-game dialog (Ctrl+N, the New button): draws a :class:`gorilla.app.newgame.NewGameForm`.

pyglet.gui has push buttons, toggles, sliders and text entries but no drop-down,
no spinner and no keyboard focus, and this form is mostly "one of N" choices
driven from the keyboard. So the rows are drawn here (labels and shapes: a
label, ``<  value  >``) over the headless form, and Start / Cancel are
``pyglet.gui.PushButton``s (the toolbar's). Keys: Up/Down or Tab/Shift+Tab move
between rows, Left/Right change the choice (on a text row they pick a preset),
typing edits a text row (komi, clock, engine commands) or types the board size (digits, then
Tab, Enter or another row), Enter starts, Esc cancels.
"""

from __future__ import annotations

from collections.abc import Callable

import pyglet
from pyglet.text import Label
from pyglet.window import key

from gorilla.app.newgame import FormError, NewGame, NewGameForm
from gorilla.gui.toolbar import FONT, Toolbar, centre_box, dialog_box, field_bar, text_label

ROW_H = 30
WIDTH = 560
LABEL_W = 190
ARROW_W = 28
TEXT = (226, 228, 232, 255)
DIM = (150, 156, 164, 255)
ACCENT = (88, 166, 255, 255)
ERROR = (255, 120, 100, 255)


class NewGameDialog:
    """The dialog's drawing and input; ``on_start(NewGame)`` returns whether the game started."""

    def __init__(
        self,
        form: NewGameForm,
        on_start: Callable[[NewGame], bool],
        on_close: Callable[[], None],
    ) -> None:
        self.form = form
        self.on_start = on_start
        self.on_close = on_close
        self.batch = pyglet.graphics.Batch()
        bg = pyglet.graphics.Group(order=0)
        mid = pyglet.graphics.Group(order=1)
        fg = pyglet.graphics.Group(order=2)
        n = len(form.fields)
        self.height = 70 + n * ROW_H + 30 + 40
        self.box = dialog_box(self.batch, bg, WIDTH, self.height)
        self.focus_bar = field_bar(self.batch, mid, WIDTH - 20, ROW_H - 4)
        self.title = Label(
            "New game", font_name=FONT, font_size=15, weight="bold", color=TEXT, batch=self.batch, group=fg
        )
        self.labels: list[Label] = []
        self.values: list[Label] = []
        self.arrows: list[tuple[Label, Label]] = []
        for f in form.fields:
            self.labels.append(text_label(self.batch, fg, 11, DIM, text=f.label, anchor_y="center"))
            self.values.append(text_label(self.batch, fg, 11, TEXT, anchor_y="center"))
            left, right = (
                text_label(self.batch, fg, 12, ACCENT, text=t, anchor_x="center", anchor_y="center")
                for t in "<>"
            )
            self.arrows.append((left, right))
        self.error = Label(
            "", font_name=FONT, font_size=10, color=ERROR, anchor_y="center", batch=self.batch, group=fg
        )
        self.hint = Label(
            "Up/Down: row   Left/Right: choose   type: edit   Enter: start   Esc: cancel",
            font_name=FONT, font_size=9, color=DIM, anchor_y="center", batch=self.batch, group=fg,
        )  # fmt: skip
        self.buttons = Toolbar({"Start": self.start, "Cancel": self.cancel}, 206, FONT, per_row=2)
        self.x = self.y = 0
        self.refresh()

    # --- layout and text -------------------------------------------------------------------
    def layout(self, view_width: int, height: int) -> None:
        """Centre the dialog in the board view (view_width x height pixels)."""
        self.x, self.y = centre_box(self.box, view_width, height)
        top = self.y + self.height
        self.title.position = (self.x + 20, top - 34, 0)
        for i in range(len(self.form.fields)):
            cy = self.row_y(i)
            self.labels[i].position = (self.x + 20, cy, 0)
            left, right = self.arrows[i]
            left.position = (self.x + LABEL_W + ARROW_W // 2, cy, 0)
            self.values[i].position = (self.x + LABEL_W + ARROW_W + 6, cy, 0)
            right.position = (self.x + WIDTH - 20 - ARROW_W // 2, cy, 0)
        self.error.position = (self.x + 20, self.y + 62, 0)
        self.hint.position = (self.x + 20, self.y + 14, 0)
        self.buttons.layout(self.x + WIDTH - 20 - 206, self.y + 48)
        self.refresh()

    def row_y(self, i: int) -> int:
        """The centre line of row i."""
        return self.y + self.height - 70 - i * ROW_H - ROW_H // 2

    def refresh(self) -> None:
        """Show the form's values, its focus and its error."""
        form = self.form
        for i, f in enumerate(form.fields):
            shown = form.row_text(i)
            if self.values[i].text != shown:
                self.values[i].text = shown
            for a in self.arrows[i]:
                a.visible = bool(f.choices)
        self.focus_bar.position = (self.x + 10, self.row_y(form.focus) - (ROW_H - 4) // 2)
        self.error.text = form.error

    # --- actions -------------------------------------------------------------------------------
    def start(self) -> None:
        """Check the form and start the game; a bad row shows its one-line error."""
        try:
            ng = self.form.result()
        except FormError as e:
            self.form.error = str(e)
            self.refresh()
            return
        self.form.error = ""
        if self.on_start(ng):
            self.on_close()
        else:
            self.refresh()

    def cancel(self) -> None:
        """Close without changing the game."""
        self.on_close()

    # --- input ---------------------------------------------------------------------------------
    def on_key_press(self, symbol: int, modifiers: int) -> None:
        """The dialog's keys (module docstring)."""
        form = self.form
        if symbol == key.ESCAPE:
            self.cancel()
            return
        if symbol in (key.ENTER, key.RETURN, key.NUM_ENTER):
            self.start()
            return
        if symbol == key.UP or (symbol == key.TAB and modifiers & key.MOD_SHIFT):
            form.move_focus(-1)
        elif symbol in (key.DOWN, key.TAB):
            form.move_focus(1)
        elif symbol == key.LEFT:
            form.cycle(-1)
        elif symbol == key.RIGHT:
            form.cycle(1)
        elif symbol == key.BACKSPACE:
            form.backspace()
        self.refresh()

    def on_text(self, text: str) -> None:
        """Typed text edits the focused text row."""
        self.form.type_text(text)
        self.refresh()

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        """A click on a row focuses it; on its arrows, changes the choice; on a button, presses it."""
        if self.buttons.on_mouse_press(x, y, button, modifiers):
            return
        for i in range(len(self.form.fields)):
            if abs(y - self.row_y(i)) <= ROW_H // 2 and self.x <= x <= self.x + WIDTH:
                self.form.focus = i
                if self.x + LABEL_W <= x < self.x + LABEL_W + ARROW_W:
                    self.form.cycle(-1)
                elif x >= self.x + WIDTH - 20 - ARROW_W:
                    self.form.cycle(1)
                self.refresh()
                return

    def on_mouse_release(self, x: int, y: int, button: int, modifiers: int) -> None:
        """Release over a pressed button runs it."""
        self.buttons.on_mouse_release(x, y, button, modifiers)

    def draw(self) -> None:
        """Draw the dialog and its buttons."""
        self.batch.draw()
        self.buttons.draw()
