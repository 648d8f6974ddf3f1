"""The playout doubling advantage (PDA) a handicap game sets, as KataGo's GTP engine sets it.

KataGo's nets take a playout doubling advantage among their global inputs (15 and 16 of input
version 7: 1 and half the advantage): the side to move plays as if it had ``2 ** pda`` times its
opponent's playouts. A positive PDA makes the net's values and policy those of a player who
expects to out-read its opponent, so behind on the board it still plays to win, with the
complicating moves a strong player giving stones needs; a negative one plays safe. The search
tells the net the searching player's PDA in its own nodes and the negative in the opponent's.

KataGo's engine (``command/gtp.cpp``, ``updateDynamicPDAHelper``) sets it from the game:

- Black's initial advantage in points: with two or more handicap stones ``stone value * (stones
  - 1) + 7 - komi`` (stone value 15 under area scoring, 14 under territory; Gorilla's rules give
  White no points for the stones), else ``7 - komi``. The player it favours is the advantaged
  one, the other the disadvantaged one (White at an advantage of 0).
- A game is a handicap game where that advantage is at least ``max(4 / s, 2)`` points, ``s =
  (361 / area) ** 0.75`` (a point counts for more on a small board), on boards larger than 7x7.
- The PDA's cap: ``min(2.75, 0.045 * (advantage - threshold) * s)`` in steps of 1/8
  (0.045 is ``dynamicPlayoutDoublingAdvantageCapPerOppLead``'s default).
- At the first move of a game (or while White has no stone on the board) the disadvantaged
  player's PDA is the cap; after each move it steps by 1/8 to keep that player's win rate,
  as its last search saw it, between 5% and 25%: up when it was below 5%, down above 25%,
  within 0 and the cap. The advantaged player's PDA is the negative of the same figure.

As in KataGo, this dynamic PDA is for the moves an agent plays, not for analysis; a fixed
``pda`` (``net:pda=X``, KataGo's ``playoutDoublingAdvantage``) is for both. A new game (a
different start, or fewer moves than the last search saw) starts the dynamic PDA again.

And as KataGo's engine, White giving stones does not resign early (:func:`may_resign`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from gorilla.rules.board import BLACK, WHITE
from gorilla.rules.game import Game

CAP_PER_LEAD = 0.045  # KataGo's dynamicPlayoutDoublingAdvantageCapPerOppLead default
MAX_PDA = 2.75  # KataGo's hard cap: larger values reach beyond the nets' training
STEP = 0.125  # the dynamic PDA's step and rounding
LOW, HIGH = -0.9, -0.5  # the disadvantaged player's win-loss value is kept between these (5%, 25%)


def handicap_stones(game: Game) -> int:
    """Black's handicap stones: the start board's black stones when it has no white one
    (KataGo's computeNumHandicapStones), else the game's handicap; 0 for a single stone."""
    colours = set(game.setup.values())
    stones = len(game.setup) if colours == {BLACK} else game.handicap
    return stones if stones > 1 else 0


def black_advantage(game: Game) -> float:
    """Black's initial advantage in points (KataGo's initialBlackAdvantage, no handicap bonus)."""
    komi = float(game.komi if game.komi is not None else game.ruleset.komi)
    stones = handicap_stones(game)
    if stones <= 1:
        return 7.0 - komi
    value = 14.0 if game.ruleset.scoring == "territory" else 15.0
    return value * (stones - 1) + 7.0 - komi


def size_scaling(size: int) -> float:
    """How much more a point counts on this board than on 19x19: ``(361 / area) ** 0.75``."""
    return (361.0 / (size * size)) ** 0.75


def pda_cap(game: Game, cap_per_lead: float = CAP_PER_LEAD) -> tuple[int, float]:
    """(the disadvantaged colour, the cap of its PDA); a cap of 0 when the game is no handicap game."""
    adv = black_advantage(game)
    weaker = WHITE if adv >= 0 else BLACK
    s = size_scaling(game.size)
    threshold = max(4.0 / s, 2.0)
    if cap_per_lead <= 0 or abs(adv) < threshold or game.size <= 7:
        return weaker, 0.0
    cap = min(MAX_PDA, cap_per_lead * (abs(adv) - threshold) * s)
    return weaker, round(cap / STEP) * STEP


@dataclass
class DynamicPda:
    """The dynamic PDA through one game (module docstring): :meth:`for_move` before a search,
    :meth:`record` with the searching player's win rate after it, :meth:`reset` at a new game."""

    cap_per_lead: float = CAP_PER_LEAD
    desired: float = 0.0  # the disadvantaged player's PDA
    values: list[float] = field(default_factory=list)  # its win-loss value after each search
    seen: tuple = ()  # the game's start and its length at the last search (a new game: reset)

    def reset(self) -> None:
        """A new game: no values seen, the PDA back to the cap at the next move."""
        self.desired = 0.0
        self.values = []
        self.seen = ()

    def _follow(self, game: Game) -> None:
        """Reset when game is not the one of the last search, played on."""
        start = (game.size, game.komi, game.ruleset.name, tuple(sorted(game.setup.items())), game.handicap)
        if self.seen and (self.seen[0] != start or game.move_number < self.seen[1]):
            self.reset()
        self.seen = (start, game.move_number)

    def for_move(self, game: Game, color: int) -> float:
        """The PDA ``color`` searches with now (the disadvantaged player's, or its negative)."""
        self._follow(game)
        weaker, cap = pda_cap(game, self.cap_per_lead)
        if cap == 0:
            self.desired = 0.0
        elif not self.values or not game.position.stones(WHITE):
            self.desired = cap
        else:
            v = self.values[-1]
            if v < LOW:
                self.desired += STEP
            elif v > HIGH:
                self.desired -= STEP
            self.desired = min(max(self.desired, 0.0), cap)
        return self.desired if color == weaker else -self.desired

    def record(self, game: Game, color: int, winrate: float) -> None:
        """After a search by ``color`` in game: its root win rate, seen from the disadvantaged side."""
        weaker, _ = pda_cap(game, self.cap_per_lead)
        wr = winrate if color == weaker else 1.0 - winrate
        self.values.append(2.0 * wr - 1.0)


def parse_pda(value: object) -> float | None:
    """A ``pda`` setting: a number (-3..3, fixed) or ``auto`` (None: the dynamic PDA)."""
    if value is None or (isinstance(value, str) and value.strip().lower() == "auto"):
        return None
    try:
        x = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise ValueError(f"pda is a number from -3 to 3 or auto, not '{value}'") from None
    if not math.isfinite(x) or abs(x) > 3:
        raise ValueError(f"pda is a number from -3 to 3 or auto, not '{value}'")
    return x


__all__ = [
    "DynamicPda",
    "black_advantage",
    "handicap_stones",
    "may_resign",
    "parse_pda",
    "pda_cap",
    "size_scaling",
]


def may_resign(game: Game, color: int, lead: float) -> bool:
    """Whether ``color`` (its lead ``lead`` in points) may resign now, as KataGo's shouldResign has
    it in a handicap game: White, giving at least a point, plays at least ``1 + area / 5`` moves
    and resigns only when its lead falls well behind a schedule that makes up Black's advantage
    over 60% of the board's area in moves (with 5 points and 15% of the advantage to spare)."""
    adv = black_advantage(game)
    if color != WHITE or adv <= 0.9:
        return True
    area = game.size * game.size
    first = 1 + area // 5
    if game.move_number < first:
        return False
    span = max(1.0, 0.60 * area - first)
    spent = min(max(0.0, game.move_number - first), span)
    line = -adv * (span - spent) / span - 5.0 - 0.15 * adv
    return lead <= line
