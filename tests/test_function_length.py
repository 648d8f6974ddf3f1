"""No function in gorilla/app/ runs over 80 lines (the controller's once did): the same check as
gorilla/gui/'s (tests/test_gui_functions.py), over the app's modules; and no module of
gorilla/app/ (its sub-folders too) runs over 500 lines (Gomoku's controller once had 1,094)."""

from __future__ import annotations

from pathlib import Path

from test_gui_functions import long_functions

APP = Path(__file__).resolve().parent.parent / "gorilla" / "app"
MAX_FILE_LINES = 500


def long_files(root: Path, limit: int = MAX_FILE_LINES) -> list[str]:
    """'path (n lines)' of each Python file under root (sub-folders too) over limit lines."""
    out = []
    for path in sorted(root.rglob("*.py")):
        n = len(path.read_text(encoding="utf-8").splitlines())
        if n > limit:
            out.append(f"{path.relative_to(root).as_posix()} ({n} lines)")
    return out


def test_no_app_function_is_over_80_lines() -> None:
    folders = [APP, *(d for d in sorted(APP.iterdir()) if d.is_dir() and any(d.glob("*.py")))]
    assert len(folders) >= 3  # app/, app/go/, app/gomoku/
    assert [f"{d.name}/{line}" for d in folders for line in long_functions(d, limit=80)] == []


def test_a_function_of_80_lines_passes_and_one_of_81_does_not(tmp_path: Path) -> None:
    for n in (80, 81):
        body = "\n".join(f"    x{i} = {i}" for i in range(n - 1))
        (tmp_path / f"f{n}.py").write_text(f"def f{n}():\n{body}\n")
    assert long_functions(tmp_path, limit=80) == ["f81.py:1 f81 (81 lines)"]


def test_no_app_file_is_over_500_lines() -> None:
    assert long_files(APP) == []


def test_a_file_of_500_lines_passes_and_one_of_501_in_a_sub_folder_does_not(tmp_path: Path) -> None:
    (tmp_path / "go").mkdir()
    (tmp_path / "a.py").write_text("x = 1\n" * 500)
    (tmp_path / "go" / "b.py").write_text("x = 1\n" * 501)
    assert long_files(tmp_path) == ["go/b.py (501 lines)"]
