"""The Gomoku controller without a window: moves, the AI's answer, undo, the threat map, the
evaluation, files, and the launcher's --game gomoku flags."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from gorilla.app.gomoku.controller import GomokuController
from gorilla.app.gomoku.players import parse_player
from gorilla.app.gomoku.view import from_view, to_view
from gorilla.app.newgame import FormError, NewGameForm
from gorilla.app.record_info import shown_name
from gorilla.gomoku import rules as R
from gorilla.gomoku.game import GomokuGame
from gorilla.launcher.cli import UsageError, main, parse_args


def q(c: GomokuController, x: int, y: int) -> int:
    return to_view(c.gomoku, c.gomoku.point(x, y))


def test_view_points_round_trip_and_grid_matches_the_board():
    g = GomokuGame(9)
    g.play_xy(2, 3)
    from gorilla.app.gomoku.view import GomokuView

    v = GomokuView(g)
    p = g.point(2, 3)
    assert from_view(g, to_view(g, p)) == p
    assert v.position.grid()[3, 2] == R.BLACK and v.position.grid().sum() == R.BLACK
    assert v.position.color_at(to_view(g, p)) == R.BLACK
    assert from_view(g, 0) is None and v.check(0) == "off the board"
    assert v.check(to_view(g, p)) == "occupied"


def test_human_move_ai_answer_undo_and_redo():
    c = GomokuController(GomokuGame(15), "human", "threat1:0.1")
    assert c.play(q(c, 7, 7))
    assert c.wait(30)
    assert len(c.gomoku.moves) == 2 and c.gomoku.to_move == R.BLACK
    assert not c.play(q(c, 7, 7)) and "occupied" in c.message
    assert c.undo()  # back to the human's turn: the AI's move and the human's
    assert c.gomoku.moves == [] and c.redo()
    assert len(c.gomoku.moves) == 2
    assert not c.pass_turn() and "no passing" in c.message


def test_threat_map_and_evaluation_see_the_open_three():
    c = GomokuController(GomokuGame(15), "human", "human")
    for x, y in ((6, 7), (0, 0), (7, 7), (0, 2), (8, 7), (0, 4)):
        assert c.play(q(c, x, y))
    tm = c.control_map()
    assert tm[7, 5] < -0.4 and tm[7, 9] < -0.4  # Black makes an open four at either end
    assert tm[7, 5] < tm[3, 3] <= 0  # far from the stones: nothing
    c.evaluate()
    assert c.wait(30)
    ev = c.evaluation.evaluation
    assert ev.best in (q(c, 5, 7), q(c, 9, 7))  # the open four
    assert all(v.winrate <= ev.values[ev.best].winrate for v in ev.values.values())


def test_the_one_ply_values_do_not_call_a_blockable_three_a_certain_win():
    from gorilla.app.gomoku.values import _one_ply_values

    g = GomokuGame(15)
    for x, y in ((7, 7), (7, 8), (8, 7), (9, 9)):
        g.play_xy(x, y)
    ev = _one_ply_values(g)  # Black to move: 6,7 or 9,7 makes an open three, which White blocks
    three = to_view(g, g.point(6, 7))
    ranked = sorted(ev.values, key=lambda q: -ev.values[q].score)
    assert three in ranked[:2] and 0.8 < ev.values[three].winrate < 0.99  # was 99.99995%
    assert not any(v.winrate > 0.99 for v in ev.values.values())


def test_save_and_load_keep_the_game_and_bad_files_change_nothing(tmp_path: Path):
    c = GomokuController(GomokuGame(15, R.RENJU), "human", "human")
    for x, y in ((7, 7), (8, 8), (6, 6)):
        c.play(q(c, x, y))
    path = tmp_path / "g.sgf"
    c.save(str(path))
    d = GomokuController(GomokuGame(15), "human", "human")
    d.load(str(path))
    assert d.gomoku.diagram() == c.gomoku.diagram() and d.gomoku.rule == R.RENJU
    bad = tmp_path / "bad.sgf"
    bad.write_text("(;GM[1]SZ[9];B[aa])", encoding="utf-8")
    d.load(str(bad))
    assert "GM[4]" in d.message and d.gomoku.diagram() == c.gomoku.diagram()


def test_a_record_keeps_the_clock_and_how_the_game_ended(tmp_path: Path):
    from test_controller_clock import FakeTime

    from gorilla.app.clock import parse_clock
    from gorilla.gomoku import sgf

    c = GomokuController(GomokuGame(15), "human", "human", clock=parse_clock("5m"))
    now = c.clocks.now = FakeTime()
    for x, y, think in ((7, 7, 4), (8, 8, 10), (6, 6, 7)):
        now.t += think
        assert c.play(q(c, x, y)), c.message
    now.t += 2
    path = tmp_path / "g.sgf"
    c.save(str(path))
    text = path.read_text(encoding="utf-8")
    # the first move starts the clocks (as Go's do): Black's first stone is free
    assert "TM[300]" in text and ";B[hh]BL[300.0]" in text and ";W[ii]WL[290.0]" in text
    assert ";B[gg]BL[293.0]" in text and "RE[" not in text  # the game goes on
    d = GomokuController(GomokuGame(15), "human", "human")
    d.clocks.now = now
    d.load(str(path))
    assert d.time_control.spec() == "5m" and d.new_game_choices()["clock"] == "5m"
    views = d.clock_views()
    assert views[R.BLACK].seconds == 293 and views[R.WHITE].seconds == 290
    assert d.clocks.clock.running == R.WHITE and not d.over  # White to move: its clock runs
    now.t += 300  # White's flag falls: the saved record says so and loads as a game lost on time
    d.poll()
    assert d.over and d.game.result == "B+T"
    d.save(str(path))
    assert "RE[B+T]" in path.read_text(encoding="utf-8")
    e = GomokuController(GomokuGame(15), "human", "human")
    e.load(str(path))
    assert e.over and e.game.result == "B+T" and "(B+T)" in e.message
    assert e.play(q(e, 0, 0)) is False and len(e.gomoku.moves) == 3  # over: no more moves
    assert e.undo() is False  # lost on time: no taking back
    # a resignation is kept too, and a record without TM leaves the form's clock
    f = GomokuController(GomokuGame(15), "human", "human")
    assert f.play(q(f, 7, 7)) and f.resign()  # White, to move, resigns
    f.save(str(path))
    g = GomokuController(GomokuGame(15), "human", "human", clock=parse_clock("1m"))
    g.load(str(path))
    assert g.over and g.game.result == "B+R" and g.time_control.spec() == "1m"
    record = sgf.loads_record(path.read_text(encoding="utf-8"))
    assert record.timing is None and record.loser == (R.WHITE, "R")


def test_players_and_launcher_flags():
    assert parse_player("pvs+vct:2") == ("pvs+vct", 2.0)
    assert parse_player("human") == ("human", 0.0)
    for bad in ("gnugo", "pvs:x", "pvs:0"):
        with pytest.raises(ValueError):
            parse_player(bad)
    o = parse_args(["--game", "gomoku", "--rule", "renju", "--size", "20", "--black", "pvs"])
    assert (o.game, o.rule, o.size, o.black) == ("gomoku", "renju", 20, "pvs")
    for bad in (
        ["--game", "gomoku", "--rule", "go"],
        ["--game", "gomoku", "--size", "30"],
        ["--game", "gomoku", "-no_gui"],
        ["--game", "gomoku", "--komi", "6.5"],
        ["--rule", "renju"],
        ["--swap2"],
        ["--game", "gomoku", "--swap2", "--load", "game.sgf"],
    ):
        with pytest.raises(UsageError):
            parse_args(bad)


def test_the_launcher_opens_a_gomoku_game_by_swap2():
    from gorilla.gomoku.agents import ready_engine
    from gorilla.launcher.cli import _gomoku_controller

    ready_engine(["threat1"])  # in the cache: the launcher makes the game, not the stand-in
    opts = parse_args(["--game", "gomoku", "--swap2", "--black", "threat1", "--size", "13"])
    assert opts.opening == "swap2" and parse_args(["--game", "gomoku"]).opening == "free"
    c = _gomoku_controller(opts)
    try:
        assert c.gomoku.opening == "swap2" and c.players[R.BLACK].startswith("threat1")
        assert c.wait(30) and len(c.gomoku.moves) == 3 and c.offers("pass")  # it opened; the human chooses
    finally:
        c.close()


def test_launcher_rejects_an_unknown_gomoku_player_in_one_line(capsys: pytest.CaptureFixture[str]):
    assert main(["--game", "gomoku", "--white", "gnugo"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert any("unknown Gomoku player" in ln for ln in err)


def test_launcher_rejects_a_missing_gomoku_record_before_the_window(
    tmp_path, capsys: pytest.CaptureFixture[str]
):
    assert main(["--game", "gomoku", "--load", str(tmp_path / "none.sgf")]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no such file" in err[0]


def test_a_gomoku_game_autosaves_beside_gos_and_resume_plays_on(tmp_path, capsys):
    from gorilla.app.files import default_autosave_path, gomoku_autosave_path
    from gorilla.launcher.cli import _gomoku_controller

    opts = parse_args(["--game", "gomoku", "--rule", "renju", "--clock", "5m"])
    path = gomoku_autosave_path(default_autosave_path())
    assert opts.autosave == path and path.endswith("autosave-gomoku.sgf")
    c = _gomoku_controller(opts)
    try:
        assert c.autosave == path
        for x, y in ((7, 7), (8, 8), (6, 6), (9, 9)):
            assert c.play(q(c, x, y)), c.message
        assert c.flush_autosave() and "RU[renju]" in Path(path).read_text(encoding="utf-8")
        assert c.go_back(2) and c.reviewing  # moving back through the game: the record keeps it all
        assert c.flush_autosave() and Path(path).read_text(encoding="utf-8").count(";B[") == 2
        assert c.go_end()
    finally:
        c.close()
    assert not os.path.exists(default_autosave_path())  # Go's autosave is not touched
    resume = parse_args(["--game", "gomoku", "--resume"])
    assert (resume.rule, resume.size, resume.load) == ("renju", 15, path)  # the board shown while loading
    d = _gomoku_controller(resume)
    try:
        assert d.gomoku.diagram() == c.gomoku.diagram() and d.gomoku.rule == R.RENJU
        assert d.time_control.spec() == "5m" and d.clocks.clock.running == R.BLACK
        assert d.play(q(d, 5, 5)), d.message  # and play goes on
    finally:
        d.close()
    for bad in (["--resume", "--no-autosave"], ["--resume", "--load", "x.sgf"]):
        with pytest.raises(UsageError):
            parse_args(["--game", "gomoku", *bad])
    capsys.readouterr()
    assert main(["--game", "gomoku", "--resume", "--autosave", str(tmp_path / "none.sgf")]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no such file" in err[0]
    assert parse_args(["--game", "gomoku", "--no-autosave"]).autosave is None


def test_switching_games_in_the_window_keeps_each_games_autosave(tmp_path):
    from gorilla.app.game_kinds import controller_for
    from gorilla.app.go.controller import Controller
    from gorilla.app.newgame import NewGame
    from gorilla.rules.game import Game

    go = Controller(Game.new(9), autosave=str(tmp_path / "auto.sgf"))
    ng = NewGame(size=15, rules="gomoku freestyle", komi=0, black="human", white="human")
    g = controller_for(go, ng)
    assert g.autosave == str(tmp_path / "auto-gomoku.sgf")
    back = controller_for(g, NewGame(size=9, rules="chinese", komi=7.5, black="human", white="human"))
    assert back.autosave == str(tmp_path / "auto.sgf")
    for c in (go, g, back):
        c.close()


def test_the_new_game_form_offers_gomoku_and_checks_its_players():
    f = NewGameForm()
    f.set("rules", "gomoku caro")
    f.set("size", 15)
    f.set("white", "pvs+vct")
    ng = f.result()
    assert (ng.game, ng.size, ng.white) == ("gomoku", 15, "pvs+vct")
    c = GomokuController(GomokuGame(9), "human", "human")
    assert c.new_game(ng) and c.gomoku.rule == R.CARO and c.gomoku.size == 15
    assert c.players[R.WHITE].startswith("pvs+vct")
    with pytest.raises(FormError, match="White: no choice 'montecarlo:10,3'"):
        f.set("white", "montecarlo:10,3")  # a Go AI is not offered for Gomoku
    f.set("rules", "chinese")  # Go: its own players and rows (the Gomoku AI is not offered)
    assert f["white"].value != "pvs+vct" and [x.key for x in f.fields if x.key == "opening"] == []
    with pytest.raises(FormError, match="White: no choice 'pvs'"):
        f.set("white", "pvs")
    # a remembered Gomoku player on a Go form (an old settings file) is still one line
    f["white"].choices.append(("PVS", "pvs"))
    f.set("white", "pvs")
    with pytest.raises(FormError, match="plays Gomoku"):
        f.result()


def test_renju_marks_blacks_forbidden_points_while_black_is_to_move() -> None:
    # a double three at (9, 7) (row 7 and column 9) and an overline at (5, 3); White's
    # turn, freestyle, or a point that makes five shows none
    c = GomokuController(GomokuGame(15, R.RENJU))
    g = c.gomoku
    try:
        for b, w in (((7, 7), (0, 0)), ((8, 7), (0, 2)), ((9, 8), (0, 4)), ((9, 9), (0, 6))):
            g.play(g.point(*b), R.BLACK)
            g.play(g.point(*w), R.WHITE)
        assert c.forbidden_points() == [to_view(g, g.point(9, 7))]
        for b, w in (
            ((5, 0), (14, 0)),
            ((5, 1), (14, 2)),
            ((5, 2), (14, 4)),
            ((5, 4), (14, 6)),
            ((5, 5), (14, 8)),
        ):
            g.play(g.point(*b), R.BLACK)
            g.play(g.point(*w), R.WHITE)
        marked = set(c.forbidden_points())
        assert to_view(g, g.point(5, 3)) in marked  # five stones and this one: six in a column
        empty = [p for p in range(g.bd[0].shape[0]) if g.bd[0][p] == R.EMPTY]
        assert marked == {to_view(g, p) for p in empty if R.is_forbidden(g.bd, p)}  # every one
        g.play(g.point(12, 12), R.BLACK)
        assert c.forbidden_points() == []  # White to move: nothing to mark
    finally:
        c.close()
    free = GomokuController(GomokuGame(15))
    try:
        for b, w in (((7, 7), (0, 0)), ((8, 7), (0, 2)), ((9, 8), (0, 4)), ((9, 9), (0, 6))):
            free.gomoku.play(free.gomoku.point(*b), R.BLACK)
            free.gomoku.play(free.gomoku.point(*w), R.WHITE)
        assert free.forbidden_points() == []  # freestyle has none
    finally:
        free.close()


def test_moving_through_the_game_the_ai_waits_and_space_plays_on() -> None:
    c = GomokuController(GomokuGame(15), "human", "threat1:0.1")
    try:
        assert c.go_back() is False and "At the start" in c.message  # nothing to show yet
        for x in (3, 5, 9):
            assert c.play(q(c, x, 3)), c.message
            assert c.wait(30)
        record = list(c.gomoku.moves)
        assert len(record) == 6 and not c.reviewing
        assert c.go_back(2) and c.gomoku.moves == record[:4] and c.reviewing
        assert "Reviewing move 4 of 6" in " ".join(c.status_lines())
        assert c.go_forward() and c.gomoku.moves == record[:5]  # White's (the AI's) turn...
        c.poll()
        assert c.wait(1) and not c.thinking and len(c.gomoku.moves) == 5  # ...and it waits
        assert c.go_end() and c.gomoku.moves == record and not c.reviewing
        assert c.go_forward() is False and "At the end of the game" in c.message
        assert c.go_start() and c.gomoku.moves == [] and c.reviewing
        assert c.goto_move(7) is False and "No move 7" in c.message and c.gomoku.moves == []
        assert c.goto_move(3) and c.gomoku.moves == record[:3]
        c.advance()  # space: the game goes on from move 3, the AI (White) answers
        assert not c.reviewing and "Playing on from move 3" in c.message
        assert c.wait(30) and len(c.gomoku.moves) == 4 and c.gomoku.moves[:3] == record[:3]
        assert c.go_forward() is False  # the later moves are gone
        assert c.go_back(2) and c.play(q(c, 12, 12))  # a human's move from an earlier position
        assert not c.reviewing and c.gomoku.moves[-1] == (c.gomoku.point(12, 12), R.BLACK)
        assert c.wait(30) and len(c.gomoku.moves) == 4  # the AI answers it
    finally:
        c.close()


def test_a_finished_game_is_reviewed_and_its_end_comes_back() -> None:
    c = GomokuController(GomokuGame(15))  # two humans
    try:
        for i in range(5):
            assert c.play(q(c, 3 + i, 7))
            if i < 4:
                assert c.play(q(c, 3 + i, 10))
        assert c.over and c.gomoku.result.winner == R.BLACK
        assert sorted(c.winning_line()) == sorted(q(c, 3 + i, 7) for i in range(5))  # ringed
        assert c.go_back(3) and not c.over and c.reviewing and len(c.gomoku.moves) == 6
        assert c.winning_line() == []
        assert c.go_end() and c.over and c.gomoku.result.winner == R.BLACK and not c.reviewing
    finally:
        c.close()


def test_a_records_game_is_read_from_its_root(tmp_path: Path):
    from gorilla.app.game_kinds import record_game

    cases = {
        "(;GM[4]SZ[20]RU[caro];B[aa])": ("gomoku", 20, "gomoku caro"),
        "(;GM[4];B[aa])": ("gomoku", 15, "gomoku freestyle"),
        "(;GM[4]SZ[15]RU[Renju])": ("gomoku", 15, "gomoku renju"),
        "(;GM[4]SZ[15]RU[swap-gomoku])": ("gomoku", 15, "gomoku freestyle"),  # unknown: freestyle
        "(;GM[1]FF[4]SZ[13];B[dd])": ("go", 13, None),
        "(;FF[4];B[dd])": ("go", 19, None),  # no GM: Go, as SGF says
    }
    for text, (game, size, rules) in cases.items():
        path = tmp_path / "r.sgf"
        path.write_text(text, encoding="utf-8")
        ng = record_game(str(path))
        assert (ng.game, ng.size) == (game, size), text
        assert ng.black == ng.white == "human"
        if rules is not None:
            assert ng.rules == rules and ng.load == str(path), text
    assert record_game(str(tmp_path / "missing.sgf")) is None


def test_the_launcher_opens_a_gomoku_record_without_game_gomoku(tmp_path: Path):
    path = tmp_path / "five.sgf"
    path.write_text("(;GM[4]FF[4]SZ[15]RU[renju];B[hh];W[ii])", encoding="utf-8")
    opts = parse_args(["--load", str(path)])
    assert opts.game == "gomoku" and opts.load == str(path) and (opts.rule, opts.size) == ("renju", 15)
    assert parse_args(["--load", str(path), "--game", "go"]).game == "go"  # as asked
    go = tmp_path / "go.sgf"
    go.write_text("(;GM[1]FF[4]SZ[9];B[ee])", encoding="utf-8")
    assert parse_args(["--load", str(go)]).game == "go" and parse_args([]).game == "go"


def test_e_values_the_best_candidates_by_the_search_with_their_lines():
    from gorilla.app.gomoku.values import EVAL_CANDIDATES, evaluate_moves
    from gorilla.gomoku import search as S

    g = GomokuGame(15)
    # Black to move: (6, 3) makes a four along row 3 and another down column 6, a win in
    # three moves that no one-ply value proves
    black = [(3, 3), (4, 3), (5, 3), (6, 4), (6, 5), (6, 6)]
    white = [(2, 3), (6, 7), (10, 10), (11, 10), (10, 11), (12, 12)]
    for b, w in zip(black, white, strict=True):
        g.play_xy(*b)
        g.play_xy(*w)
    one_ply = evaluate_moves(g)
    assert one_ply.pvs == {} and all(v.score < S.WIN for v in one_ply.values.values())
    ev = evaluate_moves(g, None, 1.0)
    assert ev.best == to_view(g, g.point(6, 3)) and ev.values[ev.best].score >= S.MATE
    assert ev.values[ev.best].winrate == 1.0
    assert 1 < len(ev.values) <= EVAL_CANDIDATES and set(ev.values) <= set(one_ply.values)
    assert all(ev.pvs[q][0] == q for q in ev.values)  # each candidate's line starts with it
    cancel = threading.Event()
    cancel.set()
    assert evaluate_moves(g, cancel, 1.0).pvs == {}  # cancelled: the one-ply values, at once


def test_the_evaluation_legend_speaks_each_games_unit():
    from gorilla.app.gomoku.values import MoveValue
    from gorilla.gui.overlay import eval_legend

    values = {40: MoveValue(0.62, 300.0), 41: MoveValue(0.5, 0.0)}
    gomoku = eval_legend(values, 40, 15, unit="win rate")
    assert "its win rate for the side to move (57%)" in gomoku and "points" not in gomoku
    go = eval_legend(values, 40, 15)
    assert "score lead in points" in go and "lead +300.0" in go
    assert eval_legend(values, None, 15) == ""


def test_a_loaded_records_names_and_root_properties_are_kept(tmp_path: Path):
    path = tmp_path / "cup.sgf"
    path.write_text(
        "(;GM[4]FF[4]SZ[15]RU[freestyle]PB[Rapfi \\] 2024]PW[AIWine]EV[Gomocup]DT[2024-05-01]"
        "GC[round 3]PC[Online];B[hh];W[ii])",
        encoding="utf-8",
    )
    c = GomokuController(GomokuGame(15), "human", "human")
    c.load(str(path))
    assert c.record.book.names == {R.BLACK: "Rapfi ] 2024", R.WHITE: "AIWine"}
    # the panel's rows name the record's players (the seats' specs show on hover)
    assert [shown_name(c.names(), s, c.players[s]) for s in (R.BLACK, R.WHITE)] == ["Rapfi ] 2024", "AIWine"]
    assert c.play(q(c, 6, 6)), c.message
    out = tmp_path / "saved.sgf"
    c.save(str(out))
    text = out.read_text(encoding="utf-8")
    for prop in (
        "PB[Rapfi \\] 2024]",
        "PW[AIWine]",
        "EV[Gomocup]",
        "DT[2024-05-01]",
        "GC[round 3]",
        "PC[Online]",
    ):
        assert text.count(prop) == 1, (prop, text)
    c.reset()  # a new game: the record's names go
    assert c.record.book.names == {} and shown_name(c.names(), R.BLACK, c.players[R.BLACK]) == "Human"
    own = tmp_path / "own.sgf"  # Gorilla's own labels are no names to show
    own.write_text("(;GM[4]SZ[15]PB[human]PW[pvs+vct 1s];B[hh])", encoding="utf-8")
    c.load(str(own))
    assert c.record.book.names[R.WHITE] == "pvs+vct 1s"
    assert shown_name(c.names(), R.WHITE, c.players[R.WHITE]) == "Human"  # the seat's own name


def test_gomoku_comments_are_typed_on_the_move_shown_and_saved(tmp_path: Path):
    c = GomokuController(GomokuGame(15), "human", "human")
    try:
        c.set_comment("a quiet start")  # the empty board: the game's comment
        for x, y in ((7, 7), (8, 8), (8, 7)):
            assert c.play(q(c, x, y)), c.message
        c.set_comment("  the third stone  ")
        assert c.comment == "the third stone"
        assert "Comment: the third stone" in c.status_lines()
        c.go_back(1)  # move 2 shown: no comment there yet
        assert c.comment == "" and not any(ln.startswith("Comment:") for ln in c.status_lines())
        c.set_comment("White's answer")
        c.go_end()
        assert c.comment == "the third stone"
        text = c.record_text()
        assert "C[a quiet start]" in text and ";W[ii]C[White's answer]" in text
        assert ";B[ih]C[the third stone]" in text
        out = tmp_path / "noted.sgf"
        c.save(str(out))
        back = GomokuController(GomokuGame(15), "human", "human")
        back.load(str(out))
        assert back.comment == "the third stone"
        back.go_start()
        assert back.comment == "a quiet start"
        back.close()
        # another third move leaves the record's line: its comment goes, the earlier ones stay
        c.undo()
        assert c.play(q(c, 6, 6)), c.message
        assert c.comment == ""
        c.set_comment("the new line")
        text = c.record_text()
        assert "the third stone" not in text and "C[White's answer]" in text and "C[the new line]" in text
        c.set_comment("")  # an empty comment removes it
        assert "the new line" not in c.record_text()
    finally:
        c.close()


def test_gomoku_game_info_names_the_players_and_the_event(tmp_path: Path):
    c = GomokuController(GomokuGame(15), "human", "pvs+vct:0.2")
    try:
        info = c.names()
        assert info is not None and (info.black, info.white, info.event) == ("", "", "")
        assert c.set_game_info(" Ann ", "Bob", "Club night ] 3")
        assert "Names saved" in c.message
        info = c.names()
        assert (info.black, info.white, info.event) == ("Ann", "Bob", "Club night ] 3")
        assert shown_name(c.names(), R.WHITE, c.players[R.WHITE]) == "Bob"
        assert c.play(q(c, 7, 7)), c.message
        out = tmp_path / "named.sgf"
        c.save(str(out))
        text = out.read_text(encoding="utf-8")
        assert "PB[Ann]" in text and "PW[Bob]" in text and "EV[Club night \\] 3]" in text
        c.set_game_info("", "", "")  # empty names go: the seats' labels again
        text = c.record_text()
        assert "PB[human]" in text and "EV[" not in text
        back = GomokuController(GomokuGame(15), "human", "human")
        back.load(str(out))
        assert (back.names().black, back.names().event) == ("Ann", "Club night ] 3")
        back.close()
    finally:
        c.close()
