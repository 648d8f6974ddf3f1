"""The file picker with real keys and clicks: Ctrl+O lists folders and SGF files only (sorted,
``..`` first), Enter opens a folder or loads a file, Backspace goes up, the recent files come
first; Ctrl+S saves under a typed name (a second Enter replaces an existing file); a click
selects, a double click loads, the wheel scrolls; a bad path is one line and nothing changes."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from test_window import Harness, app_window, gui, is_black_stone  # noqa: F401  (fixtures)

from gorilla.app.go.sgf_text import game_from_sgf
from gorilla.app.settings import Settings

pytestmark = pytest.mark.gui


def names(h: Harness) -> list[str]:
    return [e.label for e in h.w.picker.browser.entries]


def select(h: Harness, label: str) -> None:
    """Down/Up until the row with label is selected."""
    b = h.w.picker.browser
    target = names(h).index(label)
    while b.index != target:
        h.press(h.key.DOWN if b.index < target else h.key.UP)


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "Zeta").mkdir()
    (tmp_path / "a.sgf").write_text("(;SZ[9];B[ee];W[cc])")
    (tmp_path / "B.sgf").write_text("(;SZ[9];B[gg])")
    (tmp_path / "sub" / "deep.sgf").write_text("(;SZ[9];B[cg];W[gc];B[ge])")
    (tmp_path / "notes.txt").write_text("not a game")
    (tmp_path / ".hidden.sgf").write_text("(;SZ[9])")
    (tmp_path / "broken.sgf").write_text("(;SZ[9];B[zz")
    return tmp_path


def test_ctrl_o_lists_folders_and_sgf_files_and_loads_with_the_keys(app_window, folder):  # noqa: F811
    h = app_window(settings=Settings())
    k = h.key
    h.press(k.O, k.MOD_CTRL)
    assert h.w.picker is not None and h.w.picker.browser.folder == str(folder)
    assert names(h) == ["..", "sub/", "Zeta/", "a.sgf", "B.sgf", "broken.sgf"]
    view = h.w.camera.viewport[2]
    img = h.screen()
    box = img[h.w.picker.y + 20, h.w.picker.x + 10 : h.w.picker.x + 30].astype(int)
    assert box.max() < 40 and view > h.w.picker.x  # the picker's dark box over the board
    select(h, "sub/")
    h.press(k.ENTER)  # into the folder
    assert h.w.picker.browser.folder == str(folder / "sub") and names(h) == ["..", "deep.sgf"]
    h.press(k.BACKSPACE)  # an empty name: up a folder, the folder we left selected
    assert h.w.picker.browser.folder == str(folder) and h.w.picker.browser.selected.name == "sub"
    h.press(k.ENTER)
    select(h, "deep.sgf")
    h.press(k.ENTER)
    assert h.w.picker is None and h.c.message == f"Loaded {folder / 'sub' / 'deep.sgf'}"
    assert h.c.game.move_number == 3 and is_black_stone(h.patch("C3"))
    # the recent files come first next time, and are remembered in the settings
    h.press(k.O, k.MOD_CTRL)
    first = h.w.picker.browser.entries[0]
    assert first.kind == "recent" and first.path == str(folder / "sub" / "deep.sgf")
    cfg = json.loads(Path(Settings().path).read_text())
    assert cfg["recent_files"] == [str(folder / "sub" / "deep.sgf")]
    # ... and the picker starts in the last folder used (remembered)
    assert h.w.picker.browser.folder == str(folder / "sub") == cfg["last_folder"]
    h.press(k.BACKSPACE)
    # a file that is no game: one line, the game stays
    select(h, "broken.sgf")
    h.press(k.ENTER)
    assert h.c.message.startswith(f"Cannot load {folder / 'broken.sgf'}") and h.c.game.move_number == 3
    assert json.loads(Path(Settings().path).read_text())["recent_files"] == [str(folder / "sub" / "deep.sgf")]


def test_ctrl_s_saves_under_a_typed_name_and_asks_before_replacing(app_window, folder):  # noqa: F811
    h = app_window()
    k = h.key
    h.click_point("E5")
    h.press(k.S, k.MOD_CTRL)
    for _ in range(len(h.w.prompt)):
        h.press(k.BACKSPACE)
    h.type_text("mine")
    h.press(k.ENTER)
    assert (
        h.w.picker is None
        and (folder / "mine.sgf").is_file()
        and h.c.message == f"Saved {folder / 'mine.sgf'}"
    )
    assert len(game_from_sgf((folder / "mine.sgf").read_text()).moves) == 1
    h.click_point("C3")
    h.press(k.S, k.MOD_CTRL)
    for _ in range(len(h.w.prompt)):
        h.press(k.BACKSPACE)
    h.type_text("mine.sgf")
    h.press(k.ENTER)  # it exists: one line, nothing written yet
    assert h.w.picker is not None and "exists: Enter again replaces it" in h.w.picker.browser.error
    assert len(game_from_sgf((folder / "mine.sgf").read_text()).moves) == 1
    h.press(k.ENTER)
    assert h.w.picker is None and len(game_from_sgf((folder / "mine.sgf").read_text()).moves) == 2
    h.press(k.S, k.MOD_CTRL)  # a folder that is not there: one line, the picker stays
    for _ in range(len(h.w.prompt)):
        h.press(k.BACKSPACE)
    h.type_text(str(folder / "nowhere" / "x.sgf"))
    h.press(k.ENTER)
    assert h.w.picker.browser.error == f"No such folder: {folder / 'nowhere'}"
    assert not (folder / "nowhere").exists()
    h.press(k.ESCAPE)
    assert h.w.picker is None


def test_the_mouse_selects_double_clicks_and_scrolls(app_window, folder):  # noqa: F811
    for i in range(20):
        (folder / f"game{i:02d}.sgf").write_text("(;SZ[9];B[ee])")
    (folder / "game07.sgf").write_text("(;SZ[9];B[ee];W[gg];B[cc];W[cg];B[gc];W[ge];B[ce])")
    h = app_window()
    h.press(h.key.O, h.key.MOD_CTRL)
    p = h.w.picker
    assert p.browser.selected.name == "game07.sgf"  # the newest file is selected at first
    h.press(h.key.HOME)
    rows = [lab.text for lab in p.rows]
    assert rows[0] == ".." and len(names(h)) > len(p.rows)  # more files than rows
    h.event("on_mouse_scroll", p.x + 100, p.row_y(3), 0, -3)  # the wheel: down the list
    h.frame()
    assert p.top > 0 and p.rows[0].text != ".."
    target = names(h).index("game07.sgf")
    i = target - p.top
    assert 0 <= i < len(p.rows) and p.rows[i].text == "game07.sgf"
    x, y = p.x + 60, p.row_y(i)
    h.click(x, y)  # one click selects
    assert p.browser.selected.name == "game07.sgf" and h.w.picker is not None
    img = h.screen()
    assert np.abs(img[y, p.x + 23].astype(int) - (44, 52, 64)).max() < 20  # the selection bar there
    h.click(x, y)  # the second click: loads it
    assert h.w.picker is None and h.c.game.move_number == 7


def test_the_pickers_start_in_the_last_folder_used_and_a_typed_folder_lists_at_once(
    app_window,  # noqa: F811
    folder,
    tmp_path_factory,
    monkeypatch,
):
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    (elsewhere / "far.sgf").write_text("(;SZ[9];B[cc])")
    monkeypatch.chdir(elsewhere)  # started from another folder than the autosave's
    h = app_window()
    k = h.key
    h.press(k.O, k.MOD_CTRL)  # nothing remembered yet: the current folder
    assert h.w.picker.browser.folder == str(elsewhere) and "far.sgf" in names(h)
    h.type_text(f"{folder}/")  # a typed folder lists at once, no Enter needed
    assert h.w.picker.browser.folder == str(folder) and h.w.prompt == "" and "sub/" in names(h)
    h.type_text("sub/de")  # a folder and the start of a name: the folder lists, the name stays
    assert h.w.picker.browser.folder == str(folder / "sub") and h.w.prompt == "de"
    assert [lab.text for lab in h.w.picker.rows][:2] == ["..", "deep.sgf"]  # what the picker draws
    h.type_text("ep.sgf")
    h.press(k.ENTER)
    assert h.c.message == f"Loaded {folder / 'sub' / 'deep.sgf'}"
    h.press(k.S, k.MOD_CTRL)  # Save starts where the last file came from
    assert h.w.picker.browser.folder == str(folder / "sub")
    h.press(k.ESCAPE)
    again = app_window()  # a new window (the next start): the folder is remembered
    again.press(k.O, k.MOD_CTRL)
    assert again.w.picker.browser.folder == str(folder / "sub")
    again.press(k.ESCAPE)
