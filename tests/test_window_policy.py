"""Key l in the real window: the move model's heat map appears on the board and goes away."""

from __future__ import annotations

import numpy as np
from test_window import gui, make  # noqa: F401 - the window fixtures


def test_l_shows_the_move_model_heat_map(make):  # noqa: F811 - the imported fixture
    h = make()
    h.click_point("E5")
    plain = h.screen()
    h.press(h.key.F)
    assert h.c.show_policy and h.c.policy_map()
    shown = h.screen()
    vw = h.w.camera.viewport[2]
    diff = np.abs(shown[:, :vw].astype(int) - plain[:, :vw]).max(axis=2)
    assert (diff > 12).sum() > 500, "the heat map changed almost no pixels"
    h.press(h.key.F)
    assert not h.c.show_policy
    back = h.screen()
    assert np.abs(back[:, :vw].astype(int) - plain[:, :vw]).max() <= 2
