"""The window's whole-game analysis with real input: load a game with a variation, ``g``
analyses it while frames keep coming, a click on the graph jumps the board to that move,
``n`` / Shift+``n`` find the blunder, ``d`` puts the dots on the stones, ``o`` the ownership."""

from __future__ import annotations

import time

import numpy as np
import pytest
from sgfmill import sgf
from test_review import line
from test_window import Harness, gui, is_black_stone, is_wood, make  # noqa: F401  (fixtures)

from gorilla.app.go.report import CLASS_COLORS, move_class
from gorilla.gui.scene import STONE_TOP, build_scene
from gorilla.rules.board import EMPTY
from gorilla.rules.sgf import save_sgf

pytestmark = pytest.mark.gui


@pytest.fixture
def window(make):  # noqa: F811
    """Windows over two humans' controllers whose analysis searches 1500 playouts a position."""

    def factory() -> Harness:
        h = make()
        h.c.review.playouts = 1500
        h.c.review.engine = "mcts"  # these pixels and keys are checked on the classical search
        return h

    return factory


def _game_with_a_variation(path) -> None:
    sg = sgf.Sgf_game.from_string(save_sgf(line("J1", "E6", "A5", "J5")))
    var = sg.get_root().new_child()
    var.set_move("b", (5, 4))  # E6, the capture
    var.set("C", "the capture")
    path.write_bytes(sg.serialise())


def _analyse(h: Harness, timeout: float = 120.0) -> int:
    """Press g and run frames until the analysis is done; the frames drawn meanwhile."""
    h.press(h.key.G)
    assert h.c.review.running
    before = h.w.frames
    end = time.monotonic() + timeout
    while h.c.review.running and time.monotonic() < end:
        h.frames(0.2)
    assert not h.c.review.running, "the analysis did not finish"
    h.frame()
    return h.w.frames - before


def _graph_click(h: Harness, move: int) -> None:
    gx, gy, w, hh = h.w.graph.rect
    h.click(round(gx + w * move / h.w.graph.total), round(gy + hh / 2))


def test_g_analyses_the_game_and_a_click_on_the_graph_jumps_there(window, tmp_path):
    src = tmp_path / "variations.sgf"
    _game_with_a_variation(src)
    h = window()
    h.c.load(str(src))
    h.frame()
    assert h.c.game.move_number == 4
    drawn = _analyse(h)
    assert drawn >= 2  # the window kept drawing (the progress bar) while the worker searched
    assert "Analysis done" in h.c.message and "Black: " in h.c.message  # and the report
    assert "worst 1 (-" in h.c.message.split("Black: ")[1]  # the blunder first
    assert h.w.graph.total == 4 and len(graph_points(h)) == 5

    h.press(h.key.D)  # the dots off: the stones as they are
    _graph_click(h, 1)  # the board jumps to move 1: J1 stands, E6 is still empty
    assert h.c.game.move_number == 1
    assert h.c.game.position.color_at(h.point("E6")) == EMPTY
    img = h.screen()
    assert is_black_stone(h.patch("J1", img)) and is_wood(h.patch("E6", img))
    _graph_click(h, 4)
    assert h.c.game.move_number == 4
    _graph_click(h, 0)
    assert h.c.game.move_number == 0

    h.press(h.key.N)  # the next mistake from the start: the blunder J1
    assert h.c.game.move_number == 1 and "lost" in h.c.message
    _graph_click(h, 4)
    h.press(h.key.N, h.key.MOD_SHIFT)
    assert h.c.game.move_number == 1
    h.press(h.key.N, h.key.MOD_ALT)
    assert h.c.review.threshold == 5.0 and "5+" in h.c.message


def graph_points(h: Harness) -> list:
    return [e for e in h.c.review.positions(h.c.game) if e is not None]


def test_d_shows_the_dots_and_o_the_ownership(window):
    h = window()
    h.c.game = line("J1", "E6", "A5", "J5")
    _analyse(h)
    h.c.goto_move(1)
    h.frame()
    x, y = (round(v) for v in h.w.camera.point_to_screen(h.point("J1"), STONE_TOP))
    dot = h.screen()[y - 1 : y + 2, x - 1 : x + 2].reshape(-1, 3).astype(float).mean(axis=0)
    lost = next(r.points_lost for r in h.c.review.reviews(h.c.game) if r.number == 1)
    cls = move_class(lost)
    assert cls >= 4  # J1 throws a corner away: a big mistake or a blunder
    assert np.abs(dot - np.array(CLASS_COLORS[cls])).max() < 40  # the dot in its class's colour
    h.press(h.key.D)
    assert not h.c.review.show_dots
    dot = h.screen()[y - 1 : y + 2, x - 1 : x + 2].reshape(-1, 3).astype(float).mean(axis=0)
    assert is_black_stone(dot)

    plain = len(build_scene(h.c).under)
    h.press(h.key.O)
    assert h.c.show_ownership
    scene = build_scene(h.c)
    assert len(scene.under) > plain + 20  # squares on the empty points
    own = h.c.ownership_map()
    assert own[8, 0] < -0.5 and own[0, 0] > 0.5  # A1 Black's, A9 White's
