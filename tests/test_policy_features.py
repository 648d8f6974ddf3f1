"""The move-pattern model's features (gorilla.ai.policy.features) on drawn positions.

Every case runs in the eight orientations of the board, each also with the
colours swapped: the features of the move must come out the same.
"""

from __future__ import annotations

import numpy as np
import pytest
from helpers import position_from_diagram, v, variants

from gorilla.ai.policy import features as F
from gorilla.rules.board import BLACK, PASS, ZOBRIST
from gorilla.rules.position import Position

NO_DIAMONDS = np.empty(0, dtype=np.int64)


def features_of(pos: Position, p: int) -> np.ndarray:
    """The levels of the side to move playing p."""
    out = np.empty(F.NGROUPS, dtype=np.int32)
    tmp = np.empty(8, dtype=np.int64)
    F.move_features(pos.b, pos.st, ZOBRIST, p, pos.to_move, F.canonical_table(), NO_DIAMONDS, tmp, out)
    return out


def check_everywhere(diagram: str, move: str, expected: dict[int, int], to_move: int | None = None) -> None:
    """In all 16 variants, the move's levels in the groups named are the ones expected."""
    for label, pos, where in variants(diagram, to_move):
        got = features_of(pos, v(where(move), pos.size))
        for group, level in expected.items():
            assert got[group] == level, f"{label}: {F.GROUP_NAMES[group]} is {got[group]}, expected {level}"


LADDER = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . O . . . . .
    . . O X O . . . .
    . . . . O . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    """
# the same with a black stone on the ladder's path
LADDER_BROKEN = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . O . . . . .
    . . O X O . . . .
    . . . . O . . . .
    . . X . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    """


def test_capture_plain_and_of_the_last_move():
    plain = """
        . . . . . . .
        . . . . . . .
        . . . X . . .
        . . X O . . .
        . . . X . . .
        . . . . . . .
        . . . . . . .
        """
    # E4 takes White's D4 stone (no last move drawn); neighbouring points do not capture
    check_everywhere(plain, "E4", {F.G_CAPTURE: 0, F.G_SELFATARI: -1, F.G_ESCAPE: -1}, to_move=BLACK)
    check_everywhere(plain, "E5", {F.G_CAPTURE: -1}, to_move=BLACK)
    last = """
        . . . . . . .
        . . . . . . .
        . . . X . . .
        . . X(O)X . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        """
    check_everywhere(last, "D3", {F.G_CAPTURE: 2, F.G_DIST1: 0})


def test_capture_that_saves_a_group_in_atari():
    # Black's D5 stone has one liberty (E5); White's D4 stone too (E4): E4 takes D4 and saves D5
    diagram = """
        . . . . . . .
        . . . O . . .
        . . O X . . .
        . . X O . . .
        . . . X . . .
        . . . . . . .
        . . . . . . .
        """
    pos = position_from_diagram(diagram, BLACK)
    assert pos.liberties(v("D5", 7)) == 1 and pos.liberties(v("D4", 7)) == 1
    check_everywhere(diagram, "E4", {F.G_CAPTURE: 1, F.G_ESCAPE: -1}, to_move=BLACK)
    # extending at E5 instead escapes (three liberties after it)
    check_everywhere(diagram, "E5", {F.G_CAPTURE: -1, F.G_ESCAPE: 0}, to_move=BLACK)


def test_ladder_escape_that_fails_and_one_that_works():
    check_everywhere(LADDER, "D4", {F.G_ESCAPE: 1, F.G_CAPTURE: -1, F.G_SELFATARI: -1}, to_move=BLACK)
    check_everywhere(LADDER_BROKEN, "D4", {F.G_ESCAPE: 0}, to_move=BLACK)


def test_atari_in_a_ladder_and_a_plain_one():
    # White to move: E5... the same shapes seen from the attacker, one move earlier
    before = LADDER.replace(". . O X O . . . .", ". . O X . . . . .")
    check_everywhere(before, "E5", {F.G_ATARI: 0, F.G_ESCAPE: -1}, to_move=2)
    broken = LADDER_BROKEN.replace(". . O X O . . . .", ". . O X . . . . .")
    check_everywhere(broken, "E5", {F.G_ATARI: 1}, to_move=2)


def test_self_atari_of_one_stone_and_of_several():
    one = """
        . . . . .
        . . . . .
        . . . . .
        O . . . .
        . O . . .
        """
    check_everywhere(one, "A1", {F.G_SELFATARI: 0, F.G_CAPTURE: -1, F.G_EDGE: 0}, to_move=BLACK)
    several = """
        . . . . .
        . . . . .
        . . . . .
        X O . . .
        . O . . .
        """
    check_everywhere(several, "A1", {F.G_SELFATARI: 1}, to_move=BLACK)


def test_distances_edge_and_pass():
    diagram = """
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . .(X). . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        """
    # E5 was played last; G7 is dx 2, dy 2: 2 + 2 + 2 = 6 -> level 4; G7 is on the third line
    check_everywhere(diagram, "G7", {F.G_DIST1: 4, F.G_DIST2: -1, F.G_EDGE: 2})
    check_everywhere(diagram, "E4", {F.G_DIST1: 0, F.G_EDGE: 3})
    check_everywhere(diagram, "A9", {F.G_DIST1: 10, F.G_EDGE: 0})  # 4 + 4 + 4 = 12
    pos = position_from_diagram(diagram)
    assert features_of(pos, PASS)[F.G_PASS] == 0
    assert list(features_of(pos, PASS)).count(-1) == F.NGROUPS - 1
    pos.play(PASS)
    pos.to_move = BLACK
    assert features_of(pos, PASS)[F.G_PASS] == 1


SHAPE = """
    . . . . . . .
    . . . . . . .
    . . X O . . .
    . . . . X . .
    . . O X O . .
    . . . . . . .
    . . . . . . .
    """


def test_patterns_match_in_all_orientations_and_both_colours():
    tmp = np.empty(F.NRADII, dtype=np.int64)
    codes, diamonds = set(), set()
    for _, pos, where in variants(SHAPE, BLACK):
        p = v(where("D4"), 7)
        codes.add(int(F.canonical_table()[F.pat3_key(pos.b, int(pos.st[1]), p, pos.to_move)]))
        F.diamond_keys(pos.b, pos.st, p, pos.to_move, tmp)
        diamonds.add(tuple(tmp.tolist()))
    assert len(codes) == 1 and len(diamonds) == 1
    # another point of the same board, and the same point with Black's stone at E4 removed, differ
    pos = position_from_diagram(SHAPE, BLACK)
    other = int(F.canonical_table()[F.pat3_key(pos.b, 9, v("C4", 7), BLACK)])
    changed = position_from_diagram(SHAPE.replace(". . . . X . .", ". . . . . . ."), BLACK)
    moved = int(F.canonical_table()[F.pat3_key(changed.b, 9, v("D4", 7), BLACK)])
    assert len({other, moved} | codes) == 3
    F.diamond_keys(changed.b, changed.st, v("D4", 7), BLACK, tmp)
    assert tuple(tmp.tolist()) not in diamonds


def test_atari_status_is_part_of_the_3x3_pattern():
    # the same 3x3 around C3; in the second, White's C4 stone has one liberty left
    free = position_from_diagram(
        """
        . . O . .
        . X O X .
        . . . . .
        . . . . .
        . . . . .
        """,
        BLACK,
    )
    caught = position_from_diagram(
        """
        . . X . .
        . X O X .
        . . . . .
        . . . . .
        . . . . .
        """,
        BLACK,
    )
    a = F.pat3_key(free.b, 7, v("C3", 5), BLACK)
    b = F.pat3_key(caught.b, 7, v("C3", 5), BLACK)
    assert a & 0xFFFF == b & 0xFFFF and a >> 16 == 0 and b >> 16 != 0


@pytest.mark.parametrize("k", range(8))
def test_canonical_table_is_invariant(k):
    table = F.canonical_table()
    cell_to, atari_to = F._transforms()[k]
    rng = np.random.default_rng(k)
    for code in rng.integers(0, F.PAT3_CODES, 200):
        img = 0
        for i in range(8):
            img |= ((int(code) >> (2 * i)) & 3) << (2 * cell_to[i])
        for j in range(4):
            img |= ((int(code) >> (16 + j)) & 1) << (16 + atari_to[j])
        assert table[img] == table[code]


def test_diamond_lookup_stops_early_but_finds_the_largest_known_diamond():
    from gorilla.ai.policy.model import shipped_model

    dkeys = shipped_model().dkeys
    known_keys = set(dkeys.tolist())
    rng = np.random.default_rng(4)
    keys = np.empty(F.NRADII, dtype=np.int64)
    hs = np.empty(8, dtype=np.int64)
    found = 0
    for size in (9, 19):
        pos = Position(size)
        for _ in range(60 if size == 19 else 30):
            for p in rng.permutation(pos.points())[:40]:
                p = int(p)
                if pos.color_at(p) != 0:
                    continue
                F.diamond_keys(pos.b, pos.st, p, pos.to_move, keys)
                known = [i for i in range(F.NRADII) if keys[i] in known_keys]
                expected = int(np.searchsorted(dkeys, keys[known[-1]])) if known else -1
                assert F.diamond_level(pos.b, pos.st, p, pos.to_move, dkeys, hs) == expected
                found += expected >= 0
            legal = [q for q in pos.points() if pos.is_legal(q)]
            pos.play(int(rng.choice(legal)))
    assert found > 50
