"""Opponents at a chosen rank: ``rank:15k``, ``rank:3k``, ``rank:1d`` (the net's policy, sampled).

A move is chosen as a player of that rank might choose it: the net's policy is read once
for the position, ``n`` legal moves are drawn uniformly at random, and the one the policy
likes best is played. Drawing more moves finds better ones: with ``L`` legal moves the move
played is, on average, the policy's ``(L + 1) / (n + 1)``-th choice. A move the policy
gives more than :data:`OBVIOUS` is always played (a capture that saves the game, an answer
to an atari), and the net's pass when it is the policy's choice by more than even odds.

The assumption that ties this to ranks: a player ``K`` kyu plays, on average, the policy's
``k(K) = 1.2 * 1.17**K``-th move (1 dan: K = 0, 2 dan: K = -1, ...), about the 1.2th at
1 dan, the 6th at 10 kyu, the 28th at 20 kyu; so ``n = (L + 1) / k(K) - 1``. The curve
is KaTrain's idea (rank-based move picking, fitted by its author to human games) in a
form of our own. ``benchmarks/rank_calibration.py`` checks it against GNU Go 3.8 (taken to
play about like a 10-kyu at level 10): on 9x9 the ranks order as they should and rank:10k
wins about half its games against level 10, so the scale stands
(``benchmarks/RESULTS.md#2026-11-25-evening-rank-ais-against-gnu-go-the-review-against-katagos-analysis-pachi-on-9x9``).

Settings: ``rank:10k``, ``rank:2d`` (or ``rank=10k``), ``net=FILE``, ``seed=N``.
"""

from __future__ import annotations

import random
import re

from gorilla.ai.agent import Agent, MoveRequest
from gorilla.ai.puct.evaluator import NetEvaluator, supports
from gorilla.rules.board import PASS

OBVIOUS = 0.6  # a policy above this is always played (an answer any player sees)
RANKS = [f"{k}k" for k in range(30, 0, -1)] + [f"{d}d" for d in range(1, 10)]


def parse_rank(text: str) -> int:
    """A rank as kyu: '10k' -> 10, '1d' -> 0, '3d' -> -2; ValueError (one line) for anything else."""
    m = re.fullmatch(r"\s*(\d+)\s*([kd])\s*", str(text).lower())
    if not m:
        raise ValueError(f"a rank is like 15k or 2d, not '{text}'")
    n, kind = int(m.group(1)), m.group(2)
    if kind == "k" and 1 <= n <= 30:
        return n
    if kind == "d" and 1 <= n <= 9:
        return 1 - n
    raise ValueError(f"ranks go from 30k to 9d, not '{text}'")


def expected_choice(kyu: int) -> float:
    """The policy's rank of the move a kyu-K player plays on average (see the module docstring)."""
    return 1.2 * 1.17 ** max(-8, kyu)


def moves_to_draw(kyu: int, legal: int) -> int:
    """How many of ``legal`` moves to draw for a kyu-K player (at least 1, at most all)."""
    n = round((legal + 1) / expected_choice(kyu) - 1)
    return max(1, min(legal, n))


class RankAgent(Agent):
    """Plays like a player of a given rank by sampling the net's policy (module docstring)."""

    name = "rank"

    def __init__(self, rank: str | int = "10k", net: str | None = None, seed: int | None = None) -> None:
        self.kyu = parse_rank(f"{rank}k" if isinstance(rank, int) else rank)
        self.rank = str(rank)
        self.seed = seed
        self.rng = random.Random(seed)
        self.evaluator = NetEvaluator(net, seed=seed)
        self.name = f"rank:{self.rank}"

    def reseed(self, seed: int) -> None:
        """A new random sequence for the draws and the symmetries."""
        self.seed = seed
        self.rng = random.Random(seed)
        self.evaluator.reseed(seed)

    def choose(self, req: MoveRequest) -> int:
        """The best of n legal moves drawn at random, by the net's policy (see the module docstring)."""
        game = req.game
        if game.over:
            return PASS
        if not supports(game):
            raise ValueError(f"rank AIs need the net: {game.size}x{game.size} is beyond it (7x7..19x19)")
        legal = game.legal_moves()
        if not legal:
            return PASS
        (ev,) = self.evaluator.evaluate_games([game])
        policy = ev.policy
        top = max(legal, key=lambda p: policy[p])
        if ev.pass_prob > 0.5 and ev.pass_prob > policy[top]:
            return PASS
        if policy[top] > OBVIOUS:
            return int(top)
        drawn = self.rng.sample(legal, moves_to_draw(self.kyu, len(legal)))
        best = max(drawn, key=lambda p: (policy[p], -drawn.index(p)))
        return int(best)


def rank_table(legal: int = 300) -> list[tuple[str, float, int]]:
    """(rank, expected policy rank of its moves, moves drawn with ``legal`` legal moves) per rank."""
    return [(r, expected_choice(parse_rank(r)), moves_to_draw(parse_rank(r), legal)) for r in RANKS]


__all__ = ["RankAgent", "parse_rank", "moves_to_draw", "expected_choice", "rank_table"]
