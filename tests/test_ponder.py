"""The analysis of the position shown (gorilla.app.go.ponder), headless: with ``v`` on the net
thinks on the position on the board whenever no AI is to move, stops within a batch when the
game changes and resumes on the new position, never runs while an AI thinks, and goes on from
its tree when a position comes back."""

from __future__ import annotations

import time

from helpers import v

from gorilla.app.go.controller import Controller
from gorilla.app.go.ponder import max_visits
from gorilla.app.go.teaching import position_key
from gorilla.rules.board import BLACK
from gorilla.rules.game import Game


def go9(black: str = "human", white: str = "human") -> Controller:
    c = Controller(Game.new(9, "chinese", 7.0), black, white, autosave=None)
    c.toggle_thinking()
    return c


def frames_until(c: Controller, until, timeout: float = 120.0) -> None:
    end = time.monotonic() + timeout
    while not until():
        assert time.monotonic() < end, c.message
        c.poll()
        time.sleep(0.02)


def test_it_starts_on_the_humans_turn_and_shows_the_top_moves():
    c = go9()
    try:
        assert c.ponder_view() is None
        c.poll()
        assert c.ponder.running  # the first frame starts it
        frames_until(c, lambda: c.ponder_view() is not None and c.ponder_view().visits >= 20)
        view = c.ponder_view()
        assert view.key == position_key(c.game) and view.to_move == BLACK
        cands = view.candidates
        # the search's choice first (its lower confidence bound), then the most visited
        assert cands and cands[0].pv[0] == cands[0].move
        assert [x.visits for x in cands[1:]] == sorted((x.visits for x in cands[1:]), reverse=True)
        assert all(c.game.check(x.move) is None for x in cands if x.move >= 0)
        c.toggle_thinking()  # off: nothing shown, and the next change stops it for good
        assert c.ponder_view() is None
    finally:
        c.close()


def test_a_move_stops_it_within_a_batch_and_it_resumes_on_the_new_position():
    c = go9()
    try:
        frames_until(c, lambda: c.ponder_view() is not None and c.ponder_view().visits >= 20)
        run = c.workers.get("ponder")
        assert c.play(v("E5"))
        assert run.cancel.is_set()  # the move cancels it at once
        rounds = c.ponder.rounds
        assert run.done.wait(5.0)  # a generous bound: it returns within the batch in flight
        assert c.ponder.rounds - rounds <= 1
        c.poll()
        assert c.ponder.running and c.workers.get("ponder") is not run
        frames_until(c, lambda: c.ponder_view() is not None)
        assert c.ponder_view().key == position_key(c.game) and c.ponder_view().to_move != BLACK
    finally:
        c.close()


def test_it_never_runs_while_the_ai_thinks():
    c = go9("human", "net:visits=150")
    try:
        frames_until(c, lambda: c.ponder.rounds > 3)
        assert c.play(v("E5"))
        c.poll()  # the AI's turn: the analysis stopped; the AI starts once its last batch returned
        frames_until(c, lambda: c.thinking, 30)
        assert not c.ponder.running and not c.ponder.winding_down()
        rounds = c.ponder.rounds
        while c.thinking:
            assert c.ponder.rounds == rounds and not c.ponder.running
            c.poll()
            time.sleep(0.01)
        assert c.game.move_number == 2
        frames_until(c, lambda: c.ponder.rounds > rounds)  # the human's turn again: it goes on
    finally:
        c.close()


def test_the_ais_visits_in_a_fixed_time_with_it_on_and_off():
    # the AI's visits in a fixed time: the analysis takes none of the AI's cores (a loose bound:
    # the machine is shared; what is exact is that the analysis ran no round during the search)
    counts = {}
    for on in (False, True):
        c = Controller(Game.new(9, "chinese", 7.0), "human", "net:time=1", autosave=None)
        try:
            if on:
                c.toggle_thinking()
                frames_until(c, lambda c=c: c.ponder.rounds > 3)
            assert c.play(v("E5"))
            frames_until(c, lambda c=c: c.thinking, 30)
            rounds = c.ponder.rounds
            agent = c.agents[c.game.to_move]
            while c.thinking:
                assert c.ponder.rounds == rounds
                c.poll()
                time.sleep(0.01)
            assert c.game.move_number == 2
            counts[on] = agent.last_visits
        finally:
            c.close()
    assert counts[True] > 0.5 * counts[False], counts


def test_a_position_that_comes_back_keeps_its_tree():
    c = go9()
    try:
        key = position_key(c.game)
        frames_until(c, lambda: c.ponder_view() is not None and c.ponder_view().visits >= 30)
        assert c.play(v("E5"))
        kept = c.ponder.trees[key].root.visits
        assert kept >= 30
        frames_until(c, lambda: c.ponder_view() is not None)
        assert c.undo()
        assert position_key(c.game) == key
        frames_until(c, lambda: c.ponder_view() is not None and c.ponder_view().visits > kept)
        assert c.ponder.trees[key].root.visits > kept  # went on from the kept tree
    finally:
        c.close()


def test_a_full_tree_stops_and_stays_shown(monkeypatch):
    assert max_visits(19) == 4000 and max_visits(9) > max_visits(13) > max_visits(19)
    assert max_visits(7) == 20000
    from gorilla.app.go import ponder

    monkeypatch.setattr(ponder, "max_visits", lambda size: 40)
    c = go9()
    try:
        frames_until(c, lambda: c.ponder_view() is not None and c.ponder_view().visits >= 40)
        frames_until(c, lambda: not c.ponder.running)
        for _ in range(5):
            c.poll()
            assert not c.ponder.running and c.ponder_view().visits >= 40
    finally:
        c.close()


def test_it_thinks_while_a_record_is_stepped_through_and_after_the_game():
    c = go9("human", "net:visits=30")
    try:
        assert c.play(v("E5"))
        frames_until(c, lambda: c.game.move_number == 2)
        c.go_back(1)  # White (the AI) to move, waiting while the record is reviewed
        frames_until(c, lambda: c.ponder.running)  # once the last run has returned
        assert not c.thinking
        frames_until(c, lambda: c.ponder_view() is not None)
        assert c.ponder_view().to_move != BLACK
        c.go_forward(1)
        assert c.resign()
        assert c.over
        frames_until(c, lambda: c.ponder.running)  # after the game too
        frames_until(c, lambda: c.ponder_view() is not None)
    finally:
        c.close()
