"""Shared fixtures: the real GNU Go for differential tests."""

from __future__ import annotations

import os
import shutil

import pytest

GNUGO_CANDIDATES = ("gnugo", "/usr/games/gnugo")


def find_gnugo() -> str | None:
    for c in GNUGO_CANDIDATES:
        path = shutil.which(c) or (c if os.path.isfile(c) and os.access(c, os.X_OK) else None)
        if path:
            return path
    return None


@pytest.fixture(scope="session")
def gnugo_path() -> str:
    """Path of GNU Go 3.8; skips with a clear message where it is not installed (CI installs it)."""
    path = find_gnugo()
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("GNU Go is required in CI but was not found (apt-get install -y gnugo)")
        pytest.skip("GNU Go not installed: apt-get install -y gnugo (lands in /usr/games)")
    return path
