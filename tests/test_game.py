"""The game record: handicap, undo/redo/goto, game end, result strings, error messages."""

from __future__ import annotations

import pytest
from helpers import v

from gorilla.match.gtp_client import GtpClient
from gorilla.rules.board import BLACK, WHITE
from gorilla.rules.coords import format_vertex, parse_vertex
from gorilla.rules.game import Game, fixed_handicap_points
from gorilla.rules.position import IllegalMove, Position


@pytest.mark.gnugo
def test_fixed_handicap_matches_gnugo(gnugo: GtpClient) -> None:
    checked = refused = 0
    for size in range(2, 20):
        gnugo.send(f"boardsize {size}")
        for n in range(0, 11):
            gnugo.send("clear_board")
            ok, answer = gnugo.ask(f"fixed_handicap {n}")
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


def test_little_go_move_cap_ends_the_game_after_24_moves() -> None:
    g = Game.new(rules="little-go")
    assert (g.size, g.komi, g.move_cap) == (5, 2.5, 24)
    points = [p for p in g.position.points()]
    played = 0
    i = 0
    while played < 24:
        if played % 5 == 4:
            g.pass_move()  # single passes do not end the game
        else:
            while not g.is_legal(points[i]):
                i += 1
            g.play(points[i])
        played += 1
        assert g.over == (played == 24)
    assert g.end_reason == "move cap"
    assert g.moves_left == 0
    assert g.check(points[-1]) == "game is over"
    with pytest.raises(IllegalMove, match="^game is over$"):
        g.pass_move()
    s = g.score()
    assert s.method == "stones"
    assert g.result == s.result
    assert s.black == len(g.position.stones(BLACK))
    g.undo()
    assert not g.over and g.moves_left == 1


def test_two_passes_end_the_game_and_result_strings() -> None:
    g = Game.new(9, "chinese", komi=7.5)
    assert g.result is None
    g.play(v("E5", 9))
    g.pass_move()
    assert not g.over
    g.pass_move()
    assert g.over and g.end_reason == "passes"
    assert g.result == "B+73.5"  # 81 points of area against the komi
    assert g.winner() == BLACK
    draw = Game.new(2, "chinese", komi=0)
    draw.pass_move()
    draw.pass_move()
    assert draw.result == "0" and draw.winner() == 0


def test_resignation() -> None:
    g = Game.new(9)
    g.play(v("E5", 9))
    g.resign()  # White resigns
    assert g.over and g.end_reason == "resign" and g.result == "B+R"
    assert g.legal_moves() == []
    g.undo()
    assert not g.over and g.result is None
    g.resign(BLACK)
    assert g.result == "W+R" and g.winner() == WHITE


def test_undo_redo_goto_restore_exact_positions() -> None:
    g = Game.new(5, "chinese")
    for vertex in ("B2", "A2", "A3", "B1", "A1"):  # Black's A1 takes A2: a ko
        g.play(v(vertex, 5))
    assert g.position.ko == v("A2", 5) and g.captures(BLACK) == 1
    g.pass_move()
    g.play(v("E5", 5))
    g.play(v("D5", 5))
    g.play(v("C3", 5))

    def snap(p: Position) -> tuple:
        return (p.diagram(), p.hash, p.ko, p.captures(BLACK), p.captures(WHITE), p.to_move)

    snapshots = [snap(p) for p in g.positions]
    assert len({s[:2] for s in snapshots}) == 9  # all different
    for n in (3, 0, 9, 5, 1):
        g.goto(n)
        assert g.move_number == n
        assert snap(g.position) == snapshots[n]
    assert g.undo() and g.move_number == 0
    assert not g.undo()
    g.goto(9)
    assert not g.redo()
    g.goto(4)
    g.play(v("E1", 5))  # a new move drops the redo list
    assert g.redo_stack == [] and not g.redo()
    assert g.move_number == 5


def test_illegal_moves_leave_the_game_unchanged() -> None:
    g = Game.new(9)
    g.play(v("E5", 9))
    before = (g.position.diagram(), g.position.hash, g.move_number, g.to_move)
    for point, reason in ((v("E5", 9), "occupied"), (0, "off board"), (10**6, "off board")):
        assert g.check(point) == reason
        with pytest.raises(IllegalMove) as err:
            g.play(point)
        assert str(err.value) == reason
        assert (g.position.diagram(), g.position.hash, g.move_number, g.to_move) == before


def test_error_messages_are_one_clear_line() -> None:
    from gorilla.rules.coords import check_size
    from gorilla.rules.position import parse_color
    from gorilla.rules.rulesets import get_ruleset

    cases = [
        (lambda: parse_vertex("Z9", 9), "coordinate 'Z9' is off the 9x9 board"),
        (lambda: parse_vertex("I5", 9), "invalid coordinate 'I5'"),
        (lambda: parse_vertex("J10", 9), "coordinate 'J10' is off the 9x9 board"),
        (lambda: parse_vertex("", 9), "invalid coordinate ''"),
        (lambda: check_size(26), "board size 26 is outside 2..25"),
        (lambda: check_size(1), "board size 1 is outside 2..25"),
        (
            lambda: get_ruleset("ing"),
            "unknown rules 'ing' (known: chinese, japanese, tromp-taylor, little-go)",
        ),
        (lambda: parse_color("red"), "invalid color 'red'"),
        (lambda: Position.from_diagram("X.\n.?"), "unknown diagram symbol '?'"),
        (lambda: Position.from_diagram("X..\n..."), "diagram must be square"),
        (lambda: Position.from_diagram("XO\nOX"), "diagram: the stone at A2 has no liberties"),
        (lambda: fixed_handicap_points(9, 10), "invalid number of stones: at most 9 on 9x9"),
        (lambda: fixed_handicap_points(5, 2), "no fixed handicap on a 5x5 board"),
        (lambda: Game.new(30), "board size 30 is outside 2..25"),
    ]
    for call, message in cases:
        with pytest.raises(ValueError) as err:
            call()
        assert str(err.value) == message


def test_setup_stones() -> None:
    g = Game.new(9)
    g.add_setup(((p, BLACK) for p in (v("C3", 9), v("D4", 9))), to_move=WHITE)  # a generator works
    assert g.setup == {v("C3", 9): BLACK, v("D4", 9): BLACK}
    assert g.to_move == WHITE and g.move_number == 0
    with pytest.raises(ValueError, match="would have no liberties"):
        g.add_setup([(v("A1", 9), WHITE), (v("A2", 9), BLACK), (v("B1", 9), BLACK)])
    assert len(g.setup) == 2  # unchanged by the refused setup
    g.play(v("E5", 9))
    with pytest.raises(ValueError, match="only before the first move"):
        g.add_setup([(v("A1", 9), BLACK)])


def test_replay_rebuilds_the_same_game() -> None:
    g = Game.new(9, "japanese", handicap=3)
    for vertex in ("E5", "C3", "F6"):
        if g.is_legal(v(vertex, 9)):
            g.play(v(vertex, 9), comment=vertex)
    g.info.black_name = "b"
    h = g.replay()
    assert h.moves == g.moves and h.position == g.position and h.setup == g.setup
    assert h.info == g.info and h.info is not g.info
