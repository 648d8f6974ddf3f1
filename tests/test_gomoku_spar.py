"""benchmarks/gomoku_spar.py: seeded random openings, or an openings file's first n/2 (each
with both colours), played by two Gomocup brains under the match runner."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest
from helpers import load_benchmark

from gorilla.gomoku.openings import load_openings

spar = load_benchmark("gomoku_spar")
BRAIN = f"{shlex.quote(sys.executable)} -m gorilla pbrain --agent threat1"


def test_random_openings_are_seeded_distinct_and_near_the_centre():
    ops = spar.random_openings(10, 3, 3, seed=7)
    assert ops == spar.random_openings(10, 3, 3, seed=7) != spar.random_openings(10, 3, 3, seed=8)
    assert len({tuple(op) for op in ops}) == 10
    assert all(len(set(op)) == 3 and max(max(abs(x), abs(y)) for x, y in op) <= 3 for op in ops)


def test_an_openings_file_gives_the_games_their_first_stones(tmp_path: Path, capsys):
    book = tmp_path / "book.txt"
    book.write_text("# two openings\n0,0 1,1 -2,-2\n-3,-1 2,-2 2,-1\n4,4 -4,-4 0,4\n", encoding="utf-8")
    out = tmp_path / "run"
    argv = [BRAIN, "--agent", "threat1", "-n", "4", "--turn-ms", "300", "--grace", "30"]
    assert spar.main([*argv, "--openings", str(book), "--out", str(out)]) == 0
    assert load_openings(out / "openings.txt") == load_openings(book)[:2]
    results = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert len(results) == 4 and not any(r["forfeit"] for r in results)
    first = {tuple(r["opening"][:3]) for r in results}
    assert first == {("7,7", "8,8", "5,5"), ("4,6", "9,5", "9,6")}  # dx,dy from the centre (7,7)
    assert "Gorilla" in capsys.readouterr().out
    with pytest.raises(SystemExit, match="holds 3 openings: give -n 6 or fewer"):
        spar.main([*argv[:3], "-n", "8", "--openings", str(book), "--out", str(tmp_path / "b")])
    book.write_text("0,0 x\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="not dx,dy pairs"):
        spar.main([*argv[:3], "--openings", str(book), "--out", str(tmp_path / "c")])
    assert not (tmp_path / "b").exists() and not (tmp_path / "c").exists()  # no run folder left
