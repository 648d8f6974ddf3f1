"""Live analysis over GTP: lz-analyze / genmove_analyze framing, GoGui gfx replies, KGS commands."""

from __future__ import annotations

import math
import queue
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import pytest

from gorilla.ai.agent import Candidate
from gorilla.gtp.analysis import info_line
from gorilla.gtp.main import engine_from_args
from gorilla.gtp.protocol import GtpEngine
from gorilla.rules.coords import parse_vertex

SIZE = 7
INFO = re.compile(
    r"info move (?P<move>\S+) visits (?P<visits>\d+) winrate (?P<winrate>\d+) prior (?P<prior>\d+) "
    r"lcb (?P<lcb>\d+) order (?P<order>\d+) pv (?P<pv>(?:(?!info )\S+ ?)+)"
)


def parse_info(line: str) -> list[dict]:
    """The candidates of one lz-analyze line; fails unless the whole line is info blocks."""
    assert line.startswith("info move "), line
    blocks = [m.groupdict() for m in INFO.finditer(line)]
    rebuilt = " ".join(
        f"info move {b['move']} visits {b['visits']} winrate {b['winrate']} prior {b['prior']} "
        f"lcb {b['lcb']} order {b['order']} pv {b['pv'].strip()}"
        for b in blocks
    )
    assert rebuilt == line.strip(), "line is not a sequence of info blocks"
    return blocks


class Pipe:
    """A GTP engine process read line by line with timeouts."""

    def __init__(self, argv: list[str]) -> None:
        pipe, null = subprocess.PIPE, subprocess.DEVNULL
        self.proc = subprocess.Popen(argv, stdin=pipe, stdout=pipe, stderr=null, text=True, bufsize=1)
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:  # type: ignore[union-attr]
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, text: str) -> None:
        self.proc.stdin.write(text + "\n")  # type: ignore[union-attr]
        self.proc.stdin.flush()  # type: ignore[union-attr]

    def line(self, timeout: float = 60.0) -> str:
        item = self.lines.get(timeout=timeout)
        assert item is not None, "engine closed its output"
        return item

    def ask(self, command: str, timeout: float = 60.0) -> list[str]:
        """Send command; its response (see :meth:`response`)."""
        self.send(command)
        return self.response(timeout)

    def until_blank(self, timeout: float = 60.0) -> list[str]:
        """The lines up to (not including) the next empty line."""
        out = []
        while (ln := self.line(timeout)) != "":
            out.append(ln)
        return out

    def response(self, timeout: float = 60.0) -> list[str]:
        """Lines of one response up to (not including) its empty line."""
        return [self.line(timeout), *self.until_blank(timeout)]

    def silent(self, seconds: float) -> bool:
        try:
            self.lines.get(timeout=seconds)
        except queue.Empty:
            return True
        return False

    def close(self) -> None:
        try:
            self.send("quit")
            self.proc.wait(10)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()


def gorilla_gtp(ai: str, size: int, timeout: float = 60.0) -> Iterator[Pipe]:
    """For a fixture: ``gorilla gtp --ai AI --size SIZE`` started and answering ``name``
    (within timeout seconds), then quit."""
    pipe = Pipe([sys.executable, "-m", "gorilla", "gtp", "--ai", ai, "--size", str(size)])
    assert pipe.ask("1 name", timeout=timeout) == ["=1 Gorilla"]
    yield pipe
    pipe.close()


@pytest.fixture(scope="module")
def engine_pipe() -> Iterator[Pipe]:
    yield from gorilla_gtp("mcts:playouts=300", SIZE)


def test_lz_analyze_streams_info_lines_until_the_next_command(engine_pipe: Pipe) -> None:
    p = engine_pipe
    assert p.ask("2 play b D4") == ["=2"]
    p.send("3 lz-analyze w 5 maxmoves 4 avoid w C3,E5 1")
    assert p.line() == "=3"
    infos = []
    deadline = time.monotonic() + 60
    while len(infos) < 3 and time.monotonic() < deadline:
        infos.append(p.line())
    p.send("4 name")  # interrupts the analysis
    infos += p.until_blank()  # the updates written before the stop, then the empty line
    assert p.response() == ["=4 Gorilla"]  # framing intact: the next answer follows the empty line
    assert p.silent(0.5), "analysis output after the next command"
    assert len(infos) >= 3
    for ln in infos:
        blocks = parse_info(ln)
        assert 1 <= len(blocks) <= 4
        assert [int(b["order"]) for b in blocks] == list(range(len(blocks)))
        visits = [int(b["visits"]) for b in blocks]
        # order 0 is the move the search plays (by lower confidence bound, as KataGo's: it may
        # have fewer visits than another), then the most visited first
        assert visits[1:] == sorted(visits[1:], reverse=True) and visits[0] > 0
        for b in blocks:
            assert b["move"] not in ("C3", "E5", "D4")  # avoided, and D4 is occupied
            # the lower bound from the line's own win rate and visits (rounding: a unit or two)
            w, n = int(b["winrate"]) / 10000, int(b["visits"])
            bound = w - 1.96 * math.sqrt(max(w * (1 - w), 1e-4) / n)
            assert abs(int(b["lcb"]) - max(0, round(10000 * bound))) <= 2, ln
            pv = b["pv"].split()
            assert pv[0] == b["move"]
            for v in pv:
                parse_vertex(v, SIZE)
    # the search grows between updates
    first, last = parse_info(infos[0]), parse_info(infos[-1])
    assert sum(int(b["visits"]) for b in last) >= sum(int(b["visits"]) for b in first)


def test_genmove_analyze_ends_with_play_and_plays_it(engine_pipe: Pipe) -> None:
    p = engine_pipe
    assert p.ask("5 clear_board") == ["=5"]
    lines = p.ask("6 genmove_analyze b 5")  # ends by itself: no further command is sent
    assert lines[0] == "=6"
    assert lines[-1].startswith("play ")
    for ln in lines[1:-1]:
        parse_info(ln)
    move = lines[-1].split()[1]
    parse_vertex(move, SIZE)
    assert p.ask("7 list_stones black") == [f"=7 {move}"]
    assert p.ask("8 lz-analyze b banana") == ["?8 invalid argument 'banana'"]


def _engine(ai: str = "random", size: int = SIZE) -> GtpEngine:
    return engine_from_args(["--ai", ai, "--size", str(size)])


def test_streaming_commands_keep_framing_when_executed_in_one_go() -> None:
    e = _engine("mcts:playouts=50")
    assert e.execute("lz-analyze 10").startswith("=\n")
    assert e.execute("lz-analyze 10").endswith("\n\n")
    out = e.execute("7 genmove_analyze b")
    assert out.startswith("=7\n") and out.endswith("\n\n")
    assert out.strip().splitlines()[-1].startswith("play ")
    assert e.game.move_number == 1


def test_info_line_format() -> None:
    c = [
        Candidate(move=parse_vertex("D4", 9), visits=120, winrate=0.531, prior=0.1234, pv=[30, 31]),
        Candidate(move=parse_vertex("pass", 9), visits=3, winrate=0.2, prior=0.0, pv=[]),
    ]
    line = info_line(c, 9)
    blocks = parse_info(line)
    assert blocks[0]["move"] == "D4" and blocks[0]["winrate"] == "5310" and blocks[0]["prior"] == "1234"
    assert blocks[1]["move"] == "pass" and blocks[1]["pv"].strip() == "pass" and blocks[1]["order"] == "1"


def test_gogui_analyze_commands_name_registered_gfx_commands() -> None:
    e = _engine()
    text = e.execute("gogui-analyze_commands")
    assert text.startswith("= ")
    entries = text[2:].strip().splitlines()
    assert len(entries) >= 5
    for entry in entries:
        kind, label, command = entry.split("/", 2)
        assert kind in ("gfx", "dboard", "string", "plist") and label
        assert command.split()[0] in e.commands


def test_gfx_visits_and_pv() -> None:
    e = _engine()  # a random player: the analysis runs on an MCTS of its own
    e.execute("play b D4")
    out = e.execute("gorilla-gfx_visits 300")
    assert out.startswith("= ")
    lines = out[2:].strip().splitlines()
    kinds = {ln.split()[0] for ln in lines}
    assert kinds == {"LABEL", "INFLUENCE", "TEXT"}
    infl = next(ln for ln in lines if ln.startswith("INFLUENCE")).split()[1:]
    values = [float(v) for v in infl[1::2]]
    assert values and all(-1.0 <= v <= 0.0 for v in values)  # White to move: GoGui's negative side
    assert min(values) == -1.0  # the most visited move
    labels = next(ln for ln in lines if ln.startswith("LABEL")).split()[1:]
    assert sum(int(v) for v in labels[1::2]) <= 300 + 50
    pv = e.execute("gorilla-gfx_pv 200")[2:].strip().splitlines()[0].split()
    assert pv[0] == "VAR" and pv[1] == "w" and len(pv) >= 3
    assert pv[1::2] == ["w", "b"] * ((len(pv) - 1) // 4) + (["w"] if (len(pv) - 1) // 2 % 2 else [])
    assert e.execute("gorilla-gfx_pv nonsense").startswith("? ")


def test_gfx_control_map_uses_gogui_signs() -> None:
    pytest.importorskip("gorilla.ai.control_map")
    e = _engine(size=9)
    e.execute("play b C3")
    e.execute("play w G7")
    out = e.execute("gorilla-gfx_control_map")[2:].strip().splitlines()
    infl = out[0].split()
    assert infl[0] == "INFLUENCE" and len(infl) == 1 + 2 * 81
    vals = dict(zip(infl[1::2], map(float, infl[2::2]), strict=True))
    assert vals["C3"] > 0 > vals["G7"]  # GoGui: positive is Black
    assert out[1].startswith("TEXT ")


def test_kgs_time_settings_map_to_gtp_time_settings() -> None:
    e = _engine()
    assert e.execute("kgs-time_settings canadian 300 30 10") == "=\n\n"
    assert e.time_settings == (300, 30, 10)
    assert e.execute("kgs-time_settings byoyomi 600 30 5") == "=\n\n"
    assert e.time_settings == (600, 30, 1)
    assert e.execute("kgs-time_settings absolute 900") == "=\n\n"
    assert e.time_settings == (900, 0, 0)
    assert e.execute("kgs-time_settings none") == "=\n\n"
    assert e.time_settings == (0, 1, 0)
    for bad in ("kgs-time_settings", "kgs-time_settings fischer 1 2", "kgs-time_settings canadian 300 30"):
        assert e.execute(bad).startswith("? ")
    assert e.time_settings == (0, 1, 0)


def test_kgs_genmove_cleanup_plays_a_legal_move_and_never_resigns() -> None:
    e = _engine("mcts:playouts=100")
    e.execute("play b C3")
    out = e.execute("kgs-genmove_cleanup w")
    assert out.startswith("= ")
    v = out[2:].strip()
    assert v != "resign"
    if v != "pass":
        assert e.game.position.color_at(parse_vertex(v, SIZE)) == 2
    assert e.execute("kgs-genmove_cleanup x").startswith("? ")
