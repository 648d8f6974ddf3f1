"""benchmarks/gomoku_rankfit.py: a child's row times the linear start is the engine's evaluation,
and the ranking fit finds tables that rank held-out siblings better than its start."""

from __future__ import annotations

import itertools
import json

import numpy as np
from helpers import load_benchmark

from gorilla.gomoku import patterns as P
from gorilla.gomoku import rules as R
from gorilla.gomoku.vcf import evaluate

rankfit = load_benchmark("gomoku_rankfit")

MOVES = [(1, 7, 7), (2, 8, 8), (1, 7, 8), (2, 6, 6), (1, 9, 7), (2, 8, 6), (1, 5, 9), (2, 9, 9)]


def test_every_ordering_of_four_classes_finds_its_combination():
    assert rankfit.NCOMBOS == 1001
    for cmb in rankfit.COMBOS[::37]:
        for perm in itertools.permutations(cmb):
            i = ((perm[0] * P.NCLASSES + perm[1]) * P.NCLASSES + perm[2]) * P.NCLASSES + perm[3]
            assert rankfit.COMBOS[rankfit.COMBO_OF[i]] == cmb


def test_a_childs_row_times_the_linear_start_is_the_engines_evaluation():
    start = rankfit.linear_start()
    for child in ((10, 6), (6, 8), (3, 3)):
        row = rankfit.child_features(MOVES, R.BLACK, child)
        bd = rankfit.board_of(MOVES + [(R.BLACK, *child)])
        # White moves at the child; the engine rounds 5/4 of its total down
        assert 0 <= row @ start - evaluate(bd, R.WHITE) < 1


def test_the_fit_ranks_held_out_siblings_better_than_its_start():
    rng = np.random.default_rng(4)
    start = rankfit.linear_start()
    truth = start.copy()
    hot = rng.choice(np.nonzero(start > 40)[0], 30, replace=False)
    factor = rng.choice([0.3, 2.5], len(hot))
    truth[hot] *= factor  # some combinations worth more, some less
    lam = np.zeros(2 * rankfit.NCOMBOS)
    lam[hot] = 0.8
    lam[rng.choice(2 * rankfit.NCOMBOS, 200, replace=False)] += 0.5
    rows = rng.poisson(lam, (4000, 2 * rankfit.NCOMBOS)).astype(np.float64)
    a, b = rng.integers(0, 4000, (2, 6000))
    gap = (rows[b] - rows[a]) @ truth  # the mover's evaluation of a less b's, by the truth
    target = 0.5 * (1 + np.tanh(0.0005 * gap))  # sigmoid(0.001 * gap)
    tr, te = slice(0, 4000), slice(4000, None)
    tables, k = rankfit.fit_tables(rows, a[tr], b[tr], target[tr], start, reg=1e-4)
    assert k > 0
    before = rankfit.agreement(rows, a[te], b[te], target[te], start)
    after = rankfit.agreement(rows, a[te], b[te], target[te], tables)
    assert after > before + 0.05
    # a ranking fixes the tables up to their scale: relative to it, the combinations the truth
    # made worth more rose and those it made worth less fell
    used = (lam > 0) & (start != 0)
    scale = np.median(tables[used] / start[used])
    assert np.mean((tables[hot] / start[hot] > scale) == (factor > 1)) > 0.8


def test_fit_reads_labels_and_writes_tables(tmp_path, capsys):
    kids = [{"move": list(c), "value": v} for c, v in (((10, 6), 120), ((6, 8), -80), ((3, 3), -300))]
    labels = tmp_path / "sibs.jsonl"
    record = json.dumps({"moves": MOVES, "mover": 1, "children": kids})
    labels.write_text("\n".join([record] * 3))
    out = tmp_path / "tables.npz"
    assert rankfit.main(["fit", str(labels), "--holdout", "3", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "3 parents, 9 children, 9 pairs" in text and "ranks" in text
    with np.load(out) as f:
        assert f["stm"].shape == (1001,) and f["opp"].shape == (1001,)
