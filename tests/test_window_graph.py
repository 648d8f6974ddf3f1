"""The review graph drawn in a real window under Xvfb, its pixels read back (issue 64): every
number of its axes whole inside its box and clear of the plot (no curve over a number), the minus of
a negative score drawn (a true minus sign at whole pixels, as visible as the plus: at small ticks
it had vanished), the score ticks never on top of each other in a low plot, the legend whole while
analysing, at the panel's widest and narrowest."""

from __future__ import annotations

import ctypes
import math

import numpy as np
import pytest
from test_window import gui, make  # noqa: F401  (fixtures)

from gorilla.gui.graph import SCORE, WINRATE, Graph, GraphData, score_ticks

pytestmark = pytest.mark.gui


def game_curve(total: int = 60, swing: float = 30.0) -> GraphData:
    """A game that swings: Black's win rate and lead rise to +swing and fall to 2 - swing."""
    pts = [(k, 0.5 + 0.45 * math.sin(k / 9.0), swing * math.sin(k / 9.0) - 2.0) for k in range(total + 1)]
    return GraphData(
        pts, [(12, 4.0), (41, 12.0)], 30, total, threshold=3.0, info="30. B D4 lost 0.4\nbest D4 C3"
    )


def draw_alone(h, graph: Graph) -> np.ndarray:
    """The window's back buffer with the graph alone drawn on it: (height, width, 3), row 0 bottom."""
    from pyglet import gl

    w = h.w
    w.switch_to()
    fw, fh = w.get_framebuffer_size()
    gl.glViewport(0, 0, fw, fh)
    gl.glClearColor(0.0, 0.0, 0.0, 1.0)
    gl.glClear(gl.GL_COLOR_BUFFER_BIT | gl.GL_DEPTH_BUFFER_BIT)
    gl.glEnable(gl.GL_BLEND)
    gl.glBlendFunc(gl.GL_SRC_ALPHA, gl.GL_ONE_MINUS_SRC_ALPHA)
    graph.draw()
    gl.glFinish()
    buf = (ctypes.c_ubyte * (fw * fh * 4))()
    gl.glPixelStorei(gl.GL_PACK_ALIGNMENT, 1)
    gl.glReadBuffer(gl.GL_BACK)
    gl.glReadPixels(0, 0, fw, fh, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, buf)
    return np.frombuffer(buf, dtype=np.uint8).reshape(fh, fw, 4)[:, :, :3].astype(int)


def near(img: np.ndarray, colour: tuple, tol: int = 40) -> np.ndarray:
    return np.abs(img - np.array(colour[:3])).max(axis=2) < tol


def label_box(lab) -> tuple[float, float, float, float]:
    """(left, bottom, right, top) of a one-line label from its anchors."""
    w, hh = lab.content_width, lab.content_height
    left = {"left": lab.x, "center": lab.x - w / 2, "right": lab.x - w}[lab.anchor_x]
    bottom = {"bottom": lab.y, "center": lab.y - hh / 2, "top": lab.y - hh, "baseline": lab.y - hh / 4}[
        lab.anchor_y
    ]
    return left, bottom, left + w, bottom + hh


@pytest.mark.parametrize(
    "width, height, swing, tick",
    [(298, 90, 30.0, "20"), (238, 56, 30.0, "20"), (298, 90, 7.0, "5")],  # the panel's widest, narrowest
)
def test_the_axes_numbers_lie_whole_in_the_box_clear_of_the_curves(make, width, height, swing, tick):  # noqa: F811
    h = make()
    g = Graph()
    g.layout(500, 200, width, height)
    g.update(game_curve(swing=swing))
    img = draw_alone(h, g)
    bx, by, bw, bh = g.box
    gx, gy, gw, gh = g.rect
    numbers = [s for s in g.shapes if hasattr(s, "text")]
    texts = {s.text for s in numbers}
    assert {"100%", "50%", "0%"} <= texts and {"+" + tick, "\u2212" + tick} <= texts
    for lab in numbers:
        left, bottom, right, top = label_box(lab)
        assert bx <= left and right <= bx + bw and by <= bottom and top <= by + bh, lab.text  # whole
        inside = left < gx + gw and gx < right and bottom < gy + gh and gy < top
        assert not inside, f"{lab.text} is on the plot, under the curves"
        # no pixel of the other curve's colour inside the number: nothing is drawn over it
        other = WINRATE if tuple(lab.color) == SCORE else SCORE
        cell = img[math.floor(bottom) : math.ceil(top), math.floor(left) : math.ceil(right)]
        assert not near(cell, other, 30).any(), f"a curve over {lab.text}"
    minus = [s for s in numbers if s.text.startswith("\u2212")]
    for lab in minus:  # the minus is drawn: score-coloured pixels left of the digits' middle
        left, bottom, right, top = label_box(lab)
        cell = img[math.floor(bottom) : math.ceil(top), math.floor(left) : math.floor(left) + 4]
        assert near(cell, SCORE, 60).any(), f"no minus in {lab.text}"
    ticks = sorted(s.y for s in numbers if s.text[0] in "+\u2212")
    assert all(b - a >= 9 for a, b in zip(ticks, ticks[1:], strict=False))  # no two on top of each other
    # the curves stay in the plot: no curve colour in the margins between the box's edge and the numbers
    assert not near(img[by : by + bh, bx : bx + 2], WINRATE).any()
    assert near(img[gy : gy + gh, gx : gx + gw], WINRATE).sum() > 50


@pytest.mark.parametrize("width", [298, 238])
def test_the_legend_is_whole_while_analysing(make, width):  # noqa: F811
    h = make()
    g = Graph()
    g.layout(500, 200, width, 90)
    data = game_curve()
    data.running, data.fraction = True, 0.4
    g.update(data)
    assert g.info.text.startswith("Analysing... 40%") and "g cancels" in g.info.text
    assert all(w.visible for _, w in g.keys) and g.legend_right <= 500 + width
    assert g.info.content_width <= width and g.title.x + g.title.content_width < g.keys[0][0].x
    img = draw_alone(h, g)
    row = img[200 + 90 + 4 : 200 + 90 + 20, 500 + width : 500 + width + 40]
    assert not (row.max(axis=2) > 60).any(), "the legend runs past the graph's right edge"


def test_score_ticks_are_spaced_for_the_plots_height() -> None:
    assert score_ticks(10.0, 72) == [0.5, -0.5, 1.0, -1.0]  # every 5 points: 18 pixels apart
    assert score_ticks(10.0, 38) == [1.0, -1.0]  # 9.5 pixels apart: only the outermost
    assert score_ticks(45.0, 72) == pytest.approx([20 / 45, -20 / 45, 40 / 45, -40 / 45])
