"""The window as a new user meets it (issue 35), with real input under Xvfb: the evaluation's
labels on one scale with a legend (a second ``e`` hides them), the review graph's axes and
legend, the players' names beside a clock, the game info dialog, a click on a stone, the
board size typed in the new-game dialog, the compile message gone without input."""

from __future__ import annotations

import stat
import time

import numpy as np
import pytest
from test_window import Harness, app_window, gui, make  # noqa: F401  (fixtures)

from gorilla.ai import warmup
from gorilla.app.clock import parse_clock
from gorilla.app.compiler import Compiler
from gorilla.app.go.controller import Controller
from gorilla.app.record_info import record_info, short_player, shown_name
from gorilla.rules.board import BLACK, WHITE
from gorilla.rules.coords import parse_vertex
from gorilla.rules.game import Game
from gorilla.rules.sgf import load_tree

pytestmark = pytest.mark.gui


def visible_labels(h: Harness) -> list:
    return [lab for lab in h.w.hud.board_labels if lab.visible]


def box(lab) -> tuple[float, float, float, float]:
    w, hh = lab.content_width, lab.content_height
    return lab.x - w / 2, lab.y - hh / 2, lab.x + w / 2, lab.y + hh / 2


def overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def wait_for(h: Harness, cond, timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while not cond() and time.monotonic() < end:
        h.frames(0.1)
    assert cond(), "timed out"


def test_evaluation_labels_share_one_scale_mark_the_best_and_a_second_e_hides_them(make):  # noqa: F811
    h = make(size=19, eval_games=2, eval_turns=2)
    for v in ("Q16", "D4", "Q4", "D16"):
        h.click_point(v)
    h.press(h.key.E)
    wait_for(h, lambda: h.c.evaluation is not None)
    h.frame()
    ev = h.c.evaluation.evaluation
    labels = visible_labels(h)
    assert len(labels) == 6
    at = {h.w.camera.point_to_screen(p): p for p in ev.values}
    shown = {}
    for lab in labels:  # every number on a move, and that move's own score lead: one scale
        p = next(q for (x, y), q in at.items() if abs(lab.x - x) < 2 and abs(lab.y - y) < 2)
        shown[p] = float(lab.text)
        assert shown[p] == pytest.approx(ev.values[p].score, abs=0.051 if "." in lab.text else 0.5)
    assert ev.best in shown  # the ringed best among them
    others = sorted((p for p in ev.values if p != ev.best), key=lambda p: -ev.values[p].score)[:5]
    assert set(shown) == {ev.best, *others}
    assert all(len(lab.text) <= 4 for lab in labels)
    # labels on points apart do not overlap (the flat evaluator's random playouts may put two
    # candidates on neighbouring points, whose labels can touch at this zoom)
    (ax, ay), (cx, cy) = (h.w.camera.point_to_screen(parse_vertex(v, 19)) for v in ("K10", "L10"))
    step = ((ax - cx) ** 2 + (ay - cy) ** 2) ** 0.5
    apart = [
        (box(a), box(b))
        for i, a in enumerate(labels)
        for b in labels[i + 1 :]
        if ((a.x - b.x) ** 2 + (a.y - b.y) ** 2) ** 0.5 > 1.5 * step
    ]
    assert not any(overlap(a, b) for a, b in apart), "labels overlap"
    legend = h.w.hud.legend.text
    # the flat evaluator's numbers are the mean margin of its short random games, and say so
    assert "best move" in legend and "mean margin of its random games in points" in legend
    assert "Small dots" in legend and "score lead" not in legend
    from gorilla.rules.coords import format_vertex

    assert format_vertex(ev.best, 19) in legend

    evaluation = h.c.evaluation
    h.press(h.key.E)  # again: hidden, not evaluated again
    assert not h.c.show_eval and not h.c.evaluating and h.c.evaluation is evaluation
    assert not visible_labels(h) and h.w.hud.legend.text == ""
    h.press(h.key.E)  # and shown again
    assert h.c.show_eval and len(visible_labels(h)) == 6 and not h.c.evaluating


def test_the_review_graph_has_axes_a_legend_and_the_current_move_marked(make):  # noqa: F811
    h = make()
    h.c.review.engine, h.c.review.playouts = "mcts", 300
    for v in ("E5", "C3", "G7"):
        h.click_point(v)
    h.press(h.key.G)
    wait_for(h, lambda: not h.c.review.running, timeout=120)
    h.frame()
    g = h.w.graph
    texts = {s.text for s in g.shapes if hasattr(s, "text")}
    assert {"100%", "50%", "0%"} <= texts  # the win rate's scale
    assert {"+10", "\u221210"} <= texts or {"+5", "\u22125"} <= texts  # the score lead's ticks
    assert "1" in texts and "2" in texts  # move numbers along the bottom
    words = [w.text for _, w in g.keys]
    assert words[:2] == ["win rate", "score lead"] and all(w.visible for _, w in g.keys)
    img = h.screen()
    for rect, _ in g.keys[:2]:  # the swatches in the curves' colours
        x, y = round(rect.x + 6), round(rect.y + 1)
        assert np.abs(img[y, x].astype(int) - np.array(rect.color[:3])).max() < 40
    gx, gy, w, hh = g.rect
    x = round(gx + w * 3 / 3)  # the current move: 3 of 3, a white line at the right
    column = img[round(gy) + 2 : round(gy + hh) - 2, x - 1]
    assert (column.min(axis=1) > 200).sum() > hh / 2


def test_names_stay_readable_beside_a_clock_with_the_full_spec_on_hover(app_window):  # noqa: F811
    h = app_window(white="mcts:time=2,threads=2,seed=3", clock=parse_clock("10m+5x30s"))
    _, _, black, _ = h.w.hud.rows[BLACK]
    _, _, white, _ = h.w.hud.rows[WHITE]
    assert h.w.hud.clocks[WHITE].visible and h.w.hud.clocks[WHITE].text.startswith("10:00")
    assert black.text == "Human" and white.text == "MCTS 2s"
    assert "\u2026" not in white.text and short_player("net:visits=200") == "Net 200v"
    x, y = white.x + 5, white.y
    h.event("on_mouse_motion", round(x), round(y), 0, 0)
    h.frame()
    assert h.w.hud._tip_on and "mcts:time=2,threads=2" in h.w.hud.tip.text


def test_a_records_names_show_and_the_game_info_dialog_edits_them(app_window, tmp_path):  # noqa: F811
    path = tmp_path / "named.sgf"
    path.write_text("(;SZ[9]PB[Honinbo Shusaku]PW[Gennan Inseki]EV[Castle game];B[ee];W[cc])")
    h = app_window()
    h.c.load(str(path))
    h.frame()
    assert h.w.hud.rows[BLACK][2].text == "Honinbo Shusaku" and h.w.hud.rows[WHITE][2].text == "Gennan Inseki"
    assert "Event: Castle game" in h.w.hud.info.text
    h.press(h.key.I, h.key.MOD_CTRL)
    h.press(h.key.TAB)  # Black's rank
    h.type_text("4d")
    h.press(h.key.TAB)  # White's row
    for _ in range(len("Gennan Inseki")):
        h.press(h.key.BACKSPACE)
    h.type_text("Ota Yuzo")
    h.press(h.key.TAB)
    h.press(h.key.TAB)  # the event
    h.type_text(" 1843")
    h.press(h.key.ENTER)
    assert shown_name(h.c.names(), BLACK, "human") == "Honinbo Shusaku 4d"  # the rank with the name
    assert h.w.hud.rows[WHITE][2].text == "Ota Yuzo" and "Event: Castle game 1843" in h.w.hud.info.text
    out = tmp_path / "saved.sgf"
    h.c.save(str(out))
    info = record_info(load_tree(out.read_text()))
    assert (info.black, info.white, info.event) == ("Honinbo Shusaku", "Ota Yuzo", "Castle game 1843")
    assert info.black_rank == "4d" and "BR[4d]" in out.read_text()
    # a click on a name opens the dialog too; Esc leaves the names as they were
    x, y = h.w.hud.rows[BLACK][2].position[:2]
    h.click(round(x) + 10, round(y))
    h.type_text("X")
    h.press(h.key.ESCAPE)
    assert record_info(h.c.tree).black == "Honinbo Shusaku" and h.c.game.move_number == 2


def test_a_click_on_a_stone_says_why_and_marks_it_red_briefly(make):  # noqa: F811
    h = make()
    h.click_point("E5")
    x, y = h.screen_of("E5", 0.1)

    def red() -> int:
        img = h.screen()[y - 25 : y + 25, x - 25 : x + 25].astype(int)
        return int(((img[:, :, 0] > 150) & (img[:, :, 1] < 80) & (img[:, :, 2] < 80)).sum())

    assert red() == 0
    h.click_point("E5")
    assert "Illegal move at E5" in h.c.message and h.c.game.move_number == 1
    assert red() > 20
    h.frames(0.8)  # no input: the mark goes by itself
    assert red() == 0 and h.c.game.move_number == 1


def test_the_board_size_is_typed_in_the_new_game_dialog(app_window):  # noqa: F811
    h = app_window(size=19)
    h.press(h.key.N, h.key.MOD_CTRL)
    form = h.w.dialog.form
    assert form.focused.key == "size"
    h.type_text("1")
    h.type_text("3")
    assert h.w.dialog.values["size"].text == "13_"
    h.press(h.key.TAB)
    assert form["size"].value == 13 and form.focused.key == "rules"
    h.press(h.key.UP)
    h.type_text("40")
    h.press(h.key.TAB)
    assert form["size"].value == 13 and "Board size: 2 to 25, got 40" in form.error
    h.press(h.key.UP)
    h.type_text("7")
    h.press(h.key.ENTER)
    assert h.w.dialog is None and h.c.game.size == 7


def fake_compiler_python(tmp_path, seconds: float, group: str = "rules") -> str:
    """A stand-in for the compiler's child: it says it compiles group for seconds, then is done."""
    script = tmp_path / "fake-python"
    script.write_text(f"#!/bin/sh\necho 'start {group}'\nsleep {seconds}\necho 'done {group}'\n")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return str(script)


def test_the_compile_message_goes_when_the_compile_ends_without_any_input(gui, tmp_path, monkeypatch):  # noqa: F811
    monkeypatch.setattr(warmup, "is_warm", lambda group: False)  # a cold cache, compiled by a child
    compiler = Compiler(["rules"], python=fake_compiler_python(tmp_path, 1.0), start=False)
    c = Controller(Game.new(9), compiler=compiler)
    h = Harness(gui, c)
    try:
        h.frames(0.3)
        assert "Compiling" in h.w.hud.ai_text.text
        end = time.monotonic() + 20
        while compiler.compiling and time.monotonic() < end:
            h.frames(0.1)  # frames, no event
        h.frames(0.3)
        assert not compiler.compiling
        assert "Compiling" not in h.w.hud.ai_text.text and "Compiling" not in h.w.hud.info.text
    finally:
        h.close()


def test_a_gomoku_first_start_says_the_game_waits(gui, tmp_path, monkeypatch):  # noqa: F811
    from gorilla.app.game_kinds import GomokuLoading, GomokuStart

    monkeypatch.setattr(warmup, "is_warm", lambda group: False)
    compiler = Compiler(["rules"], python=fake_compiler_python(tmp_path, 30), start=False)
    start = GomokuStart(size=15, rules="gomoku freestyle", black="human", white="threat1")
    h = Harness(gui, GomokuLoading(start, compiler))
    try:
        h.frames(0.3)
        assert "meanwhile" not in h.w.hud.ai_text.text
        assert "starts when its rules are ready" in h.w.hud.ai_text.text
        on = {name for name, b in h.w.toolbar.buttons.items() if b.enabled}
        assert on == {"New"}  # before the game starts only New does anything
        h.click_point("H8")  # taken by nobody: the board stays empty, the panel says why
        assert h.c.game.moves == [] and "starts when its rules are ready" in h.w.hud.ai_text.text
    finally:
        h.close()
