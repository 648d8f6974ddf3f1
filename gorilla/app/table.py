"""The written interface between the window (and the panel's text) and a game: :class:`Table`.

Everything ``gorilla/gui/`` and :mod:`gorilla.app.status_text` read of a game or ask of it is
here, for Go (:class:`gorilla.app.go.controller.Controller`), Gomoku
(:class:`gorilla.app.gomoku.controller.GomokuController`) and the stand-in shown while
Gomoku's engine compiles (:class:`gorilla.app.game_kinds.GomokuLoading`). The window reads
nothing else: no ``getattr``/``hasattr`` on the game, no private names.

A game that lacks something gives a neutral answer: no captures in Gomoku
(``shows_captures`` False), no record tree (``tree`` None), no Go review for the graph to read
(``review`` None), no clock (``clock_views()`` None). :class:`NeutralTable` gives every such
answer; a game derives from it and overrides what it has (the parts both games share,
:class:`gorilla.app.facade.Facade`, answer the rest). ``tests/test_table.py`` checks that
every kind of game satisfies the protocol.

Points are numbered as the rules number them (:mod:`gorilla.rules.coords`: ``to_index`` and
``to_xy``); the window turns them into grid places with those functions only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Protocol, runtime_checkable

import numpy as np

from gorilla.app.record_info import RecordInfo
from gorilla.rules.coords import GOMOKU_LETTERS


class BoardPosition(Protocol):
    """The stones on the board as the window draws them."""

    ko: int | None

    def grid(self) -> np.ndarray:
        """(size, size) colours, row 0 the top row."""
        ...

    def color_at(self, point: int) -> int:
        """EMPTY, BLACK or WHITE at a point."""
        ...

    def points(self) -> Iterable[int]:
        """Every point of the board."""
        ...


class Board(Protocol):
    """The game on show: the part of :class:`gorilla.rules.game.Game` the window and panel read."""

    size: int
    komi: float
    handicap: int
    move_offset: int
    dead: set[int]
    ruleset: Any  # .name, .scoring
    position: BoardPosition
    to_move: int
    moves: list[Any]  # .color, .point
    move_number: int
    last_move: Any
    over: bool
    end_reason: str | None
    result: str | None

    def check(self, point: int, color: int | None = None) -> str | None:
        """None when the side to move (or color) may play point, else why not."""
        ...

    def captures(self, color: int) -> int:
        """Stones color has captured."""
        ...


@runtime_checkable
class Table(Protocol):
    """Everything the window and the panel may read or ask of any game (Go or Gomoku)."""

    # --- what is shown -------------------------------------------------------------------------
    game: Board
    version: int  # bumps on every visible change
    message: str
    players: dict[int, str]  # colour -> the player's label
    progress: Any  # the AI's search (candidates, best move, win rate) or None
    eval_progress: Any  # the evaluator's progress or None
    # ``e``: .evaluation.values / .best / .pvs (move -> its line), .points_lost, .unit ("points",
    # "win rate"); or None
    evaluation: Any
    show_control: bool
    show_eval: bool
    show_thinking: bool
    show_ownership: bool
    show_policy: bool
    continuous: bool
    shows_captures: bool  # False: the panel shows no capture counts (Gomoku)
    column_letters: str  # the columns' letters on the board and in move names (Gomoku's include I)
    compiler: Any  # the kernels compiling in a child process (.compiling, .fraction, .status()) or None
    review: Any  # whole-game analysis (gorilla.app.go.reviewer.Review) or None
    tree: Any  # the record as a tree (gorilla.rules.gametree.GameTree) or None
    comment: str  # the current move's comment
    autosave: str | None
    # (Compiler, GomokuStart): a Gomoku game the window starts when its rules are loaded, or None
    gomoku_wait: Any

    @property
    def over(self) -> bool:
        """Whether the game has ended (by the rules, on time, by resignation...)."""
        ...

    @property
    def thinking(self) -> bool:
        """Whether an AI searches its move now."""
        ...

    @property
    def evaluating(self) -> bool:
        """Whether the evaluator (``e``) runs."""
        ...

    @property
    def ai_vs_ai(self) -> bool:
        """Whether AIs play both colours."""
        ...

    @property
    def editing(self) -> bool:
        """Whether the set-up mode is on."""
        ...

    def is_human(self, color: int) -> bool:
        """Whether a human plays color."""
        ...

    @property
    def acting(self) -> int:
        """The seat whose player acts now (the panel highlights its row): the side to move, but
        in a Gomoku Swap2 opening the player who puts the opening's stones or chooses."""
        ...

    def kernels_ready(self, *groups: str) -> bool:
        """Whether the kernel groups can run now (the rules: the hover stone's legality)."""
        ...

    def offers(self, command: str) -> bool:
        """Whether the game has the command (a name in :data:`gorilla.app.commands.COMMANDS`):
        the window dims the toolbar buttons of those it has not (a Gomoku game's Pass)."""
        ...

    def forbidden_points(self) -> list[int]:
        """The empty points the side to move may not play by the rules, marked on the board
        (renju: Black's forbidden points while Black is to move; none in Go)."""
        ...

    def winning_line(self) -> list[int]:
        """The stones that won the game, marked on the board (Gomoku's five; none in Go)."""
        ...

    def clock_views(self) -> Any:
        """colour -> the clock as shown (.text(), .flagged, .to_lose, .overtime, .seconds), or None."""
        ...

    def status_lines(self) -> list[str]:
        """The panel's text (the terminal's status too)."""
        ...

    def new_game_choices(self) -> dict[str, Any]:
        """The new-game form's rows for the game on the board (size, rules, komi, players, clock)."""
        ...

    def control_map(self) -> np.ndarray:
        """``c``: the control map (Go) or threat map (Gomoku), per point."""
        ...

    def ownership_map(self) -> np.ndarray:
        """``o``: who owns each point at the end, -1..1."""
        ...

    def policy_map(self) -> dict[int, float]:
        """``f``: point -> the move model's probability."""
        ...

    def names(self) -> RecordInfo | None:
        """The record's player and event names (PB, PW, EV: what Ctrl+I edits and the panel
        shows), or None for a game that keeps none (``set_game_info`` says so)."""
        ...

    def analysis_graph(self) -> Any:
        """The whole-game analysis graph's values when the game's analysis is no ``review``
        (Gomoku's: :class:`gorilla.app.gomoku.reviewer.Curve`), else None."""
        ...

    def analysis_dots(self) -> list[tuple[int, float]]:
        """When the game's analysis is no ``review`` (Gomoku's): (point, win rate lost) of each
        analysed stone shown, while its dots are on (``d``); else []."""
        ...

    def analysis_best(self) -> int | None:
        """When the game's analysis is no ``review``: its best move in the position shown,
        while its dots are on; else None."""
        ...

    def teaching_marks(self) -> Any:
        """The teaching game's marks at the position on the board (:class:`gorilla.app.go.teaching.Marks`:
        ``dots``, (point, class) of the judged stones of the last moves, and ``ghost``, the move
        taken back here with its loss and refutation), or None (no teaching game)."""
        ...

    def ponder_view(self) -> Any:
        """The analysis of the position on the board while ``v`` is on
        (:class:`gorilla.app.go.ponder.PonderView`: candidates with visits, win rate, score lead and
        line), or None."""
        ...

    def game_report(self) -> Any:
        """The game report of the line on the board (:class:`gorilla.app.go.report.GameReport`),
        or None while no move of it is analysed (or the game has no report)."""
        ...

    # --- the frame loop ----------------------------------------------------------------------------
    def poll(self) -> None:
        """Apply finished background work; start the AI when it has the move."""
        ...

    def drain_events(self) -> list[tuple[str, dict]]:
        """The events (sounds) since the last call."""
        ...

    def say(self, text: str) -> None:
        """Show text as the panel's message."""
        ...

    def close(self) -> None:
        """Stop every background task."""
        ...

    # --- requests ------------------------------------------------------------------------------------
    click: Callable[[int], Any]
    setup_click: Callable[[int, int], Any]
    goto_move: Callable[[int], Any]
    pass_turn: Callable[[], Any]
    two_more: Callable[[], Any]  # Gomoku's Swap2: the chooser puts two more stones
    resign: Callable[[], Any]
    undo: Callable[[], Any]
    redo: Callable[[], Any]
    reset: Callable[[], Any]
    new_game: Callable[[Any], bool]
    advance: Callable[[], Any]
    set_continuous: Callable[[bool], Any]
    evaluate: Callable[[], Any]
    toggle_eval: Callable[[], Any]
    toggle_control: Callable[[], Any]
    toggle_thinking: Callable[[], Any]
    toggle_policy: Callable[[], Any]
    toggle_ownership: Callable[[], Any]
    toggle_pause: Callable[[], Any]
    go_back: Callable[[int], Any]
    go_forward: Callable[[int], Any]
    go_start: Callable[[], Any]
    go_end: Callable[[], Any]
    switch_variation: Callable[[int], Any]
    promote_variation: Callable[[], Any]
    delete_branch: Callable[[], Any]
    set_comment: Callable[[str], Any]
    toggle_setup: Callable[[], Any]
    setup_side_to_move: Callable[[], Any]
    toggle_analysis: Callable[[], Any]
    next_mistake: Callable[[int], Any]
    cycle_mistake_threshold: Callable[[], Any]
    toggle_mistake_dots: Callable[[], Any]
    save: Callable[[str], Any]
    load: Callable[[str], Any]
    set_game_info: Callable[[str, str, str], Any]  # the record's names: Black, White, the event
    set_record_info: Callable[[RecordInfo], Any]  # Ctrl+I's rows (names() as edited) into the record
    go_to_node: Callable[[Any], Any]  # a node of ``tree`` (the tree view's click)


# what a game without Go's record, analysis and estimates answers: it says so and changes nothing
LACKING: dict[str, str] = {
    "go_back": "moving through the record",
    "go_forward": "moving through the record",
    "go_start": "moving through the record",
    "go_end": "moving through the record",
    "goto_move": "moving through the record",
    "go_to_node": "moving through the record",
    "set_game_info": "the record's names",
    "switch_variation": "variations",
    "promote_variation": "variations",
    "delete_branch": "variations",
    "set_comment": "comments",
    "toggle_setup": "the set-up mode",
    "setup_click": "the set-up mode",
    "setup_side_to_move": "the set-up mode",
    "toggle_analysis": "whole-game analysis",
    "next_mistake": "whole-game analysis",
    "cycle_mistake_threshold": "whole-game analysis",
    "toggle_mistake_dots": "whole-game analysis",
    "toggle_ownership": "the ownership estimate",
    "toggle_policy": "the move model's heat map",
}


class NeutralTable:
    """The neutral answers of :class:`Table` for a game that lacks Go's tree, set-up mode and
    estimates (Gomoku; the stand-in lacks everything): each request in :data:`LACKING` it does
    not override says so and changes nothing."""

    LACKS = "Go only: {what} is not there for Gomoku yet"  # the message for a request it lacks
    NO_COMMANDS: frozenset[str] = frozenset()  # commands the game has not (dimmed buttons)

    shows_captures = False
    column_letters = GOMOKU_LETTERS  # the tables without Go's parts are Gomoku's
    compiler: Any = None
    review: Any = None
    tree: Any = None
    comment = ""
    gomoku_wait: Any = None
    eval_progress: Any = None
    show_ownership = False
    show_policy = False
    clock: Any = None
    ended: str | None = None
    editing = False
    reviewing = False

    def _lacks(self, what: str) -> bool:
        self.say(self.LACKS.format(what=what))  # type: ignore[attr-defined]
        return False

    def clock_views(self) -> None:
        """No clock."""
        return None

    def kernels_ready(self, *groups: str) -> bool:
        """The kernels are compiled before the game is made: always ready."""
        return True

    def offers(self, command: str) -> bool:
        """Whether the game has the command (not one of its NO_COMMANDS, nor Go's report)."""
        return command not in self.NO_COMMANDS and command != "report"

    def ownership_map(self) -> np.ndarray:
        """No ownership estimate: nobody owns anything."""
        return np.zeros(0, dtype=np.float32)

    def policy_map(self) -> dict[int, float]:
        """No move model: no move is likelier than another."""
        return {}

    def names(self) -> RecordInfo | None:
        """No record: no names."""
        return None

    def set_record_info(self, info: RecordInfo) -> Any:
        """Ctrl+I's rows: a game that keeps only the names and the event takes those."""
        return self.set_game_info(info.black, info.white, info.event)  # type: ignore[attr-defined]

    def analysis_graph(self) -> Any:
        """No whole-game analysis graph."""
        return None

    def analysis_dots(self) -> list[tuple[int, float]]:
        """No whole-game analysis: no dots."""
        return []

    def analysis_best(self) -> int | None:
        """No whole-game analysis: no best move."""
        return None

    def teaching_marks(self) -> None:
        """No teaching game."""
        return None

    def ponder_view(self) -> None:
        """No analysis of the position shown (only the AI's search while it thinks)."""
        return None

    def game_report(self) -> Any:
        """No game report."""
        return None


def _lacking(name: str, what: str) -> Callable[..., bool]:
    def method(self: NeutralTable, *args: Any, **kwargs: Any) -> bool:
        return self._lacks(what)

    method.__name__ = name
    method.__doc__ = f"Not in this game ({what}): says so, changes nothing."
    return method


for _name, _what in LACKING.items():
    setattr(NeutralTable, _name, _lacking(_name, _what))
