"""The record in the app, as a part both games share: the game on the board, the line of the
record it follows, moving along that line, the comments and the record's names.

:class:`Record` keeps ``game`` (the game's :class:`gorilla.app.kind.PlayedGame`: the position
shown, the rest of the line on its redo list) and ``book`` (the game's
:class:`gorilla.app.kind.Book`: Go's tree, Gomoku's names and comments). Whatever changes the
game (a move, undo, redo, an AI move) ends in the controller's ``changed``, which calls
:meth:`Record.sync`; the methods here move along the line and tell the controller through
:class:`RecordHost`, the few things of the controller's a record asks for. What one game's
record does beyond this (Go's variations, set-up mode, a reset taken back) is that game's own
part (:mod:`gorilla.app.go.variations`, :mod:`gorilla.app.go.setup`). No pyglet here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from gorilla.app.kind import Book, PlayedGame
    from gorilla.app.record_info import RecordInfo


class RecordHost(Protocol):
    """What a :class:`Record` asks of the controller that holds it."""

    def say(self, text: str) -> None:
        """Show text as the panel's message."""
        ...

    def stop_work(self) -> None:
        """Cancel the background work (the AI's search, the evaluation) before the game changes."""
        ...

    def arrived(self) -> None:
        """The board shows another position of the record: the AI waits, the clock follows the turn."""
        ...

    def touch(self) -> None:
        """Something visible changed (redraw)."""
        ...

    def autosave_now(self) -> None:
        """Save the record in the background."""
        ...


class Record:
    """The game on the board and the line it follows in its book (see the module docstring).

    ``editing``: the record is set up by hand (Go's set-up mode): the AI waits and the line
    stays. ``reviewing``: the board shows a position the players have not reached by playing:
    the AI waits until a move, or space, goes on from it."""

    def __init__(self, book: Book, game: PlayedGame, host: RecordHost) -> None:
        self.book = book
        self.game: Any = game
        self.host = host
        self.editing = False
        self.reviewing = False
        self.changes = 0  # bumps at every sync: what undo brings back holds only right after
        book.sync(game)

    def sync(self) -> None:
        """After the game changed: the book follows its moves."""
        self.book.sync(self.game)
        self.changes += 1

    def adopt(self, game: PlayedGame, book: Book | None = None) -> None:
        """Another game on the board (a new one, a reset, a record read, one set up), with its
        own book when it brings one; it is played, not reviewed."""
        self.game = game
        if book is not None:
            self.book = book
        self.editing = self.reviewing = False

    # --- moving along the line ------------------------------------------------------------------
    def show(self, move: Callable[[PlayedGame], PlayedGame]) -> bool:
        """The board shows another position of the record: move turns the game on the board
        into it (and gives the game to show); the AI waits as the book says, the clock follows."""
        if self.editing:
            self.host.say("Leave the set-up mode first (b)")
            return False
        self.host.stop_work()
        try:
            self.game = move(self.game)
        except ValueError as e:  # the book holds only legal moves: never expected
            self.host.say(f"Cannot go there: {e}")
            return False
        self.reviewing = self.book.reviewing(self.game)
        self.host.arrived()
        words = self.book.arrived(self.game)
        if words:
            self.host.say(words)
        return True

    def goto_move(self, number: int) -> bool:
        """To move number of the line (0: the start); the graph, a numbered stone and ``n`` use it."""
        span = self._span()
        if span is None:
            return False
        first, last = span
        here = len(self.game.moves)
        if not first <= number <= last:
            self.host.say(f"No move {number}: {self.book.LINE} has moves {first} to {last}")
            return False
        if number == here:
            end = f"the end of {self.book.LINE}" if here == last else f"move {here}"
            self.host.say(f"At {'the start' if here == first else end}")
            return False
        return self.show(lambda game: self.book.goto(game, number))

    def go_back(self, steps: int = 1) -> bool:
        """Back along the line (←, Shift+← ten moves; not into an opening's stones)."""
        span = self._span()
        if span is None:
            return False
        here = len(self.game.moves)
        if here <= span[0]:
            self.host.say("At the start")
            return False
        return self.goto_move(max(span[0], here - steps))

    def go_forward(self, steps: int = 1) -> bool:
        """On along the line (→, Shift+→ ten moves)."""
        span = self._span()
        if span is None:
            return False
        here = len(self.game.moves)
        if here >= span[1]:
            self.host.say(f"At the end of {self.book.LINE}")
            return False
        return self.goto_move(min(span[1], here + steps))

    def go_start(self) -> bool:
        """To the start position (Home)."""
        return self.go_back(10**9)

    def go_end(self) -> bool:
        """To the end of the line (End)."""
        return self.go_forward(10**9)

    def _span(self) -> tuple[int, int] | None:
        span = self.book.span(self.game)
        if isinstance(span, str):
            self.host.say(span)
            return None
        return span

    def play_on(self) -> bool:
        """Space while reviewing: where the book drops the moves after the position shown
        (Gomoku's one line), the game goes on from it (True); where it keeps them (Go's tree:
        the next move makes a variation), nothing changes here (False)."""
        if not self.reviewing or not self.book.play_on(self.game):
            return False
        self.reviewing = False
        self.host.arrived()
        self.host.say(f"Playing on from move {len(self.game.moves)}")
        return True

    # --- what the record says of its moves ---------------------------------------------------------
    @property
    def comment(self) -> str:
        """The current move's comment (at the start: the game's)."""
        return self.book.comment(self.game)

    def set_comment(self, text: str) -> None:
        """Replace the current move's comment (saved in the SGF's C)."""
        if self.book.set_comment(self.game, text):
            self.host.touch()
            self.host.autosave_now()

    def names(self) -> RecordInfo:
        """What the record says of its game (the players' names, the event, ...; '' where none)."""
        return self.book.info()

    def set_game_info(self, black: str, white: str, event: str) -> bool:
        """The record's player and event names (SGF PB, PW, EV), kept in the autosave and Ctrl+S."""
        self.book.set_names(self.game, black, white, event)
        self.host.autosave_now()
        self.host.say("Names saved in the record (PB, PW, EV)")
        return True


__all__ = ["Record", "RecordHost"]
