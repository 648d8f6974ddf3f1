"""``gorilla analysis`` against KataGo's own analysis engine: the same queries, KataGo's answers
kept in ``tests/data/analysis/katago_analysis.json.gz`` (written by
``benchmarks/analysis_engine.py --write`` from KataGo 1.17.2, Eigen, the shipped 6-block net).

The positions are games of ``benchmarks/data`` at several moves (9x9 to 19x19), a 13x13
handicap game from ``initialStones``, KataGo's rules by name (``chinese``, ``japanese``,
``tromp-taylor``, ``aga``) and as JSON, a komi of 0.5, and a ``playoutDoublingAdvantage``.

- One visit with ``nnRandomize = false`` (symmetry 0 for both): the net's own win rate, score
  lead and policy, as each engine reports them, agree within the net's precision: the query's
  rules, komi, stones, history cap (``ignorePreRootHistory``) and PDA reach the net as
  KataGo's reach it.
- The searched answers (the data's visits for both, Gorilla seeded): the win rates and score
  leads are close, and where the game is still open KataGo's most visited move is among
  Gorilla's three most visited.
"""

from __future__ import annotations

import gzip
import io
import json
from pathlib import Path

import pytest

from gorilla.gtp.analysis_engine import AnalysisEngine
from gorilla.gtp.kata_config import engine_config

DATA = Path(__file__).parent / "data" / "analysis" / "katago_analysis.json.gz"


@pytest.fixture(scope="module")
def reference() -> dict:
    with gzip.open(DATA, "rt") as f:
        return json.load(f)


def gorilla_answers(queries: list[dict], **config: str) -> dict[str, dict]:
    out = io.StringIO()
    engine = AnalysisEngine(engine_config({"reportAnalysisWinratesAs": "BLACK", **config}), out)
    engine.start(1)
    for q in queries:
        engine.handle(json.dumps(q))
    engine.finish()
    answers = [json.loads(x) for x in out.getvalue().splitlines()]
    assert not [a for a in answers if "error" in a or "warning" in a]
    return {a["id"]: a for a in answers if "rootInfo" in a and not a["isDuringSearch"]}


def test_the_data_covers_what_it_should(reference) -> None:
    pos = reference["positions"]
    assert len(pos) >= 8 and reference["net"].startswith("g170-b6c96")
    sizes = {p["query"]["boardXSize"] for p in pos}
    assert sizes >= {9, 13, 19}
    assert any("initialStones" in p["query"] for p in pos)
    assert any(isinstance(p["query"]["rules"], dict) for p in pos)
    assert any("playoutDoublingAdvantage" in p["query"].get("overrideSettings", {}) for p in pos)


def test_the_nets_own_answer_is_katagos(reference) -> None:
    queries = [
        {"id": p["name"], **p["query"], "maxVisits": 1, "includePolicy": True} for p in reference["positions"]
    ]
    ours = gorilla_answers(queries, nnRandomize="false")
    for p in reference["positions"]:
        a, k = ours[p["name"]], p["raw"]
        assert a["rootInfo"]["rawWinrate"] == pytest.approx(k["rootInfo"]["rawWinrate"], abs=1e-3), p["name"]
        assert a["rootInfo"]["rawLead"] == pytest.approx(k["rootInfo"]["rawLead"], abs=0.02), p["name"]
        assert [x == -1 for x in a["policy"]] == [x == -1 for x in k["policy"]], p["name"]
        assert max(abs(x - y) for x, y in zip(a["policy"], k["policy"], strict=True)) < 1e-3, p["name"]


def _most_visited(answer: dict, k: int) -> list[str]:
    return [m["move"] for m in sorted(answer["moveInfos"], key=lambda m: -m["visits"])[:k]]


def test_the_searched_answers_agree_with_katagos(reference) -> None:
    visits = reference["visits"]
    queries = [{"id": p["name"], **p["query"], "maxVisits": visits} for p in reference["positions"]]
    ours = gorilla_answers(queries, nnRandSeed="1")
    open_games = 0
    for p in reference["positions"]:
        a, k = ours[p["name"]], p["search"]
        assert a["rootInfo"]["visits"] == k["rootInfo"]["visits"] == visits
        wr = k["rootInfo"]["winrate"]
        assert abs(a["rootInfo"]["winrate"] - wr) < 0.05, p["name"]
        lead = k["rootInfo"]["scoreLead"]
        assert abs(a["rootInfo"]["scoreLead"] - lead) < max(1.5, 0.1 * abs(lead)), p["name"]
        if 0.02 < wr < 0.98:  # a decided game's moves are close to equal: their order is noise
            open_games += 1
            assert _most_visited(k, 1)[0] in _most_visited(a, 3), p["name"]
    assert open_games >= 6
