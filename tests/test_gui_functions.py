"""No function in gorilla/gui/ runs over :data:`MAX_LINES` lines (the window's key handler and
the panel's update once ran over a hundred): each module is read with ``ast``."""

from __future__ import annotations

import ast
from pathlib import Path

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
