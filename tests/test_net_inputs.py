"""KataGo's network inputs (gorilla.ai.net.inputs): features of positions drawn as diagrams,
and every feature of a few hundred varied positions against KataGo's own.

Every expected value of the diagram tests is the one KataGo's ``fillRowV7`` gives for the
same record. ``data/net_inputs/katago_features.json.gz`` holds KataGo's features for
varied positions, printed by ``data/net_inputs/featdump.cpp`` (KataGo's ``fillRowV7``
compiled from its sources with a small driver); ``python tests/test_net_inputs.py
--featdump PATH`` writes it again. The net's outputs against KataGo's are tests/test_net.py.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import subprocess
from pathlib import Path

import numpy as np
import pytest
from helpers import game_from_diagram, replay_reference, v

from gorilla.ai.net import features_kernels as FK
from gorilla.ai.net.inputs import NUM_GLOBAL, NUM_SPATIAL, NetRules, encode, encode_into, komi_wave
from gorilla.rules import board as K
from gorilla.rules.board import BLACK, PASS, WHITE
from gorilla.rules.coords import format_vertex, parse_vertex, to_xy
from gorilla.rules.game import Game

DATA = Path(__file__).parent / "data" / "net_inputs" / "katago_features.json.gz"


def cell(vertex: str, size: int = 9) -> tuple[int, int]:
    """The (row, column) of a vertex in the planes: row 0 is the top of the board."""
    x, y = to_xy(v(vertex, size), size)
    return size - 1 - y, x


def marked(plane: np.ndarray) -> set[tuple[int, int]]:
    return {(int(r), int(c)) for r, c in zip(*np.nonzero(plane), strict=True)}


# --- the board ------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [9, 13, 19])
def test_on_board_plane_and_shapes(size):
    spatial, glob = encode(Game.new(size))
    assert spatial.shape == (NUM_SPATIAL, size, size) and spatial.dtype == np.float32
    assert glob.shape == (NUM_GLOBAL,) and glob.dtype == np.float32
    assert np.all(spatial[0] == 1.0)
    assert not spatial[1:].any()  # no stones, no history, an empty board's area is nobody's


def test_own_and_opponent_stones_follow_the_side_to_move():
    diagram = """
        . . . . .
        . X . . .
        . . O O .
        . . . . .
        . . . . .
    """
    black = {cell("B4", 5)}
    white = {cell("C3", 5), cell("D3", 5)}
    spatial, _ = encode(game_from_diagram(diagram, to_move=BLACK))
    assert marked(spatial[1]) == black and marked(spatial[2]) == white
    spatial, _ = encode(game_from_diagram(diagram, to_move=WHITE))
    assert marked(spatial[1]) == white and marked(spatial[2]) == black


def test_liberty_planes():
    diagram = """
        X . . O .
        . . . . .
        . . X X .
        . . . . .
        X O . . .
    """
    spatial, _ = encode(game_from_diagram(diagram))
    assert marked(spatial[3]) == {cell("A1", 5)}
    assert marked(spatial[4]) == {cell("A5", 5), cell("B1", 5)}
    assert marked(spatial[5]) == {cell("D5", 5)}  # C3-D3 has six: no plane


# --- ladders --------------------------------------------------------------------------------

ATARI = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . X . . .
    . . . X O X . . .
    . . . . X . . . .
    . . . . . . . . .
    . . . . . . . . .
"""
# the same with a white stone on the ladder's path: the escape works
BROKEN = ATARI.replace(
    ". . . . . . . . .\n    . . . . . . . . .\n    . . . . . . . . .\n",
    ". . . . . . . . .\n    . . . . . . . . .\n    . . O . . . . . .\n",
    1,
)


@pytest.mark.parametrize("to_move", [WHITE, BLACK])
def test_a_stone_in_atari_that_a_ladder_captures(to_move):
    spatial, _ = encode(game_from_diagram(ATARI, to_move=to_move))
    assert marked(spatial[14]) == {cell("E4")}


@pytest.mark.parametrize("to_move", [WHITE, BLACK])
def test_a_ladder_breaker_saves_the_stone(to_move):
    assert BROKEN != ATARI
    spatial, _ = encode(game_from_diagram(BROKEN, to_move=to_move))
    assert not spatial[14].any()


def test_ladder_capture_moves_of_a_two_liberty_stone():
    diagram = """
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . X . . .
        . . . X O . . . .
        . . . . X . . . .
        . . . . . . . . .
    """
    spatial, _ = encode(game_from_diagram(diagram, to_move=BLACK))
    assert marked(spatial[14]) == {cell("E3")}
    assert marked(spatial[17]) == {cell("E4"), cell("F3")}  # both ataris ladder it
    # the capture moves are the side to move's: White to move gets none for its own stone
    spatial, _ = encode(game_from_diagram(diagram, to_move=WHITE))
    assert marked(spatial[14]) == {cell("E3")} and not spatial[17].any()


def test_ladder_planes_of_the_previous_positions():
    game = game_from_diagram(ATARI, to_move=WHITE)
    game.play(v("C7"))  # White breaks the ladder instead of running
    spatial, _ = encode(game)
    assert not spatial[14].any()  # now E4 escapes
    assert marked(spatial[15]) == {cell("E4")}  # a move ago it did not
    assert marked(spatial[16]) == {cell("E4")}  # no older history: the same board


# --- ko --------------------------------------------------------------------------------------

KO = """
    . . . . . . . . .
    . . . . . . . . .
    . . X O . . . . .
    . X O . O . . . .
    . . X O . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
"""


@pytest.mark.parametrize("rules", ["chinese", "japanese", "tromp-taylor"])
def test_the_ko_point_is_banned(rules):
    game = game_from_diagram(KO, to_move=BLACK, rules=rules)
    game.play(v("D6"))  # takes the ko
    spatial, _ = encode(game)
    assert marked(spatial[6]) == {cell("C6")}
    assert not spatial[7:9].any()


def test_superko_bans_a_retake_after_passes_only_under_superko():
    for rules, banned in (("chinese", {cell("C6")}), ("tromp-taylor", {cell("C6")}), ("japanese", set())):
        game = game_from_diagram(KO, to_move=BLACK, rules=rules)
        game.play(v("D6"))
        game.play(PASS)
        game.play(PASS)  # the ko is free again, but retaking repeats the start position
        spatial, _ = encode(game)
        assert marked(spatial[6]) == banned, rules


# --- pass-alive areas ----------------------------------------------------------------------

TWO_EYES = """
    . X O . X O . . .
    X X X X X O . . .
    O O O O O O . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
"""
ONE_EYE = TWO_EYES.replace(". X O . X O", "X X O . X O")


def pass_alive_points(diagram: str, color: int) -> set[tuple[int, int]]:
    game = game_from_diagram(diagram)
    pos = game.position
    out = np.zeros(pos.b.shape[1], dtype=np.int32)
    FK.pass_alive(pos.b[K.COLOR], pos.size + 2, color, False, out)
    n = pos.size
    return {(p // (n + 2) - 1, p % (n + 2) - 1) for p in np.flatnonzero(out == color)}


def test_benson_a_group_with_two_eyes_is_pass_alive_with_its_eyes():
    black = pass_alive_points(TWO_EYES, BLACK)
    stones = {cell(x) for x in ("B9", "E9", "A8", "B8", "C8", "D8", "E8")}
    eyes = {cell("A9"), cell("C9"), cell("D9")}  # C9's dead white stone included
    assert black == stones | eyes
    assert pass_alive_points(TWO_EYES, WHITE) == set()  # one big region: not alive yet


def test_benson_a_group_with_one_eye_is_not():
    assert pass_alive_points(ONE_EYE, BLACK) == set()


@pytest.mark.parametrize("rules", ["chinese", "tromp-taylor", "little-go"])
def test_area_planes_count_dead_stones_in_pass_alive_territory(rules):
    spatial, _ = encode(game_from_diagram(TWO_EYES, to_move=BLACK, rules=rules))
    top = [cell(x) for x in ("A9", "B9", "C9", "D9", "E9")]
    assert all(spatial[18][rc] == 1 for rc in top)  # C9 (a white stone) is Black's
    spatial, _ = encode(game_from_diagram(ONE_EYE, to_move=BLACK, rules=rules))
    assert spatial[19][cell("C9")] == 1  # not pass-alive: the white stone is White's
    assert spatial[18][cell("D9")] == 0 and spatial[19][cell("D9")] == 0  # a shared point
    assert spatial[18][cell("A9")] == 1  # a stone that is not pass-alive stays its colour's


def test_no_area_planes_under_territory_scoring():
    spatial, _ = encode(game_from_diagram(TWO_EYES, to_move=BLACK, rules="japanese"))
    assert not spatial[18:20].any()


# --- history ---------------------------------------------------------------------------------


def test_last_moves_planes_latest_first():
    game = Game.new(9)
    for vert in ("E5", "C3", "G7", "C7", "G3", "E3"):
        game.play(v(vert))
    spatial, glob = encode(game)  # Black to move: E3 was White's
    for k, vert in enumerate(("E3", "G3", "C7", "G7", "C3")):
        assert marked(spatial[9 + k]) == {cell(vert)}
    assert not glob[:5].any()


def test_setup_and_handicap_stones_are_no_moves():
    game = Game.new(19, "chinese", handicap=4)
    spatial, glob = encode(game)
    assert game.to_move == WHITE
    assert not spatial[9:14].any() and not glob[:5].any()
    assert spatial[2].sum() == 4 and not spatial[1].any()


def test_a_pass_in_the_history():
    game = Game.new(9, "tromp-taylor")
    game.play(v("E5"))
    game.play(PASS)
    spatial, glob = encode(game)
    assert glob[0] == 1 and not spatial[9].any()  # the last move: a pass
    assert marked(spatial[10]) == {cell("E5")}
    assert glob[14] == 1  # a pass now would end the game


def test_a_friendly_pass_hides_the_history():
    # KataGo's Chinese rules (friendly passes): a pass that would end the game is not taken
    # as ending it, so the net sees no history and no "pass ends the game"
    game = Game.new(9, "chinese")
    game.play(v("E5"))
    game.play(PASS)
    spatial, glob = encode(game)
    assert not spatial[9:14].any() and not glob[:5].any() and glob[14] == 0
    spatial, glob = encode(game, NetRules.katago("tromp-taylor"))
    assert glob[0] == 1 and glob[14] == 1


def test_after_two_passes_only_the_last_move_is_shown():
    game = Game.new(9, "tromp-taylor")
    game.play(v("E5"))
    game.play(PASS)
    game.play(PASS)
    spatial, glob = encode(game)
    assert glob[0] == 1 and not glob[1:5].any() and not spatial[9:14].any()


def test_a_player_moving_twice_starts_the_history_again():
    game = Game.new(9)
    game.play(v("E5"))
    game.play(v("F5"), BLACK)
    spatial, _ = encode(game)
    assert marked(spatial[9]) == {cell("F5")} and not spatial[10:14].any()
    game = Game.new(9)
    game.play(v("E5"))
    spatial, _ = encode(game.with_to_move(BLACK))  # Black to move again: no history
    assert not spatial[9:14].any()
    assert marked(spatial[1]) == {cell("E5")}


# --- rules and komi --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "expected"),
    [
        # name: ko (6, 7), suicide 8, territory 9, tax (10, 11)
        ("chinese", (1.0, 0.5, 0.0, 0.0, 0.0, 0.0)),
        ("tromp-taylor", (1.0, 0.5, 1.0, 0.0, 0.0, 0.0)),
        ("japanese", (0.0, 0.0, 0.0, 1.0, 1.0, 0.0)),
        ("little-go", (0.0, 0.0, 0.0, 0.0, 1.0, 1.0)),
    ],
)
def test_rules_globals_of_each_ruleset(rules, expected):
    _, glob = encode(Game.new(9, rules))
    assert tuple(glob[6:12]) == expected
    assert not glob[12:14].any() and not glob[15:18].any()  # no encore, no playout doubling, no button


@pytest.mark.parametrize("size", [9, 13, 19])
def test_komi_from_the_side_to_move(size):
    game = Game.new(size, "chinese", komi=7.5)
    _, glob = encode(game)
    assert glob[5] == pytest.approx(-7.5 / 20)
    game.play(v("D4", size))
    _, glob = encode(game)
    assert glob[5] == pytest.approx(7.5 / 20)


def test_territory_komi_counts_the_stones_played():
    # KataGo scores territory as area plus one point to White for each black stone played
    game = Game.new(19, "japanese", komi=6.5)
    game.play(v("D4", 19))
    _, glob = encode(game)
    assert glob[5] == pytest.approx((6.5 + 1) / 20)
    _, glob = encode(Game.new(19, "chinese", komi=6.5).with_to_move(WHITE))
    assert glob[5] == pytest.approx(6.5 / 20)


def test_komi_is_clipped_to_the_board():
    _, glob = encode(Game.new(9, "chinese", komi=150.0))
    assert glob[5] == pytest.approx(-(81 + 20) / 20)


def test_komi_wave():
    # odd areas draw at odd komis: the wave rises to 0.5 half a point above them
    assert komi_wave(7.5, 361) == pytest.approx(0.5)
    assert komi_wave(-7.5, 361) == pytest.approx(-0.5)
    assert komi_wave(7.0, 361) == pytest.approx(0.0)
    assert komi_wave(8.0, 361) == pytest.approx(0.0)
    assert komi_wave(8.5, 361) == pytest.approx(-0.5)
    assert komi_wave(8.75, 361) == pytest.approx(-0.25)
    assert komi_wave(6.0, 100) == pytest.approx(0.0)  # even areas draw at even komis
    assert komi_wave(6.5, 100) == pytest.approx(0.5)
    assert komi_wave(7.5, 100) == pytest.approx(-0.5)
    _, glob = encode(Game.new(19, "chinese", komi=7.5))
    assert glob[18] == pytest.approx(-0.5)
    _, glob = encode(Game.new(19, "japanese", komi=6.5))
    assert glob[18] == 0  # territory scoring: no wave


def test_rules_of_gorilla_rulesets():
    assert NetRules.from_game(Game.new(9, "chinese")) == NetRules(
        "positional", "area", "none", False, komi=7.5, friendly_pass_ok=True
    )
    assert NetRules.from_game(Game.new(9, "japanese", komi=0.5)) == NetRules(
        "simple", "territory", "seki", False, komi=0.5
    )
    assert NetRules.from_game(Game.new(9, "tromp-taylor")).suicide
    assert NetRules.from_game(Game.new(5, "little-go")).tax == "all"
    with pytest.raises(ValueError, match="unknown rule"):
        NetRules(ko="spight")
    with pytest.raises(ValueError, match="unknown KataGo rules"):
        NetRules.katago("go")


def test_handicap_bonus_of_katago_chinese():
    game = Game.new(19, "chinese", komi=0.5, handicap=4)
    _, glob = encode(game, NetRules.katago("chinese"))  # White gets a point per handicap stone
    assert glob[5] == pytest.approx((0.5 + 4) / 20)
    _, glob = encode(game, NetRules.katago("aga"))  # N - 1
    assert glob[5] == pytest.approx((0.5 + 3) / 20)
    _, glob = encode(game)  # Gorilla's counts give none
    assert glob[5] == pytest.approx(0.5 / 20)


def test_encode_into_a_batch_row():
    game = game_from_diagram(ATARI, to_move=WHITE)
    spatial = np.full((2, NUM_SPATIAL, 9, 9), 7.0, dtype=np.float32)
    glob = np.full((2, NUM_GLOBAL), 7.0, dtype=np.float32)
    encode_into(game, None, spatial[1], glob[1])
    s, g = encode(game)
    assert np.array_equal(spatial[1], s) and np.array_equal(glob[1], g)
    assert np.all(spatial[0] == 7.0)


# --- KataGo's own features ------------------------------------------------------------------


def replay(spec: dict) -> Game:
    """The game of a reference position, played through Gorilla's rules."""
    game = replay_reference(spec)
    to_move = BLACK if spec["to_move"] == "B" else WHITE
    return game if game.to_move == to_move else game.with_to_move(to_move)


def unpack(bits: str, size: int) -> np.ndarray:
    """A plane from its hex digits (size * size bits, row by row from the top)."""
    raw = np.unpackbits(np.frombuffer(bytes.fromhex(bits), dtype=np.uint8))
    return raw[: size * size].reshape(size, size).astype(np.float32)


def test_features_equal_katagos():
    with gzip.open(DATA, "rt") as f:
        data = json.load(f)
    positions = data["positions"]
    assert len(positions) >= 200
    assert {p["rules"] for p in positions} >= {"chinese", "japanese", "tromp-taylor", "aga", "stone-scoring"}
    wrong = []
    for i, spec in enumerate(positions):
        game = replay(spec)
        spatial, glob = encode(game, NetRules.katago(spec["rules"], spec["komi"]))
        size = spec["size"]
        planes = [
            f for f in range(NUM_SPATIAL) if not np.array_equal(spatial[f], unpack(spec["spatial"][f], size))
        ]
        globs = [j for j in range(NUM_GLOBAL) if abs(float(glob[j]) - spec["global"][j]) > 1e-6]
        if planes or globs:
            wrong.append(f"#{i} {size}x{size} {spec['rules']}: planes {planes} globals {globs}")
    assert not wrong, "\n".join(wrong)
    # the data exercises what matters: ladders, ko and superko bans, areas, passes
    ladders = sum(bool(int(p["spatial"][14], 16)) for p in positions)
    kos = sum(bool(int(p["spatial"][6], 16)) for p in positions)
    areas = sum(bool(int(p["spatial"][18], 16)) for p in positions)
    passes = sum(any(p["global"][:5]) for p in positions)
    assert min(ladders, kos, areas, passes) >= 10


# --- writing the reference data ---------------------------------------------------------------

# KataGo's rules -> the Gorilla ruleset that plays the moves (the same suicide rule and a ko
# rule at least as strict, so that every move is legal for both)
REFERENCE_RULES = {
    "chinese": "chinese",
    "chinese-ogs": "chinese",
    "japanese": "japanese",
    "korean": "japanese",
    "tromp-taylor": "tromp-taylor",
    "aga": "chinese",
    "aga-button": "chinese",
    "new-zealand": "tromp-taylor",
    "goe": "tromp-taylor",
    "stone-scoring": "chinese",
}


def reference_game(rng: random.Random, size: int, rules: str, handicap: int) -> Game:
    """A seeded game: random moves (to the end, eyes kept, or part way with captures and
    ataris preferred so that ladders and kos come up, often stopping on a ko capture), some
    passes, a few double moves."""
    game = Game.new(size, REFERENCE_RULES[rules], rng.choice([7.5, 6.5, 0.5, 7.0, -4.5, 15.5]))
    if handicap:
        from gorilla.rules.handicap import fixed_handicap_points

        game.set_handicap(fixed_handicap_points(size, handicap))
    to_end = rng.random() < 0.3
    length = 3 * size * size if to_end else rng.randint(0, size * size)
    pass_rate = rng.choice([0.0, 0.0, 0.03, 0.15])
    w = size + 2
    for _ in range(length):
        if game.over:
            break
        legal = game.legal_moves(reasonable=True)
        if not legal or rng.random() < pass_rate:
            game.play(PASS)
            continue
        pos = game.position
        if not to_end and rng.random() < 0.7:
            tight = [
                p
                for p in legal
                if any(
                    pos.color_at(q) in (BLACK, WHITE) and pos.liberties(q) <= 2
                    for q in (p - 1, p + 1, p - w, p + w)
                )
            ]
            legal = tight or legal
        color = game.to_move if rng.random() > 0.02 else 3 - game.to_move
        point = rng.choice(legal)
        if game.is_legal(point, color):
            game.play(point, color)
            if not to_end and game.position.ko and rng.random() < 0.5:
                break  # stop on a ko capture: a ko ban on the board
    return game


def write_reference(featdump: str, out: Path, count: int, seed: int) -> None:
    rng = random.Random(seed)
    games, specs, lines = [], [], []
    for _ in range(count):
        size = rng.choice([5, 7, 9, 9, 13, 19, 19])
        rules = rng.choice(list(REFERENCE_RULES))
        handicap = rng.choice([0, 0, 0, 2, 4]) if size >= 9 else 0
        game = reference_game(rng, size, rules, handicap)
        if rng.random() < 0.05:
            game = game.with_to_move(3 - game.to_move)
        komi = float(game.komi)
        spec = {
            "size": size,
            "komi": komi,
            "rules": rules,
            "gorilla_rules": game.ruleset.name,
            "handicap": [format_vertex(p, size) for p in sorted(game.setup)],
            "moves": [["B" if m.color == BLACK else "W", format_vertex(m.point, size)] for m in game.moves],
            "to_move": "B" if game.to_move == BLACK else "W",
        }

        def at(p: int, size: int = size) -> str:
            if p == PASS:
                return "pass"
            x, y = to_xy(p, size)
            return f"{x},{size - 1 - y}"

        setup = " ".join(f"B:{at(p)}" for p in sorted(game.setup))
        moves = " ".join(f"{c}:{at(parse_vertex(x, size))}" for c, x in spec["moves"])
        start = "W" if game.setup else "B"
        lines.append(
            f"pos {size} {komi} {rules} {spec['to_move']} setup {len(game.setup)} {setup} "
            f"init {start} moves {len(spec['moves'])} {moves}\n"
        )
        games.append(game)
        specs.append(spec)
    done = subprocess.run([featdump], input="".join(lines), capture_output=True, text=True, check=True)
    rows = done.stdout.splitlines()
    for k, spec in enumerate(specs):
        block = rows[24 * k : 24 * k + 24]
        assert block[0] == "features"
        spec["spatial"] = [np.packbits([int(ch) for ch in row]).tobytes().hex() for row in block[1:23]]
        spec["global"] = [float(x) for x in block[23].split()]
    out.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(out, "wt") as f:
        json.dump({"source": "KataGo NNInputs::fillRowV7 via featdump.cpp", "positions": specs}, f)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description="write KataGo's features of varied positions")
    ap.add_argument("--featdump", required=True, help="featdump built from data/net_inputs/featdump.cpp")
    ap.add_argument("--count", type=int, default=240)
    ap.add_argument("--seed", type=int, default=36)
    ap.add_argument("-o", "--output", type=Path, default=DATA)
    ns = ap.parse_args()
    write_reference(ns.featdump, ns.output, ns.count, ns.seed)
