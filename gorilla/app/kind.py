"""What a game brings to the parts both games share: :class:`GameKind`, the written interface.

The app's parts (:mod:`gorilla.app.record`, :mod:`gorilla.app.moves`,
:mod:`gorilla.app.ai_turn`, :mod:`gorilla.app.referee` over :mod:`gorilla.app.clocks`,
:mod:`gorilla.app.record_files`, :mod:`gorilla.app.move_values`, :mod:`gorilla.app.analysis`)
are one set for Go and Gomoku. Each asks the game's *kind* for what only the game knows, in
five groups, as sgfmill's ``sgf_board_interface`` writes down what a board must answer:

- **its rules and position**: the game on the board (a :class:`PlayedGame`, in the window's
  numbering of points), the new game a form or a reset asks for;
- **its agents** and the kernel groups they compile (:mod:`gorilla.ai.warmup`), how one
  searches a move on a worker thread, which failures forfeit;
- **its record codec**: the record kept beside the moves (a :class:`Book`: Go's game tree,
  Gomoku's names and comments), read from and written to a file (Go's SGF, Gomoku's SGF
  ``GM[4]`` and Piskvork's ``.psq``) and to the autosave;
- **how a move is valued** for ``e`` (a :class:`Valuer`) and for the review of the whole
  game (a :class:`Reviewer`);
- **its opening protocol** (an :class:`Opening`: none in Go, :class:`FreeOpening`; Gomoku's
  Swap2), which can name who acts, which stones stay and what a stone or an AI's answer does.

Go's kind is :class:`gorilla.app.go.kind.GoKind`, Gomoku's
:class:`gorilla.app.gomoku.kind.GomokuKind`. What one game has and the other lacks entirely
(Go's variations, set-up mode, handicap stones and dead stones; Gomoku's threat map and renju's
forbidden points) is no part of this interface: it lives in that game's own parts.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from gorilla.ai.agent import Progress
    from gorilla.app.clocks import Clocks
    from gorilla.app.players import Players
    from gorilla.app.record_info import RecordInfo
    from gorilla.app.tasks import Task
    from gorilla.rules.sgf import Timing

Job = Callable[[threading.Event], Any]  # a computation for a worker thread, told to stop by its Event


class PlayedGame(Protocol):
    """The game on the board as the shared parts play it: Go's :class:`gorilla.rules.game.Game`,
    Gomoku's :class:`gorilla.app.gomoku.view.GomokuView`. Points are numbered as the window
    numbers them (:mod:`gorilla.rules.coords`); ``PASS`` and ``RESIGN`` are
    :mod:`gorilla.rules.board`'s."""

    size: int
    moves: list[Any]  # the moves on the board, oldest first: .point, .color, .captures
    redo_stack: list[Any]  # the moves taken back that redo plays again, the next one last
    info: Any  # .extra_result: a result the moves do not give (a loss on time, a forfeit)
    resigned: int  # the colour that resigned (0: none)
    to_move: int  # the colour that plays the next stone
    move_number: int  # how many moves are on the board
    over: bool  # whether the rules (or a resignation) ended the game
    result: str | None  # the SGF result ('B+R', 'W+T', 'B+3.5', '0') once the game is over

    def check(self, point: int, color: int | None = None) -> str | None:
        """None when the side to move (or color) may play point now, else why not (one word or line)."""
        ...

    def play(self, point: int, color: int | None = None) -> int:
        """Play point (or PASS, RESIGN) for color (default the side to move); the stones it
        captured. Raises ValueError (the rules' one line), changing nothing, when it is not legal.
        Clears the redo list."""
        ...

    def undo(self) -> bool:
        """Take back the last move onto the redo list; False when there is none."""
        ...

    def redo(self) -> bool:
        """Play the last move taken back again; False when there is none."""
        ...

    def copy(self) -> PlayedGame:
        """An independent copy (a worker thread searches it while the game goes on)."""
        ...


class Book(Protocol):
    """What a record keeps beside the moves, and the line the game on the board follows in it:
    Go's game tree (:class:`gorilla.app.go.tree_book.TreeBook`: variations, comments, names,
    markup), Gomoku's record (:class:`gorilla.app.gomoku.record.GomokuBook`: names, comments,
    marks, a ``.psq``'s times; one line, the moves taken back on the game's redo list).
    :class:`gorilla.app.record.Record` walks the line through it."""

    LINE: str  # the line in words ('this line', 'the game'): 'At the end of this line'

    def sync(self, game: PlayedGame) -> None:
        """After any change of game (a move, undo, redo): the book follows its moves."""
        ...

    def span(self, game: PlayedGame) -> tuple[int, int] | str:
        """(the first, the last) move number of the line that going back and forth may show
        (an opening's stones stay), or why the line cannot be walked now."""
        ...

    def goto(self, game: PlayedGame, number: int) -> None:
        """Make game show the position after move number of its line (the later moves on its
        redo list)."""
        ...

    def reviewing(self, game: PlayedGame) -> bool:
        """After going to another move: whether the AI waits (Go's tree: at any node until a
        move or space; Gomoku's line: until its last move)."""
        ...

    def arrived(self, game: PlayedGame) -> str:
        """The panel's line after going to another move ('' for none)."""
        ...

    def play_on(self, game: PlayedGame) -> bool:
        """Space while reviewing: True when the game goes on from the position shown and the
        later moves go (Gomoku's one line; they are dropped here), False when the book keeps
        them (Go's tree: the next move makes a variation)."""
        ...

    def comment(self, game: PlayedGame) -> str:
        """The comment on game's last move (on the empty board: the game's)."""
        ...

    def set_comment(self, game: PlayedGame, text: str) -> bool:
        """text as that comment; False when nothing changed."""
        ...

    def info(self) -> RecordInfo:
        """What the record says of its game (the players' names, the event, ...)."""
        ...

    def set_names(self, game: PlayedGame, black: str, white: str, event: str) -> None:
        """The players' and the event's names in the record (an empty one removed)."""
        ...


class RecordPart(Protocol):
    """What a kind's codec and reviewer read of the record part
    (:class:`gorilla.app.record.Record`): the game on the board and its book."""

    game: Any  # a PlayedGame
    book: Any  # a Book


@dataclass
class Loaded:
    """A record read from a file: the game on the board and its book, the clock's times, and an
    end the moves do not show that the record gives ('time', 'forfeit', 'resign'; None where
    the game's own result says it: Go's)."""

    game: Any  # a PlayedGame
    book: Any  # a Book
    timing: Timing | None = None
    ended: str | None = None


class Opening(Protocol):
    """An opening protocol: stones and choices before the game proper, by the players it names
    (Gomoku's Swap2, :class:`gorilla.app.gomoku.swap2.Swap2`). While it goes on the parts ask
    it who acts, which stones stay, and hand it a human's stone and the AI's answer."""

    def active(self) -> bool:
        """Whether the opening goes on."""
        ...

    def actor(self) -> int:
        """The seat (colour of the player's row) whose player acts now."""
        ...

    def undo_floor(self) -> int:
        """The stones undo leaves on the board (the opening's, or its phase's first)."""
        ...

    def stays(self) -> str:
        """What undo says when it would take an opening's stone: why it does not."""
        ...

    def stone(self, point: int, seat: int) -> int | None:
        """While it goes on, a human's stone at point (legal): the opening plays it (it may make
        a choice first) and returns the seat whose turn it was when that turn goes on (its clock
        is pressed when the turn ends), or None when it was the game's own move."""
        ...

    def job(self, agent: Any, seat: int, clocks: Clocks) -> Job:
        """While it goes on: the AI at seat answers the opening on a worker thread."""
        ...

    def answer(self, task: Task) -> None:
        """The AI's answer (a task of :meth:`job`), taken on the GUI thread while still current."""
        ...


class FreeOpening:
    """The opening of a game without one (Go, a free Gomoku game): the side to move acts and no
    stone stays. ``game()`` is the game on the board."""

    def __init__(self, game: Callable[[], PlayedGame]) -> None:
        self.game = game

    def active(self) -> bool:
        """Never: there is no opening."""
        return False

    def actor(self) -> int:
        """The side to move."""
        return self.game().to_move

    def undo_floor(self) -> int:
        """Undo may take every move back."""
        return 0

    def stays(self) -> str:
        """Never said: no stone stays."""
        return "Nothing to undo"

    def stone(self, point: int, seat: int) -> None:
        """No opening takes a stone."""
        return None

    def job(self, agent: Any, seat: int, clocks: Clocks) -> Job:
        """No opening asks an AI."""
        raise RuntimeError("no opening to answer")

    def answer(self, task: Task) -> None:
        """No opening's answer comes."""


class Valuer(Protocol):
    """How a game values every move of a position for ``e`` (Go's evaluator,
    :class:`gorilla.app.go.values.GoValuer`; Gomoku's search,
    :class:`gorilla.app.gomoku.values.GomokuValuer`), for the shared
    :class:`gorilla.app.move_values.MoveValues`."""

    def groups(self, game: PlayedGame) -> tuple[str, ...]:
        """The kernel groups the valuation of game needs loaded before it starts."""
        ...

    def job(self, game: PlayedGame, progress: Callable[[Any], None]) -> tuple[Job, str]:
        """The valuation of game (copied now) for a worker thread, its result an
        :class:`gorilla.app.move_values.EvaluationView`, and the panel's line while it runs."""
        ...

    def done(self, view: Any, game: PlayedGame) -> str:
        """The panel's line once the valuation is in (the best move named on game's board)."""
        ...


class Reviewer(Protocol):
    """How a game reviews its record (``g``, ``n``, ``d``), for the shared
    :class:`gorilla.app.analysis.Analysis`: Go's net or MCTS over every position
    (:class:`gorilla.app.go.reviewer.GoReviewer`), Gomoku's PVS
    (:class:`gorilla.app.gomoku.reviewer.GomokuReview`). It keeps the results."""

    show_dots: bool  # d: the dots on the analysed stones
    version: int  # bumps when results or progress arrive (the window redraws)

    @property
    def running(self) -> bool:
        """Whether an analysis runs."""
        ...

    def refuses(self, record: RecordPart) -> str | None:
        """Why the record cannot be analysed now, or None."""
        ...

    def groups(self, record: RecordPart) -> tuple[str, ...]:
        """The kernel groups the analysis needs loaded before it starts."""
        ...

    def begin(self, record: RecordPart) -> str:
        """Analyse the record's line in the background; the panel's line."""
        ...

    def stop(self) -> str:
        """Stop the analysis (the results so far stay); the panel's line."""
        ...

    def poll(self) -> str | None:
        """On the GUI thread: the panel's line when an analysis has just ended, else None."""
        ...

    def mistake(self, record: RecordPart, step: int) -> tuple[int, str] | str:
        """The next (step 1) or previous (-1) analysed move from the one shown that lost the
        threshold or more: (its number, the panel's line about it), or why there is none."""
        ...

    def next_threshold(self) -> str:
        """The next threshold from which a move is a mistake; the panel's line."""
        ...

    def close(self) -> None:
        """Stop the analysis for good (the controller closes)."""
        ...


class GameKind(Protocol):
    """What a game brings to the shared parts (see the module docstring): Go's
    :class:`gorilla.app.go.kind.GoKind`, Gomoku's :class:`gorilla.app.gomoku.kind.GomokuKind`."""

    name: str  # 'go' or 'gomoku': the new-game form's game
    column_letters: str  # the board's column letters (Go's skip I)

    # --- its rules and position -------------------------------------------------------------------
    def new_game(self, choices: Any) -> PlayedGame:
        """The game a new-game form's choices (:class:`gorilla.app.newgame.NewGame`) ask for;
        ValueError (one line) when they make none."""
        ...

    def point_name(self, game: PlayedGame, point: int) -> str:
        """A point as the panel names it ('D4', 'pass')."""
        ...

    def end_words(self, game: PlayedGame) -> str:
        """The panel's line when the rules end the game ('' where the panel's own lines say it)."""
        ...

    # --- its agents ---------------------------------------------------------------------------------
    def players(self, black: str, white: str) -> Players:
        """The two players the specs name ('human', an AI, an external engine); ValueError (one
        line) for one that cannot be made, the other closed."""
        ...

    def groups(self, spec: str) -> list[str]:
        """The kernel groups a player's agent needs loaded before its first move."""
        ...

    def search(
        self,
        agent: Any,
        spec: str,
        game: PlayedGame,
        color: int,
        clocks: Clocks,
        progress: Callable[[Progress], None],
    ) -> Job:
        """agent's search of color's move in game (copied now, the clock read now) for a worker
        thread: it returns the move, a point as the window numbers it (or PASS, RESIGN), and
        reports its progress (the candidates, the line) through progress."""
        ...

    def is_engine(self, agent: Any) -> bool:
        """Whether agent is an external engine (GTP, Gomocup): its illegal move forfeits the game
        and its messages name it."""
        ...

    def forfeits(self, error: BaseException) -> bool:
        """Whether an agent's failure forfeits the game (a Gomocup engine's crash, hang or
        garbage) rather than wait for a click to try again."""
        ...

    def tell_clock(self, agents: dict[int, Any], time_control: Any) -> None:
        """Tell the agents the game's time control when the clocks start afresh (GTP
        ``time_settings``; an agent that keeps no clock of its own is told nothing)."""
        ...

    def stop(self, agents: dict[int, Any]) -> None:
        """Make the agents' searches return at once (those that take no cancel flag: Gomoku's)."""
        ...

    # --- its record codec ---------------------------------------------------------------------------
    def book(self, game: PlayedGame) -> Book:
        """The record of a new game."""
        ...

    def read(self, path: str) -> Loaded:
        """The record in the file at path; ValueError or OSError (one line) when it cannot be read."""
        ...

    def write(self, record: RecordPart, path: str, timing: Callable[[int], Timing | None]) -> str:
        """The record as the text of a file at path (its ending may choose the format: ``.psq``),
        with the clock (``timing(n)``: TM/OT and the time left after each of the first n
        moves); ValueError (one line) for a format the game has not."""
        ...

    def autosave(
        self, record: RecordPart, timing: Callable[[int], Timing | None]
    ) -> Callable[[], str] | None:
        """What writes the autosave's text on its thread (a snapshot taken now), or None when
        there is nothing to save (an empty board never overwrites a saved game)."""
        ...

    # --- how a move is valued -----------------------------------------------------------------------
    def valuer(self) -> Valuer:
        """``e``: every move of the position valued."""
        ...

    def reviewer(self) -> Reviewer:
        """``g``: the whole game reviewed."""
        ...

    # --- its opening protocol -----------------------------------------------------------------------
    def opening(self, host: Any) -> Opening:
        """The opening protocol's part, over the controller's parts (:class:`FreeOpening` for none)."""
        ...
