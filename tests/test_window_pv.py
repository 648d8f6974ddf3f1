"""The best line on the board with real input: the pointer over a candidate of the evaluation
(``e``, a searching engine) or of the live view (``v``) draws the line it starts as numbered
translucent stones; off the candidate they go."""

from __future__ import annotations

import time

import numpy as np
import pytest
from test_window import Harness, gui, is_wood, make  # noqa: F401  (fixtures)

from gorilla.gui.meshes import STONE_HALF_HEIGHT
from gorilla.rules.board import BLACK, EMPTY
from gorilla.rules.coords import format_vertex

pytestmark = pytest.mark.gui


def hover(h: Harness, point: int | None) -> None:
    x, y = (5, 5) if point is None else h.screen_of(format_vertex(point, h.c.game.size))
    h.event("on_mouse_motion", x, y, 0, 0)
    h.frame()


def beside(h: Harness, point: int, img: np.ndarray | None = None) -> np.ndarray:
    """Mean RGB near a stone's right edge: clear of its number and of the heat map's disc."""
    img = h.screen() if img is None else img
    x, y = h.screen_of(format_vertex(point, h.c.game.size), STONE_HALF_HEIGHT)
    ax, _ = h.w.camera.point_to_screen(point, STONE_HALF_HEIGHT)
    bx, _ = h.w.camera.point_to_screen(point + 1, STONE_HALF_HEIGHT)
    dx = round(0.42 * abs(bx - ax))
    return img[y - 1 : y + 2, x + dx - 1 : x + dx + 2].reshape(-1, 3).astype(float).mean(axis=0)


def inside(h: Harness, point: int) -> np.ndarray:
    """Mean RGB a quarter of a spacing right of a stone's centre: inside the review's ring."""
    img = h.screen()
    x, y = h.screen_of(format_vertex(point, h.c.game.size), STONE_HALF_HEIGHT)
    ax, _ = h.w.camera.point_to_screen(point, STONE_HALF_HEIGHT)
    bx, _ = h.w.camera.point_to_screen(point + 1, STONE_HALF_HEIGHT)
    dx = round(0.25 * abs(bx - ax))
    return img[y - 1 : y + 2, x + dx - 1 : x + dx + 2].reshape(-1, 3).astype(float).mean(axis=0)


def numbers(h: Harness) -> dict[str, tuple[float, float]]:
    return {lab.text: (lab.x, lab.y) for lab in h.w.hud.board_labels if lab.visible and lab.text.isdigit()}


def test_the_pointer_over_an_evaluated_candidate_draws_its_line(make):  # noqa: F811
    h = make(eval_engine="mcts", eval_games=4)
    h.click_point("E5")
    h.click_point("C3")
    h.press(h.key.E)
    end = time.monotonic() + 120
    while h.c.evaluation is None and time.monotonic() < end:
        h.frames(0.1)
    assert h.c.evaluation is not None, h.c.message
    ev = h.c.evaluation.evaluation
    pos = h.c.game.position
    lines = {
        m: pv for m, pv in ev.pvs.items() if len(pv) >= 3 and all(pos.color_at(p) == EMPTY for p in pv[:3])
    }
    assert lines, "no candidate with a line of three moves"
    move, pv = max(lines.items(), key=lambda kv: ev.values[kv[0]].samples)
    assert pv[0] == move
    before = beside(h, pv[1])  # White's answer in the line: where no stone stands now
    assert is_wood(before)
    hover(h, move)
    shown = numbers(h)
    assert {"1", "2", "3"} <= set(shown)
    for i, p in enumerate(pv[:3], 1):
        sx, sy = h.w.camera.point_to_screen(p, STONE_HALF_HEIGHT * 2)
        assert abs(shown[str(i)][0] - sx) < 2 and abs(shown[str(i)][1] - sy) < 2
    after = beside(h, pv[1])  # a translucent white stone there: greyer than the orange wood
    # (by 27 to 40 of the wood's red-minus-blue, by where the line's point falls in perspective;
    # without a stone it stays within the few units the last line of this test allows)
    assert after[0] - after[2] < before[0] - before[2] - 20
    first = beside(h, move)  # Black's move: a translucent black stone, darker
    assert first.mean() < before.mean() - 40
    assert h.c.game.move_number == 2  # only drawn: nothing played
    hover(h, None)
    assert not numbers(h) and np.abs(beside(h, pv[1]) - before).max() < 12


def test_the_pointer_over_a_live_candidate_draws_its_line(make):  # noqa: F811
    h = make("human", "mcts:time=8")
    h.press(h.key.V)
    h.click_point("E5")
    end = time.monotonic() + 30
    cand = None
    while time.monotonic() < end and cand is None:
        h.frames(0.2)
        p = h.c.progress
        if h.c.thinking and p is not None:
            cand = next((c for c in p.candidates or [] if c.move >= 0 and len(c.pv) >= 2), None)
    assert cand is not None, "no live candidate with a line"
    assert h.c.game.to_move != BLACK
    hover(h, cand.move)
    assert h.c.thinking, "the search ended before the check"
    assert {"1", "2"} <= set(numbers(h))


def test_the_pointer_over_the_reviews_better_move_draws_its_line(make):  # noqa: F811
    h = make()
    h.c.review.engine, h.c.review.playouts = "mcts", 400
    for v in ("E5", "A1"):  # White's A1: a move with a better one
        h.click_point(v)
    h.press(h.key.G)
    end = time.monotonic() + 120
    while h.c.review.running and time.monotonic() < end:
        h.frames(0.2)
    e = h.c.review.positions(h.c.game)[1]  # the position before A1: White's better move
    assert e is not None and e.best >= 0 and h.c.game.position.color_at(e.best) == EMPTY
    wood = inside(h, e.best)  # the ring's middle, beside where its number goes
    assert is_wood(wood)
    hover(h, e.best)
    assert "1" in numbers(h)
    px = inside(h, e.best)  # White's stone, translucent (the side that played A1 plays it): lighter, greyer
    assert px.mean() > wood.mean() + 5 and (wood[0] - wood[2]) - (px[0] - px[2]) > 25, (wood, px)
    h.press(h.key.D)  # the review's marks off: no candidate there any more
    assert not numbers(h)
