"""The MCTS agent: tactics, passing, budgets, cancel, tree reuse, time control, threads."""

from __future__ import annotations

import time

import pytest
from helpers import Work, game_from_diagram, seconds_to_stop_after_cancel

from gorilla.ai.agent import Budget, Progress, make_agent
from gorilla.ai.mcts.agent import MCTSAgent
from gorilla.ai.mcts.clock import Clock
from gorilla.rules.board import BLACK, PASS, RESIGN, WHITE
from gorilla.rules.coords import parse_vertex
from gorilla.rules.game import Game


def snapshot(game: Game) -> tuple:
    return (
        game.position.diagram(),
        game.to_move,
        game.position.hash,
        list(game.moves),
        len(game.positions),
        dict(game._hashes),
    )


def test_captures_group_in_atari() -> None:
    game = game_from_diagram(
        """
        .........
        .........
        ...XXX...
        ..XOOOX..
        ...XX.O..
        ......O..
        OOOOOOO..
        .........
        .........
        """,
        komi=0.5,  # with 7.5 Black is lost whatever it plays, and a lost search need not capture
    )
    agent = MCTSAgent(playouts=1500, seed=1, resign=0)
    assert agent.select_move(game) == parse_vertex("F5", 9)


def test_saves_own_group_from_atari() -> None:
    game = game_from_diagram(
        """
        .........
        .........
        ...OO....
        ..OXX....
        ...OO....
        .........
        .......X.
        .........
        .........
        """
    )
    agent = MCTSAgent(playouts=1500, seed=2, resign=0)
    assert agent.select_move(game) == parse_vertex("F6", 9)


def test_does_not_fill_own_eyes_and_passes_when_finished() -> None:
    # Black: a wall on column C with a big area on its left; White walls D and owns the right.
    game = game_from_diagram(
        """
        .X.XO..
        XX.XO..
        ..XXOOO
        XXXXO..
        ..XXO..
        .X.XO.O
        X.XXO..
        """,
        komi=0.5,
    )
    before = snapshot(game)
    agent = MCTSAgent(playouts=1500, seed=3, resign=0)
    move = agent.select_move(game)
    assert move == PASS
    assert snapshot(game) == before


def test_never_fills_an_eye_of_its_only_group() -> None:
    game = game_from_diagram(
        """
        .X.X.....
        XXXX.....
        .........
        .....OOO.
        .........
        .....O...
        .........
        ...O.....
        .........
        """
    )
    eyes = {parse_vertex("A9", 9), parse_vertex("C9", 9)}
    agent = MCTSAgent(playouts=800, seed=4, resign=0)
    for _ in range(3):
        move = agent.select_move(game)
        assert move not in eyes
        game.play(move)
        game.play(agent.select_move(game))


def test_passes_after_opponent_pass_when_count_wins() -> None:
    game = game_from_diagram(
        """
        ..XO...
        ..XO...
        ..XO...
        ..XO...
        ..XO...
        ..XO...
        ..XO...
        """,
        to_move=WHITE,
        komi=0.5,
    )
    game.pass_move()  # White passes; Black is ahead by 6.5... no: equal area, komi 0.5 for White
    agent = MCTSAgent(playouts=500, seed=5, resign=0)
    # the count is 28:28 + 0.5 komi: White wins, so Black must not pass
    assert agent.select_move(game) != PASS


def test_does_not_mutate_game_and_plays_legal_moves() -> None:
    game = Game.new(9)
    for v in ("E5", "C3", "G7"):
        game.play(parse_vertex(v, 9))
    before = snapshot(game)
    agent = MCTSAgent(playouts=300, seed=6)
    move = agent.select_move(game)
    assert snapshot(game) == before
    assert game.is_legal(move)


def test_honours_playout_budget() -> None:
    agent = MCTSAgent(seed=7, reuse=False)
    game = Game.new(9)
    agent.select_move(game, Budget(playouts=400))
    assert agent.last_playouts == 400
    # every playout went through the root (one thread: no update raced)
    assert sum(c.visits for c in agent.last_candidates) == 400


def test_one_thread_with_a_seed_searches_the_same_tree_every_time() -> None:
    # a playout budget means the same work whenever and wherever it runs
    game = Game.new(9)
    game.play(parse_vertex("E5", 9))
    runs = []
    for _ in range(2):
        agent = MCTSAgent(seed=21, reuse=False)
        agent.select_move(game, Budget(playouts=700))
        runs.append([(c.move, c.visits, round(c.winrate, 6)) for c in agent.last_candidates])
    assert runs[0] == runs[1] and sum(v for _, v, _ in runs[0]) == 700


def test_honours_time_budget() -> None:
    agent = MCTSAgent(seed=8, early_stop=False)  # a decided search may stop early: not here
    game = Game.new(9)
    agent.select_move(game, Budget(playouts=50))  # compiled and warm
    t0 = time.perf_counter()
    agent.select_move(game, Budget(seconds=0.4))
    took = time.perf_counter() - t0
    # it thinks for its time and then stops: a search that ignored the budget would never end
    # (no playout limit), so a wide margin keeps the test true on a busy machine
    assert agent.last_elapsed >= 0.4 and took < 0.4 + 5.0


@pytest.mark.parametrize("threads", [1, 2])
def test_cancel_from_another_thread(threads: int) -> None:
    agent = MCTSAgent(seed=9, threads=threads)
    game = Game.new(13)
    agent.select_move(game, Budget(playouts=50))
    move, seconds = seconds_to_stop_after_cancel(
        lambda cancel: agent.select_move(game, Budget(seconds=30), cancel=cancel), after=0.3
    )
    # the search polls the cancel flag every few milliseconds; one that ignored it would run its
    # 30 s: the margin is for a busy machine
    assert seconds < 5.0
    assert game.is_legal(move)
    assert agent.last_playouts > 0


def test_progress_reports_candidates_with_pv() -> None:
    reports: list[Progress] = []
    agent = MCTSAgent(seed=10)
    game = Game.new(9)
    agent.select_move(game, Budget(seconds=0.7), progress=reports.append)
    assert len(reports) >= 2
    last = reports[-1]
    assert last.fraction == 1.0 and last.playouts > 0
    assert last.candidates and last.best_move == last.candidates[0].move
    top = last.candidates[0]
    assert top.pv[0] == top.move and len(top.pv) >= 2
    assert all(0.0 <= c.winrate <= 1.0 for c in last.candidates)
    visits = [c.visits for c in last.candidates]
    assert visits == sorted(visits, reverse=True)


def test_tree_reuse_keeps_the_played_subtree() -> None:
    agent = MCTSAgent(playouts=2000, seed=11)
    game = Game.new(9)
    move = agent.select_move(game)
    reply = agent.last_candidates[0].pv[1]
    game.play(move)
    game.play(reply)
    agent.select_move(game, Budget(playouts=10))
    cands = agent.last_candidates
    assert sum(c.visits for c in cands) > 10  # visits from the previous search survived
    fresh = MCTSAgent(playouts=10, seed=11, reuse=False)
    fresh.select_move(game)
    assert sum(c.visits for c in fresh.last_candidates) <= 10


@pytest.mark.parametrize("threads", [2, 3])
def test_threads_share_one_tree_and_exactly_the_playout_budget(threads: int) -> None:
    agent = MCTSAgent(threads=threads, seed=12, reuse=False)
    game = Game.new(9)
    agent.select_move(game, Budget(playouts=1000))
    # the threads run exactly the budget between them ...
    assert agent.last_playouts == 1000
    # ... and every playout lands in the one shared tree (a visit may be lost to a race)
    assert sum(c.visits for c in agent.last_candidates) >= 990


def test_the_playout_budget_is_exact_however_the_threads_are_scheduled() -> None:
    # the count does not depend on when the main thread looks: here it sleeps in every progress
    # report (as on a busy machine) and the move is decided early, yet exactly the budget runs
    # with any number of threads (no early stop on a playout budget)
    game = game_from_diagram(
        """
        .......
        .......
        ..XXX..
        ..XO...
        ..XX...
        .......
        .......
        """
    )
    for threads in (1, 2, 4):
        agent = MCTSAgent(threads=threads, seed=5, reuse=False)

        def slow(_: Progress) -> None:
            time.sleep(0.05)

        agent.select_move(game, Budget(playouts=3000), progress=slow)
        assert agent.last_playouts == 3000, threads


def test_early_stop_ends_a_decided_search_before_its_time_budget() -> None:
    game = game_from_diagram(
        """
        .......
        .......
        ..XXX..
        ..XO...
        ..XX...
        .......
        .......
        """
    )
    # the rule, on a tree searched with an exact budget (one thread and a seed: the same tree
    # every time): stop once the best move leads the runner-up by more than 1.2 times the
    # playouts the time left would bring at the rate so far
    agent = MCTSAgent(seed=3, reuse=False)
    agent.select_move(game, Budget(playouts=2000))
    va, _, vb, _ = agent._top_two()
    lead = va - vb  # capturing the white stone at E4 leads by hundreds of visits
    assert lead > 200
    rate = 2000 / 1.0  # as if the 2000 playouts took a second
    assert agent._decided(1.0, 1.0 + 0.9 * lead / 1.2 / rate)
    assert not agent._decided(1.0, 1.0 + 1.1 * lead / 1.2 / rate)
    assert not agent._decided(1.0, None)  # a playout budget alone never stops early
    # a real search on the clock stops before its hard limit (it would reach it without the rule)
    agent.select_move(game, Budget(seconds=4.0))
    assert agent.last_playouts >= 200 and agent.last_elapsed < 4.0
    off = MCTSAgent(seed=3, reuse=False, early_stop=False)
    off.select_move(game, Budget(seconds=0.5))
    assert off.last_elapsed >= 0.5  # without the early stop the time is spent in full


def test_resigns_when_hopeless_unless_disabled() -> None:
    diagram = """
        .O.O.O.
        OOOOOOO
        .......
        ...X...
        .......
        OOOOOOO
        .O.O.O.
        """
    agent = MCTSAgent(playouts=1500, seed=13, resign=0.1, resign_playouts=500)
    assert agent.select_move(game_from_diagram(diagram)) == RESIGN
    assert agent.last_winrate < 0.1
    teacher = MCTSAgent(playouts=500, seed=13, resign=0)
    assert teacher.select_move(game_from_diagram(diagram)) != RESIGN


def test_dynamic_komi_in_handicap_games() -> None:
    game = Game.new(9, handicap=3)
    game.play(parse_vertex("E5", 9))  # White
    agent = MCTSAgent(seed=14)
    assert agent._dyn_komi(game, BLACK) > 10
    assert agent._dyn_komi(game, WHITE) == 0
    even = Game.new(9)
    assert agent._dyn_komi(even, BLACK) == 0


def test_make_agent_specs() -> None:
    a = make_agent("mcts:time=2,threads=2")
    assert isinstance(a, MCTSAgent) and a.time == 2 and a.threads == 2
    b = make_agent("mcts:playouts=5000")
    assert isinstance(b, MCTSAgent) and b.playouts == 5000
    c = make_agent("mcts:playouts=100,heavy=false,resign=0")
    assert c.heavy is False and c.resign == 0
    with pytest.raises(ValueError):
        make_agent("mcts:threads=0")


def test_light_playouts_switch() -> None:
    agent = MCTSAgent(playouts=300, heavy=False, seed=15)
    game = Game.new(7)
    move = agent.select_move(game)
    assert game.is_legal(move) and agent.last_playouts > 0


def test_ladder_reading_playouts_switch() -> None:
    # White D4 stands in atari and dies in a ladder if it runs: both threads' playouts read it
    game = game_from_diagram(
        """
        .........
        .........
        .........
        .........
        ....X....
        ..XOX....
        ...X.....
        .........
        .........
        """,
        to_move=WHITE,
    )
    agent = make_agent("mcts:playouts=400,ladders=1,threads=2,resign=0", seed=4)
    try:
        assert isinstance(agent, MCTSAgent) and agent.ladders is True
        move = agent.select_move(game)
        assert game.is_legal(move) and agent.last_playouts == 400
    finally:
        agent.close()
    assert make_agent("mcts:playouts=10").ladders is False


def test_clock_byo_yomi_and_main_time() -> None:
    c = Clock()
    assert c.plan(81, 81) is None
    c.set_time(60, 0, 0)  # sudden death
    plan = c.plan(81, 81)
    assert plan is not None and 0 < plan.target <= plan.limit < 60 * 0.25
    c.time_left(1.0, 0)
    assert c.plan(60, 81).limit < 1.0
    c.set_time(0, 10, 5)  # pure byo-yomi: 2 s a stone
    plan = c.plan(81, 81)
    assert 1.0 < plan.target < plan.limit <= 2.0
    c.set_time(10, 5, 0)  # byo-yomi time without stones: no limits
    assert c.plan(81, 81) is None


def test_uses_the_clock_from_gtp_time_settings() -> None:
    agent = MCTSAgent(seed=16)
    agent.set_time(0, 3, 10)  # 0.3 s a stone
    game = Game.new(9)
    agent.select_move(game, Budget(playouts=20))
    # the plan comes from the clock (0.3 s a stone), not from the default second a move ...
    _, target, hard = agent._limits(game, Budget())
    assert target is not None and hard is not None and target <= hard <= 0.3
    # ... and the search keeps to it (the margin is for a busy machine; 1 s is the default)
    with Work() as work:
        agent.select_move(game)
    assert work.seconds < 0.3 + 0.5


@pytest.mark.parametrize("size", [5, 13, 19])
def test_any_size_either_colour(size: int) -> None:
    game = Game.new(size)
    agent = MCTSAgent(playouts=150, seed=17)
    for _ in range(4):
        move = agent.select_move(game)
        assert move != RESIGN
        game.play(move)
