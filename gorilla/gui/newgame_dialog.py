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
    """The dialog's drawing and input; ``on_start(NewGame)`` returns whether the game started.
    It shows the form's rows for the game chosen (they change with the Rules row and the
    choices: the dialog grows or shrinks and stays centred) and its error wrapped inside,
    above the buttons."""

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
        self.box = dialog_box(self.batch, bg, WIDTH, 100)
        self.focus_bar = field_bar(self.batch, mid, WIDTH - 20, ROW_H - 4)
        self.title = Label(
            "New game", font_name=FONT, font_size=15, weight="bold", color=TEXT, batch=self.batch, group=fg
        )
        self.labels: dict[str, Label] = {}
        self.values: dict[str, Label] = {}
        self.arrows: dict[str, tuple[Label, Label]] = {}
        for f in form.all_fields:
            self.labels[f.key] = text_label(self.batch, fg, 11, DIM, text=f.label, anchor_y="center")
            self.values[f.key] = text_label(self.batch, fg, 11, TEXT, anchor_y="center")
            left, right = (
                text_label(self.batch, fg, 12, ACCENT, text=t, anchor_x="center", anchor_y="center")
                for t in "<>"
            )
            self.arrows[f.key] = (left, right)
        self.error = text_label(self.batch, fg, 10, ERROR, WIDTH - 40)
        self.hint = Label(
            "Up/Down: row   Left/Right: choose   type: edit   Enter: start   Esc: cancel",
            font_name=FONT, font_size=9, color=DIM, anchor_y="center", batch=self.batch, group=fg,
        )  # fmt: skip
        self.buttons = Toolbar({"Start": self.start, "Cancel": self.cancel}, 206, FONT, per_row=2)
        self.x = self.y = 0
        self.shown: list[str] = []  # the keys of the rows laid out
        self.error_h = 0  # the error's lines (wrapped), between the rows and the buttons
        self._view = (WIDTH + 20, 600)
        self.refresh()

    @property
    def height(self) -> int:
        """The dialog's height for the rows shown and the error's lines."""
        return 70 + len(self.shown) * ROW_H + 14 + self.error_h + 56

    # --- layout and text -------------------------------------------------------------------
    def layout(self, view_width: int, height: int) -> None:
        """Centre the dialog in the board view (view_width x height pixels), the rows shown."""
        self._view = (view_width, height)
        self.shown = [f.key for f in self.form.fields]
        self.error.text = self.form.error
        self.error_h = int(self.error.content_height) + 6 if self.form.error else 0
        self.box.height = self.height
        self.x, self.y = centre_box(self.box, view_width, height)
        top = self.y + self.height
        self.title.position = (self.x + 20, top - 34, 0)
        for row in self.labels:
            on = row in self.shown
            for lab in (self.labels[row], self.values[row], *self.arrows[row]):
                lab.visible = on
        for i, row in enumerate(self.shown):
            cy = self.row_y(i)
            self.labels[row].position = (self.x + 20, cy, 0)
            left, right = self.arrows[row]
            left.position = (self.x + LABEL_W + ARROW_W // 2, cy, 0)
            self.values[row].position = (self.x + LABEL_W + ARROW_W + 6, cy, 0)
            right.position = (self.x + WIDTH - 20 - ARROW_W // 2, cy, 0)
        self.error.position = (self.x + 20, self.y + 56 + self.error_h, 0)
        self.hint.position = (self.x + 20, self.y + 14, 0)
        self.buttons.layout(self.x + WIDTH - 20 - 206, self.y + 48)
        self.refresh()

    def row_y(self, i: int) -> int:
        """The centre line of shown row i."""
        return self.y + self.height - 70 - i * ROW_H - ROW_H // 2

    def refresh(self) -> None:
        """Show the form's values, its focus and its error (other rows: laid out again)."""
        form = self.form
        fields = form.fields
        if [f.key for f in fields] != self.shown or self.error.text != form.error:
            self.layout(*self._view)
            return
        for i, f in enumerate(fields):
            shown = form.row_text(i)
            if self.values[f.key].text != shown:
                self.values[f.key].text = shown
            for a in self.arrows[f.key]:
                a.visible = bool(f.choices)
        self.focus_bar.position = (self.x + 10, self.row_y(form.focus) - (ROW_H - 4) // 2)

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
        for i in range(len(self.shown)):
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
