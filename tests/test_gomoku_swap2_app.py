"""Swap2 in the app (the window's Gomoku controller): the opener puts three stones, the other
player plays White's stone, passes to take Black, or puts two more and the opener chooses; the
players change seats when the colours say so. Humans act by clicks, Pass and ``two_more``; the
built-in agents and a real Gomocup engine (``gorilla pbrain``, over ``SWAP2BOARD``) answer on
the worker thread. The opening's stones cannot be undone, the clocks run for the player who
acts (and change seats with it), ``r`` starts the same opening again."""

from __future__ import annotations

import shlex
import sys

import pytest

from gorilla.app.gomoku.controller import GomokuController
from gorilla.app.gomoku.swap2 import actor, choosing, opening, undo_floor
from gorilla.app.newgame import NewGame, NewGameForm
from gorilla.gomoku import rules as R
from gorilla.gomoku.agents import ready_engine
from gorilla.gomoku.game import (
    SWAP2_CHOOSE,
    SWAP2_CHOOSE2,
    SWAP2_DONE,
    SWAP2_PLACE2,
    SWAP2_PLACE3,
    GomokuGame,
)
from gorilla.rules.coords import to_index

AI = "threat1:0.2"
ENGINE = f"pbrain:{shlex.quote(sys.executable)} -m gorilla pbrain --agent threat1"


@pytest.fixture(scope="module", autouse=True)
def _kernels() -> None:
    ready_engine(["threat1"])


@pytest.fixture
def swap2_game():
    made: list[GomokuController] = []

    def factory(black: str, white: str, clock=None) -> GomokuController:
        c = GomokuController(GomokuGame(15))
        ng = NewGame(size=15, rules="gomoku freestyle", komi=0, black=black, white=white, opening="swap2")
        if clock is not None:
            ng.clock = clock
        assert c.new_game(ng), c.message
        made.append(c)
        return c

    yield factory
    for c in made:
        c.close()


def at(x: int, y: int) -> int:
    """The window's point of Gomoku (x, y) on 15x15 (as the tests click it)."""
    return to_index(x, y, 15)


def stones(c: GomokuController) -> list[int]:
    return [col for _, col in c.gomoku.moves]


def test_the_openings_phases_who_acts_and_how_far_undo_goes() -> None:
    g = GomokuGame(15, opening="swap2")
    assert opening(g) and actor(g) == R.BLACK and g.swap2_phase == SWAP2_PLACE3 and undo_floor(g) == 0
    for x in (7, 8, 9):
        g.swap2_put(g.point(x, 7 + x % 2))
    assert g.swap2_phase == SWAP2_CHOOSE and actor(g) == R.WHITE and choosing(g) and undo_floor(g) == 3
    g.swap2_two_more()
    assert g.swap2_phase == SWAP2_PLACE2 and actor(g) == R.WHITE and not choosing(g)
    g.swap2_put(g.point(1, 1))
    assert g.swap2_phase == SWAP2_PLACE2 and undo_floor(g) == 3
    g.swap2_put(g.point(13, 13))
    assert g.swap2_phase == SWAP2_CHOOSE2 and actor(g) == R.BLACK and undo_floor(g) == 5
    g.swap2_choose(take_black=False)  # the opener plays White: the seats change
    assert not opening(g) and not g.first_player_black and undo_floor(g) == 5
    with pytest.raises(ValueError):
        g.swap2_put(g.point(0, 0))  # the opening is over
    with pytest.raises(ValueError):
        GomokuGame(15, opening="swap2").swap2_two_more()  # not before three stones
    assert not opening(GomokuGame(15)) and undo_floor(GomokuGame(15)) == 0


def test_a_human_opens_and_the_ai_chooses(swap2_game) -> None:
    c = swap2_game("human", AI)
    assert not c.offers("pass") and "puts three stones" in " ".join(c.status_lines())
    for x, y in ((7, 7), (8, 7), (7, 9)):
        assert c.play(at(x, y)), c.message
        assert not c.thinking  # the opener puts all three; the AI waits for them
    assert stones(c) == [R.BLACK, R.WHITE, R.BLACK] and c.gomoku.swap2_phase == SWAP2_CHOOSE
    assert c.play(at(3, 3)) is False and "Wait" in c.message  # the AI chooses now
    assert not c.offers("pass") and not c.offers("two_more")  # not the human's choice
    assert c.wait(30)
    assert c.gomoku.swap2_phase == SWAP2_DONE and len(c.gomoku.moves) in (3, 4)
    # either it played White's fourth stone (it keeps White) or it took Black (seats changed)
    if len(c.gomoku.moves) == 4:
        assert c.players[R.WHITE].startswith("threat1") and c.is_human(R.BLACK)
    else:
        assert c.players[R.BLACK].startswith("threat1") and c.is_human(R.WHITE)
    assert c.is_human(c.gomoku.to_move) and not c.over
    assert c.undo() is False and "opening" in c.message  # the opening's stones stay


def test_a_human_chooser_passes_to_take_black_and_the_ai_plays_white(swap2_game) -> None:
    c = swap2_game(AI, "human")
    assert c.wait(30)
    assert stones(c) == [R.BLACK, R.WHITE, R.BLACK] and c.gomoku.swap2_phase == SWAP2_CHOOSE
    assert c.offers("pass") and c.offers("two_more")
    c.drain_events()
    assert c.pass_turn(), c.message
    assert ("pass", {}) in c.drain_events()  # the pass sound
    assert c.is_human(R.BLACK) and c.players[R.WHITE].startswith("threat1")  # seats changed
    assert "human plays Black" in c.message
    assert c.wait(30)
    assert stones(c) == [R.BLACK, R.WHITE, R.BLACK, R.WHITE]  # the AI, now White, played the fourth
    assert not c.offers("pass") and c.pass_turn() is False and "no passing" in c.message


def test_two_more_stones_then_the_opener_chooses(swap2_game) -> None:
    c = swap2_game(AI, "human")
    assert c.wait(30)
    assert c.two_more(), c.message
    assert c.gomoku.swap2_phase == SWAP2_PLACE2 and not c.offers("pass")
    assert c.play(at(2, 2))
    assert c.undo() and len(c.gomoku.moves) == 3  # the human's own extra stone comes back
    assert c.undo() is False  # not the opener's three
    assert c.play(at(2, 2)) and c.play(at(12, 12))
    assert stones(c) == [R.BLACK, R.WHITE, R.BLACK, R.WHITE, R.BLACK]
    assert c.wait(30)  # the opener (the AI) chooses: keeps Black or plays White's sixth stone
    assert c.gomoku.swap2_phase == SWAP2_DONE
    if len(c.gomoku.moves) == 6:
        assert c.players[R.WHITE].startswith("threat1") and c.is_human(R.BLACK)
    else:
        assert c.players[R.BLACK].startswith("threat1") and c.is_human(R.WHITE)
    assert c.is_human(c.gomoku.to_move)


def test_a_human_chooser_plays_white_by_a_click_and_keeps_its_seat(swap2_game) -> None:
    from gorilla.app.clock import parse_clock

    c = swap2_game(AI, "human", clock=parse_clock("5m"))
    assert c.wait(30)
    assert c.clocks.started and c.clocks.clock.running == R.WHITE  # the chooser's clock runs
    assert c.play(at(10, 10)), c.message
    assert c.players[R.BLACK].startswith("threat1") and c.is_human(R.WHITE)  # no change of seats
    assert stones(c) == [R.BLACK, R.WHITE, R.BLACK, R.WHITE] and c.clocks.clock.running == R.BLACK


class FakeTime:
    """The clocks' time, moved by hand."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def left(c: GomokuController, seat: int) -> float:
    views = c.clock_views()
    assert views is not None
    return views[seat].seconds


def test_the_clocks_run_in_the_opening_and_follow_the_players_who_change_colours(swap2_game) -> None:
    # two humans on 5 minutes each: the opener's three stones start the clocks (as a first
    # move does); the chooser's 10 s of thought are its own, and stay its own when it takes
    # Black; the opener, now White, spends 7 s on the fourth stone
    from gorilla.app.clock import parse_clock

    c = swap2_game("human", "human", clock=parse_clock("5m"))
    now = c.clocks.now = FakeTime()
    for x, y in ((7, 7), (8, 7), (7, 9)):
        assert not c.clocks.started
        now.t += 4
        assert c.play(at(x, y)), c.message
    assert c.clocks.clock.running == R.WHITE and left(c, R.BLACK) == 300  # the opening's stones: free
    now.t += 10
    assert left(c, R.WHITE) == 290 and c.acting == R.WHITE
    assert c.pass_turn(), c.message  # the chooser takes Black: the players change colours
    assert c.clocks.clock.running == R.WHITE and left(c, R.BLACK) == 290 and left(c, R.WHITE) == 300
    now.t += 7
    assert c.play(at(3, 3)), c.message  # the opener, now White, plays the fourth stone
    assert c.clocks.clock.running == R.BLACK and left(c, R.WHITE) == 293 and left(c, R.BLACK) == 290


def test_two_more_stones_are_one_turn_on_the_clock_and_the_panel_shows_who_acts(swap2_game) -> None:
    from gorilla.app.clock import parse_clock

    c = swap2_game("human", "human", clock=parse_clock("5m"))
    now = c.clocks.now = FakeTime()
    for x, y in ((7, 7), (8, 7), (7, 9)):
        assert c.play(at(x, y)), c.message
    assert c.two_more(), c.message
    now.t += 3
    assert c.play(at(2, 2)), c.message  # White's fifth stone... and Black's sixth, by the chooser
    assert c.gomoku.to_move == R.BLACK and c.acting == R.WHITE  # the panel highlights the chooser
    assert c.clocks.clock.running == R.WHITE
    now.t += 6
    assert c.play(at(12, 12)), c.message  # the chooser's turn ends: the opener chooses
    assert c.gomoku.swap2_phase == SWAP2_CHOOSE2 and c.acting == R.BLACK and c.gomoku.to_move == R.WHITE
    assert c.clocks.clock.running == R.BLACK and left(c, R.WHITE) == 291
    now.t += 5
    assert c.play(at(0, 14)), c.message  # the opener plays White's stone: it takes White
    assert not c.gomoku.first_player_black and c.acting == R.BLACK == c.gomoku.to_move
    assert left(c, R.WHITE) == 295 and left(c, R.BLACK) == 291  # each player kept its own time
    assert c.clocks.clock.running == R.BLACK


def test_a_flag_that_falls_in_the_opening_loses_the_game(swap2_game) -> None:
    from gorilla.app.clock import parse_clock

    c = swap2_game("human", "human", clock=parse_clock("1m"))
    now = c.clocks.now = FakeTime()
    for x, y in ((7, 7), (8, 7), (7, 9)):
        assert c.play(at(x, y)), c.message
    now.t += 61  # the chooser thinks too long: its pass comes too late
    assert c.pass_turn() is False
    assert c.over and c.game.lost == (R.WHITE, "T") and "lost on time" in c.message
    assert c.gomoku.swap2_phase == SWAP2_CHOOSE and c.is_human(R.BLACK)  # nothing else changed


def test_reset_brings_the_opening_back_with_the_forms_seats(swap2_game) -> None:
    c = swap2_game(AI, "human")
    assert c.wait(30)
    assert c.pass_turn()  # the human takes Black: the seats change
    assert not c.gomoku.first_player_black and c.is_human(R.BLACK)
    c.reset()
    assert c.gomoku.swap2_phase == SWAP2_PLACE3 and c.gomoku.first_player_black
    assert c.players[R.BLACK].startswith("threat1") and c.is_human(R.WHITE)  # the AI opens again
    assert c.new_game_choices()["opening"] == "swap2" and c.new_game_choices()["black"] == AI
    assert c.wait(30) and len(c.gomoku.moves) == 3


def test_moving_through_a_swap2_game_stops_at_the_openings_stones(swap2_game) -> None:
    c = swap2_game("human", "human")
    for x, y in ((7, 7), (8, 7), (7, 9)):
        assert c.play(at(x, y)), c.message
    assert c.go_back() is False and "after the Swap2 opening" in c.message  # not in the opening
    assert c.pass_turn()  # the chooser takes Black: the opening ends after three stones
    for x, y in ((3, 3), (11, 11), (3, 4)):
        assert c.play(at(x, y)), c.message
    assert c.go_start() and len(c.gomoku.moves) == 3 and c.reviewing  # the opening's stones stay
    assert c.go_back() is False and "At the start" in c.message
    assert c.go_end() and len(c.gomoku.moves) == 6 and not c.reviewing


def test_a_loaded_record_is_played_at_the_forms_seats(swap2_game, tmp_path) -> None:
    c = swap2_game(AI, "human")
    assert c.wait(30)
    assert c.pass_turn() and c.is_human(R.BLACK)  # the human took Black: the seats changed
    record = GomokuGame(15)
    record.play(record.point(7, 7), R.BLACK)
    path = tmp_path / "game.sgf"
    from gorilla.gomoku import sgf

    sgf.save(record, str(path), "a", "b")
    c.load(str(path))
    assert "Loaded" in c.message and len(c.gomoku.moves) == 1 and c.gomoku.opening == "free"
    assert c.players[R.BLACK].startswith("threat1") and c.is_human(R.WHITE)  # the form's seats
    assert c.is_human(c.gomoku.to_move) and not c.thinking


def test_a_gomocup_engine_opens_and_chooses_over_swap2board(swap2_game) -> None:
    c = swap2_game(ENGINE, "human")
    assert c.wait(60), c.message
    assert stones(c) == [R.BLACK, R.WHITE, R.BLACK] and c.gomoku.swap2_phase == SWAP2_CHOOSE, c.message
    assert c.two_more() and c.play(at(1, 1)) and c.play(at(13, 13))
    assert c.wait(60), c.message
    assert c.gomoku.swap2_phase == SWAP2_DONE and not c.over, c.message
    assert len(c.gomoku.moves) in (5, 6) and c.is_human(c.gomoku.to_move)
    if len(c.gomoku.moves) == 5:  # it kept Black: the human, White, plays the sixth stone
        assert c.is_human(R.WHITE) and c.play(at(0, 14))
        assert c.wait(60) and len(c.gomoku.moves) == 7, c.message  # and the engine answers
    c.close()


def test_the_form_offers_swap2_for_gomoku_only() -> None:
    form = NewGameForm()
    form.set("rules", "gomoku freestyle")
    form.set("size", 15)
    form.set("opening", "swap2")
    assert form.result().opening == "swap2"
    form.set("rules", "chinese")  # Go shows no Opening row and opens freely
    assert not form.shows("opening") and form.result().opening == "free"
    c = GomokuController(GomokuGame(15))
    try:
        assert c.new_game(NewGame(size=15, rules="gomoku renju", opening="no-such")) is False
        assert "opening rule" in c.message and c.gomoku.opening == "free"
    finally:
        c.close()


def test_a_gomocup_engine_that_cannot_swap2_forfeits_with_one_line(swap2_game, tmp_path) -> None:
    from test_gomoku_swap2 import SWAP2_GARBAGE

    script = tmp_path / "brain.py"
    script.write_text(SWAP2_GARBAGE, encoding="utf-8")
    c = swap2_game(f"pbrain:{shlex.quote(sys.executable)} {shlex.quote(str(script))}", "human")
    assert c.wait(60)
    assert c.over and c.game.result == "W+F" and c.gomoku.moves == []
    assert "forfeits" in c.message and "SWAP2BOARD" in c.message and "\n" not in c.message


def opening_in(phase: str, opener_black: bool = True) -> GomokuGame:
    """A Swap2 game (15x15) brought to phase by its opening's steps (done: after five stones,
    the opener's colour chosen; done3: after three, the chooser keeping White)."""
    g = GomokuGame(15, opening="swap2")
    first = [(7, 7), (8, 7), (7, 9)]
    for x, y in first[: 2 if phase == SWAP2_PLACE3 else 3]:
        g.swap2_put(g.point(x, y))
    if phase == "done3":
        g.swap2_choose(take_black=False)
    elif phase not in (SWAP2_PLACE3, SWAP2_CHOOSE):
        g.swap2_two_more()
        g.swap2_put(g.point(2, 2))
        if phase != SWAP2_PLACE2:
            g.swap2_put(g.point(12, 12))
        if phase == SWAP2_DONE:
            g.swap2_choose(take_black=opener_black)
    return g


@pytest.mark.parametrize(
    "phase, value",
    [
        (SWAP2_PLACE3, "place3"),
        (SWAP2_CHOOSE, "choose"),
        (SWAP2_PLACE2, "place2"),
        (SWAP2_CHOOSE2, "choose2"),
        ("done3", "done:black:3"),
        (SWAP2_DONE, "done:white:5"),
    ],
)
def test_a_swap2_games_record_keeps_its_opening_phase_and_the_openers_colour(phase, value) -> None:
    from gorilla.gomoku import sgf

    g = opening_in(phase, opener_black=False)
    text = sgf.dumps(g, "a", "b")
    assert f"SWAPTWO[{value}]" in text
    back = sgf.loads_record(text).game
    assert (back.opening, back.swap2_phase, back.first_player_black, back.swap2_end, back.moves) == (
        g.opening,
        g.swap2_phase,
        g.first_player_black,
        g.swap2_end,
        g.moves,
    )
    assert sgf.dumps(back, "a", "b") == text  # written back the same, once
    assert "SWAPTWO" not in sgf.dumps(GomokuGame(15), "a", "b")  # a free game has none


@pytest.mark.parametrize("value", ["choose", "done:green:3", "done:black:5", "place2:x", "later"])
def test_a_swap2_opening_that_does_not_fit_the_stones_is_one_line_and_no_game(value) -> None:
    from gorilla.gomoku import sgf

    text = sgf.dumps(opening_in(SWAP2_PLACE3), "a", "b").replace("SWAPTWO[place3]", f"SWAPTWO[{value}]")
    with pytest.raises(ValueError) as e:
        sgf.loads_record(text)  # two stones: no choice yet, and no opening of 3 or 5 done
    assert str(e.value).startswith("bad SGF Swap2 opening") and "\n" not in str(e.value)


def test_a_game_saved_in_the_opening_goes_on_in_it_with_the_same_seats(swap2_game, tmp_path) -> None:
    c = swap2_game("human", "human")
    for x, y in ((7, 7), (8, 7), (7, 9)):
        assert c.play(at(x, y)), c.message
    c.save(str(tmp_path / "opening.sgf"))
    later = swap2_game("human", AI)  # the same form, the chooser an AI now
    later.load(str(tmp_path / "opening.sgf"))
    assert later.gomoku.swap2_phase == SWAP2_CHOOSE and later.acting == R.WHITE
    assert later.wait(30)  # the AI chooses: White's fourth stone, or Black
    assert later.gomoku.swap2_phase == SWAP2_DONE and len(later.gomoku.moves) in (3, 4)
    assert later.undo() is False and "opening" in later.message  # its stones stay stones of an opening


def test_a_game_saved_after_the_opener_took_white_is_played_with_the_opener_at_white(
    swap2_game, tmp_path
) -> None:
    c = swap2_game(AI, "human")
    assert c.wait(30)
    assert c.pass_turn() and c.is_human(R.BLACK)  # the human takes Black: the opener plays White
    assert c.wait(30) and len(c.gomoku.moves) == 4  # the AI's fourth stone
    c.save(str(tmp_path / "game.sgf"))
    later = swap2_game(AI, "human")
    later.load(str(tmp_path / "game.sgf"))
    g = later.gomoku
    assert (g.opening, g.swap2_phase, g.first_player_black, g.swap2_end) == ("swap2", SWAP2_DONE, False, 3)
    assert later.is_human(R.BLACK) and later.players[R.WHITE].startswith("threat1")
    assert later.is_human(g.to_move) and not later.thinking
    later.reset()  # another game: the opener (the AI) at Black again
    assert later.players[R.BLACK].startswith("threat1") and later.gomoku.swap2_phase == SWAP2_PLACE3
