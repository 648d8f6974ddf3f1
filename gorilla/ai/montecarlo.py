"""Gorilla's flat Monte-Carlo AI (``montecarlo:G,T``) and the move values behind the evaluator.

For every *reasonable* move (legal, not filling the mover's own single-point
eye) the AI plays the move on a scratch board, then plays T turns of random
reasonable moves (a side with none passes) and evaluates the end position
with the control map (:mod:`gorilla.ai.control_map`): the mover's control
minus the opponent's. It does this G times per move, averages, and plays the
move with the best average (the first one on a tie, as Gorilla kept the first
maximum). With T = 0 each sample is played to the end of the game (two passes,
or 3 x points moves) and scored by area, Tromp-Taylor style, instead.

Each move also gets a win rate, the fraction of its samples the mover is
ahead once komi is counted (for T > 0 the control-map evaluation stands in
for the score), and an expected score margin, the mean of those komi-adjusted
margins.

The sampling loop is one numba ``nogil`` kernel (``sample_batch``) over the
flat board arrays; samples go round-robin over the candidates, so stopping
early (a time budget, the cancel event) leaves every move with the same
number of samples, give or take one. Python only calls the kernel in chunks
of about 10 ms, checks the clock and the cancel event between chunks and
reports progress. With a seed, a move is chosen the same way every time
(unless a time budget cuts the sampling short).
"""

from __future__ import annotations

import os
import random
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numba import njit

from gorilla.ai.agent import Agent, Budget, Candidate, MoveRequest, Progress, ProgressFn
from gorilla.ai.control_map import evaluate_arrays, new_workspace
from gorilla.rules import board as K
from gorilla.rules.board import BLACK, PASS, S_TOMOVE, copy_board, place, quick_area_score, random_game
from gorilla.rules.game import Game

CHUNK_SECONDS = 0.01
PROGRESS_EVERY = 0.25


@dataclass(frozen=True)
class MoveValue:
    """What the samples say about one move, from the mover's point of view."""

    move: int
    value: float  # mean evaluation: control-map evaluation (T > 0) or area margin (T = 0), no komi
    winrate: float  # fraction of samples the mover is ahead with komi (a tie counts half)
    score: float  # mean margin with komi
    samples: int


@njit(cache=True, nogil=True)
def sample_batch(
    b0: np.ndarray,
    st0: np.ndarray,
    zob: np.ndarray,
    cands: np.ndarray,
    start: int,
    count: int,
    turns: int,
    max_moves: int,
    komi: float,
    sums: np.ndarray,
    margins: np.ndarray,
    wins: np.ndarray,
    counts: np.ndarray,
    b: np.ndarray,
    st: np.ndarray,
    acc: np.ndarray,
    ws: np.ndarray,
) -> None:
    """Samples start .. start + count - 1; sample k plays candidate k % len(cands).

    Adds each sample's evaluation (mover's view, no komi) to sums, its
    komi-adjusted margin to margins, 1 / 0.5 / 0 to wins and 1 to counts.
    b, st, acc and ws are scratch arrays.
    """
    ncand = cands.shape[0]
    color = st0[S_TOMOVE]
    for k in range(start, start + count):
        i = k % ncand
        copy_board(b0, st0, b, st)
        place(b, st, zob, cands[i], color)
        random_game(b, st, zob, turns if turns > 0 else max_moves)
        if turns > 0:
            ev = evaluate_arrays(b, st, color, acc, ws)
        else:
            area = float(quick_area_score(b, st, np.bool_(False)))
            ev = area if color == BLACK else -area
        margin = ev - komi if color == BLACK else ev + komi
        sums[i] += ev
        margins[i] += margin
        if margin > 0.0:
            wins[i] += 1.0
        elif margin == 0.0:
            wins[i] += 0.5
        counts[i] += 1


def _check(games: int, turns: int) -> tuple[int, int]:
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games (G) must be an integer >= 1, got {games!r}")
    if isinstance(turns, bool) or not isinstance(turns, int) or turns < 0:
        raise ValueError(f"turns (T) must be an integer >= 0, got {turns!r}")
    return games, turns


class _Sampler:
    """The sums for a list of candidate moves, filled by chunks of the kernel."""

    def __init__(self, game: Game, moves: Sequence[int], turns: int) -> None:
        pos = game.position
        self.game = game
        self.b0 = pos.b.copy()
        self.st0 = pos.st.copy()
        self.cands = np.asarray(moves, dtype=np.int64)
        n = len(self.cands)
        self.sums = np.zeros(n)
        self.margins = np.zeros(n)
        self.wins = np.zeros(n)
        self.counts = np.zeros(n, dtype=np.int64)
        self.turns = turns
        self.komi = float(game.komi or 0.0)
        self.max_moves = 3 * game.size * game.size
        self.b = self.b0.copy()
        self.st = self.st0.copy()
        w = game.size + 2
        self.acc = np.zeros(w * w)
        self.ws = new_workspace(w)
        self.done = 0

    def run(self, count: int) -> None:
        sample_batch(
            self.b0, self.st0, K.ZOBRIST, self.cands, self.done, count, self.turns, self.max_moves,
            self.komi, self.sums, self.margins, self.wins, self.counts, self.b, self.st, self.acc, self.ws,
        )  # fmt: skip
        self.done += count

    def values(self) -> dict[int, MoveValue]:
        out = {}
        for i, p in enumerate(self.cands):
            n = int(self.counts[i])
            if n:
                out[int(p)] = MoveValue(
                    int(p), float(self.sums[i] / n), float(self.wins[i] / n), float(self.margins[i] / n), n
                )
        return out

    def best(self) -> int | None:
        """The sampled move with the highest mean evaluation (the first on a tie)."""
        if not self.counts.any():
            return None
        means = np.where(self.counts > 0, self.sums / np.maximum(self.counts, 1), -np.inf)
        return int(self.cands[int(np.argmax(means))])

    def progress(self, fraction: float, elapsed: float) -> Progress:
        vals = sorted(self.values().values(), key=lambda v: -v.value)
        cands = [Candidate(v.move, v.samples, v.winrate, v.score) for v in vals[:10]]
        best = vals[0] if vals else None
        return Progress(
            best.move if best else PASS,
            best.winrate if best else 0.5,
            self.done,
            min(1.0, fraction),
            cands,
            elapsed,
        )


def _sample(
    game: Game,
    moves: Sequence[int],
    games: int,
    turns: int,
    budget: Budget | None,
    cancel: threading.Event | None,
    progress: ProgressFn | None,
    seed: int,
) -> _Sampler:
    """Run the samples for moves: games per move, or the budget's playouts in all;
    stop early at the budget's seconds or when cancel is set."""
    t0 = time.perf_counter()
    s = _Sampler(game, moves, turns)
    total = games * len(moves)
    seconds = None
    if budget is not None:
        if budget.playouts is not None:
            total = max(0, int(budget.playouts))
        seconds = budget.seconds
    K.seed_rng(seed)
    chunk = 1
    next_progress = t0 + PROGRESS_EVERY
    while s.done < total:
        if cancel is not None and cancel.is_set():
            break
        now = time.perf_counter()
        if seconds is not None and now - t0 >= seconds:
            break
        n = min(chunk, total - s.done)
        s.run(n)
        dt = time.perf_counter() - now
        chunk = max(1, min(4 * chunk, int(n * CHUNK_SECONDS / dt) if dt > 0 else 4 * chunk))
        if progress is not None and time.perf_counter() >= next_progress:
            next_progress = time.perf_counter() + PROGRESS_EVERY
            el = time.perf_counter() - t0
            frac = s.done / total if total else 1.0
            if seconds:
                frac = max(frac, el / seconds)
            progress(s.progress(frac, el))
    if progress is not None:
        progress(s.progress(1.0, time.perf_counter() - t0))
    return s


def _seed(seed: int | None) -> int:
    return int.from_bytes(os.urandom(4), "little") & 0x7FFFFFFF if seed is None else int(seed) & 0x7FFFFFFF


def move_values(
    game: Game,
    games: int = 10,
    turns: int = 3,
    cancel: threading.Event | None = None,
    progress: ProgressFn | None = None,
    seed: int | None = None,
    *,
    budget: Budget | None = None,
    moves: Sequence[int] | None = None,
) -> dict[int, MoveValue]:
    """Flat Monte-Carlo values of moves for the side to move: G samples of T turns each
    (T = 0: to the end, scored by area). moves defaults to every reasonable move; moves
    without a sample (cancelled early) are left out."""
    games, turns = _check(games, turns)
    if moves is None:
        moves = game.legal_moves(reasonable=True)
    if game.over or not moves:
        return {}
    return _sample(game, moves, games, turns, budget, cancel, progress, _seed(seed)).values()


UNLIMITED = 1 << 40  # sample games: as many as the time allows


class MonteCarloAgent(Agent):
    """Gorilla's flat Monte-Carlo AI: G sample games of T turns per reasonable move.

    With ``time`` (seconds per move) it keeps sampling round-robin over the
    moves until the time is up instead of stopping after G games each: the
    same AI at a time budget, for comparisons at equal time.
    """

    name = "montecarlo"

    def __init__(
        self, games: int = 5, turns: int = 5, seed: int | None = None, time: float | None = None
    ) -> None:
        self.games, self.turns = _check(games, turns)
        if time is not None and not time > 0:
            raise ValueError("time must be positive")
        self.seed = seed
        self.time = time
        self.name = f"montecarlo:{self.games},{self.turns}" + (f",time={time:g}" if time else "")
        self.rng = random.Random(seed)
        self._calls = 0
        self.last_values: dict[int, MoveValue] = {}

    def choose(self, req: MoveRequest) -> int:
        """The reasonable move with the best mean sample value (its values stay in last_values)."""
        game = req.game
        self._calls += 1
        self.last_values = {}
        if game.over:
            return PASS
        moves = game.legal_moves(reasonable=True)
        if not moves:
            return PASS
        if self.seed is None:
            seed = _seed(None)
        else:
            seed = (self.seed * 1000003 + game.move_number * 7919 + self._calls) & 0x7FFFFFFF
        budget = req.budget
        if self.time is not None and req.default_budget:
            budget = Budget(playouts=UNLIMITED, seconds=self.time)
        s = _sample(game, moves, self.games, self.turns, budget, req.cancel, req.progress, seed)
        self.last_values = s.values()
        best = s.best()
        return self.rng.choice(moves) if best is None else best

    def new_game(self) -> None:
        """Restart the per-game seed sequence."""
        self._calls = 0


__all__ = ["MonteCarloAgent", "MoveValue", "move_values", "sample_batch"]
