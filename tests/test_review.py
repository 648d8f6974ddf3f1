"""Whole-game analysis: a known blunder found by the report and by next_mistake, points lost
never negative and about 0 for the engine's own best move, results kept per line, cancel;
``gorilla analyze`` writes an SGF that sgfmill loads with every node, a PNG, and one line
for a bad file."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from helpers import game_from_diagram
from sgfmill import sgf

from gorilla.ai.agent import Budget
from gorilla.app.analyze_cli import main as analyze_main
from gorilla.app.go import review
from gorilla.app.go.controller import Controller
from gorilla.app.go.reviewer import Review
from gorilla.app.go.sgf_text import tree_from_sgf
from gorilla.cli import main as gorilla_main
from gorilla.match.plot import read_png
from gorilla.rules.board import BLACK, PASS, WHITE
from gorilla.rules.coords import format_vertex, parse_vertex
from gorilla.rules.game import Game
from gorilla.rules.sgf import save_sgf

# Black to move. The white group C5-G5 has one liberty, E6: Black captures five stones there,
# while after any other move White connects at E6 to its wall.
START = """
.........
.........
OOOOOOOOO
..XX.XX..
.XOOOOOX.
..XXXXX..
XXXXXXXXX
.........
.........
"""
BUDGET = Budget(playouts=1500)


def line(*moves: str) -> Game:
    game = game_from_diagram(START, BLACK, komi=7.0)
    for m in moves:
        game.play(parse_vertex(m, 9))
    return game


@pytest.fixture(scope="module")
def blunder() -> tuple[Game, list[review.MoveReview], dict]:
    game = line("J1", "E6", "A5", "J5")  # 1. J1 lets the group escape
    cache: dict = {}
    return game, review.analyse_line(game, BUDGET, seed=3, cache=cache, engine="mcts"), cache


def test_the_report_and_next_mistake_find_the_blunder(blunder) -> None:
    game, revs, _ = blunder
    assert [r.number for r in revs] == [1, 2, 3, 4]
    first = revs[0]
    assert format_vertex(first.best, 9) == "E6"
    assert first.points_lost >= review.BLUNDER
    rep = review.report(revs)
    assert rep[BLACK].worst[0].number == 1
    assert rep[BLACK].blunders >= 1
    assert rep[BLACK].moves == 2 and rep[WHITE].moves == 2
    assert review.next_mistake(revs, 0, review.MISTAKE, 1) == 1
    assert review.next_mistake(revs, 4, review.BLUNDER, -1) == 1
    assert review.next_mistake(revs, 1, review.BLUNDER, 1) is None
    text = review.report_text(revs, 9)
    assert "move 1 J1" in text and f"blunder = {review.BLUNDER:g}+" in text
    # the win rate fell with the blunder: Black was winning before it and losing after
    assert first.winrate_before > 0.5 > first.winrate_after
    assert first.score_before > first.score_after


def test_points_lost_is_the_fall_of_the_movers_margin_from_the_best_moves_position(blunder) -> None:
    # the MCTS's reading (the module docstring): the mover's margin after the engine's best move
    # less its margin after the move played, both read from the line's analysed positions here
    game, revs, cache = blunder
    keys = review.line_keys(game)
    falls = []
    for r in revs:
        before, after = cache[keys[r.number - 1]], cache[keys[r.number]]
        if r.move == before.best:
            continue
        after_best = cache[review.child_key(keys[r.number - 1], r.color, before.best)]
        fall = after_best.score - after.score  # Black's scores
        falls.append(fall if r.color == BLACK else -fall)
        assert r.points_lost == round(max(0.0, falls[-1]), 1), r.number  # to one decimal, as shown
    assert max(falls) >= review.BLUNDER  # J1: a fall the review reports as it is


def test_a_moves_points_lost_from_made_up_searches() -> None:
    a, b, c = (parse_vertex(m, 9) for m in ("E6", "A5", "J5"))

    def pos(
        score: float, to_move: int, root: bool = False, **margins: tuple[float, int]
    ) -> review.PositionEval:
        moves = {parse_vertex(k, 9): m for k, m in margins.items()}
        return review.PositionEval(0.5, score, a, [a], to_move, moves, 100, root)

    # White plays A5 where the engine's best is E6: Black's +2 after it, -5 after E6: 7 lost
    white = review.move_review(2, WHITE, b, pos(-4, WHITE), pos(2, BLACK), pos(-5, BLACK))
    assert white.points_lost == pytest.approx(7.0)
    # Black's J5 better than the best move by the searches after them: no points lost, not minus 3
    assert review.move_review(1, BLACK, c, pos(1, BLACK), pos(4, WHITE), pos(1, WHITE)).points_lost == 0.0
    # the net: the fall of the mover's root lead, Black's -3 to -1: White lost 2
    net = review.move_review(2, WHITE, b, pos(-3, WHITE, True), pos(-1, BLACK, True))
    assert net.points_lost == pytest.approx(2.0)
    # no search after the best move: the move's own margin in the search before, with visits enough
    before = pos(0, BLACK, E6=(6.0, 300), A5=(2.5, review.MIN_VISITS))
    assert review.move_review(1, BLACK, b, before, pos(9, WHITE)).points_lost == pytest.approx(3.5)
    few = pos(0, BLACK, E6=(6.0, 300), A5=(2.5, review.MIN_VISITS - 1))  # else the search after it
    assert review.move_review(1, BLACK, b, few, pos(1, WHITE)).points_lost == pytest.approx(5.0)


def test_the_engines_own_best_move_loses_about_nothing_under_another_seed() -> None:
    game = line("E6", "A5", "J5")  # 1. E6 captures: the engine's choice above
    revs = review.analyse_line(game, BUDGET, seed=11, engine="mcts")
    assert revs[0].move == parse_vertex("E6", 9)
    assert revs[0].points_lost < review.MISTAKE
    # and the search after it agrees with the search before it (within a mistake's points)
    assert abs(revs[0].score_after - revs[0].score_before) < review.MISTAKE


def test_results_are_kept_per_line_and_shared_by_a_common_start(blunder) -> None:
    game, revs, cache = blunder
    keys = review.line_keys(game)
    assert len(keys) == 5 and all(k in cache for k in keys)  # before move 1 .. after move 4
    # and the position after the engine's best move wherever the move played was another
    assert len(cache) == 5 + sum(1 for r in revs if r.move != r.best)
    # the same line, navigated back: the record and the redo list make one line
    back = game.copy()
    back.goto(2)
    assert [r.number for r in review.reviews(back, cache)] == [1, 2, 3, 4]
    other = line("E6", "A5")  # a variation at move 1, the engine's move: analysed with move 1
    assert [e is not None for e in Review().positions(other)] == [False, False, False]
    rev = Review()
    rev.cache = cache
    assert [e is not None for e in rev.positions(other)] == [True, True, False]
    assert [(r.number, r.points_lost) for r in rev.reviews(other)] == [(1, 0.0)]


def test_a_cancelled_pass_stops_and_keeps_what_it_has() -> None:
    cancel = threading.Event()
    seen = []

    def progress(done: int, total: int) -> None:
        seen.append(done)
        if done == 2:
            cancel.set()

    cache: dict = {}
    revs = review.analyse_line(line("J1", "E6", "A5", "J5"), Budget(playouts=300), cancel=cancel,
                               progress=progress, cache=cache, engine="mcts")  # fmt: skip
    keys = review.line_keys(line("J1", "E6", "A5", "J5"))
    assert keys[0] in cache and keys[1] in cache and keys[2] not in cache and len(revs) == 1
    assert max(seen) == 2


def test_the_controller_jumps_along_the_line_and_an_ai_does_not_play_over_it(blunder) -> None:
    game, _, cache = blunder
    c = Controller(game.copy(), "human", "random:seed=1")
    try:
        c.review.cache = cache
        assert c.goto_move(1) and c.game.move_number == 1 and len(c.game.redo_stack) == 3
        c.poll()
        time.sleep(0.2)
        c.poll()
        assert c.game.move_number == 1 and not c.thinking  # White (the AI) is to move: it waits
        assert c.next_mistake(1) is False and "No mistake" in c.message  # the blunder is move 1 itself
        assert c.goto_move(4) and c.next_mistake(1) is False  # none after the last move ...
        assert "Shift+n goes the other way" in c.message  # ... but one before it
        assert c.next_mistake(-1) and c.game.move_number == 1
        assert c.message.startswith("Move 1 (B J1) lost") and "E6 was better" in c.message
        assert not c.goto_move(5) and c.game.move_number == 1  # past the end of the line: nothing
    finally:
        c.close()
    fresh = Controller(game.copy(), "human", "human")  # nothing analysed: g first
    try:
        assert fresh.next_mistake(1) is False and fresh.message.endswith("(g analyses the game first)")
    finally:
        fresh.close()


def _sgf_with_variations(path) -> int:
    """A game written by sgfmill: the blunder line as the main line, a variation at move 1 with
    a comment and markup, a comment on move 2; returns the number of nodes."""
    game = line("J1", "E6", "A5", "J5")
    sg = sgf.Sgf_game.from_string(save_sgf(game))
    root = sg.get_root()
    var = sg.get_main_sequence()[0].new_child(1)
    var.set_move("b", (5, 4))  # E6
    var.set("C", "the capture")
    var.set("TR", {(4, 4)})
    var.new_child().set_move("w", (0, 0))
    sg.get_main_sequence()[2].set("C", "White connects")
    path.write_bytes(sg.serialise())
    return sum(1 for _ in _walk(root))


def _walk(node):
    yield node
    for child in node:
        yield from _walk(child)


def test_gorilla_analyze_writes_every_node_back_annotated(tmp_path, capsys) -> None:
    src = tmp_path / "game.sgf"
    n_nodes = _sgf_with_variations(src)
    out = tmp_path / "out.sgf"
    png = tmp_path / "graph.png"
    argv = [
        str(src),
        "-o",
        str(out),
        "--engine",
        "mcts",
        "--playouts",
        "1500",
        "--seed",
        "3",
        "--png",
        str(png),
    ]
    rc = analyze_main(argv)
    assert rc == 0
    printed = capsys.readouterr()
    assert "Black:" in printed.out and "White:" in printed.out and "positions" in printed.err
    # stdout is the report and where the files went, not the SGF (the SGF goes to -o)
    lines = printed.out.strip().splitlines()
    assert lines[0].startswith("Gorilla game report")
    assert "(;" not in printed.out and "Points lost" not in printed.out
    k = next(i for i, ln in enumerate(lines) if ln.startswith("Analysis:"))  # the game report's table first
    assert [ln.split(":")[0].split(" (")[0] for ln in lines[k + 1 : k + 3]] == ["Black", "White"]
    assert lines[-1] == f"Wrote {out} and {png}" and len(lines) == k + 4
    sg = sgf.Sgf_game.from_bytes(out.read_bytes())
    root = sg.get_root()
    assert sum(1 for _ in _walk(root)) == n_nodes
    main = [n for n in sg.get_main_sequence() if n.get_move()[0] is not None]
    assert [n.get_move() for n in main] == [("b", (0, 8)), ("w", (5, 4)), ("b", (4, 0)), ("w", (4, 8))]
    assert all("Points lost" in n.get("C") for n in main)
    assert main[0].get_raw("BM") == b"2"  # the blunder
    assert main[1].get("C").startswith("White connects")  # the old comment stays first
    var = root[1]
    assert var.get("C") == "the capture" and var.get("TR") == {(4, 4)} and not var.has_property("BM")
    assert len(var) == 1 and var[0].get_move() == ("w", (0, 0))
    assert "blunder" in root.get("C")
    image = read_png(png.read_bytes())
    assert image.shape[:2] == (420, 900)
    assert len({tuple(px) for px in image.reshape(-1, image.shape[-1])}) > 3  # lines drawn


def test_gorilla_analyze_keeps_a_latin1_comment(tmp_path, capsys) -> None:
    src = tmp_path / "latin1.sgf"
    src.write_bytes("(;CA[ISO-8859-1]SZ[9]KM[7]C[café];B[ee]C[déjà];W[cc])".encode("latin-1"))
    out = tmp_path / "out.sgf"
    assert analyze_main([str(src), "-o", str(out), "--playouts", "100"]) == 0
    sg = sgf.Sgf_game.from_bytes(out.read_bytes())
    assert sg.get_charset() == "UTF-8"
    assert sg.get_root().get("C").startswith("café\n\nGorilla game report")
    assert sg.get_main_sequence()[1].get("C").startswith("déjà\n\nGorilla:")


@pytest.mark.parametrize(
    "content, why",
    [
        (b"", "empty"),
        (b"(;GM[4]SZ[15];B[hh];W[hh])", "illegal SGF move"),  # a Gomoku record, its move illegal
        (b"(;GM[7]SZ[8];B[dd])", "not a Go game"),
        (b"(;SZ[9];B[ee];W[ee])", "illegal move"),
    ],
)
def test_gorilla_analyze_refuses_a_bad_file_in_one_line(tmp_path, capsys, content, why) -> None:
    src = tmp_path / "bad.sgf"
    src.write_bytes(content)
    assert analyze_main([str(src), "-o", str(tmp_path / "o.sgf")]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and why in err
    assert not (tmp_path / "o.sgf").exists()


def test_gorilla_analyze_missing_file_and_bad_flags(tmp_path, capsys) -> None:
    assert gorilla_main(["analyze", str(tmp_path / "none.sgf")]) == 1  # through the gorilla command
    assert "cannot read" in capsys.readouterr().err
    src = tmp_path / "g.sgf"
    src.write_text("(;SZ[9];B[ee])")
    assert analyze_main([str(src), "--playouts", "0"]) == 2
    assert analyze_main([str(src), "--time", "1", "--playouts", "5"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and all(e.startswith("gorilla analyze:") for e in err)


def test_the_net_finds_a_19x19_blunder_as_the_biggest_mistake() -> None:
    # four corner moves, then Black wastes a move on A1 (about one move's worth: 14 points)
    game = Game.new(19, komi=7.5)
    for m in ("Q16", "D4", "Q4", "D16", "A1", "C10"):
        game.play(parse_vertex(m, 19))
    assert review.engine_for(game) == "net"
    revs = review.analyse_line(game, Budget(playouts=24), seed=1)
    worst = max(revs, key=lambda r: r.points_lost)
    assert worst.number == 5 and worst.points_lost >= 10, [(r.number, r.points_lost) for r in revs]
    assert all(r.points_lost < 3 for r in revs if r.number != 5)
    assert worst.winrate_before - worst.winrate_after > 0.2  # Black's win rate falls with it


def test_the_nets_review_searches_each_position_once_and_reads_the_fall_of_the_root_lead() -> None:
    game = Game.new(19, komi=7.5)
    for m in ("Q16", "D4", "Q4", "D16", "A1", "C10"):
        game.play(parse_vertex(m, 19))
    cache: dict = {}
    revs = review.analyse_line(game, Budget(playouts=16), seed=2, cache=cache)
    keys = review.line_keys(game)
    assert set(cache) == set(keys)  # no second search of the position after the net's best move
    assert all(cache[k].root for k in keys)
    for r in revs:
        before, after = cache[keys[r.number - 1]], cache[keys[r.number]]
        sign = 1 if r.color == BLACK else -1
        fall = 0.0 if r.move == before.best else max(0.0, sign * (before.score - after.score))
        assert r.points_lost == round(fall, 1)  # to one decimal, as shown
    assert max(revs, key=lambda r: r.points_lost).number == 5  # A1 still the worst


MATCH = Path(__file__).parent / "data" / "match_mcts_9x9.sgf"  # a `gorilla match` game to two passes


def _match_end(re_text: str = "B+17.5") -> Game:
    text = MATCH.read_text().replace("RE[B+17.5]", f"RE[{re_text}]")
    return tree_from_sgf(text).line_game()


def test_the_end_of_a_finished_record_is_valued_by_its_result() -> None:
    end = _match_end("B+20.5")  # the record's count differs from the board's
    assert end.over and end.score().margin == 17.5
    final = review.evaluate_position(end, None, Budget(), None, "B+20.5")
    assert final.final and final.score == 20.5 and final.winrate == 1.0
    assert review.evaluate_position(end, None, Budget(), None, "W+R").score == 17.5  # no points: the count
    assert review.evaluate_position(end, None, Budget(), None).score == 17.5
    assert [review.result_margin(r) for r in ("W+3", "0", "B+R", "?")] == [-3.0, 0.0, None, None]


def test_the_move_that_ends_the_game_loses_only_what_its_own_search_says() -> None:
    # Black passes a second time: the net before it reads White's stones as dead (Black +64.8,
    # the pass nearly as good), while the count of the board after it counts them alive (+20.5)
    best = parse_vertex("E5", 9)
    before = review.PositionEval(
        0.99, 64.8, best, [best], BLACK, {best: (64.8, 200), PASS: (64.0, 50)}, 256, root=True
    )
    after = review.PositionEval(1.0, 20.5, PASS, [], WHITE, final=True)
    r = review.move_review(95, BLACK, PASS, before, after)
    assert r.points_lost == pytest.approx(0.8) and r.score_after == 20.5  # not 44.3
    before.margins[PASS] = (10.0, review.MIN_VISITS - 1)  # a pass the search hardly looked at
    assert review.move_review(95, BLACK, PASS, before, after).points_lost == 0.0
    # a move before the end is judged as before: the fall of the root lead
    inner = review.PositionEval(0.9, 60.0, best, [best], WHITE, {}, 256, root=True)
    lost = review.move_review(94, BLACK, parse_vertex("A1", 9), before, inner).points_lost
    assert lost == pytest.approx(4.8)


def test_a_loss_of_2_96_is_shown_counted_and_found_as_the_3_0_mistake_it_reads() -> None:
    best, played = parse_vertex("E5", 9), parse_vertex("A1", 9)
    before = review.PositionEval(0.6, 10.0, best, [best], BLACK, {}, 256, root=True)
    after = review.PositionEval(0.5, 7.04, best, [best], WHITE, {}, 256, root=True)
    r = review.move_review(1, BLACK, played, before, after)
    assert r.points_lost == 3.0  # one rounding for the text and the thresholds
    assert "Points lost 3.0 (mistake)" in r.comment(9)
    assert review.report([r])[BLACK].mistakes == 1
    assert review.next_mistake([r], 0, review.MISTAKE, 1) == 1
    assert "worst 1 (-3.0)" in review.report_summary([r])


def test_one_mistake_is_one_mistake() -> None:
    best, played = parse_vertex("E5", 9), parse_vertex("A1", 9)
    before = review.PositionEval(0.6, 10.0, best, [best], BLACK, {}, 256, root=True)
    after = review.PositionEval(0.5, 6.0, best, [best], WHITE, {}, 256, root=True)
    revs = [review.move_review(1, BLACK, played, before, after)]
    assert "Black: 4.0 lost a move, 1 mistake, 0 blunders;" in review.report_summary(revs)
    assert "Black: 1 move, average 4.00 points lost, 1 mistake, 0 blunders;" in review.report_text(revs, 9)


def test_the_nets_visits_a_position_grow_as_the_board_shrinks_up_to_three_times() -> None:
    # a position costs the net about its board's area: 19x19's 256 visits take about as long
    # as 547 on 13x13; 9x9 and smaller stop at three times (768)
    assert [review.net_visits(n) for n in (19, 17, 13, 9, 7)] == [256, 320, 547, 768, 768]
    assert review.net_visits(25) == review.NET_VISITS  # never fewer than on 19x19
    assert review.default_budget("net", 9).playouts == 768
    assert review.default_budget("mcts", 9).playouts == review.DEFAULT_PLAYOUTS
