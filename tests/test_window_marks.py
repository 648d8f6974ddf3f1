"""What the board marks, in a real window under Xvfb, pixels read back (issue 64): a dead stone
stands opaque with one square in its owner's colour (no red, nothing see-through), the control
map's tiles show for both colours on the light wood, the far coordinates of a tilted 19x19 board
are readable, and after n the move shown and its better move are marked together."""

from __future__ import annotations

import time

import numpy as np
import pytest
from test_window import Harness, app_window, gui, is_black_stone, is_white_stone, make  # noqa: F401

from gorilla.gui.meshes import STONE_HALF_HEIGHT
from gorilla.rules.board import PASS
from gorilla.rules.coords import parse_vertex
from gorilla.rules.game import Game

pytestmark = pytest.mark.gui

# a finished 9x9 game: a wall down the middle, a dead White stone at B7 and a dead Black one at H3
END_BLACK = ["D1", "D2", "D3", "D4", "D5", "E5", "E6", "E7", "E8", "E9", "H3"]
END_WHITE = ["E1", "E2", "E3", "E4", "F4", "F5", "F6", "F7", "F8", "F9", "B7"]


def wait_for(h: Harness, cond, timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while not cond() and time.monotonic() < end:
        h.frames(0.05)
    assert cond(), "timed out"


def test_a_dead_stone_stands_opaque_with_one_square_in_its_owners_colour(gui, tmp_path):  # noqa: F811
    from gorilla.app.go.controller import Controller

    game = Game.new(9)
    for b, w in zip(END_BLACK, END_WHITE, strict=True):
        game.play(parse_vertex(b, 9))
        game.play(parse_vertex(w, 9))
    game.play(PASS)
    game.play(PASS)
    h = Harness(gui, Controller(game, autosave=str(tmp_path / "a.sgf")))
    try:
        wait_for(h, lambda: not h.c.estimating)
        for v in ("B7", "H3"):
            if h.point(v) not in h.c.game.dead:
                h.click_point(v)
        assert {h.point("B7"), h.point("H3")} <= h.c.game.dead
        h.frame()
        img = h.screen()
        (ax, _), (bx, _) = (h.w.camera.point_to_screen(h.point(v)) for v in ("D5", "E5"))
        step = abs(bx - ax)
        for v, stone, mark in (
            ("B7", is_white_stone, is_black_stone),
            ("H3", is_black_stone, is_white_stone),
        ):
            x, y = h.screen_of(v, 2 * STONE_HALF_HEIGHT)
            assert mark(img[y - 1 : y + 2, x - 1 : x + 2].reshape(-1, 3).astype(float).mean(axis=0)), v
            side = round(0.34 * step)  # on the stone beside the square: the stone's own colour, opaque
            for dx in (-side, side):
                px = img[y - 1 : y + 2, x + dx - 1 : x + dx + 2].reshape(-1, 3).astype(float).mean(axis=0)
                assert stone(px), f"{v}: {px} is not an opaque stone"
            r = round(0.5 * step)
            around = img[y - r : y + r, x - r : x + r].astype(int)
            red = (around[:, :, 0] > 150) & (around[:, :, 1] < 90) & (around[:, :, 2] < 90)
            assert not red.any(), f"{v}: red marks on a dead stone"
    finally:
        h.close()


def lab(rgb: np.ndarray) -> np.ndarray:
    """CIE L*a*b* of an sRGB colour (components 0..1), D65."""
    rgb = np.asarray(rgb, dtype=float)
    lin = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    m = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]])
    xyz = m @ lin / np.array([0.9505, 1.0, 1.089])
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16 / 116)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def test_the_control_maps_tiles_stand_out_from_the_wood_as_much_for_white_as_for_black(make):  # noqa: F811
    pytest.importorskip("gorilla.ai.control_map")
    from gorilla.gui.camera import board_to_world
    from gorilla.rules.coords import to_xy

    h = make()
    for v in ("C3", "G7", "C7", "G3"):
        h.click_point(v)
    plain = h.screen()
    h.press(h.key.C)
    shown = h.screen()
    cm = h.c.control_map()
    change = {1: [], 2: []}  # colour -> the colour difference (CIE76) per unit of the tile's strength
    for p in h.c.game.position.points():
        x, y = to_xy(p, 9)
        v = float(cm[8 - y, x])
        if abs(v) < 0.1 or h.c.game.position.color_at(p):
            continue
        wx, wz = board_to_world(x + 0.25, y + 0.25, 9)  # inside the tile, off the grid lines
        sx, sy = (round(t) for t in h.w.camera.world_to_screen((wx, 0.0, wz)))
        a, b = (
            img[sy - 2 : sy + 3, sx - 2 : sx + 3].reshape(-1, 3).mean(axis=0) / 255 for img in (plain, shown)
        )
        change[2 if v > 0 else 1].append(np.linalg.norm(lab(a) - lab(b)) / np.sqrt(abs(v)))
    black, white = np.mean(change[1]), np.mean(change[2])
    assert len(change[1]) >= 8 and len(change[2]) >= 8
    assert black > 30 and white >= 0.85 * black, (
        f"White's tiles change the wood by {white:.1f}, Black's {black:.1f}"
    )


def glyph_heights(h: Harness, cells: list[tuple[float, float]], reach: int = 20) -> list[int]:
    """The pixel height of what the coordinates draw around each of cells (world x, z on the
    board): the rows where the frame with coordinates differs from the one without."""
    with_labels = h.screen().astype(int)
    h.press(h.key.K)  # coordinates off
    without = h.screen().astype(int)
    h.press(h.key.K)
    diff = np.abs(with_labels - without).max(axis=2) > 40
    out = []
    for wx, wz in cells:
        sx, sy = (round(t) for t in h.w.camera.world_to_screen((wx, 0.0, wz)))
        rows = np.nonzero(diff[sy - reach : sy + reach, sx - 6 : sx + 7].any(axis=1))[0]
        out.append(int(rows.max() - rows.min() + 1) if len(rows) else 0)
    return out


def test_the_far_coordinates_of_a_tilted_19x19_board_are_readable(app_window):  # noqa: F811
    from gorilla.gui.meshes import COORD_OFFSET

    h = app_window(size=19, width=1024, height=768)
    off = 9 + COORD_OFFSET
    far = [(x - 9.0, -off) for x in (0, 4, 9, 14, 18)]  # A, E, K, P, T along the far edge
    near = [(x - 9.0, off) for x in (0, 9, 18)]
    heights = glyph_heights(h, far + near)
    assert min(heights[: len(far)]) >= 11, f"the far letters are {heights[: len(far)]} pixels high"
    assert max(heights) <= 24  # and none grew out of the margin
    # the far row numbers too (19, 17 and 15 on both sides), each within its row's height
    sides = [(side * off, -y) for side in (-1, 1) for y in (9.0, 7.0, 5.0)]
    assert min(glyph_heights(h, sides, reach=8)) >= 9


def ring_pixels(h: Harness, point: int, img: np.ndarray) -> int:
    """Pixels of the best move's blue ring around point."""
    from gorilla.rules.coords import format_vertex

    x, y = h.screen_of(format_vertex(point, h.c.game.size))
    across, _ = h.w._spacing(point)
    r = round(0.6 * across)
    box = img[y - r : y + r, x - r : x + r].astype(int)
    return int(
        ((box[:, :, 2] > 200) & (box[:, :, 0] < 90) & (box[:, :, 1] > 100) & (box[:, :, 1] < 180)).sum()
    )


def test_after_n_the_move_shown_and_its_better_move_are_marked_together(make):  # noqa: F811
    h = make()
    h.c.review.engine, h.c.review.playouts = "mcts", 400
    for v in ("E5", "A1", "D4"):  # White's A1 is the mistake
        h.click_point(v)
    h.press(h.key.G)
    wait_for(h, lambda: not h.c.review.running, 120)
    h.c.goto_move(2)  # as n does: the board shows A1, the move that lost
    h.frame()
    evs = h.c.review.positions(h.c.game)
    better, next_best = evs[1].best, evs[2].best
    assert better >= 0 and better != h.point("A1")
    img = h.screen()
    assert ring_pixels(h, better, img) > 20, "no ring at the move A1 should have been"
    if next_best not in (better, -1):  # not at the best move of the position after it
        assert ring_pixels(h, next_best, img) == 0
    h.c.goto_move(0)  # at the start no move is shown: no ring
    h.frame()
    img = h.screen()
    assert all(ring_pixels(h, e.best, img) == 0 for e in evs if e is not None and e.best >= 0)
