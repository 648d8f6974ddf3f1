"""The window's rectangles for a window size, as plain numbers (no pyglet): the board's view on
the left, the side panel on the right (narrower in a small window, so that the board keeps most
of it), the toolbar, the analysis graph and the game tree's box.

The window never gets smaller than :data:`MIN_WIDTH` x :data:`MIN_HEIGHT` (pyglet's
``set_minimum_size``, as Sabaki's and KaTrain's windows have a minimum size); below it (a window
manager that ignores the hint) the panel takes at most half the width and the graph is dropped
where it would cover the players. Rectangles are (x, y, width, height) in window pixels, y up.
"""

from __future__ import annotations

from dataclasses import dataclass

from gorilla.gui.camera import PANEL_WIDTH

MIN_WIDTH, MIN_HEIGHT = 640, 480
PANEL_MAX = PANEL_WIDTH  # the panel in a window of 1000 pixels or more
PANEL_MIN = 270  # the narrowest panel: four toolbar captions still fit a row
PANEL_SHARE = 0.4  # of the window's width, between the two (800 pixels wide: 320)
PAD = 16  # the panel's inner margin
TOOLBAR_BOTTOM = 30  # above the footer line
GRAPH_GAP = 14  # between the toolbar and the graph
GRAPH_TEXT = 58  # above the plot: the current move's two lines and the legend
GRAPH_MAX, GRAPH_MIN = 90, 56  # the plot's height
PANEL_TEXT_TOP = 142  # from the window's top: where the game's text starts, below the players
TREE_MAX = 150  # the game tree's box, at most


@dataclass(frozen=True)
class Layout:
    """Where each part of the window goes (see the module docstring)."""

    width: int
    height: int
    panel_x: int  # the panel's left edge
    panel_w: int
    view: tuple[int, int, int, int]  # the board's 3D view
    toolbar: tuple[int, int, int]  # its left edge, its top, its width
    graph: tuple[int, int, int, int] | None  # the graph's plot (its text above it); None: no room
    text_bottom: int  # the panel's text ends above this (the graph's text, else the toolbar)
    tree: tuple[int, int, int, int]  # the game tree's box, at the bottom of the view

    @property
    def text_width(self) -> int:
        """The width of the panel's text."""
        return self.panel_w - 2 * PAD


def panel_width(width: int) -> int:
    """The side panel's width in a window width pixels wide: a third of it between PANEL_MIN
    and PANEL_MAX, at most half of a window narrower than the minimum."""
    return max(1, min(PANEL_MAX, max(PANEL_MIN, round(PANEL_SHARE * width)), width // 2))


def graph_height(height: int) -> int:
    """The analysis plot's height in a window height pixels high (lower in a low window)."""
    return max(GRAPH_MIN, min(GRAPH_MAX, (height - 360) // 2))


def window_layout(width: int, height: int, toolbar_height: int) -> Layout:
    """The layout of a width x height window whose toolbar is toolbar_height pixels high."""
    width, height = max(1, width), max(1, height)
    pw = panel_width(width)
    x0 = width - pw
    toolbar_top = TOOLBAR_BOTTOM + toolbar_height
    gy = toolbar_top + GRAPH_GAP
    gh = graph_height(height)
    # the graph only where its text stays below the players and a line of the game's text
    room = height - PANEL_TEXT_TOP - 20 - (gy + gh + GRAPH_TEXT)
    graph = (x0 + PAD, gy, pw - 2 * PAD, gh) if room >= 0 else None
    text_bottom = gy + gh + GRAPH_TEXT if graph is not None else toolbar_top + 8
    view_w = max(1, x0)
    tree = (10, 10, max(40, view_w - 20), min(TREE_MAX, max(40, height // 4)))
    return Layout(
        width, height, x0, pw, (0, 0, view_w, height), (x0 + PAD, toolbar_top, pw - 2 * PAD), graph,
        text_bottom, tree,
    )  # fmt: skip
