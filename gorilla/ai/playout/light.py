"""Light playouts: random reasonable moves from a position, on the board kernels.

``run_playout`` plays from (b, st) in place until two passes or max_moves and
records the points played (PASS = -1) in ``moves``; move i was played by the
side to move at the start when i is even, by the other side when odd. It is
:func:`gorilla.rules.board.playout` with the light policy.
"""

from __future__ import annotations

import numpy as np

from gorilla.rules.board import kernel, playout, random_reasonable_move


@kernel
def run_playout(b: np.ndarray, st: np.ndarray, zob: np.ndarray, max_moves: int, moves: np.ndarray) -> int:
    """A light playout (uniform among reasonable moves); returns moves played."""
    return playout(b, st, zob, max_moves, moves, random_reasonable_move, ())
