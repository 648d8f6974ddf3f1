"""gorilla match --cluster: games on a real local Ray cluster (two worker processes).

One Ray instance serves the module (started by the ``ray_cluster`` fixture,
2 CPUs, shut down at the end); the tests before it check what happens
without one: no Ray installed, an unreachable cluster, a local instance the
command starts and stops itself.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path

import pytest
from helpers import match_games

from gorilla.match import cli
from gorilla.match.cluster import INSTALL_HINT
from gorilla.match.runner import RESULTS
from gorilla.rules.sgf import load_sgf

ray = pytest.importorskip("ray")

# a seeded match of fast agents: MCTS against random on 5x5, openings and colours alternating
MATCH = ["mcts:playouts=60", "random", "-n", "6", "--size", "5", "--openings", "2", "--seed", "7"]


def games_of(out: Path) -> list[tuple]:
    """The match's games as :func:`helpers.match_games` lists them."""
    return match_games(out, lambda f: load_sgf(f).moves)


def result_lines(out: Path) -> list[int]:
    """The game numbers of results.jsonl's lines, as written (a game twice would show twice)."""
    return [json.loads(line)["game"] for line in (out / RESULTS).read_text().splitlines() if line.strip()]


@pytest.fixture(scope="module")
def local_games(tmp_path_factory: pytest.TempPathFactory) -> list[tuple]:
    """MATCH played in this process (-j 1): the reference the cluster must reproduce."""
    out = tmp_path_factory.mktemp("ref") / "j1"
    assert cli.main([*MATCH, "-j", "1", "-o", str(out)]) == 0
    return games_of(out)


def test_without_ray_one_clear_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now fails, as on a desktop install
    argv = ["random", "random", "-n", "2", "--size", "5", "--cluster", "-o", str(tmp_path / "x")]
    assert cli.main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1] == f"gorilla match: {INSTALL_HINT}"
    assert not (tmp_path / "x" / RESULTS).exists()


def test_unreachable_cluster_one_clear_line(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert not ray.is_initialized()
    argv = ["random", "random", "-n", "2", "--size", "5", "--cluster", "ray://127.0.0.1:1"]
    argv += ["-o", str(tmp_path)]
    assert cli.main(argv) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("gorilla match: cannot reach the Ray cluster at ray://127.0.0.1:1"), err
    assert not ray.is_initialized()


def test_a_local_instance_started_for_the_run(tmp_path: Path, local_games: list[tuple]) -> None:
    assert not ray.is_initialized()
    out = tmp_path / "own"
    assert cli.main([*MATCH, "--cluster", "-j", "2", "-o", str(out)]) == 0
    assert not ray.is_initialized()  # stopped again at the end
    assert games_of(out) == local_games


def test_cluster_games_are_the_local_games(
    ray_cluster: None, tmp_path: Path, local_games: list[tuple]
) -> None:
    assert cli.main([*MATCH, "-j", "2", "-o", str(tmp_path / "j2")]) == 0
    assert cli.main([*MATCH, "--cluster", "-j", "2", "-o", str(tmp_path / "c")]) == 0
    assert len(local_games) == 6 and len({g[-1] for g in local_games}) == 6  # six different games
    assert games_of(tmp_path / "j2") == local_games
    assert games_of(tmp_path / "c") == local_games
    assert sorted(result_lines(tmp_path / "c")) == list(range(6))
    summary = json.loads((tmp_path / "c" / "summary.json").read_text())
    assert summary["games"] == 6 and summary["config"]["cluster"] == ""


def test_a_killed_worker_loses_only_its_game(
    ray_cluster: None, tmp_path: Path, local_games: list[tuple], capsys: pytest.CaptureFixture
) -> None:
    from gorilla.match.cluster import Cluster
    from gorilla.match.runner import MatchConfig, run_match

    killed: list[int] = []

    def kill_a_worker(record: dict) -> None:
        if killed:
            return
        names = sorted(n for n in ray.util.list_named_actors() if n.startswith("gorilla-worker-"))
        pid = ray.get(ray.get_actor(names[0]).pid.remote(), timeout=30)
        os.kill(pid, signal.SIGKILL)  # mid-game, or before its next game: either is lost and replayed
        killed.append(pid)

    out = tmp_path / "k"
    cfg = MatchConfig(["mcts:playouts=60", "random"], games=6, size=5, openings=2, seed=7, jobs=2)
    cfg.cluster, cfg.out = "", str(out)
    with Cluster(cfg.cluster) as c:
        summary = run_match(cfg, on_result=kill_a_worker, games=c.games)
    assert killed
    assert "a worker died in game" in capsys.readouterr().err
    assert summary["games"] == 6
    assert sorted(result_lines(out)) == list(range(6))  # every game once: none lost, none twice
    assert games_of(out) == local_games  # the game replayed elsewhere is the same game


def test_sprt_on_the_cluster(ray_cluster: None, tmp_path: Path) -> None:
    out = tmp_path / "s"
    argv = ["mcts:playouts=60", "random", "-n", "40", "--size", "5", "--sprt", "0,100"]
    argv += ["--cluster", "-o", str(out)]
    assert cli.main(argv) == 0
    summary = json.loads((out / "summary.json").read_text())
    t = summary["sprt"]
    assert t["decision"] == "H1"
    # the games under way when it decided are recorded too, none started after
    assert t["decided_at"] <= summary["games"] <= t["decided_at"] + 1 < 40


def test_selfplay_on_the_cluster(ray_cluster: None, tmp_path: Path) -> None:
    from gorilla.match.selfplay_cli import main

    argv = ["random", "-n", "4", "--size", "5", "--seed", "3"]
    assert main([*argv, "--cluster", "-o", str(tmp_path / "c")]) == 0
    assert main([*argv, "-o", str(tmp_path / "l")]) == 0
    assert len(list((tmp_path / "c" / "games").glob("*.sgf"))) == 4
    assert games_of(tmp_path / "c") == games_of(tmp_path / "l")


def test_tune_on_the_cluster(ray_cluster: None, tmp_path: Path) -> None:
    import csv

    from gorilla.match.tune import main

    argv = ["mcts:playouts=20", "--param", "fpu=1.1:0.6:1.5", "--iterations", "2", "--games", "2"]
    assert main([*argv, "--size", "5", "--cluster", "-o", str(tmp_path / "c")]) == 0
    assert main([*argv, "--size", "5", "-o", str(tmp_path / "l")]) == 0
    assert ray.is_initialized()  # the test's cluster was used, not closed
    # the same seed gives the same trajectory, on the cluster or not
    assert list(csv.DictReader((tmp_path / "c" / "tune.csv").open())) == list(
        csv.DictReader((tmp_path / "l" / "tune.csv").open())
    )


def test_no_ray_import_outside_a_cluster_run() -> None:
    import subprocess

    code = (
        "import sys, gorilla.cli, gorilla.match.cli, gorilla.match.cluster, gorilla.match.selfplay_cli, "
        "gorilla.match.tune, gorilla.match.sprt; print('ray' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"  # the desktop install needs no Ray
