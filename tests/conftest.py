"""Shared fixtures: the real GNU Go for differential tests.

Shared helpers that are not fixtures live in ``helpers.py``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator

import pytest

from gorilla.ai import warmup
from gorilla.match.engines import find_gnugo
from gorilla.match.gtp_client import GtpClient
from gorilla.match.referee import gnugo_command


@pytest.fixture(autouse=True)
def _autosave_in_tmp(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test's default autosave (Go's and Gomoku's beside it) in a scratch folder, never
    in the user's data folder."""
    monkeypatch.setenv("GORILLA_AUTOSAVE", str(tmp_path_factory.mktemp("autosave") / "autosave.sgf"))


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


# Filling the kernel cache on the idle core. On a fresh machine every kernel compiles at its
# first test (a minute or two for some), one after another on the tests' core. A child
# process at the lowest priority compiles the engine's groups into the same on-disk cache
# beside them, so that later first uses load what it compiled; on a busy machine it gets
# only what nobody else wants. Tests that need a cold cache use folders of their own.
_warmer: subprocess.Popen[bytes] | None = None
# the groups whose first use comes minutes into the suite (in file order) first: the child can
# be ahead of those (Gomoku's engine, a quarter of the way in, then the net's), not of the
# MCTS that the very first tests use, and CI's wheel smoke test holds the other core for the
# first four minutes or so
_WARM_ORDER = ("gomoku", "net", "policy", "patterns", "softmax", "ladders", "ownership")


def pytest_sessionstart(session: pytest.Session) -> None:
    """Start the cache-filling child when some of the engine's groups are not in the cache
    (``GORILLA_TEST_WARM=0`` turns it off)."""
    global _warmer
    if os.environ.get("GORILLA_TEST_WARM") == "0" or warmup.cache_dir() is None:
        return
    import gorilla.gomoku.agents  # noqa: F401  (registers the "gomoku" group)

    groups = [g for g in _WARM_ORDER if g in warmup.GROUPS]
    groups += [g for g in warmup.GROUPS if g not in groups]
    if all(warmup.is_warm(g) for g in groups):
        return
    cmd = [sys.executable, "-m", "gorilla.ai.warmup", "--exit-with-parent", "--jobs", "1"]
    cmd += [*warmup.import_args(groups), *groups]
    try:
        _warmer = subprocess.Popen(
            cmd,
            stdin=subprocess.PIPE,  # --exit-with-parent: it ends when this process does
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=lambda: os.nice(19),
        )
    except OSError:
        _warmer = None


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Stop the cache-filling child if it still runs."""
    if _warmer is not None and _warmer.poll() is None:
        _warmer.kill()
        _warmer.wait()
