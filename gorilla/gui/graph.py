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

from gorilla.app.go.review import BLUNDER
from gorilla.gui.layout import GRAPH_TEXT
from gorilla.gui.toolbar import set_fitted, text_label
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
PLOT_BG = (28, 31, 36, 255)  # the plot, a shade darker than its box and the numbers' margins
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
    scores: bool = True  # False: no score lead (Gomoku: the win rate alone)
    blunder: float = BLUNDER  # what a blunder loses (red), in the unit of the mistakes
    unit: str = ""  # of the losses in the legend ("%" for Gomoku's win rate)

    def key(self) -> tuple:
        """Equal keys draw the same graph."""
        return (tuple(self.points), tuple(self.mistakes), self.current, self.total, self.running,
                round(self.fraction, 3), self.threshold, self.info, self.scores)  # fmt: skip


def graph_data(controller) -> GraphData | None:
    """The graph's data from the controller's game and review (a game whose analysis is no
    ``review`` gives its ``analysis_graph()``: the win rate alone); None without either."""
    game = controller.game
    rv = controller.review
    if rv is None:
        cv = controller.analysis_graph()
        if cv is None:
            return None
        pts = [(k, wr, 0.0) for k, wr in cv.points]
        return GraphData(pts, cv.mistakes, cv.current, cv.total, cv.running, cv.fraction, cv.threshold,
                         cv.info, scores=False, blunder=cv.blunder, unit="%")  # fmt: skip
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


AXIS_FONT = 8  # the axes' numbers, in the margins beside and below the plot
SCORE_STEPS = (5.0, 10.0, 20.0, 50.0, 100.0)  # the score lead's tick spacing: the first giving <= 2 a side
LEFT = 36  # the box's margin left of the plot: the win rate's numbers ("100%")
RIGHT = 30  # right of the plot: the score lead's numbers ("+20", "-100"); Gomoku's graph has none
RIGHT_NO_SCORE = 6
TOP = 7  # above the plot: half a number's height, so that the top one stays in the box
BOTTOM = 15  # below the plot: the move numbers
TITLE_FONT, KEY_FONT = 9, 8
TICKS_APART = 13  # pixels between two score ticks at least: their numbers' height
HINT = "g: analyse the game (win rate and score graph)"
HINT_SHORT = "g: analyse the game"


def score_span(points: list[tuple[int, float, float]]) -> float:
    """The score lead at the plot's top edge (and, negated, its bottom): 10 at least."""
    return max([10.0] + [abs(s) for _, _, s in points])


def score_step(span: float) -> float:
    """The distance between two score ticks: at most two ticks each side of the 50% line."""
    return next((st for st in SCORE_STEPS if span // st <= 2), SCORE_STEPS[-1])


def signed(value: float) -> str:
    """A score tick's number with its sign: '+5', and a true minus sign (U+2212, as wide as the plus)
    for '−5', since a hyphen at the axes' small size can vanish into the tick beside it."""
    return f"{value:+g}".replace("-", "\u2212")


def score_ticks(span: float, height: float, apart: float = TICKS_APART) -> list[float]:
    """The score lead's ticks as fractions of span (-1 at the plot's bottom, +1 at its top):
    every score_step(span) each side of 0, or only the outermost pair where a plot height
    pixels high puts them closer than apart pixels (their numbers would overlap)."""
    step = score_step(span)
    ticks = [k * step / span for k in range(1, int(span // step) + 1)]
    if ticks and 0.5 * height * ticks[0] < apart:
        ticks = ticks[-1:]
    return [sign * t for t in ticks for sign in (1, -1)]


def move_step(total: int) -> int:
    """The distance between two move-number ticks along the bottom: about five ticks."""
    for st in (1, 2, 5, 10, 20, 25, 50, 100):
        if total / st <= 5:
            return st
    return 100


def plot_rect(box: tuple[int, int, int, int], scores: bool = True) -> tuple[int, int, int, int]:
    """The plot inside the graph's box (x, y, width, height): the box less the margins where the
    axes' numbers go, so that no curve is ever drawn over a number."""
    x, y, w, h = box
    right = RIGHT if scores else RIGHT_NO_SCORE
    return x + LEFT, y + BOTTOM, max(1, w - LEFT - right), max(1, h - TOP - BOTTOM)


class Graph:
    """The win-rate and score graph widget; ``layout``, ``update``, ``hit``, ``draw``.

    The plot: Black's win rate (blue, 0% at the bottom, 100% at the top, the 50% line across)
    and Black's score lead (orange, 0 on the 50% line), the move numbers below it, the win
    rate's numbers left of it and the score lead's ticks and numbers right of it (in the box's
    margins: the curves stay in the plot), the current move as a white line with its values,
    moves that lost the threshold or more as red lines; the legend above it, and above the
    legend the current move's analysis (while analysing, the progress first).
    """

    def __init__(self) -> None:
        self.batch = pyglet.graphics.Batch()
        self.bg_group = pyglet.graphics.Group(order=0)
        self.fg_group = pyglet.graphics.Group(order=1)
        self.text_group = pyglet.graphics.Group(order=2)  # the numbers over everything
        self.bg = shapes.Rectangle(0, 0, 10, 10, color=BG, batch=self.batch, group=self.bg_group)
        self.plot_bg = shapes.Rectangle(0, 0, 10, 10, color=PLOT_BG, batch=self.batch, group=self.bg_group)
        self.title = text_label(self.batch, self.text_group, TITLE_FONT, LABEL, text="")
        self.info = text_label(self.batch, self.text_group, 9, CURRENT, 300, font=MONO)
        self.keys = [  # the legend: a swatch and a word per curve
            (shapes.Rectangle(0, 0, 12, 3, color=colour, batch=self.batch, group=self.fg_group),
             text_label(self.batch, self.text_group, KEY_FONT, LABEL, text=word))
            for colour, word in ((WINRATE, "win rate"), (SCORE, "score lead"), (MISTAKE, "lost"))
        ]  # fmt: skip
        self.shapes: list = []
        self.box = (0, 0, 10, 10)
        self.rect = (0, 0, 10, 10)  # the plot
        self.total = 0
        self.legend_right = 0.0  # where the legend's row ends (tests)
        self.empty = True  # nothing analysed: the hint alone, on the box's bottom line
        self._key: tuple | None = None

    def layout(self, x: int, y: int, width: int, height: int) -> None:
        """Place the graph's box at (x, y), width x height pixels (its text goes above)."""
        self.box = (x, y, width, height)
        self.bg.position = (x, y)
        self.bg.width, self.bg.height = width, height
        self.title.position = (x, y + height + 6, 0)
        self.info.position = (x, y + height + 50, 0)
        self.info.width = width
        self.rect = plot_rect(self.box)
        self._key = None

    @property
    def top(self) -> float:
        """The height above which the graph draws nothing: the top of its text (the hint's
        line alone while nothing is analysed)."""
        bx, by, bw, bh = self.box
        return by + 20 if self.empty else by + bh + GRAPH_TEXT

    def hit(self, x: float, y: float) -> int | None:
        """The move number under window pixel (x, y), or None when it is off the graph or empty."""
        bx, by, bw, bh = self.box
        gx, _, w, _ = self.rect
        if self.total <= 0 or not (bx <= x <= bx + bw and by <= y <= by + bh):
            return None
        return max(0, min(self.total, round((x - gx) / w * self.total)))

    def update(self, data: GraphData) -> None:
        """Rebuild the shapes if data changed."""
        key = data.key()
        if key == self._key:
            return
        self._key = key
        self.total = data.total
        self.empty = not data.points and not data.running
        self.bg.visible = self.plot_bg.visible = not self.empty
        self.rect = plot_rect(self.box, data.scores)
        gx, gy, w, h = self.rect
        self.plot_bg.position, self.plot_bg.width, self.plot_bg.height = (gx, gy), w, h
        for old in self.shapes:
            old.delete()  # a label stays in the batch until deleted
        self.shapes = [] if self.empty else self._axes(data) + self._curves(data)
        self._legend(data)
        info = data.info
        if data.running:  # the progress first, then the current move's first line
            info = "\n".join([f"Analysing... {100 * data.fraction:.0f}%  (g cancels)", *info.split("\n")[:1]])
        set_fitted(self.info, info)

    # --- the parts --------------------------------------------------------------------------------
    def _px(self, k: float, total: int) -> float:
        gx, _, w, _ = self.rect
        return gx + w * k / max(1, total)

    def _py(self, frac: float) -> float:
        _, gy, _, h = self.rect
        return gy + h * min(1.0, max(0.0, frac))

    def _text(self, x: float, y: float, text: str, colour: tuple, anchor_x: str, anchor_y: str):
        lab = text_label(self.batch, self.text_group, AXIS_FONT, colour, text=text)
        lab.anchor_x, lab.anchor_y = anchor_x, anchor_y
        lab.position = (round(x), round(y), 0)  # whole pixels: a thin stroke (a minus) is not smeared away
        return lab

    def _axes(self, data: GraphData) -> list:
        """The 50% line, the win rate's numbers (left of the plot), the score's ticks and
        numbers (right of it), the move numbers (below it)."""
        gx, gy, w, h = self.rect
        b, g = self.batch, self.fg_group
        out: list = [
            shapes.Line(gx, self._py(0.5), gx + w, self._py(0.5), thickness=1, color=GRID, batch=b, group=g)
        ]
        if not data.points:
            return out
        ends = ((1.0, "100%"), (0.5, "50%"), (0.0, "0%"))
        out += [self._text(gx - 3, self._py(f), t, WINRATE, "right", "center") for f, t in ends]
        for tick in score_ticks(score_span(data.points), h) if data.scores else []:  # none for Gomoku
            y = self._py(0.5 + 0.5 * tick)
            out.append(shapes.Line(gx + w, y, gx + w + 4, y, thickness=1, color=SCORE, batch=b, group=g))
            out.append(
                self._text(gx + w + 6, y, signed(tick * score_span(data.points)), SCORE, "left", "center")
            )
        mstep = move_step(data.total)
        for m in range(mstep, data.total, mstep):
            x = self._px(m, data.total)
            out.append(shapes.Line(x, gy, x, gy + 3, thickness=1, color=LABEL, batch=b, group=g))
            out.append(self._text(x, gy - 1, str(m), LABEL, "center", "top"))
        return out

    def _curves(self, data: GraphData) -> list:
        """The mistakes, the two curves, the current move, the progress bar."""
        gx, gy, w, h = self.rect
        b, g = self.batch, self.fg_group
        n = data.total
        out: list = []
        span = score_span(data.points)
        for number, lost in data.mistakes:
            x = self._px(number, n)
            colour = BLUNDER_C if lost >= data.blunder else MISTAKE
            out.append(shapes.Line(x, gy, x, gy + h, thickness=2, color=colour, batch=b, group=g))
        pts = sorted(data.points)
        for (k0, w0, s0), (k1, w1, s1) in zip(pts, pts[1:], strict=False):
            if k1 != k0 + 1:
                continue  # a gap: positions not analysed yet
            x0, x1 = self._px(k0, n), self._px(k1, n)
            if data.scores:
                y0, y1 = self._py(0.5 + 0.5 * s0 / span), self._py(0.5 + 0.5 * s1 / span)
                out.append(shapes.Line(x0, y0, x1, y1, thickness=2, color=SCORE, batch=b, group=g))
            out.append(
                shapes.Line(x0, self._py(w0), x1, self._py(w1), thickness=2, color=WINRATE, batch=b, group=g)
            )
        if len(pts) == 1:
            k, wr, _ = pts[0]
            out.append(shapes.Circle(self._px(k, n), self._py(wr), 2, color=WINRATE, batch=b, group=g))
        if n > 0:
            x = self._px(data.current, n)
            out.append(shapes.Line(x, gy, x, gy + h, thickness=1, color=CURRENT, batch=b, group=g))
            here = next((p for p in pts if p[0] == data.current), None)
            if here is not None:  # the current move's values as dots on the curves
                out.append(shapes.Circle(x, self._py(here[1]), 3, color=WINRATE, batch=b, group=g))
            if here is not None and data.scores:
                out.append(
                    shapes.Circle(x, self._py(0.5 + 0.5 * here[2] / span), 3, color=SCORE, batch=b, group=g)
                )
        if data.running:
            out.append(shapes.Rectangle(gx, gy, w * data.fraction, 3, color=WINRATE, batch=b, group=g))
        return out

    def _legend(self, data: GraphData) -> None:
        """The row above the box: the legend's swatches and words when there are curves (its
        words smaller where they would not fit the box's width), else the hint."""
        bx, by, bw, bh = self.box
        shown = [(r, wd) for r, wd in self.keys if data.points and (data.scores or wd is not self.keys[1][1])]
        for rect, word in self.keys:
            rect.visible = word.visible = (rect, word) in shown
        self.keys[2][1].text = f"lost {data.threshold:g}{data.unit}+"
        title = "Black:" if data.points or data.running else (HINT if data.scores else HINT_SHORT)
        self.title.y = by + 4 if self.empty else by + bh + 6  # the hint alone: low, the text has the room
        for size in (TITLE_FONT, TITLE_FONT - 1, TITLE_FONT - 2):
            self.title.font_size = size
            self.title.text = title
            if title.startswith("g:") and self.title.content_width > bw:
                self.title.text = HINT_SHORT
            for _, word in self.keys:
                word.font_size = min(KEY_FONT, size)
            x = bx + self.title.content_width + 8
            for rect, word in shown:
                rect.position = (x, by + bh + 9)
                word.position = (x + 15, by + bh + 6, 0)
                x += 15 + word.content_width + 10
            if x - 10 <= bx + bw:
                break
        self.legend_right = x - 10 if shown else bx + self.title.content_width

    def draw(self) -> None:
        """Draw the graph."""
        self.batch.draw()
