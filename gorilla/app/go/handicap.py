"""Go's free handicap stones placed by hand, as Go's part: after a new game with free placement
and a human Black, Black's clicks put the stones; White moves after the last one."""

from __future__ import annotations

from collections.abc import Callable

from gorilla.app.feed import Feed
from gorilla.app.go.players import name_game
from gorilla.app.go.tree_book import TreeBook
from gorilla.app.players import Players
from gorilla.app.record import Record
from gorilla.rules.board import BLACK, EMPTY
from gorilla.rules.game import Game


class Handicap:
    """``handicap_to_place``: how many stones a human Black has still to put (0: none);
    ``changed(autosave)`` is the controller's."""

    def __init__(self, record: Record, seats: Players, feed: Feed, changed: Callable[..., None]) -> None:
        self.record = record
        self.seats = seats
        self.feed = feed
        self.changed = changed
        self.handicap_to_place = 0

    def place(self, point: int) -> bool:
        """One of a human Black's free handicap stones; White moves after the last one."""
        game = self.record.game
        if not game.position.on_board(point) or game.position.color_at(point) != EMPTY:
            self.feed.say("Handicap stones go on empty points")
            self.feed.emit("illegal")
            return False
        placed = [p for p, _ in game.setup.items()] + [point]
        fresh = Game(game.size, game.ruleset, game.komi)
        self.handicap_to_place -= 1
        if self.handicap_to_place:
            fresh.add_setup([(p, BLACK) for p in placed], to_move=BLACK)
            self.feed.say(f"Black: place {self.handicap_to_place} more handicap stone(s)")
        else:
            fresh.set_handicap(placed)
            book: TreeBook = self.record.book  # type: ignore[assignment]
            book.started(fresh, placed)
            self.feed.say("Handicap placed: White to move")
        name_game(self.seats, fresh.info)
        self.record.game = fresh
        self.feed.emit("stone", stones=0, move=0)
        self.changed(autosave=False)
        return True


__all__ = ["Handicap"]
