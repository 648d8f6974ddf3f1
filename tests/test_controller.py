"""The game controller: moves, illegal clicks, AI threads, cancelling, autosave, end of game."""

from __future__ import annotations

import os
import threading
import time

import numpy as np
import pytest
from helpers import v, vertex

from gorilla.ai.agent import Agent, Progress
from gorilla.app.go.controller import Controller
from gorilla.app.go.review import DEFAULT_PLAYOUTS, NET_VISITS
from gorilla.app.go.sgf_text import game_from_sgf, game_to_sgf
from gorilla.app.status_text import status_lines
from gorilla.rules.board import BLACK, PASS, WHITE
from gorilla.rules.game import Game


def drive(c: Controller, until, timeout: float = 10.0) -> None:
    """Poll like the GUI's frame loop until the condition holds."""
    deadline = time.monotonic() + timeout
    while not until():
        assert time.monotonic() < deadline, "timed out"
        c.poll()
        time.sleep(0.002)


class ScriptedAgent(Agent):
    """A real agent whose answers and timing the test controls.

    Each call waits until ``release`` is set or it is cancelled, then (after
    ``late`` seconds, to imitate a search that ignores cancel for a while)
    returns the next move from ``moves``.
    """

    name = "scripted"

    def __init__(self, moves: list[int], late: float = 0.0, release: bool = True) -> None:
        self.moves = list(moves)
        self.late = late
        self.release = threading.Event()
        if release:
            self.release.set()
        self.calls = 0
        self.started = threading.Event()
        self.seen_games: list[Game] = []

    def select_move(self, game, budget=None, cancel=None, progress=None):
        self.calls += 1
        self.seen_games.append(game)
        self.started.set()
        if progress is not None:
            progress(Progress(best_move=self.moves[0], winrate=0.6, playouts=42, fraction=0.5))
        while not self.release.is_set() and not (cancel is not None and cancel.is_set()):
            time.sleep(0.001)
        time.sleep(self.late)
        return self.moves.pop(0)


# --- kernel groups -------------------------------------------------------------------------------
def test_the_window_compiles_the_heat_map_and_the_terminal_does_not():
    c = Controller(Game.new(9), "human", "mcts:time=1", eval_engine="flat")
    # the players' groups first, then the evaluator's, dead stones' (the net's), the control map's,
    # the window's heat map and whole-game analysis (the net's)
    assert c.groups_needed() == ["rules", "mcts", "control", "flat", "policy", "ownership", "net"]
    assert c.groups_needed(heat_map=False) == ["rules", "mcts", "control", "flat", "ownership", "net"]
    c = Controller(Game.new(9), "mcts:policy=0", "human", eval_engine="mcts")
    assert c.groups_needed(heat_map=False) == ["rules", "mcts-plain", "control", "mcts", "ownership", "net"]
    # the net evaluates by default; where it does not play (Little-Go's 5x5) the MCTS, without it
    c = Controller(Game.new(9), "human", "human")
    assert c.eval_engine == "net" and "net" in c.groups_needed(heat_map=False)
    c = Controller(Game.new(5, "little-go"), "human", "human")
    assert c.groups_needed() == ["rules", "control", "mcts", "policy", "ownership"]


# --- human vs human -----------------------------------------------------------------------------
def test_human_vs_human_clicks_alternate_colours():
    c = Controller(Game.new(9))
    v0 = c.version
    assert c.click(v("D4"))
    assert c.click(v("E5"))
    g = c.game
    assert [m.color for m in g.moves] == [BLACK, WHITE]
    assert g.position.color_at(v("D4")) == BLACK
    assert g.position.color_at(v("E5")) == WHITE
    assert c.version > v0
    assert not c.thinking
    assert c.pass_turn() and c.game.moves[-1].point == PASS
    assert c.undo() and c.game.move_number == 2
    assert c.redo() and c.game.move_number == 3


def _state(c: Controller):
    return (c.game.move_number, c.game.position.diagram(), c.game.to_move)


def test_illegal_clicks_change_nothing_and_say_why():
    c = Controller(Game.new(9))
    c.click(v("D4"))
    before = _state(c)
    assert not c.click(v("D4"))
    assert "occupied" in c.message
    assert _state(c) == before

    # suicide: White may not play A1 inside Black's two stones
    g = Game.new(9)
    g.add_setup([(v("A2"), BLACK), (v("B1"), BLACK)], to_move=WHITE)
    c = Controller(g)
    before = _state(c)
    assert not c.click(v("A1"))
    assert "suicide" in c.message
    assert _state(c) == before


def test_ko_click_is_refused():
    # Black captures at the ko, White may not retake at once
    g = Game.new(9)
    g.add_setup(
        [
            (v("D5"), BLACK), (v("C4"), BLACK), (v("D3"), BLACK),
            (v("E5"), WHITE), (v("F4"), WHITE), (v("E3"), WHITE), (v("D4"), WHITE),
        ],
        to_move=BLACK,
    )  # fmt: skip
    c = Controller(g)
    assert c.click(v("E4"))  # captures D4
    assert c.game.moves[-1].captures == 1
    before = _state(c)
    assert not c.click(v("D4"))
    assert "ko" in c.message
    assert _state(c) == before


def test_clicks_after_resignation_are_refused():
    c = Controller(Game.new(9))
    c.click(v("D4"))
    assert c.resign()
    assert c.game.over and c.game.result == "B+R"
    before = _state(c)
    assert not c.click(v("E5"))
    assert "over" in c.message.lower()
    assert _state(c) == before
    assert c.score() is None
    assert any("resigned" in line for line in status_lines(c))


# --- human vs AI --------------------------------------------------------------------------------
def test_human_vs_random_ai_replies_on_its_thread_and_undo_takes_both_back():
    c = Controller(Game.new(9), "human", "random:seed=1")
    assert c.click(v("D4"))
    c.poll()
    assert c.thinking or c.game.move_number == 2
    # while the AI has the move, a click is refused with a message
    if c.thinking and c.game.move_number == 1:
        assert not c.click(v("E5"))
        assert "thinking" in c.message
    drive(c, lambda: c.game.move_number == 2)
    assert c.game.moves[1].color == WHITE
    assert not c.thinking
    assert c.undo()
    assert c.game.move_number == 0 and c.game.to_move == BLACK


def test_ai_plays_black_first_and_gets_a_snapshot():
    agent = ScriptedAgent([v("C3")])
    c = Controller(Game.new(9), agent, "human")
    drive(c, lambda: c.game.move_number == 1)
    assert c.game.position.color_at(v("C3")) == BLACK
    seen = agent.seen_games[0]
    assert seen is not c.game
    assert seen.move_number == 0  # the snapshot did not follow the real game


def test_progress_is_published_for_the_hud():
    agent = ScriptedAgent([v("C3")], release=False)
    c = Controller(Game.new(9), "human", agent)
    c.click(v("D4"))
    c.poll()
    assert agent.started.wait(5)
    drive(c, lambda: c.progress is not None)
    assert c.thinking
    assert c.progress.playouts == 42
    assert any("thinking" in line and "C3" in line for line in status_lines(c))
    agent.release.set()
    drive(c, lambda: c.game.move_number == 2)
    assert c.progress is None and not c.thinking


def test_reset_during_thinking_cancels_and_a_late_answer_is_never_played():
    # the first search goes on after cancel until the test lets it end, and then answers C3:
    # that answer is stale
    agent = ScriptedAgent([v("C3"), v("G7")], release=False)
    finish = threading.Event()
    scripted = agent.select_move

    def select_move(game, budget=None, cancel=None, progress=None):
        if agent.calls > 0:
            return scripted(game, budget, cancel, progress)
        agent.calls += 1
        agent.started.set()
        cancel.wait()
        finish.wait(30)
        return agent.moves.pop(0)

    agent.select_move = select_move
    c = Controller(Game.new(9), agent, "human")
    c.poll()
    assert agent.started.wait(5) and c.thinking
    c.reset()
    assert agent.moves == [v("C3"), v("G7")]  # reset did not wait for the search: it still runs
    assert not c.thinking and c.game.move_number == 0
    finish.set()
    end = time.monotonic() + 10
    while len(agent.moves) == 2 and time.monotonic() < end:  # the stale answer is taken first
        time.sleep(0.001)
    agent.release.set()
    # the first search's answer (C3) arrives late; the new search answers G7
    drive(c, lambda: c.game.move_number == 1)
    assert c.game.moves[0].point == v("G7")
    assert c.game.position.color_at(v("C3")) == 0
    assert agent.calls == 2


def test_undo_during_thinking_cancels_and_returns_to_the_human():
    agent = ScriptedAgent([v("C3")], late=0.05, release=False)
    c = Controller(Game.new(9), "human", agent)
    c.click(v("D4"))
    c.poll()
    assert agent.started.wait(5)
    assert c.undo()
    assert not c.thinking
    assert c.game.move_number == 0 and c.game.to_move == BLACK
    time.sleep(0.15)  # the cancelled search has answered by now
    for _ in range(20):
        c.poll()
    assert c.game.move_number == 0
    assert agent.calls == 1


def test_close_cancels_thinking_and_stops_the_thread():
    agent = ScriptedAgent([v("C3")], release=False)
    c = Controller(Game.new(9), agent, "human")
    c.poll()
    assert agent.started.wait(5)
    threads = [t for t in threading.enumerate() if t.name == "gorilla-ai"]
    assert threads
    c.close()
    for t in threads:
        t.join(1)
        assert not t.is_alive()
    c.poll()
    assert c.game.move_number == 0


def test_agent_failure_becomes_a_message_not_a_crash():
    class Broken(Agent):
        name = "broken"

        def select_move(self, game, budget=None, cancel=None, progress=None):
            raise RuntimeError("out of ideas")

    c = Controller(Game.new(9), Broken(), "human")
    drive(c, lambda: c.ai_error is not None)
    assert "out of ideas" in c.message
    assert c.game.move_number == 0
    for _ in range(5):  # it does not retry in a loop
        c.poll()
    assert not c.thinking


# --- AI vs AI -----------------------------------------------------------------------------------
def test_ai_vs_ai_steps_one_move_per_click():
    c = Controller(Game.new(9), "random:seed=1", "random:seed=2")
    for _ in range(20):
        c.poll()
    assert c.game.move_number == 0 and not c.thinking  # waits for a click, as in Gorilla
    assert c.click(v("A1"))  # any point: advance
    drive(c, lambda: c.game.move_number == 1)
    for _ in range(20):
        c.poll()
    assert c.game.move_number == 1
    c.advance()
    drive(c, lambda: c.game.move_number == 2)
    assert [m.color for m in c.game.moves] == [BLACK, WHITE]


def test_ai_vs_ai_continuous_plays_to_the_end():
    c = Controller(Game.new(9), "random:seed=3", "random:seed=4")
    c.set_continuous(True)
    # the dead stones at the end are the net's: its first load in the process takes a while
    drive(c, lambda: c.game.over and not c.estimating, timeout=180)
    assert c.game.end_reason == "passes"
    sc = c.score()
    assert sc is not None and sc.result == c.game.result
    assert any(line.startswith("Result:") for line in status_lines(c))


# --- end of game --------------------------------------------------------------------------------
def _finished_game() -> Game:
    """Black wall on column E, a white stone dead inside Black's side; two passes."""
    g = Game.new(9)
    stones = [(v(f"E{r}"), BLACK) for r in range(1, 10)] + [(v(f"F{r}"), WHITE) for r in range(1, 10)]
    stones.append((v("B5"), WHITE))
    g.add_setup(stones, to_move=BLACK)
    g.pass_move()
    g.pass_move()
    return g


def test_dead_stones_toggle_by_click_and_change_the_score():
    c = Controller(_finished_game())
    c.wait(30)  # the dead-stone estimate (when the ownership module is there)
    c.game.dead.clear()
    alive = c.score()
    assert c.click(v("B5"))
    assert v("B5") in c.game.dead
    dead = c.score()
    assert dead.black > alive.black  # B5's point becomes Black's
    assert c.click(v("B5"))
    assert v("B5") not in c.game.dead
    assert c.score() == alive
    before = c.game.position.diagram()
    assert not c.click(v("C3"))  # an empty point at the end: nothing to toggle
    assert c.game.position.diagram() == before


def test_dead_stones_are_estimated_after_two_passes():
    pytest.importorskip("gorilla.ai.ownership")
    c = Controller(_finished_game())
    drive(c, lambda: c.dead_estimated, timeout=180)
    assert v("B5") in c.game.dead
    assert v("E5") not in c.game.dead


# --- views --------------------------------------------------------------------------------------
def test_control_map_is_cached_per_version():
    pytest.importorskip("gorilla.ai.control_map")
    c = Controller(Game.new(9))
    c.click(v("D4"))
    m1 = c.control_map()
    assert m1.shape == (9, 9)
    assert c.control_map() is m1
    x, y = 3, 3  # D4: row 0 is the top row
    assert m1[9 - 1 - y, x] < 0  # Black's control is negative
    c.click(v("F6"))
    m2 = c.control_map()
    assert m2 is not m1 and not np.array_equal(m1, m2)
    c.toggle_control()
    assert c.show_control


def test_evaluate_runs_in_the_background():
    pytest.importorskip("gorilla.ai.evaluator")
    c = Controller(Game.new(5, komi=0.5), eval_games=2, eval_turns=2)
    c.click(v("C3", 5))
    c.evaluate()
    assert c.evaluating
    drive(c, lambda: not c.evaluating, timeout=60)
    assert c.evaluation is not None, c.message
    ev = c.evaluation.evaluation
    assert ev.values and ev.best in ev.values
    assert c.show_eval
    c.click(v("B2", 5))
    assert c.evaluation is None  # stale after a move


def test_toggles_bump_the_version():
    c = Controller(Game.new(9))
    for toggle in (c.toggle_control, c.toggle_thinking):
        v0 = c.version
        toggle()
        assert c.version > v0


# --- autosave, save, load -----------------------------------------------------------------------
def test_autosave_after_every_move_and_resume(tmp_path):
    path = tmp_path / "sub" / "autosave.sgf"
    c = Controller(Game.new(9), autosave=str(path))
    c.click(v("D4"))
    assert c.flush_autosave()
    assert path.exists()
    c.click(v("E5"))
    c.pass_turn()
    c.flush_autosave()
    g = game_from_sgf(path.read_text())
    assert [m.point for m in g.moves] == [v("D4"), v("E5"), PASS]
    assert not [p for p in os.listdir(path.parent) if p.endswith(".tmp")]
    c.undo()
    c.click(v("C3"))  # a different move after the undo: a variation, the pass stays in the record
    assert "Line: a variation, branching at move 3 (2 of 2)" in c.status_lines()
    saved = tmp_path / "saved.sgf"
    c.save(str(saved))
    c.close()  # close writes what is pending
    # the tree keeps its own order: the pass is the main line, C3 (on show) its variation, as the
    # panel says; the autosave names the line on show for --resume, Ctrl+S does not
    for text in (path.read_text(), saved.read_text()):
        assert "(;B[tt])(;B[cg])" in text.replace("\n", "")  # C3 on 9x9
        assert game_from_sgf(text).moves[-1].point == PASS
    assert "GORILLALINE[3:1]" in path.read_text() and "GORILLALINE" not in saved.read_text()

    c2 = Controller(Game.new(19), autosave=str(path))
    c2.load(str(path))  # --resume's way in: the end of the line that was on show
    assert c2.game.size == 9 and c2.game.move_number == 3 and c2.game.moves[-1].point == v("C3")
    assert len(c2.tree.current.parent.children) == 2 and c2.tree.current.index() == 1
    assert "Line: a variation, branching at move 3 (2 of 2)" in c2.status_lines()
    assert "GORILLALINE" not in game_to_sgf(c2.tree)  # read and dropped: never in the user's files
    assert c2.click(v("C4"))  # play on
    c2.flush_autosave()
    assert game_from_sgf(path.read_text()).moves[-1].point == PASS  # the main line stays the pass
    c2.close()
    c3 = Controller(Game.new(9), autosave=None)
    c3.load(str(path))
    assert [m.point for m in c3.game.moves][-2:] == [v("C3"), v("C4")]
    c3.close()


def test_autosave_failure_is_a_message_and_play_goes_on(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    c = Controller(Game.new(9), autosave=str(blocker / "autosave.sgf"))  # a file is in the way
    assert c.click(v("D4"))
    c.flush_autosave()
    c.poll()
    assert c.message.startswith("Autosave failed")
    assert c.click(v("E5"))
    assert c.game.move_number == 2
    c.close()


def test_empty_game_never_overwrites_the_autosave(tmp_path):
    path = tmp_path / "autosave.sgf"
    c = Controller(Game.new(9), autosave=str(path))
    c.click(v("D4"))
    c.reset()
    c.close()
    assert len(game_from_sgf(path.read_text()).moves) == 1


def test_save_and_load_errors_leave_the_game(tmp_path):
    c = Controller(Game.new(9))
    c.click(v("D4"))
    before = _state(c)
    broken = tmp_path / "broken.sgf"
    broken.write_text("(;FF[4]SZ[9];B[dd];W[dd])")  # the second move is illegal
    c.load(str(broken))
    assert c.message.startswith("Cannot load") and "\n" not in c.message
    assert _state(c) == before
    c.load(str(tmp_path / "missing.sgf"))
    assert "no such file" in c.message
    assert _state(c) == before
    c.save(str(tmp_path / "nodir" / "x" / "game.sgf"))  # directories are created
    assert (tmp_path / "nodir" / "x" / "game.sgf").exists()
    (tmp_path / "adir").mkdir()
    c.save(str(tmp_path / "adir"))
    assert c.message.startswith("Cannot save")
    assert _state(c) == before


def test_snapshot_is_independent():
    g = Game.new(9)
    g.play(v("D4"))
    s = g.copy()
    g.play(v("E5"))
    g.dead.add(v("D4"))
    assert s.move_number == 1 and not s.dead
    s.play(v("F6"))
    assert g.move_number == 2
    assert g.position.color_at(v("F6")) == 0


def test_the_komi_part_of_the_score_line_wraps_as_one_piece():
    c = Controller(_finished_game())
    drive(c, lambda: c.dead_estimated, timeout=180)
    white = next(line for line in status_lines(c) if line.startswith("White:"))
    head, _, tail = white.rpartition(" ")
    assert "komi" in tail and " " not in tail  # "+ 7.5 komi = N" holds only no-break spaces
    assert tail.startswith("+\u00a0") and tail.endswith(f"\u00a0{c.score().white:g}")


def test_reset_leaves_the_records_names_with_the_old_game_and_undo_brings_it_back(tmp_path):
    record = tmp_path / "named.sgf"
    record.write_text("(;GM[1]FF[4]SZ[9]KM[7.5]PB[Lee Sedol]PW[Cho Chikun]EV[Final]BR[9p];B[ee];W[cc];B[gg])")
    c = Controller(Game.new(9), autosave=str(tmp_path / "autosave.sgf"))
    c.load(str(record))
    assert (c.names().black, c.names().event) == ("Lee Sedol", "Final")
    c.reset()
    info = c.names()
    assert c.game.move_number == 0 and (info.black, info.white, info.event) == ("Human", "Human", "")
    assert c.message == "New game (u brings the last one back)"
    assert "Lee Sedol" not in game_to_sgf(c.tree)
    assert c.undo() and c.game.move_number == 3 and c.game.moves[-1].point == v("G3")
    assert (c.names().black, c.names().event) == ("Lee Sedol", "Final")
    # a move in the new game: undo takes that move back, and the old game stays gone
    c.reset()
    assert c.click(v("D4"))
    assert c.undo() and c.game.move_number == 0
    assert not c.undo() and c.message == "Nothing to undo" and c.names().black == "Human"
    c.close()


def test_g_says_the_search_a_position_gets_in_the_engines_unit():
    c = Controller(Game.new(9))
    c.click(v("E5"))
    c.toggle_analysis()
    # a 9x9 board gets three times 19x19's visits (its positions cost a fifth of the time)
    assert c.message == f"Analysing the game: the net, {3 * NET_VISITS} visits a position (g cancels)"
    c.toggle_analysis()
    c.review.close()
    c.review.engine, c.review.playouts = "mcts", 700
    assert c.review.search_text(c.game) == "the MCTS, 700 playouts a position"
    c.review.engine, c.review.playouts = None, None
    little = Game.new(5, "little-go")  # the net does not play Little-Go: the MCTS's default
    assert c.review.search_text(little) == f"the MCTS, {DEFAULT_PLAYOUTS} playouts a position"
    c.close()


MATCH = os.path.join(os.path.dirname(__file__), "data", "match_mcts_9x9.sgf")  # by `gorilla match`


def _load_match(tmp_path, re_text: str) -> Controller:
    record = tmp_path / f"match-{re_text}.sgf"
    with open(MATCH, encoding="utf-8") as f:
        record.write_text(f.read().replace("RE[B+17.5]", f"RE[{re_text}]"))
    c = Controller(Game.new(9), autosave=str(tmp_path / "autosave.sgf"))
    c.load(str(record))
    for _ in range(3):
        c.poll()
    return c


def test_a_finished_records_result_stands_and_no_dead_stone_estimate_replaces_it(tmp_path):
    c = _load_match(tmp_path, "B+17.5")  # the count of the board, as the match counted it
    assert c.game.end_reason == "passes" and c.result == "B+17.5"
    assert not c.estimating and not c.game.dead  # no guess at the dead stones starts
    assert "Result: B+17.5" in c.status_lines()
    c.close()
    c = _load_match(tmp_path, "B+20.5")  # a record whose result is not the board's count
    lines = c.status_lines()
    assert c.result == "B+20.5" and not c.estimating and "Result: B+20.5, as the record says" in lines
    assert not [ln for ln in lines if ln.startswith("Result: B+17.5")]
    c.go_back(1)
    c.go_end()  # back at the end: still the record's
    assert c.result == "B+20.5" and not c.estimating
    # the user counts again: a white group marked dead, the count with it is the result
    pos = c.game.position
    white = next(p for p in pos.points() if pos.color_at(p) == WHITE)
    assert c.click(white)
    counted = c.score()
    assert c.recorded_result() is None and c.result == f"B+{counted.margin:g}" != "B+20.5"
    assert f"Result: {c.result}" in c.status_lines()
    assert c.flush_autosave()
    with open(tmp_path / "autosave.sgf", encoding="utf-8") as f:
        assert f"RE[{c.result}]" in f.read()
    c.close()


def test_the_panel_counts_the_nets_search_in_visits_and_the_mcts_in_playouts():
    from gorilla.app.status_text import search_count

    assert search_count(200, "net:visits=200") == "200 visits" and search_count(5, "rank:15k") == "5 visits"
    assert (
        search_count(900, "mcts:playouts=1000") == "900 playouts"
        and search_count(3, "montecarlo") == "3 playouts"
    )
    assert search_count(70, "pvs+vct 1s") == "70 nodes" and search_count(8, "alphabeta:time=2") == "8 nodes"
    agent = ScriptedAgent([v("C3")], release=False)
    c = Controller(Game.new(9), "human", agent)
    c.seats.labels[WHITE] = "net"  # the net's label: its search counts visits
    c.click(v("E5"))
    c.poll()  # White's search starts
    assert agent.started.wait(5)
    c.poll()  # its progress (42) comes in
    line = next(ln for ln in c.status_lines() if "thinking" in ln)
    assert "42 visits" in line and "playouts" not in line
    agent.release.set()
    c.close()


def test_n_names_the_move_on_show_what_it_lost_and_the_better_move_before_it():
    from gorilla.app.go.review import PositionEval, line_keys

    c = Controller(Game.new(9))
    for m in ("E5", "C3", "D5"):
        c.click(v(m))
    game = c.game
    values = [  # (Black's score lead, the best move) of each position: move 3, D5, lost 3.0
        (5.0, v("C3")),
        (5.0, v("G5")),
        (5.0, v("F4")),
        (2.0, v("G7")),
    ]
    for k, (key, (score, best)) in enumerate(zip(line_keys(game), values, strict=True)):
        c.review.cache[key] = PositionEval(
            0.5, score, best, [best], BLACK if k % 2 == 0 else WHITE, root=True
        )
    c.go_start()
    assert c.next_mistake(1) and c.game.move_number == 3
    assert c.message == "Move 3 (B D5) lost 3.0 points; F4 was better; Black 50% after it"
    shown = c.review.shown_review(c.game)
    assert (shown.number, shown.move, shown.points_lost, shown.best) == (3, v("D5"), 3.0, v("F4"))
    assert shown.best != c.review.positions(c.game)[3].best  # not the board's best (G7)
    c.close()


def test_the_flat_evaluators_figure_says_it_is_the_share_of_its_short_random_games():
    from gorilla.ai.evaluator import Evaluation
    from gorilla.ai.montecarlo import MoveValue
    from gorilla.app.move_values import EvaluationView
    from gorilla.gui.overlay import eval_legend

    c = Controller(Game.new(9), eval_games=10, eval_turns=3)  # gorilla -eval 10 3
    c.click(v("E5"))
    c.evaluate()
    assert c.wait(300) and c.evaluation is not None
    ev = c.evaluation
    best = ev.evaluation.values[ev.evaluation.best]
    words = f"ahead in {100 * best.winrate:.0f}% of 10 random games of 3 moves, mean margin {best.score:+.1f}"
    assert ev.figure() == words
    assert f"Evaluator: best {vertex(ev.evaluation.best)} ({words})" in c.status_lines()
    legend = eval_legend(
        ev.evaluation.values, ev.evaluation.best, 9, ev.unit, figure=ev.figure(), numbers=ev.numbers()
    )
    assert f"is the best move ({words})" in legend and "lead" not in legend
    c.close()
    d4 = v("D4")
    to_end = EvaluationView(
        Evaluation({d4: MoveValue(d4, 1.0, 0.7, 3.5, 30)}, d4), None, 1, games=30, turns=0
    )
    assert to_end.figure() == "won 70% of 30 random games played to the end, mean margin +3.5"
    net = EvaluationView(Evaluation({d4: MoveValue(d4, 1.0, 0.55, 2.8, 200)}, d4, "net"), None, 1)
    assert net.figure() == "win 55%, lead +2.8"


RECORD = (
    "(;GM[1]FF[4]SZ[9]KM[6.5]RU[Japanese]PB[Lee Sedol]BR[9p]PW[AlphaGo]EV[Match]PC[Seoul]"
    "DT[2016-03-09];B[ee];W[cc];B[gg];W[tt];B[tt])"
)


def test_ctrl_i_edits_ranks_place_date_result_komi_and_rules_of_the_record(tmp_path):
    from dataclasses import replace

    from gorilla.rules.scoring import result_string

    path = tmp_path / "match.sgf"
    path.write_text(RECORD)
    c = Controller(Game.new(9), autosave=str(tmp_path / "autosave.sgf"))
    c.load(str(path))
    info = c.names()
    assert (info.black_rank, info.white_rank, info.place, info.date) == ("9p", "", "Seoul", "2016-03-09")
    assert (info.komi, info.rules, info.result) == ("6.5", "japanese", c.result) and c.over
    assert "Place: Seoul  Date: 2016-03-09" in c.status_lines()
    counted = c.score().margin
    # a bad row: one line, nothing changes
    assert not c.set_record_info(replace(info, komi="6.3", white_rank="9d"))
    assert c.message.startswith("Cannot keep the game info: Komi") and c.names().white_rank == ""
    assert not c.set_record_info(replace(info, result="Black won"))
    assert "is no SGF result" in c.message and c.game.komi == 6.5
    # a new komi: the record and the count follow (the old count's result goes)
    assert c.set_record_info(replace(info, komi="0.5", white_rank="9d", date="2016-03-10"))
    assert c.game.komi == 0.5 and c.score().margin == counted + 6.0 and c.result == result_string(counted + 6)
    assert c.names().white_rank == "9d" and "Date: 2016-03-10" in "\n".join(c.status_lines())
    # a typed result is the record's result: the game's, and no estimate replaces it
    assert c.set_record_info(replace(c.names(), result="W+R"))
    assert (
        c.result == "W+R"
        and c.recorded_result() == "W+R"
        and "Result: W+R, as the record says" in c.status_lines()
    )
    # other rules: the record is played again under them
    assert c.set_record_info(replace(c.names(), rules="chinese"))
    assert c.game.ruleset.name == "chinese" and c.game.move_number == 5 and c.result == "W+R"
    c.save(str(tmp_path / "out.sgf"))
    text = (tmp_path / "out.sgf").read_text()
    for prop in ("KM[0.5]", "RU[Chinese]", "RE[W+R]", "WR[9d]", "BR[9p]", "PC[Seoul]", "DT[2016-03-10]"):
        assert prop in text, prop
    c.close()


def test_rules_that_forbid_a_move_of_the_record_change_nothing(tmp_path):
    from dataclasses import replace

    path = tmp_path / "suicide.sgf"  # B at A9 takes its two stones off: only Tromp-Taylor allows it
    path.write_text("(;GM[1]FF[4]SZ[9]RU[tromp-taylor];B[ee];W[ca];B[ba];W[ab];B[gg];W[bb];B[aa])")
    c = Controller(Game.new(9))
    c.load(str(path))
    assert c.game.move_number == 7, c.message
    assert not c.set_record_info(replace(c.names(), rules="japanese"))
    assert "under japanese rules move 7 (A9) is illegal" in c.message
    assert c.game.ruleset.name == "tromp-taylor" and c.game.move_number == 7
    c.close()
