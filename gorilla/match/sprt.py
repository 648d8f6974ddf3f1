"""The sequential probability ratio test that engine testers stop matches with.

The variant is the *trinomial generalised SPRT* (GSPRT) on the logistic Elo
scale, as in Fishtest and cutechess-cli: each game is a loss, a draw (jigo)
or a win for player A, scoring 0, 1/2 or 1. The hypotheses are about A's
expected score ``s``, with ``s(elo) = 1 / (1 + 10^(-elo/400))``:

    H0: elo = elo0 (s = s0)        H1: elo = elo1 (s = s1)

The three outcome probabilities are nuisance parameters. The log-likelihood
ratio is that of the maximum-likelihood distributions under each hypothesis
(Van den Bergh's GSPRT): for counts ``n = (L, D, W)`` over scores
``a = (0, 1/2, 1)`` with empirical frequencies ``q = n / N``,

    p_s,i = q_i / (1 + lam (a_i - s)),  lam solving  sum_i q_i (a_i - s) / (1 + lam (a_i - s)) = 0
    LLR   = sum_i n_i log(p_s1,i / p_s0,i)

(an outcome never seen counts 0.001 games, so that a one-sided record still
has a distribution of mean s). Without draws this is the classic binomial
SPRT, ``W log(s1/s0) + L log((1-s1)/(1-s0))``. Wald's bounds:
``lower = log(beta / (1 - alpha))``, ``upper = log((1 - beta) / alpha)``;
the test accepts H1 when the LLR reaches the upper bound, H0 at the lower.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

SCORES = (0.0, 0.5, 1.0)  # loss, draw, win for player A
REGULARISE = 1e-3  # the count given to an outcome never seen


def expected_score(elo: float) -> float:
    """The logistic expected score of a player elo points stronger: 1 / (1 + 10^(-elo/400))."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def _mle(q: Sequence[float], s: float) -> list[float]:
    """The distribution over SCORES nearest (in likelihood) to frequencies q with mean s."""
    d = [a - s for a in SCORES]
    # 1 + lam * d_i > 0 for every i: lam in (-1 / max d, -1 / min d)
    lo, hi = -1.0 / max(d), -1.0 / min(d)
    for _ in range(100):  # f(lam) falls monotonically: bisection
        lam = 0.5 * (lo + hi)
        f = sum(qi * di / (1.0 + lam * di) for qi, di in zip(q, d, strict=True))
        if f > 0:
            lo = lam
        else:
            hi = lam
    lam = 0.5 * (lo + hi)
    return [qi / (1.0 + lam * di) for qi, di in zip(q, d, strict=True)]


def llr(losses: float, draws: float, wins: float, elo0: float, elo1: float) -> float:
    """The trinomial GSPRT log-likelihood ratio of H1 (elo1) against H0 (elo0); see the module docstring."""
    counts = [losses, draws, wins]
    if sum(counts) <= 0:
        return 0.0
    counts = [c if c > 0 else REGULARISE for c in counts]
    n = sum(counts)
    q = [c / n for c in counts]
    p0 = _mle(q, expected_score(elo0))
    p1 = _mle(q, expected_score(elo1))
    return sum(c * math.log(b / a) for c, a, b in zip(counts, p0, p1, strict=True))


def bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's (lower, upper) LLR bounds for false-positive rate alpha and false-negative rate beta."""
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


@dataclass(frozen=True)
class Sprt:
    """An SPRT of H0: elo = elo0 against H1: elo = elo1 (A minus B), with error rates alpha and beta."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    @classmethod
    def parse(cls, text: str) -> Sprt:
        """'ELO0,ELO1[,ALPHA,BETA]' -> Sprt; raises ValueError with a one-line reason."""
        parts = [p.strip() for p in text.split(",")]
        if len(parts) not in (2, 4):
            raise ValueError(f"--sprt wants ELO0,ELO1 or ELO0,ELO1,ALPHA,BETA, not '{text}'")
        try:
            values = [float(p) for p in parts]
        except ValueError:
            raise ValueError(f"--sprt wants numbers, not '{text}'") from None
        return cls.from_list(values)

    @classmethod
    def from_list(cls, values: Sequence[float]) -> Sprt:
        """An Sprt from [elo0, elo1] or [elo0, elo1, alpha, beta] (as match.json keeps it), checked."""
        if len(values) not in (2, 4) or not all(math.isfinite(v) for v in values):
            raise ValueError(f"--sprt wants ELO0,ELO1[,ALPHA,BETA], not {list(values)}")
        t = cls(*values)
        if not t.elo0 < t.elo1:
            raise ValueError(f"--sprt needs ELO0 < ELO1 (got {t.elo0:g} and {t.elo1:g})")
        if not (0 < t.alpha < 0.5 and 0 < t.beta < 0.5):
            raise ValueError("--sprt: ALPHA and BETA must be between 0 and 0.5")
        return t

    def as_list(self) -> list[float]:
        """[elo0, elo1, alpha, beta], as match.json keeps it."""
        return [self.elo0, self.elo1, self.alpha, self.beta]

    @property
    def bounds(self) -> tuple[float, float]:
        """Wald's (lower, upper) bounds on the LLR."""
        return bounds(self.alpha, self.beta)

    def llr(self, losses: float, draws: float, wins: float) -> float:
        """The LLR for A's losses, draws and wins."""
        return llr(losses, draws, wins, self.elo0, self.elo1)

    def decide(self, value: float) -> str | None:
        """'H1' at or above the upper bound, 'H0' at or below the lower one, else None."""
        lower, upper = self.bounds
        if value >= upper:
            return "H1"
        if value <= lower:
            return "H0"
        return None


class SprtTracker:
    """The SPRT followed game by game, in the order games finish.

    The decision is the first bound the LLR crossed (the games still running
    then are recorded too but do not undo it); ``decided_at`` is how many
    games had finished when it did.
    """

    def __init__(self, test: Sprt) -> None:
        self.test = test
        self.counts = [0, 0, 0]  # A's losses, draws, wins
        self.value = 0.0
        self.decision: str | None = None
        self.decided_at: int | None = None

    def add(self, record: dict) -> None:
        """Count one finished game (its ``winner``: 'A', 'B' or None for a draw)."""
        w = record.get("winner")
        self.counts[2 if w == "A" else 0 if w == "B" else 1] += 1
        self.value = self.test.llr(*self.counts)
        if self.decision is None:
            self.decision = self.test.decide(self.value)
            if self.decision:
                self.decided_at = sum(self.counts)

    def state(self) -> dict:
        """The test, its LLR and bounds, the decision and the counts, as summary.json keeps them."""
        lower, upper = self.test.bounds
        losses, draws, wins = self.counts
        return {
            "elo0": self.test.elo0,
            "elo1": self.test.elo1,
            "alpha": self.test.alpha,
            "beta": self.test.beta,
            "llr": round(self.value, 4),
            "lower": round(lower, 4),
            "upper": round(upper, 4),
            "decision": self.decision,
            "decided_at": self.decided_at,
            "games": {"losses": losses, "draws": draws, "wins": wins},
        }


def sprt_state(test: Sprt, records: Iterable[dict]) -> dict:
    """The SPRT over records in the order they finished (see :class:`SprtTracker`)."""
    tracker = SprtTracker(test)
    for r in records:
        tracker.add(r)
    return tracker.state()


def sprt_text(state: dict) -> str:
    """'LLR 1.23 [-2.94, 2.94]' with ', H1 accepted' once decided: for the progress line."""
    text = f"LLR {state['llr']:.2f} [{state['lower']:.2f}, {state['upper']:.2f}]"
    if state["decision"]:
        text += f", {state['decision']} accepted"
    return text


__all__ = ["Sprt", "SprtTracker", "bounds", "expected_score", "llr", "sprt_state", "sprt_text"]
