"""What the window draws of the teaching game and of the analysis of the position shown, as
arrays (gorilla.gui.teaching_view): no window needed."""

from __future__ import annotations

from helpers import v

from gorilla.ai.agent import Candidate
from gorilla.app.go.ponder import PonderView
from gorilla.app.go.teaching import Judgement, Marks
from gorilla.gui import overlay as ov
from gorilla.gui import teaching_view as tv
from gorilla.rules.board import BLACK, WHITE


def test_the_analysis_draws_score_and_visits_the_best_ringed_the_thin_ones_faint():
    view = PonderView(
        (0, 0), BLACK,
        [Candidate(v("E5"), 400, 0.6, 2.5, pv=[v("E5")]), Candidate(v("C3"), 100, 0.5, 0.9),
         Candidate(v("G7"), 10, 0.4, -4.0)],
    )  # fmt: skip
    rows, labels = tv.ponder_markers(view, 9, 0.01)
    shapes = {(int(r[-1]), round(r[3], 2)) for r in rows}
    assert (ov.THICK_RING, 0.47) in shapes  # the best ringed
    faint = [r for r in rows if abs(r[3] - 0.10) < 1e-6]
    assert len(faint) == 1 and faint[0][7] < 0.5  # G7: under 5% of the best's visits
    texts = {(p, t, lift) for p, t, _, lift in labels}
    assert (v("E5"), "+2.5", tv.LIFT) in texts and (v("E5"), "400", -tv.LIFT) in texts
    assert (v("C3"), "-1.6", tv.LIFT) in texts and (v("C3"), "100", -tv.LIFT) in texts
    assert not any(p == v("G7") for p, *_ in labels)
    discs = [r for r in rows if int(r[-1]) == ov.DISC and r[3] > 0.15]
    assert len(discs) == 2 and discs[1][4] > discs[0][4] and discs[1][3] < discs[0][3]  # C3: redder, smaller
    assert tv.visits_text(12345) == "12k" and tv.visits_text(999) == "999"


def test_the_pointer_on_the_ghost_draws_the_refutation_the_opponent_first():
    g = Judgement(1, BLACK, v("A1"), 13.5, 5, v("E5"), [v("E5"), v("A1"), v("D4")], taken_back=True)
    marks = Marks([(v("C3"), 2)], g)
    empty = lambda p: True  # noqa: E731
    assert tv.ghost(marks, empty) is g and tv.ghost(marks, lambda p: p != v("A1")) is None
    stones = tv.refutation(g, v("A1"), empty)
    assert stones == [(v("E5"), WHITE, 1), (v("D4"), WHITE, 3)]  # A1 is the ghost's
    assert tv.refutation(g, v("B2"), empty) == [] and tv.refutation(None, v("A1"), empty) == []
    assert tv.ghost_label(g) == (v("A1"), "-13.5", (255, 255, 255, 255))
    (dot,) = tv.class_dots(marks, 9, 0.1)
    assert tuple(dot[4:8]) == tv.class_colour(2) and tv.class_dots(None, 9, 0.1) == []


def test_the_analysis_labels_contrast_with_their_discs():
    """Dark ink on the best move's light green disc, light ink on a dark red one (issue 64's
    readable labels, as KaTrain writes on its discs): the ink is the one of the two with the
    larger contrast ratio against the disc as drawn over the wood."""
    view = PonderView((0, 0), BLACK, [Candidate(v("E5"), 400, 0.6, 2.5), Candidate(v("C3"), 300, 0.3, -9.0)])
    rows, labels = tv.ponder_markers(view, 9, 0.01)
    discs = [r for r in rows if int(r[-1]) == ov.DISC]  # in the candidates' order: E5, C3
    colour = {v("E5"): discs[0][4:7], v("C3"): discs[1][4:7]}
    for p, _, ink, _ in labels:
        seen = [0.85 * c + 0.15 * w for c, w in zip(colour[p], ov.WOOD, strict=False)]
        other = ov.LIGHT_INK if ink == ov.DARK_INK else ov.DARK_INK
        mine, theirs = ([c / 255 for c in i[:3]] for i in (ink, other))
        assert ov.contrast(seen, mine) >= ov.contrast(seen, theirs)
    inks = {p: ink for p, _, ink, _ in labels}
    assert inks[v("E5")] != inks[v("C3")]  # the light disc and the dark one get different inks
