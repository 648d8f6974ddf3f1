"""Playouts: random games from a position, on the board kernels.

``run_playout`` plays from (b, st) in place until two passes or max_moves and
records the points played (PASS = -1) in ``moves``; move i was played by the
side to move at the start when i is even, by the other side when odd.
"""

from __future__ import annotations

import numpy as np

from gorilla.rules.board import PASS, S_PASSES, S_TOMOVE, kernel, place, play_pass, random_reasonable_move


@kernel
def run_playout(b: np.ndarray, st: np.ndarray, zob: np.ndarray, max_moves: int, moves: np.ndarray) -> int:
    """A light playout (uniform among reasonable moves); returns moves played."""
    n = 0
    while n < max_moves and st[S_PASSES] < 2:
        c = st[S_TOMOVE]
        p = random_reasonable_move(b, st, c)
        if p == PASS:
            play_pass(st)
        else:
            place(b, st, zob, p, c)
        if n < moves.shape[0]:
            moves[n] = p
        n += 1
    return n
