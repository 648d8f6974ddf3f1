"""Which controller (Go or Gomoku) plays the game the new-game dialog or the command line asks for.

Go's :class:`gorilla.app.controller.Controller` or :class:`gorilla.app.gomoku_controller.
GomokuController`, chosen by the rule. When Gomoku's kernels are not in the on-disk cache,
they compile in a child process (:class:`gorilla.app.compiler.Compiler`) while the window
draws: from the dialog over the game on the board, from the command line over
:class:`GomokuLoading`, an empty board that shows the compile and takes no move.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gorilla.ai import warmup
from gorilla.app.compiler import Compiler
from gorilla.app.controller import Controller
from gorilla.app.gomoku_controller import GomokuController
from gorilla.app.newgame import NewGame
from gorilla.gomoku.agents import warm_up
from gorilla.gomoku.game import GomokuGame
from gorilla.rules.game import Game


@dataclass
class GomokuStart(NewGame):
    """A Gomoku game asked for on the command line: the form's choices (``rules`` is
    'gomoku RULE'), continuous AI-vs-AI play, and a record to load once the engine is ready."""

    continuous: bool = False
    load: str | None = None


def gomoku_compiler() -> Compiler | None:
    """None when Gomoku's kernels are in the on-disk cache; else a :class:`Compiler` that
    compiles them in a child process (the window keeps drawing) and then loads them here."""
    if warmup.is_warm("gomoku"):
        return None
    return Compiler(["gomoku"])


class GomokuLoading(Controller):
    """Stands in for a Gomoku game while its engine compiles: an empty board of the game's
    size, the compile's progress in the panel (its ``compiler``), no captures, no moves. The
    window starts the game (``gomoku_wait``: the compiler and the :class:`GomokuStart`) when
    the compile is done."""

    shows_captures = False

    def __init__(self, start: GomokuStart, compiler: Compiler) -> None:
        super().__init__(Game.new(start.size, "chinese", 0.0))
        self.compiler = compiler
        self.gomoku_wait = (compiler, start)
        self.start = start
        self.players = {1: start.black, 2: start.white}
        self.message = "Compiling the Gomoku engine: the game starts when it is ready"

    def status_lines(self) -> list[str]:
        """The panel's text: the game that is coming, and the compile's progress."""
        n = self.start.size
        return [
            f"{n}x{n} {self.start.rules.capitalize()}: the game starts when the engine is ready",
            self.message,
        ]

    def click(self, point: int) -> bool:
        """No move before the Gomoku game starts: says so."""
        self.say("The Gomoku game starts when its engine is ready")
        return False

    def pass_turn(self) -> bool:
        """No pass in Gomoku: says so."""
        return self.click(0)


def controller_for(current: Any, ng: Any) -> Any:
    """current when it plays ng's game (Go or Gomoku), else a new controller for it; the caller
    then calls its ``new_game(ng)``. A Go controller compiles its kernels in a child process; a
    Gomoku one loads its engine first (the window waits for :func:`gomoku_compiler` when the
    cache is cold, so this only loads). A :class:`GomokuStart`'s continuous play is kept."""
    gomoku = ng.game == "gomoku"
    if gomoku == isinstance(current, GomokuController):
        return current
    autosave = getattr(current, "autosave", None)
    if gomoku:
        warm_up()
        continuous = bool(getattr(ng, "continuous", False))
        return GomokuController(GomokuGame(ng.size), autosave=autosave, continuous=continuous)
    c = Controller(Game.new(ng.size, ng.rules, ng.komi), autosave=autosave)
    c.compiler = Compiler(c.groups_needed())
    return c
