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
