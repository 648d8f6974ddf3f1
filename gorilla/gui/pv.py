"""The best line on the board (as Lizzie and KaTrain draw it): the pointer over a candidate of
the evaluation (``e``), of the live view (``v``) or of the review (the analysed position's
best move, ringed) names the line that candidate starts; the scene draws it as numbered
translucent stones. Plain data: the controller's values in, points out."""

from __future__ import annotations

from gorilla.app.table import Table
from gorilla.gui.overlay import candidate_line
from gorilla.rules.board import BLACK, WHITE

PV_SHOWN = 10  # moves of a line drawn at most


def review_best(controller: Table) -> tuple[int, list[int]] | None:
    """(best move, its line) of the review's analysis of the position on the board, if any."""
    review = controller.review
    if review is None or not review.show_dots:
        return None
    game = controller.game
    evs = review.positions(game)
    n = len(game.moves)
    if n >= len(evs) or evs[n] is None or evs[n].best < 0:
        return None
    e = evs[n]
    return e.best, list(e.pv or [e.best])


def hover_line(controller: Table, hover: int | None) -> list[int]:
    """The line the candidate under the pointer starts (that move first), or [] when the pointer
    is on no candidate shown: the evaluation's, then the live view's (the AI's search, else the
    analysis of the position shown), then the review's."""
    if hover is None or controller.game.over:
        return []
    ev = controller.evaluation
    if controller.show_eval and ev is not None and hover in ev.evaluation.values:
        return list(ev.evaluation.pvs.get(hover) or [hover])[:PV_SHOWN]
    p = controller.progress
    line = candidate_line(p.candidates or [], hover) if controller.show_thinking and p is not None else []
    view = controller.ponder_view()  # v while no AI thinks: the analysis of the position shown
    if not line and view is not None:
        line = candidate_line(view.candidates, hover)
    if line:
        return line[:PV_SHOWN]
    best = review_best(controller)
    if best is not None and best[0] == hover:
        return best[1][:PV_SHOWN]
    return []


def line_stones(line: list[int], to_move: int, empty) -> list[tuple[int, int, int]]:
    """(point, colour, number) of a line's moves on empty points, the side to move first; a
    point played twice in the line (after a capture) keeps its first number; passes are skipped."""
    out, seen = [], set()
    color = to_move
    for i, p in enumerate(line, 1):
        if p >= 0 and p not in seen and empty(p):
            out.append((p, color, i))
            seen.add(p)
        color = WHITE if color == BLACK else BLACK
    return out
