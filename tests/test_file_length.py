"""No module of the folders in :data:`FOLDERS` runs over :data:`MAX_LINES` lines (gorilla/gui/
window.py and Gomoku's controller in gorilla/app/ once ran over a thousand): a module that grows
past it is split along its seams. Add a folder to FOLDERS to hold it to the same limit (its
subfolders count too)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MAX_LINES = 500
FOLDERS = ["gorilla/gui", "gorilla/app"]  # app/: Gomoku's controller once had 1,094 lines


def long_files(root: Path, limit: int = MAX_LINES) -> list[str]:
    """'path (n lines)' for every .py file under root (its subfolders too) over limit lines."""
    out = []
    for path in sorted(root.rglob("*.py")):
        n = len(path.read_text(encoding="utf-8").splitlines())
        if n > limit:
            out.append(f"{path.relative_to(root).as_posix()} ({n} lines)")
    return out


@pytest.mark.parametrize("folder", FOLDERS)
def test_no_module_is_over_500_lines(folder: str) -> None:
    assert (ROOT / folder).is_dir(), folder
    assert long_files(ROOT / folder) == []


def test_a_file_of_500_lines_passes_and_one_of_501_does_not(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    for name, n in (("a.py", 500), ("sub/b.py", 501), ("c.txt", 900)):
        (tmp_path / name).write_text("".join(f"x{i} = {i}\n" for i in range(n)))
    assert long_files(tmp_path) == ["sub/b.py (501 lines)"]
