"""The game report (KaTrain's F3): per player, for the whole game and by phase, accuracy, mean
points lost, the share of moves that were the search's first choice and within its first five,
and the number of moves in each class of points lost.

**Classes** (one definition for the report, the teaching game and the dots): a move's points
lost (:mod:`gorilla.app.go.review`: the fall of the mover's score lead) puts it in class
``move_class(lost)``, the number of :data:`THRESHOLDS` (0.5, 1.5, 3, 6, 12 points, KaTrain's
defaults) it reaches: 0 below 0.5 points (:data:`CLASS_NAMES`: good), 1 from 0.5 (inaccuracy),
2 from 1.5 (slack move), 3 from 3 (mistake), 4 from 6 (big mistake), 5 from 12 (blunder), drawn
in KaTrain's colours (:data:`CLASS_COLORS`). The teaching game (:mod:`gorilla.app.go.teaching`)
and its dots use these; a caller with other thresholds (the teaching game's settings) passes
them.

**Phases**, scaled by the board's area as KaTrain's report filters them: the opening is the
moves before ``ceil(0.14 * size^2)`` (19x19: moves 1-50; 13x13: 1-23; 9x9: 1-11), the middle
game the moves before ``ceil(0.4 * size^2)`` (19x19: 51-144; 13x13: 24-67; 9x9: 12-32), the
endgame the rest (:func:`phases`).

**Accuracy** is ``100 * 0.75 ** (mean points lost)``: KaTrain's formula with every move weighted
alike (KaTrain weighs each move by its position's complexity, the policy-weighted points lost
of the candidates, which a record does not keep). 100 for a player who lost nothing, 75 for one
point lost a move on average, 56 for two, 32 for four.

**Top-1 / top-5**: the move played was the search's first choice (the review's best move) in
the position before it / among its first five candidates; counted over the moves whose
position's candidates are known (a record from another program may give values only).

Passes are left out of every figure, as in :func:`gorilla.app.go.review.report`. Plain data, no
pyglet: the window's dialog (:mod:`gorilla.gui.report_dialog`), ``gorilla analyze`` and the
record's root comment show it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from gorilla.rules.board import BLACK, PASS, WHITE

THRESHOLDS: tuple[float, ...] = (0.5, 1.5, 3.0, 6.0, 12.0)  # points lost: the classes' lower bounds
CLASS_NAMES: tuple[str, ...] = ("good", "inaccuracy", "slack move", "mistake", "big mistake", "blunder")
CLASS_COLORS: tuple[tuple[int, int, int], ...] = (  # KaTrain's colours of the classes (its normal theme), RGB
    (30, 150, 0),
    (171, 230, 46),
    (242, 242, 0),
    (230, 102, 25),
    (204, 0, 0),
    (114, 33, 107),
)
OPENING_END, MIDDLE_END = 0.14, 0.4  # fractions of the board's points (KaTrain's phase filters)
ACCURACY_BASE = 0.75
TOP = 5  # the candidates a "top-5" move is among
GAME, OPENING, MIDDLE, ENDGAME = "game", "opening", "middle game", "endgame"
PHASE_NAMES = (GAME, OPENING, MIDDLE, ENDGAME)
REPORT_HEAD = "Gorilla game report"  # the first line of the report in a root comment


def move_class(points_lost: float, thresholds: Sequence[float] = THRESHOLDS) -> int:
    """The class of a move that lost points_lost: how many thresholds it reaches (0 .. len)."""
    return sum(1 for t in thresholds if points_lost >= t)


def class_labels(thresholds: Sequence[float] = THRESHOLDS) -> list[str]:
    """Each class's range as text: '< 0.5', '0.5-1.5', ..., '12+'."""
    t = list(thresholds)
    out = [f"< {t[0]:g}"] if t else ["all"]
    out += [f"{a:g}-{b:g}" for a, b in zip(t, t[1:], strict=False)]
    if t:
        out.append(f"{t[-1]:g}+")
    return out


def accuracy(mean_lost: float) -> float:
    """100 * 0.75 ** mean points lost (see the module docstring)."""
    return 100.0 * ACCURACY_BASE ** max(0.0, mean_lost)


def phases(size: int) -> list[tuple[str, int, int | None]]:
    """(phase, first move number, last move number or None) of the opening, middle game and
    endgame on a size x size board."""
    area = size * size
    a, b = math.ceil(OPENING_END * area), math.ceil(MIDDLE_END * area)
    return [(OPENING, 1, a - 1), (MIDDLE, a, b - 1), (ENDGAME, b, None)]


def phase_of(number: int, size: int) -> str:
    """The phase move ``number`` (1 = the first) belongs to."""
    for name, first, last in phases(size):
        if number >= first and (last is None or number <= last):
            return name
    return OPENING


@dataclass(frozen=True)
class MoveFacts:
    """One analysed move as the report counts it: its number, colour, points lost and its place
    among the search's candidates in the position before it (0: its first choice; None: not
    among the first TOP, or ``ranked`` False: the candidates are not known)."""

    number: int
    color: int
    lost: float
    rank: int | None
    ranked: bool = True


@dataclass(frozen=True)
class Stats:
    """One player's figures over one phase (None where no move counts)."""

    moves: int
    mean_lost: float | None
    accuracy: float | None
    top1: float | None
    top5: float | None
    classes: tuple[int, ...]  # moves in each class, class 0 first


def stats_of(facts: Sequence[MoveFacts], thresholds: Sequence[float] = THRESHOLDS) -> Stats:
    """The figures of some moves (see the module docstring)."""
    counts = [0] * (len(thresholds) + 1)
    for f in facts:
        counts[move_class(f.lost, thresholds)] += 1
    if not facts:
        return Stats(0, None, None, None, None, tuple(counts))
    mean = sum(f.lost for f in facts) / len(facts)
    ranked = [f for f in facts if f.ranked]
    top1 = sum(1 for f in ranked if f.rank == 0) / len(ranked) if ranked else None
    top5 = sum(1 for f in ranked if f.rank is not None and f.rank < TOP) / len(ranked) if ranked else None
    return Stats(len(facts), mean, accuracy(mean), top1, top5, tuple(counts))


@dataclass
class GameReport:
    """The report of one line's analysed moves on a board of ``size``."""

    size: int
    facts: list[MoveFacts]
    thresholds: tuple[float, ...] = THRESHOLDS

    def moves(self, color: int, phase: str = GAME) -> list[MoveFacts]:
        """The counted moves of one player in one phase (GAME: all)."""
        return [
            f
            for f in self.facts
            if f.color == color and (phase == GAME or phase_of(f.number, self.size) == phase)
        ]

    def stats(self, color: int, phase: str = GAME) -> Stats:
        """One player's figures in one phase."""
        return stats_of(self.moves(color, phase), self.thresholds)

    def phase_line(self) -> str:
        """The phases' move numbers on this board, as a line."""
        parts = [f"{name} {first}-{'' if last is None else last}" for name, first, last in phases(self.size)]
        return "Phases: " + ", ".join(parts)


def rank_of(point: int, before) -> tuple[int | None, bool]:
    """(place of point among the first candidates of the analysed position before it (a
    :class:`gorilla.app.go.review.PositionEval`), whether they are known): from its ``top`` (the
    search's first moves), else from its best move alone (a best move under PASS: unknown)."""
    if before is None:
        return None, False
    top = list(before.top) or ([before.best] if before.best >= PASS else [])
    if not top:
        return None, False
    return (top.index(point) if point in top[:TOP] else None), True


def game_report(
    revs: Sequence, positions: Sequence, size: int, thresholds: Sequence[float] = THRESHOLDS
) -> GameReport:
    """The report of a line's reviews (:class:`gorilla.app.go.review.MoveReview`) with the analysed
    positions of the line (``positions[k]``: the position before move k + 1, or None)."""
    facts = []
    for r in revs:
        if r.move == PASS:
            continue
        before = positions[r.number - 1] if r.number - 1 < len(positions) else None
        rank, ranked = rank_of(r.move, before)
        facts.append(MoveFacts(r.number, r.color, float(r.points_lost), rank, ranked))
    return GameReport(size, facts, tuple(thresholds))


def _cell(value: float | None, fmt: str) -> str:
    return "-" if value is None else fmt.format(value)


def player_rows(rep: GameReport, color: int) -> list[str]:
    """One player's table: a row per phase (the whole game first)."""
    labels = class_labels(rep.thresholds)
    head = f"  {'':<12}{'moves':>6}{'accuracy':>10}{'mean lost':>11}{'top-1':>7}{'top-5':>7}  "
    rows = [head + " ".join(f"{lab:>7}" for lab in labels)]
    for phase in PHASE_NAMES:
        s = rep.stats(color, phase)
        rows.append(
            f"  {phase:<12}{s.moves:>6}{_cell(s.accuracy, '{:.1f}'):>10}{_cell(s.mean_lost, '{:.2f}'):>11}"
            f"{_cell(None if s.top1 is None else 100 * s.top1, '{:.0f}%'):>7}"
            f"{_cell(None if s.top5 is None else 100 * s.top5, '{:.0f}%'):>7}  "
            + " ".join(f"{n:>7}" for n in s.classes)
        )
    return rows


def report_table(rep: GameReport, names: dict[int, str] | None = None) -> str:
    """The report as text (``gorilla analyze``, the root comment): the formula, the phases, then
    each player's table."""
    lines = [
        f"{REPORT_HEAD} (accuracy = 100 x 0.75^mean points lost; top-1 / top-5: the search's choices)",
        rep.phase_line(),
    ]
    for color in (BLACK, WHITE):
        who = "Black" if color == BLACK else "White"
        if names and names.get(color):
            who += f" ({names[color]})"
        lines.append(who)
        lines += player_rows(rep, color)
    return "\n".join(lines)


def with_report(comment: str, block: str) -> str:
    """A root comment with the report block in place of the one it holds (the block is always
    last: what follows a line starting with REPORT_HEAD is the old report)."""
    kept = comment
    if kept.startswith(REPORT_HEAD):
        kept = ""
    else:
        cut = kept.find("\n" + REPORT_HEAD)
        if cut >= 0:
            kept = kept[:cut]
    kept = kept.rstrip()
    if not block:
        return kept
    return f"{kept}\n\n{block}" if kept else block
