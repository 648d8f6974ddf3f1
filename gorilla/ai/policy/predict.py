"""How well a move model predicts the moves of game records: top-1, top-5, log-likelihood.

Every position of every game counts (the move played must be legal; positions
after an illegal one are dropped), split by game phase: moves 1-30, 31-150,
151 and later. A move's rank counts the candidates at least as likely as it
(ties count against the model).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from gorilla.ai.policy.learn import replayed
from gorilla.ai.policy.model import PolicyModel, team_logits
from gorilla.ai.policy.records import GameRecord
from gorilla.rules.board import MAX_POINTS

PHASES = (("moves 1-30", 0, 30), ("moves 31-150", 30, 150), ("moves 151+", 150, 10**9))


@dataclass
class Tally:
    """Counts for one phase."""

    positions: int = 0
    top1: int = 0
    top5: int = 0
    loglik: float = 0.0

    def line(self, label: str) -> str:
        """One line of the report."""
        if not self.positions:
            return f"{label:<14} no positions"
        n = self.positions
        return (
            f"{label:<14} {n:>8,} positions  top-1 {100 * self.top1 / n:5.1f}%  "
            f"top-5 {100 * self.top5 / n:5.1f}%  log-likelihood {self.loglik / n:7.3f}"
        )


@dataclass
class Prediction:
    """The tallies overall and by phase, and the number of games."""

    games: int = 0
    overall: Tally = field(default_factory=Tally)
    phases: list[Tally] = field(default_factory=lambda: [Tally() for _ in PHASES])

    def report(self) -> str:
        """The report's lines."""
        lines = [f"{self.games} games", self.overall.line("all moves")]
        lines += [t.line(label) for t, (label, _, _) in zip(self.phases, PHASES, strict=True)]
        return "\n".join(lines)


def evaluate(model: PolicyModel, records: Iterable[GameRecord]) -> Prediction:
    """Rank every move played in the records among the model's probabilities."""
    out = Prediction()
    moves = np.empty(MAX_POINTS + 1, dtype=np.int64)
    pidx, offs, lg = model.pidx, model.offs, model.loggamma
    for rec in records:
        out.games += 1
        if not rec.moves:
            continue
        take = np.ones(len(rec.moves), dtype=np.bool_)
        feats, starts, winner, number = replayed(rec, take, pidx, model.dkeys, moves)
        k = len(winner)
        logits = np.empty(int(starts[k]))
        team_logits(feats, int(starts[k]), offs, lg, logits)
        for j in range(k):
            s = logits[starts[j] : starts[j + 1]]
            w = s[winner[j] - starts[j]]
            top = s.max()
            ll = w - top - np.log(np.exp(s - top).sum())
            rank = int((s >= w).sum())  # itself included: 1 = the favourite
            for t in (out.overall, out.phases[_phase(int(number[j]))]):
                t.positions += 1
                t.top1 += rank <= 1
                t.top5 += rank <= 5
                t.loglik += ll
    return out


def evaluate_net(
    net, records: Iterable[GameRecord], komi: float = 7.5, batch: int = 32, symmetry: int | str = 0
) -> Prediction:
    """The same tallies for a KataGo net's policy (:class:`gorilla.ai.net.Net`) under Chinese
    rules and ``komi``: each position's moves ranked by the net's probabilities of the legal
    moves; a record stops at its first illegal move. ``symmetry``: the board's orientation as
    the net sees it (0 the identity, 0..7, ``"random"``, or ``"all"``: the eight averaged)."""
    from gorilla.ai.net import policy_index
    from gorilla.rules.game import Game, IllegalMove

    out = Prediction()
    for rec in records:
        out.games += 1
        game = Game.new(rec.size, komi=komi)
        if rec.setup:
            game.add_setup([(p, c) for p, c in rec.setup])
        pending: list[tuple[Game, int, int]] = []  # (position, index of the move played, move number)
        for number, (color, point) in enumerate(rec.moves):
            if point < 0 or game.to_move != color or not game.is_legal(point):
                break
            pending.append((game.copy(), policy_index(point, rec.size), number))
            try:
                game.play(point)
            except IllegalMove:
                break
        for start in range(0, len(pending), batch):
            chunk = pending[start : start + batch]
            evals = net.evaluate([g for g, _, _ in chunk], symmetry=symmetry)
            for (_, played, number), ev in zip(chunk, evals, strict=True):
                pol = ev.policy
                w = pol[played]
                rank = int((pol >= w).sum())  # itself included: 1 = the favourite
                ll = float(np.log(max(float(w), 1e-12)))
                for t in (out.overall, out.phases[_phase(number)]):
                    t.positions += 1
                    t.top1 += rank <= 1
                    t.top5 += rank <= 5
                    t.loglik += ll
    return out


def _phase(i: int) -> int:
    for k, (_, lo, hi) in enumerate(PHASES):
        if lo <= i < hi:
            return k
    return len(PHASES) - 1
