"""``gorilla analysis``: KataGo's JSON analysis engine, query by query as docs/Analysis_Engine.md
(KataGo 1.17.2) describes it, the answers read as plain JSON (not through Gorilla's code).

Most tests drive the engine in this process (:class:`AnalysisEngine` over a StringIO, the
shipped net, 9x9 boards and a few dozen visits); one runs ``gorilla analysis`` itself with
KataGo's command line and its example config.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from gorilla.ai.net.inputs import encode, set_playout_doubling
from gorilla.ai.puct.evaluator import NetEvaluator, NetInputs, cap_history
from gorilla.gtp.analysis_engine import AnalysisEngine, capped_threads, parse_args
from gorilla.gtp.kata_config import ConfigError, engine_config, parse_overrides, read_config
from gorilla.rules.board import BLACK, WHITE
from gorilla.rules.coords import parse_vertex
from gorilla.rules.game import Game

NET = Path(__file__).resolve().parent.parent / "assets" / "net" / "g170-b6c96-s175395328-d26788732.bin.gz"
BASE = {"rules": "tromp-taylor", "komi": 7, "boardXSize": 9, "boardYSize": 9, "maxVisits": 24}


def query(qid: str, moves: list | None = None, **extra) -> str:
    q = {"id": qid, "moves": moves or [], **BASE, **extra}
    return json.dumps(q)


class Engine:
    """An AnalysisEngine in this process, its output lines as dicts."""

    def __init__(self, threads: int = 1, **config: str) -> None:
        self.out = io.StringIO()
        self.engine = AnalysisEngine(engine_config({"nnRandSeed": "7", **config}), self.out)
        self.engine.start(threads)

    def send(self, *lines: str) -> None:
        for line in lines:
            self.engine.handle(line)

    def lines(self) -> list[dict]:
        return [json.loads(x) for x in self.out.getvalue().splitlines()]

    def finish(self) -> list[dict]:
        self.engine.finish()
        return self.lines()

    def wait_for(self, pred, timeout: float = 120.0) -> list[dict]:
        t0 = time.time()
        while time.time() - t0 < timeout:
            got = self.lines()
            if any(pred(d) for d in got):
                return got
            time.sleep(0.02)
        raise AssertionError(f"no such answer within {timeout} s: {self.lines()}")


def run(*lines: str, **config: str) -> list[dict]:
    e = Engine(**config)
    e.send(*lines)
    return e.finish()


def finals(lines: list[dict]) -> list[dict]:
    return [d for d in lines if "rootInfo" in d and not d["isDuringSearch"]]


# --- errors and warnings -----------------------------------------------------------------------


def test_a_line_that_is_not_json_is_an_error_and_the_engine_goes_on() -> None:
    out = run("{not json", "[1, 2]", '{"moves": []}', query("ok"))
    assert "could not parse input line as json request: {not json" in out[0]["error"]
    assert set(out[0]) == {"error"}
    assert out[1] == {"error": "Request line was valid json but was not an object, ignoring: [1, 2]"}
    assert out[2] == {"error": 'Request must have a string "id" field'}
    [final] = finals(out)
    assert final["id"] == "ok" and final["rootInfo"]["visits"] == 24


@pytest.mark.parametrize(
    ("change", "field", "error"),
    [
        ({"boardYSize": 13}, "boardYSize", "square boards only"),
        ({"boardXSize": 20, "boardYSize": 20}, "boardXSize", "Must provide an integer from 2 to 19"),
        ({"rules": "nonsense"}, "rules", "Could not parse rules: nonsense"),
        ({"rules": 5}, "rules", "Must specify rules string"),
        ({"komi": 7.3}, "komi", "Must be a integer or half-integer from -400.0 to 400.0"),
        ({"moves": [["B", "E5"], ["W", "E5"]]}, "moves", "Illegal move 1: E5"),
        ({"moves": [["X", "E5"]]}, "moves", "Could not parse player: X"),
        ({"moves": [["B", "Z99"]]}, "moves", "Could not parse board location: Z99"),
        ({"analyzeTurns": [3]}, "analyzeTurns", "Invalid turn number: 3"),
        ({"maxVisits": 0}, "maxVisits", "Must be an integer from 1 to 2^50"),
        ({"includeOwnership": 1}, "includeOwnership", "Must be a boolean"),
        ({"overrideSettings": {"wideRootNoise": 9}}, "overrideSettings", "Could not set settings"),
        ({"avoidMoves": [{"moves": ["E5"]}]}, "avoidMoves", "subfields 'player', 'moves', 'untilDepth'"),
        (
            {"priority": 1, "priorities": [1], "analyzeTurns": [0]},
            "priority",
            "Cannot specify both priority and priorities",
        ),
    ],
)
def test_a_bad_field_is_refused_in_katagos_form(change: dict, field: str, error: str) -> None:
    q = {"id": "q", "moves": [], **BASE, **change}
    [out] = run(json.dumps(q))
    assert set(out) == {"id", "field", "error"}
    assert out["id"] == "q" and out["field"] == field and error in out["error"]


def test_warnings_in_katagos_form_and_the_clients_own_keys_ignored() -> None:
    out = run(
        query(
            "w",
            overrideSettings={"reportAnalysisWinratesAs": "BLACK", "noSuchParam": 1},
            extraKey=1,
            _kt_continuous=False,
        )
    )
    warnings = [d for d in out if "warning" in d]
    assert {
        "id": "w",
        "field": "overrideSettings",
        "warning": "Unknown config params: noSuchParam",
    } in warnings
    assert [d["field"] for d in warnings] == ["overrideSettings", "extraKey"]  # nothing on _kt_continuous
    assert len(finals(out)) == 1  # the query still runs


def test_rules_the_net_cannot_be_told_are_a_warning_and_the_nearest_are_used() -> None:
    out = run(query("s", rules={"ko": "SPIGHT", "scoring": "AREA"}))
    [w] = [d for d in out if "warning" in d]
    assert w["field"] == "rules" and "koSPIGHT" in w["warning"] and "using koSITUATIONAL" in w["warning"]
    assert len(finals(out)) == 1


# --- answers ---------------------------------------------------------------------------------


def test_one_answer_per_turn_with_katagos_fields() -> None:
    moves = [["B", "E5"], ["W", "C3"]]
    out = run(query("t", moves, analyzeTurns=[0, 1, 2], includeOwnership=True, includePolicy=True))
    got = sorted(finals(out), key=lambda d: d["turnNumber"])
    assert [d["turnNumber"] for d in got] == [0, 1, 2]
    assert [d["rootInfo"]["currentPlayer"] for d in got] == ["B", "W", "B"]
    for d in got:
        root = d["rootInfo"]
        assert root["visits"] == 24 and 0 <= root["winrate"] <= 1
        for key in ("scoreLead", "scoreSelfplay", "scoreStdev", "utility", "rawWinrate", "rawLead"):
            assert isinstance(root[key], float)
        infos = d["moveInfos"]
        assert [m["order"] for m in infos] == list(range(len(infos)))
        assert sum(m["visits"] for m in infos) == 23  # every visit but the root's own
        for m in infos:
            assert set(m) >= {
                "move",
                "visits",
                "winrate",
                "scoreLead",
                "scoreMean",
                "scoreStdev",
                "prior",
                "lcb",
                "utility",
                "utilityLcb",
                "order",
                "pv",
            }
            assert m["pv"][0] == m["move"] and m["scoreMean"] == m["scoreLead"]
        assert len(d["ownership"]) == 81 and all(-1 <= v <= 1 for v in d["ownership"])
        pol = d["policy"]
        assert len(pol) == 82 and abs(sum(v for v in pol if v > 0) - 1) < 1e-4
    # -1 where a stone stands: E5 is row 4 from the top (index 4 * 9 + 4), C3 row 6, column 2
    assert got[2]["policy"][4 * 9 + 4] == -1 and got[2]["policy"][6 * 9 + 2] == -1
    assert got[0]["policy"].count(-1) == 0


def test_the_perspective_of_report_analysis_winrates_as() -> None:
    """White to move: BLACK's numbers are the side to move's turned over (the same seeded search)."""
    q = query("p", [["B", "E5"]], includeOwnership=True)
    [side] = finals(run(q))
    [black] = finals(run(q, reportAnalysisWinratesAs="BLACK"))
    assert side["rootInfo"]["currentPlayer"] == "W"
    assert black["rootInfo"]["winrate"] == pytest.approx(1 - side["rootInfo"]["winrate"], abs=1e-7)
    assert black["rootInfo"]["scoreLead"] == pytest.approx(-side["rootInfo"]["scoreLead"], abs=1e-6)
    b, s = black["moveInfos"][0], side["moveInfos"][0]
    assert b["move"] == s["move"] and b["winrate"] == pytest.approx(1 - s["winrate"], abs=1e-7)
    np.testing.assert_allclose(black["ownership"], -np.array(side["ownership"]), atol=1e-6)
    assert black["ownership"][4 * 9 + 4] > 0.5  # Black's stone on E5: Black's
    # and per query, through overrideSettings
    [over] = finals(run(query("p", [["B", "E5"]], overrideSettings={"reportAnalysisWinratesAs": "BLACK"})))
    assert over["rootInfo"]["winrate"] == pytest.approx(black["rootInfo"]["winrate"], abs=1e-7)


def test_moves_ownership_is_each_moves_own() -> None:
    q = query("m", includeMovesOwnership=True, includeOwnership=True, maxVisits=40)
    [d] = finals(run(q, reportAnalysisWinratesAs="BLACK"))
    root = d["ownership"]
    assert len(d["moveInfos"]) >= 3
    for m in d["moveInfos"]:
        own = m["ownership"]
        assert len(own) == 81 and own != root
        p = parse_vertex(m["move"], 9)
        if p > 0:  # Black's stone there after the move: more Black's than over the whole search
            r, c = divmod(p, 11)
            assert own[(r - 1) * 9 + c - 1] > max(0.0, root[(r - 1) * 9 + c - 1]), m["move"]


def test_avoid_and_allow_moves() -> None:
    avoid = ["E5", "D5", "E4", "F5", "E6", "D4", "F6"]
    [d] = finals(run(query("a", avoidMoves=[{"player": "B", "moves": avoid, "untilDepth": 1}], maxVisits=40)))
    assert d["moveInfos"] and not {m["move"] for m in d["moveInfos"]} & set(avoid)
    # only the root's own moves: White's replies may be anything (a white entry has no effect at depth 0)
    allow = [
        {"player": "B", "moves": ["A1", "J9"], "untilDepth": 1},
        {"player": "W", "moves": ["B2"], "untilDepth": 1},
    ]
    [d] = finals(run(query("b", allowMoves=allow, maxVisits=20)))
    assert {m["move"] for m in d["moveInfos"]} <= {"A1", "J9"}
    # untilDepth 2: White's moves at depth 1 are held to B2 as well
    allow[1]["untilDepth"] = 2
    [d] = finals(run(query("c", allowMoves=allow, maxVisits=20)))
    assert all(len(m["pv"]) < 2 or m["pv"][1] == "B2" for m in d["moveInfos"])


def test_reports_during_the_search_then_one_final_answer() -> None:
    out = run(query("r", maxVisits=400, reportDuringSearchEvery=0.05))
    mine = [d for d in out if d.get("id") == "r"]
    assert len(mine) >= 3 and mine[-1]["isDuringSearch"] is False
    assert all(d["isDuringSearch"] for d in mine[:-1])
    visits = [d["rootInfo"]["visits"] for d in mine]
    assert visits == sorted(visits) and visits[-1] == 400


def test_wide_root_noise_spreads_the_root_visits() -> None:
    def spread(noise: float) -> int:
        [d] = finals(run(query("n", maxVisits=120, overrideSettings={"wideRootNoise": noise})))
        return len(d["moveInfos"])

    assert spread(2.0) > spread(0.0)


# --- actions, priorities, threads --------------------------------------------------------------


def test_actions() -> None:
    out = run(
        '{"id":"v","action":"query_version"}',
        '{"id":"c","action":"clear_cache"}',
        '{"id":"x","action":"dance"}',
        '{"id":"m","action":"query_models"}',
    )
    version = out[0]
    assert version["id"] == "v" and version["action"] == "query_version" and "git_hash" in version
    assert [int(x) for x in version["version"].split(".")] >= [1, 15, 0]
    assert out[1] == {"id": "c", "action": "clear_cache"}
    assert "'action' field must be" in out[2]["error"]
    [model] = out[3]["models"]
    assert model["name"].endswith(".bin.gz") and model["version"] >= 8


def test_the_cache_of_evaluations_and_clear_cache() -> None:
    e = Engine(nnCacheSizePowerOfTwo="10")
    cache = e.engine.cache
    assert cache.size == 1024
    e.send(query("one", [["B", "E5"]]))
    e.wait_for(lambda d: d.get("id") == "one")
    first_misses, first_hits = cache.misses, cache.hits
    assert len(cache) == first_misses > 0
    e.send(query("two", [["B", "E5"]]))  # the same position: its evaluations are there
    e.wait_for(lambda d: d.get("id") == "two")
    assert cache.hits - first_hits > cache.misses - first_misses
    e.send('{"id":"c","action":"clear_cache"}')
    e.wait_for(lambda d: d.get("id") == "c")
    assert len(cache) == 0
    e.finish()


def test_terminate_a_running_query_and_a_queued_one() -> None:
    e = Engine(threads=1)
    e.send(query("long", maxVisits=1_000_000, reportDuringSearchEvery=0.05), query("queued", maxVisits=5))
    e.wait_for(lambda d: d.get("id") == "long" and d.get("isDuringSearch"))
    e.send('{"id":"t","action":"terminate","terminateId":"queued"}')
    e.send('{"id":"t2","action":"terminate_all","turnNumbers":[0]}')
    out = e.finish()
    assert {"id": "queued", "turnNumber": 0, "isDuringSearch": False, "noResults": True} in out
    assert {"id": "t", "action": "terminate", "terminateId": "queued"} in out
    assert {"id": "t2", "action": "terminate_all", "turnNumbers": [0]} in out
    [final] = [d for d in finals(out) if d["id"] == "long"]
    assert 1 <= final["rootInfo"]["visits"] < 1_000_000


def test_queries_wait_by_priority() -> None:
    e = Engine(threads=1)
    e.send(query("busy", maxVisits=1_000_000, reportDuringSearchEvery=0.05))
    e.wait_for(lambda d: d.get("id") == "busy" and d.get("isDuringSearch"))
    e.send(query("low", priority=-5), query("mid"), query("high", priority=10), query("mid2"))
    e.send('{"id":"t","action":"terminate","terminateId":"busy"}')
    order = [d["id"] for d in finals(e.finish())]
    assert order == ["busy", "high", "mid", "mid2", "low"]


def test_several_analysis_threads_answer_every_query() -> None:
    e = Engine(threads=2)
    e.send(*[query(f"q{k}", [["B", "E5"]] * (k % 2), maxVisits=12) for k in range(6)])
    assert sorted(d["id"] for d in finals(e.finish())) == [f"q{k}" for k in range(6)]


def test_threads_are_capped_to_the_cores() -> None:
    cfg = engine_config({"numAnalysisThreads": "12", "numSearchThreads": "8"})
    assert capped_threads(cfg, 2) == (2, 1)
    assert capped_threads(cfg, 16) == (12, 1)
    assert capped_threads(engine_config({"numSearchThreads": "8"}), 4) == (1, 4)


# --- the net's inputs: PDA and the history before the root ------------------------------------


def _game(moves: list[str]) -> Game:
    g = Game(9)
    for k, v in enumerate(moves):
        g.play(parse_vertex(v, 9), BLACK if k % 2 == 0 else WHITE)
    return g


def test_the_history_cap_shows_the_net_no_moves_before_the_root() -> None:
    g = _game(["E5", "C3", "G7", "C7", "G3", "E3"])
    spatial, glob = encode(g)
    assert spatial[9:14].sum() == 5  # five moves of history shown
    capped, cglob = spatial.copy(), glob.copy()
    cap_history(capped, cglob, 0)
    assert capped[9:14].sum() == 0 and not cglob[:5].any()
    np.testing.assert_array_equal(capped[15], capped[14])
    np.testing.assert_array_equal(capped[16], capped[14])
    np.testing.assert_array_equal(
        np.delete(capped, [9, 10, 11, 12, 13, 15, 16], 0), np.delete(spatial, [9, 10, 11, 12, 13, 15, 16], 0)
    )
    two, tglob = spatial.copy(), glob.copy()
    cap_history(two, tglob, 2)
    assert two[9:11].sum() == 2 and two[11:14].sum() == 0
    np.testing.assert_array_equal(two[15:17], spatial[15:17])
    same = spatial.copy()
    cap_history(same, glob.copy(), 5)
    np.testing.assert_array_equal(same, spatial)


def test_playout_doubling_features_and_their_effect() -> None:
    _, glob = encode(_game(["E5"]))
    set_playout_doubling(glob, -1.5)
    assert glob[15] == 1.0 and glob[16] == np.float32(-0.75)
    g = _game(["E5", "C3"])  # Black to move

    def black_winrate(pda: float) -> float:
        ev = NetEvaluator(None, seed=3, inputs=NetInputs(pda=pda, pda_color=BLACK))
        return ev.evaluate_games([g])[0].winrate

    assert black_winrate(2.0) > black_winrate(0.0) > black_winrate(-2.0)


# --- config, command line, the process -----------------------------------------------------------


def test_config_files_and_overrides(tmp_path: Path) -> None:
    (tmp_path / "inc.cfg").write_text("maxVisits = 77  # a comment\n")
    cfg = tmp_path / "a.cfg"
    cfg.write_text("# KataGo's format\n@include inc.cfg\nreportAnalysisWinratesAs = BLACK\nlogDir = x\n")
    pairs = read_config(cfg)
    assert pairs == {"maxVisits": "77", "reportAnalysisWinratesAs": "BLACK", "logDir": "x"}
    pairs.update(parse_overrides("wideRootNoise=0.1, homeDataDir=/tmp/k"))
    ec = engine_config(pairs)
    assert ec.settings.max_visits == 77 and ec.settings.perspective == "BLACK"
    assert ec.settings.params.wide_root_noise == 0.1
    assert ec.ignored == ("logDir", "homeDataDir")
    (tmp_path / "b.cfg").write_text("maxVisits = 1\nmaxVisits = 2\n")
    with pytest.raises(ConfigError, match="specified multiple times"):
        read_config(tmp_path / "b.cfg")
    with pytest.raises(ConfigError, match="outside"):
        engine_config({"wideRootNoise": "7"})
    assert parse_args(
        ["-model", "m", "--config", "c", "-override-config", "a=1", "-override-config", "b=2"]
    ) == {"model": "m", "config": "c", "override-config": "a=1,b=2"}
    with pytest.raises(ValueError, match="-model"):
        parse_args(["-config", "c"])


def test_gorilla_analysis_with_katagos_command_line(tmp_path: Path) -> None:
    cfg = tmp_path / "analysis.cfg"
    cfg.write_text(
        "logDir = analysis_logs\nreportAnalysisWinratesAs = BLACK\nmaxVisits = 16\n"
        "numAnalysisThreads = 2\nnumSearchThreadsPerAnalysisThread = 16\nnnCacheSizePowerOfTwo = 23\n"
    )
    lines = "\n".join(['{"id":"v","action":"query_version"}', "oops", query("a"), query("b", [["B", "E5"]])])
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "gorilla",
            "analysis",
            "-model",
            str(NET),
            "-config",
            str(cfg),
            "-override-config",
            f"homeDataDir={tmp_path}",
        ],
        input=lines + "\n",
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    out = [json.loads(x) for x in proc.stdout.splitlines()]
    assert out[0]["version"] and "error" in out[1]
    assert sorted(d["id"] for d in finals(out)) == ["a", "b"]
    err = proc.stderr.splitlines()
    noted = [ln for ln in err if "not used by Gorilla" in ln]
    assert len(noted) == 1 and "logDir" in noted[0] and "homeDataDir" in noted[0]
    bad = subprocess.run(
        [sys.executable, "-m", "gorilla", "analysis", "-config", str(cfg)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert bad.returncode == 2 and "-model NET is required" in bad.stderr and bad.stdout == ""
    bad = subprocess.run(
        [sys.executable, "-m", "gorilla", "analysis", "-model", str(tmp_path / "none.bin.gz")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert bad.returncode == 2 and "error" in bad.stderr


def test_the_engine_survives_a_broken_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """A failure inside one search is an error line for its query; the next query is answered."""
    import gorilla.gtp.analysis_engine as ae

    real = ae.make_search
    calls = {"n": 0}

    def flaky(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 1:
            raise RuntimeError("boom")
        return real(*args, **kwargs)

    monkeypatch.setattr(ae, "make_search", flaky)
    out = run(query("x"), query("y"))
    assert {"id": "x", "field": "id", "error": "internal error: RuntimeError: boom"} in out
    assert [d["id"] for d in finals(out)] == ["y"]


def test_a_client_gone_stops_the_searches() -> None:
    class Closed(io.StringIO):
        def write(self, text: str) -> int:
            raise BrokenPipeError("the reader went away")

    engine = AnalysisEngine(engine_config({}), Closed())
    engine.start(1)
    engine.handle(query("long", maxVisits=1_000_000))
    engine.handle("not json")  # its error line cannot be written either
    t0 = time.time()
    while not engine.gone and time.time() - t0 < 60:
        time.sleep(0.05)
    engine.finish()  # returns: the search was stopped
    assert engine.gone


def test_the_engine_can_stop_without_waiting() -> None:
    e = Engine(threads=1)
    e.send(query("long", maxVisits=1_000_000, reportDuringSearchEvery=0.05), query("never", maxVisits=5))
    e.wait_for(lambda d: d.get("id") == "long" and d.get("isDuringSearch"))
    done = threading.Event()
    threading.Thread(target=lambda: (e.engine.finish(wait=False), done.set()), daemon=True).start()
    assert done.wait(60)
    assert [d["id"] for d in finals(e.lines())] == ["long"]
