"""What the overlays show, as plain arrays: the control-map colour field, the evaluation heat map
and the live MCTS view. No OpenGL: the renderer only uploads what these functions return.

Marker rows are float32 ``(x, y, z, radius, r, g, b, a, shape)``; shapes are those of
``assets/shaders/marker.frag`` (0 disc, 1 ring, 2 square outline, 3 cross, 4 shadow,
5 filled square, 6 thick ring).
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np

from gorilla.gui.camera import board_to_world
from gorilla.gui.meshes import colour_field
from gorilla.rules.coords import GTP_LETTERS, format_vertex, to_xy

DISC, RING, SQUARE, CROSS, SHADOW, FILLED_SQUARE, THICK_RING = range(7)
MARKER_WIDTH = 9

# control map: Black's area darkens the wood, White's lightens it (-1 Black .. +1 White)
CONTROL_BLACK = (0.03, 0.03, 0.06)
CONTROL_WHITE = (1.0, 1.0, 1.0)
BEST_RING = (0.15, 0.55, 1.0, 0.95)


def control_field(values: np.ndarray) -> np.ndarray:
    """The control map as an RGBA texture (bottom row first): dark for Black, light for White."""
    return colour_field(values, CONTROL_BLACK, CONTROL_WHITE, max_alpha=0.68)


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


BEST_INK = (255, 236, 140, 255)  # the best move's label: light yellow, readable on its ring and disc
DELTA_INK = (255, 255, 255, 255)  # the other labels: how far each is from the best
LABELLED = 6  # moves labelled on the board: the best and the five next


def move_scale(value, unit: str) -> float:
    """A move's value on the one scale of the labels: its score (points) or its win rate (%)."""
    if unit == "points":
        s = value.score
        if s is not None and not math.isnan(s):
            return float(s)
    return 100.0 * float(value.winrate)


def delta_text(d: float) -> str:
    """A short signed difference: '-1.2', '+0.4', '-12' (four characters at most under 100)."""
    if abs(d) < 9.95:
        return f"{d:+.1f}"
    return f"{d:+.0f}"


def heat_markers(values: dict, best: int | None, size: int, y: float,
                 unit: str = "points") -> tuple[list[list[float]], list]:  # fmt: skip
    """Discs on every evaluated point coloured by how good it is, the best one ringed.

    values: point -> a move value (.winrate, .score) for the side to move; unit: the labels'
    scale, "points" (the score) or "win rate". Returns (markers, labels), labels as
    (point, text, rgba): the best move its win rate in the ring's colour, the next best few
    their difference from it on the one scale (-1.2: 1.2 points worse than the best).
    """
    pts = [p for p in values if isinstance(p, int | np.integer) and p >= 0]
    if not pts:
        return [], []
    vals = {p: move_scale(values[p], unit) for p in pts}
    hi, lo = max(vals.values()), min(vals.values())
    span = hi - lo if hi > lo else 1.0
    out = []
    for p, v in vals.items():
        t = (v - lo) / span
        out.append(marker(p, size, y, 0.20 + 0.17 * t, (*ramp(t), 0.82), DISC))
    if best is None or best not in vals:
        return out, []
    out.append(marker(best, size, y + 0.001, 0.47, BEST_RING, THICK_RING))
    labels = [(best, f"{100 * values[best].winrate:.0f}%", BEST_INK)]
    others = sorted((p for p in vals if p != best), key=lambda p: -vals[p])[: LABELLED - 1]
    labels += [(p, delta_text(vals[p] - vals[best]), DELTA_INK) for p in others]
    return out, labels


def eval_legend(
    values: dict, best: int | None, size: int, unit: str = "points", letters: str = GTP_LETTERS,
    figure: str = "",
) -> str:  # fmt: skip
    """The panel's key to the evaluation's labels (empty without a best move; letters: the
    columns', as the table names them; figure: the best move's figures in words, as the
    evaluation says them: ``EvaluationView.figure``)."""
    if best is None or best not in values:
        return ""
    b = values[best]
    lead = f", lead {b.score:+.1f}" if unit == "points" and b.score is not None else ""
    figure = figure or f"win {100 * b.winrate:.0f}%{lead}"
    points = unit == "points"
    scale, example = ("points", "-1.5: 1.5 points worse") if points else ("win rate in %", "-20: 20% less")
    ringed = format_vertex(best, size, letters)
    return (
        f"Evaluation: ringed {ringed} is the best move ({figure});"
        f" the numbers on other moves: {scale} against it ({example}). e hides"
    )


def label_font_size(spacing: float, chars: int = 4) -> int:
    """Points of a board label that fits between two grid points spacing pixels apart."""
    return int(max(6, min(10, 0.95 * spacing / (0.85 * max(3, chars)))))


def thinking_markers(candidates: Iterable, size: int, y: float, limit: int = 30) -> tuple[list, list]:
    """Zero+-style live view: a disc per candidate, area by visits, colour by win rate."""
    cands = [c for c in candidates if c.move is not None and c.move >= 0 and c.visits > 0]
    cands.sort(key=lambda c: -c.visits)
    cands = cands[:limit]
    if not cands:
        return [], []
    top = max(c.visits for c in cands)
    out, labels = [], []
    for i, c in enumerate(cands):
        share = math.sqrt(c.visits / top)
        t = 0.5 + (c.winrate - 0.5) * 2.5
        out.append(marker(c.move, size, y, 0.12 + 0.33 * share, (*ramp(t), 0.85), DISC))
        if i == 0:
            out.append(marker(c.move, size, y + 0.001, 0.47, BEST_RING, THICK_RING))
        if i < 6:
            labels.append((c.move, f"{100 * c.winrate:.0f}%"))
    return out, labels


# mistake dots: points lost below each bound take its colour (the last one: a blunder)
LOSS_COLOURS = (
    (1.0, (0.25, 0.80, 0.35, 0.95)),
    (3.0, (0.95, 0.85, 0.20, 0.95)),
    (10.0, (0.98, 0.50, 0.12, 0.95)),
    (math.inf, (0.90, 0.12, 0.10, 0.95)),
)


def loss_colour(lost: float) -> tuple[float, float, float, float]:
    """The dot colour of a move that lost this many points (green, yellow, orange, red)."""
    return next(c for bound, c in LOSS_COLOURS if lost < bound)


# Gomoku's dots by the win rate lost: green under 5% (no inaccuracy), yellow (inaccuracy), orange
# from 10% (mistake), red from 20% (blunder): gorilla.app.gomoku_analysis's grades
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
    its probability against the likeliest; the five likeliest labelled in percent."""
    pts = [p for p, v in probs.items() if v >= floor]
    if not pts:
        return [], []
    top = max(probs[p] for p in pts)
    out = []
    for p in pts:
        t = math.sqrt(probs[p] / top)
        out.append(marker(p, size, y, 0.10 + 0.32 * t, (*ramp(t), 0.8), DISC))
    ranked = sorted(pts, key=lambda p: -probs[p])[:5]
    labels = [(p, f"{100 * probs[p]:.0f}%") for p in ranked]
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
