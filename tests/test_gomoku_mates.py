"""benchmarks/gomoku_mates.py: the judge's values read as win lengths, Gorilla's search proving a
win it has and not one it lacks, and the tally by length."""

from __future__ import annotations

from helpers import load_benchmark

from gorilla.gomoku import rules as R
from gorilla.gomoku.search import search
from gorilla.gomoku.vcf import new_state

mates = load_benchmark("gomoku_mates")


def test_a_judges_value_is_a_win_length_only_for_a_win():
    assert mates.mate_plies("+M21") == 21
    assert mates.mate_plies("+M1") == 1
    assert mates.mate_plies("-M8") is None
    assert mates.mate_plies("35") is None
    assert mates.mate_plies(None) is None


def test_the_search_proves_an_open_three_and_not_a_quiet_opening():
    S = new_state(16)
    # Black's open three on row 7 (5,7)-(7,7) with both ends free: an open four next, a win
    three = [(1, 5, 7), (2, 5, 9), (1, 6, 7), (2, 6, 9), (1, 7, 7), (2, 12, 12)]
    proved, source, _ = mates.prove(three, R.BLACK, 0.5, S)
    assert proved, source
    # the same stones with White to move: White blocks, nothing is proved for White
    proved, _, _ = mates.prove(three, R.WHITE, 0.3, S)
    assert not proved
    quiet = [(1, 7, 7), (2, 8, 8), (1, 6, 8)]
    proved, _, _ = mates.prove(quiet, R.WHITE, 0.3, S)
    assert not proved


def test_the_tally_counts_wins_by_length_and_claims_the_judge_lacks():
    records = [
        {"judge": "+M5", "proved": True},
        {"judge": "+M9", "proved": False},
        {"judge": "+M17", "proved": True},
        {"judge": "+M25", "proved": False},
        {"judge": "+M31", "proved": False},
        {"judge": "120", "proved": True},
        {"judge": "-M12", "proved": False},
        {"judge": None, "proved": False},
    ]
    t = mates.tally(records)
    assert t["buckets"] == {(0, 11): (2, 1), (12, 19): (1, 1), (20, 999): (2, 0)}
    assert t["unseen"] == 1


class SearchJudge:
    """Gorilla's own search standing in for the judge (Rapfi is not built in the tests)."""

    def __init__(self) -> None:
        self.S = new_state(16)

    def ask(self, pos):
        moves, c = pos
        bd = mates.board_of(moves)
        p = search(bd, self.S, c, 0.2, threats=True).move
        return R.xy(bd, p), None


def test_a_claimed_win_played_out_is_won_and_a_lost_position_is_lost():
    S = new_state(16)
    three = [(1, 5, 7), (2, 5, 9), (1, 6, 7), (2, 6, 9), (1, 7, 7), (2, 12, 12)]
    assert mates.play_out(three, R.BLACK, SearchJudge(), 0.3, S) == "won"
    # Black's open four (4,7)-(7,7): White blocks one end, the judge plays the other
    four = [(1, 4, 7), (2, 4, 9), (1, 5, 7), (2, 12, 9), (1, 6, 7), (2, 12, 12), (1, 7, 7)]
    assert mates.play_out(four, R.WHITE, SearchJudge(), 0.3, S) == "lost"
    # a quiet opening is not decided in 2 plies
    assert mates.play_out([(1, 7, 7), (2, 8, 8)], R.BLACK, SearchJudge(), 0.1, S, max_plies=2) is None
