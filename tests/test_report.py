"""The game report's computation: the classes and their thresholds, the phases scaled by the
board, a report's text and its place in the root comment (tests/test_review_file.py works out
a record's report by hand and recomputes a real review's from its SGF)."""

from __future__ import annotations

from gorilla.app.go import report as rp
from gorilla.rules.board import BLACK, WHITE

# The moves of tests/test_review_file.py's hand-made 5x5 record: (number, colour, points lost,
# place among the search's first moves): its figures are worked out by hand there.
FACTS = [
    rp.MoveFacts(1, BLACK, 0.0, 0), rp.MoveFacts(2, WHITE, 1.0, 1), rp.MoveFacts(3, BLACK, 1.5, None),
    rp.MoveFacts(4, WHITE, 0.0, 0), rp.MoveFacts(5, BLACK, 0.0, 1), rp.MoveFacts(6, WHITE, 7.0, None),
    rp.MoveFacts(7, BLACK, 0.0, 0), rp.MoveFacts(9, BLACK, 14.0, None), rp.MoveFacts(10, WHITE, 0.0, 0),
]  # fmt: skip


def test_the_classes_follow_the_thresholds():
    assert rp.THRESHOLDS == (0.5, 1.5, 3.0, 6.0, 12.0)
    cases = [(0.0, 0), (0.49, 0), (0.5, 1), (1.49, 1), (1.5, 2), (2.99, 2), (3.0, 3), (5.9, 3), (6.0, 4)]
    cases += [(11.99, 4), (12.0, 5), (80.0, 5)]
    assert [rp.move_class(x) for x, _ in cases] == [c for _, c in cases]
    assert rp.move_class(2.0, (1.0, 4.0)) == 1 and rp.move_class(4.0, (1.0, 4.0)) == 2
    assert rp.class_labels() == ["< 0.5", "0.5-1.5", "1.5-3", "3-6", "6-12", "12+"]
    assert len(rp.CLASS_NAMES) == len(rp.CLASS_COLORS) == len(rp.THRESHOLDS) + 1


def test_the_phases_scale_with_the_board_as_katrains():
    assert rp.phases(19) == [("opening", 1, 50), ("middle game", 51, 144), ("endgame", 145, None)]
    assert rp.phases(13) == [("opening", 1, 23), ("middle game", 24, 67), ("endgame", 68, None)]
    assert rp.phases(9) == [("opening", 1, 11), ("middle game", 12, 32), ("endgame", 33, None)]
    assert [rp.phase_of(n, 19) for n in (1, 50, 51, 144, 145, 300)] == [
        "opening", "opening", "middle game", "middle game", "endgame", "endgame",
    ]  # fmt: skip


def test_the_report_as_text_names_the_formula_the_phases_and_each_players_rows():
    text = rp.report_table(rp.GameReport(5, FACTS), {BLACK: "Ann", WHITE: "Bob"})
    lines = text.splitlines()
    assert lines[0].startswith(rp.REPORT_HEAD) and "0.75^mean points lost" in lines[0]
    assert lines[1] == "Phases: opening 1-3, middle game 4-9, endgame 10-"
    assert lines[2] == "Black (Ann)" and "White (Bob)" in lines
    game_row = lines[4].split()
    assert game_row == ["game", "5", "41.0", "3.10", "40%", "60%", "3", "0", "1", "0", "0", "1"]
    endgame = lines[7].split()
    assert endgame[:2] == ["endgame", "0"] and endgame[2:6] == ["-"] * 4


def test_moves_whose_candidates_are_unknown_count_in_every_figure_but_the_matches():
    facts = [rp.MoveFacts(1, BLACK, 2.0, None, ranked=False), rp.MoveFacts(3, BLACK, 0.0, 0)]
    s = rp.stats_of(facts)
    assert (s.moves, s.mean_lost, s.top1, s.top5) == (2, 1.0, 1.0, 1.0)
    assert rp.stats_of(facts[:1]).top1 is None


def test_a_report_in_a_comment_replaces_the_one_it_holds():
    first = rp.with_report("A fine game.", f"{rp.REPORT_HEAD} one\nrows")
    assert first == f"A fine game.\n\n{rp.REPORT_HEAD} one\nrows"
    again = rp.with_report(first, f"{rp.REPORT_HEAD} two")
    assert again == f"A fine game.\n\n{rp.REPORT_HEAD} two"
    assert rp.with_report("", "block") == "block" and rp.with_report(f"{rp.REPORT_HEAD} x", "new") == "new"
