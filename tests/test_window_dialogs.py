"""The dialogs in a real window under Xvfb, with real keys: each box (the new-game dialog, the
game info, the file pickers, a confirmation, the comment box) is opaque over a busy board; the
new-game dialog shows the rows and choices of the game chosen and its error inside itself."""

from __future__ import annotations

import numpy as np
import pytest
from test_window import Harness, app_window, gui  # noqa: F401  (fixtures)
from test_window_gomoku import gomoku  # noqa: F401  (fixture)
from test_window_newgame import choose, type_row

from gorilla.gui.newgame_dialog import ROW_H, WIDTH
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


def rows(h: Harness) -> list[str]:
    return [f.key for f in h.w.dialog.form.fields]


def red_pixels(img: np.ndarray) -> np.ndarray:
    """(y, x) of the pixels drawn in the dialog's error colour (bright red-orange)."""
    r, g, b = (img[:, :, i].astype(int) for i in range(3))
    return np.argwhere((r > 200) & (g < 150) & (b < 130) & (r - g > 100))


def test_the_new_game_dialog_shows_the_rows_and_choices_of_the_game_chosen(app_window):  # noqa: F811
    h = app_window(9, 1024, 768)
    k = h.key
    h.press(k.N, k.MOD_CTRL)
    d = h.w.dialog
    assert rows(h) == ["size", "rules", "komi", "handicap", "black", "white", "teach", "clock"]
    offered = {v for _, v in d.form["white"].choices}
    assert "net" in offered and not offered & {"pvs", "pvs+vct", "threat1"}  # no Gomoku AI for Go
    go_height = d.height
    choose(h, "handicap", 2)  # handicap stones: their placement's row shows, the box grows
    assert rows(h)[4] == "placement" and d.height == go_height + ROW_H
    img = h.screen()
    assert uniform(img[d.y + 3, d.x + 3 : d.x + 40], DIALOG_BG)
    assert not uniform(img[d.y + d.height + 2, d.x + 3 : d.x + 40], DIALOG_BG)  # its top is its top
    choose(h, "handicap", 0)
    choose(h, "rules", "gomoku freestyle")  # Gomoku: its size, its players, its opening; no komi
    assert rows(h) == ["size", "rules", "black", "white", "opening", "clock"]
    assert d.form["size"].value == 15 and d.form.result().komi == 0
    offered = {v for _, v in d.form["white"].choices}
    assert "pvs+vct" in offered and not offered & {"net", "montecarlo:10,3", "gtp-command"}
    # a bad row: its error inside the dialog, wrapped to it; gone once the row is right
    choose(h, "white", "pbrain-command")
    assert rows(h) == ["size", "rules", "black", "white", "white_cmd", "opening", "clock"]
    h.press(k.ENTER)
    assert h.w.dialog is d and d.form.error.startswith("White: type the engine's command line")
    assert d.error.width <= WIDTH - 40 and d.error.multiline
    red = red_pixels(h.screen())
    assert len(red), "the error is drawn"
    assert (red[:, 1] >= d.x).all() and (red[:, 1] < d.x + WIDTH).all(), "the error runs out of the dialog"
    assert (red[:, 0] >= d.y).all() and (red[:, 0] < d.y + d.height).all()
    type_row(h, "white_cmd", "pbrain-wine")
    assert d.form.error == "" and not len(red_pixels(h.screen())), "the error stays after the fix"
    choose(h, "rules", "japanese")  # back to Go: its rows as they were, the rule's komi
    assert rows(h) == ["size", "rules", "komi", "handicap", "black", "white", "teach", "clock"]
    assert d.form["size"].value == 9 and d.form["komi"].text == "6.5"
    h.press(k.ESCAPE)


def test_ctrl_n_in_a_gomoku_game_shows_the_gomoku_games_settings(gomoku):  # noqa: F811
    h = gomoku(15, "renju", "human", "threat1")
    h.press(h.key.N, h.key.MOD_CTRL)
    form = h.w.dialog.form
    assert form["rules"].value == "gomoku renju" and form["size"].value == 15
    assert form["white"].value == "threat1" and "komi" not in rows(h) and "opening" in rows(h)
    h.press(h.key.ESCAPE)


def test_ctrl_i_shows_and_edits_what_the_record_says_and_a_bad_row_stays_in_the_dialog(
    app_window,  # noqa: F811
    tmp_path,
):
    path = tmp_path / "record.sgf"
    path.write_text(
        "(;GM[1]FF[4]SZ[9]KM[6.5]RU[Japanese]PB[Lee Sedol]BR[9p]PW[AlphaGo]EV[Match]PC[Seoul]"
        "DT[2016-03-09];B[ee];W[cc])"
    )
    h = app_window(9, 1024, 768)
    k = h.key
    h.c.load(str(path))
    h.frame()
    assert h.w.hud.rows[1][2].text == "Lee Sedol 9p" and "Place: Seoul  Date: 2016-03-09" in h.w.hud.info.text
    h.press(k.I, k.MOD_CTRL)
    d = h.w.modals[-1]
    assert [lab.text for lab in d.labels] == [
        "Black", "Black's rank", "White", "White's rank", "Event", "Place", "Date", "Result", "Komi", "Rules",
    ]  # fmt: skip
    assert [t.text for t in d.texts][1:] == [
        "9p",
        "AlphaGo",
        "",
        "Match",
        "Seoul",
        "2016-03-09",
        "",
        "6.5",
        "japanese",
    ]
    for _ in range(8):
        h.press(k.DOWN)  # the komi
    h.press(k.BACKSPACE)
    h.type_text("3")  # 6.3: not a komi
    h.press(k.ENTER)
    assert h.w.modals[-1] is d and d.error.text.startswith("Cannot keep the game info: Komi")
    red = red_pixels(h.screen())
    assert len(red) and (red[:, 1] >= d.x).all() and (red[:, 1] < d.x + d.box.width).all()
    assert (red[:, 0] >= d.y).all() and (red[:, 0] < d.y + d.height).all(), "the error is the dialog's"
    assert h.c.game.komi == 6.5
    h.press(k.BACKSPACE)
    h.type_text("0")  # 6.0
    h.press(k.DOWN)
    h.press(k.RIGHT)  # the Rules row: the next rule set
    h.press(k.ENTER)
    assert not h.w.modals and h.c.game.komi == 6.0 and h.c.game.ruleset.name == "tromp-taylor"
    assert "tromp-taylor rules, komi 6" in h.w.hud.info.text
