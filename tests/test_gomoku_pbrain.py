"""The Gomocup protocol: in-process state checks, a full game script through a pipe with every
command, malformed lines, an out-of-range BOARD, END exiting at once while thinking (after
answering the commands before it otherwise),
and matches between built-in agents (and broken engines) through the referee."""

from __future__ import annotations

import sys
import time

import pytest

from gorilla.gomoku import rules as R
from gorilla.gomoku.pbrain import ABOUT, Brain, rule_from_bitmask
from gorilla.gomoku.referee import PBrain, play_game

BRAIN = [sys.executable, "-m", "gorilla", "pbrain"]


def brain(agent: str = "threat1") -> tuple[Brain, list[str]]:
    out: list[str] = []
    b = Brain(agent, out=out.append)
    return b, out


def feed(b: Brain, out: list[str], *lines: str) -> list[str]:
    out.clear()
    for ln in lines:
        b.handle(ln)
    return list(out)


def test_start_begin_turn_and_errors_change_nothing():
    b, out = brain()
    assert feed(b, out, "BEGIN")[0].startswith("ERROR")
    assert feed(b, out, "START 15") == ["OK"]
    assert feed(b, out, "BEGIN") == ["7,7"]
    reply = feed(b, out, "TURN 8,8")
    x, y = (int(t) for t in reply[0].split(","))
    before = b.game.diagram()
    for bad in (
        "TURN 7,7",
        "TURN 15,3",
        "TURN -1,0",
        "TURN a,b",
        "TURN 3",
        "START 4",
        "START x",
        "RECTSTART 15,20",
    ):
        r = feed(b, out, bad)
        assert len(r) == 1 and r[0].startswith("ERROR"), (bad, r)
        assert b.game.diagram() == before and b.game.size == 15
    assert feed(b, out, "FOO 1")[0].startswith("UNKNOWN")
    assert feed(b, out, "TAKEBACK 3,3")[0].startswith("ERROR")
    assert feed(b, out, f"TAKEBACK {x},{y}") == ["OK"]
    assert b.game.color_at(x, y) == R.EMPTY and b.game.to_move == R.BLACK


def test_board_sets_up_and_out_of_range_board_is_rejected():
    b, out = brain()
    feed(b, out, "START 15")
    # own (1) four in a row: the brain completes it
    r = feed(
        b, out, "BOARD", "3,3,1", "4,3,1", "5,3,1", "6,3,1", "0,0,2", "9,9,2", "10,10,2", "0,14,2", "DONE"
    )
    assert r[0] in ("2,3", "7,3")
    before = b.game.diagram()
    for lines in (["3,3,1", "15,0,2"], ["3,3,1", "3,3,2"], ["1,1,4"], ["1,1"], ["x,y,1"]):
        r = feed(b, out, "BOARD", *lines, "DONE")
        assert len(r) == 1 and r[0].startswith("ERROR"), lines
        assert b.game.diagram() == before
    # equal counts: the brain is Black; it blocks White's open four? no, it cannot: it wins first
    r = feed(b, out, "BOARD", "7,7,2", "8,7,2", "9,7,2", "10,7,2", "0,0,1", "2,2,1", "4,4,1", "0,6,1", "DONE")
    assert b.game.moves[-1][1] == R.BLACK and r[0] in ("6,7", "11,7")


def test_info_rule_time_and_about():
    b, out = brain()
    assert feed(b, out, "ABOUT") == [ABOUT] and 'name="Gorilla"' in ABOUT
    feed(b, out, "START 15")
    assert (
        feed(
            b, out, "INFO rule 4", "INFO timeout_turn 1000", "INFO time_left 5000", "INFO max_memory 83886080"
        )
        == []
    )
    assert b.game.rule == R.RENJU and b.timeout_turn == 1000 and b.time_left == 5000
    assert feed(b, out, "INFO evaluate 7,7", "INFO folder /tmp", "INFO game_type 1", "INFO newkey 3") == []
    assert feed(b, out, "INFO timeout_turn soon")[0].startswith("ERROR") and b.timeout_turn == 1000
    assert [rule_from_bitmask(v) for v in (0, 1, 2, 4, 8, 9)] == [0, 1, 0, 2, 3, 3]
    assert feed(b, out, "RESTART") == ["OK"] and b.game.rule == R.RENJU and not b.game.moves


def test_swap2board():
    b, out = brain()
    feed(b, out, "START 15")
    r = feed(b, out, "SWAP2BOARD", "DONE")
    stones = r[0].split(" ")
    assert len(stones) == 3 and len(b.game.moves) == 3
    assert feed(b, out, "SWAP2BOARD", "7,7", "8,8", "DONE")[0].startswith("ERROR")
    # taking Black is the search's judgement (threat1 scores nothing: it always plays White's stone)
    b, out = brain("pvs")
    feed(b, out, "START 15")
    # three stones where Black (to move after White) is well ahead: two together, White's in a corner
    r = feed(b, out, "SWAP2BOARD", "7,7", "0,0", "8,7", "DONE")
    assert r == ["SWAP"] and len(b.game.moves) == 3  # the brain takes Black, plays no stone
    # ... and where White is: Black's second stone in the corner; the brain plays White's stone
    r = feed(b, out, "SWAP2BOARD", "7,7", "8,8", "0,0", "DONE")
    x, y = b.game.xy(b.game.moves[-1][0])
    assert r == [f"{x},{y}"] and len(b.game.moves) == 4 and b.game.moves[-1][1] == R.WHITE


def test_full_game_script_through_a_pipe():
    e = PBrain(BRAIN + ["--agent", "pvs"])
    try:
        e.send("ABOUT")
        assert e.answer(60).startswith('name="Gorilla"')
        e.send("RECTSTART 15,20")
        assert e.answer(60).startswith("ERROR")
        e.send("START 15")
        assert e.answer(300) == "OK"  # compiles here if the kernels are not cached
        for info in (
            "timeout_turn 300",
            "timeout_match 100000",
            "time_left 100000",
            "max_memory 83886080",
            "game_type 0",
            "rule 1",
            "evaluate 7,7",
            "folder /tmp",
        ):
            e.send(f"INFO {info}")
        e.send("BEGIN")
        t0 = time.monotonic()
        assert e.answer(5) == "7,7"
        e.send("TURN 8,8")
        m1 = e.answer(5)
        assert time.monotonic() - t0 < 3
        e.send("TURN 8,8")
        assert e.answer(5).startswith("ERROR")  # occupied: nothing changes
        e.send("garbage")
        assert e.answer(5).startswith("UNKNOWN")
        e.send(f"TAKEBACK {m1}")
        assert e.answer(5) == "OK"
        e.send("BOARD")
        for ln in ("7,7,1", "8,8,2", "7,8,1", "99,99,2"):
            e.send(ln)
        e.send("DONE")
        assert e.answer(5).startswith("ERROR")
        e.send("RESTART")
        assert e.answer(5) == "OK"
        e.send("BOARD")
        for ln in ("7,7,2", "8,7,2", "9,7,2", "10,7,2", "0,0,1", "2,2,1", "4,4,1", "0,6,1"):
            e.send(ln)
        e.send("DONE")
        assert e.answer(5) in ("6,7", "11,7")
        e.send("SWAP2BOARD")
        e.send("DONE")
        assert len(e.answer(5).split(" ")) == 3
        # END exits at once, even in the middle of a long think
        e.send("RESTART")
        assert e.answer(5) == "OK"
        e.send("INFO timeout_turn 60000")
        e.send("BEGIN")
        assert e.answer(5) == "7,7"
        e.send("TURN 8,8")
        time.sleep(0.3)
        t0 = time.monotonic()
        e.send("END")
        e.proc.wait(timeout=5)
        assert time.monotonic() - t0 < 2.0
    finally:
        e.close()


def test_a_script_ending_with_end_gets_every_answer_before_it_and_no_search_starts():
    import io

    from gorilla.gomoku.pbrain import serve

    class SlowStart(Brain):  # START compiles the kernels on a first start: END comes meanwhile
        def cmd_start(self, arg: str) -> None:
            time.sleep(0.5)
            super().cmd_start(arg)

    out: list[str] = []
    b = SlowStart("threat1", out=out.append)
    script = "START 15\nINFO rule 1\nABOUT\nTAKEBACK 3,3\nFOO\nBEGIN\nTURN 7,7\nEND\nABOUT\n"
    assert serve(b, io.StringIO(script)) == 0
    assert out[0] == "OK" and out[1] == ABOUT and out[2].startswith("ERROR") and out[3].startswith("UNKNOWN")
    assert len(out) == 4  # END came before BEGIN's search: no move; nothing after END is read
    assert b.game.rule == R.STANDARD and b.game.moves == [(b.game.point(7, 7), R.BLACK)]


def test_match_between_built_in_agents_through_the_protocol():
    threat = BRAIN + ["--agent", "threat1"]
    rnd = BRAIN + ["--agent", "random"]
    for black, white, want in ((threat, rnd, R.BLACK), (rnd, threat, R.WHITE)):
        rec = play_game(black, white, size=15, timeout_turn_ms=300)
        assert rec.forfeit == "" and rec.reason == "five" and rec.winner == want, rec.forfeit
        assert len(rec.game.moves) >= 9


def test_match_with_opening_and_renju():
    pvs = BRAIN + ["--agent", "pvs"]
    threat = BRAIN + ["--agent", "threat1"]
    rec = play_game(pvs, threat, size=15, rule=R.RENJU, opening=[(7, 7), (8, 8), (6, 8)], timeout_turn_ms=200)
    assert rec.forfeit == "" and rec.reason in ("five", "full board")
    assert rec.game.moves[:3] == [
        (rec.game.point(7, 7), 1),
        (rec.game.point(8, 8), 2),
        (rec.game.point(6, 8), 1),
    ]


LOOP = "import sys\nfor l in sys.stdin:\n    if l.startswith('START'): print('OK', flush=True)\n"


@pytest.mark.parametrize(
    ("script", "reason"),
    [
        (LOOP + "    else: print('nonsense', flush=True)", "illegal"),
        (LOOP + "    else: print('7,7', flush=True)", "illegal"),  # the second move is occupied
        (LOOP + "    else: break", "crash"),
        (LOOP, "timeout"),
    ],
)
def test_forfeits(tmp_path, script, reason):
    bad = tmp_path / "bad.py"
    bad.write_text(script)
    rec = play_game(
        BRAIN + ["--agent", "threat1"], [sys.executable, str(bad)], size=15, timeout_turn_ms=200, grace=1.0
    )
    assert rec.reason == reason and rec.winner == R.BLACK and rec.forfeit
