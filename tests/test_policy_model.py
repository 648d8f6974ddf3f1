"""The shipped move model: it loads and predicts; damaged model files are refused with one line."""

from __future__ import annotations

import itertools
import os
from pathlib import Path

import numpy as np
import pytest
from helpers import position_from_diagram, v

from gorilla.ai.policy.cli import predict_main
from gorilla.ai.policy.model import DEFAULT_MODEL, ModelError, load_model
from gorilla.ai.policy.predict import evaluate
from gorilla.ai.policy.records import is_validation, read_records
from gorilla.app.go.controller import Controller
from gorilla.gui import overlay as ov
from gorilla.rules.board import BLACK, PASS
from gorilla.rules.game import Game
from gorilla.rules.position import Position


@pytest.fixture(scope="module")
def model():
    return load_model()


def test_shipped_model_loads_and_is_compact(model):
    assert DEFAULT_MODEL.stat().st_size < 4_000_000
    assert len(model.pat_codes) > 100 and len(model.dkeys) > 100
    assert model.info["games"] > 0 and model.info["positions"] > 0


def test_probabilities_cover_every_legal_move_and_favour_good_ones(model):
    pos = Position(19)
    moves, probs = model.probabilities(pos.b, pos.st, BLACK)
    assert len(moves) == 19 * 19 + 1 and moves[-1] == PASS
    assert np.isclose(probs.sum(), 1.0) and (probs > 0).all()
    first = dict(zip(moves.tolist(), probs.tolist(), strict=True))
    # an opening move on the 3rd/4th line beats the first line and the pass
    assert first[v("Q16", 19)] > 10 * first[v("A1", 19)] and first[v("D4", 19)] > 10 * first[PASS]
    # a stone in atari: taking it is the model's first choice
    capture = position_from_diagram(
        """
        . . . . . . . . .
        . . . . . . . . .
        . . . . X . . . .
        . . . X O X . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        """,
        BLACK,
    )
    moves, probs = model.probabilities(capture.b, capture.st, BLACK)
    assert moves[int(np.argmax(probs))] == v("E5")


def test_predict_reports_accuracy_on_an_sgf(tmp_path, capsys):
    path = tmp_path / "g.sgf"
    moves = "pd dp pp dd fq cn qf nc qn"
    colours = "BWBWBWBWB"
    path.write_text(
        "(;GM[1]SZ[19]KM[6.5]"
        + "".join(f";{c}[{m}]" for c, m in zip(colours, moves.split(), strict=True))
        + ")"
    )
    assert predict_main([str(path)]) == 0
    out = capsys.readouterr().out
    assert "1 games" in out and "9 positions" in out and "top-1" in out
    # the net's policy on a game of its own favourite moves: every move its first choice
    from gorilla.ai.net import load_net
    from gorilla.rules.coords import to_xy
    from gorilla.rules.game import Game

    net, game, sgf_moves = load_net(), Game.new(19, komi=7.5), []
    for _ in range(8):
        best = net.evaluate([game])[0].best(1)[0][0]
        x, y = to_xy(best, 19)
        sgf_moves.append(f";{'BW'[game.move_number % 2]}[{chr(97 + x)}{chr(97 + 18 - y)}]")
        game.play(best)
    path.write_text("(;GM[1]SZ[19]KM[7.5]" + "".join(sgf_moves) + ")")
    assert predict_main([str(path), "--net"]) == 0
    out = capsys.readouterr().out
    assert "1 games" in out and "8 positions" in out and "top-1 100.0%" in out, out
    bad = tmp_path / "bad.bin.gz"
    bad.write_bytes(b"junk")
    assert predict_main([str(path), "--net", str(bad)]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_predict_with_the_net_averages_the_eight_symmetries_when_asked() -> None:
    """``--symmetry all``: each move's probability is the mean of the eight orientations'."""
    from gorilla.ai.net import load_net, policy_index
    from gorilla.ai.policy.predict import evaluate_net
    from gorilla.ai.policy.records import GameRecord

    net, game = load_net(), Game.new(9, komi=7.5)
    for vertex in ("E5", "C3", "G7"):
        game.play(v(vertex, 9))
    played = v("C7", 9)
    rec = GameRecord("one", 9, [(p, c) for c in (1, 2) for p in game.position.stones(c)], [(BLACK, played)])
    start = Game.new(9, komi=7.5)
    start.add_setup(rec.setup)
    probs = [net.evaluate([start], symmetry=k)[0].policy[policy_index(played, 9)] for k in range(8)]
    assert max(probs) - min(probs) > 1e-4  # the orientations disagree: the mean is not any one of them
    for symmetry, expected in ((0, probs[0]), (5, probs[5]), ("all", float(np.mean(probs)))):
        got = evaluate_net(net, [rec], symmetry=symmetry).overall
        assert got.positions == 1
        assert got.loglik == pytest.approx(np.log(expected), abs=1e-4)


@pytest.mark.parametrize(
    "damage, message",
    [
        (lambda d: d[: len(d) // 2], "damaged or truncated"),
        (lambda d: d[:100] + bytes([d[100] ^ 1]) + d[101:], "damaged or truncated"),
        (lambda d: b"PK\x03\x04" + d[4:], "not a Gorilla move-pattern model"),
        (lambda d: b"", "not a Gorilla move-pattern model"),
    ],
)
def test_damaged_model_files_are_refused_with_one_line(tmp_path, capsys, damage, message):
    bad = tmp_path / "bad.gpol"
    bad.write_bytes(damage(DEFAULT_MODEL.read_bytes()))
    with pytest.raises(ModelError, match=message) as err:
        load_model(bad)
    assert "\n" not in str(err.value)
    sgf = tmp_path / "g.sgf"
    sgf.write_text("(;GM[1]SZ[19];B[pd];W[dp])")
    assert predict_main([str(sgf), "--model", str(bad)]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and message in lines[0]


def test_the_window_heat_map_comes_from_the_model():
    # 21x21 is beyond the net: the move model draws the heat map (the net's: tests/test_net_use.py)
    c = Controller(Game.new(21))
    c.click(v("E5", 21))
    probs = c.policy_map()
    assert c.policy_map() is probs  # cached for the position
    legal = set(c.game.legal_moves())
    assert set(probs) == legal and 0.9 < sum(probs.values()) <= 1.0
    v0 = c.version
    c.toggle_policy()
    assert c.show_policy and c.version > v0
    rows, labels = ov.policy_markers(probs, 9, 0.0)
    assert len(labels) == 5 and rows
    best = max(probs, key=probs.get)
    assert labels[0][0] == best
    c.click(v("C3", 21))
    assert c.policy_map() is not probs and v("C3", 21) not in c.policy_map()


# the tygem dataset beside the checkout (../shared/datasets/tygem), or where GORILLA_TYGEM says
TYGEM = Path(
    os.environ.get("GORILLA_TYGEM", Path(__file__).resolve().parents[1].parent / "shared/datasets/tygem")
)


def test_shipped_model_learned_from_most_of_the_dataset(model):
    # 27,617 games, one in ten kept for validation: the model saw every other game
    assert model.info["games"] > 27_617 // 2
    assert model.info["sizes"] == [19]


@pytest.mark.skipif(
    not (TYGEM / "kifu-2016-06.zip").is_file(), reason=f"the tygem dataset is not at {TYGEM} (GORILLA_TYGEM)"
)
def test_shipped_model_predicts_validation_games_as_coulom(model):
    games = itertools.islice(
        (r for r in read_records([TYGEM / "kifu-2016-06.zip"]) if is_validation(r.name)), 100
    )
    result = evaluate(model, games)
    n = result.overall.positions
    assert result.games == 100 and n > 15_000
    assert result.overall.top1 / n >= 0.35  # Coulom 2007: 34.9% of professional moves first
    assert result.overall.top5 / n >= 0.6
