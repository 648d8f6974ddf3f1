"""Go's set-up mode, as Go's part (``b``): stones put on the start position by hand, the side to
move chosen (``x``). On a record with moves the set-up starts a new record from the position on
the board; until the set-up mode is left, undo brings the old record back. While it is on, the
shared record is ``editing``: the AI waits and the line stays."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from gorilla.app.go.variations import COLOR_WORD, TreeHost, restart
from gorilla.app.record import Record
from gorilla.rules.board import BLACK, EMPTY, WHITE
from gorilla.rules.game import Game
from gorilla.rules.gametree import GameTree
from gorilla.rules.position import IllegalMove

if TYPE_CHECKING:
    from gorilla.app.go.tree_book import TreeBook


class Setup:
    """The set-up mode over the shared record (see the module docstring)."""

    def __init__(self, record: Record, host: TreeHost) -> None:
        self.record = record
        self.host = host
        self._previous: tuple[GameTree, Game] | None = None  # the record a set-up replaced

    @property
    def tree(self) -> GameTree:
        """The record's tree."""
        book: TreeBook = self.record.book  # type: ignore[assignment]
        return book.tree

    def toggle_setup(self) -> bool:
        """Enter or leave the set-up mode (b): stones by hand on the start position.

        On a record with moves, the set-up starts a new record from the position on the
        board (its stones as set-up stones); until the set-up mode is left, undo (u)
        brings the old record back.
        """
        record = self.record
        if record.editing:
            record.editing = False
            self._previous = None
            self.host.say(f"Set-up done: {COLOR_WORD[record.game.to_move]} to move")
            return True
        self.host.stop_work()
        if self.tree.root.children:
            old = (self.tree, record.game)
            pos = record.game.position
            stones = {p: c for c in (BLACK, WHITE) for p in pos.stones(c)}
            number = record.game.move_number
            if not self._new_start(stones, pos.to_move):
                return False
            self.tree.root.comment = ""
            record.game.info.comment = ""
            self._previous = old
            record.editing = True
            self.host.say(f"Set-up from move {number}: a new record (u brings the old one back)")
            return True
        record.editing = True
        self._previous = None
        self.host.say(
            "Set-up: left click Black, right click White, a stone again removes it; x: side to move"
        )
        return True

    def restore_record(self) -> bool:
        """In set-up mode started on a record with moves: back to that record; True when it did."""
        old = self._previous
        if not self.record.editing or old is None:
            return False
        self._previous = None
        self.record.editing = False
        self.host.stop_work()
        tree, game = old
        restart(self.record, self.host, game, tree)
        self.host.say("Set-up cancelled: the record is back")
        return True

    def setup_click(self, point: int, color: int) -> bool:
        """In set-up mode: put a stone of color on point, or take off the stone there."""
        if not self.record.editing:
            return False
        game = self.record.game
        if not game.position.on_board(point):
            return False
        stones = dict(game.setup)
        if game.position.color_at(point) != EMPTY:
            stones.pop(point, None)
        else:
            stones[point] = color
        return self._new_start(stones, game.positions[0].to_move)

    def setup_side_to_move(self, color: int | None = None) -> bool:
        """In set-up mode: who moves first (default: the other side)."""
        if not self.record.editing:
            self.host.say("x chooses the side to move in the set-up mode (b)")
            return False
        game = self.record.game
        to_move = game.positions[0].to_move
        return self._new_start(dict(game.setup), color or (WHITE if to_move == BLACK else BLACK))

    def _new_start(self, stones: dict[int, int], to_move: int) -> bool:
        old = self.record.game
        game = Game(old.size, old.ruleset, old.komi, replace(old.info, extra_result=""))
        try:
            if stones:
                game.add_setup(sorted(stones.items()), to_move=to_move)
            else:
                game.positions[0].to_move = to_move
        except (IllegalMove, ValueError) as e:
            self.host.say(f"Not there: {e}")
            return False
        tree = GameTree.from_game(game)
        tree.root.comment = self.tree.root.comment
        restart(self.record, self.host, game, tree)
        self.host.say(f"Set-up: {len(stones)} stones, {COLOR_WORD[to_move]} to move")
        return True


__all__ = ["Setup"]
