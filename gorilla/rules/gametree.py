"""The game record as a tree: variations, comments, names, markup, and the line shown on the board.

A :class:`GameTree` holds the start of the game (a :class:`Game` without moves: size,
rules, komi, set-up stones, the side to move, the players' names) and a tree of
:class:`Node` s, one per move. The *current line* is the path from the root to the
current node followed on by each node's ``active`` child: :meth:`GameTree.line_game`
gives it as a :class:`Game` whose moves reach the current node and whose redo list
holds the rest of the line. A caller that plays, undoes or redoes on that game tells
the tree with :meth:`GameTree.sync`: a move that differs from the record at that point
becomes a new variation, nothing is thrown away.

Every move in the tree is legal (the tree is only built by playing through
:class:`Game`); set-up stones live in the start position only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace

from gorilla.rules.board import PASS
from gorilla.rules.game import Game, Move

MARKS = ("TR", "SQ", "CR", "MA")  # the point markup kept per node (triangle, square, circle, cross)


@dataclass(eq=False)
class Node:
    """One move of the record (the root has none: colour 0) and what the record says about it."""

    color: int = 0
    point: int = PASS
    comment: str = ""
    name: str = ""
    marks: dict[str, set[int]] = field(default_factory=dict)  # TR/SQ/CR/MA -> points
    labels: dict[int, str] = field(default_factory=dict)  # LB: point -> text
    extra: dict[str, list[bytes]] = field(default_factory=dict)  # other properties, as read
    children: list[Node] = field(default_factory=list)
    parent: Node | None = field(default=None, repr=False)
    active: int = 0  # the child the current line follows

    @property
    def move(self) -> Move:
        """The node's move as a record entry."""
        return Move(self.color, self.point, 0, self.comment)

    def add(self, child: Node) -> Node:
        """Append child as the last variation and return it."""
        child.parent = self
        self.children.append(child)
        return child

    def child_for(self, color: int, point: int) -> Node | None:
        """The child that plays this move, if any."""
        for c in self.children:
            if c.color == color and c.point == point:
                return c
        return None

    @property
    def next(self) -> Node | None:
        """The child the current line follows, or None at the end of a line."""
        if not self.children:
            return None
        return self.children[min(self.active, len(self.children) - 1)]

    @property
    def depth(self) -> int:
        """The move number of the node (0 for the root)."""
        n, node = 0, self
        while node.parent is not None:
            n += 1
            node = node.parent
        return n

    def index(self) -> int:
        """The node's place among its parent's children (0: the main variation)."""
        return 0 if self.parent is None else self.parent.children.index(self)


@dataclass
class Branch:
    """A deleted branch, to put back (undo of a delete)."""

    parent: Node
    index: int
    node: Node


class GameTree:
    """The record as a tree, with a current node; see the module docstring."""

    def __init__(self, start: Game, root: Node | None = None, result: str | None = None) -> None:
        if start.moves:
            raise ValueError("the start of a game tree has no moves")
        self.start = start
        self.start.redo_stack = []
        self.info = replace(start.info)
        self.root = root or Node(comment=start.info.comment)
        self.current = self.root
        self.result = result  # RE: the main line's result, as last seen or as read

    # --- construction --------------------------------------------------------------------------
    @classmethod
    def from_game(cls, game: Game) -> GameTree:
        """A tree with one line: game's moves and its redo list; the current node is its position."""
        start = game.at(0)
        start.redo_stack = []
        start.info = replace(game.info, extra_result="")
        tree = cls(start, result=game.result)
        node = tree.root
        moves = list(game.moves) + list(reversed(game.redo_stack))
        for i, m in enumerate(moves):
            node = node.add(Node(m.color, m.point, m.comment))
            if i + 1 == len(game.moves):
                tree.current = node
        if not game.moves:
            tree.current = tree.root
        if game.info.extra_result and not game.redo_stack:
            tree.result = game.info.extra_result
        return tree

    # --- walking ----------------------------------------------------------------------------------
    def path(self, node: Node | None = None) -> list[Node]:
        """The nodes from the root to node (default the current one), both included."""
        node = self.current if node is None else node
        out = [node]
        while node.parent is not None:
            node = node.parent
            out.append(node)
        out.reverse()
        return out

    def continuation(self, node: Node | None = None) -> list[Node]:
        """The nodes after node (default the current one) along the active children."""
        node = self.current if node is None else node
        out = []
        while (node := node.next) is not None:
            out.append(node)
        return out

    def line(self) -> list[Node]:
        """The current line without the root: the path to the current node and its continuation."""
        return self.path()[1:] + self.continuation()

    def main_line(self) -> list[Node]:
        """The nodes of the main line (first children), the root left out."""
        out, node = [], self.root
        while node.children:
            node = node.children[0]
            out.append(node)
        return out

    def nodes(self) -> Iterator[Node]:
        """Every node, depth first (no recursion: a tree may be thousands deep)."""
        stack = [self.root]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))

    def __len__(self) -> int:
        return sum(1 for _ in self.nodes())

    def on_main_line(self, node: Node | None = None) -> bool:
        """Whether node (default the current one) lies on the main line."""
        return all(n.index() == 0 for n in self.path(node))

    def is_main_end(self, node: Node | None = None) -> bool:
        """Whether node (default the current one) is the last node of the main line."""
        node = self.current if node is None else node
        return not node.children and self.on_main_line(node)

    # --- the line as a game -------------------------------------------------------------------------
    def line_game(self) -> Game:
        """The current line as a Game: the moves up to the current node, the rest on its redo list."""
        g = self._play(self.path()[1:])
        g.redo_stack = [n.move for n in reversed(self.continuation())]
        if self.is_main_end():
            self._recorded_result(g)
        return g

    def main_line_game(self) -> Game:
        """The main line as a Game at its end (what the terminal and GTP follow)."""
        g = self._play(self.main_line())
        self._recorded_result(g)
        return g

    def _play(self, nodes: list[Node]) -> Game:
        g = self.start.copy()
        g.info = replace(self.info, comment=self.root.comment, extra_result="")
        for node in nodes:
            g.play(node.point, node.color, node.comment)
        return g

    def _recorded_result(self, game: Game) -> None:
        """At the main line's end: a recorded result the rules do not give (B+T, B+12.5) is kept."""
        result = self.result
        if result and not (game.over and game.result == result):
            upper = result.upper()
            if not (upper[:2] in ("B+", "W+") and upper[2:] in ("R", "RESIGN")):
                game.info.extra_result = result

    def sync(self, game: Game) -> None:
        """Adopt the game's moves (a new move becomes a variation), info and result; refill its redo list."""
        node = self.root
        for m in game.moves:
            child = node.child_for(m.color, m.point)
            if child is None:
                child = node.add(Node(m.color, m.point, m.comment))
            node.active = node.children.index(child)
            node = child
        self.current = node
        self.info = replace(game.info, comment=self.root.comment, extra_result="")
        extra = game.info.extra_result
        game.redo_stack = [n.move for n in reversed(self.continuation())]
        if self.is_main_end():
            self.result = game.result
        if extra:
            game.info.extra_result = extra

    def goto(self, game: Game, node: Node) -> None:
        """Make node current, changing game (the current line's game) by undoing and playing."""
        target = self.path(node)
        here = self.path()
        k = 0
        while k < min(len(target), len(here)) and target[k] is here[k]:
            k += 1
        while len(game.moves) > k - 1 and game.undo():
            pass
        for n in target[k:]:
            game.play(n.point, n.color, n.comment)
        for parent, child in zip(target, target[1:], strict=False):
            parent.active = parent.children.index(child)
        self.current = node
        game.info.extra_result = ""
        game.redo_stack = [n.move for n in reversed(self.continuation())]
        if self.is_main_end():
            self._recorded_result(game)

    # --- moving around ---------------------------------------------------------------------------
    def ahead(self, steps: int = 1) -> Node:
        """The node steps moves further along the current line (stops at its end)."""
        return self._walk(steps, lambda n: n.next)

    def back(self, steps: int = 1) -> Node:
        """The node steps moves back (stops at the root)."""
        return self._walk(steps, lambda n: n.parent)

    def _walk(self, steps: int, step: Callable[[Node], Node | None]) -> Node:
        node = self.current
        for _ in range(steps):
            nxt = step(node)
            if nxt is None:
                break
            node = nxt
        return node

    def end(self) -> Node:
        """The last node of the current line."""
        line = self.continuation()
        return line[-1] if line else self.current

    def sibling(self, delta: int) -> Node | None:
        """The node of the same move number in the next (delta=1) or previous (-1) variation.

        The switch happens at the nearest branching point at or above the current node;
        below it the new line follows its own active children down to the same move number
        (or as far as it goes). None when there is no other variation that way.
        """
        node = self.current
        depth = node.depth
        while node.parent is not None:
            siblings = node.parent.children
            i = siblings.index(node)
            if len(siblings) > 1:
                j = i + delta
                if not 0 <= j < len(siblings):
                    return None
                other = siblings[j]
                d = depth - node.depth
                while d > 0 and other.next is not None:
                    other = other.next
                    d -= 1
                return other
            node = node.parent
        return None

    def variations_here(self) -> list[Node]:
        """The moves that branch from the current node (its children, the main one first)."""
        return list(self.current.children)

    def promote(self, node: Node | None = None) -> bool:
        """Make the line through node (default the current one) the main line; False if it is already."""
        node = self.current if node is None else node
        changed = False
        while node.parent is not None:
            siblings = node.parent.children
            i = siblings.index(node)
            if i:
                siblings.insert(0, siblings.pop(i))
                changed = True
            node.parent.active = 0
            node = node.parent
        if changed:
            self.result = None  # RE described the old main line; sync gives the new one's at its end
        return changed

    def delete(self, node: Node | None = None) -> Branch:
        """Cut node (default the current one) and everything after it; the current node goes to its parent.

        Returns the :class:`Branch` that :meth:`restore` puts back. Raises ValueError for the root.
        """
        node = self.current if node is None else node
        parent = node.parent
        if parent is None:
            raise ValueError("the root of the record cannot be deleted")
        i = parent.children.index(node)
        if self.on_main_line(node):
            self.result = None  # the main line's end is gone with its result
        if any(n is node for n in self.path()):
            self.current = parent
        parent.children.pop(i)
        if parent.active >= i and parent.active:
            parent.active -= 1
        return Branch(parent, i, node)

    def restore(self, branch: Branch) -> None:
        """Put a deleted branch back where it was (the current node does not move)."""
        parent = branch.parent
        parent.children.insert(min(branch.index, len(parent.children)), branch.node)
        branch.node.parent = parent
        parent.active = parent.children.index(branch.node)

    # --- copies ---------------------------------------------------------------------------------
    def snapshot(self) -> GameTree:
        """An independent copy (for the autosave thread), its current node at the same place."""
        mapping: dict[int, Node] = {}
        stack: list[tuple[Node, Node | None]] = [(self.root, None)]
        root_copy: Node | None = None
        while stack:
            node, parent = stack.pop()
            c = Node(
                node.color,
                node.point,
                node.comment,
                node.name,
                {k: set(v) for k, v in node.marks.items()},
                dict(node.labels),
                {k: list(v) for k, v in node.extra.items()},
                [],
                parent,
                node.active,
            )
            mapping[id(node)] = c
            if parent is None:
                root_copy = c
            else:
                parent.children.append(c)
            stack.extend((child, c) for child in reversed(node.children))
        assert root_copy is not None
        tree = GameTree(self.start.copy(), root_copy, self.result)
        tree.info = replace(self.info)
        tree.current = mapping[id(self.current)]
        return tree


__all__ = ["Branch", "GameTree", "MARKS", "Node"]
