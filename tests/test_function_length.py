"""No function in gorilla/app/ runs over 80 lines (the controller's once did): the same check as
gorilla/gui/'s (tests/test_gui_functions.py), over the app's modules, its sub-folders (app/go/,
app/gomoku/) too. The modules' own length is tests/test_file_length.py's."""

from __future__ import annotations

from pathlib import Path

from test_gui_functions import long_functions

APP = Path(__file__).resolve().parent.parent / "gorilla" / "app"


def test_no_app_function_is_over_80_lines() -> None:
    folders = [APP, *(d for d in sorted(APP.iterdir()) if d.is_dir() and any(d.glob("*.py")))]
    assert len(folders) >= 3  # app/, app/go/, app/gomoku/
    assert [f"{d.name}/{line}" for d in folders for line in long_functions(d, limit=80)] == []


def test_a_function_of_80_lines_passes_and_one_of_81_does_not(tmp_path: Path) -> None:
    for n in (80, 81):
        body = "\n".join(f"    x{i} = {i}" for i in range(n - 1))
        (tmp_path / f"f{n}.py").write_text(f"def f{n}():\n{body}\n")
    assert long_functions(tmp_path, limit=80) == ["f81.py:1 f81 (81 lines)"]
