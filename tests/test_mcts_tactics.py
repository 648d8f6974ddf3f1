"""Ladder reading used by the MCTS priors (gorilla.ai.tactics)."""

from __future__ import annotations

from helpers import with_points

from gorilla.ai.tactics import atari_works, ladder_dead, nakade_sacrifice
from gorilla.rules import board as K
from gorilla.rules.board import BLACK, WHITE
from gorilla.rules.coords import parse_vertex
from gorilla.rules.position import Position

# White D4 is in atari (liberty D5); Black E5 stops the first extension from gaining a third liberty.
LADDER = """
    .........
    .........
    .........
    .........
    ....X....
    ..XOX....
    ...X.....
    .........
    .........
    """


def _dead(diagram: str, stone: str) -> bool:
    pos = Position.from_diagram(diagram, to_move=WHITE)
    b, st = pos.b.copy(), pos.st.copy()
    dead = bool(ladder_dead(b, st, K.ZOBRIST, parse_vertex(stone, pos.size), 0))
    assert (b == pos.b).all() and (st == pos.st).all()  # reads on copies, never changes the board
    return dead


def test_a_ladder_without_a_breaker_works() -> None:
    assert _dead(LADDER, "D4")


def test_a_friendly_stone_on_the_path_breaks_the_ladder() -> None:
    assert not _dead(with_points(LADDER, C6="O"), "D4")


def test_a_capturable_attacker_is_an_escape() -> None:
    # White C5 and B4 put Black's C4 in atari: White captures it instead of running
    assert not _dead(with_points(LADDER, C5="O", B4="O"), "D4")


def test_the_ladder_runs_to_the_edge_on_19x19() -> None:
    big = ["." * 19 for _ in range(19)]
    pos9 = [r.strip() for r in LADDER.strip().splitlines()]
    for i, r in enumerate(pos9):  # the same shape in the middle of a 19x19 board
        big[5 + i] = "." * 5 + r + "." * 5
    diagram = "\n".join(big)
    assert _dead(diagram, "J9")
    assert not _dead(with_points(diagram, C16="O"), "J9")  # a breaker far away on the diagonal
    assert _dead(with_points(diagram, Q3="O"), "J9")  # a white stone off the path changes nothing


def test_atari_that_catches_a_ladder_counts_the_stones() -> None:
    # Black to play E4 (from the ladder shape without it): it ataris D4 and the ladder works
    pos = Position.from_diagram(with_points(LADDER, E4="."), to_move=BLACK)
    caught = atari_works(pos.b.copy(), pos.st.copy(), K.ZOBRIST, parse_vertex("E4", 9), BLACK)
    assert caught == 1
    broken = Position.from_diagram(with_points(LADDER, E4=".", C6="O"), to_move=BLACK)
    assert atari_works(broken.b.copy(), broken.st.copy(), K.ZOBRIST, parse_vertex("E4", 9), BLACK) == 0


# White's corner group and Black's lone A8 share the liberties A9 and A7 (see test_ownership's NAKADE)
CORNER = """
    .OX.XO...
    XOX.XO...
    .OX.XO...
    OOX.XO...
    XXX.XO...
    ....XO...
    ....XO...
    ....XO...
    ....XO...
    """


def test_a_two_stone_sacrifice_inside_the_eye_space_is_a_nakade() -> None:
    pos = Position.from_diagram(CORNER, to_move=BLACK)
    for move in ("A9", "A7"):  # two stones in atari, the pair and its liberty enclosed by White
        assert nakade_sacrifice(pos.b, pos.st, parse_vertex(move, 9), BLACK), move
    # D9 touches no lone stone of Black's; H5 joins nothing
    for move in ("D9", "H5"):
        assert not nakade_sacrifice(pos.b, pos.st, parse_vertex(move, 9), BLACK), move
    # with a black stone beside the liberty (A6 Black instead of White) the space is not enclosed
    open_space = Position.from_diagram(with_points(CORNER, A6="X"), to_move=BLACK)
    assert not nakade_sacrifice(open_space.b, open_space.st, parse_vertex("A9", 9), BLACK)
    # White's own two-stone self-atari there is no sacrifice of White's: A8 is Black
    assert not nakade_sacrifice(pos.b, pos.st, parse_vertex("A9", 9), WHITE)
