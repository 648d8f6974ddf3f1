"""What Go's record does beyond the shared :class:`gorilla.app.record.Record`, as Go's part: its
tree's variations (going to any node, switching, promoting, deleting with undo), a reset taken
back, and the game info whose komi or rules replay the record (Ctrl+I). The tree is the
record's book (:class:`gorilla.app.go.tree_book.TreeBook`); the set-up mode is
:mod:`gorilla.app.go.setup`."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol

from gorilla.app.go.review import result_margin
from gorilla.app.record import Record, RecordHost
from gorilla.app.record_info import RecordInfo, check_info, record_info, set_info
from gorilla.rules.board import BLACK, WHITE
from gorilla.rules.coords import format_vertex
from gorilla.rules.game import Game
from gorilla.rules.gametree import Branch, GameTree, Node
from gorilla.rules.position import IllegalMove
from gorilla.rules.rulesets import get_ruleset

if TYPE_CHECKING:
    from gorilla.app.go.tree_book import TreeBook
    from gorilla.rules.rulesets import Ruleset

COLOR_WORD = {BLACK: "Black", WHITE: "White"}
Kept = tuple[GameTree, Game, list[int] | None]  # a record put aside: its tree, its game, free handicap stones


class TreeHost(RecordHost, Protocol):
    """What Go's record parts ask of the controller beyond a :class:`RecordHost`."""

    def restarted(self, game: Game) -> None:
        """The game on the board was replaced by the record's: its end as the record says, then as
        after any change."""
        ...

    def changed(self, autosave: bool = True) -> None:
        """After any change of the game."""
        ...


def restart(
    record: Record, host: TreeHost, game: Game, tree: GameTree, points: list[int] | None = None
) -> None:
    """game, the current line of tree, is on the board (with its free handicap stones): the
    record is that tree from now on (a set-up, a record brought back)."""
    book: TreeBook = record.book  # type: ignore[assignment]
    book.restart(game, tree)
    book.started(game, points)
    record.game = game
    host.restarted(game)


class Variations:
    """Go's tree requests over the shared record (see the module docstring)."""

    def __init__(self, record: Record, host: TreeHost) -> None:
        self.record = record
        self.host = host
        self._deleted: tuple[int, Branch] | None = None
        self._before_reset: tuple[int, Kept] | None = None  # (changes, the record a reset replaced)

    @property
    def book(self) -> TreeBook:
        """The record's tree."""
        return self.record.book  # type: ignore[return-value]

    @property
    def tree(self) -> GameTree:
        """The record as a tree (the tree view draws it)."""
        return self.book.tree

    def go_to_node(self, node: Node) -> bool:
        """Make node the current move: the board shows its position (the AI waits: reviewing)."""
        if node is self.tree.current and not self.record.editing:
            return False
        return self.record.show(lambda game: self.book.goto_node(game, node))

    def switch_variation(self, delta: int) -> bool:
        """To the next (1, ↓) or previous (-1, ↑) variation at the nearest branching point."""
        node = self.tree.sibling(delta)
        if node is None:
            self.host.say("No other variation" if not self._branching() else "No more variations that way")
            return False
        return self.go_to_node(node)

    def _branching(self) -> bool:
        return any(len(n.children) > 1 for n in self.tree.path()[:-1])

    def promote_variation(self) -> bool:
        """Make the current line the main line (l)."""
        if not self.tree.promote():
            self.host.say("This line is the main line already")
            return False
        self.host.changed()
        self.host.say("This line is now the main line")
        return True

    def delete_branch(self) -> bool:
        """Delete the current move and everything after it (Delete); undo (u, Ctrl+Z) puts it back."""
        if self.record.editing:
            self.host.say("Leave the set-up mode first (b)")
            return False
        node = self.tree.current
        if node.parent is None:
            self.host.say("Nothing to delete at the start")
            return False
        parent = node.parent
        self.go_to_node(parent)
        branch = self.tree.delete(node)
        game = self.record.game
        game.redo_stack = [n.move for n in reversed(self.tree.continuation())]
        self.host.changed()
        self._deleted = (self.record.changes, branch)
        where = format_vertex(node.point, game.size)
        self.host.say(f"Deleted move {parent.depth + 1} ({where}) and what follows: u puts it back")
        return True

    def restore_branch(self) -> bool:
        """Put back the branch deleted last, if nothing changed since; True when it did."""
        branch, self._deleted = self._right_after(self._deleted), None
        if branch is None:
            return False
        self.tree.restore(branch)
        self.go_to_node(branch.node)
        self.host.say("Branch restored")
        return True

    def _right_after(self, kept: tuple[int, Any] | None) -> Any:
        """What was kept (with the record's changes then), if the record has not changed since."""
        return kept[1] if kept is not None and kept[0] == self.record.changes else None

    def forget(self) -> None:
        """Another record is on the board (loaded): nothing deleted to put back."""
        self._deleted = None

    # --- a reset taken back ------------------------------------------------------------------------
    def keep(self) -> Kept:
        """The record as it is (the tree, the game on the board, its free handicap stones), for
        :meth:`kept_for_undo`."""
        return self.tree, self.record.game, self.book.handicap_points

    def kept_for_undo(self, old: Kept) -> bool:
        """Right after a reset: undo (:meth:`restore_reset`) brings the old record back until
        the new game changes. True when the old record had moves or set-up stones (something
        to bring back)."""
        tree, game, _ = old
        if not (tree.root.children or game.setup):
            self._before_reset = None
            return False
        self._before_reset = (self.record.changes, old)
        return True

    def restore_reset(self) -> bool:
        """Undo right after a reset: the record before it is back; True when it did."""
        kept = self._right_after(self._before_reset)
        self._before_reset = None
        if kept is None:
            return False
        self.host.stop_work()
        tree, game, points = kept
        self._deleted = None
        self.record.editing = self.record.reviewing = False
        restart(self.record, self.host, game, tree, points)
        self.host.say(f"The game before the reset is back (move {game.move_number})")
        return True

    # --- the game info ---------------------------------------------------------------------------
    def set_record_info(self, info: RecordInfo) -> bool:
        """Ctrl+I's rows into the record: names, ranks, event, place, date; a new komi or rule set
        plays the record again under it (a move it forbids: one line, nothing changes), and the
        count follows; a result typed is the record's result (its RE, the game's at the main
        line's end until the user counts again), and a komi changed under a count's result
        drops it for the new count. False (and one line) when a row is wrong."""
        old = record_info(self.tree)
        start = self.tree.start
        problem = check_info(info)
        if problem is None:
            ruleset = get_ruleset(info.rules) if "rules" in info.rows else start.ruleset
            komi = float(info.komi) if "komi" in info.rows else start.komi
            if ruleset.name != start.ruleset.name or komi != start.komi:
                start, problem = self._start_under(ruleset, komi)
        if problem is not None:
            self.host.say(f"Cannot keep the game info: {problem}")
            return False
        set_info(self.tree, self.record.game, info)
        result = (info.result if "result" in info.rows else old.result) or None
        if (
            start.komi != self.tree.start.komi
            and result == (old.result or None)
            and result_margin(result) is not None
        ):
            result = None  # a count's result under the old komi: the count decides again
        if start is not self.tree.start or result != (old.result or None):
            self._restart(start, result)
        else:
            self.host.autosave_now()
            self.host.touch()
        self.host.say("Game info saved in the record")
        return True

    def _start_under(self, ruleset: Ruleset, komi: float) -> tuple[Game, str | None]:
        """The tree's start under another rule set or komi, and why not (a move of a line it
        forbids), or None."""
        old = self.tree.start
        start = Game.from_position(old.positions[0], ruleset, komi, old.move_offset)
        start.handicap, start.info = old.handicap, replace(old.info)
        g = start.copy()
        levels = [iter(self.tree.root.children)]
        while levels:
            node = next(levels[-1], None)
            if node is None:
                levels.pop()
                if levels:
                    g.undo()
                continue
            try:
                g.play(node.point, node.color)
            except (IllegalMove, ValueError) as e:
                where = format_vertex(node.point, old.size)
                return start, f"under {ruleset.name} rules move {len(g.moves) + 1} ({where}) is illegal: {e}"
            levels.append(iter(node.children))
        return start, None

    def _restart(self, start: Game, result: str | None) -> None:
        """The tree from start (a new komi or rule set) with result as its RE, the game on the
        board played again to the current node."""
        self.host.stop_work()
        tree = self.tree
        tree.start = start
        tree.result = result
        game = tree.line_game()
        book = self.book
        book.tree_game = game
        if result:
            book.note_result(result)
            book.follow_result(game)
        else:
            book.forget_result()
        book.started(game)
        self.record.game = game
        self.host.restarted(game)

    # --- what the panel shows ---------------------------------------------------------------------
    def branch_summary(self) -> tuple[int, int, int, list[str]]:
        """(the current move number, the length of the current line, how many variations branch
        here, those moves as text: 'B D4', the main one first, '(next)' after the one the line follows)."""
        tree = self.tree
        node = tree.current
        size = self.record.game.size
        nxt = node.next
        moves = [
            f"{COLOR_WORD[c.color][0]} {format_vertex(c.point, size)}" + (" (next)" if c is nxt else "")
            for c in node.children
        ]
        return node.depth, node.depth + len(tree.continuation()), len(node.children), moves


__all__ = ["TreeHost", "Variations", "restart"]
