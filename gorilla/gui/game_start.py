"""A new game from the window: the New button and ``r``'s dialog opened with the game's last
choices, its Start (Go or Gomoku, as its Rules row says), and a Gomoku game that waits for
its rules to compile in a child process (from the command line or the dialog) while the
window shows the compile's progress.

A mixin of :class:`gorilla.gui.window.GorillaWindow`: a new game may swap the window's
``controller``; ``_gomoku_wait`` is the (Compiler, NewGame) waiting, or None.
"""

from __future__ import annotations

from gorilla.gui.modal import Confirm, DialogInput
from gorilla.gui.newgame_dialog import NewGameDialog


class GameStart:
    """Open the new-game dialog, start the game it asks for, wait for Gomoku's compile."""

    def new_game(self) -> None:
        """The New button: the new-game dialog (a resignation waiting for its confirmation is dropped)."""
        confirm = self._modal(Confirm)
        if confirm is not None:
            confirm.close()
        self.open_new_game()

    def open_new_game(self) -> NewGameDialog:
        """Open the new-game dialog for the game on the board: its game's last choices
        (remembered in the settings, Go's and Gomoku's apart), else the game's own."""
        from gorilla.app.game_kinds import game_of
        from gorilla.app.newgame import SETTINGS_KEY, form_for

        if self.dialog is None:
            s = self.settings
            remembered = {k: s.get(k) for k in SETTINGS_KEY.values()} if s is not None else {}
            form = form_for(game_of(self.controller), self.controller.new_game_choices(), remembered)
            m = self.open_modal(
                DialogInput(self, NewGameDialog(form, self._start_new_game, self._close_dialog))
            )
            m.layout(self.view_width, self.height)
        self._dirty = True
        return self.dialog

    def _start_new_game(self, ng, compiler=None) -> bool:
        from gorilla.app.game_kinds import gomoku_compiler, rules_ready, start_game

        if ng.game == "gomoku" and compiler is None:
            waiting = self._gomoku_wait[0] if self._gomoku_wait is not None else None
            compiler = gomoku_compiler([ng.black, ng.white], waiting or self.controller.compiler)
            if waiting is not None and waiting is not compiler:
                waiting.close()  # a game asked for before the last one started, with other players
            if compiler is not None and not rules_ready(compiler):
                # a cold cache: compile in a child; the game starts when its rules are loaded
                self._gomoku_wait = (compiler, ng)
                self.controller.say("Compiling the Gomoku engine: the game starts when its rules are ready")
                return True
        self._gomoku_wait = None
        if compiler is not None and compiler.error:
            self.controller.say(f"Gomoku: {compiler.error}")
            return False
        # Go or Gomoku, as the Rules row says; a Gomoku game's AIs may still be compiling
        self.controller, ok = start_game(self.controller, ng, compiler)
        if ok and self.settings is not None and self.dialog is not None:
            from gorilla.app.newgame import SETTINGS_KEY

            self.settings.set(SETTINGS_KEY[ng.game], self.dialog.form.remember())
        if not ok and self.dialog is not None:
            self.dialog.form.error = self.controller.message
        return ok

    def _wait_for_gomoku(self) -> None:
        """While Gomoku's rules compile for a new game: the compile's progress; then the game
        (its AIs' parts may still be compiling: the game's controller follows them)."""
        from gorilla.app.game_kinds import rules_ready

        compiler, ng = self._gomoku_wait
        if rules_ready(compiler):
            self._start_new_game(ng, compiler)
        else:
            status = compiler.status()
            if status and status != self.controller.message:
                self.controller.say(status)

    def _close_dialog(self) -> None:
        m = self._modal(DialogInput)
        if m is not None:
            m.close()
        self._dirty = True
