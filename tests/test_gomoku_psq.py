"""Piskvork's .psq records (Gomocup's archives) and the comments of Gomoku's SGF moves: read,
played, shown and written back; a bad record is one line and changes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from gorilla.app.file_browser import FileBrowser
from gorilla.app.gomoku.controller import GomokuController
from gorilla.app.gomoku.view import to_view
from gorilla.app.record_info import shown_name
from gorilla.gomoku import psq, sgf
from gorilla.gomoku import rules as R
from gorilla.gomoku.game import GomokuGame
from gorilla.launcher.cli import parse_args

# a 20x20 Gomocup game as Piskvork writes it: Black (the first named player, the header's last
# number 0) makes five on row 10 at its fifth stone
CUP = """Piskvorky 20x20, 11:11, 0
10,10,0
10,11,1203
11,10,954
11,11,870
12,10,1500
12,11,30
13,10,2210
13,11,12
14,10,401
pbrain-rapfi.zip
pbrain-wine.zip
-1
"""


def q(c: GomokuController, x: int, y: int) -> int:
    """The window's point of (x, y) (from the top-left, from 0)."""
    return to_view(c.gomoku, c.gomoku.point(x, y))


def test_a_psq_record_is_read_with_its_board_names_times_and_result():
    held = psq.parse(CUP)
    assert held.size == 20 and len(held.moves) == 9
    assert held.moves[:2] == [(9, 9, 0), (9, 10, 1203)]  # from 0; the thinking time in ms
    assert (held.black, held.white) == ("pbrain-rapfi.zip", "pbrain-wine.zip")
    record = sgf.loads_record(CUP)
    g = record.game
    assert g.size == 20 and g.rule == R.FREESTYLE and len(g.moves) == 9
    assert g.result is not None and g.result.winner == R.BLACK and g.result.reason == "five"
    assert record.times_ms == [0, 1203, 954, 870, 1500, 30, 2210, 12, 401]
    swapped = CUP.replace("11:11, 0", "11:11, 1")  # the second named player moved first
    assert (psq.parse(swapped).black, psq.parse(swapped).white) == ("pbrain-wine.zip", "pbrain-rapfi.zip")
    bare = "\n".join(CUP.splitlines()[:4]) + "\n"  # a record cut short: no names, no status
    assert sgf.loads_record(bare).game.moves == g.moves[:3] and sgf.loads_record(bare).black == ""


def test_a_psq_record_is_played_under_the_first_rule_that_takes_all_its_moves():
    # Black's six in a row ends a freestyle game at its sixth stone; the record goes on, so it
    # was played where six stones do not win (exact five)
    moves = [(1, 1), (1, 9), (2, 1), (2, 9), (3, 1), (3, 9), (5, 1), (5, 9), (6, 1), (9, 5), (4, 1), (9, 6)]
    text = "Piskvorky 15x15, 0:0, 0\n" + "".join(f"{x},{y},0\n" for x, y in moves) + "-1\n"
    g = sgf.loads_record(text).game
    assert g.rule == R.STANDARD and len(g.moves) == len(moves)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("Piskvorky 15x20, 0:0, 0\n8,8,0\n", "square"),
        ("Piskvorky 40x40, 0:0, 0\n8,8,0\n", "out of range"),
        ("Piskvorky 15x15, 0:0, 0\n8,8,0\n16,3,0\n", "off the 15x15 board"),
        ("Piskvorky 15x15, 0:0, 0\n8,8,0\n8,8,0\n", "illegal move 2 (8,8)"),
    ],
)
def test_a_bad_psq_record_is_one_line(text: str, says: str):
    with pytest.raises(ValueError) as err:
        sgf.loads_record(text)
    assert says in str(err.value) and "\n" not in str(err.value)


def test_dumps_writes_what_parse_reads():
    g = GomokuGame(15)
    for x, y in ((7, 7), (8, 8), (6, 6)):
        g.play_xy(x, y)
    text = psq.dumps(g, "Ann", "Bob", times_ms=[0, 250])
    assert text.splitlines()[:4] == ["Piskvorky 15x15, 0:0, 0", "8,8,0", "9,9,250", "7,7,0"]
    back = psq.parse(text)
    assert (back.black, back.white) == ("Ann", "Bob") and [m[:2] for m in back.moves] == [
        (7, 7),
        (8, 8),
        (6, 6),
    ]
    assert psq.dumps(g).splitlines()[-1] == "0" and len(psq.dumps(g).splitlines()) == 5  # no names


def test_the_window_loads_a_psq_shows_its_players_and_saves_it_both_ways(tmp_path: Path):
    path = tmp_path / "0x1-9(1).psq"
    path.write_text(CUP, encoding="utf-8")
    root = sgf.peek(str(path))
    assert root is not None and (root.gomoku, root.size, root.rule) == (True, 20, "freestyle")
    c = GomokuController(GomokuGame(15), "human", "human")
    try:
        c.load(str(path))
        assert c.gomoku.size == 20 and len(c.gomoku.moves) == 9 and c.over
        assert (c.names().black, c.names().white) == ("pbrain-rapfi.zip", "pbrain-wine.zip")
        assert shown_name(c.names(), R.BLACK, c.players[R.BLACK]) == "pbrain-rapfi.zip"  # the panel's row
        out = tmp_path / "again.psq"
        c.save(str(out))
        assert c.message == f"Saved {out}"
        lines = out.read_text(encoding="utf-8").splitlines()
        assert lines[0] == "Piskvorky 20x20, 0:0, 0" and lines[1:10] == CUP.splitlines()[1:10]  # times kept
        assert lines[10:12] == ["pbrain-rapfi.zip", "pbrain-wine.zip"]
        c.save(str(tmp_path / "again.sgf"))
        back = sgf.load_record(str(tmp_path / "again.sgf"))
        assert back.game.moves == c.gomoku.moves and back.black == "pbrain-rapfi.zip"
        c.undo()  # another last move: the record's time holds for the moves it still shares
        assert c.play(q(c, 0, 0)), c.message
        c.save(str(out))
        lines = out.read_text(encoding="utf-8").splitlines()
        assert lines[8] == "13,11,12" and lines[9] == "1,1,0"
        bad = tmp_path / "bad.psq"
        bad.write_text("Piskvorky 20x20, 0:0, 0\n1,1,0\n1,1,0\n", encoding="utf-8")
        before = c.gomoku.diagram()
        c.load(str(bad))
        assert "illegal move 2" in c.message and c.gomoku.diagram() == before
    finally:
        c.close()


def test_the_launcher_and_the_picker_take_psq_records(tmp_path: Path):
    path = tmp_path / "cup.psq"
    path.write_text(CUP, encoding="utf-8")
    opts = parse_args(["--load", str(path)])
    assert opts.game == "gomoku" and opts.size == 20
    (tmp_path / "a.sgf").write_text("(;GM[4];B[hh])", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("no record", encoding="utf-8")
    listed = [e.name for e in FileBrowser("open", str(tmp_path)).entries if e.kind == "file"]
    assert listed == ["a.sgf", "cup.psq"]


def test_a_go_game_is_not_saved_as_psq(tmp_path: Path):
    from gorilla.app.go.controller import Controller
    from gorilla.rules.game import Game

    c = Controller(Game.new(9))
    try:
        c.save(str(tmp_path / "go.psq"))
        assert ".psq holds Gomoku games" in c.message and not (tmp_path / "go.psq").exists()
    finally:
        c.close()


def test_sgf_move_comments_are_shown_at_their_move_and_kept(tmp_path: Path):
    path = tmp_path / "notes.sgf"
    path.write_text(
        "(;GM[4]FF[4]SZ[15]C[the game];B[hh]C[centre]TE[1];W[ii]BM[1]LB[ii:A]"
        ";B[gg]C[a three \\] at last];W[jj])",
        encoding="utf-8",
    )
    record = sgf.load_record(str(path))
    assert record.comments == {1: "centre", 3: "a three ] at last"} and record.extra["C"] == ["the game"]
    assert record.marks == {1: {"TE": ["1"]}, 2: {"BM": ["1"], "LB": ["ii:A"]}}
    c = GomokuController(GomokuGame(15), "human", "human")
    try:
        c.load(str(path))
        assert not any(ln.startswith("Comment:") for ln in c.status_lines())  # move 4: none
        c.undo()
        assert "Comment: a three ] at last" in c.status_lines()
        c.save(str(tmp_path / "out.sgf"))
        text = (tmp_path / "out.sgf").read_text(encoding="utf-8")
        assert "B[hh]C[centre]TE[1]" in text and "C[a three \\] at last]" in text and "C[the game]" in text
        assert "W[ii]BM[1]LB[ii:A]" in text  # a move's other properties are kept
        c.undo()
        c.undo()
        assert "Comment: centre" in c.status_lines()
        assert c.play(q(c, 3, 3)), c.message  # another second move: the later comments go
        c.save(str(tmp_path / "out.sgf"))
        text = (tmp_path / "out.sgf").read_text(encoding="utf-8")
        assert "C[centre]TE[1]" in text and "a three" not in text and "BM[1]" not in text
    finally:
        c.close()
