"""KataGo's analysis commands over a real ``gorilla gtp`` process with the net: every line read by
a parser written here from KataGo's documented format (docs/GTP_Extensions.md), not by
Gorilla's own code."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from test_analysis import Pipe, gorilla_gtp

SIZE = 9
VERTEX = re.compile(r"^(pass|[A-HJ-T](1[0-9]|[1-9]))$")
TOP = ("info", "rootInfo", "ownership", "ownershipStdev")


def parse_kata(line: str, size: int) -> dict:
    """A kata-analyze line as {'infos': [...], 'rootInfo': {...}|None, 'ownership': [...]|None}.

    Fails on anything that does not follow the documented grammar.
    """
    tokens = line.split()
    out: dict = {"infos": [], "rootInfo": None, "ownership": None}
    i = 0
    while i < len(tokens):
        head = tokens[i]
        assert head in TOP, f"unexpected top-level word {head!r}"
        i += 1
        if head in ("ownership", "ownershipStdev"):
            values = []
            while i < len(tokens) and tokens[i] not in TOP:
                values.append(float(tokens[i]))
                i += 1
            out[head] = values
            continue
        fields: dict = {}
        while i < len(tokens) and tokens[i] not in TOP:
            key = tokens[i]
            i += 1
            if key == "pv":
                fields["pv"] = []
                while i < len(tokens) and VERTEX.match(tokens[i]):
                    fields["pv"].append(tokens[i])
                    i += 1
            elif key == "pvVisits":
                fields["pvVisits"] = []
                while i < len(tokens) and tokens[i].isdigit():
                    fields["pvVisits"].append(int(tokens[i]))
                    i += 1
            else:
                assert i < len(tokens), f"{key} has no value"
                fields[key] = tokens[i]
                i += 1
        if head == "info":
            out["infos"].append(fields)
        else:
            out["rootInfo"] = fields
    return out


@pytest.fixture(scope="module")
def net_engine() -> Iterator[Pipe]:
    yield from gorilla_gtp("net:visits=48,batch=4,seed=1", SIZE, timeout=300)


def test_kata_analyze_lines_are_well_formed_and_end_with_the_next_command(net_engine: Pipe) -> None:
    p = net_engine
    assert p.ask("play b E5") == ["="]
    p.send("2 kata-analyze w 10 ownership true rootInfo true pvVisits true")
    assert p.line(timeout=300) == "=2"
    lines = [p.line(timeout=300) for _ in range(3)]
    p.send("3 name")  # ends the analysis
    rest = p.until_blank()
    assert p.response() == ["=3 Gorilla"]
    for line in lines + rest:
        got = parse_kata(line, SIZE)
        infos = got["infos"]
        assert infos, "no candidate"
        assert [int(f["order"]) for f in infos] == list(range(len(infos)))
        for f in infos:
            assert VERTEX.match(f["move"]) and f["move"] != "E5"
            visits = int(f["visits"])
            wr, lcb, prior = float(f["winrate"]), float(f["lcb"]), float(f["prior"])
            assert 0 <= wr <= 1 and 0 <= prior <= 1 and lcb <= wr
            for key in ("scoreLead", "scoreMean", "scoreStdev", "scoreSelfplay", "utility", "utilityLcb"):
                float(f[key])
            assert f["pv"][0] == f["move"] and len(f["pvVisits"]) == len(f["pv"])
            assert f["pvVisits"][0] == visits
        root = got["rootInfo"]
        assert int(root["visits"]) >= sum(int(f["visits"]) for f in infos)
        assert 0 <= float(root["winrate"]) <= 1
        own = got["ownership"]
        assert len(own) == SIZE * SIZE and all(-1 <= x <= 1 for x in own)
        # White to move: Black's centre stone is the opponent's (negative), row-major from A9
        assert own[4 * SIZE + 4] < -0.5


def test_kata_genmove_analyze_streams_then_plays(net_engine: Pipe) -> None:
    p = net_engine
    assert p.ask("clear_board") == ["="]
    p.send("4 kata-genmove_analyze b 5")
    assert p.line(timeout=300) == "=4"
    lines = p.until_blank(timeout=300)
    assert lines[-1].startswith("play ")
    move = lines[-1].split()[1]
    assert VERTEX.match(move) and move != "pass"
    for line in lines[:-1]:
        assert parse_kata(line, SIZE)["infos"]
    p.send("5 play b " + move)  # the move is on the board: Black may not play there again
    assert p.response()[0].startswith("?5")


def test_kata_analyze_refuses_a_bad_flag_in_one_line(net_engine: Pipe) -> None:
    p = net_engine
    reply = p.ask("6 kata-analyze b 10 ownership maybe")
    assert len(reply) == 1 and reply[0].startswith("?6") and "ownership" in reply[0]
