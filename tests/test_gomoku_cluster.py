"""gorilla match --game gomoku on a real local Ray instance (two worker processes): the games
are the in-process games, and --sprt stops a Gomoku match early."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import match_games

from gorilla.gomoku import sgf
from gorilla.match import cli

ray = pytest.importorskip("ray")

pytestmark = pytest.mark.slow  # a Ray instance starts (tens of seconds on a busy machine)

# a seeded match of fast agents from the shipped openings, colours alternating
MATCH = ["--game", "gomoku", "threat1", "random", "-n", "2", "--seed", "5", "--timeout-turn", "1000"]


def games_of(out: Path) -> list[tuple]:
    """The match's games as :func:`helpers.match_games` lists them."""
    return match_games(out, lambda f: sgf.load(str(f)).moves)


def test_a_gomoku_match_on_ray_writes_the_in_process_games(ray_cluster: None, tmp_path: Path) -> None:
    assert cli.main([*MATCH, "-o", str(tmp_path / "local")]) == 0
    assert cli.main([*MATCH, "--cluster", "-j", "2", "-o", str(tmp_path / "ray")]) == 0
    local = games_of(tmp_path / "local")
    assert len(local) == 2 and local[0][1:3] == ("A", "B") and local[1][1:3] == ("B", "A")
    assert local[0][7] == local[1][7]  # one opening, both colours
    assert games_of(tmp_path / "ray") == local
    summary = json.loads((tmp_path / "ray" / "summary.json").read_text())
    assert summary["games"] == 2 and summary["config"]["game"] == "gomoku"
    assert summary["config"]["cluster"] == ""


def test_sprt_stops_a_gomoku_match_early(ray_cluster: None, tmp_path: Path) -> None:
    out = tmp_path / "s"
    argv = [
        "--game",
        "gomoku",
        "threat1",
        "random",
        "-n",
        "60",
        "--sprt",
        "0,100",
        "--cluster",
        "-o",
        str(out),
    ]
    assert cli.main(argv) == 0
    summary = json.loads((out / "summary.json").read_text())
    t = summary["sprt"]
    assert t["decision"] == "H1" and summary["wins"]["A"] >= t["decided_at"] - 1
    assert t["decided_at"] <= summary["games"] <= t["decided_at"] + 1 < 60
