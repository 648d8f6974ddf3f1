"""The dialogs in a real window under Xvfb, with real keys: each box (the new-game dialog, the
game info, the file pickers, a confirmation, the comment box) is opaque over a busy board."""

from __future__ import annotations

import numpy as np
import pytest
from test_window import Harness, app_window, gui  # noqa: F401  (fixtures)

from gorilla.gui.toolbar import DIALOG_BG
from gorilla.rules.coords import format_vertex, to_index

pytestmark = pytest.mark.gui

PROMPT_BG = (14, 16, 19)  # the comment box's, below the board


def busy(h: Harness) -> None:
    """Stones on most of the board's middle, both colours (as a person's clicks)."""
    size = h.c.game.size
    for y in range(2, size - 2, 2):
        for x in range(1, size - 1):
            p = to_index(x, y, size)
            if h.c.game.check(p) is None:
                h.c.play(p)
    h.frame()


def edges(img: np.ndarray, x: int, y: int, w: int, hh: int) -> np.ndarray:
    """The pixels just inside a box's left edge and along its bottom, where nothing is written."""
    return np.concatenate([img[y + 3 : y + hh - 3, x + 3], img[y + 3, x + 3 : x + w - 3]])


def uniform(pixels: np.ndarray, rgb: tuple) -> bool:
    return bool((pixels == np.array(rgb[:3], dtype=np.uint8)).all())


@pytest.mark.parametrize("width, height", [(1024, 768), (640, 480)])
def test_every_dialog_is_opaque_over_a_busy_board(app_window, width, height):  # noqa: F811
    h = app_window(19, width, height)
    busy(h)
    k = h.key
    assert h.c.game.move_number > 100
    opened = {
        "new game": lambda: h.press(k.N, k.MOD_CTRL),
        "game info": lambda: h.press(k.I, k.MOD_CTRL),
        "open": lambda: h.press(k.O, k.MOD_CTRL),
        "save": lambda: h.press(k.S, k.MOD_CTRL),
        "reset": lambda: h.press(k.R),
    }
    for name, open_it in opened.items():
        open_it()
        m = h.w.modals[-1]
        box = m.dialog if name == "new game" else m
        w = int(box.box.width)
        assert uniform(edges(h.screen(), box.x, box.y, w, box.height), DIALOG_BG), f"{name}: the board shows"
        h.press(k.ESCAPE)
        assert not h.w.modals, name
    h.press(k.ENTER)  # the comment box below the board
    h.type_text("a note")
    bg = h.w.hud.prompt_bg
    img = h.screen()
    strip = img[int(bg.y) + 3 : int(bg.y + bg.height) - 3, int(bg.x) + 3]
    assert uniform(strip, PROMPT_BG), "the comment box shows the board through"
    h.press(k.ENTER)
    assert h.c.comment == "a note" and format_vertex(h.c.game.moves[-1].point, 19)
