"""Modal input as pushed event handlers: the new-game dialog, the comment box and the
confirmations (resign, reset) (the file picker, :mod:`gorilla.gui.file_picker`, and the game-info
dialog, :mod:`gorilla.gui.info_dialog`, are modals of their own modules).

Each is pushed on the window's handler stack (``window.push_handlers``) when it opens and
removed when it closes; the events it handles stop there (pyglet's ``EVENT_HANDLED``), so the
window's own handlers never see them and hold no branch per modal state. A modal handles only
the events it defines: the comment box takes the keys and the typed text
but not the mouse; a confirmation takes the next key, and the clicks on its box.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import pyglet
from pyglet.window import key

from gorilla.gui.newgame_dialog import DIM, TEXT, NewGameDialog
from gorilla.gui.toolbar import FONT, Toolbar, centre_box, dialog_box, text_label

HANDLED = pyglet.event.EVENT_HANDLED
ENTER = (key.ENTER, key.RETURN, key.NUM_ENTER)
CONFIRM_W = 420  # a confirmation's box, at most (narrower in a narrow view)
COMMENT_TAIL = 160  # characters of the comment being typed that the one-line box shows (its end)


class Host(Protocol):
    """What a modal needs of the window."""

    def push_handlers(self, *args: object, **kwargs: object) -> None:
        """pyglet: put handlers on top of the stack."""
        ...

    def remove_handlers(self, *args: object, **kwargs: object) -> None:
        """pyglet: take handlers off the stack."""
        ...

    def modal_closed(self, modal: Modal) -> None:
        """The modal closed itself: forget it, redraw."""
        ...

    def invalidate(self) -> None:
        """Redraw at the next tick."""
        ...


class Modal:
    """One modal input on the window's handler stack (see the module docstring)."""

    def __init__(self, window: Host) -> None:
        self.window = window

    def close(self) -> None:
        """Take the handlers off the stack."""
        self.window.remove_handlers(self)
        self.window.modal_closed(self)

    def prompt_line(self) -> str | None:
        """The panel's one-line prompt while this modal is open (None: none)."""
        return None

    def layout(self, view_width: int, height: int) -> None:
        """Fit a new window size (the 3D view's width)."""

    def draw(self) -> None:
        """Draw over the frame (after the panel)."""


class TextField(Modal):
    """A line of text typed at the bottom of the view: printable text goes in, Backspace
    deletes, Enter submits, Esc escapes."""

    label = ""

    def __init__(self, window: Host, text: str) -> None:
        super().__init__(window)
        self.text = text

    def on_text(self, text: str) -> bool:
        """Typed text goes into the field."""
        self.text += "".join(ch for ch in text if ch.isprintable() and ch not in "\r\n")
        self.window.invalidate()
        return HANDLED

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        """Enter submits, Esc escapes, Backspace deletes; no other key is a command meanwhile."""
        if symbol in ENTER:
            self.enter(modifiers)
        elif symbol == key.ESCAPE:
            self.escape()
        elif symbol == key.BACKSPACE:
            self.text = self.text[:-1]
        self.window.invalidate()
        return HANDLED

    def enter(self, modifiers: int) -> None:
        """Enter: submit."""
        self.close()

    def escape(self) -> None:
        """Esc: leave."""
        self.close()

    def prompt_line(self) -> str:
        """The label and the text with a cursor."""
        return f"{self.label}{self.text}_"


class CommentBox(TextField):
    """Enter: the current move's comment; Shift+Enter a new line, Enter or Esc keeps the text."""

    def __init__(self, window: Host, text: str, keep: Callable[[str], object]) -> None:
        super().__init__(window, text)
        self.keep = keep

    def enter(self, modifiers: int) -> None:
        """Shift+Enter: a new line; Enter: done."""
        if modifiers & key.MOD_SHIFT:
            self.text += "\n"
        else:
            self.escape()

    def escape(self) -> None:
        """Keep the text as the move's comment."""
        self.close()
        self.keep(self.text)

    def prompt_line(self) -> str:
        """The comment's end on one line (new lines as arrows)."""
        shown = self.text[-COMMENT_TAIL:].replace("\n", " \u21b5 ")
        return ("Comment: " if len(self.text) <= COMMENT_TAIL else "Comment: ...") + shown + "_"


class Confirm(Modal):
    """A question the next key answers: y or Enter (or one of ``again``, the key that asked)
    confirms, any other key cancels; a small box over the board asks it, with Yes and No
    buttons (a click elsewhere goes on to the window: the Resign button again confirms)."""

    def __init__(
        self,
        window: Host,
        what: str,
        yes: Callable[[], object],
        no: Callable[[], object],
        question: str = "",
        again: tuple[int, ...] = (),
    ) -> None:
        super().__init__(window)
        self.what = what
        self.yes, self.no = yes, no
        self.question = question
        self.again = again
        self.batch = pyglet.graphics.Batch()
        bg, fg = pyglet.graphics.Group(order=0), pyglet.graphics.Group(order=1)
        self.width = CONFIRM_W
        self.box = dialog_box(self.batch, bg, self.width, 100)
        self.text = text_label(self.batch, fg, 11, TEXT, self.width - 40, question)
        self.hint = text_label(self.batch, fg, 9, DIM, text="y or Enter: yes    any other key: no")
        answers = {"Yes": lambda: self.answer(True), "No": lambda: self.answer(False)}
        self.buttons = Toolbar(answers, 160, FONT, 2)
        self.x = self.y = 0
        self.height = 100

    def answer(self, yes: bool) -> None:
        """Close, then run yes or no."""
        self.close()
        (self.yes if yes else self.no)()
        self.window.invalidate()

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        """y, Enter or the asking key again: yes; any other key: no."""
        self.answer(symbol in (key.Y, *ENTER, *self.again))
        return HANDLED

    def layout(self, view_width: int, height: int) -> None:
        """The box in the middle of the board view, as tall as the question needs."""
        self.width = max(160, min(CONFIRM_W, view_width - 20))
        self.box.width = self.width
        self.text.width = self.width - 40
        self.height = int(self.text.content_height) + 90
        self.box.height = self.height
        self.x, self.y = centre_box(self.box, view_width, height)
        self.text.position = (self.x + 20, self.y + self.height - 18, 0)
        self.hint.position = (self.x + 20, self.y + 14, 0)
        self.buttons.layout(self.x + self.width - 20 - 160, self.y + 62)

    def contains(self, x: int, y: int) -> bool:
        """Whether window pixel (x, y) is on the box."""
        return self.x <= x <= self.x + self.width and self.y <= y <= self.y + self.height

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool | None:
        """Yes or No pressed; a press elsewhere on the box stops there; off the box, it goes on."""
        if self.buttons.on_mouse_press(x, y, button, modifiers) or self.contains(x, y):
            return HANDLED
        return None

    def on_mouse_release(self, x: int, y: int, button: int, modifiers: int) -> bool | None:
        """A release over a pressed button answers; on the box it stops there."""
        if self.contains(x, y):
            self.buttons.on_mouse_release(x, y, button, modifiers)
            return HANDLED
        return None

    def draw(self) -> None:
        """The box, the question, the buttons."""
        self.batch.draw()
        self.buttons.draw()


class DialogInput(Modal):
    """The new-game dialog takes every key, every typed text and every click while it is open."""

    def __init__(self, window: Host, dialog: NewGameDialog) -> None:
        super().__init__(window)
        self.dialog = dialog

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        """The dialog's keys."""
        self.dialog.on_key_press(symbol, modifiers)
        self.window.invalidate()
        return HANDLED

    def on_text(self, text: str) -> bool:
        """Typed text edits the focused row."""
        self.dialog.on_text(text)
        self.window.invalidate()
        return HANDLED

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> bool:
        """Rows, arrows and buttons."""
        self.dialog.on_mouse_press(x, y, button, modifiers)
        self.window.invalidate()
        return HANDLED

    def on_mouse_release(self, x: int, y: int, button: int, modifiers: int) -> bool:
        """A release over a pressed button runs it."""
        self.dialog.on_mouse_release(x, y, button, modifiers)
        self.window.invalidate()
        return HANDLED

    def layout(self, view_width: int, height: int) -> None:
        """Centre the dialog in the view."""
        self.dialog.layout(view_width, height)

    def draw(self) -> None:
        """The dialog and its buttons."""
        self.dialog.draw()
