"""The panel's analysis graph: Black's win rate and score lead over the move number, with
pyglet shapes (the same GL layer as the panel); mistakes marked, the current move marked,
the analysis progress as a bar; a click on it names a move number.

Plain data in (:func:`graph_data` reads the controller), shapes out: the graph
rebuilds its shapes only when what it shows changed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pyglet
from pyglet import shapes

from gorilla.app.review import BLUNDER
from gorilla.gui.toolbar import text_label
from gorilla.rules.board import BLACK
from gorilla.rules.coords import format_vertex

BG = (34, 38, 44, 255)
GRID = (70, 76, 86, 255)
WINRATE = (88, 166, 255, 255)
SCORE = (255, 170, 60, 255)
MISTAKE = (255, 120, 90, 255)
BLUNDER_C = (255, 60, 50, 255)
CURRENT = (235, 235, 235, 255)
LABEL = (150, 156, 164, 255)
MONO = ["DejaVu Sans Mono", "Courier New", "Courier"]


@dataclass
class GraphData:
    """What the graph shows: per analysed position (move number, Black's win rate, Black's lead),
    the mistakes (move number, points lost), the current move, the line's length, progress."""

    points: list[tuple[int, float, float]] = field(default_factory=list)
    mistakes: list[tuple[int, float]] = field(default_factory=list)
    current: int = 0
    total: int = 0
    running: bool = False
    fraction: float = 0.0
    threshold: float = 3.0
    info: str = ""  # the current move's analysis, one line

    def key(self) -> tuple:
        """Equal keys draw the same graph."""
        return (tuple(self.points), tuple(self.mistakes), self.current, self.total, self.running,
                round(self.fraction, 3), self.threshold, self.info)  # fmt: skip


def graph_data(controller) -> GraphData:
    """The graph's data from the controller's game and review."""
    game = controller.game
    rv = controller.review
    evs = rv.positions(game)
    pts = [(k, e.winrate, e.score) for k, e in enumerate(evs) if e is not None]
    revs = rv.reviews(game)
    mistakes = [(r.number, r.points_lost) for r in revs if r.points_lost >= rv.threshold]
    n = len(game.moves)
    info = ""
    here = next((r for r in revs if r.number == n), None)
    if here is not None:
        who = "B" if here.color == BLACK else "W"
        pv = " ".join(format_vertex(p, game.size) for p in here.pv[:6])
        info = (
            f"{n}. {who} {format_vertex(here.move, game.size)} lost {here.points_lost:.1f}"
            f"  Black {100 * here.winrate_after:.0f}% {here.score_after:+.1f}\nbest {pv}"
        )
    elif n < len(evs) and evs[n] is not None:
        e = evs[n]
        pv = " ".join(format_vertex(p, game.size) for p in e.pv[:6])
        info = f"Black {100 * e.winrate:.0f}% {e.score:+.1f}\nbest {pv}"
    return GraphData(pts, mistakes, n, len(evs) - 1, rv.running, rv.fraction, rv.threshold, info)


class Graph:
    """The win-rate and score graph widget; ``layout``, ``update``, ``hit``, ``draw``."""

    def __init__(self) -> None:
        self.batch = pyglet.graphics.Batch()
        self.bg_group = pyglet.graphics.Group(order=0)
        self.fg_group = pyglet.graphics.Group(order=1)
        self.bg = shapes.Rectangle(0, 0, 10, 10, color=BG, batch=self.batch, group=self.bg_group)
        self.title = text_label(self.batch, self.fg_group, 9, LABEL, text="")
        self.info = text_label(self.batch, self.fg_group, 9, CURRENT, 300, font=MONO)
        self.shapes: list = []
        self.rect = (0, 0, 10, 10)
        self.total = 0
        self._key: tuple | None = None

    def layout(self, x: int, y: int, width: int, height: int) -> None:
        """Place the graph's plot area at (x, y), width x height pixels (the title goes above)."""
        self.rect = (x, y, width, height)
        self.bg.position = (x, y)
        self.bg.width, self.bg.height = width, height
        self.title.position = (x, y + height + 6, 0)
        self.info.position = (x, y + height + 50, 0)
        self.info.width = width
        self._key = None

    def hit(self, x: float, y: float) -> int | None:
        """The move number under window pixel (x, y), or None when it is off the graph or empty."""
        gx, gy, w, h = self.rect
        if self.total <= 0 or not (gx <= x <= gx + w and gy <= y <= gy + h):
            return None
        return max(0, min(self.total, round((x - gx) / w * self.total)))

    def update(self, data: GraphData) -> None:
        """Rebuild the shapes if data changed."""
        key = data.key()
        if key == self._key:
            return
        self._key = key
        self.total = data.total
        gx, gy, w, h = self.rect
        b, g = self.batch, self.fg_group
        out: list = []
        n = max(1, data.total)

        def px(k: float) -> float:
            return gx + w * k / n

        def py(frac: float) -> float:
            return gy + h * min(1.0, max(0.0, frac))

        out.append(shapes.Line(gx, py(0.5), gx + w, py(0.5), thickness=1, color=GRID, batch=b, group=g))
        span = max([10.0] + [abs(s) for _, _, s in data.points])
        for number, lost in data.mistakes:
            out.append(
                shapes.Line(px(number), gy, px(number), gy + h, thickness=2,
                            color=BLUNDER_C if lost >= BLUNDER else MISTAKE, batch=b, group=g)
            )  # fmt: skip
        pts = sorted(data.points)
        for (k0, w0, s0), (k1, w1, s1) in zip(pts, pts[1:], strict=False):
            if k1 != k0 + 1:
                continue  # a gap: positions not analysed yet
            out.append(shapes.Line(px(k0), py(0.5 + 0.5 * s0 / span), px(k1), py(0.5 + 0.5 * s1 / span),
                                   thickness=2, color=SCORE, batch=b, group=g))  # fmt: skip
            out.append(
                shapes.Line(px(k0), py(w0), px(k1), py(w1), thickness=2, color=WINRATE, batch=b, group=g)
            )
        if len(pts) == 1:
            k, wr, _ = pts[0]
            out.append(shapes.Circle(px(k), py(wr), 2, color=WINRATE, batch=b, group=g))
        if data.total > 0:
            x = px(data.current)
            out.append(shapes.Line(x, gy, x, gy + h, thickness=1, color=CURRENT, batch=b, group=g))
        if data.running:
            out.append(shapes.Rectangle(gx, gy, w * data.fraction, 3, color=WINRATE, batch=b, group=g))
        self.shapes = out
        if data.running:
            title = f"Analysing... {100 * data.fraction:.0f}%  (g cancels)"
        elif data.points:
            title = f"Black: win rate (blue), score (orange); {data.threshold:g}+ lost: red"
        else:
            title = "g: analyse the game (win rate and score graph)"
        if self.title.text != title:
            self.title.text = title
        if self.info.text != data.info:
            self.info.text = data.info

    def draw(self) -> None:
        """Draw the graph."""
        self.batch.draw()
