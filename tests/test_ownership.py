"""Ownership and dead stones from playouts (gorilla.ai.ownership), on drawn positions and against GNU Go.

The drawn positions are finished 9x9 boards (walls down the middle, each side
owning a large area), with a lone dead stone in each area, three dead stones
on the first line, a two-eyed (pass-alive) group beside a dead stone, and a
seki. The GNU Go tests compare the dead-stone lists of Gorilla's GTP engine
(``final_status_list dead``, which calls ``dead_stones``) and its
``final_score`` with GNU Go 3.8's on those positions and on games that GNU
Go finished itself from seeded random openings (``gorilla.match.selfplay``).
"""

from __future__ import annotations

import threading
from dataclasses import replace

import numpy as np
import pytest
from helpers import game_from_diagram, v

from gorilla.ai.ownership import (
    DEAD_THRESHOLD,
    dead_stones,
    ownership,
    pass_alive,
    status_lists,
    string_estimates,
)
from gorilla.ai.random_agent import RandomAgent
from gorilla.gtp.main import make_engine
from gorilla.gtp.protocol import GtpEngine
from gorilla.match.gtp_client import GtpClient
from gorilla.rules.board import BLACK, WHITE
from gorilla.rules.coords import format_vertex, parse_vertex
from gorilla.rules.game import Game
from gorilla.rules.position import Position
from gorilla.rules.rulesets import CHINESE
from gorilla.rules.scoring import result_string

SIMPLE_KO = replace(CHINESE, superko=False)  # GNU Go's rules: area scoring, simple ko

# Black owns the left (A-D), White the right (F-J); White's B5 and Black's G3 are dead.
LONE = """
. . . X O . . . .
. . . X O . . . .
. . . X O . . . .
. . . X O . . . .
. O . X O . . . .
. . . X O . . . .
. . . X O . X . .
. . . X O . . . .
. . . X O . . . .
"""

# Three white stones on the first line of Black's area.
THREE = """
. . . . X O . . .
. . . . X O . . .
. . . . X O . . .
. . . . X O . . .
. . . . X O . . .
. . . . X O . . .
. . . . X O . . .
. . . . X O . . .
O O O . X O . . .
"""

# Black's corner group F1-J3 has two real eyes (G2, J2) inside White's area;
# Black's H7 in the same area is dead.
EYES = """
. . X O . . . . .
. . X O . . . . .
. . X O . . . X .
. . X O . . . . .
. . X O . . . . .
. . X O O O O O O
. . X O O X X X X
. . X O . X . X .
. . X O . X X X X
"""

# A seki at the top: Black C9-C7-D7 and White E9-E7 share the liberties D9 and D8,
# and whoever fills one is captured. White's wall owns the lower left, Black's the right.
SEKI = """
. O X . O X . . .
. O X . O X . . .
. O X X O X . . .
. O O O X X . . .
. . . O X . . . .
. . . O X . . . .
. . . O X . . . .
. . . O X . . . .
. . . O X . . . .
"""

# White's corner group B9-B6-A6 and Black's lone A8 share White's only liberties, A9 and A7.
# White is dead: Black gives two stones at A9 or A7 (a self-atari), and White's capture leaves
# a two-point eye that a stone thrown in kills. Playouts that never give two stones keep it alive.
NAKADE = """
. O X . X O . . .
X O X . X O . . .
. O X . X O . . .
O O X . X O . . .
X X X . X O . . .
. . . . X O . . .
. . . . X O . . .
. . . . X O . . .
. . . . X O . . .
"""

PLAYOUTS = 200


def names(points) -> set[str]:
    return {format_vertex(p, 9) for p in points}


def game_of(diagram: str, komi: float = 7.5) -> Game:
    """The drawn position under GNU Go's rules, ended by two passes."""
    game = game_from_diagram(diagram, rules=SIMPLE_KO, komi=komi)
    game.pass_move()
    game.pass_move()
    return game


def engine_of(game: Game) -> GtpEngine:
    return make_engine(game, RandomAgent(seed=1), with_analysis=False)


def gtp(engine: GtpEngine, line: str) -> str:
    resp = engine.execute(line)
    assert resp is not None and resp.startswith("="), f"{line!r} -> {resp!r}"
    return resp[1:].strip()


# --- drawn positions -----------------------------------------------------------------------------
def test_lone_dead_stones_inside_territory() -> None:
    game = game_of(LONE)
    assert names(dead_stones(game, playouts=PLAYOUTS)) == {"B5", "G3"}
    score = game.score(dead_stones(game, playouts=PLAYOUTS))
    # Black: 9 wall stones + 27 points of A-C (B5 included); White: 9 + 36 (G3 included) + komi
    assert (score.black, score.white) == (36, 45 + 7.5)


def test_ownership_map_orientation_sign_and_range() -> None:
    own = ownership(game_of(EYES), playouts=PLAYOUTS, seed=5)
    assert own.shape == (9, 9) and own.dtype == np.float64
    assert np.all(own >= -1) and np.all(own <= 1)
    # row 0 is the top row (y = 9), column 0 is A; Black is negative, White positive
    assert np.all(own[:, 2] < 0) and np.all(own[:, 3] > 0)  # the walls: column C Black's, D White's
    assert np.all(own[6:9, 5:9] == -1)  # the pass-alive corner F1-J3 and its eyes: always Black's
    assert own[0, 8] > 0.3 and own[0, 5] > 0.3  # J9 and F9: White's area
    assert own[2, 7] > 0  # H7: a black stone on a point White ends up owning
    assert own[4, 0] < -0.3  # A5: Black's area


def test_dead_group_of_three_on_the_first_line() -> None:
    game = game_of(THREE)
    est = {format_vertex(s.stones[0], 9): s for s in string_estimates(game, playouts=PLAYOUTS)}
    assert names(est["A1"].stones) == {"A1", "B1", "C1"}
    assert est["A1"].dead and est["A1"].opponent_share > DEAD_THRESHOLD
    assert names(dead_stones(game, playouts=PLAYOUTS)) == {"A1", "B1", "C1"}


def test_two_eyed_group_lives_beside_a_dead_stone() -> None:
    game = game_of(EYES)
    corner = names(game.position.group(v("F1")))
    assert len(corner) == 10
    dead = names(dead_stones(game, playouts=PLAYOUTS))
    assert dead == {"H7"}
    safe = pass_alive(game.position.b, 11, BLACK)
    assert names(np.flatnonzero(safe)) == corner  # the two eyes make it pass-alive, nothing else is
    assert not np.any(pass_alive(game.position.b, 11, WHITE))


def test_pass_alive_needs_two_real_eyes() -> None:
    pos = Position.from_diagram(EYES)
    one_eye = pos.played(v("J2"), BLACK)  # fill the J2 eye: one eye left
    assert not np.any(pass_alive(one_eye.b, 11, BLACK))
    two = pass_alive(pos.b, 11, BLACK)
    assert two[v("F1")] and not two[v("H7")] and not two[v("D9")]


def test_seki_stays_alive_on_both_sides() -> None:
    game = game_of(SEKI)
    assert dead_stones(game, playouts=PLAYOUTS) == []
    lists = status_lists(game)
    assert names(lists["seki"]) == {"C9", "C8", "C7", "D7", "E9", "E8", "E7"}
    assert lists["dead"] == []
    # the seki points D9 and D8 count for nobody: Black 14 stones and 32 points, White 14 and 19
    score = game.score(lists["dead"])
    assert (score.black, score.white) == (14 + 32, 14 + 19 + 7.5)


def test_a_group_killed_by_a_two_stone_sacrifice_is_dead() -> None:
    game = game_of(NAKADE)
    est = {format_vertex(s.stones[0], 9): s for s in string_estimates(game, playouts=PLAYOUTS)}
    corner = est[format_vertex(game.position.group(v("B9"))[0], 9)]
    assert names(corner.stones) == {"B9", "B8", "B7", "B6", "A6"}
    assert corner.dead, corner
    assert names(dead_stones(game, playouts=PLAYOUTS)) == {"B9", "B8", "B7", "B6", "A6"}


def test_side_to_move_does_not_bias_the_estimate() -> None:
    """Half the playouts start with each colour, whoever has the move in the position."""
    black = Position.from_diagram(LONE, to_move=BLACK)
    white = Position.from_diagram(LONE, to_move=WHITE)
    a = ownership(black, playouts=64, seed=11)
    b = ownership(white, playouts=64, seed=11)
    assert np.array_equal(a, b)
    c = ownership(black, playouts=64, seed=12)
    assert not np.array_equal(a, c)  # the seed matters


def test_cancel_and_bad_arguments() -> None:
    cancel = threading.Event()
    cancel.set()
    game = game_of(LONE)
    assert not np.any(ownership(game, playouts=100, cancel=cancel))
    assert dead_stones(game, playouts=100, cancel=cancel) == []
    with pytest.raises(ValueError, match="playouts"):
        ownership(game, playouts=0)
    with pytest.raises(ValueError, match="policy"):
        ownership(game, playouts=10, policy="psychic")
    with pytest.raises(TypeError, match="Game or a Position"):
        ownership("board", playouts=10)  # type: ignore[arg-type]


def test_gtp_final_status_and_score_use_the_estimate() -> None:
    game = game_of(LONE)
    e = engine_of(game)
    assert set(gtp(e, "final_status_list dead").split()) == {"B5", "G3"}
    alive = set(gtp(e, "final_status_list alive").split())
    assert "B5" not in alive and "D5" in alive and "E5" in alive
    assert gtp(e, "final_status_list seki") == ""
    assert gtp(e, "final_score") == result_string(36 - 52.5)
    s = engine_of(game_of(SEKI))
    assert set(gtp(s, "final_status_list seki").split()) == {"C9", "C8", "C7", "D7", "E9", "E8", "E7"}
    assert gtp(s, "final_status_list dead") == ""


# --- against GNU Go ------------------------------------------------------------------------------
@pytest.mark.gnugo
@pytest.mark.parametrize(
    "diagram", [LONE, THREE, EYES, SEKI, NAKADE], ids=["lone", "three", "eyes", "seki", "nakade"]
)
def test_drawn_positions_match_gnugo(gnugo: GtpClient, diagram: str) -> None:
    game = game_of(diagram)
    gnugo.send("boardsize 9")
    gnugo.send("clear_board")
    gnugo.send("komi 7.5")
    for color, name in ((BLACK, "black"), (WHITE, "white")):
        for p in game.position.stones(color):
            gnugo.send(f"play {name} {format_vertex(p, 9)}")
    e = engine_of(game)
    for status in ("dead", "seki"):
        ref = set(gnugo.send(f"final_status_list {status}").split())
        assert set(gtp(e, f"final_status_list {status}").split()) == ref, status
    assert gtp(e, "final_score") == gnugo.send("final_score")


@pytest.mark.gnugo
def test_games_finished_by_gnugo_match_its_dead_stones_and_score(gnugo: GtpClient) -> None:
    """Seeded games that GNU Go played to two passes (random moves mixed into the first 30).

    Playouts cannot read: where a string's fate depends on who moves first, or
    on a fight the random playouts get wrong, the estimate sits near the
    threshold and GNU Go (which reads) can legitimately differ. Only positions
    with a clear status are compared: every string that is not pass-alive is
    owned by the opponent in at most 30% or at least 70% of the playouts. At
    least half the games must be clear; on those the dead lists (through
    Gorilla's GTP ``final_status_list dead``) and ``final_score`` must be
    GNU Go's.
    """
    from gorilla.match.selfplay import finished_game

    compared = []
    for seed in range(6):
        fg = finished_game(gnugo, 9, seed)
        if not fg.finished:
            continue
        est = string_estimates(fg.game, playouts=PLAYOUTS)
        if any(0.3 < s.opponent_share < 0.7 for s in est if not s.pass_alive):
            continue
        e = make_engine(fg.game, RandomAgent(seed=1), with_analysis=False)
        ours = sorted(parse_vertex(t, 9) for t in gtp(e, "final_status_list dead").split())
        assert names(ours) == names(fg.engine_dead), f"seed {seed}\n{fg.game.position}"
        assert gtp(e, "final_score") == fg.engine_score, f"seed {seed}"
        compared.append((seed, len(ours)))
    assert len(compared) >= 3, compared
    assert sum(n for _, n in compared) >= 3  # the compared games do have dead stones
