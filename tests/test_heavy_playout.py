"""The heavy playout policy (gorilla.ai.playout.heavy) on drawn positions.

Each case is a board whose last move is drawn in parentheses; the side to move
is the other colour. The policy is random, so a case draws its move DRAWS
times from a seeded generator and checks the shares: the moves it must choose
(a capture, an escape, a shape move next to the last move) together get at
least MUST_SHARE of the draws, and the moves it must never choose (a
self-atari of two or more stones, filling its own true eye) get none. The
tactical step's candidates are checked exactly. Every case runs in the eight
orientations of the board, each also with the colours swapped.
"""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple

import numpy as np
import pytest
from helpers import (
    CHI2_999,
    chi_square,
    position_from_diagram,
    v,
    variants,
    vertex,
    with_points,
)

from gorilla.ai.playout import heavy as H
from gorilla.ai.playout.pat3 import PAT3
from gorilla.ai.tactics import ladder_workspace
from gorilla.rules import board as K
from gorilla.rules.board import BLACK, PASS
from gorilla.rules.position import Position

DRAWS = 1000
MUST_SHARE = 0.85


class Case(NamedTuple):
    diagram: str
    must: tuple[str, ...]  # together at least MUST_SHARE of the draws
    never: tuple[str, ...]  # not once
    tactics: tuple[str, ...]  # the tactical step's candidates, exactly
    to_move: int | None = None  # where no last move is drawn


CASES = {
    # White's last move D4 stands in atari: Black takes it
    "capture the last move": Case(
        """
        . . . . . . .
        . . . . . . .
        . . . X . . .
        . . X(O)X . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        """,
        must=("D3",),
        never=(),
        tactics=("D3",),
    ),
    # White E4 puts C4-D4 in atari; D3 gives them two liberties
    "extend out of atari": Case(
        """
        . . . . . . .
        . . . . . . .
        . . O O . . .
        . O X X(O). .
        . . O . . . .
        . . . . . . .
        . . . . . . .
        """,
        must=("D3",),
        never=(),
        tactics=("D3",),
    ),
    # White E4 puts D4 in atari; D3 would leave D4-D3 in atari, but White D5 is in atari itself
    "capture an attacker to escape": Case(
        """
        . . . . . . .
        . . . . . . .
        . . X O X . .
        . . O X(O). .
        . . O . O . .
        . . . . . . .
        . . . . . . .
        """,
        must=("D6",),
        never=("D3",),
        tactics=("D6",),
    ),
    # E4 would make C4-D4-E4 one group with the single liberty D3
    "no self-atari of three stones": Case(
        """
        . . . . . . .
        . . . . . . .
        . . O O O . .
        . O X X . O .
        . . O .(O). .
        . . . . . . .
        . . . . . . .
        """,
        must=(),
        never=("E4",),
        tactics=(),
    ),
    # D4 is Black's true eye (one diagonal White: still an eye away from the edge), next to the last move
    "no filling of an own eye": Case(
        """
        . . . . . . .
        . . . . . . .
        . . X X(O). .
        . . X . X . .
        . . X X X . .
        . . . . . . .
        . . . . . . .
        """,
        must=(),
        never=("D4",),
        tactics=(),
    ),
    # White D4 attaches to Black C4: the hanes around it are shape moves
    "shape next to the last move": Case(
        """
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . X(O). . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        """,
        must=("C5", "D5", "C3", "D3"),
        never=(),
        tactics=(),
    ),
    # no last move, Black to move: only Black's own eyes are left, so it passes
    "pass when only own eyes are left": Case(
        """
        . X . X .
        X X X X X
        X X X X X
        . X X X X
        X X X X X
        """,
        must=("pass",),
        never=("A5", "C5", "E5", "A2"),
        tactics=(),
        to_move=BLACK,
    ),
}


def draw(pos: Position, n: int = DRAWS, seed: int = 1) -> Counter[str]:
    """How often the policy chooses each move (as a vertex) in n seeded draws; the board stays as it was."""
    b, st = pos.b.copy(), pos.st.copy()
    cand = np.zeros(64, dtype=np.int64)
    K.seed_rng(seed)
    counts = Counter(int(H.choose_move(b, st, pos.to_move, PAT3, cand)) for _ in range(n))
    assert (b == pos.b).all() and (st == pos.st).all()
    return Counter({vertex(p, pos.size): k for p, k in counts.items()})


def tactical_moves(pos: Position) -> set[str]:
    """The tactical step's candidates (captures and escapes around the last moves)."""
    cand = np.zeros(64, dtype=np.int64)
    n = H.tactical_moves(pos.b, pos.st, pos.to_move, pos.last_move, cand)
    return {vertex(int(p), pos.size) for p in cand[:n]}


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_the_policy_chooses_what_it_must_and_never_what_it_must_not(case: Case) -> None:
    for label, pos, where in variants(case.diagram, case.to_move):
        counts = draw(pos)
        assert tactical_moves(pos) == {where(x) for x in case.tactics}, label
        if case.must:
            share = sum(counts[where(x)] for x in case.must) / DRAWS
            assert share >= MUST_SHARE, (label, counts.most_common(6))
        for x in case.never:
            assert counts[where(x)] == 0, (label, x, counts.most_common(6))


class TwoLibCase(NamedTuple):
    diagram: str
    moves: tuple[str, ...]  # the two-liberty step's candidates, exactly; drawn together often enough


TWO_LIB_CASES = {
    # White E4 leaves C4-D4 with two liberties: C3 gives three, D3 only two (E3 is White)
    "extend a two-liberty group to three": TwoLibCase(
        """
        . . . . . . .
        . . . . . . .
        . . O O . . .
        . O X X(O). .
        . . . . O . .
        . . . . . . .
        . . . . . . .
        """,
        moves=("C3",),
    ),
    # White C4 has two liberties: Black D4 ataris it and White's escape at C3 is left with C2 alone
    # (a net); Black C3 would atari it too, but White escapes at D4 with three liberties
    "net the last move": TwoLibCase(
        """
        . . . . . . .
        . . . . . . .
        . . X . . . .
        . X(O). . . .
        . X . X . . .
        . . . . . . .
        . . . . . . .
        """,
        moves=("D4",),
    ),
    # White D5 leaves Black D4-E4 with two liberties: Black extends at D3 or E3 (three or more
    # each), or takes White F4, which touches the group and stands in atari (not next to D5)
    "capture next to a two-liberty group": TwoLibCase(
        """
        . . . . . . .
        . . . . . . .
        . . .(O)O X .
        . . O X X O .
        . . . . . X .
        . . . . . . .
        . . . . . . .
        """,
        moves=("D3", "E3", "G4"),
    ),
}


@pytest.mark.parametrize("case", TWO_LIB_CASES.values(), ids=TWO_LIB_CASES.keys())
def test_fights_of_two_liberties_are_answered(case: TwoLibCase) -> None:
    for label, pos, where in variants(case.diagram):
        assert not tactical_moves(pos), label
        cand = np.zeros(64, dtype=np.int64)
        n = H.two_lib_moves(pos.b, pos.st, pos.to_move, pos.last_move, cand)
        assert {vertex(int(p), pos.size) for p in cand[:n]} == {where(x) for x in case.moves}, label
        counts = draw(pos)
        share = sum(counts[where(x)] for x in case.moves) / DRAWS
        assert share >= MUST_SHARE * H.P_TWO_LIBS, (label, counts.most_common(6))


def test_an_atari_the_opponent_ignored_is_taken() -> None:
    # Black's E4 puts White's D4 in atari; White plays elsewhere (B2); Black takes at D5
    start = """
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . X O . . .
        . . . X . . .
        . . . . . . .
        . . . . . . .
        """
    for label, pos, where in variants(start, BLACK):
        pos.play(v(where("E4"), 7))
        pos.play(v(where("B2"), 7))
        assert tactical_moves(pos) == {where("D5")}, label
        counts = draw(pos)
        assert counts[where("D5")] >= MUST_SHARE * DRAWS, (label, counts.most_common(4))


# no stone is in atari, no point is an eye or a self-atari: every empty point is as good as any other
QUIET = """
. . . . . . .
. . . . . . .
. . X O . . .
. . . X . . .
. . . . . . .
. . . . . . .
. . . . . . .
"""


@pytest.mark.parametrize("last", [None, "F2"], ids=["no last move", "last move far away"])
def test_moves_are_uniform_where_nothing_stands_out(last: str | None) -> None:
    pos = position_from_diagram(QUIET)
    if last is not None:
        pos.play(v(last, 7))
        cand = np.zeros(64, dtype=np.int64)
        assert H._pattern_moves(pos.b, pos.st, pos.last_move, PAT3, cand) == 0
        assert not tactical_moves(pos)
    legal = [vertex(p, 7) for p in pos.legal_moves()]
    n = 100 * len(legal)
    counts = draw(pos, n, seed=7)
    assert set(counts) == set(legal)  # every legal move, and never a pass
    observed = [counts[x] for x in legal]
    expected = n / len(legal)
    assert 0.6 * expected <= min(observed) and max(observed) <= 1.4 * expected, counts.most_common(3)
    df = len(legal) - 1
    assert df <= 60
    assert chi_square(observed, [expected] * len(legal)) < CHI2_999[60]


def test_safe_move_passes_on_a_full_board_and_never_passes_otherwise() -> None:
    pos = position_from_diagram("X X\nX .")
    assert H.safe_move(pos.b, pos.st, BLACK) == PASS  # the one empty point is Black's eye
    pos = position_from_diagram(QUIET)
    K.seed_rng(3)
    assert all(H.safe_move(pos.b, pos.st, BLACK) != PASS for _ in range(200))


# Black's E4 puts White's D4 in atari; D5 gives it two liberties (C5, D6) and Black's ladder
# catches it; a white stone at C6 breaks the ladder
LADDER_ESCAPE = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . X . . . .
. . X O(X). . . .
. . . X . . . . .
. . . . . . . . .
. . . . . . . . .
"""


def ladder_scratch(pos: Position) -> tuple:
    """The ladder scratch of the heavy playout for pos's board."""
    return (K.ZOBRIST, *ladder_workspace(pos.b, pos.st))


@pytest.mark.parametrize("breaker", [False, True], ids=["ladder works", "ladder broken"])
def test_an_escape_into_a_ladder_is_left_out_when_ladders_are_read(breaker: bool) -> None:
    diagram = with_points(LADDER_ESCAPE, C6="O") if breaker else LADDER_ESCAPE
    for label, pos, where in variants(diagram):
        assert tactical_moves(pos) == {where("D5")}, label  # without reading: any two liberties
        lw = ladder_scratch(pos)
        b, st = pos.b.copy(), pos.st.copy()
        cand = np.zeros(64, dtype=np.int64)
        n = H.tactical_moves(b, st, pos.to_move, pos.last_move, cand, lw)
        assert (b == pos.b).all() and (st == pos.st).all(), label
        got = {vertex(int(p), pos.size) for p in cand[:n]}
        assert got == (set() if not breaker else {where("D5")}), label
        # the policy's other steps (3x3 shapes, random moves) may still play it, far less often
        K.seed_rng(3)
        read = Counter(int(H.choose_move(b, st, pos.to_move, PAT3, cand, lw)) for _ in range(DRAWS))
        share = read[v(where("D5"), 9)] / DRAWS
        assert share < 0.6 if not breaker else share >= MUST_SHARE, (label, share)


def survives(pos: Position, stone: str, lw, n: int = 400, seed: int = 5) -> float:
    """The share of n heavy playouts from pos (with the ladder scratch lw, or None) at whose
    end the stone at `stone` still stands."""
    p = v(stone, pos.size)
    color = int(pos.b[K.COLOR, p])
    cand = np.zeros(64, dtype=np.int64)
    moves = np.zeros(4 * pos.size * pos.size, dtype=np.int64)
    K.seed_rng(seed)
    alive = 0
    for _ in range(n):
        b, st = pos.b.copy(), pos.st.copy()
        if lw is None:
            H.heavy_playout(b, st, K.ZOBRIST, len(moves), moves, PAT3, cand)
        else:
            H.heavy_playout(b, st, K.ZOBRIST, len(moves), moves, PAT3, cand, lw)
        alive += int(b[K.COLOR, p]) == color
    return alive / n


def test_playouts_that_read_ladders_let_the_caught_stones_die_more_often() -> None:
    pos = position_from_diagram(LADDER_ESCAPE)
    blind = survives(pos, "D4", None)
    read = survives(pos, "D4", ladder_scratch(pos))
    assert read < blind - 0.1, (read, blind)
    broken = position_from_diagram(with_points(LADDER_ESCAPE, C6="O"))
    assert survives(broken, "D4", ladder_scratch(broken)) > read + 0.1
