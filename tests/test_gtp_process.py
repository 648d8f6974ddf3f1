"""``python -m gorilla gtp`` as a real subprocess: conformance, malformed input, command-line flags."""

from __future__ import annotations

import subprocess
import sys

import pytest

from gorilla.match.gtp_client import GtpClient

# the protocol is checked with the quick random AI (the default net's search has its own tests)
GTP = [sys.executable, "-m", "gorilla", "gtp", "--ai", "random"]


def run_gtp(data: bytes, *flags: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([*GTP, *flags], input=data, capture_output=True, timeout=timeout)


def responses(out: bytes) -> list[str]:
    """Responses split at their terminating empty line."""
    text = out.decode("utf-8")
    assert text.endswith("\n\n") or text == ""
    return [r for r in text.split("\n\n") if r]


def test_session_with_ids_comments_blank_lines_and_errors() -> None:
    script = (
        b"1 protocol_version\n"
        b"# a comment line\n"
        b"\n"
        b"   \t \n"
        b"2 boardsize 9\r\n"
        b"3 play\tblack\tE5 # trailing comment\n"
        b"4 play white E5\n"
        b"5 genmove white\n"
        b"6 list_stones black\n"
        b"7 boardsize 99\n"
        b"8 Play b D4\n"
        b"9 quit\n"
        b"10 name\n"  # after quit: never answered
    )
    proc = run_gtp(script, "--seed", "3")
    assert proc.returncode == 0, proc.stderr
    r = responses(proc.stdout)
    assert r[0] == "=1 2"
    assert r[1] == "=2"
    assert r[2] == "=3"
    assert r[3] == "?4 illegal move"
    assert r[4].startswith("=5 ") and r[4] != "=5 E5"
    assert r[5] == "=6 E5"
    assert r[6] == "?7 unacceptable size"
    assert r[7] == "?8 unknown command"
    assert r[8] == "=9"
    assert len(r) == 9


def test_binary_junk_huge_lines_and_eof_mid_line_do_not_crash() -> None:
    junk = bytes(range(256)) + b"\xff\xfe\x80\xc3\x28\n"
    huge = b"play b " + b"A" * (3 << 20) + b"\n"
    long_ok = b"11 known_command " + b" " * 50_000 + b"name\n"
    script = (
        b"1 name\n"
        + junk
        + b"2 play b \xff\xfe\n"
        + b"3 play b D4\x00\x01\n"
        + huge
        + b"4 list_stones black\n"
        + long_ok
        + b"\x00\x00\x00\n"
        + b"12 list_stones white\n"
        + b"13 genmove white"  # end of input in the middle of a line
    )
    proc = run_gtp(script)
    assert proc.returncode == 0, proc.stderr
    r = responses(proc.stdout)
    assert r[0] == "=1 Gorilla"
    assert r[1].startswith("?")  # the junk line
    assert r[2] == "?2 syntax error"
    assert r[3] == "=3"  # control characters are removed before parsing
    assert r[4] == "? line too long"
    assert r[5] == "=4 D4"
    assert r[6] == "=11 true"
    assert r[7] == "=12"
    assert r[8].startswith("=13 ") and len(r) == 9


def test_client_drives_a_game_and_state_survives_errors() -> None:
    with GtpClient([*GTP, "--size", "5", "--komi", "0.5"]) as gtp:
        assert gtp.send("name") == "Gorilla"
        for cmd in (
            "play b C3",
            "play w C4",
            "play b D4",
            "play w B3",
            "play b C5",
            "play w D3",
            "play b B4",
        ):
            gtp.send(cmd)
        board = (gtp.send("list_stones black"), gtp.send("list_stones white"))
        for bad in ("play b C3", "play b Z9", "play purple A1", "boardsize 0", "frobnicate", "play w C4"):
            ok, _ = gtp.ask(bad)
            assert not ok
        assert (gtp.send("list_stones black"), gtp.send("list_stones white")) == board
        assert gtp.send("captures black") == "1"  # B4 took C4
        assert gtp.send("is_legal white C4") == "0"  # ko
        assert "C" in gtp.send("showboard")


BAD_FLAGS = [
    ["--bogus"],
    ["--size", "30"],
    ["--size", "nine"],
    ["--rules", "klingon"],
    ["--ai", "nonsense"],
    ["--games", "3"],
    ["--ai", "random", "--threads", "2"],
    ["--playouts", "10", "--time", "1"],
    ["--playouts", "0"],
    ["--komi", "x"],
    ["extra"],
]


@pytest.mark.parametrize("flags", BAD_FLAGS)
def test_bad_flags_give_one_line_error_usage_and_exit_2(flags: list[str], capsys) -> None:
    from gorilla.cli import main

    assert main(["gtp", *flags]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.strip().splitlines()
    assert lines[0].startswith("gorilla gtp: error: "), (flags, lines)
    assert lines[1].startswith("usage: gorilla gtp")


def test_bad_flag_through_python_m_gorilla() -> None:
    proc = run_gtp(b"name\n", "--size", "1")
    assert proc.returncode == 2 and proc.stdout == b""
    err = proc.stderr.decode()
    assert err.startswith("gorilla gtp: error: board size 1 is outside 2..25\nusage: gorilla gtp")
    assert "Traceback" not in err


def test_gtp_does_not_import_pyglet() -> None:
    code = (
        "import io, sys\n"
        "sys.stdin = io.TextIOWrapper(io.BytesIO(b'name\\nquit\\n'))\n"
        "from gorilla.cli import main\n"
        "rc = main(['gtp'])\n"
        "assert rc == 0, rc\n"
        "assert 'pyglet' not in sys.modules\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60)
    assert proc.returncode == 0, proc.stderr.decode()
    assert b"= Gorilla" in proc.stdout


@pytest.mark.parametrize("ai", ["montecarlo", "mcts"])
def test_genmove_with_the_real_ais(ai: str) -> None:
    pytest.importorskip(f"gorilla.ai.{ai}")
    flags = ["--ai", ai, "--size", "7", "--seed", "1"]
    flags += ["--games", "2", "--turns", "2"] if ai == "montecarlo" else ["--playouts", "200"]
    proc = run_gtp(b"1 genmove b\n2 genmove w\n3 list_stones b\n", *flags, timeout=120)
    assert proc.returncode == 0, proc.stderr.decode()
    r = responses(proc.stdout)
    b_move = r[0].split()[1]
    assert r[0].startswith("=1 ") and r[1].startswith("=2 ")
    assert r[2] == f"=3 {b_move}" or b_move in ("pass", "resign")
