"""Priors for new tree nodes, as virtual visits and wins (michi's scheme).

Every move starts with ``EVEN`` visits at 50%. Then, from the mover's view:
captures (+one or +many stones), escaping an atari, 3x3 shape patterns and
nearness to the last move add virtual wins; self-ataris add virtual losses;
on an empty area of the board first- and second-line moves add losses and
third-line moves wins. ``PRIOR`` holds the default weights; the search passes
its own copy so they can be tuned.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gorilla.ai.playout.pat3 import pat3_code
from gorilla.ai.tactics import LIBS_CAP, atari_works, ataris_around, ladder_dead, libs_after
from gorilla.rules.board import BORDER, COLOR, EMPTY, PASS, S_LAST, S_N, S_PASSES, S_W

(
    PR_EVEN,
    PR_CAPTURE_ONE,
    PR_CAPTURE_MANY,
    PR_ESCAPE,
    PR_SELFATARI,
    PR_PAT3,
    PR_NEAR1,
    PR_NEAR2,
    PR_NEAR3,
    PR_EMPTYAREA,
    PR_PASS_EVEN,
) = range(11)

PRIOR = np.array(
    [
        10.0,  # even
        15.0,  # capture one stone
        30.0,  # capture several
        25.0,  # escape atari
        10.0,  # self-atari (losses)
        10.0,  # 3x3 pattern
        24.0,  # next to the last move
        22.0,  # diagonal / two away
        8.0,  # three away
        10.0,  # empty area line 1-2 (losses) / line 3 (wins)
        10.0,  # pass visits
    ],
    dtype=np.float64,
)


PRIOR_NAMES = (
    "even",
    "capture_one",
    "capture_many",
    "escape",
    "selfatari",
    "pat3",
    "near1",
    "near2",
    "near3",
    "emptyarea",
    "pass_even",
)  # the order of PRIOR; MCTS settings prior_NAME=V replace one (and gorilla tune can tune it)


def prior_weights(settings: dict[str, float]) -> np.ndarray:
    """PRIOR with weights replaced by settings such as ``{"prior_capture_one": 20.0}``;
    raises TypeError, as for any unexpected keyword, naming an unknown one."""
    prior = PRIOR.copy()
    for key, value in settings.items():
        name = key.removeprefix("prior_")
        if not key.startswith("prior_") or name not in PRIOR_NAMES:
            raise TypeError(
                f"unknown setting '{key}' (priors: {', '.join('prior_' + n for n in PRIOR_NAMES)})"
            )
        prior[PRIOR_NAMES.index(name)] = float(value)
    return prior


@njit(cache=True, nogil=True)
def move_prior(
    b: np.ndarray, st: np.ndarray, zob: np.ndarray, p: int, c: int, pat3: np.ndarray, prior: np.ndarray
) -> tuple[float, float]:
    """(virtual visits, virtual wins) for c playing the legal move p (or PASS)."""
    even = prior[PR_EVEN]
    if p == PASS:
        pv = prior[PR_PASS_EVEN]
        # passing is reasonable once the opponent passed or the board is nearly full
        pw = 0.5 * pv if st[S_PASSES] > 0 else 0.1 * pv  # S_LAST is PASS on a fresh board too
        return pv, pw
    pv = even
    pw = 0.5 * even
    w = st[S_W]
    n = st[S_N]
    capt, saving, saved = ataris_around(b, w, p, c)
    la = libs_after(b, st, p, c, LIBS_CAP)
    if capt > 0:
        v = prior[PR_CAPTURE_ONE] if capt == 1 else prior[PR_CAPTURE_MANY]
        pv += v
        pw += v
    if saving > 0 and la >= 2:
        if capt == 0 and la == 2 and ladder_dead(b, st, zob, saved, 0):
            pv += prior[PR_SELFATARI]  # running into a ladder
        else:
            v = prior[PR_ESCAPE] if saving > 1 else prior[PR_CAPTURE_ONE]
            pv += v
            pw += v
    elif la <= 1 and capt == 0:
        pv += prior[PR_SELFATARI]
    if la >= 2:
        caught = atari_works(b, st, zob, p, c)
        if caught > 0:
            v = prior[PR_CAPTURE_ONE] if caught == 1 else prior[PR_CAPTURE_MANY]
            pv += v
            pw += v
    if pat3[pat3_code(b, w, p)] != 0:
        pv += prior[PR_PAT3]
        pw += prior[PR_PAT3]
    last = st[S_LAST]
    if last >= 0:
        dx = abs(p % w - last % w)
        dy = abs(p // w - last // w)
        d = dx + dy
        v = 0.0
        if d == 1:
            v = prior[PR_NEAR1]
        elif d == 2:
            v = prior[PR_NEAR2]
        elif d == 3:
            v = prior[PR_NEAR3]
        pv += v
        pw += v
    # line (0 = first line) and whether the area around is empty
    x = p % w - 1
    y = p // w - 1
    line = min(min(x, y), min(n - 1 - x, n - 1 - y))
    if line <= 2 and n >= 9:
        empty = True
        for yy in range(max(0, y - 3), min(n, y + 4)):
            for xx in range(max(0, x - 3), min(n, x + 4)):
                if abs(xx - x) + abs(yy - y) <= 3:
                    col = b[COLOR, (yy + 1) * w + xx + 1]
                    if col != EMPTY and col != BORDER:
                        empty = False
        if empty:
            v = prior[PR_EMPTYAREA]
            pv += v
            if line == 2:
                pw += v
    return pv, pw
