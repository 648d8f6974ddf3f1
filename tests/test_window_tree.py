"""The record in a real window (Xvfb, real key and mouse events): open a file with variations,
move through it with the arrow keys, switch and promote variations, delete and undo, type a
comment, set up a position; the board drawn follows."""

from __future__ import annotations

from test_window import Harness, app_window, gui, is_black_stone, is_white_stone, is_wood  # noqa: F401

from gorilla.app.status_text import status_lines
from gorilla.rules.board import BLACK, WHITE

RECORD = (
    "(;GM[1]FF[4]SZ[9]C[a game with variations];B[ee]C[tengen];W[cc](;B[gg];W[gc])(;B[cg]C[side])(;B[gc]))"
)


def open_file(h: Harness, path: str) -> None:
    """Ctrl+O, the path typed into the file picker, Enter: as a person opens a file."""
    h.press(h.key.O, h.key.MOD_CTRL)
    for _ in range(len(h.w.prompt or "")):
        h.press(h.key.BACKSPACE)
    h.type_text(path)
    h.press(h.key.ENTER)


def test_open_a_record_and_move_through_its_variations_with_the_keys(app_window, tmp_path) -> None:  # noqa: F811
    path = tmp_path / "variations.sgf"
    path.write_text(RECORD)
    h = app_window()
    k = h.key
    open_file(h, str(path))
    c = h.c
    assert c.message.startswith("Loaded") and c.game.move_number == 4  # the main line's end
    assert is_white_stone(h.patch("G7")) and is_black_stone(h.patch("G3"))

    h.press(k.HOME)
    assert c.game.move_number == 0 and is_wood(h.patch("E5"))
    assert "Comment: a game with variations" in status_lines(c)
    h.press(k.RIGHT)
    assert c.game.move_number == 1 and is_black_stone(h.patch("E5"))
    assert "Comment: tengen" in status_lines(c)
    h.press(k.RIGHT)
    h.press(k.RIGHT)
    assert [m.point for m in c.game.moves][-1] == h.point("G3")
    h.press(k.LEFT)  # the branching point: no stone on G3, the letter A of its variation instead
    assert c.game.move_number == 2 and not is_black_stone(h.patch("G3"))
    assert "3 variations here: B G3 (next), B C3, B G7" in status_lines(c)

    h.press(k.RIGHT)
    h.press(k.DOWN)  # the next variation at move 3: C3
    assert c.game.moves[-1].point == h.point("C3") and is_black_stone(h.patch("C3"))
    assert is_wood(h.patch("G3"))
    assert "Comment: side" in status_lines(c)
    h.press(k.DOWN)
    assert c.game.moves[-1].point == h.point("G7") and is_black_stone(h.patch("G7"))
    h.press(k.UP)
    assert c.game.moves[-1].point == h.point("C3")

    h.press(k.L)  # this line becomes the main line
    assert c.tree.on_main_line() and c.tree.main_line()[-1].point == h.point("C3")

    h.press(k.DELETE)  # delete C3: back to move 2, the board without it
    assert c.game.move_number == 2 and is_wood(h.patch("C3")) and len(c.tree) == 6
    h.press(k.U)  # undo puts it back
    assert len(c.tree) == 7 and c.game.moves[-1].point == h.point("C3") and is_black_stone(h.patch("C3"))

    h.press(k.END)
    h.press(k.HOME, k.MOD_SHIFT)  # Shift does not change Home
    assert c.game.move_number == 0
    h.press(k.RIGHT, k.MOD_SHIFT)  # ten moves: to the end of the line
    assert c.game.move_number == 3

    # Alt+arrows orbit the camera, the record stays
    before = h.w.camera.state()
    h.press(k.LEFT, k.MOD_ALT)
    assert h.w.camera.state() != before and c.game.move_number == 3

    # a comment typed into the box goes into the record, and into the saved file
    h.press(k.ENTER)
    for _ in range(len(c.comment)):
        h.press(k.BACKSPACE)
    h.type_text("a better move")
    h.press(k.R)  # keys type into the box: no new game
    assert c.game.move_number == 3
    h.type_text("r")
    h.press(k.ENTER)
    assert c.comment == "a better mover" and h.w.comment is None
    h.press(k.S, k.MOD_CTRL)
    h.press(k.ENTER)  # the picker's time-stamped name
    saved = [p for p in tmp_path.iterdir() if p.name.startswith("gorilla-")]
    assert saved and "C[a better mover]" in saved[0].read_text()


def test_set_up_a_position_with_the_mouse_then_play(app_window) -> None:  # noqa: F811
    h = app_window()
    k, c = h.key, h.c
    h.press(k.B)
    assert c.editing
    h.click_point("C3")
    h.click_point("D4")
    h.click_point("G7", button=h.mouse.RIGHT)
    h.click_point("D4")  # again: off
    h.press(k.X)
    assert c.game.to_move == WHITE
    h.press(k.B)
    assert not c.editing
    assert c.game.setup == {h.point("C3"): BLACK, h.point("G7"): WHITE}
    assert is_black_stone(h.patch("C3")) and is_white_stone(h.patch("G7")) and is_wood(h.patch("D4"))
    h.click_point("E5")  # White plays first
    assert c.game.moves[-1].color == WHITE and is_white_stone(h.patch("E5"))


def test_a_click_on_a_numbered_stone_goes_to_its_move(app_window, tmp_path) -> None:  # noqa: F811
    path = tmp_path / "variations.sgf"
    path.write_text(RECORD)
    h = app_window()
    open_file(h, str(path))
    h.press(h.key.I)  # move numbers: the last 10
    assert h.w.move_numbers != "off"
    h.click_point("E5")  # move 1: the board goes back to it
    assert h.c.game.move_number == 1 and is_wood(h.patch("C7")) and len(h.c.game.redo_stack) == 3
    h.press(h.key.END)
    assert h.c.game.move_number == 4


def test_the_moves_markup_is_drawn_on_the_board(app_window, tmp_path) -> None:  # noqa: F811
    path = tmp_path / "marks.sgf"
    path.write_text("(;SZ[9];B[ee]TR[ee]LB[cc:a][gg:b]MA[cg];W[gc])")
    h = app_window()
    open_file(h, str(path))
    h.press(h.key.LEFT)  # to move 1, the marked one
    shown = {lab.text for lab in h.w.hud.board_labels if lab.visible}
    assert {"\u25b3", "a", "b", "\u00d7"} <= shown
    tri = next(lab for lab in h.w.hud.board_labels if lab.visible and lab.text == "\u25b3")
    assert abs(tri.x - h.screen_of("E5")[0]) < 12  # on the stone at E5
    assert tuple(tri.color) == (255, 255, 255, 255)  # light on a black stone
    h.press(h.key.RIGHT)  # move 2 has no markup
    assert not [lab for lab in h.w.hud.board_labels if lab.visible]


def test_w_shows_the_game_tree_and_a_click_on_a_node_moves_the_board_there(app_window, tmp_path) -> None:  # noqa: F811
    path = tmp_path / "variations.sgf"
    path.write_text(RECORD)
    h = app_window()
    open_file(h, str(path))
    c, tv = h.c, h.w.tree_view
    h.press(h.key.W)
    assert tv.visible and len(tv.places) == len(c.tree) == 7
    rows = {(p.node.depth, p.node.point): p.row for p in tv.places if p.node.parent is not None}
    assert rows[(3, h.point("G3"))] == 0 and rows[(3, h.point("C3"))] == 1 and rows[(3, h.point("G7"))] == 2
    side = next(p for p in tv.places if p.node.point == h.point("C3"))
    x, y = (round(v) for v in tv.centre(side))
    img = h.screen()
    assert img[y, x].max() < 60  # a black disc for Black's C3
    h.click(x, y)
    assert c.game.move_number == 3 and c.game.moves[-1].point == h.point("C3")
    img = h.screen()
    assert is_black_stone(h.patch("C3", img)) and is_wood(h.patch("G3", img))
    ring = img[y + 9, x - 1 : x + 2].astype(int).mean(axis=0)  # the current node's ring: blue
    assert ring[2] > 180 and ring[0] < 140
    # the variations' letters on the board at the branching point
    h.press(h.key.LEFT)
    letters = {lab.text: (lab.x, lab.y) for lab in h.w.hud.board_labels if lab.visible}
    for letter, vertex in (("A", "G3"), ("B", "C3"), ("C", "G7")):
        sx, sy = h.w.camera.point_to_screen(h.point(vertex))
        assert abs(letters[letter][0] - sx) < 2 and abs(letters[letter][1] - sy) < 2
    h.press(h.key.W)
    assert not tv.visible
    h.click_point("E3")  # with the tree hidden, a click there plays again
    assert c.game.moves[-1].point == h.point("E3")


def test_the_tree_view_follows_the_current_move_in_a_long_game(app_window, tmp_path) -> None:  # noqa: F811
    path = tmp_path / "long.sgf"
    path.write_text("(;SZ[19]" + _long_line(120) + ")")
    h = app_window(size=19)
    open_file(h, str(path))
    tv = h.w.tree_view
    h.press(h.key.W)
    assert h.c.game.move_number == 120
    here = next(p for p in tv.places if p.node is h.c.tree.current)
    assert tv._inside(*tv.centre(here)) and tv.offset[0] > 0  # scrolled to the end
    h.press(h.key.HOME)
    start = next(p for p in tv.places if p.node is h.c.tree.current)
    assert tv._inside(*tv.centre(start)) and tv.offset[0] == 0
    bx, by, bw, bh = tv.rect
    h.event("on_mouse_scroll", bx + bw // 2, by + bh // 2, 0, -3)  # the wheel scrolls the tree
    h.frame()
    assert tv.offset[0] > 0 and h.c.game.move_number == 0


def _long_line(n: int) -> str:
    """n legal moves on 19x19: Black along the odd rows, White along the even ones."""
    cols = "abcdefghijklmnopqrs"
    out = []
    for i in range(n):
        k = i // 2
        x, y = k % 19, 2 * (k // 19) + (i % 2)
        out.append(f";{'BW'[i % 2]}[{cols[x]}{cols[y]}]")
    return "".join(out)
