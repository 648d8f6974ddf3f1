"""Opponents that teach (KaTrain's AI kinds players use most): ``scoreloss`` and ``policy``.

``scoreloss:strength=0.5`` (KaTrain's "ScoreLoss" AI, written anew): the net's search runs as
the ``net`` agent's does, then one of the root's candidates (the moves the search visited) is
drawn with weight ``exp(-strength * points lost)``, the points lost being the fall of the
mover's score lead: the root's lead (averaged over the search) less the candidate's, never
below 0. So the best move is always the likeliest, a move losing 2 points is ``e**(2 *
strength)`` times less likely, and a larger strength plays closer to the search's choice
(strength 0: any visited move alike). When the search's own choice is to pass it passes (as
KaTrain's does: the game is over). Settings: ``strength`` (default 0.5), and every ``net``
setting (``visits``, default 200 whatever the clock: the strength it was calibrated at;
``time``, ``net=FILE``, ``resign``, ``seed``, the search's constants;
not ``ponder``).

``policy`` (KaTrain's "Policy" AI): the net's first choice without search, pass included.
``policy:temperature=T``: a legal move drawn with weight ``p ** (1 / T)`` over the moves whose
policy ``p`` is above ``floor`` (default 0.001, KaTrain's lower bound), never a pass;
temperature 1 is the policy itself, lower values sharpen it toward the first choice. With a
pass among the policy's five first choices (the game is ending), or a move above ``obvious``
(default 1: never), the first choice is played. Settings: ``temperature`` (default 0: the first
choice), ``floor``, ``obvious``, ``net=FILE``, ``seed``.

Both need the net (7x7..19x19, not Little-Go); elsewhere they say so in one line.
``benchmarks/teaching_calibration.py`` measures them against GNU Go and the rank AIs.
"""

from __future__ import annotations

import math
import random

import numpy as np

from gorilla.ai.agent import Agent, MoveRequest
from gorilla.ai.puct.agent import DEFAULT_VISITS, NetAgent
from gorilla.ai.puct.evaluator import NetEvaluator, supports
from gorilla.ai.puct.search import RootInfo
from gorilla.rules.board import PASS, RESIGN
from gorilla.rules.game import Game


def _need_net(game: Game, kind: str) -> None:
    if not supports(game):
        raise ValueError(f"{kind} AIs need the net: {game.size}x{game.size} is beyond it (7x7..19x19)")


def points_lost(info: RootInfo, root_lead: float) -> list[float]:
    """Each candidate's points lost: the root's lead less the candidate's, at least 0 (KaTrain)."""
    return [max(0.0, root_lead - lead) for lead in info.lead]


def score_loss_weights(lost: list[float], strength: float) -> list[float]:
    """``exp(-strength * lost)`` per candidate (the exponent capped, as KaTrain's, at 200)."""
    return [math.exp(min(200.0, -strength * x)) for x in lost]


class ScoreLossAgent(NetAgent):
    """The net's search, then a candidate drawn by the points it loses (module docstring)."""

    name = "scoreloss"

    def __init__(
        self,
        strength: float = 0.5,
        visits: int | None = None,
        time: float | None = None,
        seed: int | None = None,
        **settings: object,
    ) -> None:
        if float(strength) < 0:
            raise ValueError("strength must be 0 or more")
        if settings.pop("ponder", 0):
            raise ValueError("scoreloss does not ponder (its move is not the search's)")
        if visits is None and time is None:
            visits = DEFAULT_VISITS  # fixed visits, not the clock's plan: the strength calibrated
        super().__init__(visits=visits, time=time, seed=seed, **settings)  # type: ignore[arg-type]
        self.strength = float(strength)
        self.rng = random.Random(seed)
        self.name = f"scoreloss:strength={self.strength:g}"
        self.last_lost = 0.0  # the points the last move chosen loses, by the search's values

    def reseed(self, seed: int) -> None:
        """A new random sequence for the draws and the net's symmetries."""
        super().reseed(seed)
        self.rng = random.Random(seed)

    def choose(self, req: MoveRequest) -> int:
        """The search's move replaced by a candidate drawn with weight exp(-strength * points lost)."""
        _need_net(req.game, "scoreloss")
        move = super().choose(req)
        self.last_lost = 0.0
        if move in (PASS, RESIGN):
            return move
        info = self.search.root_info()
        if not info.moves:
            return move
        lost = points_lost(info, self.root_value()[1])
        weights = score_loss_weights(lost, self.strength)
        k = self.rng.choices(range(len(info.moves)), weights=weights)[0]
        self.last_lost = lost[k]
        return int(info.moves[k])


class PolicyAgent(Agent):
    """The net's policy without search: its first choice, or a draw at a temperature (module docstring)."""

    name = "policy"

    def __init__(
        self,
        temperature: float = 0.0,
        floor: float = 0.001,
        obvious: float = 1.0,
        net: str | None = None,
        seed: int | None = None,
    ) -> None:
        if float(temperature) < 0:
            raise ValueError("temperature must be 0 or more")
        self.temperature = float(temperature)
        self.floor = float(floor)
        self.obvious = float(obvious)
        self.seed = seed
        self.rng = random.Random(seed)
        self.evaluator = NetEvaluator(net, seed=seed)
        self.name = "policy" if self.temperature == 0 else f"policy:temperature={self.temperature:g}"

    def reseed(self, seed: int) -> None:
        """A new random sequence for the draws and the net's symmetries."""
        self.seed = seed
        self.rng = random.Random(seed)
        self.evaluator.reseed(seed)

    def choose(self, req: MoveRequest) -> int:
        """The policy's first choice, or with a temperature a move drawn from the sharpened policy."""
        game = req.game
        if game.over:
            return PASS
        _need_net(game, "policy")
        legal = game.legal_moves()
        if not legal:
            return PASS
        (ev,) = self.evaluator.evaluate_games([game])
        p = np.asarray([ev.policy[m] for m in legal], np.float64)
        ranked = sorted([*p, ev.pass_prob], reverse=True)
        if ev.pass_prob >= ranked[0]:
            return PASS
        top = int(legal[int(np.argmax(p))])
        ending = ev.pass_prob >= ranked[min(4, len(ranked) - 1)]  # a pass among the first five
        if self.temperature == 0 or ending or ranked[0] > self.obvious:
            return top
        return self._draw(legal, p, top)

    def _draw(self, legal: list[int], p: np.ndarray, top: int) -> int:
        """A legal move drawn with weight p ** (1 / temperature) among those above the floor."""
        keep = np.flatnonzero(p > self.floor)
        if keep.size == 0:
            return top
        logw = np.log(p[keep]) / self.temperature
        w = np.exp(logw - logw.max())
        k = self.rng.choices(range(keep.size), weights=w.tolist())[0]
        return int(legal[int(keep[k])])


__all__ = ["ScoreLossAgent", "PolicyAgent", "points_lost", "score_loss_weights"]
