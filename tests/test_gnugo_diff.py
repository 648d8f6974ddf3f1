"""Differential test against the real GNU Go 3.8 over GTP.

Seeded random games (reasonable moves plus attempts that are often illegal:
occupied points, ko retakes, suicides into the opponent's eyes) are played on
``python -m gorilla gtp`` and on GNU Go at the same time. After every attempt
both must agree on legality; after every move the boards (``list_stones``)
and the legal moves of the side to move (``all_legal``) must be equal; at the
end the area scores, the captures and (when no stones are dead) ``final_score``
must agree, and Gorilla's ``printsgf`` must load in GNU Go to the same position.
``benchmarks/gnugo_referee.py`` runs the same referee over hundreds of games.
"""

from __future__ import annotations

import sys

import pytest

from gorilla.match.gtp_client import GtpClient
from gorilla.match.referee import Referee, area_score, gnugo_command, gorilla_command

pytestmark = pytest.mark.gnugo


@pytest.fixture(scope="module")
def referee(gnugo_path: str):
    ours = GtpClient(gorilla_command(sys.executable))
    gnugo = GtpClient(gnugo_command(gnugo_path))
    try:
        yield Referee(ours, gnugo)
    finally:
        ours.close()
        gnugo.close()


@pytest.mark.parametrize(("size", "seed"), [(9, s) for s in range(10)] + [(19, s) for s in range(3)])
def test_random_game_matches_gnugo(referee: Referee, size: int, seed: int) -> None:
    report, game = referee.play_game(size, 1000 * size + seed)
    assert report.differences == []
    assert game.over, "the random game should end with two passes"
    assert report.moves > size * size // 2
    assert report.refused > 0, "the game should include refused (illegal) attempts"
    if seed % 3 == 0:
        referee.sgf_round_trip(game, report)
        assert report.differences == []


def test_referee_notices_a_rules_difference(gnugo_path: str) -> None:
    """Gorilla with suicide allowed (Tromp-Taylor) must be caught by the same referee."""
    ours = GtpClient([sys.executable, "-m", "gorilla", "gtp", "--rules", "tromp-taylor", "--ko", "simple"])
    gnugo = GtpClient(gnugo_command(gnugo_path))
    try:
        ref = Referee(ours, gnugo)
        found = []
        for seed in range(20):
            report, _ = ref.play_game(9, seed)
            found += report.differences
            if found:
                break
        assert found and ("all_legal" in found[0] or "play" in found[0])
    finally:
        ours.close()
        gnugo.close()


def test_gnugo_final_score_agrees_on_a_known_position(referee: Referee) -> None:
    referee.setup(9, 7.5)
    moves = [f"play b E{y}" for y in range(1, 10)] + [f"play w F{y}" for y in range(1, 10)]
    for cmd in moves:
        (oka, _), (okb, _) = referee.both(cmd)
        assert oka and okb
    (_, sa), (_, sb) = referee.both("final_score")
    black = {f"E{y}" for y in range(1, 10)}
    white = {f"F{y}" for y in range(1, 10)}
    expected = area_score(black, white, 9, 7.5)  # 45 - 36 - 7.5
    assert expected == 1.5
    assert sa == sb == "B+1.5"
