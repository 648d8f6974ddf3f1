"""Everything the renderer draws for one frame, built from the controller (plain numpy, no GL).

The GUI never decides a rule: legality of the hover stone comes from ``Game.check``,
territory at the end from ``gorilla.rules.scoring.ownership`` with the controller's dead stones.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from gorilla.app.table import Table
from gorilla.gui import overlay as ov
from gorilla.gui import teaching_view as tv
from gorilla.gui.camera import board_to_world
from gorilla.gui.meshes import STONE_HALF_HEIGHT
from gorilla.gui.pv import hover_line, line_stones, review_best
from gorilla.rules.board import BLACK, EMPTY, WHITE
from gorilla.rules.coords import to_index, to_xy

BLACK_ALBEDO = (0.075, 0.075, 0.085)
WHITE_ALBEDO = (0.93, 0.92, 0.885)
LIGHT_DIR = (-0.45, 1.0, 0.55)  # towards the light: up, to the left and towards the default viewer
# stone shadows fall away from the light: in grid units (columns right, rows up)
SHADOW_OFFSET = (
    -LIGHT_DIR[0] / LIGHT_DIR[1] * STONE_HALF_HEIGHT * 0.9,
    LIGHT_DIR[2] / LIGHT_DIR[1] * STONE_HALF_HEIGHT * 0.9,
)
STONE_TOP = 2 * STONE_HALF_HEIGHT
SURFACE = 0.004  # markers lie this far above the wood
PV_ALPHA = 0.62  # the stones of the line under the pointer
FORBIDDEN_INK = (0.85, 0.1, 0.08, 0.95)  # renju: the cross on a point where Black may not play
WIN_INK = (1.0, 0.74, 0.05, 1.0)  # Gomoku: the ring on each stone of the five that won
TERRITORY_INK = {BLACK: (0.05, 0.05, 0.06, 0.95), WHITE: (0.97, 0.97, 0.95, 0.97)}  # a point's owner
DEAD_MARK = 0.21  # the square on a dead stone (half its side, in grid spacings)


@dataclass
class Scene:
    """One frame as arrays: stone and marker instance rows, the overlay texture, labels (see each field)."""

    size: int
    letters: str  # the columns' letters along the edges (the table's column_letters)
    stones: np.ndarray  # (n, 7) float32: centre xyz, rgba (opaque stones)
    ghosts: np.ndarray  # (m, 7) translucent stones: the hover preview, the line under the pointer
    under: np.ndarray  # (k, 9) markers drawn on the wood before the stones (shadows, heat map, ko)
    over: np.ndarray  # (j, 9) markers drawn after the stones (last move, dead crosses)
    overlay: np.ndarray | None  # (size, size, 4) uint8 colour field or None
    occupancy: np.ndarray  # (size, size) uint8, 255 under a live stone, row 0 = bottom: the shadows
    # over the board: the overlay's numbers on its discs (gorilla.gui.overlay.BoardLabel), and
    # (point, text), (point, text, rgba) or (point, text, rgba, lift: font sizes up)
    labels: list = field(default_factory=list)
    notice: str = ""  # a GUI-side problem to show (e.g. an overlay that could not be computed)
    # (point, text, rgba) drawn on the stones' tops: the numbers of the line under the pointer
    stone_labels: list[tuple] = field(default_factory=list)


def _stone_rows(points: list[int], colors: list[int], size: int, alpha: float) -> np.ndarray:
    rows = np.zeros((len(points), 7), dtype=np.float32)
    for i, (p, c) in enumerate(zip(points, colors, strict=True)):
        x, y = to_xy(p, size)
        wx, wz = board_to_world(x, y, size)
        rows[i] = (wx, STONE_HALF_HEIGHT, wz, *(BLACK_ALBEDO if c == BLACK else WHITE_ALBEDO), alpha)
    return rows


def _markers(rows: list[list[float]]) -> np.ndarray:
    if not rows:
        return np.zeros((0, ov.MARKER_WIDTH), dtype=np.float32)
    return np.asarray(rows, dtype=np.float32)


def _split_stones(game) -> tuple[list[int], list[int], list[int], list[int]]:
    """(live points, their colours, dead points, their colours) of the stones on the board."""
    size, pos = game.size, game.position
    grid = pos.grid()
    dead = {p for p in game.dead if pos.color_at(p) in (BLACK, WHITE)}
    live_pts, live_cols, dead_pts, dead_cols = [], [], [], []
    for r in range(size):
        for x in range(size):
            c = int(grid[r, x])
            if c == EMPTY:
                continue
            p = to_index(x, size - 1 - r, size)
            if p in dead:
                dead_pts.append(p)
                dead_cols.append(c)
            else:
                live_pts.append(p)
                live_cols.append(c)
    return live_pts, live_cols, dead_pts, dead_cols


def _unavailable(what: str, e: Exception) -> str:
    return f"{what} unavailable: {str(e).splitlines()[0] if str(e) else type(e).__name__}"


def _overlays(controller: Table, under: list, over: list) -> tuple[np.ndarray | None, list, str]:
    """The maps the player switched on (control map, ownership, mistake dots, heat maps, the
    live view): markers appended to under and over; (colour field, labels, notice)."""
    game = controller.game
    size, pos, over_game = game.size, game.position, game.over
    labels: list[tuple] = []
    notice = ""
    overlay = None
    if controller.show_control:
        try:
            overlay = ov.control_field(controller.control_map())
        except Exception as e:  # e.g. the control-map module missing: say so, keep drawing
            notice = _unavailable("Control map", e)
    if controller.show_ownership:
        try:
            rows_under, rows_over = ov.ownership_markers(
                controller.ownership_map(), pos.color_at, pos.points(), size, SURFACE, STONE_TOP + 0.004
            )
            under += rows_under
            over += rows_over
        except Exception as e:  # like the control map: say so, keep drawing
            notice = _unavailable("Ownership", e)
    review = controller.review
    if review is not None and review.show_dots:
        over += ov.mistake_dots(review.reviews(game), game.moves, pos.color_at, size, STONE_TOP + 0.005)
        best = review_best(controller)  # the better move for the move on show: ringed beside it
        if best is not None and not over_game and pos.color_at(best[0]) == EMPTY:
            under.append(ov.marker(best[0], size, SURFACE, 0.47, ov.BEST_RING, ov.RING))
    elif review is None:  # Gomoku's analysis: dots coloured by the win rate lost, the best move ringed
        over += [ov.marker(p, size, STONE_TOP + 0.005, 0.16, ov.win_rate_loss_colour(lost), ov.DISC)
                 for p, lost in controller.analysis_dots()]  # fmt: skip
        best_point = controller.analysis_best()
        if best_point is not None and not over_game and pos.color_at(best_point) == EMPTY:
            under.append(ov.marker(best_point, size, SURFACE, 0.47, ov.BEST_RING, ov.RING))
    ev = controller.evaluation
    if controller.show_eval and ev is not None and not over_game:
        rows, labels = ov.heat_markers(ev.evaluation.values, ev.evaluation.best, size, SURFACE, ev.unit)
        under += rows
    if controller.show_policy and not over_game:
        rows, labels = ov.policy_markers(controller.policy_map(), size, SURFACE)
        under += rows
    progress = controller.progress
    if controller.show_thinking and progress is not None and not over_game:
        rows, labels = ov.thinking_markers(progress.candidates or [], size, SURFACE * 1.5)
        under += rows
    elif (view := controller.ponder_view()) is not None:  # v: the analysis of the position shown
        rows, labels = tv.ponder_markers(view, size, SURFACE * 1.5)
        under += rows
    return overlay, labels, notice


def _board_marks(game, dead_pts: list[int], under: list, over: list, ring_last: bool = True) -> None:
    """The ko, the last move's ring (unless ring_last is False: its number shows it); after two
    passes a square in its owner's colour on each dead stone, and the territory."""
    size, pos, over_game = game.size, game.position, game.over
    dead = set(dead_pts)
    ko = pos.ko
    if ko and not over_game:
        under.append(ov.marker(ko, size, SURFACE, 0.30, (0.12, 0.08, 0.05, 0.95), ov.SQUARE))

    last = game.last_move
    if ring_last and last is not None and last.point >= 0 and pos.color_at(last.point) in (BLACK, WHITE):
        on_black = pos.color_at(last.point) == BLACK
        rgba = (0.95, 0.95, 0.95, 0.95) if on_black else (0.08, 0.08, 0.08, 0.95)
        over.append(ov.marker(last.point, size, STONE_TOP + 0.003, 0.22, rgba, ov.RING))

    if over_game and game.end_reason == "passes":
        for p in dead:  # one mark on the (opaque) dead stone: a square in its owner's colour
            ink = TERRITORY_INK[WHITE if pos.color_at(p) == BLACK else BLACK]
            over.append(ov.marker(p, size, STONE_TOP + 0.004, DEAD_MARK, ink, ov.FILLED_SQUARE))
        try:
            from gorilla.rules.scoring import ownership

            owner = ownership(pos, dead)
        except Exception:  # scoring is the rules' business; without it, no territory marks
            owner = None
        if owner is not None and game.ruleset.scoring != "stones":
            for p in pos.points():
                o = int(owner[p])
                if o in (BLACK, WHITE) and pos.color_at(p) == EMPTY:
                    under.append(ov.marker(p, size, SURFACE, 0.17, TERRITORY_INK[o], ov.FILLED_SQUARE))


def flash_marker(point: int, size: int) -> list[float]:
    """The brief red mark on an occupied point that was clicked (a thick ring on the stone)."""
    return ov.marker(point, size, STONE_TOP + 0.006, 0.46, (0.92, 0.1, 0.08, 0.95), ov.THICK_RING)


def build_scene(
    controller: Table,
    hover: int | None = None,
    extra: list[list[float]] | None = None,
    numbered_last: bool = False,
) -> Scene:
    """The frame's scene from the controller's state, the point under the mouse and extra
    markers the window adds over the stones (the red mark of a click on a stone);
    numbered_last: the last move's stone shows its number (in the last move's colour), so no
    ring is drawn under it."""
    game = controller.game
    size = game.size
    live_pts, live_cols, dead_pts, dead_cols = _split_stones(game)
    # dead stones stand as stones (their mark says they are dead), with their shadows
    stones = _stone_rows(live_pts + dead_pts, live_cols + dead_cols, size, 1.0)
    ghosts = [np.zeros((0, 7), np.float32)]
    occupancy = np.zeros((size, size), dtype=np.uint8)  # texture order: row 0 = the bottom row
    for p in live_pts + dead_pts:
        x, y = to_xy(p, size)
        occupancy[y, x] = 255
    under: list[list[float]] = []
    over: list[list[float]] = []
    overlay, labels, notice = _overlays(controller, under, over)
    _board_marks(game, dead_pts, under, over, ring_last=not numbered_last)
    for p in controller.forbidden_points():  # renju: where Black may not play, a red cross
        under.append(ov.marker(p, size, SURFACE, 0.34, FORBIDDEN_INK, ov.CROSS))
    for p in controller.winning_line():  # Gomoku: the five that won, ringed in gold
        over.append(ov.marker(p, size, STONE_TOP + 0.004, 0.40, WIN_INK, ov.THICK_RING))
    over += extra or []
    empty = lambda p: game.position.color_at(p) == EMPTY  # noqa: E731
    marks = controller.teaching_marks()  # the teaching game: class dots, the ghost of a move taken back
    over += tv.class_dots(marks, size, STONE_TOP + 0.005)
    ghost = tv.ghost(marks, empty)
    if ghost is not None:
        ghosts.append(_stone_rows([ghost.move], [ghost.color], size, tv.GHOST_ALPHA))
        labels.append(tv.ghost_label(ghost))
    line = tv.refutation(ghost, hover, empty)  # the pointer on the ghost: the net's refutation
    line = line or line_stones(*hover_line(controller, hover), empty)
    stone_labels = []
    for p, color, number in line:  # the line under the pointer: translucent numbered stones
        ghosts.append(_stone_rows([p], [color], size, PV_ALPHA))
        stone_labels.append((p, str(number), (255, 255, 255, 255) if color == BLACK else (20, 20, 20, 255)))
    if (
        not line
        and hover is not None
        and not game.over
        and controller.is_human(controller.acting)
        and game.position.color_at(hover) == EMPTY
        and controller.kernels_ready("rules")
        and game.check(hover) is None
    ):
        ghosts.append(_stone_rows([hover], [game.to_move], size, 0.5))

    return Scene(
        size=size,
        letters=controller.column_letters,
        stones=stones,
        ghosts=np.concatenate(ghosts) if ghosts else np.zeros((0, 7), np.float32),
        under=_markers(under),
        over=_markers(over),
        overlay=overlay,
        occupancy=occupancy,
        labels=labels,
        notice=notice,
        stone_labels=stone_labels,
    )
