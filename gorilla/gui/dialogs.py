"""The window's modal inputs: the stack of open ones (each pushed on the window's handler
stack, pyglet's ``push_handlers``, so that it takes the events until it closes), the
questions about them the tests and the frame loop ask (which dialog, prompt, comment or
confirmation is open), and the dialogs the window opens: the comment box, the game's
information, the game report and the confirmations of a resignation and of a reset.

A mixin of :class:`gorilla.gui.window.GorillaWindow`; a modal input calls back the window's
``modal_closed`` and ``invalidate``.
"""

from __future__ import annotations

from typing import TypeVar

from pyglet.window import key

from gorilla.gui.file_picker import FilePicker
from gorilla.gui.info_dialog import InfoDialog
from gorilla.gui.modal import CommentBox, Confirm, DialogInput, Modal
from gorilla.gui.newgame_dialog import NewGameDialog
from gorilla.gui.report_dialog import ReportDialog

M = TypeVar("M", bound="Modal")


class Dialogs:
    """``modals``: the open modal inputs, the newest last (the window sets it up)."""

    def open_modal(self, modal: Modal) -> Modal:
        """Put a modal input on the handler stack: its events stop there until it closes."""
        self.push_handlers(modal)
        self.modals.append(modal)
        self._dirty = True
        return modal

    def modal_closed(self, modal: Modal) -> None:
        """A modal input took itself off the stack."""
        if modal in self.modals:
            self.modals.remove(modal)
        self._dirty = True

    def _modal(self, kind: type[M]) -> M | None:
        return next((m for m in reversed(self.modals) if isinstance(m, kind)), None)

    @property
    def dialog(self) -> NewGameDialog | None:
        """The new-game dialog while it is open."""
        m = self._modal(DialogInput)
        return None if m is None else m.dialog

    @property
    def picker(self) -> FilePicker | None:
        """The file picker (Ctrl+O, Ctrl+S) while it is open."""
        return self._modal(FilePicker)

    @property
    def prompt(self) -> str | None:
        """The name (or path) typed into the file picker while it is open."""
        m = self._modal(FilePicker)
        return None if m is None else m.browser.name

    @property
    def comment(self) -> str | None:
        """The comment being typed while the box is open."""
        m = self._modal(CommentBox)
        return None if m is None else m.text

    @property
    def confirm(self) -> str | None:
        """What waits for its confirmation ('resign'), or None."""
        m = self._modal(Confirm)
        return None if m is None else m.what

    def edit_comment(self) -> None:
        """Enter: the comment box takes the keys (Enter keeps the text, Shift+Enter a new line,
        Esc leaves keeping it too)."""
        self.open_modal(
            CommentBox(self, self.controller.comment, lambda text: self.controller.set_comment(text))
        )

    def edit_game_info(self) -> None:
        """Ctrl+I (or a click on a name in the panel): what the record says of its game (the
        names, ranks, event, place, date, result, komi and rules; Gomoku's: names and event)."""
        c = self.controller
        info = c.names()
        if info is None:
            c.set_game_info("", "", "")  # a game that keeps no names says so
            return

        def keep(edited) -> str | None:
            table = self.controller
            return None if table.set_record_info(edited) is not False else table.message

        m = self.open_modal(InfoDialog(self, info, keep))
        m.layout(self.view_width, self.height)

    def show_report(self) -> None:
        """F3 (or the Report button): the game report of the line on the board, once analysed."""
        c = self.controller
        report = c.game_report()
        if report is None:
            c.say(
                "No game report yet: g analyses the game"
                if c.review is not None
                else "The game report: Go only"
            )
            return
        info = c.names()
        names = (info.black, info.white) if info is not None else ("", "")
        m = self.open_modal(ReportDialog(self, report, names))
        m.layout(self.view_width, self.height)

    def ask_resign(self) -> None:
        """Resign, after a confirmation: Resign again, y or Enter confirms; any other key cancels."""
        c = self.controller
        pending = self._modal(Confirm)
        if pending is not None and pending.what == "resign":
            pending.close()
            c.resign()
            return
        if c.over or not c.is_human(c.acting):
            c.say("Only the human to move can resign")
            return
        side = "Black" if c.acting == 1 else "White"
        self._ask(
            Confirm(self, "resign", lambda: self.controller.resign(), lambda: self.controller.say(
                "Resignation cancelled"), f"Resign as {side}? The Resign button again: yes")
        )  # fmt: skip

    def ask_reset(self) -> None:
        """``r``: a new game like this one; a game with moves asks first (r again, y or Enter
        confirms, any other key keeps the game), and undo brings the old game back after."""
        c = self.controller
        moves = len(c.game.moves) + (len(c.tree.continuation()) if c.tree is not None else 0)
        if not moves and not (c.tree is not None and c.tree.root.children):
            c.reset()
            return
        back = "u brings it back" if c.tree is not None else "Ctrl+S saves it first"
        question = f"Start a new game like this one? This game ({moves} moves) goes; {back}. r again: yes"
        self._ask(
            Confirm(self, "reset", lambda: self.controller.reset(), lambda: self.controller.say(
                "Reset cancelled: the game stays"), question, (key.R,))
        )  # fmt: skip

    def _ask(self, confirm: Confirm) -> None:
        """Open a confirmation in the middle of the board view."""
        self.open_modal(confirm)
        confirm.layout(self.view_width, self.height)
