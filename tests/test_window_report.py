"""The game report in the window: F3 before any analysis says so; on a loaded record with its
review kept (SBKV, SBKS) F3 and the Report button open an opaque dialog whose table holds the
report's figures and whose bar chart shows the classes in their colours (pixels), 1-4 choose
the phase, Esc closes it."""

from __future__ import annotations

import numpy as np
import pytest
from test_review_file import HAND
from test_window import gui, make  # noqa: F401  (fixtures)

from gorilla.app.go.report import CLASS_COLORS
from gorilla.gui.graph import graph_data
from gorilla.gui.report_dialog import HEIGHT, OPAQUE, WIDTH, ReportDialog
from gorilla.gui.scene import build_scene
from gorilla.rules.board import BLACK, WHITE

pytestmark = pytest.mark.gui


def _box(h, dialog: ReportDialog) -> np.ndarray:
    """The pixels under the dialog's box (its place when open)."""
    x, y = dialog.x, dialog.y
    return h.screen()[y : y + HEIGHT, x : x + WIDTH].astype(int)


def _near(img: np.ndarray, rgb, tol: int = 3) -> int:
    return int((np.abs(img - np.array(rgb)).max(axis=2) <= tol).sum())


def test_f3_shows_the_report_of_a_loaded_review_as_a_table_and_a_bar_chart(make, tmp_path):  # noqa: F811
    h = make()
    h.press(h.key.F3)
    assert not h.w.modals and "No game report yet" in h.c.message
    path = tmp_path / "kept.sgf"
    path.write_text(HAND)
    h.c.load(str(path))
    h.frame()
    # the graph and the dots at once, from the record's values: no search ran
    data = graph_data(h.c)
    assert h.c.review.task is None and len(data.points) == 11 and [m for m, _ in data.mistakes] == [6, 9]
    assert h.c.review.show_dots
    with_dots = len(build_scene(h.c).over)
    h.c.toggle_mistake_dots()
    assert with_dots - len(build_scene(h.c).over) >= 9  # a dot on each stone played (the pass has none)
    h.c.toggle_mistake_dots()
    h.press(h.key.F3)
    dialog = h.w.modals[-1]
    assert isinstance(dialog, ReportDialog)
    h.frame()
    img = _box(h, dialog)
    assert _near(img, OPAQUE[:3]) > 0.5 * WIDTH * HEIGHT  # opaque: the board does not show through
    # the table: moves, accuracy, mean points lost, top-1, top-5 of Black and White
    table = [[row.numbers[c].text for row in dialog.stats] for c in (BLACK, WHITE)]
    assert table == [["5", "41.0", "3.10", "40%", "60%"], ["4", "56.2", "2.00", "50%", "75%"]]
    assert [row.numbers[BLACK].text for row in dialog.classes] == ["3", "0", "1", "0", "0", "1"]
    # the chart: Black's 3 of 5 moves under 0.5 points and White's 2 of 4 as green bars, Black's
    # blunder as a purple one, no purple for White (its bar would start at the middle's right)
    green = _near(img, CLASS_COLORS[0])
    assert green > 0.8 * (54 + 45) * 14
    purple_black = _near(img[:, : WIDTH // 2], CLASS_COLORS[5])
    purple_white = _near(img[:, WIDTH // 2 :], CLASS_COLORS[5])
    assert purple_black > 0.8 * 18 * 14 and purple_white == 0
    # 2: the opening (Black's moves 1 and 3, White's move 2)
    h.press(h.key._2)
    assert dialog.phase == 1
    assert [dialog.stats[1].numbers[c].text for c in (BLACK, WHITE)] == ["80.6", "75.0"]
    assert "opening: moves 1-3" in dialog.footer.text
    h.press(h.key.ESCAPE)
    assert not h.w.modals
    assert _near(_box(h, dialog), OPAQUE[:3]) < 0.2 * WIDTH * HEIGHT  # the board again
    # the toolbar's Report button opens it too; a key under it runs no command of the window
    h.click(*h.w.toolbar.centre("Report"))
    assert isinstance(h.w.modals[-1], ReportDialog)
    moves = h.c.game.move_number
    h.press(h.key.LEFT)
    assert h.c.game.move_number == moves
    h.press(h.key.F3)
    assert not h.w.modals
