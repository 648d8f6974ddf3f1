"""The record in the app: moving through the game tree, variations, comments and the set-up mode.

:class:`RecordActions` is a part of :class:`gorilla.app.controller.Controller` (a mixin):
the controller's ``game`` is always the current line of its ``tree``
(:class:`gorilla.rules.gametree.GameTree`): the position at the current node, the rest
of the line on its redo list. Whatever changes the game (a move, undo, redo, an AI
move) ends in ``_game_changed``, which tells the tree (a move that differs from the
record becomes a variation); the methods here move the current node and rebuild the
game to match. No pyglet here.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from gorilla.rules.board import BLACK, EMPTY, WHITE
from gorilla.rules.coords import format_vertex
from gorilla.rules.game import Game
from gorilla.rules.gametree import Branch, GameTree, Node
from gorilla.rules.position import IllegalMove

COLOR_WORD = {BLACK: "Black", WHITE: "White"}


class RecordActions:
    """Navigation, variations, comments and set-up; mixed into the controller (see the module docstring)."""

    game: Game
    tree: GameTree
    editing: bool
    reviewing: bool
    _tree_game: Game | None
    _deleted: tuple[int, Branch] | None
    _previous_record: tuple[GameTree, Game] | None  # the record a set-up replaced, while it lasts

    if TYPE_CHECKING:  # the controller's own state and helpers
        ended: str | None
        continuous: bool
        steps: int
        message: str
        version: int
        _gen: int
        _start_settings: tuple
        _handicap_points: list[int] | None

        def say(self, text: str) -> None: ...
        def _cancel_all(self) -> None: ...
        def _game_changed(self, autosave: bool = True) -> None: ...
        def _clock_follows_turn(self) -> None: ...
        def _adopt_result(self, game: Game) -> None: ...
        def _autosave(self) -> None: ...

    # --- keeping the tree and the game together -------------------------------------------------
    def _init_record(self, tree: GameTree | None) -> None:
        """The tree beside the controller's game (a one-line tree from the game when none is given)."""
        self.tree = tree if tree is not None else GameTree.from_game(self.game)
        self._tree_game = self.game
        self.tree.sync(self.game)
        self.editing = False
        self.reviewing = False
        self._deleted = None
        self._previous_record = None

    def _sync_tree(self) -> None:
        """After the game changed: a new game object starts a new tree, the same one adds its moves."""
        if self._tree_game is not self.game:
            self.tree = GameTree.from_game(self.game)
            self._tree_game = self.game
        self.tree.sync(self.game)

    def adopt_tree(self, tree: GameTree, game: Game | None = None) -> None:
        """Show tree (a loaded record) at its current node; game: its line_game() when made already."""
        self.tree = tree
        self.game = game if game is not None else tree.line_game()
        self._tree_game = self.game
        self.editing = False
        self.reviewing = False
        self._deleted = None

    # --- moving through the record -----------------------------------------------------------------
    def go_to_node(self, node: Node) -> bool:
        """Make node the current move: the board shows its position (the AI waits: reviewing)."""
        if self.editing:
            self.say("Leave the set-up mode first (b)")
            return False
        if node is self.tree.current:
            return False
        self._cancel_all()
        try:
            self.tree.goto(self.game, node)
        except (IllegalMove, ValueError) as e:  # the tree only holds legal moves: never expected
            self.say(f"Cannot go there: {e}")
            self.game = self.tree.line_game()
            self._tree_game = self.game
            return False
        self.ended = None
        self._adopt_result(self.game)
        self.reviewing = True
        self.continuous = False
        self.steps = 0
        self.message = ""
        self._clock_follows_turn()
        self._game_changed()
        return True

    def go_back(self, steps: int = 1) -> bool:
        """Back along the line (←, Shift+← ten moves)."""
        node = self.tree.back(steps)
        if node is self.tree.current:
            self.say("At the start")
            return False
        return self.go_to_node(node)

    def go_forward(self, steps: int = 1) -> bool:
        """On along the current line (→, Shift+→ ten moves)."""
        node = self.tree.ahead(steps)
        if node is self.tree.current:
            self.say("At the end of this line")
            return False
        return self.go_to_node(node)

    def go_start(self) -> bool:
        """To the start position (Home)."""
        return self.go_back(10**9)

    def go_end(self) -> bool:
        """To the end of the current line (End)."""
        return self.go_forward(10**9)

    def goto_move(self, number: int) -> bool:
        """To move number of the current line (0: the start); the graph and move numbers use it."""
        line = self.tree.path()[:1] + self.tree.line()
        if not 0 <= number < len(line):
            self.say(f"No move {number} on this line")
            return False
        node = line[number]
        return node is self.tree.current or self.go_to_node(node)

    def switch_variation(self, delta: int) -> bool:
        """To the next (1, ↓) or previous (-1, ↑) variation at the nearest branching point."""
        node = self.tree.sibling(delta)
        if node is None:
            self.say("No other variation" if not self._branching() else "No more variations that way")
            return False
        return self.go_to_node(node)

    def _branching(self) -> bool:
        return any(len(n.children) > 1 for n in self.tree.path()[:-1])

    def promote_variation(self) -> bool:
        """Make the current line the main line (l)."""
        if not self.tree.promote():
            self.say("This line is the main line already")
            return False
        self._game_changed()
        self.say("This line is now the main line")
        return True

    def delete_branch(self) -> bool:
        """Delete the current move and everything after it (Delete); undo (u, Ctrl+Z) puts it back."""
        if self.editing:
            self.say("Leave the set-up mode first (b)")
            return False
        node = self.tree.current
        if node.parent is None:
            self.say("Nothing to delete at the start")
            return False
        parent = node.parent
        self.go_to_node(parent)
        branch = self.tree.delete(node)
        self.game.redo_stack = [n.move for n in reversed(self.tree.continuation())]
        self._game_changed()
        self._deleted = (self._gen, branch)
        where = format_vertex(node.point, self.game.size)
        self.say(f"Deleted move {parent.depth + 1} ({where}) and what follows: u puts it back")
        return True

    def restore_branch(self) -> bool:
        """Put back the branch deleted last, if nothing changed since; True when it did."""
        deleted = self._deleted
        if deleted is None or deleted[0] != self._gen:
            return False
        self._deleted = None
        branch = deleted[1]
        self.tree.restore(branch)
        self.go_to_node(branch.node)
        self.say("Branch restored")
        return True

    # --- comments ------------------------------------------------------------------------------
    @property
    def comment(self) -> str:
        """The current move's comment (at the start: the game's)."""
        return self.tree.current.comment

    def set_comment(self, text: str) -> None:
        """Replace the current move's comment (saved in the SGF's C)."""
        node = self.tree.current
        if node.comment == text:
            return
        node.comment = text
        if node.parent is None:
            self.game.info.comment = text
        else:
            i = node.depth - 1
            if 0 <= i < len(self.game.moves):
                self.game.moves[i] = replace(self.game.moves[i], comment=text)
        self.version += 1
        self._autosave()

    # --- set-up ----------------------------------------------------------------------------------
    def toggle_setup(self) -> bool:
        """Enter or leave the set-up mode (b): stones by hand on the start position.

        On a record with moves, the set-up starts a new record from the position on the
        board (its stones as set-up stones); until the set-up mode is left, undo (u)
        brings the old record back.
        """
        if self.editing:
            self.editing = False
            self._previous_record = None
            self.say(f"Set-up done: {COLOR_WORD[self.game.to_move]} to move")
            return True
        self._cancel_all()
        if self.tree.root.children:
            old = (self.tree, self.game)
            pos = self.game.position
            stones = {p: c for c in (BLACK, WHITE) for p in pos.stones(c)}
            number = self.game.move_number
            if not self._new_start(stones, pos.to_move):
                return False
            self.tree.root.comment = ""
            self.game.info.comment = ""
            self._previous_record = old
            self.editing = True
            self.say(f"Set-up from move {number}: a new record (u brings the old one back)")
            return True
        self.editing = True
        self._previous_record = None
        self.say("Set-up: left click Black, right click White, a stone again removes it; x: side to move")
        return True

    def restore_record(self) -> bool:
        """In set-up mode started on a record with moves: back to that record; True when it did."""
        old = self._previous_record
        if not self.editing or old is None:
            return False
        self._previous_record = None
        self.editing = False
        self._cancel_all()
        self.tree, self.game = old
        self._tree_game = self.game
        g = self.game
        self._start_settings = (g.size, g.ruleset, g.komi, g.handicap)
        self.ended = None
        self._adopt_result(g)
        self._game_changed()
        self.say("Set-up cancelled: the record is back")
        return True

    def setup_click(self, point: int, color: int) -> bool:
        """In set-up mode: put a stone of color on point, or take off the stone there."""
        if not self.editing:
            return False
        game = self.game
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
        if not self.editing:
            self.say("x chooses the side to move in the set-up mode (b)")
            return False
        to_move = self.game.positions[0].to_move
        return self._new_start(dict(self.game.setup), color or (WHITE if to_move == BLACK else BLACK))

    def _new_start(self, stones: dict[int, int], to_move: int) -> bool:
        old = self.game
        game = Game(old.size, old.ruleset, old.komi, replace(old.info, extra_result=""))
        try:
            if stones:
                game.add_setup(sorted(stones.items()), to_move=to_move)
            else:
                game.positions[0].to_move = to_move
        except (IllegalMove, ValueError) as e:
            self.say(f"Not there: {e}")
            return False
        comment = self.tree.root.comment
        self.game = game
        self.tree = GameTree.from_game(game)
        self.tree.root.comment = comment
        self._tree_game = game
        self._start_settings = (game.size, game.ruleset, game.komi, 0)
        self._handicap_points = None
        self.ended = None
        self._game_changed()
        self.say(f"Set-up: {len(stones)} stones, {COLOR_WORD[to_move]} to move")
        return True

    def set_game_info(self, black: str, white: str, event: str) -> bool:
        """The record's player and event names (SGF PB, PW, EV), kept in the autosave and Ctrl+S."""
        from gorilla.app.record_info import set_names

        set_names(self.tree, self.game, black, white, event)
        self._autosave()
        self.say("Names saved in the record (PB, PW, EV)")
        return True

    # --- what the panel shows ---------------------------------------------------------------------
    def branch_summary(self) -> tuple[int, int, int, list[str]]:
        """(the current move number, the length of the current line, how many variations branch
        here, those moves as text: 'B D4', the main one first, '(next)' after the one the line follows)."""
        tree = self.tree
        node = tree.current
        size = self.game.size
        nxt = node.next
        moves = [
            f"{COLOR_WORD[c.color][0]} {format_vertex(c.point, size)}" + (" (next)" if c is nxt else "")
            for c in node.children
        ]
        return node.depth, node.depth + len(tree.continuation()), len(node.children), moves


__all__ = ["RecordActions"]
