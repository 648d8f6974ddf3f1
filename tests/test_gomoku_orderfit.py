"""benchmarks/gomoku_orderfit.py: the candidates' linear scores are the tables' values, the fit
finds a planted preference, labels come from the records' named player, and the written tables
are what the engine reads."""

from __future__ import annotations

import json

import numpy as np
from helpers import load_benchmark

from gorilla.gomoku import patterns as P
from gorilla.gomoku import rules as R

orderfit = load_benchmark("gomoku_orderfit")

MOVES = [(1, 7, 7), (2, 8, 8), (1, 7, 8), (2, 6, 6), (1, 9, 7), (2, 8, 6), (1, 5, 9), (2, 9, 9)]


def test_the_linear_tables_give_the_point_scores_of_every_candidate():
    bd = orderfit.board_of(MOVES)
    lin = orderfit.linear_combo_values()
    for c in (R.BLACK, R.WHITE):
        pts, own, opp, score = orderfit.candidates(bd, c)
        assert len(pts) > 20 and all(bd[0][p] == R.EMPTY and bd[5][p] > 0 for p in pts)
        assert np.array_equal(lin[own] + lin[opp], score)


def _synthetic(rng: np.random.Generator, truth: np.ndarray, pool: np.ndarray, n: int) -> list:
    """n positions of 20-40 candidates drawn from the pool of combinations, each labelled by
    its best candidate under the truth (in units of 200 a logit) plus Gumbel noise."""
    lin = orderfit.linear_combo_values()
    rows = []
    for _ in range(n):
        k = int(rng.integers(20, 40))
        own, opp = rng.choice(pool, k), rng.choice(pool, k)
        z = (truth[own] + truth[orderfit.NCOMBOS + opp]) / 200.0 + rng.gumbel(size=k)
        rows.append((own, opp, (lin[own] + lin[opp]).astype(np.int64), int(np.argmax(z))))
    return rows


def test_the_fit_finds_a_planted_preference():
    # the label is the best candidate by hidden tables (the linear values of the quiet
    # combinations, 40 of them moved by 400 either way for each side) plus noise: the fitted
    # tables predict held-out labels better than the linear ones, and move the planted
    # combinations the planted way
    rng = np.random.default_rng(3)
    lin = orderfit.linear_combo_values()
    pool = np.nonzero(lin < 300)[0][:120]
    truth = np.concatenate([lin, lin])
    hot = np.concatenate(
        [rng.choice(pool, 40, replace=False), orderfit.NCOMBOS + rng.choice(pool, 40, replace=False)]
    )
    shift = rng.choice([-400.0, 400.0], len(hot))
    truth[hot] += shift
    train = orderfit.Data(_synthetic(rng, truth, pool, 2000))
    test = orderfit.Data(_synthetic(rng, truth, pool, 600))
    own, opp, _ = orderfit.fit_tables(train, 1e-5)
    before = test.topk(lin[test.own] + lin[test.opp])
    after = test.topk(own[test.own] + opp[test.opp])
    assert after[0] > before[0] + 0.05 and after[2] > before[2]
    fitted = np.concatenate([own, opp])
    # up to a constant per table (a softmax cannot see one), the planted moves went their way
    d = fitted - np.concatenate([lin, lin])
    d[: orderfit.NCOMBOS] -= np.median(d[: orderfit.NCOMBOS])
    d[orderfit.NCOMBOS :] -= np.median(d[orderfit.NCOMBOS :])
    assert np.mean(np.sign(d[hot]) == np.sign(shift)) > 0.8


def _record(path, black: str, white: str, moves: list[tuple[int, int, int]]) -> None:
    cols = "abcdefghijklmno"
    body = "".join(f";{'B' if c == 1 else 'W'}[{cols[x]}{cols[y]}]" for c, x, y in moves)
    path.write_text(f"(;GM[4]FF[4]SZ[15]RU[freestyle]PB[{black}]PW[{white}]RE[W+]{body})")


def test_label_takes_the_named_players_quiet_moves_and_fit_writes_what_the_engine_reads(tmp_path, capsys):
    games = tmp_path / "games"
    games.mkdir()
    full = MOVES + [(1, 10, 10), (2, 4, 4)]
    _record(games / "game_0001.sgf", "pbrain:gorilla", "pbrain:pbrain-rapfi", full)
    mirrored = [(c, 14 - x, y) for c, x, y in full]  # another opening, Black Rapfi's this time
    _record(games / "game_0002.sgf", "pbrain:pbrain-rapfi", "pbrain:gorilla", mirrored)
    labels = tmp_path / "lab.jsonl"
    argv = ["label", str(games), "--out", str(labels), "--player", "rapfi", "--judge", "none"]
    assert orderfit.main(argv) == 0
    recs = [json.loads(line) for line in labels.read_text().splitlines()]
    assert {r["mover"] for r in recs} == {R.BLACK, R.WHITE} and all(r["source"] == "record" for r in recs)
    for r in recs:  # Rapfi's move in the record after those moves, in a quiet position
        game = full if r["mover"] == R.WHITE else mirrored
        k = len(r["moves"])
        assert k >= 3 and [list(m) for m in game[:k]] == r["moves"] and r["move"] == list(game[k][1:])
        assert game[k][0] == r["mover"]
        assert orderfit.quiet(orderfit.board_of([tuple(m) for m in r["moves"]]), r["mover"])
    out = tmp_path / "order.txt"
    assert orderfit.main(["fit", str(labels), "--holdout", "3", "--out", str(out)]) == 0
    assert "top-8" in capsys.readouterr().out
    tab = P.order_tables(out)
    lines = [line.split() for line in out.read_text().splitlines() if not line.startswith("#")]
    assert len(lines) == orderfit.NCOMBOS
    for a, b, c, d, own, opp in lines[::50]:
        i = ((int(a) * 11 + int(b)) * 11 + int(c)) * 11 + int(d)
        assert (tab[0, i], tab[1, i]) == (int(own), int(opp))
