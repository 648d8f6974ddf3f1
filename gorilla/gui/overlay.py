"""What the overlays show, as plain arrays: the control-map colour field, the evaluation heat map
and the live MCTS view. No OpenGL: the renderer only uploads what these functions return.

Marker rows are float32 ``(x, y, z, radius, r, g, b, a, shape)``; shapes are those of
``assets/shaders/marker.frag`` (0 disc, 1 ring, 2 square outline, 3 cross, 4 shadow,
5 filled square, 6 thick ring).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import NamedTuple

import numpy as np

from gorilla.app.go.report import CLASS_COLORS, move_class
from gorilla.gui.camera import board_to_world
from gorilla.gui.meshes import colour_field
from gorilla.rules.coords import GTP_LETTERS, format_vertex, to_xy

DISC, RING, SQUARE, CROSS, SHADOW, FILLED_SQUARE, THICK_RING = range(7)
MARKER_WIDTH = 9

# control map: Black's area darkens the wood, White's lightens it (-1 Black .. +1 White)
CONTROL_BLACK = (0.03, 0.03, 0.06)
CONTROL_WHITE = (1.0, 1.0, 1.0)
# the tiles' opacity at full control: White's light tiles stronger, the wood being light itself,
# so that both stand out from it about as much
CONTROL_ALPHA = (0.68, 0.92)
BEST_RING = (0.15, 0.55, 1.0, 0.95)


def control_field(values: np.ndarray) -> np.ndarray:
    """The control map as an RGBA texture (bottom row first): dark for Black, light for White."""
    return colour_field(values, CONTROL_BLACK, CONTROL_WHITE, max_alpha=CONTROL_ALPHA)


def marker(point: int, size: int, y: float, radius: float, rgba: Iterable[float], shape: int) -> list[float]:
    """One marker row (see the module docstring) on point, at height y, radius in grid spacings."""
    x, row = to_xy(point, size)
    wx, wz = board_to_world(x, row, size)
    return [wx, y, wz, radius, *rgba, float(shape)]


def ramp(t: float) -> tuple[float, float, float]:
    """Red (0) through amber (0.5) to green (1): bad to good."""
    t = min(1.0, max(0.0, t))
    if t < 0.5:
        u = t / 0.5
        return (0.86, 0.18 + 0.52 * u, 0.14)
    u = (t - 0.5) / 0.5
    return (0.86 - 0.66 * u, 0.70 + 0.10 * u, 0.14 + 0.16 * u)


LABELLED = 6  # moves labelled on the board: the best and the five next
LABEL_DISC = 0.46  # a labelled move's disc (in grid spacings): room for its number
LABEL_ROOM = 0.42  # the radius its number must fit in: inside its disc ...
BEST_RADIUS = 0.52  # the best move's ring (a thin ring, drawn round its disc) ...
BEST_ROOM = 0.40  # ... and inside the ring
DOT_MIN, DOT_RANGE = 0.12, 0.14  # an unlabelled move's dot: its radius, growing with its value
WOOD = (0.80, 0.65, 0.42)  # the wood under a disc, about (the lit surface's mean colour)
DARK_INK = (20, 20, 20, 255)
LIGHT_INK = (255, 255, 255, 255)


class BoardLabel(NamedTuple):
    """A number on a disc of the board: the texts it may show, the longest first (the window
    shows the first that fits the disc at a readable size, or none), its ink, the radius (in
    grid spacings) it must fit in, and whether it is the ringed best's (which keeps its number
    a point smaller where the others' would go)."""

    point: int
    texts: tuple[str, ...]
    ink: tuple[int, int, int, int]
    room: float = LABEL_ROOM
    best: bool = False


def luminance(rgb: Iterable[float]) -> float:
    """The relative luminance of an sRGB colour (components 0..1), as WCAG defines it."""
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: Iterable[float], b: Iterable[float]) -> float:
    """WCAG's contrast ratio of two colours (1 to 21)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def label_ink(disc: Iterable[float], alpha: float = 1.0, under: Iterable[float] = WOOD) -> tuple:
    """The ink of a number on a disc of colour disc drawn with alpha over under: dark on a light
    disc, white on a dark one, whichever contrasts more (as KaTrain writes on its discs)."""
    seen = [alpha * c + (1.0 - alpha) * u for c, u in zip(disc, under, strict=False)]
    dark, light = (c / 255 for c in DARK_INK[:3]), (c / 255 for c in LIGHT_INK[:3])
    return DARK_INK if contrast(seen, list(dark)) >= contrast(seen, list(light)) else LIGHT_INK


def delta_text(d: float) -> str:
    """A short signed difference: '-1.2', '+0.4', '-12' (four characters at most under 100)."""
    if abs(d) < 9.95:
        return f"{d:+.1f}"
    return f"{d:+.0f}"


def move_scale(value, unit: str) -> float:
    """A move's value on the one scale of the labels: its score (points) or its win rate (%)."""
    if unit == "points":
        s = value.score
        if s is not None and not math.isnan(s):
            return float(s)
    return 100.0 * float(value.winrate)


def value_texts(v: float, unit: str) -> tuple[str, ...]:
    """A move's value as labels, the longest first: '+2.8' or '+3' (points), '57%' or '57'."""
    if unit == "points":
        whole = f"{v:+.0f}".replace("+0", "0").replace("-0", "0")
        return (f"{v:+.1f}", whole) if abs(v) < 9.95 else (whole,)
    return (f"{v:.0f}%", f"{v:.0f}")


def value_fractions(vals: dict) -> dict:
    """Each value's place between the worst (0) and the best (1); all 1 when they are equal."""
    hi, lo = max(vals.values()), min(vals.values())
    return {p: (v - lo) / (hi - lo) if hi > lo else 1.0 for p, v in vals.items()}


def labelled_discs(points: list, t: dict, size: int, y: float, alpha: float, radius,
                   count: int = LABELLED) -> tuple[list, set]:  # fmt: skip
    """A disc per point coloured by t (ramp), the count first points of points large enough for
    a number, the others radius(p); (markers, the labelled points)."""
    labelled = set(points[:count])
    out = [
        marker(p, size, y, LABEL_DISC if p in labelled else radius(p), (*ramp(t[p]), alpha), DISC)
        for p in points
    ]
    return out, labelled


def heat_markers(values: dict, best: int | None, size: int, y: float,
                 unit: str = "points") -> tuple[list[list[float]], list]:  # fmt: skip
    """Discs on every evaluated point coloured by how good it is (green the best, red the
    worst), the best one ringed, the best and the five next numbered.

    values: point -> a move value (.winrate, .score) for the side to move; unit: the one scale
    of every number, "points" (each move's score lead, +2.8) or "win rate" (each move's win
    rate, 57%). Returns (markers, labels as :class:`BoardLabel`); the other moves' dots are
    smaller and carry no number (the legend says so).
    """
    pts = [p for p in values if isinstance(p, int | np.integer) and p >= 0]
    if not pts:
        return [], []
    if unit == "points" and any(values[p].score is None or math.isnan(values[p].score) for p in pts):
        unit = "win rate"  # one scale for every number: the win rate where a score is missing
    vals = {p: move_scale(values[p], unit) for p in pts}
    t = value_fractions(vals)
    first = ([best] if best in vals else []) + sorted((p for p in vals if p != best), key=lambda p: -vals[p])
    out, labelled = labelled_discs(first, t, size, y, 0.82, lambda p: DOT_MIN + DOT_RANGE * t[p])
    if best is None or best not in vals:
        return out, []
    out.append(marker(best, size, y + 0.001, BEST_RADIUS, BEST_RING, RING))
    labels = [
        BoardLabel(
            p, value_texts(vals[p], unit), label_ink(ramp(t[p]), 0.82), BEST_ROOM if p == best else LABEL_ROOM
        )
        for p in first
        if p in labelled
    ]
    return out, labels


def eval_legend(
    values: dict, best: int | None, size: int, unit: str = "points", letters: str = GTP_LETTERS,
    figure: str = "", numbers: str = "",
) -> str:  # fmt: skip
    """The panel's key to the evaluation on the board: what the numbers, the colours, the ring
    and the small dots say (empty without a best move; letters: the columns', as the table
    names them; figure: the best move's figures in words, as the evaluation says them:
    ``EvaluationView.figure``; numbers: what the labelled moves' numbers are where the unit's
    own words do not say it, ``EvaluationView.numbers``: the flat evaluator's mean margin)."""
    if best is None or best not in values:
        return ""
    b = values[best]
    ringed = format_vertex(best, size, letters)
    if unit == "points":
        number = "its score lead in points for the side to move (+2.8: ahead by 2.8 after it)"
        lead = f", lead {b.score:+.1f}" if b.score is not None else ""
    else:
        number, lead = "its win rate for the side to move (57%)", ""
    number = numbers or number
    figure = figure or f"win {100 * b.winrate:.0f}%{lead}"
    return (
        f"Evaluation: ringed {ringed} is the best move ({figure})."
        f" On the {LABELLED} best moves: {number}; the colour says the same, green the best to red"
        " the worst. Small dots: the other moves evaluated, by the same colours. e hides"
    )


def label_font_size(spacing: float, chars: int = 4) -> int:
    """Points of a board label that fits between two grid points spacing pixels apart."""
    return int(max(6, min(10, 0.95 * spacing / (0.85 * max(3, chars)))))


def thinking_markers(candidates: Iterable, size: int, y: float, limit: int = 30) -> tuple[list, list]:
    """Zero+-style live view: a disc per candidate, area by visits, colour by win rate; the six
    most visited numbered with their win rates on discs large enough for the number."""
    cands = [c for c in candidates if c.move is not None and c.move >= 0 and c.visits > 0]
    cands.sort(key=lambda c: -c.visits)
    cands = cands[:limit]
    if not cands:
        return [], []
    top = max(c.visits for c in cands)
    t = {c.move: 0.5 + (c.winrate - 0.5) * 2.5 for c in cands}
    share = {c.move: math.sqrt(c.visits / top) for c in cands}
    out, labelled = labelled_discs(
        [c.move for c in cands], t, size, y, 0.85, lambda p: 0.12 + 0.26 * share[p]
    )
    out.append(marker(cands[0].move, size, y + 0.001, BEST_RADIUS, BEST_RING, RING))
    best = cands[0].move
    labels = [BoardLabel(c.move, value_texts(100 * c.winrate, "win rate"), label_ink(ramp(t[c.move]), 0.85),
                         BEST_ROOM if c.move == best else LABEL_ROOM, c.move == best)
              for c in cands if c.move in labelled]  # fmt: skip
    return out, labels


# Gomoku's mistake dots: a win-rate loss below each bound takes its colour (the last: a blunder)
LOSS_COLOURS = (
    (1.0, (0.25, 0.80, 0.35, 0.95)),
    (3.0, (0.95, 0.85, 0.20, 0.95)),
    (10.0, (0.98, 0.50, 0.12, 0.95)),
    (math.inf, (0.90, 0.12, 0.10, 0.95)),
)


def loss_colour(lost: float) -> tuple[float, float, float, float]:
    """The dot colour of a Go move that lost this many points: its class's (the report's and the
    teaching game's classes, :func:`gorilla.app.go.report.move_class`, in KaTrain's colours)."""
    r, g, b = CLASS_COLORS[move_class(lost)]
    return (r / 255, g / 255, b / 255, 0.95)


# Gomoku's dots by the win rate lost: green under 5% (no inaccuracy), yellow (inaccuracy), orange
# from 10% (mistake), red from 20% (blunder): gorilla.app.gomoku.analysis's grades
WIN_RATE_LOSS_BOUNDS = (0.05, 0.10, 0.20, math.inf)


def win_rate_loss_colour(lost: float) -> tuple[float, float, float, float]:
    """The dot colour of a Gomoku move that lost this share of win rate (LOSS_COLOURS' colours)."""
    return next(c for bound, (_, c) in zip(WIN_RATE_LOSS_BOUNDS, LOSS_COLOURS, strict=True) if lost < bound)


def mistake_dots(reviews: Iterable, moves: list, stone_at, size: int, y: float) -> list[list[float]]:
    """A dot on every stone still on the board whose move was analysed, coloured by points lost.

    reviews: MoveReview-like (number, color, move, points_lost); moves: the moves on the
    record (a stone counts as its point's latest move); stone_at(point) -> colour.
    """
    latest: dict[int, int] = {}
    for i, m in enumerate(moves, 1):
        if m.point >= 0:
            latest[m.point] = i
    out = []
    for r in reviews:
        if r.move >= 0 and latest.get(r.move) == r.number and stone_at(r.move) == r.color:
            out.append(marker(r.move, size, y, 0.16, loss_colour(r.points_lost), DISC))
    return out


def ownership_markers(own: np.ndarray, stone_at, points: Iterable[int], size: int, y_board: float,
                      y_stone: float) -> tuple[list, list]:  # fmt: skip
    """KaTrain-style ownership: a square on every point, black or white, its side growing with
    the estimate (own: -1 Black .. +1 White, row 0 on top). Empty points get theirs on the wood
    (first list), stones only when the estimate gives them to the other side (second list)."""
    under, over = [], []
    for p in points:
        x, row = to_xy(p, size)
        v = float(own[size - 1 - row, x])
        if abs(v) < 0.1:
            continue
        owner = 2 if v > 0 else 1
        rgba = (0.97, 0.97, 0.95, 0.9) if owner == 2 else (0.05, 0.05, 0.06, 0.9)
        side = 0.08 + 0.30 * abs(v)
        stone = stone_at(p)
        if stone == 0:
            under.append(marker(p, size, y_board, side, rgba, FILLED_SQUARE))
        elif stone != owner:
            over.append(marker(p, size, y_stone, side, rgba, FILLED_SQUARE))
    return under, over


def policy_markers(probs: dict[int, float], size: int, y: float, floor: float = 0.002) -> tuple[list, list]:
    """The move model's heat map: a disc per move at least ``floor`` likely, area and colour by
    its probability against the likeliest; the five likeliest numbered in percent on discs
    large enough for the number."""
    pts = sorted((p for p, v in probs.items() if v >= floor), key=lambda p: -probs[p])
    if not pts:
        return [], []
    top = probs[pts[0]]
    t = {p: math.sqrt(probs[p] / top) for p in pts}
    out, _ = labelled_discs(pts, t, size, y, 0.8, lambda p: 0.10 + 0.22 * t[p], count=5)
    labels = [
        BoardLabel(p, value_texts(100 * probs[p], "win rate"), label_ink(ramp(t[p]), 0.8)) for p in pts[:5]
    ]
    return out, labels


def candidate_line(candidates: Iterable, point: int) -> list[int]:
    """The line of the searched candidate on point (that move first), or []."""
    for c in candidates:
        if c.move == point and c.visits > 0:
            return list(c.pv or [c.move])
    return []


def candidate_lines(candidates: Iterable, size: int, limit: int = 5, letters: str = GTP_LETTERS) -> list[str]:
    """Top candidates as HUD lines: 'D4  57.1%  1234 v  pv D4 Q16 ...' (letters: the columns')."""
    cands = sorted((c for c in candidates if c.move is not None), key=lambda c: -c.visits)[:limit]
    lines = []
    for c in cands:
        pv = " ".join(format_vertex(m, size, letters) for m in list(c.pv or [])[:5])
        move = format_vertex(c.move, size, letters)
        lines.append(f"{move:>4} {100 * c.winrate:5.1f}% {c.visits:6d}v  {pv}")
    return lines
