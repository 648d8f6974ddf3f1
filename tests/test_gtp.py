"""GTP engine, in process: protocol details, every command, and state unchanged after errors."""

from __future__ import annotations

import os
import threading
import time
from typing import BinaryIO

import numpy as np
import pytest

from gorilla.ai.agent import Agent
from gorilla.ai.random_agent import RandomAgent
from gorilla.gtp import analysis, commands, kata_analysis
from gorilla.gtp import net as net_commands
from gorilla.gtp.main import make_engine as wire_engine
from gorilla.gtp.protocol import GtpEngine, GtpError, Streaming, body, preprocess
from gorilla.rules.board import BLACK, PASS, RESIGN, WHITE
from gorilla.rules.coords import parse_vertex
from gorilla.rules.game import Game
from gorilla.rules.sgf import save_sgf


def make_engine(size: int = 9, rules: str = "chinese", agent: Agent | None = None) -> GtpEngine:
    return wire_engine(Game.new(size, rules), agent or RandomAgent(seed=7), with_analysis=False)


def ok(engine: GtpEngine, line: str) -> str:
    resp = engine.execute(line)
    assert resp is not None and resp.startswith("="), f"{line!r} -> {resp!r}"
    assert resp.endswith("\n\n")
    return resp[1:].split(" ", 1)[1].rstrip("\n") if " " in resp.split("\n")[0] else resp[1:].strip()


def err(engine: GtpEngine, line: str) -> str:
    resp = engine.execute(line)
    assert resp is not None and resp.startswith("?"), f"{line!r} -> {resp!r}"
    assert resp.endswith("\n\n") and resp.count("\n") == 2
    return resp.split(" ", 1)[1].strip()


def assert_refused(engine: GtpEngine, line: str, message: str) -> None:
    """The engine answers line with the error message and changes nothing."""
    before = snapshot(engine)
    assert err(engine, line) == message
    assert snapshot(engine) == before


def snapshot(engine: GtpEngine) -> tuple:
    g = engine.game
    pos = g.position
    return (
        g.size,
        g.komi,
        g.ruleset,
        tuple(g.moves),
        len(g.positions),
        pos.b.tobytes(),
        pos.st.tobytes(),
        dict(g.setup),
        g.handicap,
        g.resigned,
        tuple(engine.commands),
    )


# --- protocol ---------------------------------------------------------------------------


def test_preprocess_comments_control_characters_and_tabs() -> None:
    assert preprocess("play\tb\tD4 # a comment") == "play b D4"
    assert preprocess("# only a comment") == ""
    assert preprocess("  \t \r") == ""
    assert preprocess("na\x01m\x7fe\r") == "name"


def test_ids_are_echoed_on_success_and_failure() -> None:
    e = make_engine()
    assert e.execute("17 name") == "=17 Gorilla\n\n"
    assert e.execute("18 frobnicate") == "?18 unknown command\n\n"
    assert e.execute("19 clear_board") == "=19\n\n"
    assert e.execute("name") == "= Gorilla\n\n"


def test_blank_and_comment_lines_get_no_response() -> None:
    e = make_engine()
    for line in ("", "\n", "   \t  ", "# comment", "   # indented comment", "\x00\x01\n"):
        assert e.execute(line) is None


def test_command_names_are_case_sensitive_colours_and_vertices_not() -> None:
    e = make_engine()
    assert err(e, "PLAY b D4") == "unknown command"
    assert err(e, "Name") == "unknown command"
    ok(e, "play B d4")
    ok(e, "play WHITE E5")
    ok(e, "play w PASS")
    assert ok(e, "list_stones BLACK") == "D4"


def test_protocol_version_name_version_known_and_list_commands() -> None:
    e = make_engine()
    assert ok(e, "protocol_version") == "2"
    assert ok(e, "name") == "Gorilla"
    assert ok(e, "version")
    assert ok(e, "known_command play") == "true"
    assert ok(e, "known_command PLAY") == "false"
    assert ok(e, "known_command lz-nonsense") == "false"
    listed = e.execute("list_commands").split("\n")
    listed[0] = listed[0][2:]
    listed = [x for x in listed if x]
    required = [
        "protocol_version",
        "name",
        "version",
        "known_command",
        "list_commands",
        "quit",
        "boardsize",
        "clear_board",
        "komi",
        "play",
        "genmove",
        "undo",
        "showboard",
        "final_score",
        "final_status_list",
        "fixed_handicap",
        "place_free_handicap",
        "set_free_handicap",
        "loadsgf",
        "printsgf",
        "time_settings",
        "time_left",
        "reg_genmove",
        "is_legal",
        "all_legal",
        "list_stones",
        "captures",
        "gorilla-control_map",
        "gorilla-evaluate",
        "gorilla-classic_score",
    ]
    assert set(required) <= set(listed)
    assert listed == list(e.commands)


def test_quit_answers_and_stops() -> None:
    e = make_engine()
    assert e.execute("5 quit") == "=5\n\n"
    assert e.quit


def test_multiline_responses_never_contain_an_empty_line() -> None:
    assert body("a\n\nb\n\n\nc\n") == "a\nb\nc"
    e = make_engine()
    resp = e.execute("showboard")
    assert "\n\n" not in resp[:-2]
    assert "A B C D E F G H J" in resp


# --- errors leave the state alone ----------------------------------------------------------

BAD_LINES = [
    ("frobnicate", "unknown command"),
    ("play", "syntax error"),
    ("play b", "syntax error"),
    ("play b D4 extra", "syntax error"),
    ("play x D4", "syntax error"),
    ("play black Z4", "syntax error"),
    ("play black I4", "syntax error"),
    ("play black D0", "syntax error"),
    ("play black K10", "syntax error"),
    ("play black D", "syntax error"),
    ("play black resign", "syntax error"),
    ("play black C3", "illegal move"),  # occupied
    ("play white A1", "illegal move"),  # suicide
    ("play white B2", "illegal move"),  # ko retake
    ("boardsize 1", "unacceptable size"),
    ("boardsize 26", "unacceptable size"),
    ("boardsize nine", "syntax error"),
    ("boardsize", "syntax error"),
    ("komi", "syntax error"),
    ("komi abc", "syntax error"),
    ("komi nan", "syntax error"),
    ("genmove", "syntax error"),
    ("genmove purple", "syntax error"),
    ("reg_genmove", "syntax error"),
    ("fixed_handicap 4", "board not empty"),
    ("place_free_handicap 3", "board not empty"),
    ("set_free_handicap D4 E5", "board not empty"),
    ("final_status_list zombie", "syntax error"),
    ("is_legal black", "syntax error"),
    ("is_legal black Z99", "syntax error"),
    ("all_legal", "syntax error"),
    ("list_stones green", "syntax error"),
    ("captures", "syntax error"),
    ("loadsgf", "syntax error"),
    ("loadsgf /nonexistent/file.sgf", "cannot load file"),
    ("loadsgf game.sgf zero", "syntax error"),
    ("loadsgf /dev/zero", "cannot load file"),
    ("loadsgf /tmp", "cannot load file"),
    ("printsgf /dev/full", "cannot save file"),
    ("komi 1e400", "syntax error"),
    ("boardsize 99999999999999999999999", "unacceptable size"),
    ("printsgf /nonexistent/dir/out.sgf", "cannot save file"),
    ("time_settings 10 5", "syntax error"),
    ("time_settings a b c", "syntax error"),
    ("time_settings -1 5 1", "syntax error"),
    ("time_left black 10", "syntax error"),
    ("time_left blue 10 0", "syntax error"),
    ("known_command", "syntax error"),
    ("123", "syntax error"),
]


KO_SETUP = ("b B1", "w C1", "b A2", "w D2", "b B3", "w C3", "b E5", "w B2", "b C2")


def ko_engine() -> GtpEngine:
    """5x5: Black has just taken a ko at C2 (White may not retake B2); White A1 is suicide."""
    e = make_engine(5)
    for mv in KO_SETUP:
        ok(e, f"play {mv}")
    assert ok(e, "captures black") == "1"
    return e


@pytest.mark.parametrize(("line", "message"), BAD_LINES)
def test_bad_line_answers_error_and_leaves_state_unchanged(line: str, message: str) -> None:
    e = ko_engine()
    assert_refused(e, line, message)


# --- the commands ----------------------------------------------------------------------------


def test_play_captures_list_stones_and_undo() -> None:
    e = ko_engine()
    assert set(ok(e, "list_stones black").split()) == {"B1", "A2", "B3", "E5", "C2"}
    assert set(ok(e, "list_stones white").split()) == {"C1", "D2", "C3"}
    assert ok(e, "captures black") == "1" and ok(e, "captures white") == "0"
    ok(e, "undo")
    assert set(ok(e, "list_stones white").split()) == {"C1", "D2", "C3", "B2"}
    assert ok(e, "captures black") == "0"
    ok(e, "play b C2")
    assert ok(e, "is_legal white B2") == "0"
    ok(e, "play white E4")  # a ko threat elsewhere lifts the ko
    ok(e, "play black E3")
    assert ok(e, "is_legal white B2") == "1"
    ok(e, "play white B2")
    assert "C2" not in ok(e, "list_stones black").split()


def test_is_legal_and_all_legal_know_ko_suicide_and_occupied() -> None:
    e = ko_engine()
    assert ok(e, "is_legal white B2") == "0"
    assert ok(e, "is_legal white A1") == "0"
    assert ok(e, "is_legal white C3") == "0"
    assert ok(e, "is_legal black A1") == "1"
    assert ok(e, "is_legal w pass") == "1"
    legal_w = set(ok(e, "all_legal white").split())
    assert {"B2", "A1", "C3"}.isdisjoint(legal_w)
    assert {"D4", "E1", "A5"} <= legal_w
    assert len(legal_w) == 25 - 8 - 2


def test_undo_until_empty_then_cannot_undo() -> None:
    e = make_engine()
    ok(e, "play b D4")
    ok(e, "play w pass")
    ok(e, "undo")
    ok(e, "undo")
    assert_refused(e, "undo", "cannot undo")


def test_play_continues_after_two_passes_and_after_resignation() -> None:
    e = make_engine()
    ok(e, "play b pass")
    ok(e, "play w pass")
    assert e.game.over
    assert ok(e, "is_legal b D4") == "1"
    ok(e, "play b D4")  # GTP has no game end; GNU Go accepts this too
    assert ok(e, "list_stones b") == "D4"
    e.game.resign(WHITE)
    ok(e, "play w E5")
    assert not e.game.resigned and ok(e, "list_stones w") == "E5"


class ScriptedAgent(Agent):
    name = "scripted"

    def __init__(self, moves: list[int]) -> None:
        self.moves = list(moves)
        self.seen: list[tuple[int, int]] = []
        self.calls: list[tuple] = []

    def select_move(self, game, budget=None, cancel=None, progress=None) -> int:
        self.seen.append((game.to_move, game.move_number))
        return self.moves.pop(0)

    def set_time(self, main_time, byo_yomi_time, byo_yomi_stones) -> None:
        self.calls.append(("set_time", main_time, byo_yomi_time, byo_yomi_stones))

    def time_left(self, color, seconds, stones) -> None:
        self.calls.append(("time_left", color, seconds, stones))

    def new_game(self) -> None:
        self.calls.append(("new_game",))


def test_genmove_plays_the_agents_move_for_the_asked_colour() -> None:
    agent = ScriptedAgent([parse_vertex("E5", 9), parse_vertex("C3", 9), PASS])
    e = make_engine(agent=agent)
    assert ok(e, "genmove w") == "E5"  # White asked although Black is to move
    assert agent.seen[-1] == (WHITE, 0)
    assert ok(e, "list_stones white") == "E5"
    assert e.game.to_move == BLACK
    assert ok(e, "reg_genmove black") == "C3"
    assert ok(e, "list_stones black") == ""  # reg_genmove does not play
    assert ok(e, "genmove b") == "pass"
    assert e.game.moves[-1].point == PASS


def test_genmove_never_plays_an_illegal_move_of_a_broken_agent() -> None:
    e = make_engine(agent=ScriptedAgent([parse_vertex("D4", 9), parse_vertex("D4", 9)]))
    assert ok(e, "genmove b") == "D4"
    v = ok(e, "genmove w")
    assert v != "D4" and v in ok(e, "list_stones w").split()


def test_genmove_resign_and_genmove_after_the_game_ended() -> None:
    e = make_engine(agent=ScriptedAgent([RESIGN]))
    assert ok(e, "genmove w") == "resign"
    assert e.game.resigned == WHITE and e.game.result == "B+R"
    e2 = make_engine(agent=ScriptedAgent([]))  # it would fail if asked
    ok(e2, "play b pass")
    ok(e2, "play w pass")
    before = snapshot(e2)
    assert ok(e2, "genmove b") == "pass"
    assert snapshot(e2) == before


def test_random_genmove_game_to_the_end_with_only_legal_moves() -> None:
    e = make_engine(7)
    color = "b"
    for _ in range(200):
        ok(e, f"genmove {color}")
        if e.game.over:
            break
        color = "w" if color == "b" else "b"
    assert e.game.over
    assert ok(e, "genmove b") == "pass"
    assert e.game.replay().position == e.game.position


def test_time_settings_and_time_left_reach_the_agent() -> None:
    agent = ScriptedAgent([])
    e = make_engine(agent=agent)
    ok(e, "time_settings 300 30 5")
    ok(e, "time_left white 123.5 3")
    assert ("set_time", 300, 30, 5) in agent.calls
    assert ("time_left", WHITE, 123.5, 3) in agent.calls
    ok(e, "clear_board")
    assert agent.calls[-1] == ("new_game",)


def test_boardsize_clear_board_and_komi() -> None:
    e = make_engine()
    ok(e, "komi 0.5")
    ok(e, "play b D4")
    ok(e, "boardsize 13")
    assert e.size == 13 and e.game.move_number == 0 and e.komi == 0.5
    ok(e, "play b N13")
    ok(e, "clear_board")
    assert ok(e, "list_stones b") == "" and e.komi == 0.5 and e.size == 13
    ok(e, "boardsize 25")
    ok(e, "play w Z25")
    ok(e, "boardsize 2")
    ok(e, "play b A1")
    ok(e, "play w B2")
    ok(e, "play b B1")
    ok(e, "play w A2")  # captures A1 B1 on the 2x2 board
    assert ok(e, "list_stones b") == "" and ok(e, "captures w") == "2"
    ok(e, "play b A1")
    ok(e, "play b B1")  # fills White's last liberties: captures A2 B2, not suicide
    assert ok(e, "list_stones w") == "" and ok(e, "captures b") == "2"
    ok(e, "komi -3")
    assert e.komi == -3.0


def test_fixed_handicap_matches_the_gtp_placement() -> None:
    e = make_engine(19)
    assert set(ok(e, "fixed_handicap 9").split()) == set(
        ["D4", "Q16", "D16", "Q4", "D10", "Q10", "K4", "K16", "K10"]
    )
    assert e.game.to_move == WHITE and e.game.handicap == 9
    e = make_engine(19)
    assert set(ok(e, "fixed_handicap 2").split()) == {"D4", "Q16"}
    assert set(ok(make_engine(19), "fixed_handicap 5").split()) == {"D4", "Q16", "D16", "Q4", "K10"}
    for size, n in ((19, 1), (19, 10), (19, 0), (8, 5), (5, 2), (9, -2)):
        e = make_engine(size)
        assert_refused(e, f"fixed_handicap {n}", "invalid number of stones")


def test_place_free_and_set_free_handicap() -> None:
    for size, n in ((19, 4), (19, 13), (9, 9), (5, 3), (3, 8)):
        e = make_engine(size)
        stones = ok(e, f"place_free_handicap {n}").split()
        assert len(set(stones)) == n
        assert set(ok(e, "list_stones black").split()) == set(stones)
        assert e.game.to_move == WHITE
    for bad in ("1", "0", "9"):
        e = make_engine(3)
        assert err(e, f"place_free_handicap {bad}") == "invalid number of stones"
    e = make_engine(9)
    for line, msg in (
        ("set_free_handicap D4 D4", "bad vertex list"),
        ("set_free_handicap D4 Z9", "bad vertex list"),
        ("set_free_handicap D4 pass", "bad vertex list"),
        ("set_free_handicap D4", "invalid number of stones"),
        ("set_free_handicap", "invalid number of stones"),
    ):
        assert_refused(e, line, msg)
    ok(e, "set_free_handicap C3 G7 E5")
    assert set(ok(e, "list_stones b").split()) == {"C3", "G7", "E5"}
    assert err(e, "set_free_handicap A1 B1") == "board not empty"


def test_showboard_draws_the_position() -> None:
    e = ko_engine()
    text = e.execute("showboard")
    rows = {line.split()[0]: line for line in text.splitlines()[1:] if line.strip()[:1].isdigit()}
    assert rows["2"].replace("(", " ").replace(")", " ").split()[1:6] == ["X", ".", "X", "O", "."]
    assert "Black has captured 1" in text


def test_final_score_and_status_on_a_settled_board() -> None:
    e = make_engine(5)
    ok(e, "komi 0.5")
    for y in range(1, 6):
        ok(e, f"play b C{y}")
        ok(e, f"play w D{y}")
    assert ok(e, "final_score") == "B+4.5"
    alive = set(ok(e, "final_status_list alive").split())
    assert alive == {f"C{y}" for y in range(1, 6)} | {f"D{y}" for y in range(1, 6)}
    assert ok(e, "final_status_list dead") == ""
    assert ok(e, "final_status_list seki") == ""


def test_seki_stones_found_and_dame_is_not_seki() -> None:
    from gorilla.ai.tactics import seki_stones
    from gorilla.rules.position import Position

    pos = Position.from_diagram(
        """
        .......
        OOOOO..
        XXXXO..
        .O.XO..
        XXXXO..
        OOOOO..
        .......
        """
    )
    seki = seki_stones(pos)
    black = set(pos.stones(BLACK))
    assert black <= set(seki)
    assert parse_vertex("B4", 7) in seki
    assert parse_vertex("E4", 7) not in seki
    settled = Position.from_diagram(
        """
        ..XO.
        ..XO.
        ..X.O
        ..XO.
        ..XO.
        """
    )
    assert seki_stones(settled) == []


def test_printsgf_and_loadsgf_with_move_number(tmp_path) -> None:
    e = make_engine()
    ok(e, "komi 6.5")
    moves = ["b D4", "w E5", "b C3", "w pass", "b G7"]
    for mv in moves:
        ok(e, f"play {mv}")
    text = e.execute("printsgf")
    assert text.startswith("= (;") and "SZ[9]" in text and "KM[6.5]" in text
    path = tmp_path / "g.sgf"
    ok(e, f"printsgf {path}")
    assert path.read_text().startswith("(;")
    e2 = make_engine(19)
    ok(e2, f"loadsgf {path}")
    assert e2.size == 9 and e2.komi == 6.5 and e2.game.move_number == 5
    assert e2.game.position == e.game.position
    ok(e2, f"loadsgf {path} 3")  # the position before move 3
    assert e2.game.move_number == 2
    assert set(ok(e2, "list_stones b").split()) == {"D4"} and ok(e2, "list_stones w") == "E5"
    ok(e2, "play b C3")
    broken = tmp_path / "broken.sgf"
    broken.write_bytes(b"(;SZ[9];B[dd];W[dd])")
    assert_refused(e2, f"loadsgf {broken}", "cannot load file")


def test_loadsgf_keeps_handicap_setup(tmp_path) -> None:
    g = Game.new(9, handicap=3)
    g.play(parse_vertex("E5", 9))
    path = tmp_path / "h.sgf"
    path.write_text(save_sgf(g))
    e = make_engine()
    ok(e, f"loadsgf {path}")
    assert set(ok(e, "list_stones b").split()) == {"C3", "G7", "C7"}
    assert ok(e, "list_stones w") == "E5"


# --- extensions and the registry -------------------------------------------------------------


def test_control_map_command_gives_rows_with_the_documented_sign() -> None:
    pytest.importorskip("gorilla.ai.control_map")
    e = make_engine()
    ok(e, "play b C3")
    ok(e, "play w G7")
    rows = [list(map(float, r.split())) for r in ok(e, "gorilla-control_map").strip().splitlines()]
    assert len(rows) == 9 and all(len(r) == 9 for r in rows)
    assert all(-1.0 <= v <= 1.0 for r in rows for v in r)
    assert rows[9 - 3][2] < 0 < rows[9 - 7][6]  # C3 Black (negative), G7 White (positive)


def test_classic_score_counts_the_control_map() -> None:
    from gorilla.ai.control_map import classic_score

    e = make_engine(5)
    assert ok(e, "gorilla-classic_score") == "W+7.5"  # an empty board: komi only
    for mv in ("b C3", "w B2", "b D2"):
        ok(e, f"play {mv}")
    margin = classic_score(e.game.position, 7.5)
    expected = "0" if margin == 0 else ("B+" if margin > 0 else "W+") + f"{abs(margin):g}"
    assert ok(e, "gorilla-classic_score") == expected
    assert e.execute("gorilla-classic_score extra").startswith("? ")


def test_evaluate_command_lists_moves_and_the_best() -> None:
    pytest.importorskip("gorilla.ai.evaluator")
    e = make_engine(5)
    lines = ok(e, "gorilla-evaluate flat 2 2").splitlines()
    assert lines[0].startswith("best ")
    best = lines[0].split()[1]
    vals = [ln.split() for ln in lines[1:]]
    assert len(vals) == 25 and best in {v[0] for v in vals}
    assert all(0.0 <= float(v[1]) <= 1.0 for v in vals)


def test_register_adds_commands_and_handler_errors_are_answers() -> None:
    e = make_engine()

    def echo(engine: GtpEngine, args: list[str]) -> str:
        if not args:
            raise GtpError("nothing to echo")
        return " ".join(args)

    def broken(engine: GtpEngine, args: list[str]) -> str:
        raise RuntimeError("boom")

    e.register("echo", echo)
    e.register("broken", broken)
    assert ok(e, "known_command echo") == "true"
    assert ok(e, "3 echo a  b") == "a b"
    assert e.execute("4 echo") == "?4 nothing to echo\n\n"
    assert e.execute("5 broken").startswith("?5 internal error: RuntimeError: boom")
    assert ok(e, "name") == "Gorilla"
    with pytest.raises(ValueError):
        e.register("two words", echo)


def test_the_protocol_core_knows_no_command_and_the_wiring_registers_both_sets() -> None:
    bare = GtpEngine(Game.new(9), RandomAgent(seed=1))
    assert bare.commands == {}
    assert err(bare, "name") == "unknown command"
    e = wire_engine(Game.new(9), RandomAgent(seed=1))
    analysing = set(analysis.COMMANDS) | set(kata_analysis.COMMANDS) | set(net_commands.COMMANDS)
    assert set(e.commands) == set(commands.COMMANDS) | analysing
    assert {"lz-analyze", "kata-analyze", "kata-raw-nn"} <= set(ok(e, "list_commands").split())
    plain = wire_engine(Game.new(9), RandomAgent(seed=1), with_analysis=False)
    assert not analysing & set(plain.commands) and "genmove" in plain.commands


# --- streaming responses -------------------------------------------------------------------------


def streaming_ticks(engine: GtpEngine, args: list[str]) -> Streaming:
    def run(stop: threading.Event, write) -> str:
        n = 0
        while not stop.is_set():
            n += 1
            write(f"info tick {n}\n")
            stop.wait(0.01)
        return f"play D4 after {n}"

    return Streaming(run)


def ticking_engine() -> GtpEngine:
    """An engine with the streaming command ``ticks``."""
    e = make_engine()
    e.register("ticks", streaming_ticks)
    return e


def run_on_pipes(engine: GtpEngine) -> tuple[BinaryIO, BinaryIO, BinaryIO, threading.Thread]:
    """Start ``engine.run`` on a thread between two pipes.

    Returns the write end of its input, the read end of its output, the write
    end of its output (the engine's own) and the thread.
    """
    rin, win = os.pipe()
    rout, wout = os.pipe()
    fin, fin_w = os.fdopen(rin, "rb", buffering=0), os.fdopen(win, "wb", buffering=0)
    fout_r, fout = os.fdopen(rout, "rb", buffering=0), os.fdopen(wout, "wb", buffering=0)
    t = threading.Thread(target=engine.run, args=(fin, fout), daemon=True)
    t.start()
    return fin_w, fout_r, fout, t


def test_streaming_command_runs_until_the_next_line_arrives() -> None:
    fin_w, reader, _, t = run_on_pipes(ticking_engine())
    fin_w.write(b"7 ticks\n")
    head = reader.readline()
    assert head == b"=7\n"
    first = reader.readline()
    second = reader.readline()
    assert first == b"info tick 1\n" and second.startswith(b"info tick")
    time.sleep(0.05)
    fin_w.write(b"# a comment does not stop it\n\n")
    time.sleep(0.05)
    fin_w.write(b"8 name\n")
    rest = b""
    while not rest.endswith(b"=8 Gorilla\n\n"):
        chunk = reader.read(4096)
        assert chunk
        rest += chunk
    lines = rest.decode().split("\n")
    ticks = [ln for ln in lines if ln.startswith("info tick")]
    assert len(ticks) >= 5  # it kept running through the comment and blank lines
    tail = lines[len(ticks)]
    assert tail.startswith("play D4 after ")
    assert lines[len(ticks) + 1] == ""  # the empty line that ends the streamed response
    assert lines[len(ticks) + 2] == "=8 Gorilla"
    fin_w.write(b"quit\n")
    assert reader.read(4096) == b"=\n\n"
    t.join(5)
    assert not t.is_alive()


def test_streaming_command_stops_at_end_of_input() -> None:
    fin_w, fout_r, fout, t = run_on_pipes(ticking_engine())
    fin_w.write(b"ticks\n")
    assert fout_r.readline() == b"=\n"
    time.sleep(0.05)
    fin_w.close()
    t.join(5)
    assert not t.is_alive()
    fout.close()
    out = fout_r.read().decode()
    assert out.endswith("\n\n") and "play D4 after" in out


def test_streaming_in_execute_stops_at_once() -> None:
    e = ticking_engine()
    assert e.execute("3 ticks") == "=3\nplay D4 after 0\n\n"


def test_no_game_state_shared_with_the_agent() -> None:
    class Peeker(Agent):
        def select_move(self, game, budget=None, cancel=None, progress=None) -> int:
            game.play(parse_vertex("A1", 9))  # a misbehaving agent mutating its view
            return PASS

    e = make_engine(agent=Peeker())
    ok(e, "play b E5")
    ok(e, "genmove b")  # White is to move; the agent gets a copy with Black to move
    assert ok(e, "list_stones b") == "E5"
    assert np.count_nonzero(e.game.position.grid()) == 1
