"""The net against KataGo itself: its ``kata-raw-nn`` numbers for a few hundred varied positions.

``tests/data/net/katago_raw_nn.json.gz`` was written by ``benchmarks/katago_reference.py``
driving KataGo (its CPU backend) over GTP; every position is replayed here with Gorilla's
rules engine, encoded by :mod:`gorilla.ai.net.inputs` under the same KataGo rules, and
evaluated in batches. Policy, win/loss/no-result and ownership must agree within 1e-3
everywhere, the scores within 0.01 points, the legal moves exactly and the top move.
"""

from __future__ import annotations

import gzip
import json
import math
from pathlib import Path

import numpy as np
import pytest
from helpers import replay_reference

from gorilla.ai.net import load_net
from gorilla.rules.board import BLACK, WHITE
from gorilla.rules.game import Game

DATA = Path(__file__).parent / "data" / "net" / "katago_raw_nn.json.gz"
PROB_TOL = 1e-3
SCORE_TOL = 0.01

inputs = pytest.importorskip("gorilla.ai.net.inputs", reason="the net's input features are not written yet")


@pytest.fixture(scope="module")
def reference() -> dict:
    with gzip.open(DATA, "rt") as f:
        return json.load(f)


@pytest.fixture(scope="module")
def net():
    return load_net()


def replay(spec: dict) -> Game:
    game = replay_reference(spec)
    assert game.to_move == (BLACK if spec["to_move"] == "B" else WHITE)
    return game


@pytest.fixture(scope="module")
def compared(reference, net) -> list[tuple[dict, dict, object]]:
    """(position, KataGo's eval, our NetEval for White) for every eval of the data, in one pass."""
    games, syms, rules, pairs = [], [], [], []
    for spec in reference["positions"]:
        game = replay(spec)
        r = inputs.NetRules.katago(spec["rules"], spec["komi"])
        for e in spec["evals"]:
            games.append(game)
            syms.append(e["symmetry"])
            rules.append(r)
            pairs.append((spec, e))
    # one evaluate call per rules (the API takes one NetRules for a batch)
    out: list[object] = [None] * len(games)
    for r in set(rules):
        idx = [i for i, x in enumerate(rules) if x == r]
        for i, ev in zip(idx, net.evaluate([games[i] for i in idx], [syms[i] for i in idx], r), strict=True):
            out[i] = ev.for_white()
    return [(s, e, o) for (s, e), o in zip(pairs, out, strict=True)]


def test_the_data_covers_what_it_should(reference) -> None:
    pos = reference["positions"]
    assert len(pos) >= 250
    assert {p["size"] for p in pos} >= {9, 13, 19}
    assert {p["rules"] for p in pos} >= {"chinese", "japanese", "tromp-taylor", "aga", "new-zealand"}
    assert {p["mode"] for p in pos} >= {"ko", "pass1", "pass2", "pass-inside", "plain"}
    assert sum(1 for p in pos if p["handicap"]) >= 10
    komis = {p["komi"] for p in pos}
    assert min(komis) <= -5 and max(komis) >= 15 and 7.0 in komis and 6.5 in komis
    assert {e["symmetry"] for p in pos for e in p["evals"]} == set(range(8))


def _kata(e: dict, size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    pol = np.array(e["policy"], float)
    legal = pol >= 0
    return np.where(legal, pol / 1e6, 0.0), legal, np.array(e["white_ownership"], float) / 1e7


def test_every_position_agrees_with_katago(compared) -> None:
    worst = {"policy": 0.0, "wdl": 0.0, "ownership": 0.0, "lead": 0.0, "score": 0.0, "stdev": 0.0}
    bad = []
    for spec, e, ev in compared:
        size = spec["size"]
        pol, legal, own = _kata(e, size)
        where = f"{size}x{size} {spec['rules']} komi {spec['komi']} {spec['mode']} sym {e['symmetry']}"
        ours_legal = ev.legal
        if not np.array_equal(ours_legal, legal):
            bad.append(f"{where}: legal moves differ at {np.nonzero(ours_legal != legal)[0].tolist()}")
            continue
        d = {
            "policy": np.abs(ev.policy - pol).max(),
            "wdl": max(
                abs(ev.winrate - e["white_win"]),
                abs(ev.loss - e["white_loss"]),
                abs(ev.no_result - e["no_result"]),
            ),
            "ownership": np.abs(ev.ownership - own).max(),
            "lead": abs(ev.score_lead - e["white_lead"]),
            "score": abs(ev.score_mean - e["white_score"]),
        }
        # KataGo's whiteScoreSelfplaySq: (mean^2 + stdev^2) * (1 - noResult), the mean before that factor
        has = 1 - ev.no_result
        mean = ev.score_mean / has if has > 0 else 0.0
        sq = (mean * mean + ev.score_stdev**2) * has
        d["stdev"] = abs(math.sqrt(max(sq, 0)) - math.sqrt(max(e["white_score_sq"], 0)))
        for k, v in d.items():
            worst[k] = max(worst[k], float(v))
        tol = {"policy": PROB_TOL, "wdl": PROB_TOL, "ownership": PROB_TOL}
        over = [k for k, v in d.items() if v > tol.get(k, SCORE_TOL)]
        if over:
            bad.append(f"{where}: {', '.join(f'{k} off by {d[k]:.4g}' for k in over)}")
        top = int(np.argmax(ev.policy))
        if pol[top] < pol.max() - 2e-6:
            bad.append(
                f"{where}: top move {top} (KataGo {pol[top]:.6f}) is not KataGo's {int(np.argmax(pol))}"
            )
    print("largest differences:", {k: f"{v:.2e}" for k, v in worst.items()})
    assert not bad, f"{len(bad)} of {len(compared)} evaluations disagree:\n" + "\n".join(bad[:30])


def test_all_symmetries_averaged(reference, net) -> None:
    """symmetry='all' is the mean of the eight: here against KataGo's eight."""
    done = 0
    for spec in reference["positions"]:
        if len(spec["evals"]) != 8:
            continue
        game = replay(spec)
        r = inputs.NetRules.katago(spec["rules"], spec["komi"])
        [ev] = net.evaluate([game], "all", r)
        ev = ev.for_white()
        pols, owns = zip(*[_kata(e, spec["size"])[::2] for e in spec["evals"]], strict=True)
        np.testing.assert_allclose(ev.policy, np.mean(pols, axis=0), atol=PROB_TOL)
        np.testing.assert_allclose(ev.ownership, np.mean(owns, axis=0), atol=PROB_TOL)
        assert abs(ev.winrate - np.mean([e["white_win"] for e in spec["evals"]])) < PROB_TOL
        assert abs(ev.score_lead - np.mean([e["white_lead"] for e in spec["evals"]])) < SCORE_TOL
        done += 1
    assert done >= 5


def test_for_black_and_the_side_to_move(compared) -> None:
    spec, e, ev = next((s, e, o) for s, e, o in compared if s["to_move"] == "B" and len(s["moves"]) > 20)
    black = ev.for_black()
    assert black.color == BLACK and black.to_move == BLACK
    assert black.winrate == ev.loss and black.score_lead == -ev.score_lead
    np.testing.assert_array_equal(black.ownership, -ev.ownership)
    np.testing.assert_array_equal(black.policy, ev.policy)
    assert abs(black.policy.sum() - 1) < 1e-5 and black.policy[~black.legal].sum() == 0
