"""Go's record as SGF text: a game or the whole tree written (with the clock's TM/OT/BL/WL), a game
or a tree read back (a one-line reason where it cannot be), and the line on show, which the
autosave names in the root (``GORILLALINE``) so that a resume goes on at its end."""

from __future__ import annotations

from gorilla.rules import sgf
from gorilla.rules.game import Game
from gorilla.rules.gametree import GameTree


def game_to_sgf(game: Game | GameTree, timing: sgf.Timing | None = None) -> str:
    """The game (or the whole record, variations included) as SGF text, with the clock's
    TM/OT/BL/WL when timing is given."""
    if isinstance(game, GameTree):
        return sgf.save_tree(game, timing)
    return sgf.save_sgf(game, timing)


def game_from_sgf(text: str) -> Game:
    """A game read from SGF text (its main line); raises ValueError with a one-line reason."""
    return sgf.parse_sgf(text)


def tree_from_sgf(text: str) -> GameTree:
    """The whole record read from SGF text, its current node the main line's end (an autosave's:
    the end of the line that was on show, :func:`follow_line`); raises ValueError (SgfError)
    with a one-line reason, nothing half-read."""
    return follow_line(sgf.parse_sgf_tree(text))


LINE = "GORILLALINE"  # the autosave's own root property: where the line on show leaves the main line


def mark_line(tree: GameTree) -> None:
    """Write into tree's root (the autosave's snapshot: the tree keeps its own order) which
    variation the line on show takes where it is not the first: ``LINE[12:1 40:2]`` (move 12 is
    the parent's second child, ...); nothing on the main line."""
    turns = [f"{depth}:{node.index()}" for depth, node in enumerate(tree.line(), 1) if node.index()]
    if turns:
        tree.root.extra[LINE] = [" ".join(turns).encode()]
    else:
        tree.root.extra.pop(LINE, None)


def follow_line(tree: GameTree) -> GameTree:
    """Take :data:`LINE` out of a read tree's root and make the end of the line it names the
    current node (a damaged value: as far as it goes); the tree itself, for chaining."""
    raw = tree.root.extra.pop(LINE, None)
    if not raw:
        return tree
    turns: dict[int, int] = {}
    for item in raw[0].decode("utf-8", "replace").split():
        depth, _, index = item.partition(":")
        if depth.isdigit() and index.isdigit():
            turns[int(depth)] = int(index)
    node, depth = tree.root, 0
    while node.children:
        depth += 1
        i = turns.get(depth, 0)
        node.active = i if i < len(node.children) else 0
        node = node.children[node.active]
    tree.current = node
    return tree
