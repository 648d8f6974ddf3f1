"""The game tree laid out on a grid for the window's tree view (Sabaki's and KaTrain's move tree).

Each node of a :class:`gorilla.rules.gametree.GameTree` gets a column (its move number) and a
row: a node's first child (its main variation) stays on the node's row, every other child
starts the nearest row below that is free from the parent's column on, so that a branch
never runs over another. Plain data, no pyglet; iterative, so a long game needs no deep
recursion.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass
class Place:
    """Where a node stands: its column (move number) and row, and its parent's place."""

    node: Any  # gorilla.rules.gametree.Node
    col: int
    row: int
    parent_col: int = -1  # -1: the root
    parent_row: int = -1


def _free_row(rows_end: list[int], below: int, col: int) -> int:
    """The first row under below with nothing at col or to its right (a new row if none)."""
    r = below + 1
    while r < len(rows_end) and rows_end[r] >= col:
        r += 1
    if r == len(rows_end):
        rows_end.append(-1)
    return r


def layout_tree(root: Any) -> list[Place]:
    """Every node's place, the root first, in depth-first order (main variations first)."""
    rows_end: list[int] = [-1]  # per row: the last column used
    out: list[Place] = []
    stack: list[tuple[Any, int, int, int]] = [(root, 0, -1, -1)]  # node, its index, parent col, row
    while stack:
        node, index, pcol, prow = stack.pop()
        col = pcol + 1
        row = max(prow, 0) if index == 0 else _free_row(rows_end, prow, pcol)
        rows_end[row] = max(rows_end[row], col)
        out.append(Place(node, col, row, pcol, prow))
        for i in range(len(node.children) - 1, -1, -1):  # the first child is popped first
            stack.append((node.children[i], i, col, row))
    return out


__all__ = ["Place", "layout_tree"]
