"""The numbers on the board's discs in a real window under Xvfb, pixels read back (issue 64):
each has contrast with its disc (dark on a light disc, white on a dark one) and fits inside it,
and the best move's inside its ring, at every board size and window size; the evaluation's
numbers are all on one scale."""

from __future__ import annotations

import time

import numpy as np
import pytest
from test_window import Harness, app_window, gui  # noqa: F401  (fixtures)

from gorilla.gui.overlay import BEST_RADIUS, LABEL_DISC, contrast

pytestmark = pytest.mark.gui


def resize(h: Harness, width: int, height: int) -> None:
    h.w.set_size(width, height)
    end = time.monotonic() + 5
    while (h.w.layout.width, h.w.layout.height) != (
        width,
        height,
    ) and time.monotonic() < end:  # on_resize ran
        h.frames(0.02)
    h.frames(0.05)


def shown(h: Harness) -> list:
    return [lab for lab in h.w.hud.board_labels if lab.visible]


def point_of(h: Harness, lab, points) -> int:
    return min(points, key=lambda p: np.hypot(*(np.subtract(h.w.camera.point_to_screen(p), (lab.x, lab.y)))))


def check_numbers(h: Harness, points, ringed: int | None = None) -> int:
    """Every number shown lies inside its disc (the ringed one inside the ring) and contrasts
    with the disc's pixels around it by 3:1 at least; the numbers checked."""
    img = h.screen().astype(float) / 255
    labels = shown(h)
    for lab in labels:
        p = point_of(h, lab, points)
        across, along = h.w._spacing(p)
        room = BEST_RADIUS * (1 - 0.22) if p == ringed else LABEL_DISC
        assert lab.content_width <= 2 * room * across, f"{lab.text} is wider than its disc"
        top = lab.y + 0.97 * lab.font_size / 2  # the digits' top
        assert top <= lab.y + room * along, f"{lab.text} is higher than its disc"
        # the disc: pixels between the digits' top and the disc's edge, above the number
        dy = round((top + lab.y + room * along) / 2)
        disc = img[dy - 1 : dy + 2, round(lab.x) - 1 : round(lab.x) + 2].reshape(-1, 3).mean(axis=0)
        w, hh = lab.content_width, 0.97 * lab.font_size
        box = img[round(lab.y - hh / 2) : round(lab.y + hh / 2), round(lab.x - w / 2) : round(lab.x + w / 2)]
        ink = max(box.reshape(-1, 3), key=lambda px: contrast(px, disc))  # the text's strongest pixel
        assert contrast(ink, disc) >= 3.0, f"{lab.text}: ink {ink} on disc {disc}"
    return len(labels)


@pytest.mark.parametrize(
    "size, window",
    [
        (9, (1024, 768)),
        (19, (1024, 768)),
        (19, (640, 480)),
        (5, (640, 480)),
        (25, (640, 480)),
        (25, (1200, 880)),
    ],
)
def test_the_policy_maps_numbers_fit_their_discs_and_contrast_with_them(app_window, size, window):  # noqa: F811
    h = app_window(size=size)
    resize(h, *window)
    for v in {5: ("C3",), 9: ("E5", "C4", "G4")}.get(size, ("D4", "Q16", "Q4")):
        h.click_point(v)
    h.press(h.key.F)
    probs = h.c.policy_map()
    n = check_numbers(h, list(probs))
    if size <= 19 and window[0] >= 1024:
        assert n == 5, "the five likeliest moves are numbered"
    assert all(t.text.rstrip("%").isdigit() for t in shown(h))


def test_the_evaluations_numbers_are_one_scale_fit_and_contrast(app_window):  # noqa: F811
    h = app_window(size=9, width=1024, height=768, eval_games=2, eval_turns=2)
    for v in ("E5", "C4", "G4"):
        h.click_point(v)
    h.press(h.key.E)
    end = time.monotonic() + 60
    while h.c.evaluation is None and time.monotonic() < end:
        h.frames(0.1)
    h.frame()
    ev = h.c.evaluation.evaluation
    assert check_numbers(h, list(ev.values), ringed=ev.best) == 6
    for lab in shown(h):  # each the score lead of its own move
        p = point_of(h, lab, list(ev.values))
        assert float(lab.text) == pytest.approx(ev.values[p].score, abs=0.051 if "." in lab.text else 0.5)
    legend = h.w.hud.legend.text
    assert "mean margin of its random games in points" in legend and "score lead" not in legend
    assert "green the best to red" in legend and "Small dots" in legend


def test_at_the_minimum_size_the_panels_text_stops_above_the_graph(app_window):  # noqa: F811
    h = app_window(size=9, width=640, height=480, eval_games=2, eval_turns=2)
    for v in ("E5", "C4", "G4"):
        h.click_point(v)
    h.press(h.key.E)
    end = time.monotonic() + 60
    while h.c.evaluation is None and time.monotonic() < end:
        h.frames(0.1)
    h.frame()
    hud = h.w.hud
    assert hud.legend.text  # the key to the numbers shows, cut where room ends
    for lab in (hud.info, hud.message, hud.legend):
        if lab.text:
            assert lab.y - lab.content_height >= h.w.graph.top - 1, lab.text[:40]
            assert lab.content_width <= lab.width
