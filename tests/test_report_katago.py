"""The report against KataGo's: KataGo 1.17.2's own 400-visit analysis of the benchmark's games
(``benchmarks/report_vs_katago.py --reference``: every position's root score lead and first
five moves, and the figures the benchmark computed from them with its own code) read back, and
Gorilla's report code given the same values gives the same figures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gorilla.app.go import report as rp
from gorilla.rules.board import BLACK, PASS, RESIGN, WHITE
from gorilla.rules.coords import parse_vertex
from gorilla.rules.sgf import read_sgf

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = json.loads((ROOT / "tests" / "data" / "report_katago.json").read_text())


def katago_facts(entry: dict) -> tuple[int, list[rp.MoveFacts]]:
    """The board size and the moves of one game as the report counts them, from KataGo's values
    read as KaTrain reads them (points lost: the fall of the mover's lead, at least 0)."""
    game = read_sgf(ROOT / "benchmarks" / "data" / entry["sgf"])
    moves = [m for m in game.moves if m.point != RESIGN]
    positions = entry["positions"]
    assert len(positions) == len(moves) + 1
    facts = []
    for k, m in enumerate(moves):
        if m.point == PASS:
            continue
        fall = positions[k]["lead"] - positions[k + 1]["lead"]
        lost = max(0.0, fall if m.color == BLACK else -fall)
        top = [parse_vertex(v, game.size) for v in positions[k]["top"]]
        rank = top.index(m.point) if m.point in top[: rp.TOP] else None
        facts.append(rp.MoveFacts(k + 1, m.color, lost, rank))
    return game.size, facts


@pytest.mark.parametrize("entry", REFERENCE["games"], ids=[g["name"] for g in REFERENCE["games"]])
def test_the_report_of_katagos_values_gives_the_benchmarks_figures(entry):
    size, facts = katago_facts(entry)
    rep = rp.GameReport(size, facts)
    for color, who in ((BLACK, "B"), (WHITE, "W")):
        s, want = rep.stats(color), entry["figures"][who]
        assert s.moves == want["moves"]
        assert s.mean_lost == pytest.approx(want["mean_lost"], abs=1e-9)
        assert s.accuracy == pytest.approx(want["accuracy"], abs=1e-6)
        assert (s.top1, s.top5) == (pytest.approx(want["top1"]), pytest.approx(want["top5"]))
        phases = [rep.stats(color, p) for p in (rp.OPENING, rp.MIDDLE, rp.ENDGAME)]
        assert sum(p.moves for p in phases) == s.moves
        assert tuple(map(sum, zip(*(p.classes for p in phases), strict=True))) == s.classes
