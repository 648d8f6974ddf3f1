"""gorilla match --game gomoku: built-in agents directly and through the Gomocup protocol,
openings played with both colours, SGF GM[4] records, and misbehaving brains that forfeit."""

from __future__ import annotations

import io
import re
import shlex
import sys
import textwrap
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from gorilla.gomoku import referee, sgf
from gorilla.gomoku import rules as R
from gorilla.gomoku import search as S
from gorilla.gomoku.vcf import new_state
from gorilla.match import cli, gomoku_games, tune
from gorilla.match.gomoku_games import DEFAULT_OPENINGS, load_openings, opening_game, parse_openings
from gorilla.match.report import write_report
from gorilla.match.runner import MatchConfig, load_results, run_match

BRAIN = f"pbrain:{shlex.quote(sys.executable)} -m gorilla pbrain"

# A Gomocup brain that misbehaves on purpose after GOOD good moves: it exits (crash),
# sleeps (hang), answers words (garbage) or plays the opponent's last point (illegal);
# "race" drops a TURN that comes within 10 ms of its own move, as Rapfi does while its
# search thread finishes, and reads the coordinates as a command.
FAKE_BRAIN = textwrap.dedent(
    """
    import sys, time
    mode, good = sys.argv[1], int(sys.argv[2])
    size, taken, asked, block, moved = 15, [], 0, False, -1e9
    heard = open(sys.argv[3], "a") if len(sys.argv) > 3 else None  # every line, as it came
    def say(text):
        sys.stdout.write(text + "\\n"); sys.stdout.flush()
    def move():
        global asked
        asked += 1
        if asked > good:
            if mode == "crash":
                sys.exit(3)
            if mode == "hang":
                time.sleep(60)
            if mode == "garbage":
                say("MESSAGE thinking"); say("seven, seven"); return
            if mode == "illegal" and taken:
                say("%d,%d" % taken[-1]); return
        free = [(x, y) for y in range(size) for x in range(size) if (x, y) not in taken]
        global moved
        moved = time.monotonic()
        taken.append(free[0]); say("%d,%d" % free[0])
    for line in sys.stdin:
        if heard:
            heard.write(line); heard.flush()
        w = line.strip().upper()
        if mode == "race" and w.startswith("TURN") and time.monotonic() - moved < 0.01:
            say("ERROR Unknown command: " + w.split()[1]); continue
        if block:
            if w == "DONE":
                block = False; move()
            else:
                x, y, _ = (int(t) for t in w.split(",")); taken.append((x, y))
        elif w.startswith("START") or w == "RESTART":
            size = int(w.split()[1]) if w.startswith("START") else size
            taken, asked = [], 0; say("OK")
        elif w == "BEGIN":
            move()
        elif w.startswith("TURN"):
            taken.append(tuple(int(t) for t in w.split()[1].split(","))); move()
        elif w == "BOARD":
            block = True
        elif w == "END":
            break
"""
)


def fake(tmp_path: Path, mode: str, good: int = 1, heard: Path | None = None) -> str:
    script = tmp_path / "fake_brain.py"
    script.write_text(FAKE_BRAIN, encoding="utf-8")
    tail = f" {shlex.quote(str(heard))}" if heard is not None else ""
    return f"pbrain:{shlex.quote(sys.executable)} {shlex.quote(str(script))} {mode} {good}{tail}"


def config(tmp_path: Path, a: str, b: str, **kw) -> MatchConfig:
    cfg = MatchConfig(players=[a, b], game="gomoku", size=15, rules="freestyle", out=str(tmp_path / "m"))
    cfg.openings_file = str(DEFAULT_OPENINGS)
    cfg.timeout_turn = 300
    for k, v in kw.items():
        setattr(cfg, k, v)
    return cfg


def check_games(cfg: MatchConfig, summary: dict) -> list[dict]:
    """Every record agrees with its SGF: the stones, the winner's five, the opening."""
    recs = sorted(load_results(cfg.out), key=lambda r: r["game"])
    assert summary["games"] == len(recs) == cfg.games
    assert summary["wins"]["A"] + summary["wins"]["B"] + summary["draws"] == cfg.games
    for r in recs:
        text = (Path(cfg.out) / r["sgf"]).read_text(encoding="utf-8")
        assert "GM[4]" in text and f"RE[{r['result']}]" in text
        game = sgf.loads(text)
        assert len(game.moves) == r["moves"]
        # the seeded opening is marked as given (an analysis does not grade it)
        assert game.given == len(r["opening"]) and (f"OPENING[{game.given}]" in text) == (game.given > 0)
        if r["reason"] == "five":
            assert game.result is not None and game.result.sgf() == r["result"]
            win_colour = "black" if r["result"].startswith("B") else "white"
            assert r["winner"] == r[win_colour]
    return recs


def test_openings_file_parses_and_rejects_bad_lines(tmp_path: Path):
    openings = load_openings(DEFAULT_OPENINGS)
    assert len(openings) >= 50 and all(len(o) in (4, 5) and o[0] == (0, 0) for o in openings)
    assert parse_openings("# c\n1,2, -3,4  # tail\n\n0 0 1 1\n") == [[(1, 2), (-3, 4)], [(0, 0), (1, 1)]]
    for bad in ("1,2,3", "a,b", "0,0, 0,0"):
        with pytest.raises(ValueError, match="line 1"):
            parse_openings(bad)
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing\n", encoding="utf-8")
    with pytest.raises(ValueError, match="no opening"):
        load_openings(empty)


def test_shipped_openings_are_quiet_for_both_sides():
    # balanced: no opening ends the game or gives either side a win by threes and fours
    cfg = MatchConfig(players=["pvs", "pvs"], size=15, rules="freestyle", game="gomoku")
    cfg.openings_file = str(DEFAULT_OPENINGS)
    st = new_state(14)
    for k in range(len(load_openings(DEFAULT_OPENINGS))):
        g = opening_game(cfg, 2 * k)
        assert not g.over
        for side in (R.BLACK, R.WHITE):
            assert S.solve_vct(R.copy_board(g.bd), st, side, depth=5, vcf_depth=12, node_limit=200_000) < 0


def test_builtin_agents_play_each_opening_with_both_colours(tmp_path: Path):
    cfg = config(tmp_path, "threat1", "random", games=4)
    log = io.StringIO()
    summary = run_match(cfg, log=log)
    recs = check_games(cfg, summary)
    openings = load_openings(DEFAULT_OPENINGS)
    for r in recs:
        c = cfg.size // 2
        want = [f"{c + dx},{c + dy}" for dx, dy in openings[r["game"] // 2]]
        assert r["opening"] == want
    assert [r["black"] for r in recs] == ["A", "B", "A", "B"]
    assert recs[0]["opening"] == recs[1]["opening"] != recs[2]["opening"]
    assert summary["wins"]["A"] >= 3  # the one-ply threat heuristic beats random play
    assert not summary["forfeits"]
    assert "4/4 A threat1" in log.getvalue()
    md, _png = write_report(cfg.out)
    text = Path(md).read_text(encoding="utf-8")
    wins = f"| wins | {summary['wins']['A']} | {summary['wins']['B']} | {summary['draws']} |"
    assert "15x15 Gomoku, freestyle, openings gomoku_openings.txt" in text and wins in text


@pytest.mark.slow
def test_builtin_agents_through_the_protocol(tmp_path: Path):
    a, b = f"{BRAIN} --agent threat1", f"{BRAIN} --agent random"
    cfg = config(tmp_path, a, b, games=2, timeout_turn=500, timeout_match=60_000)
    summary = run_match(cfg, log=io.StringIO())
    recs = check_games(cfg, summary)
    assert not summary["forfeits"], summary["forfeits"]
    assert summary["wins"]["A"] == 2
    assert all(r["times"]["A"]["moves"] >= 2 for r in recs)
    text = (Path(cfg.out) / recs[0]["sgf"]).read_text(encoding="utf-8")
    assert "PB[pbrain:" in text


def test_every_command_is_one_whole_line(tmp_path: Path):
    # Rapfi reads the protocol word by word and drops a command's first word while it still
    # counts itself as thinking (its gomocup.cpp: `else if (thinking) return false;`): its
    # "ERROR Unknown command: 5,9" after a TURN was the coordinates of a TURN it dropped. Our
    # side must send each command with its arguments on one line, and coordinates alone only
    # inside BOARD .. DONE.
    heard = tmp_path / "heard.txt"
    cfg = config(tmp_path, fake(tmp_path, "none", 10_000, heard), "threat1", games=2, timeout_turn=300)
    summary = run_match(cfg, log=io.StringIO())
    assert not summary["forfeits"], summary["forfeits"]
    lines = heard.read_text(encoding="utf-8").splitlines()
    assert sum(w.startswith("TURN ") for w in lines) >= 4
    block = False
    for w in lines:
        if block:
            assert re.fullmatch(r"\d+,\d+,[12]|DONE", w), w
            block = w != "DONE"
        else:
            assert re.fullmatch(r"START \d+|RESTART|INFO \w+ -?\d+|BEGIN|TURN \d+,\d+|BOARD|END", w), w
            block = w == "BOARD"


def test_a_brain_is_not_asked_again_while_it_finishes_its_move(tmp_path: Path, monkeypatch):
    # ... and sending the whole line was not enough: the TURN that Rapfi drops is one that
    # reaches it while its search thread, having printed the move, has not yet said it is done.
    # Two brains that answer at once and drop a TURN sent within 10 ms of their own move (as
    # Rapfi's race does) play whole games: the referee waits referee.SETTLE after each answer.
    racer = fake(tmp_path, "race", 10_000)
    cfg = config(tmp_path, racer, racer, games=2, timeout_turn=300)
    # the wait comes before the referee's clock starts: it is not the brains' time. The referee's
    # clock reads a time that runs on by a thousand times each wait's real length, so a wait
    # inside a timed move would add seconds to it, whatever the machine's load
    waited = [0.0]
    settle = referee.PBrain.settle

    def counted(brain: referee.PBrain) -> None:
        wait = brain.answered + referee.SETTLE - time.monotonic()
        settle(brain)
        waited[0] += 1000 * max(0.0, wait)

    monkeypatch.setattr(referee.PBrain, "settle", counted)
    monkeypatch.setattr(gomoku_games, "time", SimpleNamespace(monotonic=lambda: time.monotonic() + waited[0]))
    summary = run_match(cfg, log=io.StringIO())
    recs = check_games(cfg, summary)
    assert not summary["forfeits"], summary["forfeits"]
    assert all(r["moves"] > 20 and r["reason"] == "five" for r in recs)
    assert waited[0] > 1000 * referee.SETTLE  # the brains were waited for
    for r in recs:
        for t in r["times"].values():
            assert t["total"] < 1000 * referee.SETTLE / 2, t  # none of it inside a move's time


@pytest.mark.parametrize(
    ("mode", "kind"),
    [("crash", "crash"), ("garbage", "garbage"), ("illegal", "illegal"), ("hang", "timeout")],
)
def test_misbehaving_brain_forfeits_with_a_clear_line(tmp_path: Path, mode: str, kind: str):
    cfg = config(tmp_path, fake(tmp_path, mode), "threat1", games=2, timeout_turn=200, grace=0.5)
    log = io.StringIO()
    summary = run_match(cfg, log=log)
    recs = check_games(cfg, summary)
    assert summary["wins"]["B"] == 2
    for r in recs:
        f = r["forfeit"]
        assert f is not None and f["player"] == "A" and f["kind"] == kind
        assert r["result"] in ("W+F", "B+F", "W+T", "B+T")
        text = (Path(cfg.out) / r["sgf"]).read_text(encoding="utf-8")
        assert "forfeits" in text  # the SGF says why
    assert f"(A forfeits: {kind})" in log.getvalue()


def test_cli_plays_and_rejects_bad_settings(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    out = tmp_path / "cli"
    argv = ["--game", "gomoku", "threat1", "random", "-n", "2", "--timeout-turn", "100", "-o", str(out)]
    assert cli.main(argv) == 0
    assert len(load_results(out)) == 2
    for bad, word in (
        (["--rules", "chinese"], "unknown gomoku rule"),
        (["--size", "30"], "outside"),
        (["--openings-file", str(tmp_path / "missing.txt")], "cannot read"),
        (["--timeout-turn", "-5"], "0 or more"),
    ):
        capsys.readouterr()
        assert cli.main(["--game", "gomoku", "threat1", "random", "-o", str(tmp_path / "x"), *bad]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and word in err[0], err
    assert cli.main(["--game", "gomoku", "threat1", "no-such-engine", "-o", str(tmp_path / "y")]) == 2
    assert "unknown gomoku agent 'no-such-engine'" in capsys.readouterr().err
    assert cli.main(["threat1", "random", "--timeout-turn", "100", "-o", str(tmp_path / "z")]) == 2
    assert "--game gomoku" in capsys.readouterr().err


def test_without_time_limits_the_move_timeout_still_ends_a_hang(tmp_path: Path):
    cfg = config(tmp_path, fake(tmp_path, "hang"), "threat1", games=1, timeout_turn=0, move_timeout=0.5)
    summary = run_match(cfg, log=io.StringIO())
    (r,) = check_games(cfg, summary)
    assert r["forfeit"]["kind"] == "timeout" and r["winner"] == "B"


def test_tune_drives_gomoku_threat_weights(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    out = tmp_path / "tune"
    argv = ["threat1", "--game", "gomoku", "--param", "w_three=100:20:400", "--iterations", "2"]
    assert tune.main([*argv, "--games", "2", "--timeout-turn", "100", "-o", str(out)]) == 0
    final = (out / "final.txt").read_text(encoding="utf-8").strip()
    assert final.startswith("threat1:w_three=") and final == capsys.readouterr().out.strip()
    game = (out / "matches" / "iter-0001" / "games" / "game_0001.sgf").read_text(encoding="utf-8")
    assert "GM[4]" in game and "PB[threat1:w_three=" in game
    assert tune.main(["pvs", "--game", "gomoku", "--param", "nope=1:0:2", "-o", str(tmp_path / "x")]) == 2
    assert "unknown gomoku agent setting 'nope=1'" in capsys.readouterr().err
