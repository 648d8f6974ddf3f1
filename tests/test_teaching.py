"""The teaching game, headless (gorilla.app.go.teaching): a taught human's moves judged by the net's
search, a move that loses more than the take-back threshold taken back once per position with
its ghost and refutation, the second try standing, the AI waiting only while a take-back is
possible; the settings, the new-game row, ``--teach`` and the terminal."""

from __future__ import annotations

import io
import re
import time

import pytest
from helpers import v

from gorilla.app.go.controller import Controller
from gorilla.app.go.teaching import THRESHOLDS, TeachSettings, position_key, taught_sides
from gorilla.app.go.terminal import Terminal
from gorilla.app.newgame import FormError, NewGameForm
from gorilla.launcher.cli import UsageError, parse_args
from gorilla.rules.board import BLACK, WHITE
from gorilla.rules.game import Game

A1 = "A1"  # on an empty 9x9 board the corner point: the net's search finds it loses > 3 points


def go9(black: str = "human", white: str = "net:visits=40", **kw) -> Controller:
    return Controller(Game.new(9, "chinese", 7.0), black, white, autosave=None, **kw)


def settle(c: Controller, until, timeout: float = 120.0) -> None:
    """Poll and wait until until() holds (the judgement's tasks run on threads)."""
    end = time.monotonic() + timeout
    while not until():
        assert time.monotonic() < end, c.message
        c.poll()
        c.wait(1.0)


def test_a_move_that_loses_more_than_three_points_is_taken_back_once():
    c = go9(teach="black")
    try:
        c.poll()
        start = position_key(c.game)
        assert c.play(v(A1))
        c.poll()
        assert c.teacher.holding() and not c.thinking  # the AI's reply waits for the judgement
        settle(c, lambda: not c.teacher.judging)
        assert c.game.move_number == 0 and c.game.to_move == BLACK  # taken back
        assert "A1" in c.message and "lost" in c.message and "try again" in c.message
        marks = c.teaching_marks()
        ghost = marks.ghost
        assert ghost is not None and ghost.move == v(A1) and ghost.color == BLACK and ghost.taken_back
        assert ghost.lost > 3.0 and ghost.grade >= 3
        assert c.message.endswith("(the pointer on it shows the net's answer)")  # KaTrain's hint
        assert ghost.refutation and ghost.refutation[0] != v(A1)  # White's best reply first
        assert ghost.delay > 0
        # the second try at that position stands: the AI replies at once (both positions are
        # searched already: the judgement comes back in the same frame)
        assert c.play(v(A1))
        c.poll()
        assert not c.teacher.holding() and c.thinking
        settle(c, lambda: not c.teacher.judging and c.game.move_number == 2)
        assert c.game.moves[0].point == v(A1)
        judged = c.teacher.judged[position_key(c.game.at(1))]
        assert not judged.taken_back and judged.lost > 3.0
        assert c.teaching_marks().ghost is None  # the ghost belongs to the start position
        assert c.teaching_marks().dots == [(v(A1), judged.grade)]
        c.go_back(2)
        assert position_key(c.game) == start and c.teaching_marks().ghost is ghost
    finally:
        c.close()


def test_the_nets_first_choice_loses_nothing_and_stands():
    c = go9(teach="black")
    try:
        key = position_key(c.game)
        settle(c, lambda: key in c.teacher.cache)  # searched while Black thinks
        best = c.teacher.cache[key].best
        assert c.play(best)
        settle(c, lambda: not c.teacher.judging and c.game.move_number == 2)
        j = c.teacher.judged[position_key(c.game.at(1))]
        assert j.lost == 0.0 and j.grade == 0 and not j.taken_back
        assert "first choice" in j.text(9)
    finally:
        c.close()


@pytest.mark.parametrize("chance, back", [(1.0, True), (0.0, False)])
def test_a_class_below_the_threshold_is_taken_back_by_its_chance(chance, back):
    # take-back threshold out of reach: only the class's chance decides (every class the same)
    teaching = TeachSettings(take_back=1000.0, chances=(chance,) * 6, visits=30)
    c = go9("human", "human", teach="black", teaching=teaching)
    try:
        assert c.play(v("E5"))
        settle(c, lambda: not c.teacher.judging)
        assert (c.game.move_number == 0) is back
        after = Game.new(9, "chinese", 7.0)
        after.play(v("E5"))
        assert c.teacher.judged[position_key(after)].taken_back is back
    finally:
        c.close()


def test_take_backs_off_nobody_waits():
    c = go9(teach="black", teaching=TeachSettings(take_back=0.0, visits=30))
    try:
        assert c.play(v(A1))
        c.poll()
        assert not c.teacher.holding() and c.thinking  # judgement and reply side by side
        settle(c, lambda: not c.teacher.judging and c.game.move_number == 2)
    finally:
        c.close()


def test_an_untaught_side_is_not_judged():
    c = go9("human", "human", teach="white")
    try:
        assert c.play(v(A1))
        c.poll()
        assert not c.teacher.judging and c.game.move_number == 1
    finally:
        c.close()


def test_classes_by_the_thresholds():
    s = TeachSettings()
    assert s.thresholds == THRESHOLDS == (0.5, 1.5, 3.0, 6.0, 12.0)
    losses = (0.0, 0.49, 0.5, 1.6, 3.0, 5.9, 6.0, 12.0, 40.0)
    assert [s.grade(x) for x in losses] == [0, 0, 1, 2, 3, 3, 4, 5, 5]
    assert s.take_back == 3.0


def test_bad_settings_are_one_line_and_the_defaults():
    ok, problem = TeachSettings.from_dict({"thresholds": [1, 2, 4, 8, 16], "dots": 0})
    assert problem is None and ok.thresholds == (1, 2, 4, 8, 16) and ok.dots == 0 and ok.take_back == 3.0
    for bad in ({"thresholds": [3, 1]}, {"chances": [2]}, {"dots": "x"}, {"take_back": -1}, [1]):
        s, problem = TeachSettings.from_dict(bad)
        assert s == TeachSettings() and problem and "\n" not in problem
    assert TeachSettings.from_dict(TeachSettings().to_dict()) == (TeachSettings(), None)


def test_the_sides_taught():
    human = {BLACK: True, WHITE: False}.get
    assert taught_sides("human", human) == {BLACK}
    assert taught_sides("both", human) == {BLACK, WHITE}
    assert taught_sides("off", human) == set()
    with pytest.raises(ValueError):
        taught_sides("grey", human)


def test_the_new_game_forms_teaching_row():
    form = NewGameForm()
    form.set("size", 9)
    form.set("white", "net")
    form.set("teach", "human")
    ng = form.result()
    assert ng.teach == "human"
    form.set("teach", "white")
    with pytest.raises(FormError, match="White is not played by a human"):
        form.result()
    form.set("teach", "off")
    again = NewGameForm(form.remember())
    assert again["teach"].value == "off"
    form.set("teach", "black")
    form.set("rules", "gomoku freestyle")  # Gomoku shows no Teaching row and teaches nothing
    assert not form.shows("teach") and form.result().teach == "off"
    form.set("rules", "chinese")  # back to Go: its rows as they were
    assert form.shows("teach") and form.result().teach == "black"


def test_a_new_game_from_the_form_teaches_its_sides():
    c = go9("human", "human")
    try:
        form = NewGameForm()
        form.set("size", 9)
        form.set("teach", "human")
        assert c.new_game(form.result())
        assert c.teacher.sides == {BLACK, WHITE} and c.new_game_choices()["teach"] == "both"
    finally:
        c.close()


def test_the_teach_flag():
    assert parse_args(["--white", "net", "--teach"]).teach == "human"
    assert parse_args(["--black", "net", "--teach", "white"]).teach == "white"
    assert parse_args([]).teach == "off"
    no_human = ["-ai_vs_ai", "-ai_random", "-ai_random", "--teach"]
    for argv in (["--white", "net", "--teach", "white"], no_human):
        with pytest.raises(UsageError, match="--teach"):
            parse_args(argv)
    with pytest.raises(UsageError):
        parse_args(["--teach", "grey"])
    with pytest.raises(UsageError, match="Gomoku"):
        parse_args(["--game", "gomoku", "--teach"])


def test_the_terminal_prints_the_judgement_and_takes_the_move_back():
    c = go9(teach="black")
    out = io.StringIO()
    try:
        Terminal(c, io.StringIO("A1\nA1\nquit\n"), out).run()
    finally:
        c.close()
    text = out.getvalue()
    assert "Teaching game: the net judges Black's moves" in text
    back = text.index("Move 1 A1 lost ")
    first = text[back:].splitlines()[0]
    assert "points: try again (the net's answer: " in first  # the refutation, as the window's hover draws it
    answer = first.split("the net's answer: ")[1].rstrip(")").split()
    assert 1 <= len(answer) <= 5 and all(re.fullmatch(r"[A-HJ][1-9]|pass", m) for m in answer), first
    after = text[back:].splitlines()
    assert after[1].strip().startswith("A B C D E F G H J")  # the board again, A1 empty
    assert any(line.startswith("Move 1 (Black A1): lost ") for line in after[2:])  # the second try
    assert c.game.move_number == 2 and c.game.moves[0].point == v(A1)
