"""The numba cache folder follows the package source (gorilla.numba_cache)."""

from __future__ import annotations

import os
from pathlib import Path

import numba.core.config
import pytest

from gorilla import numba_cache as nc


def _package(root: Path, body: str) -> Path:
    pkg = root / "pkg"
    for folder in ("ai/sub", "gui"):
        (pkg / folder).mkdir(parents=True, exist_ok=True)
    (pkg / "a.py").write_text("def f():\n    return 1\n")
    (pkg / "ai" / "sub" / "b.py").write_text(body)
    (pkg / "gui" / "w.py").write_text("y = 1\n")
    return pkg


def test_the_key_changes_with_any_source_file(tmp_path: Path) -> None:
    pkg = _package(tmp_path, "x = 1\n")
    k1 = nc.source_key(pkg)
    assert k1 == nc.source_key(pkg)
    (pkg / "ai" / "sub" / "b.py").write_text("x = 2\n")  # a kernel in another file changed
    k2 = nc.source_key(pkg)
    assert k2 != k1
    (pkg / "notes.txt").write_text("not source")
    assert nc.source_key(pkg) == k2
    (pkg / "a.py").write_text("def f():\n    return 2\n")  # the package's own files count
    k3 = nc.source_key(pkg)
    assert k3 != k2
    (pkg / "gui" / "w.py").write_text("y = 2\n")  # above the kernel layers: the kernels stay
    assert nc.source_key(pkg) == k3


def test_a_second_copy_of_the_same_source_gets_its_own_folder(tmp_path: Path) -> None:
    # numba files a kernel under its source file's full path, so the copy compiles its own
    # kernels: the first copy's warm-GROUP markers must not say they are there
    one, two = _package(tmp_path / "one", "x = 1\n"), _package(tmp_path / "two", "x = 1\n")
    assert nc.source_key(one) != nc.source_key(two)
    assert nc.source_key(one) == nc.source_key(one / "ai" / "..")  # the same folder, however named


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(numba.core.config, "CACHE_DIR", numba.core.config.CACHE_DIR)
    return tmp_path


def test_configure_uses_one_folder_per_source_version_and_prunes_old_ones(clean_env: Path) -> None:
    tmp = clean_env
    root = tmp / "cache" / "gorilla" / "numba"
    folders = []
    for i in range(nc.KEEP + 3):
        pkg = _package(tmp / f"v{i}", f"x = {i}\n")
        folder = nc.configure(pkg)
        assert folder == str(root / nc.source_key(pkg))
        assert os.environ["NUMBA_CACHE_DIR"] == folder == numba.core.config.CACHE_DIR
        os.utime(folder, (1000 + i, 1000 + i))  # make the order of use unambiguous
        folders.append(folder)
        del os.environ["NUMBA_CACHE_DIR"]
    left = sorted(str(d) for d in root.iterdir())
    assert left == sorted(folders[-(nc.KEEP + 1) :])  # the current one and the KEEP newest before it


def test_an_explicit_numba_cache_dir_wins(clean_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(clean_env / "mine"))
    assert nc.configure(_package(clean_env, "x = 1\n")) is None
    assert os.environ["NUMBA_CACHE_DIR"] == str(clean_env / "mine")


def test_an_unwritable_cache_leaves_numba_default(clean_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = clean_env / "file"
    blocker.write_text("a file where the cache folder would go")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    assert nc.configure(_package(clean_env, "x = 1\n")) is None
    assert "NUMBA_CACHE_DIR" not in os.environ
