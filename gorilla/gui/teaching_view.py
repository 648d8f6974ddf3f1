"""What the board shows of the teaching game and of the analysis of the position shown, as plain
arrays (no OpenGL): the class dots on the judged stones, the ghost of a move taken back with its
loss and, under the pointer, its refutation as numbered stones; the analysis's top moves as
discs with their score against the best and their visits.

:func:`gorilla.gui.scene.build_scene` calls these with the controller's
``teaching_marks()`` and ``ponder_view()`` (:class:`gorilla.app.table.Table`)."""

from __future__ import annotations

import math
from collections.abc import Callable

from gorilla.app.go.report import CLASS_COLORS
from gorilla.gui import overlay as ov
from gorilla.gui.pv import PV_SHOWN, line_stones
from gorilla.rules.board import BLACK, WHITE

# the classes' colours, best to worst: KaTrain's (green, light green, yellow, orange, red, purple),
# as gorilla.app.go.report defines them for the report's chart too
CLASS_COLOURS = tuple((r / 255, g / 255, b / 255, 0.95) for r, g, b in CLASS_COLORS)
GHOST_ALPHA = 0.5  # the move taken back: a little fainter than the line under the pointer
SHOWN = 12  # the analysis's moves drawn at most
FAINT = 0.05  # under this share of the best move's visits a move is drawn small and faint
SPAN = 6.0  # points below the best where a move's disc is fully red
LIFT = 0.6  # the score's label above a disc's centre, the visits' below, in font sizes


def class_colour(grade: int) -> tuple[float, float, float, float]:
    """The dot colour of a class (0 best .. 5 worst)."""
    return CLASS_COLOURS[max(0, min(len(CLASS_COLOURS) - 1, grade))]


def class_dots(marks, size: int, y: float) -> list[list[float]]:
    """A dot of its class on each judged stone of the last moves (marks: ``Table.teaching_marks()``)."""
    if marks is None:
        return []
    return [ov.marker(p, size, y, 0.17, class_colour(g), ov.DISC) for p, g in marks.dots]


def ghost(marks, empty: Callable[[int], bool]):
    """The move taken back at the position on the board, when its point is empty, else None."""
    g = None if marks is None else marks.ghost
    return g if g is not None and g.move >= 0 and empty(g.move) else None


def ghost_label(g) -> tuple[int, str, tuple[int, int, int, int]]:
    """The ghost's loss written on it: '-4.2' (light on Black's, dark on White's)."""
    ink = (255, 255, 255, 255) if g.color == BLACK else (20, 20, 20, 255)
    return g.move, f"-{g.lost:.1f}", ink


def refutation(g, hover: int | None, empty: Callable[[int], bool]) -> list[tuple[int, int, int]]:
    """With the pointer on the ghost: the refutation's stones (point, colour, number), the
    opponent's reply first, the ghost's point left to the ghost; else []."""
    if g is None or hover != g.move:
        return []
    first = WHITE if g.color == BLACK else BLACK
    return line_stones(g.refutation[:PV_SHOWN], first, lambda p: p != g.move and empty(p))


def ponder_markers(view, size: int, y: float) -> tuple[list[list[float]], list[tuple]]:
    """The analysis's top moves: a disc on each, area by visits, colour by its score against the
    best (green the best .. red SPAN points worse), the best ringed; a move under FAINT of the
    best's visits small and faint, unlabelled. Labels (point, text, ink, lift): the score (the
    best's lead, the others' difference) above the centre and the visits below."""
    cands = [m for m in view.candidates if m.move is not None and m.move >= 0 and m.visits > 0][:SHOWN]
    if not cands:
        return [], []
    best = cands[0]
    top = max(cand.visits for cand in cands)
    rows: list[list[float]] = []
    labels: list[tuple] = []
    for cand in cands:
        delta = float(cand.score) - float(best.score)
        rgb = ov.ramp(1.0 + max(-SPAN, min(0.0, delta)) / SPAN)
        if cand.visits < FAINT * top:
            rows.append(ov.marker(cand.move, size, y, 0.10, (*rgb, 0.35), ov.DISC))
            continue
        radius = 0.2 + 0.25 * math.sqrt(cand.visits / top)
        rows.append(ov.marker(cand.move, size, y, radius, (*rgb, 0.85), ov.DISC))
        text = ov.delta_text(delta) if delta < -0.05 else "0.0"  # no "-0.0"
        text = f"{best.score:+.1f}" if cand is best else text
        ink = ov.label_ink(rgb, 0.85)  # dark on a light disc, white on a dark one (issue 64)
        labels += [(cand.move, text, ink, LIFT), (cand.move, visits_text(cand.visits), ink, -LIFT)]
    rows.append(ov.marker(best.move, size, y + 0.001, 0.47, ov.BEST_RING, ov.THICK_RING))
    return rows, labels


def visits_text(n: int) -> str:
    """Visits in at most four characters: '87', '1234', '12k'."""
    return str(n) if n < 10000 else f"{n // 1000}k"
