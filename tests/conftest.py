"""Shared fixtures: the real GNU Go for differential tests.

Shared helpers that are not fixtures live in ``helpers.py``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from gorilla.match.engines import find_gnugo
from gorilla.match.gtp_client import GtpClient
from gorilla.match.referee import gnugo_command


@pytest.fixture(scope="session")
def gnugo_path() -> str:
    """Path of GNU Go 3.8; skips with a clear message where it is not installed (CI installs it)."""
    path = find_gnugo()
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("GNU Go is required in CI but was not found (apt-get install -y gnugo)")
        pytest.skip("GNU Go not installed: apt-get install -y gnugo (lands in /usr/games)")
    return path


@pytest.fixture
def gnugo(gnugo_path: str) -> Iterator[GtpClient]:
    """A running GNU Go (``gnugo_command``: Chinese rules, level 0), closed after the test."""
    with GtpClient(gnugo_command(gnugo_path)) as client:
        yield client


@pytest.fixture(scope="module")
def ray_cluster() -> Iterator[None]:
    """A local Ray instance with 2 CPUs for the rest of the module (the module skips without Ray)."""
    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    try:
        yield
    finally:
        ray.shutdown()
