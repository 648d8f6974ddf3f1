"""SGF FF[4] save and load: round trips, the main line, passes, results and one-line errors."""

from __future__ import annotations

import random
import subprocess

import pytest
from helpers import assert_board, v

from gorilla.rules.board import BLACK, PASS, RESIGN, WHITE
from gorilla.rules.coords import format_vertex
from gorilla.rules.game import Game
from gorilla.rules.sgf import SgfError, load_sgf, save_sgf, write_sgf


def sample_game() -> Game:
    g = Game.new(9, "japanese", komi=0.5, handicap=2)
    g.info.black_name = "Black ]player["
    g.info.white_name = "Wéi \\ Qi"
    g.info.date = "2026-11-21"
    g.info.comment = "root comment\nsecond line"
    g.play(v("D3", 9), comment="first move")
    g.play(v("E5", 9))
    g.pass_move()
    g.play(v("F4", 9), comment="a [tricky] comment")
    return g


def test_round_trip_keeps_everything() -> None:
    g = sample_game()
    text = save_sgf(g)
    assert text.startswith("(;FF[4]")
    for prop in ("GM[1]", "SZ[9]", "KM[0.5]", "RU[Japanese]", "HA[2]", "PL[W]", "DT[2026-11-21]", "W[tt]"):
        assert prop in text, prop
    h = load_sgf(text)
    assert (h.size, h.ruleset.name, h.komi, h.handicap) == (9, "japanese", 0.5, 2)
    assert h.setup == g.setup
    assert h.positions[0].to_move == WHITE
    assert h.moves == g.moves
    assert h.info == g.info
    assert h.position == g.position
    assert h.position.hash == g.position.hash


def test_resignation_is_recorded_in_re_not_as_a_move() -> None:
    g = sample_game()
    g.resign(BLACK)
    text = save_sgf(g)
    assert "RE[W+R]" in text
    assert text.count(";") == 1 + 4  # root and four moves (one a pass), no node for the resignation
    h = load_sgf(text)
    assert h.result == "W+R" and h.over and h.end_reason == "resign"
    assert h.moves == g.moves
    h.undo()  # the resignation can be taken back like a move
    assert not h.over and h.result is None


def test_counted_result_round_trips_and_is_dropped_when_the_record_changes() -> None:
    g = Game.new(5, "chinese", komi=7.5)
    g.pass_move()
    g.pass_move()
    assert g.result == "W+7.5"
    h = load_sgf(save_sgf(g))
    assert "RE[W+7.5]" in save_sgf(g)
    assert h.over and h.result == "W+7.5"
    # a recorded result from another program is kept as given ...
    other = load_sgf("(;GM[1]FF[4]SZ[5]KM[0.5]RE[B+12.5];B[cc];W[])")
    assert other.result == "B+12.5"
    # ... until the record changes
    other.undo()
    assert other.result is None


def test_time_loss_result_is_kept() -> None:
    h = load_sgf("(;SZ[9]RE[B+T];B[ee])")
    assert h.result == "B+T"
    assert "RE[B+T]" in save_sgf(h)


def test_passes_on_big_boards_are_empty_values() -> None:
    g = Game.new(21, "chinese")
    g.play(v("U2", 21))  # the point 'tt' on a 21x21 board is a real move
    g.pass_move()
    text = save_sgf(g)
    assert ";B[tt]" in text and ";W[]" in text
    h = load_sgf(text)
    assert [m.point for m in h.moves] == [v("U2", 21), PASS]


@pytest.mark.parametrize("pass_value", ["", "tt"])
def test_both_pass_forms_load_on_19x19(pass_value: str) -> None:
    h = load_sgf(f"(;GM[1]SZ[19];B[pd];W[{pass_value}];B[dp])")
    assert [m.point for m in h.moves] == [v("Q16", 19), PASS, v("D4", 19)]


def test_main_line_of_variations_and_comment_nodes() -> None:
    h = load_sgf("(;SZ[9]C[root];B[ee]C[one](;W[cc]C[main];C[extra])(;W[gg]C[side]))")
    assert [format_vertex(m.point, 9) for m in h.moves] == ["E5", "C7"]
    assert [m.comment for m in h.moves] == ["one", "main\n\nextra"]
    assert h.info.comment == "root"


def test_setup_in_nodes_before_the_first_move_and_player_to_move() -> None:
    h = load_sgf("(;SZ[5]AB[aa][bb];AW[cc]AE[bb]PL[W];W[dd])")
    assert h.setup == {v("A5", 5): BLACK, v("C3", 5): WHITE}
    assert h.moves[0].color == WHITE


def test_captures_are_replayed() -> None:
    # Black captures the White stone at A1 with B2..., B1 and A2 around it
    h = load_sgf("(;SZ[5]KM[0];W[ae];B[be];W[cc];B[ad])")
    assert h.position.color_at(v("A1", 5)) == 0
    assert h.captures(BLACK) == 1
    assert h.moves[-1].captures == 1


def test_superko_is_refused_under_chinese_but_not_japanese() -> None:
    # 2x2: B A2, W B1, B B2, W A1 takes two, B A2, W B2 takes one, B A2 takes three:
    # the board is back to "Black A2 alone", as after move 1
    record = "(;SZ[2]RU[{}];B[aa];W[bb];B[ba];W[ab];B[aa];W[ba];B[aa])"
    h = load_sgf(record.format("Japanese"))
    assert_board(h, "X.\n..")
    assert h.moves[-1].captures == 3
    with pytest.raises(SgfError) as err:
        load_sgf(record.format("Chinese"))
    assert str(err.value) == "SGF: illegal move B[aa] at move 7 (superko)"


def test_unknown_rules_fall_back_to_chinese_with_a_note() -> None:
    notes: list[str] = []
    h = load_sgf("(;SZ[9]RU[Martian];B[ee])", notes)
    assert h.ruleset.name == "chinese"
    assert notes == ["SGF: unknown rules RU[Martian], playing chinese rules"]
    assert load_sgf("(;SZ[9]RU[NZ])").ruleset.name == "tromp-taylor"
    assert load_sgf("(;SZ[9]RU[tromp-taylor])").ruleset.suicide
    assert load_sgf("(;SZ[5]RU[Little-Go])").ruleset.name == "little-go"


def test_missing_komi_is_zero_and_defaults_are_chinese() -> None:
    h = load_sgf("(;SZ[13])")
    assert (h.size, h.komi, h.ruleset.name, h.to_move) == (13, 0.0, "chinese", BLACK)
    assert load_sgf("(;)").size == 19


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("(;GM[2]SZ[8])", "SGF: not a Go game (GM[2])"),
        ("(;SZ[30])", "SGF: board size 30 is not supported"),
        ("(;SZ[26])", "SGF: board size 26 is not supported (only 2..25)"),
        ("(;SZ[1])", "SGF: board size 1 is not supported (only 2..25)"),
        ("(;SZ[19:13])", "SGF: board size 19:13 is not supported (only square boards)"),
        ("(;SZ[9];B[ee];W[ee])", "SGF: illegal move W[ee] at move 2 (occupied)"),
        ("(;SZ[9];B[ee];W[zz])", "SGF: bad move W[zz] at move 2"),
        ("(;SZ[9];B[e])", "SGF: bad move B[e] at move 1"),
        ("(;SZ[9]KM[lots])", "SGF: bad komi KM[lots]"),
        ("(;SZ[9]HA[1])", "SGF: bad handicap HA[1]"),
        ("(;SZ[9]AB[aa]AW[aa])", "SGF: setup point A9 is both AB and AW"),
        ("(;SZ[9]AB[ab][ba]AW[aa])", "SGF: bad setup stones (setup stone at A9 would have no liberties)"),
        (
            "(;SZ[9];B[aa];AW[bb])",
            "SGF: setup stones (AB/AW/AE) after the first move are not supported (node 2)",
        ),
        ("(;SZ[9]B[aa]W[bb])", "SGF: node 0 has both a black and a white move"),
        ("(;SZ[9];B[aa]", "SGF: parse error: unexpected end of SGF data"),
        ("just words\nand more", "SGF: parse error: no SGF data found"),
        ("", "SGF: empty file"),
        ("(;SZ[5]RU[Little-Go]" + "".join(";B[];W[]" for _ in range(1)) + ";B[aa])", None),
    ],
)
def test_broken_sgf_gives_one_clear_line(data: str, message: str | None) -> None:
    with pytest.raises(SgfError) as err:
        load_sgf(data)
    text = str(err.value)
    assert "\n" not in text and text.startswith("SGF: ")
    if message is not None:
        assert text == message
    assert isinstance(err.value, ValueError)


def test_moves_after_the_game_ended_are_refused() -> None:
    with pytest.raises(SgfError, match=r"^SGF: illegal move B\[aa\] at move 3 \(game is over\)$"):
        load_sgf("(;SZ[5];B[];W[];B[aa])")


def test_files_read_and_write(tmp_path) -> None:  # noqa: ANN001
    g = sample_game()
    path = tmp_path / "game.sgf"
    write_sgf(g, path)
    assert load_sgf(path).moves == g.moves
    assert load_sgf(str(path)).moves == g.moves
    assert load_sgf(path.read_bytes()).moves == g.moves
    with pytest.raises(SgfError, match=r"^SGF: cannot read '.*missing.sgf': No such file or directory$"):
        load_sgf(tmp_path / "missing.sgf")
    with pytest.raises(SgfError, match=r"^SGF: cannot read"):
        load_sgf(tmp_path)


def test_latin1_file_without_charset() -> None:
    h = load_sgf(b"(;SZ[9]PB[J\xf6rg]C[caf\xe9])")
    assert h.info.black_name == "Jörg" and h.info.comment == "café"
    assert load_sgf(save_sgf(h)).info.black_name == "Jörg"


def random_game(seed: int, size: int, handicap: int = 0) -> Game:
    rng = random.Random(seed)
    g = Game.new(size, "chinese", komi=6.5, handicap=handicap)
    while not g.over and g.move_number < size * size * 2:
        moves = g.legal_moves(reasonable=True)
        g.play(rng.choice(moves) if moves and rng.random() > 0.02 else PASS)
    return g


@pytest.mark.gnugo
def test_gnugo_loads_our_sgf_to_the_same_position(gnugo_path: str, tmp_path) -> None:  # noqa: ANN001
    for seed, size, handicap in ((1, 9, 0), (2, 9, 3), (3, 13, 0)):
        g = random_game(seed, size, handicap)
        assert sum(m.captures for m in g.moves) > 0  # the record has captures to get right
        path = tmp_path / f"g{seed}.sgf"
        write_sgf(g, path)
        script = (
            f"loadsgf {path}\nlist_stones black\nlist_stones white\ncaptures black\ncaptures white\nquit\n"
        )
        out = subprocess.run(
            [gnugo_path, "--mode", "gtp"], input=script, capture_output=True, text=True, timeout=60
        ).stdout
        answers = [a.strip() for a in out.split("\n\n") if a.strip()]
        assert all(a.startswith("=") for a in answers), answers
        black, white = (set(a[1:].split()) for a in answers[1:3])
        assert black == {format_vertex(p, size) for p in g.position.stones(BLACK)}
        assert white == {format_vertex(p, size) for p in g.position.stones(WHITE)}
        assert int(answers[3][1:]) == g.captures(BLACK)
        assert int(answers[4][1:]) == g.captures(WHITE)


def test_resign_constant_is_never_written() -> None:
    g = Game.new(9)
    g.play(RESIGN, WHITE)
    text = save_sgf(g)
    assert "RE[B+R]" in text and text.count(";") == 1
