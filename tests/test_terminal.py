"""Terminal mode (-no_gui) driven through pipes, as a person or a script would."""

from __future__ import annotations

import io
import os
import subprocess
import sys

import pytest

from gorilla.app.go.controller import Controller
from gorilla.app.go.sgf_text import game_from_sgf, tree_from_sgf
from gorilla.app.go.terminal import run_terminal
from gorilla.rules.board import BLACK, WHITE
from gorilla.rules.coords import parse_vertex
from gorilla.rules.game import Game


def gorilla(
    args: list[str], stdin: str = "", tmp_path=None, timeout: float = 120
) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    if tmp_path is not None:
        env["GORILLA_AUTOSAVE"] = str(tmp_path / "autosave.sgf")
    return subprocess.run(
        [sys.executable, "-m", "gorilla", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )


def test_ai_vs_ai_in_the_terminal_ends_with_a_result(tmp_path):
    r = gorilla(
        ["-no_gui", "-ai_vs_ai", "-ai_random", "-ai_random", "--size", "9", "--seed", "5"], "", tmp_path
    )
    assert r.returncode == 0, r.stderr
    out = r.stdout.splitlines()
    assert out[0].startswith("Gorilla: Black random vs White random, 9x9")
    assert any(line.startswith("Game over (passes)") for line in out)
    result = [line for line in out if line.startswith("Result: ")]
    assert len(result) == 1
    assert any(line.startswith("Black: ") and "stones" in line for line in out)
    # the board is printed after moves, with coordinates and the last move marked
    assert "   A B C D E F G H J" in out
    assert any("(X)" in line or "(O)" in line for line in out)
    # the autosave holds the finished game with the same result
    saved = game_from_sgf((tmp_path / "autosave.sgf").read_text())
    assert saved.over and f"Result: {saved.result}" == result[0]


def test_ai_vs_monte_carlo_in_the_terminal(tmp_path):
    pytest.importorskip("gorilla.ai.montecarlo")
    r = gorilla(
        ["-no_gui", "-ai_vs_ai", "-ai_random", "-ai_monte_carlo", "2", "2", "--size", "5", "--seed", "1"],
        "",
        tmp_path,
    )
    assert r.returncode == 0, r.stderr
    assert "White (montecarlo:2,2)" in r.stdout
    assert any(line.startswith("Result: ") for line in r.stdout.splitlines())


def test_human_session_with_bad_input_undo_and_quit(tmp_path):
    script = "Z9\nhello\nD4\nD4\nC3\nundo\nhelp\nE5\nquit\n"
    r = gorilla(["-no_gui", "--size", "9"], script, tmp_path)
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "coordinate 'Z9' is off the 9x9 board" in out
    assert "invalid coordinate 'hello'" in out
    assert "Move 1: Black (human) D4" in out
    assert "Move 2: White (human) D4" not in out
    assert "Illegal move at D4: occupied" in out
    assert "Move 2: White (human) C3" in out
    assert "Undone: back to move 1" in out
    assert "pass       pass" in out  # help
    assert "Move 2: White (human) E5" in out
    assert "Bye." in out
    # the autosave keeps the record's order (C3, undone, stays its main line) and goes on at E5
    text = (tmp_path / "autosave.sgf").read_text()
    assert game_from_sgf(text).moves[-1].point == parse_vertex("C3", 9)
    assert [(m.color, m.point) for m in tree_from_sgf(text).line_game().moves] == [
        (BLACK, parse_vertex("D4", 9)),
        (WHITE, parse_vertex("E5", 9)),
    ]


def test_end_of_input_ends_cleanly(tmp_path):
    r = gorilla(["-no_gui", "--size", "9", "--no-autosave"], "D4\n", tmp_path)
    assert r.returncode == 0
    assert r.stdout.rstrip().endswith("Bye.")
    assert r.stderr == ""


def test_human_against_random_until_the_end_in_process():
    c = Controller(Game.new(5), "human", "random:seed=2")
    out = io.StringIO()
    # pass until the AI passes too, then accept the dead-stone estimate
    rc = run_terminal(c, io.StringIO("pass\n" * 60 + "done\n"), out)
    c.close()
    assert rc == 0
    text = out.getvalue()
    assert c.game.over
    assert "Result: " in text or "resigned" in text


def test_dead_stone_marking_in_the_terminal():
    g = Game.new(9)
    stones = [(parse_vertex(f"E{r}", 9), BLACK) for r in range(1, 10)]
    stones += [(parse_vertex(f"F{r}", 9), WHITE) for r in range(1, 10)]
    stones.append((parse_vertex("B5", 9), WHITE))
    g.add_setup(stones, to_move=BLACK)
    c = Controller(g)
    c.wait()
    out = io.StringIO()
    rc = run_terminal(c, io.StringIO("pass\npass\nJ9\nB5\ndone\n"), out)
    c.close()
    assert rc == 0
    text = out.getvalue()
    assert "Game over (passes)" in text
    assert "White group at B5" in text
    dead_now = parse_vertex("B5", 9) in c.game.dead
    assert ("White group at B5 dead" in text) == dead_now
    assert text.rstrip().splitlines()[-1].startswith("Result: ")
