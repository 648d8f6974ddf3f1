"""The GUI's plain functions, without a window: no function in gorilla/gui/ runs over
:data:`MAX_LINES` lines (the window's key handler and the panel's update once ran over a
hundred; each module is read with ``ast``), the window's layout for its size, the panel's long
words elided, the numbers on the board's discs (their ink, their one scale)."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

GUI = Path(__file__).resolve().parent.parent / "gorilla" / "gui"
MAX_LINES = 80


def long_functions(root: Path, limit: int = MAX_LINES) -> list[str]:
    """'file:line name (n lines)' for every function or method of root's modules over limit lines."""
    out = []
    for path in sorted(root.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                n = node.end_lineno - node.lineno + 1
                if n > limit:
                    out.append(f"{path.name}:{node.lineno} {node.name} ({n} lines)")
    return out


def test_no_gui_function_is_over_80_lines() -> None:
    assert not long_functions(GUI)


def test_the_check_finds_a_long_function(tmp_path: Path) -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_LINES))
    (tmp_path / "long.py").write_text(f"def long():\n{body}\n")
    (tmp_path / "short.py").write_text("def short():\n    return 1\n")
    assert long_functions(tmp_path) == [f"long.py:1 long ({MAX_LINES + 1} lines)"]


def test_the_layout_narrows_the_panel_keeps_the_board_most_of_the_window_and_drops_the_graph() -> None:
    from gorilla.gui.layout import GRAPH_TEXT, MIN_HEIGHT, MIN_WIDTH, PANEL_MAX, PANEL_MIN, window_layout

    big = window_layout(1024, 768, 54)
    assert big.panel_w == PANEL_MAX and big.view == (0, 0, 1024 - PANEL_MAX, 768)
    small = window_layout(MIN_WIDTH, MIN_HEIGHT, 54)
    assert small.panel_w == PANEL_MIN and small.view == (0, 0, MIN_WIDTH - PANEL_MIN, MIN_HEIGHT)
    assert small.graph is not None and small.graph[3] < big.graph[3]  # a lower plot in a low window
    gx, gy, gw, gh = small.graph
    assert gx >= small.panel_x and gx + gw <= MIN_WIDTH and gy > small.toolbar[1]
    assert small.text_bottom == gy + gh + GRAPH_TEXT < MIN_HEIGHT - 142  # below the players and the text
    widths = [window_layout(w, 600, 54) for w in range(MIN_WIDTH, 2000, 40)]
    assert all(a.view[2] < b.view[2] for a, b in zip(widths, widths[1:], strict=False))
    assert all(lay.view[2] >= 0.55 * lay.width for lay in widths)
    tiny = window_layout(400, 300, 54)  # below the minimum: half the width at most, no graph
    assert tiny.panel_w <= 200 and tiny.graph is None and tiny.text_bottom < 300 - 142


def test_a_word_wider_than_the_line_is_elided_in_its_middle_and_the_others_kept() -> None:
    from gorilla.gui.toolbar import elide_middle, fit_words

    def measure(word: str) -> float:
        return 7.0 * len(word)  # seven pixels a character

    path = "/home/player/games/2026/tournaments/round-three/board-one.sgf"
    cut = elide_middle(path, 210, measure)
    assert measure(cut) <= 210 and len(cut) == 30 and "\u2026" in cut
    assert cut.startswith("/home/pla") and cut.endswith("-three/board-one.sgf")  # the name kept
    assert elide_middle("short", 210, measure) == "short"
    text = f"Loaded {path}\nBlack to move"
    fitted = fit_words(text, 210, measure)
    assert fitted == f"Loaded {cut}\nBlack to move"
    assert all(measure(w) <= 210 for line in fitted.split("\n") for w in line.split(" "))


def test_a_numbers_ink_contrasts_with_its_disc_of_any_colour_of_the_ramp() -> None:
    from gorilla.gui.overlay import DARK_INK, LIGHT_INK, WOOD, contrast, label_ink, ramp

    assert (
        label_ink((0.95, 0.85, 0.20)) == DARK_INK and label_ink((0.25, 0.80, 0.35)) == DARK_INK
    )  # yellow, green
    assert label_ink((0.10, 0.10, 0.40)) == LIGHT_INK  # a dark blue
    for t in np.linspace(0.0, 1.0, 21):
        disc = [0.82 * c + 0.18 * u for c, u in zip(ramp(t), WOOD, strict=True)]
        ink = [c / 255 for c in label_ink(ramp(t), 0.82)[:3]]
        assert contrast(ink, disc) >= 4.0, t


class Value:
    def __init__(self, winrate: float, score: float | None) -> None:
        self.winrate, self.score = winrate, score


def test_the_evaluations_numbers_are_each_moves_own_value_on_one_scale() -> None:
    from gorilla.gui.overlay import BEST_RADIUS, LABEL_DISC, LABELLED, RING, eval_legend, heat_markers

    values = {p: Value(0.4 + 0.01 * p, 0.3 * p - 2.0) for p in range(20, 40)}
    best = 39
    rows, labels = heat_markers(values, best, 9, 0.0)
    assert len(labels) == LABELLED and labels[0].point == best
    for lab in labels:  # the score lead of its own move, best or not
        assert float(lab.texts[0]) == pytest.approx(values[lab.point].score, abs=0.05)
    numbered = {lab.point for lab in labels}
    big = [r for r in rows if r[8] == 0 and r[3] >= LABEL_DISC]
    assert len(big) == len(numbered)  # a disc room enough for its number on each numbered move only
    assert any(r[8] == RING and r[3] == BEST_RADIUS for r in rows)
    _, labels = heat_markers(values, best, 9, 0.0, unit="win rate")
    assert [lab.texts[0] for lab in labels][:2] == ["79%", "78%"]
    legend = eval_legend(values, best, 9)
    assert "score lead" in legend and "green the best to red the worst" in legend and "Small dots" in legend
    # equal values: all the best's colour, not the worst's
    _, labels = heat_markers({p: Value(0.5, 1.0) for p in (1, 2, 3)}, 1, 9, 0.0)
    assert {lab.ink for lab in labels} == {labels[0].ink} and [lab.texts[0] for lab in labels] == ["+1.0"] * 3
