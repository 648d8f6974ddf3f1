"""``gorilla predict --net games/*.sgf``: a game file after ``--net`` is a game, not the net."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from gorilla.ai.policy.cli import is_net_file, predict_main


def _sgf(path: Path, moves: str) -> Path:
    path.write_text(f"(;GM[1]SZ[9]KM[7.5]{moves})")
    return path


def test_sgf_files_after_net_are_the_games_and_the_shipped_net_ranks(tmp_path: Path, capsys) -> None:
    a = _sgf(tmp_path / "a.sgf", ";B[ee];W[cc];B[gg]")
    b = _sgf(tmp_path / "b.sgf", ";B[cc];W[ee]")
    assert predict_main(["--net", str(a), str(b)]) == 0
    out = capsys.readouterr().out
    assert "2 games" in out and "5 positions" in out, out
    assert predict_main(["--net", str(a)]) == 0  # the only file: still a game
    assert "1 games" in capsys.readouterr().out


def test_what_names_a_net(tmp_path: Path, capsys) -> None:
    game = _sgf(tmp_path / "g.sgf", ";B[ee]")
    net = tmp_path / "model"
    net.write_bytes(gzip.compress(b"x"))
    assert is_net_file(str(net)) and is_net_file("absent.bin.gz") and is_net_file("k.txt.gz")
    assert not is_net_file(str(game)) and not is_net_file(str(tmp_path / "games.zip"))
    bad = tmp_path / "bad.bin.gz"
    bad.write_bytes(b"junk")
    assert predict_main(["--net", str(bad), str(game)]) == 2  # a net's name: its error, one line
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "bad.bin.gz" in err[0]
    with pytest.raises(SystemExit) as e:  # no game at all: the parser's one line
        predict_main(["--net"])
    assert e.value.code == 2 and "required: files" in capsys.readouterr().err
