"""Hostile SGF files: valid game trees mutated and truncated (deep nesting, huge comments, bad
coordinates, repeated properties, stray bytes) and a 10,000-node tree, loaded through the path the
window (``Controller.load``) and ``gorilla analyze`` (``load_tree``) use. Each one loads or is refused
with one line starting 'SGF:'; none crashes, hangs, or leaves a half-loaded game."""

from __future__ import annotations

import os
import random
import tempfile
import time
from datetime import timedelta

import pytest
from helpers import v
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gorilla.app.go.controller import Controller
from gorilla.rules.board import PASS
from gorilla.rules.coords import to_xy
from gorilla.rules.game import Game
from gorilla.rules.sgf import SgfError, load_tree, save_tree

LETTERS = "abcdefghijklmnopqrs"


def sgf_point(p: int, size: int) -> str:
    if p == PASS:
        return ""
    x, y = to_xy(p, size)
    return LETTERS[x] + LETTERS[y]


def random_line(rng: random.Random, game: Game, length: int) -> list[tuple[int, int]]:
    """length legal moves (colour, point) played on game from where it stands."""
    out = []
    for _ in range(length):
        if game.over:
            break
        legal = game.legal_moves()
        p = rng.choice(legal) if legal and rng.random() > 0.03 else PASS
        color = game.to_move
        game.play(p, color)
        out.append((color, p))
    return out


def tree_text(rng: random.Random, size: int, branches: int, length: int, marks: bool = True) -> str:
    """A valid SGF with `branches` variations from random points of a main line."""
    game = Game.new(size)
    main = random_line(rng, game, length)

    def node(color: int, p: int, i: int) -> str:
        text = f";{'BW'[color - 1]}[{sgf_point(p, size)}]"
        if marks and i % 3 == 0:
            text += f"C[move {i} \\] [x\\]]"
        if marks and i % 4 == 1 and p != PASS:
            text += f"TR[{sgf_point(p, size)}]LB[{sgf_point(p, size)}:{i}]N[n{i}]"
        return text

    variations: dict[int, list[str]] = {}
    for _ in range(branches if main else 0):
        at = rng.randrange(0, len(main))
        g = Game.new(size)
        for color, p in main[:at]:
            g.play(p, color)
        line = random_line(rng, g, rng.randrange(1, 8))
        variations.setdefault(at, []).append("".join(node(c, p, at + k) for k, (c, p) in enumerate(line)))

    def seq(i: int) -> str:
        """The main line from move i, a bracket around it where variations branch beside it."""
        if i == len(main):
            return ""
        here = node(*main[i], i)
        if i not in variations:
            return here + seq(i + 1)
        return "(" + here + seq(i + 1) + ")" + "".join(f"({var})" for var in variations[i])

    return f"(;GM[1]FF[4]SZ[{size}]KM[7.5]C[root]{seq(0)})"


MUTATIONS = ("truncate", "stray", "repeat", "bad_coordinate", "huge_comment", "nest", "drop_char", "swap")


def mutate(rng: random.Random, data: bytes, kind: str) -> bytes:
    n = len(data)
    at = rng.randrange(0, n + 1)
    if kind == "truncate":
        return data[:at]
    if kind == "stray":
        return data[:at] + bytes(rng.randrange(256) for _ in range(rng.randrange(1, 6))) + data[at:]
    if kind == "repeat":
        i = data.find(b"[", at)
        j = data.find(b"]", i)
        if i <= 0 or j < 0:
            return data + data[:at]
        k = i
        while k > 0 and data[k - 1 : k].isalpha():
            k -= 1
        prop = data[k : j + 1]
        other = prop[: i - k] + b"[" + bytes(rng.choice(LETTERS.encode()) for _ in range(2)) + b"]"
        return data[: j + 1] + rng.choice([prop, other]) + data[j + 1 :]
    if kind == "bad_coordinate":
        i = data.find(b";B[", at)
        if i < 0:
            i = data.find(b";W[", at)
        if i < 0:
            return data[:at] + b";B[zz]" + data[at:]
        bad = rng.choice([b"zz", b"a", b"99", b"aaa", "\u00e9\u00e9".encode(), b"tt", b"A1"])
        j = data.find(b"]", i)
        return data[: i + 3] + bad + data[j:]
    if kind == "huge_comment":
        i = data.find(b";", at)
        i = n if i < 0 else i + 1
        return data[:i] + b"C[" + b"x" * rng.choice([10_000, 300_000, 1_000_000]) + b"]" + data[i:]
    if kind == "nest":
        depth = rng.choice([50, 1000, 5000])
        i = data.find(b";", 2)
        if i < 0:
            return b"(;" * depth + b")" * depth
        return data[:i] + b"(;" * depth + data[i:-1] + b")" * depth + data[-1:]
    if kind == "drop_char":
        return data[:at] + data[at + 1 :]
    # swap two bytes
    if n < 2:
        return data
    i, j = rng.randrange(n), rng.randrange(n)
    b = bytearray(data)
    b[i], b[j] = b[j], b[i]
    return bytes(b)


@pytest.fixture(scope="module")
def folder():
    with tempfile.TemporaryDirectory() as d:
        yield d


def check_one(data: bytes, folder: str) -> str:
    """Load data through load_tree and through the controller; returns 'loaded' or 'refused'."""
    try:
        tree = load_tree(data)
    except SgfError as e:
        msg = str(e)
        assert msg.startswith("SGF: ") and "\n" not in msg and len(msg) <= 200, msg
        outcome = "refused"
    else:
        outcome = "loaded"
        game = tree.line_game()  # the line plays through the rules again
        assert game.move_number == tree.current.depth
        again = load_tree(save_tree(tree))  # what we write we read back
        assert len(again) <= len(tree)  # a resignation node is no SGF node; nothing is invented

    path = os.path.join(folder, "hostile.sgf")
    with open(path, "wb") as f:
        f.write(data)
    c = Controller(Game.new(9))
    c.click(v("E5"))
    before = (list(c.game.moves), c.tree, c.game)
    c.load(path)
    assert "\n" not in c.message
    if outcome == "refused":
        assert c.message.startswith("Cannot load") and "SGF: " in c.message, c.message
        assert (list(c.game.moves), c.tree, c.game) == before  # nothing half-loaded
    else:
        assert c.message.startswith("Loaded"), c.message
        assert c.tree is not before[1] and c.game.move_number == c.tree.current.depth
    c.close()
    return outcome


@settings(
    max_examples=200,
    deadline=timedelta(seconds=20),
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,
    ],
)
@given(
    seed=st.integers(0, 2**32 - 1),
    size=st.sampled_from([5, 9, 13, 19]),
    kinds=st.lists(st.sampled_from(MUTATIONS), min_size=0, max_size=3),
)
def test_mutated_and_truncated_trees_load_or_are_refused_in_one_line(folder, seed, size, kinds) -> None:
    rng = random.Random(seed)
    data = tree_text(rng, size, branches=rng.randrange(0, 5), length=rng.randrange(0, 40)).encode()
    if not kinds:
        assert check_one(data, folder) == "loaded"  # the valid tree itself loads
        return
    for kind in kinds:
        data = mutate(rng, data, kind)
    check_one(data, folder)


def test_the_generated_trees_have_variations() -> None:
    tree = load_tree(tree_text(random.Random(3), 9, branches=4, length=30))
    assert sum(len(n.children) > 1 for n in tree.nodes()) >= 1
    assert any(n.comment for n in tree.nodes()) and any(n.marks for n in tree.nodes())


def ten_thousand_node_file() -> bytes:
    """A 19x19 record of 10,000 move nodes: 100 variations of about 100 moves each."""
    rng = random.Random(7)
    parts = []
    nodes = 0
    while nodes < 10_000:
        g = Game.new(19)
        line = random_line(rng, g, min(100, 10_000 - nodes))
        nodes += len(line)
        parts.append("(" + "".join(f";{'BW'[c - 1]}[{sgf_point(p, 19)}]" for c, p in line) + ")")
    return ("(;GM[1]FF[4]SZ[19]" + "".join(parts) + ")").encode()


def test_a_ten_thousand_node_tree_loads_whole(folder) -> None:
    data = ten_thousand_node_file()
    start = time.monotonic()
    tree = load_tree(data)
    assert len(tree) - 1 >= 9_900  # first moves that coincide share a node
    assert len(tree.root.children) > 50
    assert check_one(data, folder) == "loaded"
    assert time.monotonic() - start < 300  # no hang (a generous bound, not a speed claim)


# each hand-made file and what becomes of it: "loaded", or refused with these words in its line
HAND_MADE = {
    "nested-empty-nodes": (b"(;SZ[9]" + b"(;" * 20_000 + b")" * 20_000 + b")", "loaded"),
    "only-brackets": (b"(" * 50_000, "parse error"),
    # nesting with moves (3000 deep): White's second W[cc] is on its own stone
    "nested-moves": (b"(;SZ[9];B[ee]" + b"(;W[cc]" * 3000 + b")" * 3000 + b")", "W[cc] at move 3 (occupied)"),
    "huge-escaped-comment": (b"(;SZ[9]C[" + b"\\" * 100_000 + b"])", "loaded"),
    "ab-and-aw": (b"(;SZ[9]AB[ee]AW[ee])", "both AB and AW"),
    "black-and-white-move": (b"(;SZ[9];B[ee]W[cc])", "both a black and a white move"),
    "occupied": (b"(;SZ[9];B[ee];B[ee])", "B[ee] at move 2 (occupied)"),
    "setup-after-a-move": (b"(;SZ[9];B[ee];AB[aa])", "after the first move"),
    "marks-off-the-board": (b"(;SZ[9]LB[zz:x][ee]TR[zz:aa])", "loaded"),  # the marks left out
    "utf16-bom": (b"\xff\xfe(;SZ[9])", "loaded"),
    "empty": (b"", "empty file"),
    "gomoku": (b"(;GM[4]SZ[15];B[hh])", "not a Go game"),
    "size-99": (b"(;SZ[99])", "board size 99"),
    "odd-identifiers": (b"(;SZ[9]CoPyright[x]ABCDEFGHIJ[y];B[ee]XY[a]XY[b])", "loaded"),
    "control-bytes-in-a-move": (b"(;SZ[9];B[ee];W[h\n\x1ac])", "bad move"),
}


@pytest.mark.parametrize("data, expected", list(HAND_MADE.values()), ids=list(HAND_MADE))
def test_hand_made_hostile_files(folder, data, expected) -> None:
    outcome = check_one(data, folder)
    if expected == "loaded":
        assert outcome == "loaded"
    else:
        assert outcome == "refused"
        with pytest.raises(SgfError) as e:
            load_tree(data)
        assert expected in str(e.value), str(e.value)


def test_marks_off_the_board_and_a_label_without_text_are_left_out() -> None:
    tree = load_tree(b"(;SZ[9]LB[zz:x][ee][cc:ok]TR[zz:aa][bb])")
    assert tree.root.labels == {v("C7"): "ok"} and tree.root.marks == {"TR": {v("B8")}}
