"""Simultaneous perturbation stochastic approximation (SPSA) for tuning by matches.

Each iteration k perturbs every parameter at once by a random sign,
``theta+ = theta + c_k * delta`` and ``theta- = theta - c_k * delta`` (delta in
{-1, +1}^d), plays theta+ against theta- and moves along the one-sample
gradient estimate:

    r_k     = 2 * score(theta+ vs theta-) - 1          (in [-1, 1]; 0 is even)
    theta_i += a_k * r_k / (2 * c_k * delta_i)

with Spall's gain sequences ``a_k = a / (k + 1 + A)^alpha`` and
``c_k = c / (k + 1)^gamma`` (alpha 0.602, gamma 0.101, A a tenth of the
iterations). Parameters are tuned on their range scaled to [0, 1] (so ``a``
and ``c`` are fractions of each range, and one step size suits parameters of
any scale) and clipped to it; integer parameters are rounded when played.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field

Objective = Callable[[dict[str, float], dict[str, float], int], float]  # (plus, minus, k) -> score of plus


@dataclass(frozen=True)
class Param:
    """A tuned parameter: its name in the agent spec, start value and range."""

    name: str
    start: float
    lo: float
    hi: float
    integer: bool = False

    @classmethod
    def parse(cls, text: str) -> Param:
        """'NAME=START:MIN:MAX' -> Param (integer when all three are); ValueError with a one-line reason."""
        name, sep, rest = text.partition("=")
        parts = rest.split(":")
        if not sep or not name.strip() or len(parts) != 3:
            raise ValueError(f"--param wants NAME=START:MIN:MAX, not '{text}'")
        try:
            start, lo, hi = (float(p) for p in parts)
        except ValueError:
            raise ValueError(f"--param {name.strip()}: START, MIN and MAX must be numbers") from None
        if not lo < hi or not lo <= start <= hi:
            raise ValueError(f"--param {name.strip()}: needs MIN < MAX and START between them")
        integer = all(p.strip().lstrip("+-").isdigit() for p in parts)
        return cls(name.strip().replace("-", "_"), start, lo, hi, integer)

    def to_unit(self, value: float) -> float:
        """value scaled to [0, 1] over the range."""
        return (value - self.lo) / (self.hi - self.lo)

    def from_unit(self, u: float) -> float:
        """The value at u in [0, 1] of the range (rounded for an integer parameter)."""
        v = self.lo + min(1.0, max(0.0, u)) * (self.hi - self.lo)
        return float(round(v)) if self.integer else v


@dataclass
class SpsaSettings:
    """SPSA's gains (see the module docstring)."""

    iterations: int = 20
    a: float = 0.1
    c: float = 0.1
    big_a: float | None = None  # Spall's A; None: a tenth of the iterations
    alpha: float = 0.602
    gamma: float = 0.101
    seed: int = 0

    def gains(self, k: int) -> tuple[float, float]:
        """(a_k, c_k) for iteration k (0-based)."""
        big_a = self.iterations / 10 if self.big_a is None else self.big_a
        return self.a / (k + 1 + big_a) ** self.alpha, self.c / (k + 1) ** self.gamma


@dataclass
class Iteration:
    """One SPSA iteration: the gains, the two perturbed settings, the match score and the new values."""

    k: int
    a_k: float
    c_k: float
    plus: dict[str, float]
    minus: dict[str, float]
    score: float  # theta+'s score against theta- (wins + draws / 2) / games
    values: dict[str, float] = field(default_factory=dict)  # theta after the update

    @property
    def elo(self) -> float:
        """theta+'s measured Elo gain over theta-, clipped to +-800."""
        s = min(max(self.score, 1e-9), 1 - 1e-9)
        return max(-800.0, min(800.0, -400.0 * math.log10(1.0 / s - 1.0))) + 0.0


def spsa(
    params: list[Param],
    objective: Objective,
    settings: SpsaSettings,
    on_iteration: Callable[[Iteration], None] | None = None,
) -> list[Iteration]:
    """Maximise objective's score by SPSA over params; returns every iteration (the trajectory)."""
    rng = random.Random(settings.seed)
    x = [p.to_unit(p.start) for p in params]
    out = []
    for k in range(settings.iterations):
        a_k, c_k = settings.gains(k)
        delta = [rng.choice((-1, 1)) for _ in params]
        plus = {p.name: p.from_unit(u + c_k * d) for p, u, d in zip(params, x, delta, strict=True)}
        minus = {p.name: p.from_unit(u - c_k * d) for p, u, d in zip(params, x, delta, strict=True)}
        score = float(objective(plus, minus, k))
        r = 2.0 * score - 1.0
        x = [min(1.0, max(0.0, u + a_k * r / (2.0 * c_k * d))) for u, d in zip(x, delta, strict=True)]
        values = {p.name: p.from_unit(u) for p, u in zip(params, x, strict=True)}
        it = Iteration(k, a_k, c_k, plus, minus, score, values)
        out.append(it)
        if on_iteration:
            on_iteration(it)
    return out


__all__ = ["Iteration", "Objective", "Param", "SpsaSettings", "spsa"]
