"""The record in the app, as a part that owns it: the game tree, the game on the board (always
the current line of the tree), moving through the tree, variations, comments and the set-up mode.

:class:`Record` keeps ``tree`` (:class:`gorilla.rules.gametree.GameTree`) and ``game``: the
position at the current node, the rest of the line on the game's redo list, and the settings
the game started from (what a new game with the same settings uses). Whatever changes the game
(a move, undo, redo, an AI move) ends in the controller's ``_game_changed``, which calls
:meth:`Record.sync` (a move that differs from the record becomes a variation); the methods here
move the current node and rebuild the game to match, and tell the controller through
:class:`RecordHost`, the few things of the controller's a record asks for. No pyglet here.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Protocol

from gorilla.rules.board import BLACK, EMPTY, WHITE
from gorilla.rules.coords import format_vertex
from gorilla.rules.game import Game
from gorilla.rules.gametree import Branch, GameTree, Node
from gorilla.rules.position import IllegalMove

if TYPE_CHECKING:
    from gorilla.app.record_info import RecordInfo
    from gorilla.rules.rulesets import Ruleset

COLOR_WORD = {BLACK: "Black", WHITE: "White"}
Kept = tuple[GameTree, Game, list[int] | None]  # a record put aside: its tree, its game, free handicap stones


class RecordHost(Protocol):
    """What a :class:`Record` asks of the controller that holds it."""

    def say(self, text: str) -> None:
        """Show text as the panel's message."""
        ...

    def stop_work(self) -> None:
        """Cancel the background work (the AI's search, the evaluation) before the game changes."""
        ...

    def restarted(self, game: Game) -> None:
        """The game on the board was replaced (a set-up, a record brought back): its end as the
        record says, then as after any change."""
        ...

    def arrived(self) -> None:
        """The board shows another node of the tree: the AI waits, the clock follows the turn."""
        ...

    def changed(self, autosave: bool = True) -> None:
        """After any change of the game (see the controller's ``_game_changed``)."""
        ...

    def touch(self) -> None:
        """Something visible changed (redraw)."""
        ...

    def autosave_now(self) -> None:
        """Save the record in the background."""
        ...


class Record:
    """The tree, the game on the board and the set-up mode (see the module docstring)."""

    def __init__(self, game: Game, host: RecordHost, tree: GameTree | None = None) -> None:
        self.host = host
        self.game = game
        self.tree = tree if tree is not None else GameTree.from_game(game)
        self._tree_game = game
        self.tree.sync(game)
        self.editing = False  # the set-up mode
        self.reviewing = False  # the board shows a node the players have not reached by playing
        self.changes = 0  # bumps at every sync: a deleted branch comes back only right after
        self._deleted: tuple[int, Branch] | None = None
        self._previous_record: tuple[GameTree, Game] | None = None  # the record a set-up replaced
        self._before_reset: tuple[int, Kept] | None = None  # (changes, the record a reset replaced)
        self.start_settings = (game.size, game.ruleset, game.komi, game.handicap)
        self.handicap_points: list[int] | None = None  # free handicap stones where they were put
        self._recorded: tuple[GameTree, Node, str] | None = None  # the record's own result (RE) and where
        if tree is not None:
            self.note_result()

    # --- keeping the tree and the game together -------------------------------------------------
    def sync(self) -> None:
        """After the game changed: a new game object starts a new tree, the same one adds its moves."""
        if self._tree_game is not self.game:
            self.tree = GameTree.from_game(self.game)
            self._tree_game = self.game
        self.tree.sync(self.game)
        self.changes += 1

    def started(self, game: Game, handicap_points: list[int] | None = None) -> None:
        """A new game on the board (new, reset, loaded, handicap placed): its start settings."""
        self.game = game
        self.start_settings = (game.size, game.ruleset, game.komi, game.handicap)
        self.handicap_points = handicap_points

    def adopt_tree(self, tree: GameTree, game: Game | None = None) -> None:
        """Show tree (a loaded record) at its current node; game: its line_game() when made already."""
        self.tree = tree
        self.game = game if game is not None else tree.line_game()
        self._tree_game = self.game
        self.editing = False
        self.reviewing = False
        self._deleted = None
        self.started(self.game)
        self.note_result()
        self.follow_result()

    # --- the record's own result --------------------------------------------------------------------
    def note_result(self, result: str | None = None) -> None:
        """The result the record gives (default: its RE as read) is the game's at the main
        line's end until the user counts again (:meth:`rescored`): an estimate of the dead
        stones does not replace it."""
        result = self.tree.result if result is None else result
        line = self.tree.main_line()
        self._recorded = (self.tree, line[-1] if line else self.tree.root, result) if result else None

    def recorded_result(self, node: Node | None = None) -> str | None:
        """The record's own result when node (default the current one) is the main line's end
        it was given for (None elsewhere, or once the user counted again)."""
        kept = self._recorded
        node = self.tree.current if node is None else node
        if kept is None or kept[0] is not self.tree or kept[1] is not node or node.children:
            return None
        return kept[2] if self.tree.on_main_line(node) else None

    def follow_result(self) -> None:
        """At the node the record's result was given for, the game's result is it (a
        resignation or a time loss the moves do not show included)."""
        result = self.recorded_result()
        if result is not None and self.game.result != result:
            self.game.info.extra_result = result

    def rescored(self) -> None:
        """The user marked dead stones: the count is the result now, not the record's."""
        self._recorded = None
        self.game.info.extra_result = ""

    # --- moving through the record -----------------------------------------------------------------
    def go_to_node(self, node: Node) -> bool:
        """Make node the current move: the board shows its position (the AI waits: reviewing)."""
        if self.editing:
            self.host.say("Leave the set-up mode first (b)")
            return False
        if node is self.tree.current:
            return False
        self.host.stop_work()
        try:
            self.tree.goto(self.game, node)
        except (IllegalMove, ValueError) as e:  # the tree only holds legal moves: never expected
            self.host.say(f"Cannot go there: {e}")
            self.game = self.tree.line_game()
            self._tree_game = self.game
            return False
        self.reviewing = True
        self.follow_result()
        self.host.arrived()
        return True

    def go_back(self, steps: int = 1) -> bool:
        """Back along the line (←, Shift+← ten moves)."""
        return self._step(self.tree.back(steps), "At the start")

    def go_forward(self, steps: int = 1) -> bool:
        """On along the current line (→, Shift+→ ten moves)."""
        return self._step(self.tree.ahead(steps), "At the end of this line")

    def _step(self, node: Node, at_the_end: str) -> bool:
        if node is self.tree.current:
            self.host.say(at_the_end)
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
            self.host.say(f"No move {number} on this line")
            return False
        node = line[number]
        return node is self.tree.current or self.go_to_node(node)

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
        if self.editing:
            self.host.say("Leave the set-up mode first (b)")
            return False
        node = self.tree.current
        if node.parent is None:
            self.host.say("Nothing to delete at the start")
            return False
        parent = node.parent
        self.go_to_node(parent)
        branch = self.tree.delete(node)
        self.game.redo_stack = [n.move for n in reversed(self.tree.continuation())]
        self.host.changed()
        self._deleted = (self.changes, branch)
        where = format_vertex(node.point, self.game.size)
        self.host.say(f"Deleted move {parent.depth + 1} ({where}) and what follows: u puts it back")
        return True

    def restore_branch(self) -> bool:
        """Put back the branch deleted last, if nothing changed since; True when it did."""
        deleted = self._deleted
        if deleted is None or deleted[0] != self.changes:
            return False
        self._deleted = None
        branch = deleted[1]
        self.tree.restore(branch)
        self.go_to_node(branch.node)
        self.host.say("Branch restored")
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
        self.host.touch()
        self.host.autosave_now()

    # --- a reset taken back ------------------------------------------------------------------------
    def keep(self) -> Kept:
        """The record as it is (the tree, the game on the board, its free handicap stones), for
        :meth:`kept_for_undo`."""
        return self.tree, self.game, self.handicap_points

    def kept_for_undo(self, old: Kept) -> bool:
        """Right after a reset: undo (:meth:`restore_reset`) brings the old record back until
        the new game changes. True when the old record had moves or set-up stones (something
        to bring back)."""
        tree, game, _ = old
        if not (tree.root.children or game.setup):
            self._before_reset = None
            return False
        self._before_reset = (self.changes, old)
        return True

    def restore_reset(self) -> bool:
        """Undo right after a reset: the record before it is back; True when it did."""
        kept = self._before_reset
        if kept is None or kept[0] != self.changes:
            return False
        self._before_reset = None
        self.host.stop_work()
        self.tree, game, points = kept[1]
        self._tree_game = game
        self.editing = self.reviewing = False
        self._deleted = None
        self.started(game, points)
        self.host.restarted(game)
        self.host.say(f"The game before the reset is back (move {game.move_number})")
        return True

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
            self.host.say(f"Set-up done: {COLOR_WORD[self.game.to_move]} to move")
            return True
        self.host.stop_work()
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
            self.host.say(f"Set-up from move {number}: a new record (u brings the old one back)")
            return True
        self.editing = True
        self._previous_record = None
        self.host.say(
            "Set-up: left click Black, right click White, a stone again removes it; x: side to move"
        )
        return True

    def restore_record(self) -> bool:
        """In set-up mode started on a record with moves: back to that record; True when it did."""
        old = self._previous_record
        if not self.editing or old is None:
            return False
        self._previous_record = None
        self.editing = False
        self.host.stop_work()
        self.tree, game = old
        self._tree_game = game
        self.started(game)
        self.host.restarted(game)
        self.host.say("Set-up cancelled: the record is back")
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
            self.host.say("x chooses the side to move in the set-up mode (b)")
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
            self.host.say(f"Not there: {e}")
            return False
        comment = self.tree.root.comment
        self.tree = GameTree.from_game(game)
        self.tree.root.comment = comment
        self._tree_game = game
        self.started(game)
        self.host.restarted(game)
        self.host.say(f"Set-up: {len(stones)} stones, {COLOR_WORD[to_move]} to move")
        return True

    def names(self) -> RecordInfo:
        """What the record says of its game: names, ranks, event, place, date, result, komi and
        rules ('' where it has none)."""
        from gorilla.app.record_info import record_info

        return record_info(self.tree)

    def set_game_info(self, black: str, white: str, event: str) -> bool:
        """The record's player and event names (SGF PB, PW, EV), kept in the autosave and Ctrl+S."""
        from gorilla.app.record_info import set_names

        set_names(self.tree, self.game, black, white, event)
        self.host.autosave_now()
        self.host.say("Names saved in the record (PB, PW, EV)")
        return True

    def set_record_info(self, info: RecordInfo) -> bool:
        """Ctrl+I's rows into the record: names, ranks, event, place, date; a new komi or rule set
        plays the record again under it (a move it forbids: one line, nothing changes), and the
        count follows; a result typed is the record's result (its RE, the game's at the main
        line's end until the user counts again), and a komi changed under a count's result
        drops it for the new count. False (and one line) when a row is wrong."""
        from gorilla.app.record_info import check_info, record_info, set_info
        from gorilla.app.review import result_margin
        from gorilla.rules.rulesets import get_ruleset

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
        set_info(self.tree, self.game, info)
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
        self.game = tree.line_game()
        self._tree_game = self.game
        if result:
            self.note_result(result)
            self.follow_result()
        else:
            self._recorded = None
        self.start_settings = (start.size, start.ruleset, start.komi, start.handicap)
        self.host.restarted(self.game)

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


__all__ = ["Record", "RecordHost"]
