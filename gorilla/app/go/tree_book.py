"""Go's record as a :class:`gorilla.app.kind.Book`: the game tree the game on the board follows.

:class:`TreeBook` keeps the :class:`gorilla.rules.gametree.GameTree` (variations, comments,
names, markup), the settings the game started from (what a reset plays again), the free
handicap stones where they were put, and the record's own result (its ``RE``), which is the
game's at the main line's end until the user counts again. The shared
:class:`gorilla.app.record.Record` walks the current line through it; Go's variations and
set-up mode (:mod:`gorilla.app.go.variations`, :mod:`gorilla.app.go.setup`) change its tree.
"""

from __future__ import annotations

from dataclasses import replace

from gorilla.app.record_info import RecordInfo, record_info, set_names
from gorilla.rules.game import Game
from gorilla.rules.gametree import GameTree, Node


class TreeBook:
    """The tree of one Go record and what the game keeps of its start (see the module docstring)."""

    LINE = "this line"

    def __init__(self, game: Game, tree: GameTree | None = None) -> None:
        self.tree = tree if tree is not None else GameTree.from_game(game)
        self.tree_game = game  # the game object the tree follows: another one starts a new tree
        self.tree.sync(game)
        self.started(game)
        self._recorded: tuple[GameTree, Node, str] | None = None  # the record's own result (RE) and where
        if tree is not None:  # a record read: its result stands at the main line's end
            self.note_result()
            self.follow_result(game)

    def started(self, game: Game, handicap_points: list[int] | None = None) -> None:
        """A new game on the board (new, reset, loaded, handicap placed): its start settings."""
        self.start_settings = (game.size, game.ruleset, game.komi, game.handicap)
        self.handicap_points = handicap_points  # free handicap stones where they were put

    def restart(self, game: Game, tree: GameTree) -> None:
        """tree, whose current line game is, replaces the record (a set-up, a record brought back)."""
        self.tree = tree
        self.tree_game = game

    # --- the line (gorilla.app.kind.Book) -----------------------------------------------------------
    def sync(self, game: Game) -> None:
        """After the game changed: a new game object starts a new tree, the same one adds its moves."""
        if self.tree_game is not game:
            self.tree = GameTree.from_game(game)
            self.tree_game = game
        self.tree.sync(game)

    def line(self) -> list[Node]:
        """The current line with its root: node k is the position after k moves."""
        return self.tree.path()[:1] + self.tree.line()

    def span(self, game: Game) -> tuple[int, int]:
        """The whole line, from the start (0) to its last move."""
        return 0, len(self.line()) - 1

    def goto(self, game: Game, number: int) -> Game:
        """game at move number of the current line."""
        return self.goto_node(game, self.line()[number])

    def goto_node(self, game: Game, node: Node) -> Game:
        """game (the current line's) at node: the line through node is the current one, and at
        the node the record's result was given for that result is the game's."""
        self.tree.goto(game, node)
        self.follow_result(game)
        return game

    def reviewing(self, game: Game) -> bool:
        """Any node shown by moving through the tree: the AI waits for a move or space."""
        return True

    def arrived(self, game: Game) -> str:
        """Nothing to say: the panel shows where the line is."""
        return ""

    def play_on(self, game: Game) -> bool:
        """The tree keeps the later moves: the next move makes a variation."""
        return False

    # --- the record's own result ---------------------------------------------------------------------
    def note_result(self, result: str | None = None) -> None:
        """The result the record gives (default: its RE as read) is the game's at the main
        line's end until the user counts again (:meth:`rescored`): an estimate of the dead
        stones does not replace it."""
        result = self.tree.result if result is None else result
        line = self.tree.main_line()
        self._recorded = (self.tree, line[-1] if line else self.tree.root, result) if result else None

    def forget_result(self) -> None:
        """The record gives no result of its own any more (a new komi dropped a count's)."""
        self._recorded = None

    def recorded_result(self, node: Node | None = None) -> str | None:
        """The record's own result when node (default the current one) is the main line's end
        it was given for (None elsewhere, or once the user counted again)."""
        kept = self._recorded
        node = self.tree.current if node is None else node
        if kept is None or kept[0] is not self.tree or kept[1] is not node or node.children:
            return None
        return kept[2] if self.tree.on_main_line(node) else None

    def follow_result(self, game: Game) -> None:
        """At the node the record's result was given for, the game's result is it (a
        resignation or a time loss the moves do not show included)."""
        result = self.recorded_result()
        if result is not None and game.result != result:
            game.info.extra_result = result

    def rescored(self, game: Game) -> None:
        """The user marked dead stones: the count is the result now, not the record's."""
        self._recorded = None
        game.info.extra_result = ""

    # --- what the record says of its moves -----------------------------------------------------------
    def comment(self, game: Game) -> str:
        """The current move's comment (at the start: the game's)."""
        return self.tree.current.comment

    def set_comment(self, game: Game, text: str) -> bool:
        """Replace the current move's comment; False when it is that already."""
        node = self.tree.current
        if node.comment == text:
            return False
        node.comment = text
        if node.parent is None:
            game.info.comment = text
        else:
            i = node.depth - 1
            if 0 <= i < len(game.moves):
                game.moves[i] = replace(game.moves[i], comment=text)
        return True

    def info(self) -> RecordInfo:
        """What the record says of its game: names, ranks, event, place, date, result, komi and
        rules ('' where it has none)."""
        return record_info(self.tree)

    def set_names(self, game: Game, black: str, white: str, event: str) -> None:
        """The record's player and event names (SGF PB, PW, EV)."""
        set_names(self.tree, game, black, white, event)


__all__ = ["TreeBook"]
