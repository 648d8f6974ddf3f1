"""``gorilla analyze`` on a Gomoku record: every move valued by the pvs+vct search, a move
that lets the opponent win graded a blunder, the comments written into the record (and shown
by the window at their move), the record's own comments and root properties kept; options
that do not apply to Gomoku are one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from gorilla.app.analyze_cli import main
from gorilla.app.gomoku import analysis as ga
from gorilla.app.gomoku.controller import GomokuController
from gorilla.app.gomoku.view import to_view
from gorilla.gomoku import rules as R
from gorilla.gomoku import sgf
from gorilla.gomoku.game import GomokuGame

# Black makes an open three in column 7 (moves 1, 5, 7); White's eighth move looks away, so
# Black makes an open four (move 9) and five (move 11)
MOVES = [(7, 7), (8, 8), (8, 7), (6, 7), (7, 8), (9, 6), (7, 9), (14, 14), (7, 10), (0, 0), (7, 11)]


def game() -> GomokuGame:
    g = GomokuGame(15)
    for x, y in MOVES:
        g.play_xy(x, y)
    return g


def analysed(c: GomokuController, seconds: float = 120) -> None:
    """Poll c until its analysis (g) has ended and its results are taken."""
    import time

    end = time.monotonic() + seconds
    while c.game_review.running:
        assert time.monotonic() < end, "the analysis did not end"
        c.poll()
        time.sleep(0.05)
    c.poll()


def test_each_move_is_valued_and_the_move_that_ignores_an_open_three_is_a_blunder():
    g = game()
    seen: list[tuple[int, int]] = []
    revs = ga.analyse(g, 0.2, progress=lambda d, t: seen.append((d, t)))
    assert [r.number for r in revs] == list(range(1, 12)) and seen[-1] == (12, 12)
    away = revs[7]
    assert away.color == R.WHITE and away.grade == "blunder" and away.lost > 0.2
    assert away.winrate_after == 1.0  # Black's open four comes: a proven win
    assert away.best in (g.point(7, 6), g.point(7, 10))  # a block of the three
    assert revs[-1].winrate_after == 1.0 and revs[-1].lost == 0.0  # five
    # the win rate lost is the fall of the mover's (Black's win rates before and after its move)
    for r in (r for r in revs if r.move != r.best):
        fall = r.winrate_before - r.winrate_after
        assert r.lost == pytest.approx(max(0.0, fall if r.color == R.BLACK else -fall)), r.number
    assert away.lost == pytest.approx(1.0 - away.winrate_before)  # White's whole remaining chance
    text = ga.report_text(revs, g, {R.BLACK: "Ann", R.WHITE: "Bob"}, 0.2)
    assert "White (Bob): 5 moves" in text and "8. O1 -" in text  # column 14 is O, with I counted


def test_gorilla_analyze_writes_the_comments_into_the_gomoku_record(tmp_path: Path, capsys):
    src = tmp_path / "five.sgf"
    text = sgf.dumps(game(), "Ann", "Bob", extra={"EV": ["club"]}, comments={2: "a corner?"})
    src.write_text(text, encoding="utf-8")
    out = tmp_path / "five-analyzed.sgf"
    png = tmp_path / "graph.png"
    assert main([str(src), "--time", "0.2", "--png", str(png)]) == 0
    printed = capsys.readouterr().out
    assert "Analysis by Gorilla" in printed and f"Wrote {out} and {png}" in printed
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    record = sgf.load_record(str(out))
    assert record.game.moves == game().moves and record.black == "Ann" and record.extra["EV"] == ["club"]
    assert record.comments[2].startswith("a corner?\n\nGorilla: White I7")  # the record's own first
    assert "(blunder)" in record.comments[8] and "BM[2]" in out.read_text(encoding="utf-8")
    assert "Analysis by Gorilla" in sgf.unescape(record.extra["C"][0])
    assert record.marks[8] == {"BM": ["2"]}
    again = tmp_path / "again.sgf"  # analysed again: the grades are replaced, not doubled
    assert main([str(out), "--time", "0.2", "-o", str(again)]) == 0
    assert sgf.load_record(str(again)).marks[8] == {"BM": ["2"]}
    c = GomokuController(GomokuGame(15), "human", "human")
    try:
        c.load(str(out))
        for _ in range(3):
            c.undo()
        assert any(ln.startswith("Comment: Gorilla: White O1") for ln in c.status_lines())  # move 8
    finally:
        c.close()


@pytest.mark.parametrize(
    "flags", [["--playouts", "50"], ["--engine", "net"], ["--threads", "2"], ["--time", "0"]]
)
def test_options_for_go_only_are_one_line_for_a_gomoku_record(tmp_path: Path, capsys, flags):
    src = tmp_path / "five.sgf"
    src.write_text(sgf.dumps(game()), encoding="utf-8")
    assert main([str(src), *flags]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("gorilla analyze:") and "\n" not in err
    assert not (tmp_path / "five-analyzed.sgf").exists()


def test_g_in_the_window_analyses_the_game_n_finds_the_blunder_and_the_notes_are_saved(tmp_path: Path):

    from gorilla.gomoku.agents import ready_engine

    ready_engine(["pvs+vct"])
    c = GomokuController(GomokuGame(15), "human", "human")
    try:
        c.load_game(game())
        c.game_review.seconds = 0.2
        c.toggle_analysis()
        assert c.game_review.running and "Analysing the game" in c.message
        analysed(c)
        assert c.message.startswith("Analysed 11 moves")
        assert any(ln.startswith("Gorilla: Black H4") for ln in c.status_lines())  # move 11's note
        c.go_start()
        seen = []
        while c.next_mistake(1):
            seen.append(len(c.gomoku.moves))
        assert 8 in seen and c.reviewing  # the blunder is among the mistakes n visits
        assert c.message.endswith("this move (Shift+n goes the other way)"), c.message  # as Go's n
        c.goto_move(8)
        assert any(ln.startswith("Gorilla: White O1") for ln in c.status_lines())
        c.save(str(tmp_path / "analysed.sgf"))
        record = sgf.load_record(str(tmp_path / "analysed.sgf"))
        assert "(blunder)" in record.comments[8] and record.marks[8] == {"BM": ["2"]}
        assert "Analysis by Gorilla" in sgf.unescape(record.extra["C"][0])
        c.goto_move(7)
        assert c.play(to_view(c.gomoku, c.gomoku.point(7, 6))), c.message  # White blocks instead
        assert not any(ln.startswith("Gorilla:") for ln in c.status_lines())  # another line now
        c.save(str(tmp_path / "other.sgf"))
        other = sgf.load_record(str(tmp_path / "other.sgf"))
        assert 8 not in other.comments and 7 in other.comments  # the shared moves keep theirs
        c.toggle_analysis()
        c.toggle_analysis()
        assert c.message == "Cancelled the analysis" and not c.game_review.running
    finally:
        c.close()


def test_alt_n_sets_the_win_rate_lost_that_n_finds_and_d_shows_the_analysed_stones_dots():

    from gorilla.gomoku.agents import ready_engine

    ready_engine(["pvs+vct"])
    c = GomokuController(GomokuGame(15), "human", "human")
    try:
        c.load_game(game())
        assert c.analysis_dots() == [] and c.analysis_best() is None  # nothing analysed
        c.game_review.seconds = 0.2
        c.toggle_analysis()
        analysed(c)
        revs = c.game_review.reviews
        dots = dict(c.analysis_dots())  # on once the analysis ran: every stone of the 11 moves
        assert sorted(dots) == sorted(to_view(c.gomoku, r.move) for r in revs)
        assert dots[to_view(c.gomoku, c.gomoku.point(14, 14))] > ga.BLUNDER  # move 8 looked away
        last = revs[-1]  # the last move shown: the better move of the position before it
        assert c.analysis_best() == (None if last.best == last.move else to_view(c.gomoku, last.best))

        def visits() -> list[int]:
            c.go_start()
            seen = []
            while c.next_mistake(1):
                seen.append(len(c.gomoku.moves))
            return seen

        by_grade = {
            t: [r.number for r in revs if r.lost >= t] for t in (ga.INACCURACY, ga.MISTAKE, ga.BLUNDER)
        }
        assert visits() == by_grade[ga.MISTAKE]  # 10% at first
        c.cycle_mistake_threshold()
        assert (
            c.message == "Mistakes: 20+% win rate lost" and visits() == by_grade[ga.BLUNDER] and 8 in visits()
        )
        assert [n for n, _ in c.analysis_graph().mistakes] == by_grade[ga.BLUNDER]  # the graph marks them
        c.cycle_mistake_threshold()
        assert c.message == "Mistakes: 5+% win rate lost" and visits() == by_grade[ga.INACCURACY]
        c.cycle_mistake_threshold()
        assert c.game_review.threshold == ga.MISTAKE and c.analysis_graph().threshold == 100 * ga.MISTAKE
        c.goto_move(8)  # White's blunder shown: the dots of the 8 stones, and ringed the move
        # White should have played there (the best of the position before it), as KaTrain marks it
        assert revs[7].best != revs[7].move
        assert len(c.analysis_dots()) == 8 and c.analysis_best() == to_view(c.gomoku, revs[7].best)
        c.goto_move(7)
        assert len(c.analysis_dots()) == 7
        r7 = revs[6]
        assert c.analysis_best() == (None if r7.best == r7.move else to_view(c.gomoku, r7.best))
        version = c.version
        c.toggle_mistake_dots()
        assert c.analysis_dots() == [] and c.analysis_best() is None and c.version > version
        c.toggle_mistake_dots()
        assert len(c.analysis_dots()) == 7
        c.play(to_view(c.gomoku, c.gomoku.point(7, 6)))  # another line: its move has no dot ...
        assert len(c.analysis_dots()) == 7  # ... but the position before it was analysed
        other = c.gomoku.point(7, 6)
        assert c.analysis_best() == (None if revs[7].best == other else to_view(c.gomoku, revs[7].best))
        c.play(to_view(c.gomoku, c.gomoku.empty_points()[0]))  # two off the line: nothing to mark
        assert c.analysis_best() is None
    finally:
        c.close()


def test_a_swap2_openings_stones_are_valued_but_not_graded():
    g = GomokuGame(15, opening="swap2")
    for x, y in MOVES[:3]:
        g.swap2_put(g.point(x, y))
    g.swap2_choose(take_black=False)  # the chooser keeps White: the opening is 3 stones
    for x, y in MOVES[3:]:
        g.play_xy(x, y)
    assert ga.opening_stones(g) == 3 and ga.opening_stones(game()) == 0
    revs = ga.analyse(g, 0.2)
    assert [r.opening for r in revs] == [True] * 3 + [False] * 8
    assert all(r.lost == 0.0 and r.grade == "" for r in revs[:3])
    assert 0.0 <= revs[0].winrate_before <= 1.0 and revs[2].best >= 0  # valued all the same
    assert "An opening stone (not graded)" in revs[1].comment(g)
    assert revs[7].grade == "blunder"  # the game's own moves are graded as before
    text = ga.report_text(revs, g, {R.BLACK: "Ann", R.WHITE: "Bob"}, 0.2)
    assert "opening's 3 stones are valued, not graded" in text
    assert "Black (Ann): 4 moves" in text and "White (Bob): 4 moves" in text  # 11 moves less 3


def test_a_given_openings_stones_are_kept_in_the_record_and_not_graded(tmp_path: Path):
    g = game()
    g.given = 3  # a match's seeded opening (gorilla.match.gomoku_games.opening_game)
    text = sgf.dumps(g, "a", "b")
    assert "OPENING[3]" in text and "OPENING" not in sgf.dumps(game(), "a", "b")
    back = sgf.loads(text)
    assert back.given == 3 and ga.opening_stones(back) == 3
    revs = ga.analyse(back, 0.2)
    assert [r.opening for r in revs] == [True] * 3 + [False] * 8 and revs[7].grade == "blunder"
    report = ga.report_text(revs, back, {}, 0.2)
    assert "The given opening's 3 stones are valued, not graded" in report
    # taking back into the opening shrinks it; a new stone there is the players' own
    back.undo()
    assert back.given == 3
    for _ in range(9):
        back.undo()
    assert back.given == 1 and "OPENING[1]" in sgf.dumps(back)
    back.play_xy(0, 14)
    assert ga.opening_stones(back) == 1
    # a value that does not fit the record is one line and no game
    for bad in ("12", "-1", "x"):
        with pytest.raises(ValueError, match=r"^bad SGF opening OPENING\[.*\] for 11 stones$"):
            sgf.loads(text.replace("OPENING[3]", f"OPENING[{bad}]"))


def test_the_report_counts_in_words_singular_for_one():
    """'1 mistake', not '1 mistakes' (issue 64): one White mistake and two Black blunders."""
    g = GomokuGame(15, "freestyle")
    for x, y in ((7, 7), (8, 8), (7, 6)):
        g.play_xy(x, y)
    p = g.moves[0][0]

    def rev(n: int, color: int, lost: float) -> ga.MoveReview:
        black_before = 0.5
        black_after = black_before - lost if color == R.BLACK else black_before + lost
        return ga.MoveReview(n, color, p, black_before, black_after, p, lost=lost)

    reviews = [rev(1, R.BLACK, 0.5), rev(2, R.WHITE, 0.12), rev(3, R.BLACK, 0.6)]
    assert [r.grade for r in reviews] == ["blunder", "mistake", "blunder"]
    text = ga.report_text(reviews, g, {}, 1.0)
    assert "White: 1 move, 12.0% lost a move on average, 1 mistake, 0 blunders" in text
    assert "Black: 2 moves, 55.0% lost a move on average, 0 mistakes, 2 blunders" in text


def test_n_before_any_analysis_says_g_first_as_in_go() -> None:
    c = GomokuController(GomokuGame(15), "human", "human")
    try:
        c.load_game(game())
        assert c.next_mistake(1) is False and c.message.endswith("(g analyses the game first)")
        assert len(c.gomoku.moves) == 11  # nothing moved
    finally:
        c.close()
