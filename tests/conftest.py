"""Shared fixtures: the real GNU Go for differential tests."""

from __future__ import annotations

import os

import pytest

from gorilla.match.engines import find_gnugo


@pytest.fixture(scope="session")
def gnugo_path() -> str:
    """Path of GNU Go 3.8; skips with a clear message where it is not installed (CI installs it)."""
    path = find_gnugo()
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("GNU Go is required in CI but was not found (apt-get install -y gnugo)")
        pytest.skip("GNU Go not installed: apt-get install -y gnugo (lands in /usr/games)")
    return path
