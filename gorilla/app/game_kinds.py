"""Which controller plays a new game: Go's :class:`gorilla.app.controller.Controller` or
:class:`gorilla.app.gomoku_controller.GomokuController`, chosen by the new-game form's rule."""

from __future__ import annotations

from typing import Any

from gorilla.ai import warmup
from gorilla.app.compiler import Compiler
from gorilla.app.controller import Controller
from gorilla.app.gomoku_controller import GomokuController
from gorilla.gomoku.agents import warm_up
from gorilla.gomoku.game import GomokuGame
from gorilla.rules.game import Game


def gomoku_compiler() -> Compiler | None:
    """None when Gomoku's kernels are in the on-disk cache; else a :class:`Compiler` that
    compiles them in a child process (the window keeps drawing) and then loads them here."""
    if warmup.is_warm("gomoku"):
        return None
    return Compiler(["gomoku"])


def controller_for(current: Any, ng: Any) -> Any:
    """current when it plays ng's game (Go or Gomoku), else a new controller for it; the caller
    then calls its ``new_game(ng)``. A Go controller compiles its kernels in a child process; a
    Gomoku one loads its engine first (the window waits for :func:`gomoku_compiler` when the
    cache is cold, so this only loads)."""
    gomoku = ng.game == "gomoku"
    if gomoku == isinstance(current, GomokuController):
        return current
    autosave = getattr(current, "autosave", None)
    if gomoku:
        warm_up()
        return GomokuController(GomokuGame(ng.size), autosave=autosave)
    c = Controller(Game.new(ng.size, ng.rules, ng.komi), autosave=autosave)
    c.compiler = Compiler(c.groups_needed())
    return c
