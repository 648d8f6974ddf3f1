"""Priors of new MCTS nodes (gorilla.ai.mcts.priors.move_prior) on drawn positions.

A prior is a number of virtual visits and virtual wins; its winrate (wins over
visits) is how good the move looks before any playout: 0.5 is neutral, more is
promising, less is suspect. Each ranked case lists moves from the best prior
winrate to the worst, strictly; the cases run in the eight orientations of the
board, each also with the colours swapped, and every legal move's prior must
be exactly the same in all sixteen.
"""

from __future__ import annotations

from typing import NamedTuple

import pytest
from helpers import position_from_diagram, variants, vertex, with_points

from gorilla.ai.mcts.priors import PRIOR, move_prior
from gorilla.ai.playout.pat3 import PAT3
from gorilla.rules import board as K
from gorilla.rules.board import BLACK, PASS, WHITE
from gorilla.rules.coords import parse_vertex
from gorilla.rules.position import Position


class Ranked(NamedTuple):
    diagram: str
    ranking: tuple[str, ...]  # strictly decreasing prior winrate
    to_move: int | None = None  # where no last move is drawn


RANKED = {
    # F3 takes two stones, C9 one; E7 is a plain move; B1 puts a lone stone in atari
    "captures, then plain moves, then a self-atari": Ranked(
        """
        . . . . . . . . .
        . X O X . . . . .
        . . X . . . . . .
        . . . . . . . . .
        . . . . . X X . .
        . . . . X O O X .
        . . . . . . X . .
        . O . . . . . . .
        . . O . . . . . .
        """,
        ("F3", "C9", "E7", "B1"),
        to_move=BLACK,
    ),
    # White's last move E5 is in atari: taking it beats the shape moves around it and a move far away
    "taking the last move": Ranked(
        """
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . X . . . .
        . . . X(O)X . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        """,
        ("E4", "D6", "C7"),
    ),
    # next to the last move a hane (a 3x3 shape) beats a plain move; one point further is less
    "shape and nearness to the last move": Ranked(
        """
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . X(O). . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        """,
        ("D5", "E4", "D6"),
    ),
    # an empty 9x9 board: the third line first, the centre neutral, the first two lines last
    "lines of an empty board": Ranked(
        "\n".join(["." * 9] * 9),
        ("C3", "E5", "B2"),
        to_move=BLACK,
    ),
    # E4 would leave C4-D4-E4 with the single liberty D3
    "a self-atari of three stones": Ranked(
        """
        . . . . . . .
        . . . . . . .
        . . O O O . .
        . O X X . O .
        . . O . O . .
        . . . . . . .
        . . . . . . .
        """,
        ("D3", "A1", "E4"),
        to_move=BLACK,
    ),
}

# White D4 is in atari (liberty D5) and dies in a ladder: Black E5 blocks the first extension
LADDER = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . X . . . .
    . . X O X . . . .
    . . . X . . . . .
    . . . . . . . . .
    . . . . . . . . .
    """


def priors(pos: Position, color: int | None = None) -> dict[str, tuple[float, float]]:
    """(virtual visits, virtual wins) of every legal move and the pass; the board stays as it was."""
    c = pos.to_move if color is None else color
    b, st = pos.b.copy(), pos.st.copy()
    out = {
        vertex(p, pos.size): move_prior(b, st, K.ZOBRIST, p, c, PAT3, PRIOR)
        for p in [*pos.legal_moves(c), PASS]
    }
    assert (b == pos.b).all() and (st == pos.st).all()
    return out


def with_stone(pos: Position, vertex_: str, color: int) -> Position:
    """A copy of pos with a stone of color set up at the vertex."""
    new = pos.copy()
    new.setup_stone(parse_vertex(vertex_, pos.size), color)
    return new


def winrate(prior: tuple[float, float]) -> float:
    visits, wins = prior
    return wins / visits


@pytest.mark.parametrize("case", RANKED.values(), ids=RANKED.keys())
def test_ranked_moves_and_the_same_priors_in_every_orientation_and_colour(case: Ranked) -> None:
    base = priors(position_from_diagram(case.diagram, case.to_move))
    rates = [winrate(base[x]) for x in case.ranking]
    assert rates == sorted(rates, reverse=True) and len(set(rates)) == len(rates), rates
    for label, pos, where in variants(case.diagram, case.to_move):
        assert priors(pos) == {where(x): prior for x, prior in base.items()}, label


def test_a_self_atari_of_three_stones_is_the_single_worst_move() -> None:
    case = RANKED["a self-atari of three stones"]
    rates = {x: winrate(p) for x, p in priors(position_from_diagram(case.diagram, BLACK)).items()}
    assert rates.pop("pass") == pytest.approx(0.1)  # nobody passed: passing mid-game looks poor too
    worst = min(rates.values())
    assert [x for x, r in rates.items() if r == worst] == ["E4"]
    assert worst < 0.5  # virtual losses


def test_an_escape_into_a_working_ladder_looks_worse_than_one_the_ladder_breaker_saves() -> None:
    for label, pos, where in variants(LADDER, WHITE):
        broken = with_stone(pos, where("C6"), pos.to_move)  # the escaping side's stone on the path
        dead = winrate(priors(pos)[where("D5")])
        saved = winrate(priors(broken)[where("D5")])
        assert dead < saved, (label, dead, saved)
        assert dead <= 0.5 < saved, (label, dead, saved)


def test_an_atari_that_catches_in_a_ladder_looks_better_than_one_that_does_not() -> None:
    start = with_points(LADDER, E4=".")
    for label, pos, where in variants(start, BLACK):
        broken = with_stone(pos, where("C6"), 3 - pos.to_move)  # a stone of the side that would run
        works = winrate(priors(pos)[where("E4")])
        fails = winrate(priors(broken)[where("E4")])
        assert works > fails, (label, works, fails)


def test_passing_looks_even_after_the_opponent_passed_and_poor_otherwise() -> None:
    pos = Position(9)
    assert winrate(priors(pos)["pass"]) == pytest.approx(0.1)  # a fresh board: nobody passed
    pos.play(parse_vertex("E5", 9))
    assert winrate(priors(pos)["pass"]) == pytest.approx(0.1)
    pos.play(PASS)
    assert winrate(priors(pos)["pass"]) == 0.5
