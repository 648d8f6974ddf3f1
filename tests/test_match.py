"""gorilla match: refereed games between built-in AIs, GNU Go and misbehaving engines."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest

from gorilla.match import cli
from gorilla.match.runner import MatchConfig, load_results, run_match
from gorilla.match.stats import elo, summarize, wilson
from gorilla.rules.sgf import load_sgf

# A small GTP engine that misbehaves on purpose: after GOOD good moves it
# plays an occupied point (illegal), exits (crash), sleeps (hang) or prints
# something that is not GTP (garbage) when asked for a move.
FAKE_ENGINE = textwrap.dedent(
    """
    import sys, time
    mode, good = sys.argv[1], int(sys.argv[2])
    size, taken, asked = 19, [], 0
    letters = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
    def reply(text=""):
        sys.stdout.write("= " + text + "\\n\\n"); sys.stdout.flush()
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "list_commands":
            reply("\\n".join(["protocol_version", "name", "boardsize", "clear_board", "komi", "play",
                              "genmove", "quit", "list_commands"]))
        elif cmd == "name":
            reply("Fake " + mode)
        elif cmd == "boardsize":
            size = int(words[1]); reply()
        elif cmd == "clear_board":
            taken = []; asked = 0; reply()
        elif cmd == "play":
            taken.append(words[2].upper()); reply()
        elif cmd == "genmove":
            asked += 1
            if asked > good:
                if mode == "illegal" and taken:
                    reply(taken[-1]); continue
                if mode == "crash":
                    sys.stderr.write("fake engine: segmentation fault (pretend)\\n"); sys.exit(3)
                if mode == "hang":
                    time.sleep(60)
                if mode == "garbage":
                    sys.stdout.write("I think D4 is nice\\n\\n"); sys.stdout.flush(); continue
                if mode == "badvertex":
                    reply("Z99"); continue
            free = [f"{letters[x]}{y + 1}" for y in range(size) for x in range(size)
                    if f"{letters[x]}{y + 1}" not in taken]
            move = free[(len(taken) * 7) % len(free)] if free else "pass"
            taken.append(move); reply(move)
        elif cmd == "quit":
            reply(); break
        else:
            reply()
    """
)


@pytest.fixture(scope="module")
def fake_engine(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("fake") / "fake_gtp.py"
    path.write_text(FAKE_ENGINE)
    return f"{sys.executable} {path}"


def _check_dir(out: Path, games: int) -> dict:
    """Every game has an SGF that loads back with the recorded result; the summary adds up."""
    recs = load_results(out)
    assert sorted(r["game"] for r in recs) == list(range(games))
    summary = json.loads((out / "summary.json").read_text())
    assert summary["games"] == games
    assert summary["wins"]["A"] + summary["wins"]["B"] + summary["draws"] == games
    by = summary["by_color"]
    assert by["A"]["black"]["games"] + by["B"]["black"]["games"] == games
    assert by["A"]["black"]["wins"] + by["A"]["white"]["wins"] == summary["wins"]["A"]
    assert summary["color_wins"]["black"] + summary["color_wins"]["white"] + summary["draws"] == games
    for r in recs:
        g = load_sgf(out / r["sgf"])
        assert g.result == r["result"], r
        played = [m for m in g.moves]
        assert len(played) == r["moves"] - (1 if r["reason"] == "resign" else 0)
        assert g.info.black_name == r["black_player"] == summary["labels"][r["black"]]
        winner = {1: "B", 2: "W", 0: None}[g.winner()]
        assert winner == (None if r["winner"] is None else ("B" if r["winner"] == r["black"] else "W"))
    return summary


def test_match_between_builtin_agents_in_two_processes(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "m"
    code = cli.main(
        ["random", "random", "-n", "4", "--size", "5", "--openings", "2", "-j", "2", "-o", str(out)]
    )
    assert code == 0
    summary = _check_dir(out, 4)
    assert summary["forfeits"] == []
    err = capsys.readouterr().err
    assert "] 4/4 A random" in err and "[####################]" in err
    # colours alternate and each pair of games shares its random opening
    recs = sorted(load_results(out), key=lambda r: r["game"])
    assert [r["black"] for r in recs] == ["A", "B", "A", "B"]
    assert recs[0]["opening"] == recs[1]["opening"] and len(recs[0]["opening"]) == 2
    assert recs[0]["opening"] != recs[2]["opening"]
    t = summary["time_per_move"]["A"]
    assert t["moves"] > 0 and 0 <= t["mean"] <= t["max"]


def test_match_against_gnugo(tmp_path: Path, gnugo_path: str) -> None:
    out = tmp_path / "g"
    cmd = f"{gnugo_path} --mode gtp --level 1"
    code = cli.main(["random", cmd, "-n", "2", "--size", "7", "--komi", "0.5", "-o", str(out)])
    assert code == 0
    summary = _check_dir(out, 2)
    assert summary["forfeits"] == []
    # GNU Go, even at level 1, beats a random player on 7x7
    assert summary["wins"]["B"] == 2
    recs = load_results(out)
    assert all(r["reason"] in ("passes", "resign") for r in recs)


@pytest.mark.parametrize(
    ("mode", "kind", "words"),
    [
        ("illegal", "illegal", "occupied"),
        ("crash", "crash", "code 3"),
        ("hang", "timeout", "within 1 s"),
        ("garbage", "garbage", "not GTP"),
        ("badvertex", "garbage", "Z99"),
    ],
)
def test_misbehaving_engine_forfeits_and_match_goes_on(
    tmp_path: Path, fake_engine: str, mode: str, kind: str, words: str
) -> None:
    out = tmp_path / mode
    cfg = MatchConfig([f"{fake_engine} {mode} 2", "random"], games=3, size=7, move_timeout=1.0, out=str(out))
    summary = run_match(cfg)
    _check_dir(out, 3)
    assert summary["wins"] == {"A": 0, "B": 3}
    assert len(summary["forfeits"]) == 3  # restarted after each failure, failing again each game
    for f in summary["forfeits"]:
        assert f["player"] == "A" and f["kind"] == kind and words in f["reason"], f
    for r in load_results(out):
        assert r["reason"] == "forfeit"
        assert r["result"] == ("W+" if r["black"] == "A" else "B+") + ("T" if kind == "timeout" else "F")
        # the good moves before the failure (an illegal move is timed too)
        assert r["times"]["A"]["moves"] == (3 if kind == "illegal" else 2)


def _moves(out: Path) -> list[tuple]:
    recs = sorted(load_results(out), key=lambda r: r["game"])
    return [tuple(load_sgf(out / r["sgf"]).moves) for r in recs]


def test_seeded_games_differ_and_the_match_replays_exactly(tmp_path: Path) -> None:
    # seeded agents, no random openings: each game still gets its own seed, so the games
    # differ rather than repeat one game per colour, and the same --seed replays them
    argv = ["mcts:playouts=40", "random", "-n", "6", "--size", "5", "--seed", "3"]
    assert cli.main([*argv, "-o", str(tmp_path / "a")]) == 0
    assert cli.main([*argv, "-j", "2", "-o", str(tmp_path / "b")]) == 0
    a = _moves(tmp_path / "a")
    assert len(set(a)) == 6
    assert _moves(tmp_path / "b") == a  # worker processes do not change which game gets which seed
    assert (
        cli.main(
            ["mcts:playouts=40", "random", "-n", "2", "--size", "5", "--seed", "4", "-o", str(tmp_path / "c")]
        )
        == 0
    )
    assert _moves(tmp_path / "c") != a[:2]


def test_resume_plays_only_missing_games(tmp_path: Path) -> None:
    out = tmp_path / "r"
    assert cli.main(["random", "random", "-n", "2", "--size", "5", "-o", str(out)]) == 0
    first = {r["game"]: r for r in load_results(out)}
    # a crash while writing leaves a torn line: resume ignores it
    with open(out / "results.jsonl", "a") as f:
        f.write('{"game": 2, "bla')
    # without --resume an existing match is never overwritten
    assert cli.main(["random", "random", "-n", "4", "--size", "5", "-o", str(out)]) == 1
    assert cli.main(["--resume", "-o", str(out), "-n", "4"]) == 0
    summary = _check_dir(out, 4)
    again = {r["game"]: r for r in load_results(out)}
    assert {k: again[k] for k in first} == first  # finished games untouched
    assert summary["config"]["games"] == 4


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["random"], "two players"),
        (["random", "nosuchengine-xyz"], "neither an AI nor a program"),
        (["random", "random:bogus_option=3"], "bad settings"),
        (["random", "random", "--size", "1"], "outside"),
        (["random", "random", "--rules", "klingon"], "unknown rules"),
        (["random", "random", "--handicap", "12"], "stones"),
        (["random", "random", "--games", "0"], "at least 1"),
        (["--resume"], "--out"),
    ],
)
def test_bad_command_lines_give_one_line(argv: list[str], words: str, capsys: pytest.CaptureFixture) -> None:
    assert cli.main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and len(err.splitlines()) == 1, err


def test_statistics() -> None:
    lo, hi = wilson(7, 10)
    assert 0.39 < lo < 0.40 and 0.89 < hi < 0.90  # the textbook Wilson interval for 7/10
    assert wilson(0, 0) == (0.0, 1.0)
    assert elo(0.5) == 0 and round(elo(0.75)) == 191 and elo(1.0) == float("inf")
    recs = [
        {"game": 0, "black": "A", "winner": "A", "times": {"A": {"moves": 2, "total": 1.0, "max": 0.8}}},
        {"game": 1, "black": "B", "winner": None, "reason": "passes"},
        {"game": 2, "black": "A", "winner": "B", "forfeit": {"player": "A", "kind": "crash", "reason": "x"}},
    ]
    s = summarize(recs)
    assert s["wins"] == {"A": 1, "B": 1} and s["draws"] == 1 and s["win_rate_A"] == 0.5
    assert s["by_color"]["A"]["black"] == {"games": 2, "wins": 1}
    assert s["color_wins"] == {"black": 1, "white": 1}
    assert s["time_per_move"]["A"] == {"moves": 2, "mean": 0.5, "max": 0.8, "total": 1.0}
    assert s["forfeits"] == [{"game": 2, "player": "A", "kind": "crash", "reason": "x"}]
    assert s["elo_A_minus_B"] == 0 and s["elo_A_minus_B_95"][0] < 0 < s["elo_A_minus_B_95"][1]


def test_report_writes_markdown_and_a_png(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    from gorilla.match.plot import read_png
    from gorilla.match.report import BLUE, RED

    out = tmp_path / "rep"
    assert cli.main(["random", "random", "-n", "3", "--size", "5", "-o", str(out)]) == 0
    capsys.readouterr()
    assert cli.main(["--report", str(out)]) == 0
    printed = capsys.readouterr().out.split()
    assert printed == [str(out / "report.md"), str(out / "report.png")]
    md = (out / "report.md").read_text()
    summary = json.loads((out / "summary.json").read_text())
    assert f"{100 * summary['win_rate_A']:.1f}%" in md
    assert sum(1 for ln in md.splitlines() if ln.startswith("| [")) == 3  # one row per game, linked SGF
    img = read_png((out / "report.png").read_bytes())
    assert img.shape == (640, 900, 3)
    colours = {tuple(int(v) for v in px) for px in img.reshape(-1, 3)[::7]}
    assert BLUE in colours and RED in colours  # both running curves are drawn
    assert cli.main(["--report", str(tmp_path / "nothing")]) == 1
    assert "no results.jsonl" in capsys.readouterr().err


def test_sprt_llr_against_hand_computed_values() -> None:
    import itertools
    import math

    from gorilla.match.sprt import Sprt, bounds, expected_score, llr

    assert bounds(0.05, 0.05) == pytest.approx((-2.944439, 2.944439), abs=1e-6)  # log(1/19), log(19)
    assert bounds(0.05, 0.1) == pytest.approx((math.log(0.1 / 0.95), math.log(0.9 / 0.05)))
    assert expected_score(0) == 0.5 and expected_score(400) == pytest.approx(10 / 11)
    # without draws the trinomial GSPRT is the binomial SPRT: W log(s1/s0) + L log((1-s1)/(1-s0));
    # by hand for 30 wins, 20 losses, elo0 = 0, elo1 = 50 (s1 = 0.571463): 4.0083 - 3.0852
    s1 = 1 / (1 + 10 ** (-50 / 400))
    assert s1 == pytest.approx(0.571463, abs=1e-6)
    assert llr(20, 0, 30, 0, 50) == pytest.approx(0.92313, abs=1e-3)
    assert llr(0, 0, 10, 0, 50) == pytest.approx(10 * math.log(s1 / 0.5), abs=1e-3)  # 1.3359
    # with draws: the maximum-likelihood distributions of mean s0 and s1, checked by brute force
    losses, draws, wins = 20, 20, 60

    def best_loglik(s: float) -> float:  # max over (pL, pD, pW) with pD/2 + pW = s
        best = -math.inf
        for k in range(1, 4000):
            pd = k / 4000
            pw = s - pd / 2
            pl = 1 - pd - pw
            if pw > 0 and pl > 0:
                best = max(best, losses * math.log(pl) + draws * math.log(pd) + wins * math.log(pw))
        return best

    brute = best_loglik(expected_score(10)) - best_loglik(expected_score(0))
    assert llr(losses, draws, wins, 0, 10) == pytest.approx(brute, abs=2e-3)
    assert llr(losses, draws, wins, 0, 10) == pytest.approx(1.3898, abs=1e-3)
    # a draw is half a point: 2 draws move the LLR the way one win and one loss do, not like nothing
    assert llr(10, 2, 10, 0, 20) != llr(10, 0, 10, 0, 20)
    assert llr(10, 10, 10, 0, 20) < 0 < llr(5, 10, 15, 0, 20)
    # the LLR rises with every extra win and falls with every extra loss
    for w, d, l in itertools.product(range(0, 6, 2), repeat=3):
        assert llr(l, d, w + 1, -10, 10) > llr(l, d, w, -10, 10) > llr(l + 1, d, w, -10, 10)
    t = Sprt.parse("0,50")
    assert (t.alpha, t.beta) == (0.05, 0.05) and t.decide(3.0) == "H1" and t.decide(-3.0) == "H0"
    assert t.decide(0.0) is None


@pytest.mark.parametrize(
    ("flag", "words"),
    [("0", "ELO0,ELO1"), ("10,0", "ELO0 < ELO1"), ("0,10,0.6,0.05", "between 0 and 0.5"), ("a,b", "numbers")],
)
def test_bad_sprt_gives_one_line(flag: str, words: str, capsys: pytest.CaptureFixture) -> None:
    assert cli.main(["random", "random", "--sprt", flag]) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and len(err.splitlines()) == 1, err


def test_sprt_stops_early_for_a_strong_agent(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "s"
    argv = ["mcts:playouts=60", "random", "-n", "60", "--size", "5", "--sprt", "0,100", "-o", str(out)]
    assert cli.main(argv) == 0
    summary = json.loads((out / "summary.json").read_text())
    t = summary["sprt"]
    assert t["decision"] == "H1" and t["llr"] >= t["upper"] == pytest.approx(2.944, abs=1e-3)
    assert summary["games"] == t["decided_at"] < 60  # stopped as soon as it crossed
    err = capsys.readouterr().err
    assert "LLR" in err and "H1 accepted" in err
    # the report says it too
    assert cli.main(["--report", str(out)]) == 0
    md = (out / "report.md").read_text()
    assert "SPRT" in md and "H1 accepted" in md
    # --resume of a decided match plays nothing more
    assert cli.main(["--resume", "-o", str(out)]) == 0
    assert len(load_results(out)) == summary["games"]


def test_sprt_between_equal_agents_does_not_accept_h1(tmp_path: Path) -> None:
    out = tmp_path / "eq"
    argv = ["random", "random", "-n", "40", "--size", "5", "--seed", "1", "--sprt", "0,300", "-o", str(out)]
    assert cli.main(argv) == 0
    t = json.loads((out / "summary.json").read_text())["sprt"]
    assert t["decision"] != "H1"
    assert t["decision"] == "H0" and t["decided_at"] <= 40  # a 300 Elo gap is soon ruled out


def test_selfplay_writes_distinct_games_as_sgf(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    from gorilla.cli import main as gorilla_main

    out = tmp_path / "sp"
    argv = ["selfplay", "mcts:playouts=30", "-n", "4", "--size", "5", "--openings", "3", "--seed", "2"]
    assert gorilla_main([*argv, "-o", str(out)]) == 0
    assert capsys.readouterr().out.strip() == str(out / "games")
    sgfs = sorted((out / "games").glob("*.sgf"))
    assert len(sgfs) == 4
    games = [load_sgf(p) for p in sgfs]
    assert all(g.info.black_name == g.info.white_name == "mcts:playouts=30" for g in games)
    assert all(g.result for g in games)
    openings = [tuple(m.point for m in g.moves[:3]) for g in games]
    assert len(set(openings)) == 4  # every game its own random opening
    # the same seed gives the same games; --resume plays only what is missing
    assert gorilla_main(["selfplay", "--resume", "-o", str(out), "-n", "5"]) == 0
    assert len(list((out / "games").glob("*.sgf"))) == 5
    assert [tuple(load_sgf(p).moves) for p in sgfs] == [tuple(g.moves) for g in games]


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        ([], "give the player"),
        (["random", "--size", "1"], "outside"),
        (["random", "--bogus"], "unrecognized"),
    ],
)
def test_selfplay_bad_command_lines(argv: list[str], words: str, capsys: pytest.CaptureFixture) -> None:
    from gorilla.match.selfplay_cli import main

    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and len(err.splitlines()) == 1, err


def test_spsa_finds_a_known_optimum() -> None:
    import random

    from gorilla.match.spsa import Param, SpsaSettings, spsa

    # a toy "match": strength in Elo peaks at x = 7 (an integer in 0..10) and y = -0.5 (in -1..1);
    # each iteration plays 16 simulated games with the logistic Elo model, so the scores are noisy
    def strength(p: dict[str, float]) -> float:
        return -2000 * ((p["x"] - 7) / 10) ** 2 - 1500 * ((p["y"] + 0.5) / 2) ** 2

    rng = random.Random(5)

    def match(plus: dict[str, float], minus: dict[str, float], k: int) -> float:
        s = 1 / (1 + 10 ** (-(strength(plus) - strength(minus)) / 400))
        return sum(rng.random() < s for _ in range(16)) / 16

    params = [Param.parse("x=2:0:10"), Param.parse("y=0.8:-1:1")]
    assert params[0].integer and not params[1].integer
    rows = spsa(params, match, SpsaSettings(iterations=200, seed=1))
    assert len(rows) == 200
    final = rows[-1].values
    assert final["x"] == 7 and abs(final["y"] + 0.5) < 0.15, final
    # it moved towards the optimum and kept every setting inside its range
    assert all(0 <= r.values["x"] <= 10 and -1 <= r.values["y"] <= 1 for r in rows)
    assert all(r.plus["x"] == round(r.plus["x"]) for r in rows)
    a, c = rows[0].a_k, rows[0].c_k
    assert rows[-1].a_k < a and rows[-1].c_k < c  # decreasing gains


@pytest.mark.parametrize(
    ("text", "words"),
    [("fpu", "NAME=START:MIN:MAX"), ("fpu=2:0:1", "START between"), ("fpu=a:0:1", "numbers")],
)
def test_spsa_bad_param(text: str, words: str) -> None:
    from gorilla.match.spsa import Param

    with pytest.raises(ValueError, match=words):
        Param.parse(text)


def test_tune_a_real_agent_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    import csv

    from gorilla.cli import main as gorilla_main
    from gorilla.match.players import check_spec
    from gorilla.match.plot import read_png

    out = tmp_path / "t"
    argv = ["tune", "mcts:playouts=20", "--param", "c_uct=0.5:0:2", "--param", "expand=2:1:8"]
    argv += ["--iterations", "3", "--games", "2", "--size", "5", "-o", str(out)]
    assert gorilla_main(argv) == 0
    final = capsys.readouterr().out.strip()
    assert final.startswith("mcts:playouts=20,c_uct=") and ",expand=" in final
    assert check_spec(final) is None and (out / "final.txt").read_text().strip() == final
    rows = list(csv.DictReader((out / "tune.csv").open()))
    assert [r["iteration"] for r in rows] == ["1", "2", "3"]
    columns = {"a_k", "c_k", "c_uct_plus", "c_uct_minus", "score_plus", "elo_plus_minus", "expand"}
    assert columns <= set(rows[0])
    last = rows[-1]
    assert final == f"mcts:playouts=20,c_uct={float(last['c_uct']):.6g},expand={int(last['expand'])}"
    for r in rows:  # every iteration a real match between the two perturbed settings
        k = int(r["iteration"])
        summary = json.loads((out / "matches" / f"iter-{k:04d}" / "summary.json").read_text())
        assert summary["games"] == 2
        plus = f"mcts:playouts=20,c_uct={r['c_uct_plus']},expand={r['expand_plus']}"
        assert summary["players"]["A"] == plus
        assert float(r["score_plus"]) == (summary["wins"]["A"] + 0.5 * summary["draws"]) / 2
    assert read_png((out / "tune.png").read_bytes()).shape == (600, 900, 3)


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["mcts:playouts=20"], "--param"),
        (["mcts:playouts=20", "--param", "bogus=1:0:2"], "bad settings"),
        (["gnugo --mode gtp", "--param", "x=1:0:2"], "not a built-in"),
        (["mcts:playouts=20", "--param", "fpu=1:0:2", "--games", "3"], "even"),
    ],
)
def test_tune_bad_command_lines(argv: list[str], words: str, capsys: pytest.CaptureFixture) -> None:
    from gorilla.match.tune import main

    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and len(err.splitlines()) == 1, err
