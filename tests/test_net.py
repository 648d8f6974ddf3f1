"""The net against KataGo itself: its ``kata-raw-nn`` numbers for a few hundred positions per net.

Each ``tests/data/net/katago_raw_nn*.json.gz`` was written by ``benchmarks/katago_reference.py``
driving KataGo 1.17.2 (its CPU backend, Eigen) over GTP: the shipped net (model version 8) on
random games under every ruleset, KataGo's two transformer test nets (version 17) and KaTrain's
``b10c384h6nbttflrs`` (version 15: nested bottlenecks of transformer blocks) on positions of
real games, 9x9 to 19x19, with a policy optimism of 0, 0.2 or 1. Every position is replayed
here with Gorilla's rules engine, encoded by :mod:`gorilla.ai.net.inputs` under the same
KataGo rules, and evaluated in batches. Policy, win/loss/no-result and ownership must agree
within 1e-4 everywhere, the scores (lead, self-play mean and spread, and from version 9 the
variance of the time left and the short-term errors) within 1e-3 points, the legal moves
exactly, and the top move.

A net is looked for in ``tests/data/net/``, ``assets/net/``, the folders of ``GORILLA_NETS``
(separated by ``:``) and any ``shared/nets/`` above the checkout; its tests skip, saying so,
where it is absent (the 38 MB net is not in the repository).
"""

from __future__ import annotations

import gzip
import json
import math
import os
from pathlib import Path

import numpy as np
import pytest
from helpers import replay_reference

from gorilla.ai.net import load_net
from gorilla.ai.net.inputs import NetRules
from gorilla.rules.board import BLACK, WHITE
from gorilla.rules.game import Game

DATA = Path(__file__).parent / "data" / "net"
REFERENCES = sorted(p.name for p in DATA.glob("katago_raw_nn*.json.gz"))
PROB_TOL = 1e-4
SCORE_TOL = 1e-3


def net_folders() -> list[Path]:
    """Where the tests look for a net file, in order."""
    here = Path(__file__).resolve()
    folders = [DATA, here.parents[1] / "assets" / "net"]
    folders += [Path(p) for p in os.environ.get("GORILLA_NETS", "").split(":") if p]
    folders += [d / "shared" / "nets" for d in here.parents]
    return folders


def find_net(name: str) -> Path | None:
    """The net file of that name, or None."""
    for d in net_folders():
        if (d / name).is_file():
            return d / name
    return None


@pytest.fixture(scope="module", params=REFERENCES)
def case(request) -> tuple[dict, object]:
    """(KataGo's reference data, the net it was written with) for one reference file."""
    with gzip.open(DATA / request.param, "rt") as f:
        ref = json.load(f)
    path = find_net(ref["net"])
    if path is None:
        pytest.skip(
            f"{ref['net']} is not here (looked in tests/data/net, assets/net, GORILLA_NETS, shared/nets)"
        )
    return ref, load_net(path)


def replay(spec: dict) -> Game:
    game = replay_reference(spec)
    assert game.to_move == (BLACK if spec["to_move"] == "B" else WHITE)
    return game


@pytest.fixture(scope="module")
def compared(case) -> list[tuple[dict, dict, object]]:
    """(position, KataGo's eval, our NetEval for White) for every eval of the data, in one pass."""
    reference, net = case
    games, syms, keys, pairs = [], [], [], []
    for spec in reference["positions"]:
        game = replay(spec)
        key = (NetRules.katago(spec["rules"], spec["komi"]), spec.get("optimism", 0.0))
        for e in spec["evals"]:
            games.append(game)
            syms.append(e["symmetry"])
            keys.append(key)
            pairs.append((spec, e))
    # one evaluate call per rules and optimism (the API takes one of each for a batch)
    out: list[object] = [None] * len(games)
    for key in set(keys):
        idx = [i for i, x in enumerate(keys) if x == key]
        evs = net.evaluate([games[i] for i in idx], [syms[i] for i in idx], key[0], optimism=key[1])
        for i, ev in zip(idx, evs, strict=True):
            out[i] = ev.for_white()
    return [(s, e, o) for (s, e), o in zip(pairs, out, strict=True)]


def test_the_data_covers_what_it_should(case) -> None:
    ref, net = case
    pos = ref["positions"]
    assert ref["katago"].startswith("1.17") or ref["net"].startswith("g170")
    assert len(pos) >= 200
    assert {p["size"] for p in pos} >= {9, 13, 19}
    assert {e["symmetry"] for p in pos for e in p["evals"]} == set(range(8))
    assert sum(1 for p in pos if len(p["evals"]) == 8) >= 3
    komis = {p["komi"] for p in pos}
    assert min(komis) <= -5 and max(komis) >= 15 and 6.5 in komis
    assert {p["rules"] for p in pos} >= {"chinese", "japanese", "tromp-taylor"}
    if net.model.version == 8:
        assert {p["mode"] for p in pos} >= {"ko", "pass1", "pass2", "pass-inside", "plain"}
        assert sum(1 for p in pos if p["handicap"]) >= 10
    else:  # real games: TYGEM's 19x19 and the shipped net's own on smaller boards
        sources = [p["source"].split(":")[0] for p in pos]
        assert sources.count("tygem") >= 50 and sources.count("selfplay") >= 100
        assert {p["optimism"] for p in pos} == {0.0, 0.2, 1.0}


def _kata(e: dict, size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    pol = np.array(e["policy"], float)
    legal = pol >= 0
    return np.where(legal, pol / 1e6, 0.0), legal, np.array(e["white_ownership"], float) / 1e7


def _differences(e: dict, ev, pol: np.ndarray, own: np.ndarray, version: int) -> dict[str, float]:
    d = {
        "policy": float(np.abs(ev.policy - pol).max()),
        "wdl": max(
            abs(ev.winrate - e["white_win"]),
            abs(ev.loss - e["white_loss"]),
            abs(ev.no_result - e["no_result"]),
        ),
        "ownership": float(np.abs(ev.ownership - own).max()),
        "lead": abs(ev.score_lead - e["white_lead"]),
        "score": abs(ev.score_mean - e["white_score"]),
    }
    # KataGo's whiteScoreSelfplaySq: (mean^2 + stdev^2) * (1 - noResult), the mean before that factor
    has = 1 - ev.no_result
    mean = ev.score_mean / has if has > 0 else 0.0
    sq = (mean * mean + ev.score_stdev**2) * has
    d["stdev"] = abs(math.sqrt(max(sq, 0)) - math.sqrt(max(e["white_score_sq"], 0)))
    if version >= 9:
        d["var_time_left"] = abs(ev.var_time_left - e["var_time_left"])
        if "shortterm_score_error" in e:
            d["shortterm_winloss_error"] = abs(ev.shortterm_winloss_error - e["shortterm_winloss_error"])
            d["shortterm_score_error"] = abs(ev.shortterm_score_error - e["shortterm_score_error"])
    return d


def test_every_position_agrees_with_katago(case, compared) -> None:
    _, net = case
    worst: dict[str, float] = {}
    bad = []
    for spec, e, ev in compared:
        size = spec["size"]
        pol, legal, own = _kata(e, size)
        where = f"{size}x{size} {spec['rules']} komi {spec['komi']} {spec['mode']} sym {e['symmetry']}"
        if not np.array_equal(ev.legal, legal):
            bad.append(f"{where}: legal moves differ at {np.nonzero(ev.legal != legal)[0].tolist()}")
            continue
        d = _differences(e, ev, pol, own, net.model.version)
        for k, v in d.items():
            worst[k] = max(worst.get(k, 0.0), v)
        tol = {"policy": PROB_TOL, "wdl": PROB_TOL, "ownership": PROB_TOL}
        over = [k for k, v in d.items() if v > tol.get(k, SCORE_TOL)]
        if over:
            bad.append(f"{where}: {', '.join(f'{k} off by {d[k]:.4g}' for k in over)}")
        top = int(np.argmax(ev.policy))
        if pol[top] < pol.max() - 2e-6:
            bad.append(
                f"{where}: top move {top} (KataGo {pol[top]:.6f}) is not KataGo's {int(np.argmax(pol))}"
            )
    print(net.name, "largest differences:", {k: f"{v:.2e}" for k, v in worst.items()})
    assert not bad, f"{len(bad)} of {len(compared)} evaluations disagree:\n" + "\n".join(bad[:30])


def test_all_symmetries_averaged(case) -> None:
    """symmetry='all' is the mean of the eight: here against KataGo's eight."""
    reference, net = case
    done = 0
    for spec in reference["positions"]:
        if len(spec["evals"]) != 8:
            continue
        game = replay(spec)
        r = NetRules.katago(spec["rules"], spec["komi"])
        [ev] = net.evaluate([game], "all", r, optimism=spec.get("optimism", 0.0))
        ev = ev.for_white()
        pols, owns = zip(*[_kata(e, spec["size"])[::2] for e in spec["evals"]], strict=True)
        np.testing.assert_allclose(ev.policy, np.mean(pols, axis=0), atol=PROB_TOL)
        np.testing.assert_allclose(ev.ownership, np.mean(owns, axis=0), atol=PROB_TOL)
        assert abs(ev.winrate - np.mean([e["white_win"] for e in spec["evals"]])) < PROB_TOL
        assert abs(ev.score_lead - np.mean([e["white_lead"] for e in spec["evals"]])) < SCORE_TOL
        done += 1
    assert done >= 3


def test_for_black_and_the_side_to_move(compared) -> None:
    spec, e, ev = next((s, e, o) for s, e, o in compared if s["to_move"] == "B" and len(s["moves"]) > 20)
    black = ev.for_black()
    assert black.color == BLACK and black.to_move == BLACK
    assert black.winrate == ev.loss and black.score_lead == -ev.score_lead
    np.testing.assert_array_equal(black.ownership, -ev.ownership)
    np.testing.assert_array_equal(black.policy, ev.policy)
    assert abs(black.policy.sum() - 1) < 1e-5 and black.policy[~black.legal].sum() == 0
