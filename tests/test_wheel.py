"""The wheel check of the CI's smoke test (.ci/wheel_smoke.py): it finds what the wheel must hold
from the checkout, and a wheel without a module or an asset fails it. (The smoke test itself,
building and installing the wheel in a fresh environment, runs in CI beside the tests.)"""

from __future__ import annotations

import importlib.util
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _smoke():
    spec = importlib.util.spec_from_file_location("wheel_smoke", ROOT / ".ci" / "wheel_smoke.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["wheel_smoke"] = module
    spec.loader.exec_module(module)
    return module


def _wheel(path: Path, names: list[str]) -> Path:
    with zipfile.ZipFile(path, "w") as z:
        for n in names:
            z.writestr(n, b"x")
    return path


def test_the_expected_contents_come_from_the_tree() -> None:
    smoke = _smoke()
    want, used = smoke.expected_in_wheel()
    # every package's __init__ and module, the policy subpackage the hand-written list once missed
    for module in ("gorilla/__init__.py", "gorilla/ai/policy/__init__.py", "gorilla/ai/mcts/tree.py"):
        assert module in want
    assert all((ROOT / f).is_file() for f in want if not f.startswith("gorilla/assets/"))
    assets = {f.removeprefix("gorilla/") for f in want if f.startswith("gorilla/assets/")}
    assert "assets/policy/tygem.gpol" in assets and any(a.startswith("assets/shaders/") for a in assets)
    assert all((ROOT / a).is_file() for a in assets)
    # the folders and files the code names through gorilla.asset_dirs / asset_file
    assert {"shaders", "sounds", "patterns", "policy", "gomoku_openings.txt"} <= used


def test_a_wheel_without_a_module_or_an_asset_fails_the_check(tmp_path: Path) -> None:
    smoke = _smoke()
    want, _ = smoke.expected_in_wheel()
    assert smoke.check_wheel(_wheel(tmp_path / "full.whl", want)).startswith("full.whl: ")  # a summary
    for gone in ("gorilla/ai/policy/model.py", "gorilla/assets/policy/tygem.gpol"):
        partial = _wheel(tmp_path / "partial.whl", [n for n in want if n != gone])
        with pytest.raises(smoke.Failed, match=gone):
            smoke.check_wheel(partial)
