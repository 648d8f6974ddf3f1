"""Gomoku's ``e``: the value of every move of the side to move (:class:`GomokuValuer`, for the
shared :class:`gorilla.app.move_values.MoveValues`), and what the board marks for a position
(:class:`Threats`: the threat map of ``c``, renju's forbidden points, the winning five).

:func:`evaluate_moves` runs on a worker thread against a copy of the game (the shared part
takes its result on the GUI thread); the other functions read a position and change nothing.
Points are the window's (:func:`gorilla.app.gomoku.view.to_view`).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from gorilla.app.gomoku.analysis import win_rate
from gorilla.app.gomoku.view import GomokuView, from_view, to_view
from gorilla.app.kind import Job
from gorilla.app.move_values import EvaluationView
from gorilla.gomoku import rules as R
from gorilla.gomoku import search as S
from gorilla.gomoku.game import GomokuGame
from gorilla.gomoku.patterns import P_33, P_43, P_F4, P_FIVE, P_FORBID, P_FOUR, P_THREE
from gorilla.rules.coords import GOMOKU_LETTERS, format_vertex

# the threat map: how strongly a point class shows (five and open four darkest)
THREAT_SHADE = {P_FIVE: 1.0, P_F4: 0.9, P_43: 0.8, P_33: 0.65, P_FOUR: 0.5, P_THREE: 0.3}


@dataclass
class MoveValue:
    """One move's value for the side to move (``e``): its win rate and score."""

    winrate: float
    score: float


@dataclass
class Evaluation:
    """Every move's value (window points) and the best one."""

    values: dict[int, MoveValue] = field(default_factory=dict)
    best: int | None = None
    pvs: dict[int, list[int]] = field(default_factory=dict)  # no line from the one-ply evaluation


EVAL_CANDIDATES = 10  # e: the moves the search values (the best by the one-ply values)
EVAL_SECONDS = 2.0  # e: the search's time for all of them together


def evaluate_moves(
    game: GomokuGame, cancel: threading.Event | None = None, search_seconds: float = 0.0
) -> Evaluation:
    """The value of every candidate move of the side to move: its own five wins, a move that
    leaves the opponent a five loses, else the static evaluation after it (from the mover's
    side). With search_seconds, the best EVAL_CANDIDATES of them are then valued by the AI's
    search (``pvs+vct``: the opponent's best answer searched in an equal share of the time),
    each with its line, and only they are shown (as an analysis shows its candidates: a
    one-ply value is no search's, and the two do not share a scale)."""
    ev = _one_ply_values(game)
    if search_seconds <= 0 or ev.best is None or ev.values[ev.best].score >= S.WIN:
        return ev  # no search asked for, no move, or a five at once
    ranked = sorted(ev.values, key=lambda q: -ev.values[q].score)[:EVAL_CANDIDATES]
    share = search_seconds / len(ranked)
    state = S.new_state()
    c, o = game.to_move, 3 - game.to_move
    searched: dict[int, MoveValue] = {}
    for q in ranked:
        if cancel is not None and cancel.is_set():
            return ev
        if ev.values[q].score <= -S.WIN:  # it leaves the opponent a five
            searched[q] = ev.values[q]
            continue
        bd = R.copy_board(game.bd)
        p = from_view(game, q)
        R.place(bd, p, c)
        r = S.search(bd, state, o, share, threats=True)
        score = float(-r.score)
        searched[q] = MoveValue(win_rate(int(score)), score)
        ev.pvs[q] = [q] + [to_view(game, m) for m in r.pv if m >= 0]
    ev.values = searched
    ev.best = max(searched, key=lambda q: searched[q].score)
    return ev


def _leaf_value(bd: tuple, c: int) -> int:
    """The static value for c to move as the PVS values a leaf: facing the opponent's open
    three, c blocks one of its four-making points with its very move (``search.F4_OFFSET``)."""
    v = int(S.evaluate(bd, c))
    return v + S.F4_OFFSET if R.count_of(bd, 3 - c, P_F4) > 0 else v


def _one_ply_values(game: GomokuGame) -> Evaluation:
    """Every candidate move's one-ply value (see :func:`evaluate_moves`)."""
    bd = R.copy_board(game.bd)
    c = game.to_move
    o = 3 - c
    fives = np.empty(4, dtype=np.int32)
    ev = Evaluation()
    best_s = -math.inf
    for p in game.empty_points():
        if bd[5][p] == 0 and game.moves:
            continue
        if not R.legal(bd, p, c):
            continue
        if R.is_win(bd, p, c):
            score = float(S.WIN)
        else:
            R.place(bd, p, c)
            score = float(-S.WIN) if S.five_points(bd, o, fives) > 0 else float(-_leaf_value(bd, o))
            R.remove(bd, p)
        q = to_view(game, p)
        ev.values[q] = MoveValue(win_rate(int(score)), score)
        if score > best_s:
            best_s, ev.best = score, q
    return ev


def threat_map(g: GomokuGame) -> np.ndarray:
    """The threat map (``c``) in grid orientation: -1..0 where Black makes a four or three,
    0..1 for White (:data:`THREAT_SHADE`)."""
    n = g.size
    out = np.zeros((n, n), dtype=np.float32)
    pcls = g.bd[3]
    for y in range(n):
        for x in range(n):
            p = g.point(x, y)
            if g.bd[0][p] != R.EMPTY:
                continue
            b = THREAT_SHADE.get(int(pcls[R.BLACK, p]), 0.0)
            w = THREAT_SHADE.get(int(pcls[R.WHITE, p]), 0.0)
            out[y, x] = w if w > b else -b
    return out


def forbidden_points(g: GomokuGame) -> list[int]:
    """The window's points where Black may not play now under renju (an overline, a double
    four, a double three of real threes); none under other rules or with White to move."""
    if g.rule != R.RENJU or g.to_move != R.BLACK:
        return []
    pcls = g.bd[3]
    return [
        to_view(g, int(p))
        for p in np.flatnonzero((pcls[R.BLACK] == P_FORBID) | (pcls[R.BLACK] == P_33))
        if g.bd[0][p] == R.EMPTY and R.is_forbidden(g.bd, int(p))
    ]


class GomokuValuer:
    """Gomoku's ``e`` (:class:`gorilla.app.kind.Valuer`): the search's values of the best
    candidates when its kernels can run at once (``ready()``), else every move's one-ply value
    (a game between two humans on a first start has only the rules: it does not compile for a
    minute)."""

    def __init__(self, ready: Callable[[], bool] = lambda: True) -> None:
        self.ready = ready

    def groups(self, view: GomokuView) -> tuple[str, ...]:
        """Nothing to wait for: without the search, the one-ply values."""
        return ()

    def job(self, view: GomokuView, progress: Callable[[Any], None]) -> tuple[Job, str]:
        """The values of the side to move's moves in the position shown (a copy)."""
        snapshot = view.gomoku.copy()
        seconds = EVAL_SECONDS if self.ready() else 0.0

        def run(cancel: threading.Event) -> EvaluationView:
            return EvaluationView(
                evaluate_moves(snapshot, cancel, seconds), None, len(snapshot.moves), "win rate"
            )

        return run, "Evaluating the moves" if seconds else "Evaluating every move (one ply)"

    def done(self, view: EvaluationView, game: GomokuView) -> str:
        """What was valued, and the best move."""
        ev = view.evaluation
        what = f"the {len(ev.values)} best candidates" if ev.pvs else "every move"
        best = "" if ev.best is None else f": best {format_vertex(ev.best, game.size, GOMOKU_LETTERS)}"
        return f"Evaluated {what}{best}"


class Threats:
    """What the board marks for the position shown, as Gomoku's part: the threat map (``c``),
    renju's forbidden points (each position's kept until the game changes), the five that won.
    ``view()`` is the game on the board, ``over()`` whether the game has ended."""

    def __init__(self, view: Callable[[], GomokuView], over: Callable[[], bool]) -> None:
        self.view = view
        self.over = over
        self._forbidden: tuple[Any, list[int]] = (None, [])  # (position, its forbidden points)

    def control_map(self) -> np.ndarray:
        """The threat map in grid orientation: -1..0 where Black makes a four or three, 0..1 for White."""
        return threat_map(self.view().gomoku)

    def forbidden_points(self) -> list[int]:
        """Renju, Black to move: the window's points where Black may not play (an overline, a
        double four, a double three of real threes), marked on the board; else none."""
        g = self.view().gomoku
        if self.over():
            return []
        key = (id(g), tuple(g.moves))
        if self._forbidden[0] != key:
            self._forbidden = (key, forbidden_points(g))
        return list(self._forbidden[1])

    def winning_line(self) -> list[int]:
        """The window's points of the five that won the game (none before its end)."""
        g = self.view().gomoku
        return [to_view(g, p) for p in g.five()]
