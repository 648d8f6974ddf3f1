"""The game record: handicap, undo/redo/goto, game end, result strings, error messages."""

from __future__ import annotations

import subprocess

import pytest

from gorilla.rules.board import BLACK, WHITE
from gorilla.rules.coords import format_vertex, parse_vertex
from gorilla.rules.game import Game, fixed_handicap_points
from gorilla.rules.position import IllegalMove


def v(text: str, size: int) -> int:
    return parse_vertex(text, size)


class Gtp:
    """A tiny GTP client for the real GNU Go."""

    def __init__(self, path: str) -> None:
        self.proc = subprocess.Popen(
            [path, "--mode", "gtp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )

    def send(self, command: str) -> tuple[bool, str]:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        lines: list[str] = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("GNU Go closed the pipe")
            if not line.strip():
                if lines:
                    break
                continue
            lines.append(line.strip())
        text = "\n".join(lines)
        return text.startswith("="), text[1:].strip()

    def close(self) -> None:
        self.send("quit")
        self.proc.wait(timeout=5)


@pytest.mark.gnugo
def test_fixed_handicap_matches_gnugo(gnugo_path: str) -> None:
    gtp = Gtp(gnugo_path)
    try:
        checked = refused = 0
        for size in range(2, 20):
            ok, _ = gtp.send(f"boardsize {size}")
            assert ok, size
            for n in range(0, 11):
                gtp.send("clear_board")
                ok, answer = gtp.send(f"fixed_handicap {n}")
                if ok:
                    ours = sorted(format_vertex(p, size) for p in fixed_handicap_points(size, n))
                    assert ours == sorted(answer.split()), (size, n)
                    checked += 1
                else:
                    with pytest.raises(ValueError):
                        fixed_handicap_points(size, n)
                    refused += 1
        # GNU Go places stones on boards from 7x7 up; make sure both branches really ran
        assert checked > 50 and refused > 50
    finally:
        gtp.close()


def test_fixed_handicap_known_points() -> None:
    pts = lambda s, n: sorted(format_vertex(p, s) for p in fixed_handicap_points(s, n))  # noqa: E731
    assert pts(19, 3) == ["D16", "D4", "Q16"]
    assert pts(19, 9) == sorted(["D4", "K4", "Q4", "D10", "K10", "Q10", "D16", "K16", "Q16"])
    assert pts(9, 5) == sorted(["C3", "G3", "E5", "C7", "G7"])
    assert pts(12, 2) == ["D4", "J9"]
    assert pts(25, 9) == sorted(["D4", "N4", "W4", "D13", "N13", "W13", "D22", "N22", "W22"])
    for size, n in ((6, 2), (8, 5), (10, 5), (9, 10), (19, 1), (24, 5)):
        with pytest.raises(ValueError):
            fixed_handicap_points(size, n)


def test_handicap_game_white_moves_first() -> None:
    g = Game.new(19, "japanese", komi=0.5, handicap=4)
    assert g.handicap == 4
    assert g.to_move == WHITE
    assert len(g.position.stones(BLACK)) == 4
    assert g.move_number == 0
    with pytest.raises(IllegalMove, match="occupied"):
        g.play(v("D4", 19))
    g.play(v("C3", 19))
    assert g.to_move == BLACK
    with pytest.raises(ValueError, match="board not empty"):
        g.set_handicap([v("K10", 19), v("K11", 19)])
