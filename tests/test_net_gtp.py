"""``kata-raw-nn`` over GTP (KataGo's format) and ``gorilla gtp --net``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from gorilla.ai.net import load_net
from gorilla.gtp.main import engine_from_args
from gorilla.rules.board import WHITE
from gorilla.rules.coords import parse_vertex


def answer(engine, line: str) -> str:
    resp = engine.execute(line)
    assert resp is not None and resp.endswith("\n\n")
    return resp


def parse_blocks(text: str, size: int) -> list[dict]:
    """kata-raw-nn output as dicts (NAN -> nan), as a tool reading KataGo's would."""
    blocks: list[dict] = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        parts = lines[i].split()
        i += 1
        if not parts:
            continue
        if parts[0] == "symmetry":
            blocks.append({"symmetry": int(parts[1])})
        elif parts[0] in ("policy", "whiteOwnership"):
            rows = [[float(v) for v in lines[i + r].split()] for r in range(size)]
            assert all(len(r) == size for r in rows)
            blocks[-1][parts[0]] = np.array(rows)
            i += size
        else:
            assert len(parts) == 2, lines[i - 1]
            blocks[-1][parts[0]] = float(parts[1])
    return blocks


@pytest.fixture(scope="module")
def engine():
    return engine_from_args(["--size", "9", "--komi", "6.5"])


def test_kata_raw_nn_answers_in_katagos_format(engine) -> None:
    for line in ("clear_board", "play b E5", "play w C3", "play b D3"):
        assert answer(engine, line).startswith("=")
    resp = answer(engine, "kata-raw-nn 0")
    assert resp.startswith("= symmetry 0\nwhiteWin ")
    [b] = parse_blocks(resp[2:].strip(), 9)
    first = [ln.split()[0] for ln in resp[2:].strip().split("\n")]
    labels = [w for w in first if w[0].isalpha() and w != "NAN"]
    assert labels == [
        "symmetry",
        "whiteWin",
        "whiteLoss",
        "noResult",
        "whiteLead",
        "whiteScoreSelfplay",
        "whiteScoreSelfplaySq",
        "varTimeLeft",
        "shorttermWinlossError",
        "shorttermScoreError",
        "policy",
        "policyPass",
        "whiteOwnership",
    ]
    assert abs(b["whiteWin"] + b["whiteLoss"] + b["noResult"] - 1) < 2e-6
    assert b["noResult"] == 0  # Gorilla's Chinese rules: positional superko, area scoring
    pol = b["policy"]
    # the occupied points are NAN, the rest sums to one with pass
    for v in ("E5", "C3", "D3"):
        x, y = "ABCDEFGHJ".index(v[0]), int(v[1:]) - 1
        assert np.isnan(pol[8 - y, x])
    assert abs(np.nansum(pol) + b["policyPass"] - 1) < 1e-4
    assert np.all(np.abs(b["whiteOwnership"]) <= 1)
    # the same numbers as the API, from White's view (White to move here)
    net = load_net()
    [ev] = net.evaluate([engine.game], symmetry=0)
    assert engine.game.to_move == WHITE
    assert abs(b["whiteWin"] - ev.winrate) < 1e-6 and abs(b["whiteLead"] - ev.score_lead) < 1e-3
    np.testing.assert_allclose(b["whiteOwnership"].reshape(-1), ev.ownership, atol=1e-6)
    best = ev.best(1)[0][0]
    assert best == parse_vertex(_top(pol), 9)


def _top(pol: np.ndarray) -> str:
    r, c = np.unravel_index(np.nanargmax(pol), pol.shape)
    return f"{'ABCDEFGHJ'[c]}{9 - r}"


def test_all_symmetries_and_a_colour(engine) -> None:
    for line in ("clear_board", "play b E5", "play w C3", "play b D3"):  # not symmetric
        assert answer(engine, line).startswith("=")
    resp = answer(engine, "kata-raw-nn all")
    blocks = parse_blocks(resp[2:].strip(), 9)
    assert [b["symmetry"] for b in blocks] == list(range(8))
    assert "\n\n" not in resp[:-2]  # one GTP answer
    wins = [b["whiteWin"] for b in blocks]
    assert max(wins) - min(wins) < 0.2 and len(set(wins)) > 1  # eight evaluations, close
    # Black to move instead: Black's stones and White's swap sides of the ownership sign
    b_black = parse_blocks(answer(engine, "kata-raw-nn b 0")[2:].strip(), 9)[0]
    b_white = parse_blocks(answer(engine, "kata-raw-nn w 0")[2:].strip(), 9)[0]
    assert b_black["whiteWin"] != b_white["whiteWin"]


def test_bad_arguments_are_errors(engine) -> None:
    for line in ("kata-raw-nn", "kata-raw-nn 8", "kata-raw-nn x", "kata-raw-nn 0 1", "kata-raw-nn b"):
        resp = answer(engine, line)
        assert resp.startswith("? ") and resp.count("\n") == 2, (line, resp)


def test_a_bad_net_is_one_line_and_the_shipped_net_plays_on(tmp_path: Path) -> None:
    """Issue 65: a net that cannot be read is one line naming why, and the engine goes on with
    the shipped net (kata-raw-nn answers from it, the net agent plays with it)."""
    bad = tmp_path / "broken.bin.gz"
    bad.write_bytes(b"\x1f\x8b\x08\x00garbage")
    engine = engine_from_args(["--size", "9", "--net", str(bad)])
    assert "damaged gzip" in engine.net_warning and "shipped net" in engine.net_warning
    assert "\n" not in engine.net_warning
    shipped = engine_from_args(["--size", "9"])
    for e in (engine, shipped):
        assert answer(e, "play b E5") == "=\n\n"
    ours, theirs = (parse_blocks(answer(e, "kata-raw-nn 0")[2:].strip(), 9)[0] for e in (engine, shipped))
    assert ours["whiteWin"] == theirs["whiteWin"]  # the shipped net's answer, to the digit
    assert answer(engine, "genmove w").startswith("= ")


def test_gorilla_gtp_with_a_bad_net_says_so_on_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "v99.bin.gz"
    import gzip

    bad.write_bytes(gzip.compress(b"mynet\n99\n22\n19\n"))
    proc = subprocess.run(
        [sys.executable, "-m", "gorilla", "gtp", "--size", "9", "--net", str(bad)],
        input=b"kata-raw-nn 0\nplay b E5\nquit\n",
        capture_output=True,
        timeout=300,
    )
    assert proc.returncode == 0
    out = proc.stdout.decode()
    assert out.startswith("= symmetry 0") and "whiteWin" in out  # the shipped net answers
    assert "\n\n=" in out
    warnings = [ln for ln in proc.stderr.decode().splitlines() if "warning" in ln]
    assert len(warnings) == 1 and "version 99 is not supported" in warnings[0]
    assert "shipped net" in warnings[0]


# --- kata-set-rules, kata-get-rules, kata-set-rule, kgs-rules ---------------------------------

REFERENCE = Path(__file__).parent / "data" / "net" / "katago_raw_nn.json.gz"

# (command, KataGo 1.17.2's answer), sent in this order to `katago gtp` (its 6-block net) and
# to Gorilla: the names, the short form, the JSON, KataGo's errors, one field at a time, KGS's
KATAGO_SESSION = [
    ("kata-set-rules tromp-taylor", "="),
    (
        "kata-get-rules",
        '= {"friendlyPassOk":false,"hasButton":false,"ko":"POSITIONAL","scoring":"AREA",'
        '"suicide":true,"tax":"NONE","whiteHandicapBonus":"0"}',
    ),
    ("kata-set-rules chinese", "="),
    (
        "kata-get-rules",
        '= {"friendlyPassOk":true,"hasButton":false,"ko":"SIMPLE","scoring":"AREA",'
        '"suicide":false,"tax":"NONE","whiteHandicapBonus":"N"}',
    ),
    ("kata-set-rules koPOSITIONALscoreAREAtaxNONEsui0", "="),
    (
        "kata-get-rules",
        '= {"friendlyPassOk":false,"hasButton":false,"ko":"POSITIONAL","scoring":"AREA",'
        '"suicide":false,"tax":"NONE","whiteHandicapBonus":"0"}',
    ),
    (
        "kata-set-rules koSPIGHTscoreAREA",
        '? Rules {"friendlyPassOk":false,"hasButton":false,"ko":"SPIGHT",'
        '"scoring":"AREA","suicide":true,"tax":"NONE","whiteHandicapBonus":"0"} are not supported by this '
        "neural net version",
    ),
    (
        "kata-set-rules scoreTERRITORYbutton1",
        '? Rules {"friendlyPassOk":false,"hasButton":true,'
        '"ko":"POSITIONAL","scoring":"TERRITORY","suicide":true,"tax":"SEKI","whiteHandicapBonus":"0"} '
        "are not supported by this neural net version",
    ),
    ('kata-set-rules {"ko":"SIMPLE","scoring":"TERRITORY"}', "="),
    (
        "kata-get-rules",
        '= {"friendlyPassOk":false,"hasButton":false,"ko":"SIMPLE","scoring":"TERRITORY",'
        '"suicide":true,"tax":"SEKI","whiteHandicapBonus":"0"}',
    ),
    (
        'kata-set-rules {"ko":"simple"}',
        '? Unknown rules \'{"ko":"simple"}\', Rules::parseKoRule: Invalid ko rule: simple',
    ),
    ('kata-set-rules {"kox":"SIMPLE"}', '? Unknown rules \'{"kox":"SIMPLE"}\', Unknown rules option: kox'),
    ("kata-set-rules blah", "? Unknown rules 'blah', Could not parse rules: blah"),
    ("kata-set-rules koSIMPLEkomi7", "? Unknown rules 'koSIMPLEkomi7', Could not parse rules: koSIMPLEkomi7"),
    ("kata-set-rules Ancient_Territory", "="),
    (
        "kata-get-rules",
        '= {"friendlyPassOk":false,"hasButton":false,"ko":"SIMPLE","scoring":"TERRITORY",'
        '"suicide":false,"tax":"ALL","whiteHandicapBonus":"0"}',
    ),
    ("kata-set-rules aga-button", "="),
    ("kata-set-rule ko SITUATIONAL", "="),
    ("kata-set-rule suicide true", "="),
    (
        "kata-get-rules",
        '= {"friendlyPassOk":true,"hasButton":true,"ko":"SITUATIONAL","scoring":"AREA",'
        '"suicide":true,"tax":"NONE","whiteHandicapBonus":"N-1"}',
    ),
    ("kata-set-rule foo 1", "? Unknown rules option: foo"),
    ("kata-set-rule ko BAD", "? Rules::parseKoRule: Invalid ko rule: BAD"),
    ("kgs-rules chinese", "="),
    (
        "kata-get-rules",
        '= {"friendlyPassOk":true,"hasButton":false,"ko":"POSITIONAL","scoring":"AREA",'
        '"suicide":false,"tax":"NONE","whiteHandicapBonus":"N"}',
    ),
    ("kgs-rules new_zealand", "="),
    (
        "kata-get-rules",
        '= {"friendlyPassOk":true,"hasButton":false,"ko":"SITUATIONAL","scoring":"AREA",'
        '"suicide":true,"tax":"NONE","whiteHandicapBonus":"0"}',
    ),
    ("kgs-rules foo", "? Unknown rules 'foo'"),
]


def test_the_rules_commands_answer_as_katago_does() -> None:
    engine = engine_from_args(["--size", "9"])
    for command, expected in KATAGO_SESSION:
        assert answer(engine, command).rstrip("\n") == expected, command


def test_every_rules_name_means_what_it_means_to_katago() -> None:
    import gzip
    import json

    with gzip.open(REFERENCE, "rt") as f:
        katago = json.load(f)["rules"]  # KataGo's kata-get-rules after kata-set-rules NAME
    engine = engine_from_args(["--size", "9", "--komi", "3.5"])
    for name, rules in katago.items():
        assert answer(engine, f"kata-set-rules {name}") == "=\n\n", name
        got = answer(engine, "kata-get-rules")
        assert json.loads(got[2:]) == rules, name
    assert engine.game.komi == 3.5  # the rules leave the komi alone


def test_the_rules_decide_which_moves_are_legal() -> None:
    engine = engine_from_args(["--size", "9"])
    answer(engine, "kata-set-rules chinese")
    assert not engine.game.ruleset.superko  # KataGo's chinese: simple ko
    answer(engine, "kata-set-rules chinese-ogs")
    assert engine.game.ruleset.superko and not engine.game.ruleset.suicide
    answer(engine, "kata-set-rules tromp-taylor")
    # a multi-stone suicide (A1 A2 into White's B1 B2 A3) is legal under Tromp-Taylor's rules
    for line in (
        "play b A1",
        "play w B1",
        "play b pass",
        "play w B2",
        "play b pass",
        "play w A3",
        "play b A2",
    ):
        assert answer(engine, line) == "=\n\n", line
    assert answer(engine, "list_stones b") == "=\n\n"  # both black stones gone
    # ... so the record cannot go under rules that forbid it, and stays as it was
    before = [(m.point, m.color) for m in engine.game.moves]
    resp = answer(engine, "kata-set-rules japanese")
    assert (
        resp
        == "? Could not make the rules change, some earlier moves in the game would now become illegal.\n\n"
    )
    assert [(m.point, m.color) for m in engine.game.moves] == before
    assert '"suicide":true' in answer(engine, "kata-get-rules")


def test_the_net_agent_is_told_the_rules() -> None:
    engine = engine_from_args(["--size", "9"])
    answer(engine, "kata-set-rules japanese")
    rules = engine.agent.evaluator.inputs.rules
    assert (rules.ko, rules.scoring, rules.tax) == ("simple", "territory", "seki")
    assert engine.game.ruleset.scoring == "territory"


def test_kata_raw_nn_equals_katagos_under_the_rules_set() -> None:
    """Positions of tests/data/net's reference, set up with KataGo's own commands: every rules
    name, kata-raw-nn within 1e-3 of KataGo's numbers (its NAN points exactly)."""
    import gzip
    import json

    with gzip.open(REFERENCE, "rt") as f:
        positions = json.load(f)["positions"]
    chosen: dict[str, list[dict]] = {}
    for spec in positions:
        if spec["size"] <= 13 and len(chosen.setdefault(spec["rules"], [])) < 2:
            chosen[spec["rules"]].append(spec)
    engine = engine_from_args(["--size", "9"])
    checked = 0
    for name, specs in chosen.items():
        for spec in specs:
            size = spec["size"]
            lines = [f"boardsize {size}", "clear_board", f"kata-set-rules {name}", f"komi {spec['komi']}"]
            if spec["handicap"]:
                lines.append("set_free_handicap " + " ".join(spec["handicap"]))
            lines += [f"play {c} {v}" for c, v in spec["moves"]]
            for line in lines:
                assert answer(engine, line).startswith("="), (name, line)
            for e in spec["evals"]:
                [b] = parse_blocks(
                    answer(engine, f"kata-raw-nn {spec['to_move']} {e['symmetry']}")[2:].strip(), size
                )
                pol = np.array(e["policy"], float)
                ours = np.append(b["policy"].reshape(-1), b["policyPass"])
                assert np.array_equal(np.isnan(ours), pol < 0), name
                assert np.nanmax(np.abs(ours - pol / 1e6)) < 1e-3, name
                assert abs(b["whiteWin"] - e["white_win"]) < 1e-3, name
                assert abs(b["noResult"] - e["no_result"]) < 1e-3, name
                assert abs(b["whiteLead"] - e["white_lead"]) < 0.01, name
                own = np.array(e["white_ownership"], float) / 1e7
                assert np.abs(b["whiteOwnership"].reshape(-1) - own).max() < 1e-3, name
                checked += 1
    assert set(chosen) >= {"chinese", "japanese", "tromp-taylor", "aga", "stone-scoring", "new-zealand"}
    assert checked >= 15
