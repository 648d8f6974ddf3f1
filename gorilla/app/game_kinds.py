"""Which controller (Go or Gomoku) plays the game the new-game dialog or the command line asks for.

Go's :class:`gorilla.app.go.controller.Controller` or :class:`gorilla.app.gomoku.controller.
GomokuController`, chosen by the rule. When Gomoku's kernels are not in the on-disk cache,
they compile in a child process (:class:`gorilla.app.compiler.Compiler`) while the window
draws: from the dialog over the game on the board, from the command line over
:class:`GomokuLoading`, an empty board that shows the compile and takes no move.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from gorilla.ai import warmup
from gorilla.app.compiler import Compiler
from gorilla.app.feed import Feed
from gorilla.app.files import go_autosave_path, gomoku_autosave_path
from gorilla.app.go.controller import Controller
from gorilla.app.gomoku.controller import GomokuController
from gorilla.app.gomoku.players import builtin_agents
from gorilla.app.newgame import GOMOKU_PREFIX, NewGame, is_gomoku
from gorilla.app.parts import Shared
from gorilla.app.players import Players
from gorilla.app.table import NeutralTable
from gorilla.app.tasks import Workers
from gorilla.gomoku import sgf
from gorilla.gomoku.agents import engine_groups, ready_engine
from gorilla.gomoku.game import GomokuGame
from gorilla.rules.board import BLACK, EMPTY, WHITE
from gorilla.rules.coords import to_index
from gorilla.rules.game import Game

GOMOKU_RULES = "gomoku-basic"  # the kernels a Gomoku game needs before its first move


@dataclass
class GomokuStart(NewGame):
    """A Gomoku game asked for on the command line: the form's choices (``rules`` is
    'gomoku RULE'), continuous AI-vs-AI play, and a record to load once the engine is ready."""

    continuous: bool = False
    load: str | None = None
    autosave: str | None = None  # the game's autosave (None: none)


def gomoku_compiler(players: Iterable[str], running: Any = None) -> Compiler | None:
    """None when the kernels a Gomoku game between players (specs: 'human', 'pvs+vct:2',
    'pbrain:...') needs are in the on-disk cache; else a :class:`Compiler` that compiles them
    in a child process (the window keeps drawing) and then loads them here: running (the
    current game's compiler) when it covers them and has not failed, else a new one. Only the
    players' own parts: two humans wait for the rules alone (a third of the whole engine's
    time), and a later game with another agent compiles its parts then. The window starts the
    game once the rules are loaded (:func:`rules_ready`); an AI's first move waits for its own
    parts (:meth:`GomokuController.kernels_ready`)."""
    groups = engine_groups(builtin_agents(players))
    if all(warmup.is_warm(g) for g in groups):
        return None
    covered = getattr(running, "groups", None)  # a Go game's compiler covers no Gomoku part
    if covered is not None and running.error is None and all(g in covered for g in groups):
        return running
    return Compiler(groups, base=())  # not Go's rules: the child starts on Gomoku's parts at once


def rules_ready(compiler: Compiler) -> bool:
    """Whether a Gomoku game can start under compiler: its rules are loaded (a human may play;
    the agents' parts may still be compiling), or the compile has ended (with an error the
    window shows)."""
    return compiler.ready(GOMOKU_RULES) or compiler.wait(0)


class _EmptyPosition:
    """No stone anywhere (the stand-in's board): numbered as the rules number points."""

    ko = None

    def __init__(self, size: int) -> None:
        self.size = size

    def grid(self) -> np.ndarray:
        """(size, size) zeros."""
        return np.zeros((self.size, self.size), dtype=np.int8)

    def color_at(self, point: int) -> int:
        """Empty everywhere."""
        return EMPTY

    def points(self) -> list[int]:
        """Every point of the board."""
        return [to_index(x, y, self.size) for y in range(self.size) for x in range(self.size)]


@dataclass
class _Rules:
    name: str
    scoring: str = "five"


class EmptyBoard:
    """A :class:`gorilla.app.table.Board` with no stone and no move: what the stand-in shows."""

    komi = 0.0
    handicap = 0
    move_offset = 0
    to_move = BLACK
    move_number = 0
    last_move = None
    over = False
    end_reason = None
    result = None

    def __init__(self, size: int, rules: str) -> None:
        self.size = size
        self.position = _EmptyPosition(size)
        self.ruleset = _Rules(rules)
        self.moves: list[Any] = []
        self.dead: set[int] = set()

    def check(self, point: int, color: int | None = None) -> str | None:
        """No move before the game starts."""
        return "the game has not started"

    def captures(self, color: int) -> int:
        """Nothing captured."""
        return 0


WAIT = "The Gomoku game starts when its rules are ready"


class GomokuLoading(NeutralTable, Shared):
    """Stands in for a Gomoku game while its engine compiles: an empty board of the game's
    size, the compile's progress in the panel (its ``compiler``), no captures, no moves. The
    window starts the game (``gomoku_wait``: the compiler and the :class:`GomokuStart`) when
    the rules are loaded (:func:`rules_ready`) and hands it the compile, which goes on with the
    AIs' parts. Every request says that the game starts when its rules are ready."""

    LACKS = WAIT
    # before the game starts only New does anything: the other buttons are dimmed
    NO_COMMANDS = frozenset(
        {"pass", "resign", "undo", "evaluate", "toggle_thinking", "pause", "save", "load"}
    )

    def __init__(self, start: GomokuStart, compiler: Compiler) -> None:
        self.game = EmptyBoard(start.size, start.rules)
        self.compiler = compiler
        self.gomoku_wait = (compiler, start)
        self.start = start
        self.feed = Feed()
        self.workers = Workers()  # nothing runs before the game starts
        # nobody moves before the game starts
        self.seats = Players({BLACK: None, WHITE: None}, {BLACK: start.black, WHITE: start.white}, {})
        self.message = "Compiling the Gomoku engine: the game starts when its rules are ready"
        self.progress = self.evaluation = None
        self.show_eval = False
        self.continuous = start.continuous
        self.autosave = start.autosave  # handed to the game when it starts
        self.over = False

    def status_lines(self) -> list[str]:
        """The panel's text: the game that is coming, and the compile's progress."""
        n = self.start.size
        return [
            f"{n}x{n} {self.start.rules.capitalize()}: the game starts when its rules are ready",
            self.message,
        ]

    def new_game_choices(self) -> dict[str, Any]:
        """The form's rows: the game that is coming."""
        s = self.start
        return {
            "size": s.size,
            "rules": s.rules,
            "komi": "0",
            "handicap": 0,
            "black": s.black,
            "white": s.white,
            "clock": s.clock.spec(),
        }

    def kernels_ready(self, *groups: str) -> bool:
        """Only once the game has started (no hover stone before)."""
        return False

    def control_map(self) -> np.ndarray:
        """No threat on an empty board."""
        return np.zeros((self.game.size, self.game.size), dtype=np.float32)

    def poll(self) -> None:
        """Nothing to do: the window watches the compile."""

    def close(self) -> None:
        """Stop the compile, unless the game it waited for has taken it over (``compiler`` None)."""
        if self.compiler is not None:
            self.compiler.close()

    def _wait(self, *args: Any) -> bool:
        self.say(WAIT)
        return False

    click = pass_turn = two_more = resign = undo = redo = reset = advance = set_continuous = _wait
    evaluate = toggle_eval = toggle_control = toggle_thinking = toggle_pause = save = load = _wait
    new_game = _wait


def record_game(path: str) -> NewGame | None:
    """The game a record at path holds, read from its root alone (:func:`gorilla.gomoku.sgf.peek`):
    a :class:`GomokuStart` that loads it for SGF ``GM[4]`` (its ``SZ`` and ``RU``), a Go
    :class:`NewGame` for any other; both between two humans. None when the file cannot be read
    (the controller's load says why)."""
    root = sgf.peek(path)
    if root is None:
        return None
    if not root.gomoku:
        return NewGame(size=root.size or 19, black="human", white="human")
    rules = GOMOKU_PREFIX + root.rule
    return GomokuStart(size=root.size or 15, rules=rules, black="human", white="human", load=path)


def game_of(table: Any) -> str:
    """'gomoku' or 'go': the game a table (a controller or the stand-in) plays."""
    return "gomoku" if is_gomoku(str(table.new_game_choices().get("rules", ""))) else "go"


def controller_for(current: Any, ng: Any, compiler: Compiler | None = None) -> Any:
    """current when it plays ng's game (Go or Gomoku), else a new controller for it; the caller
    then calls its ``new_game(ng)`` (and a Gomoku controller's ``use_compiler(compiler)``). A Go
    controller compiles its kernels in a child process. A Gomoku one loads its players' parts
    first, or with compiler (:func:`gomoku_compiler`, its rules loaded) leaves them to it. A
    :class:`GomokuStart`'s continuous play is kept."""
    gomoku = ng.game == "gomoku"
    if isinstance(current, GomokuController if gomoku else Controller):
        return current
    autosave = current.autosave
    if autosave and gomoku and isinstance(current, Controller):
        autosave = gomoku_autosave_path(autosave)  # Go's autosave stays Go's
    elif autosave and not gomoku and not isinstance(current, Controller):
        autosave = go_autosave_path(autosave)
    if gomoku:
        if compiler is None:
            ready_engine(builtin_agents([ng.black, ng.white]))
        continuous = isinstance(ng, GomokuStart) and ng.continuous
        now = getattr(current, "now", None)  # the clocks read the window's time (tests inject it)
        return GomokuController(GomokuGame(ng.size), autosave=autosave, continuous=continuous, now=now)
    c = Controller(Game.new(ng.size, ng.rules, ng.komi), autosave=autosave)
    c.compiler = Compiler(c.groups_needed())
    return c


def start_game(current: Any, ng: Any, compiler: Compiler | None = None) -> tuple[Any, bool]:
    """Start ng's game from the window's current controller: (the controller that plays it,
    whether it started). A new controller replaces current, which is closed (its compiler is
    handed over, not stopped, when it is the one the new game uses); a Gomoku game takes
    compiler (from :func:`gomoku_compiler`, None when its parts are loaded), which goes on
    compiling its AIs' parts while a human plays. When the game does not start, current stays
    and its message says why."""
    c = controller_for(current, ng, compiler)
    ok = c.new_game(ng)
    if ok and ng.game == "gomoku":
        c.use_compiler(compiler)
    if c is current:
        return c, ok
    if not ok:
        current.message = c.message
        c.close()
        return current, False
    if current.compiler is compiler is not None:
        current.compiler = None  # handed over to the new game
    current.close()
    return c, True
