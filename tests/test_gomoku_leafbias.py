"""benchmarks/gomoku_leafbias.py's pieces: which positions are leaves, the threat indicators,
and the logistic fit that turns a judge's values into the leaf's offset."""

from __future__ import annotations

import numpy as np
from helpers import load_benchmark


def _module():
    return load_benchmark("gomoku_leafbias")


def test_leaf_features_see_the_open_three_and_skip_the_win_rules():
    lb = _module()
    black = [(1, 3, 3), (1, 11, 3), (1, 3, 11), (1, 11, 11)]
    # White's open three on row 7, Black to move: a leaf, the first indicator on
    ev, feats = lb.leaf_features([*black, (2, 6, 7), (2, 7, 7), (2, 8, 7), (2, 0, 14)], 1)
    assert feats[0] == 1.0
    # the three's third stone away: the indicator off, and the static sum less bad for Black
    ev2, feats2 = lb.leaf_features([*black, (2, 6, 7), (2, 7, 7), (2, 12, 7), (2, 0, 14)], 1)
    assert feats2[0] == 0.0
    assert ev2 > ev
    # Black to move with its own open three: the open-four rule wins at the node, no leaf
    assert lb.leaf_features([(1, 6, 7), (2, 0, 0), (1, 7, 7), (2, 14, 0), (1, 8, 7), (2, 0, 14)], 1) is None


def test_logistic_fit_recovers_known_weights():
    lb = _module()
    rng = np.random.default_rng(3)
    x = np.column_stack([rng.normal(size=4000), np.ones(4000), rng.integers(0, 2, 4000)])
    true = np.array([0.8, -0.2, 1.5])
    y = 1.0 / (1.0 + np.exp(-(x @ true)))  # soft targets: the fit is exact
    w, loss = lb.logistic_fit(x, y)
    assert np.allclose(w, true, atol=1e-3)
    assert 0.0 < loss < np.log(2)
