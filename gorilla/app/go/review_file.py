"""The review kept in the record: each analysed position's values written into its SGF node in
forms other programs read, and read back so that a loaded record shows its review at once.

A node's properties describe the position after its move (the root's: the start), as Sabaki
writes them when it analyses a node:

- ``SBKV``: Black's win rate in percent (0-100), two decimals (Sabaki's win-rate graph);
- ``SBKS``: Black's score lead in points, two decimals (Sabaki's score-lead graph);
- ``GOTOP``: Gorilla's own: the search's first candidates, best first, as GTP vertices
  separated by spaces (``D4 Q16 pass``): the report's top-1 / top-5 match and the best move;
- ``GOPV``: Gorilla's own: the best move's line, as GTP vertices.

Reading back (:func:`read_values`) gives the review's :class:`gorilla.app.go.review.PositionEval`
for every node that has ``SBKV`` and ``SBKS`` (``GOTOP`` and ``GOPV`` when there), keyed as the
review keys its results (:func:`gorilla.app.go.review.line_keys`), so the graph, the dots, ``n``
and the report show without a search, and ``g`` analyses only the positions without values.
A value read back is a root value, and a move's points lost is the fall of the mover's score
lead, the net's rule (a review made by the classical MCTS, boards over 19x19 or Little-Go,
measured some moves against the position after its best move instead: read back, those moves
may show other points lost); the position after two passes is the game's end, valued by its
result as the review values it (the pass that ends the game loses nothing by the count). A
value that is not a number is left out (the node keeps it as read); nothing else changes.

:func:`annotate` writes a review into a record about to be saved (Ctrl+S, the autosave,
``gorilla analyze -o``): the values of every analysed node, every variation included, and the
report of the main line in the root comment (:func:`gorilla.app.go.report.with_report`: it
replaces the report a comment holds), computed from the values as written, so that the record
read back gives the same report.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from gorilla.app.go import report as rp
from gorilla.app.go.review import Key, MoveReview, PositionEval, child_key, line_keys, move_review
from gorilla.app.go.reviewer import Review
from gorilla.rules.board import BLACK, PASS, RESIGN, WHITE
from gorilla.rules.coords import format_vertex, parse_vertex
from gorilla.rules.gametree import GameTree, Node

WINRATE, SCORE, TOP, PV = "SBKV", "SBKS", "GOTOP", "GOPV"
PROPERTIES = (WINRATE, SCORE, TOP, PV)
PV_KEPT = 10  # moves of the best line written
NO_MOVE = RESIGN - 1  # the best move of a position whose record names none


def tree_keys(tree: GameTree) -> Iterator[tuple[Node, Key]]:
    """Every node of the record with the review's key of its position, depth first (a
    resignation, which is no position, left out)."""
    stack = [(tree.root, line_keys(tree.start)[0])]
    while stack:
        node, key = stack.pop()
        yield node, key
        for child in reversed(node.children):
            if child.point != RESIGN:
                stack.append((child, child_key(key, child.color, child.point)))


def _vertices(points: list[int], size: int) -> bytes:
    return " ".join(format_vertex(p, size) for p in points).encode()


def position_properties(ev: PositionEval, size: int) -> dict[str, list[bytes]]:
    """The SGF properties of one analysed position (see the module docstring)."""
    props = {
        WINRATE: [f"{100.0 * ev.winrate:.2f}".encode()],
        SCORE: [f"{ev.score:.2f}".encode()],
    }
    top = ev.top or ([ev.best] if ev.best >= PASS else [])
    if top:
        props[TOP] = [_vertices(top, size)]
    pv = list(ev.pv or [])[:PV_KEPT]
    if pv:
        props[PV] = [_vertices(pv, size)]
    return props


def _number(extra: dict[str, list[bytes]], ident: str) -> float | None:
    values = extra.get(ident)
    if not values:
        return None
    try:
        x = float(values[0].decode("utf-8", "replace").strip())
    except ValueError:
        return None
    return x if math.isfinite(x) else None


def _points(extra: dict[str, list[bytes]], ident: str, size: int) -> list[int]:
    values = extra.get(ident)
    if not values:
        return []
    try:
        return [parse_vertex(v, size) for v in values[0].decode("utf-8", "replace").split()]
    except ValueError:
        return []


def position_of(extra: dict[str, list[bytes]], size: int, to_move: int) -> PositionEval | None:
    """The analysed position a node's properties give, or None without a numeric SBKV and SBKS."""
    winrate, score = _number(extra, WINRATE), _number(extra, SCORE)
    if winrate is None or score is None:
        return None
    top = _points(extra, TOP, size)
    pv = _points(extra, PV, size)
    best = top[0] if top else pv[0] if pv else NO_MOVE
    if not pv and best != NO_MOVE:
        pv = [best]
    wr = min(1.0, max(0.0, winrate / 100.0))
    return PositionEval(wr, score, best, pv, to_move, root=True, top=top)


def _to_move(tree: GameTree, node: Node) -> int:
    if node.parent is None:
        return tree.start.to_move
    return WHITE if node.color == BLACK else BLACK


def _ends(node: Node) -> bool:
    """Whether node's move ends the game: a pass after a pass (its values are the result's)."""
    parent = node.parent
    return node.point == PASS and parent is not None and parent.parent is not None and parent.point == PASS


def read_values(tree: GameTree) -> dict[Key, PositionEval]:
    """Every analysed position a record holds, keyed as the review keys them (a position after
    two passes is the game's end: ``final``, as the review values it)."""
    size = tree.start.size
    out = {}
    for node, key in tree_keys(tree):
        if WINRATE in node.extra:
            ev = position_of(node.extra, size, _to_move(tree, node))
            if ev is not None:
                ev.final = _ends(node)
                out[key] = ev
    return out


def write_values(tree: GameTree, cache: dict[Key, PositionEval]) -> int:
    """Write each analysed position of cache into its node of tree; the number written."""
    size = tree.start.size
    written = 0
    for node, key in tree_keys(tree):
        ev = cache.get(key)
        if ev is not None:
            node.extra.update(position_properties(ev, size))
            written += 1
    return written


def main_line_reviews(tree: GameTree, cache: dict[Key, PositionEval]) -> tuple[list[MoveReview], list]:
    """The reviews of the record's main line from cache (as :func:`gorilla.app.go.review.reviews`
    gives a line's), and its positions (analysed or None)."""
    key = line_keys(tree.start)[0]
    keys, moves = [key], []
    for node in tree.main_line():
        if node.point == RESIGN:
            break
        key = child_key(key, node.color, node.point)
        keys.append(key)
        moves.append((node.color, node.point))
    positions = [cache.get(k) for k in keys]
    revs = []
    for i, (color, point) in enumerate(moves):
        before, after = positions[i], positions[i + 1]
        if before is None or after is None:
            continue
        best = cache.get(child_key(keys[i], color, before.best))
        revs.append(move_review(i + 1, color, point, before, after, best))
    return revs, positions


def annotate(tree: GameTree, cache: dict[Key, PositionEval], names: dict[int, str] | None = None) -> int:
    """Write a review into a record about to be saved: every analysed node's values, and the
    main line's report in the root comment (when a move of it is analysed), the report of the
    values as written (what a program reading the record back finds); the number of nodes
    written."""
    written = write_values(tree, cache)
    revs, positions = main_line_reviews(tree, read_values(tree))
    if revs:
        rep = rp.game_report(revs, positions, tree.start.size)
        tree.root.comment = rp.with_report(tree.root.comment, rp.report_table(rep, names))
    return written


def adopt(review: Review, tree: GameTree) -> int:
    """Put a loaded record's values into the window's review (the dots shown when there are
    any); the number of positions read."""
    values = read_values(tree)
    if values:
        review.cache.update(values)
        review.show_dots = True
        review.version += 1
    return len(values)
