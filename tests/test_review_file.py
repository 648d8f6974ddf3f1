"""The review kept in the record: a hand-made record's values give the report worked out by hand,
a real review's SGF gives its figures recomputed with sgfmill and plain arithmetic, the SGF round
trip keeps every value and the report, and a value that is no number is kept as read."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from sgfmill import sgf

from gorilla.ai.agent import Budget
from gorilla.app.analyze_cli import main as analyze_main
from gorilla.app.go import report as rp
from gorilla.app.go import review, review_file
from gorilla.app.go.controller import Controller
from gorilla.rules.board import BLACK, WHITE
from gorilla.rules.coords import parse_vertex
from gorilla.rules.game import Game
from gorilla.rules.gametree import GameTree
from gorilla.rules.sgf import load_tree, read_sgf, save_tree

DATA = Path(__file__).resolve().parent.parent / "benchmarks" / "data"

# A 5x5 record whose every node holds its position's values: Black's win rate (SBKV, percent),
# Black's score lead (SBKS) and the search's first moves (GOTOP). On 5x5 the opening is moves
# 1-3 (ceil(0.14 * 25) = 4), the middle game 4-9 (ceil(0.4 * 25) = 10), the endgame 10-.
HAND = (
    "(;GM[1]FF[4]SZ[5]KM[0.5]RU[Chinese]SBKV[55]SBKS[0.5]GOTOP[C3 B2 D4]"
    ";B[cc]SBKV[55]SBKS[0.5]GOTOP[C2 D3 B3 C4 D2]"  # 1 B C3: its first choice, lost 0
    ";W[dc]SBKV[60]SBKS[1.5]GOTOP[B3 C2]"  # 2 W D3: 2nd choice, White's lead -0.5 -> -1.5: 1.0
    ";B[bd]SBKV[50]SBKS[0]GOTOP[D2]"  # 3 B B2: not among them, 1.5 -> 0: 1.5
    ";W[dd]SBKV[30]SBKS[-3]GOTOP[C2 B3]"  # 4 W D2: first choice, gains: 0
    ";B[bc]SBKV[35]SBKS[-2]GOTOP[C2]"  # 5 B B3: 2nd choice, gains: 0
    ";W[cb]SBKV[70]SBKS[5]GOTOP[C2]"  # 6 W C4: not among them, 2 -> -5: 7.0
    ";B[cd]SBKV[65]SBKS[4]GOTOP[B4]"  # 7 B C2: first choice, so 0 though the lead fell by 1
    ";W[]SBKV[65]SBKS[4]GOTOP[B4]"  # 8 W pass: left out
    ";B[db]SBKV[5]SBKS[-10]GOTOP[B4]"  # 9 B D4: not B4, 4 -> -10: 14.0
    ";W[bb]SBKV[4]SBKS[-10.5])"  # 10 W B4: first choice, gains: 0
)


def hand_report() -> rp.GameReport:
    tree = load_tree(HAND.encode())
    revs, positions = review_file.main_line_reviews(tree, review_file.read_values(tree))
    return rp.game_report(revs, positions, 5)


def test_a_hand_made_record_gives_the_figures_worked_out_by_hand():
    rep = hand_report()
    # Black: moves 1, 3, 5, 7, 9 lost 0, 1.5, 0, 0, 14 (mean 3.1); the first choice at 1 and 7,
    # among the first five at 1, 5 and 7
    b = rep.stats(BLACK)
    assert b.moves == 5 and b.mean_lost == pytest.approx(3.1)
    assert b.accuracy == pytest.approx(40.99, abs=0.01)  # 100 * 0.75 ** 3.1
    assert (b.top1, b.top5) == (pytest.approx(2 / 5), pytest.approx(3 / 5))
    assert b.classes == (3, 0, 1, 0, 0, 1)
    # White: moves 2, 4, 6, 10 (the pass left out) lost 1, 0, 7, 0 (mean 2)
    w = rep.stats(WHITE)
    assert w.moves == 4 and w.mean_lost == pytest.approx(2.0) and w.accuracy == pytest.approx(56.25)
    assert (w.top1, w.top5) == (pytest.approx(2 / 4), pytest.approx(3 / 4))
    assert w.classes == (2, 1, 0, 0, 1, 0)
    # by phase: Black's opening is moves 1 and 3, its middle game 5, 7, 9, no endgame move
    bo, bm, be = (rep.stats(BLACK, p) for p in (rp.OPENING, rp.MIDDLE, rp.ENDGAME))
    assert (bo.moves, bo.mean_lost, bo.top1, bo.classes) == (2, 0.75, 0.5, (1, 0, 1, 0, 0, 0))
    assert (bm.moves, bm.mean_lost, bm.top5) == (3, pytest.approx(14 / 3), pytest.approx(2 / 3))
    assert be == rp.Stats(0, None, None, None, None, (0, 0, 0, 0, 0, 0))
    wo, wm, we = (rep.stats(WHITE, p) for p in (rp.OPENING, rp.MIDDLE, rp.ENDGAME))
    assert (wo.moves, wo.mean_lost, wo.top1, wo.top5) == (1, 1.0, 0.0, 1.0)
    assert (wm.moves, wm.mean_lost, wm.top1, wm.classes) == (2, 3.5, 0.5, (1, 0, 0, 0, 1, 0))
    assert (we.moves, we.accuracy, we.top1) == (1, 100.0, 1.0)


# --- a real review, its SGF and the figures recomputed from it --------------------------------------
@pytest.fixture(scope="module")
def analysed():
    """The first 24 moves of a 9x9 GNU Go game analysed by the net (a small budget), its record
    annotated and saved."""
    full = read_sgf(DATA / "report-9x9-gnugo.sgf")
    game = full.at(24)
    game.redo_stack = []
    cache: dict = {}
    revs = review.analyse_line(game, Budget(playouts=24), seed=5, cache=cache, engine="net")
    tree = GameTree.from_game(game)
    review_file.annotate(tree, cache)
    return game, revs, cache, save_tree(tree)


def by_hand(text: str, size: int) -> dict[int, dict]:
    """The report's whole-game figures per player, recomputed from an SGF's values with sgfmill
    and plain arithmetic (the module docstring of gorilla.app.go.report says how)."""
    node = sgf.Sgf_game.from_string(text).get_root()
    values = []  # (colour or None, point, Black's lead, the first moves)
    while node is not None:
        colour, move = node.get_move()
        top = node.get_raw("GOTOP").decode().split() if node.has_property("GOTOP") else []
        values.append((colour, move, float(node.get_raw("SBKS")), top))
        node = node[0] if len(node) else None
    lost: dict[str, list[tuple[float, bool, bool]]] = {"b": [], "w": []}
    for k in range(1, len(values)):
        colour, move, lead, _ = values[k]
        if move is None:
            continue  # a pass
        before, top = values[k - 1][2], values[k - 1][3]
        row, col = move
        vertex = "ABCDEFGHJKLMNOPQRST"[col] + str(row + 1)
        fall = before - lead if colour == "b" else lead - before
        loss = 0.0 if top and top[0] == vertex else round(max(0.0, fall), 1)  # kept to 0.1 point
        lost[colour].append((loss, bool(top) and top[0] == vertex, vertex in top[:5]))
    out = {}
    for colour, color in (("b", BLACK), ("w", WHITE)):
        xs = lost[colour]
        mean = sum(x for x, _, _ in xs) / len(xs)
        bounds = [0.5, 1.5, 3.0, 6.0, 12.0]
        classes = [0] * 6
        for x, _, _ in xs:
            classes[sum(1 for b in bounds if x >= b)] += 1
        out[color] = {
            "moves": len(xs),
            "mean": mean,
            "accuracy": 100 * 0.75**mean,
            "top1": sum(t for _, t, _ in xs) / len(xs),
            "top5": sum(t for _, _, t in xs) / len(xs),
            "classes": tuple(classes),
        }
    return out


def test_the_reports_figures_are_recomputed_by_hand_from_the_saved_values(analysed):
    game, revs, cache, text = analysed
    tree = load_tree(text.encode())
    rep = rp.game_report(*review_file.main_line_reviews(tree, review_file.read_values(tree)), 9)
    assert tree.root.comment == rp.report_table(rep)  # the record's report is its values'
    hand = by_hand(text, 9)
    for color in (BLACK, WHITE):
        s, h = rep.stats(color), hand[color]
        assert s.moves == h["moves"] == 12
        assert s.mean_lost == pytest.approx(h["mean"], abs=1e-9)
        assert s.accuracy == pytest.approx(h["accuracy"], abs=1e-9)
        assert (s.top1, s.top5) == (pytest.approx(h["top1"]), pytest.approx(h["top5"]))
        assert s.classes == h["classes"]
    # and the window's report before the save: the same moves, within the values' rounding
    before = rp.game_report(revs, [cache.get(k) for k in review.line_keys(game)], 9)
    for color in (BLACK, WHITE):
        a, b = before.stats(color), rep.stats(color)
        assert (a.moves, a.top1, a.top5) == (b.moves, b.top1, b.top5)
        assert a.mean_lost == pytest.approx(b.mean_lost, abs=0.1)


def test_the_sgf_round_trip_keeps_every_value_and_the_report(analysed):
    game, revs, cache, text = analysed
    tree = load_tree(text.encode())
    back = review_file.read_values(tree)
    keys = review.line_keys(game)
    assert set(back) == set(keys)  # every position of the line, none else
    for k in keys:
        a, b = cache[k], back[k]
        assert b.winrate == pytest.approx(a.winrate, abs=5e-5) and b.score == pytest.approx(a.score, abs=5e-3)
        assert b.top == a.top[:5] and b.best == a.best and b.pv == a.pv[: review_file.PV_KEPT]
    revs2, positions2 = review_file.main_line_reviews(tree, back)
    assert [(r.number, r.move) for r in revs2] == [(r.number, r.move) for r in revs]
    # a loss is kept to 0.1 point, the values to 0.01: read back, a loss may round to the next tenth
    assert all(abs(r2.points_lost - r.points_lost) < 0.1 + 1e-9 for r, r2 in zip(revs, revs2, strict=True))
    # the root comment holds the report; saving what was read gives the same text, one report
    assert tree.root.comment.startswith(rp.REPORT_HEAD)
    review_file.annotate(tree, back)
    again = save_tree(tree)
    assert again == text and again.count(rp.REPORT_HEAD) == 1


def test_values_that_are_no_numbers_are_left_as_read():
    text = "(;SZ[9]SBKV[abc]SBKS[1];B[ee]SBKV[40]SBKS[nan];W[cc]SBKV[48.5]SBKS[-1.25]GOTOP[D4 pass])"
    tree = load_tree(text.encode())
    values = review_file.read_values(tree)
    assert len(values) == 1
    (ev,) = values.values()
    assert (ev.winrate, ev.score, ev.top, ev.best) == (
        0.485,
        -1.25,
        [parse_vertex("D4", 9), -1],
        parse_vertex("D4", 9),
    )
    assert tree.root.extra["SBKV"] == [b"abc"]  # kept as read
    assert "SBKV[abc]" in save_tree(tree)


# --- the controller: loading shows the review, g analyses what has no values, saving keeps them ----
def _until_reviewed(c: Controller, timeout: float = 300.0) -> None:
    end = time.monotonic() + timeout
    while c.review.running and time.monotonic() < end:
        time.sleep(0.05)
    assert not c.review.running, "the analysis did not finish"
    c.poll()


def test_loading_a_record_with_values_shows_the_review_without_analysing(tmp_path):
    path = tmp_path / "kept.sgf"
    path.write_text(HAND)
    tree = load_tree(HAND.encode())
    for c in (Controller(Game.new(9)), Controller(tree.line_game(), tree=tree)):
        if c.game.size == 9:
            c.load(str(path))  # Ctrl+O; the second is the launcher's --load
        assert c.review.task is None and not c.review.running  # nothing searched
        assert c.review.show_dots  # the dots, the graph's values, n and the report at once
        assert [r.number for r in c.review.reviews(c.game)] == list(range(1, 11))
        assert all(e is not None for e in c.review.positions(c.game))
        rep = c.game_report()
        assert rep.stats(BLACK).mean_lost == pytest.approx(3.1) and rep.stats(WHITE).classes == (
            2,
            1,
            0,
            0,
            1,
            0,
        )
        assert c.game.move_number == 10
        assert c.next_mistake(-1) and c.game.move_number == 9  # 14 points lost
        assert c.next_mistake(-1) and c.game.move_number == 6  # 7 points
        assert not c.next_mistake(-1)
        c.close()


def test_g_then_analyses_only_the_positions_without_values(tmp_path):
    game = read_sgf(DATA / "report-9x9-gnugo.sgf").at(8)
    game.redo_stack = []
    cache: dict = {}
    review.analyse_line(game, Budget(playouts=150), seed=2, cache=cache, engine="mcts")
    longer = read_sgf(DATA / "report-9x9-gnugo.sgf").at(12)
    longer.redo_stack = []
    tree = GameTree.from_game(longer)
    assert review_file.write_values(tree, cache) == 9  # the start and the first 8 moves
    path = tmp_path / "half.sgf"
    path.write_text(save_tree(tree))
    c = Controller(Game.new(9))
    c.load(str(path))
    c.review.engine, c.review.playouts = "mcts", 150
    kept = {k: c.review.cache[k] for k in review.line_keys(c.game)[:9]}
    assert [r.number for r in c.review.reviews(c.game)] == list(range(1, 9))
    c.toggle_analysis()
    _until_reviewed(c)
    assert all(c.review.cache[k] is ev for k, ev in kept.items())  # read, not searched again
    assert [r.number for r in c.review.reviews(c.game)] == list(range(1, 13))
    c.close()


def _analysed_nodes(text: str) -> tuple[int, int, str]:
    """(nodes with SBKV and SBKS, nodes, the root comment) of an SGF, read with sgfmill."""
    game = sgf.Sgf_game.from_string(text)
    root, nodes = game.get_root(), game.get_main_sequence()
    both = sum(1 for n in nodes if n.has_property("SBKV") and n.has_property("SBKS"))
    return both, len(nodes), root.get("C") if root.has_property("C") else ""


def test_ctrl_s_after_g_and_the_autosave_write_the_values_and_the_report(tmp_path):
    auto = tmp_path / "autosave.sgf"
    c = Controller(Game.new(9), autosave=str(auto))
    for m in ("E5", "C3", "G7", "C7", "G3", "E3"):
        assert c.click(parse_vertex(m, 9))
    c.review.engine, c.review.playouts = "mcts", 150
    c.toggle_analysis()
    _until_reviewed(c)  # the pass done: the autosave gets the review
    assert c.flush_autosave()
    out = tmp_path / "saved.sgf"
    c.save(str(out))
    for text in (auto.read_text(), out.read_text()):
        both, nodes, comment = _analysed_nodes(text)
        assert both == nodes == 7  # the start and the six moves
        assert comment.startswith(rp.REPORT_HEAD) and comment.count(rp.REPORT_HEAD) == 1
        assert "GOTOP[" in text and "GOPV[" in text
    assert c.tree.root.comment == ""  # the record on the board is not changed by saving
    c.close()


def test_gorilla_analyze_writes_the_values_and_one_report(tmp_path, capsys):
    src = tmp_path / "game.sgf"
    game = read_sgf(DATA / "report-9x9-gnugo.sgf").at(6)
    game.redo_stack = []
    src.write_text(save_tree(GameTree.from_game(game)))
    out, again = tmp_path / "out.sgf", tmp_path / "again.sgf"
    args = ["--engine", "mcts", "--playouts", "120", "--seed", "1"]
    assert analyze_main([str(src), "-o", str(out), *args]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith(rp.REPORT_HEAD) and "Analysis: mistake = 3+ points lost" in printed
    text = out.read_text()
    both, nodes, comment = _analysed_nodes(text)
    assert both == nodes == 7 and text.count("GOTOP[") == 7
    assert comment.startswith(rp.REPORT_HEAD) and "Gorilla: win rate (Black)" in text
    assert analyze_main([str(out), "-o", str(again), *args]) == 0  # the analysed record again
    _, _, comment2 = _analysed_nodes(again.read_text())
    assert comment2.count(rp.REPORT_HEAD) == 1  # replaced, not added


def test_the_pass_that_ends_the_game_loses_nothing_by_the_count():
    # the count at the end (W+40 by the area, the dead stones left on) against the search's 0 before
    text = "(;SZ[9]SBKV[50]SBKS[0]GOTOP[E5];B[ee]SBKV[50]SBKS[0]GOTOP[C3];W[]SBKV[50]SBKS[0]"
    text += ";B[]SBKV[0]SBKS[-40])"
    tree = load_tree(text.encode())
    values = review_file.read_values(tree)
    assert [ev.final for ev in values.values()] == [False, False, False, True]
    revs, _ = review_file.main_line_reviews(tree, values)
    assert [(r.number, r.points_lost) for r in revs] == [(1, 0.0), (2, 0.0), (3, 0.0)]
