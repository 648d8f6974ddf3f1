"""The teaching game and the analysis of the position shown in a real window: a move that loses
more than 3 points (judged by the net) is taken back, its ghost and its loss are on the board,
the pointer on the ghost draws the refutation, the second try stands and gets its class's dot;
with ``v`` the net's top moves are drawn on the human's turn with their score and visits."""

from __future__ import annotations

import time

import numpy as np
import pytest
from test_window import Harness, gui, is_black_stone, is_wood, make  # noqa: F401  (fixtures)
from test_window_pv import beside, hover, numbers

from gorilla.gui.meshes import STONE_HALF_HEIGHT
from gorilla.gui.teaching_view import class_colour
from gorilla.rules.coords import format_vertex

pytestmark = pytest.mark.gui


def frames_until(h: Harness, until, seconds: float = 120.0) -> None:
    end = time.monotonic() + seconds
    while not until():
        assert time.monotonic() < end, h.c.message
        h.frames(0.05)


def below(h: Harness, point: int) -> np.ndarray:
    """Mean RGB on a stone at point, below its centre: clear of the label written on it."""
    img = h.screen()
    x, y = h.w.camera.point_to_screen(point, STONE_HALF_HEIGHT)
    _, ny = h.w.camera.point_to_screen(point + 1, STONE_HALF_HEIGHT)
    ax, _ = h.w.camera.point_to_screen(point + 1, STONE_HALF_HEIGHT)
    d = round(0.3 * max(abs(ax - x), abs(ny - y)))
    x, y = round(x), round(y) - d
    return img[y - 1 : y + 2, x - 1 : x + 2].reshape(-1, 3).astype(float).mean(axis=0)


def labels(h: Harness) -> dict[str, tuple[float, float]]:
    return {lab.text: (lab.x, lab.y) for lab in h.w.hud.board_labels if lab.visible}


def test_a_bad_move_is_taken_back_with_its_ghost_and_refutation_and_the_second_try_stands(make):  # noqa: F811
    h = make("human", "net:visits=40", teach="black")
    a1 = h.point("A1")
    wood = below(h, a1)
    assert is_wood(wood)
    h.click_point("A1")
    frames_until(h, lambda: not h.c.teacher.judging)
    assert h.c.game.move_number == 0 and "try again" in h.c.message
    ghost = h.c.teaching_marks().ghost
    assert ghost.move == a1 and ghost.lost > 3.0
    hover(h, None)
    shown = below(h, a1)  # a translucent black stone: darker than the wood, not a stone's black
    assert shown.mean() < wood.mean() - 30 and not is_black_stone(shown)
    loss = f"-{ghost.lost:.1f}"
    at = labels(h).get(loss)
    sx, sy = h.w.camera.point_to_screen(a1)
    assert at is not None and abs(at[0] - sx) < 2 and abs(at[1] - sy) < 2, labels(h)
    # the pointer on the ghost: the refutation as numbered stones, White's reply first
    reply = ghost.refutation[0]
    before = beside(h, reply)
    hover(h, a1)
    shown_numbers = numbers(h)
    assert "1" in shown_numbers
    rx, ry = h.w.camera.point_to_screen(reply, STONE_HALF_HEIGHT * 2)
    assert abs(shown_numbers["1"][0] - rx) < 2 and abs(shown_numbers["1"][1] - ry) < 2
    after = beside(h, reply)  # a translucent white stone: greyer than the orange wood
    assert after[0] - after[2] < before[0] - before[2] - 30
    assert loss not in labels(h)  # the line hides the loss label while it shows
    hover(h, None)
    assert not numbers(h)
    # the second try at that position stands, and its dot shows its class on the stone
    h.click_point("A1")
    frames_until(h, lambda: h.c.game.move_number == 2 and not h.c.teacher.judging)
    assert h.c.game.moves[0].point == a1
    dots = h.c.teaching_marks().dots
    assert dots and dots[0][0] == a1
    h.frame()
    x, y = h.screen_of("A1", STONE_HALF_HEIGHT * 2)
    dot = h.screen()[y - 1 : y + 2, x - 1 : x + 2].reshape(-1, 3).astype(float).mean(axis=0)
    want = np.array(class_colour(dots[0][1])[:3]) * 255
    assert np.abs(dot - want).max() < 60, (dot, want)


def test_v_draws_the_nets_top_moves_on_the_humans_turn(make):  # noqa: F811
    h = make()
    vw = h.w.camera.viewport[2]
    off = h.screen()[:, :vw]
    h.press(h.key.V)
    frames_until(h, lambda: (v := h.c.ponder_view()) is not None and v.visits >= 60, 60)
    h.frames(0.3)
    view = h.c.ponder_view()
    on = h.screen()[:, :vw]
    assert (np.abs(on.astype(int) - off).max(axis=2) > 30).sum() > 100, "no discs on the board"
    best = view.candidates[0]
    shown = labels(h)
    assert f"{best.score:+.1f}" in shown or any(t.startswith(("+", "-")) for t in shown), shown
    assert any(t.isdigit() for t in shown), shown  # the visits under the score
    line = next((c for c in view.candidates if len(c.pv) >= 2 and c.visits >= 5), None)
    if line is not None:
        hover(h, line.move)
        assert {"1", "2"} <= set(numbers(h)), format_vertex(line.move, 9)
    h.press(h.key.V)
    assert h.c.ponder_view() is None
