"""The best line on the board (as Lizzie and KaTrain draw it): the pointer over a candidate of
the evaluation (``e``), of the live view (``v``) or of the review (the better move for the move
on show, ringed) names the line that candidate starts; the scene draws it as numbered
translucent stones. Plain data: the controller's values in, points out."""

from __future__ import annotations

from gorilla.app.table import Table
from gorilla.gui.overlay import candidate_line
from gorilla.rules.board import BLACK, WHITE

PV_SHOWN = 10  # moves of a line drawn at most


def review_best(controller: Table) -> tuple[int, list[int], int] | None:
    """(the better move, its line, the colour that plays it) for the move on show: the best move
    of the position before it, by the review's analysis (as KaTrain marks it: the move played and
    the one it should have been, together); None at the start, before the analysis reached
    that position, or where the move played was the best."""
    review = controller.review
    if review is None or not review.show_dots:
        return None
    game = controller.game
    evs = review.positions(game)
    n = len(game.moves)
    if n == 0 or n > len(evs) or evs[n - 1] is None or evs[n - 1].best < 0:
        return None
    e, played = evs[n - 1], game.moves[n - 1]
    if e.best == played.point:
        return None
    return e.best, list(e.pv or [e.best]), played.color


def hover_line(controller: Table, hover: int | None) -> tuple[list[int], int]:
    """The line the candidate under the pointer starts (that move first) and the colour that
    plays its first move, or [] when the pointer is on no candidate shown: the evaluation's,
    then the live view's (the AI's search, else the analysis of the position shown: the side to
    move plays them), then the review's better move (played by the side that played the move
    on show)."""
    to_move = controller.game.to_move
    if hover is None or controller.game.over:
        return [], to_move
    ev = controller.evaluation
    if controller.show_eval and ev is not None and hover in ev.evaluation.values:
        return list(ev.evaluation.pvs.get(hover) or [hover])[:PV_SHOWN], to_move
    p = controller.progress
    line = candidate_line(p.candidates or [], hover) if controller.show_thinking and p is not None else []
    view = controller.ponder_view()  # v while no AI thinks: the analysis of the position shown
    if not line and view is not None:
        line = candidate_line(view.candidates, hover)
    if line:
        return line[:PV_SHOWN], to_move
    best = review_best(controller)
    if best is not None and best[0] == hover:
        return best[1][:PV_SHOWN], best[2]
    return [], to_move


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
