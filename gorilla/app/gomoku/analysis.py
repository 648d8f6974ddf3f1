"""Whole-game analysis of a Gomoku record: ``gorilla analyze five.sgf`` (or a Piskvork ``.psq``).

Every position of the record is searched by the AI's search (``pvs+vct``: the PVS with the
threat solvers, :func:`gorilla.gomoku.search.search`) for a fixed time, one transposition
table kept through the game. A move's value is the mover's win rate before it (the best the
search finds) against after it (the opponent's search of the next position, turned round),
on the scale the window's values use (:func:`win_rate`: a proven win 100%). The win rate a
move loses (none for the search's own choice) grades it: an inaccuracy, a mistake or a
blunder. A Swap2 game's opening stones are valued but not graded: the opener puts them
to balance the game, not to win it. :func:`comments` gives each move's comment and
:func:`report_text` the summary that ``gorilla analyze`` writes into the record; the
window's ``g`` runs the same analysis (:mod:`gorilla.app.gomoku.reviewer`).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from gorilla.app.status_text import counted
from gorilla.gomoku import rules as R
from gorilla.gomoku import search as S
from gorilla.gomoku.game import SWAP2_DONE, GomokuGame
from gorilla.rules.coords import GOMOKU_LETTERS

SECONDS = 1.0  # the search's time a position, by default
# search score -> win rate: 1 / (1 + exp(-score / SCORE_SCALE)); 1/K of the logistic fit of game
# results on the evaluation (K 0.00165: 7,308 quiet positions of 600 games against AIWine,
# ``benchmarks/gomoku_texel.py RUNS --free w_one``; 400 before). The window's values (e, the
# live view) use it too.
SCORE_SCALE = 600.0
INACCURACY = 0.05  # win rate lost (the mover's) from which a move is an inaccuracy
MISTAKE = 0.10  # ... a mistake
BLUNDER = 0.20  # ... a blunder
COLOR_NAME = {R.BLACK: "Black", R.WHITE: "White"}
GRADE_MARKS = {"blunder": ("BM", "2"), "mistake": ("BM", "1"), "inaccuracy": ("DO", "")}  # as SGF
MOVE_GRADES = ("BM", "DO", "IT", "TE")  # SGF's move annotations: an earlier analysis's are replaced


def win_rate(score: int) -> float:
    """A search score for the side to move as a win rate (a proven win 1, a proven loss 0)."""
    if score >= S.MATE:
        return 1.0
    if score <= -S.MATE:
        return 0.0
    return 1.0 / (1.0 + math.exp(-score / SCORE_SCALE))


def point_name(game: GomokuGame, p: int) -> str:
    """A board point as the window names it: column letter (with I) and row from the bottom."""
    x, y = game.xy(p)
    return f"{GOMOKU_LETTERS[x]}{game.size - y}"


@dataclass
class MoveReview:
    """One analysed move: Black's win rate before and after it, the search's best move and
    line in the position before it (board points), and the win rate the mover lost (>= 0)."""

    number: int  # 1 = the first move
    color: int
    move: int
    winrate_before: float  # Black's
    winrate_after: float  # Black's
    best: int
    pv: list[int] = field(default_factory=list)
    lost: float = 0.0
    opening: bool = False  # a stone of a Swap2 or given opening: valued, not graded (lost 0)

    @property
    def grade(self) -> str:
        """'blunder', 'mistake', 'inaccuracy' or '' (an opening stone: '')."""
        if self.opening:
            return ""
        if self.lost >= BLUNDER:
            return "blunder"
        if self.lost >= MISTAKE:
            return "mistake"
        if self.lost >= INACCURACY:
            return "inaccuracy"
        return ""

    def comment(self, game: GomokuGame) -> str:
        """The lines ``gorilla analyze`` writes into the move's comment."""
        line = " ".join(point_name(game, p) for p in self.pv[:8])
        grade = f" ({self.grade})" if self.grade else ""
        last = (
            "An opening stone (not graded)"
            if self.opening
            else f"Win rate lost {100 * self.lost:.1f}%{grade}"
        )
        return (
            f"Gorilla: {COLOR_NAME[self.color]} {point_name(game, self.move)}, win rate (Black) "
            f"{100 * self.winrate_before:.1f}% -> {100 * self.winrate_after:.1f}%\n"
            f"Best move {point_name(game, self.best)} (line {line})\n{last}"
        )


def _value(game: GomokuGame, state: tuple, seconds: float) -> tuple[float, int, list[int]]:
    """Black's win rate in game's position, the side to move's best move and line (from the
    search; a finished game: its result, no move)."""
    if game.over:
        winner = game.result.winner if game.result is not None else 0
        return {R.BLACK: 1.0, R.WHITE: 0.0}.get(winner, 0.5), -1, []
    c = game.to_move
    r = S.search(R.copy_board(game.bd), state, c, seconds, threats=True)
    mover = win_rate(int(r.score))
    pv = [int(m) for m in r.pv if m >= 0] or ([int(r.move)] if r.move >= 0 else [])
    return (mover if c == R.BLACK else 1.0 - mover), int(r.move), pv


def opening_stones(game: GomokuGame) -> int:
    """How many of game's first stones are its opening's, which the players did not choose to
    win: a Swap2 opening's (all of them while it goes on), else the stones a match gave them
    (``GomokuGame.given``)."""
    if game.opening != "swap2":
        return min(game.given, len(game.moves))
    return game.swap2_end if game.swap2_phase == SWAP2_DONE else len(game.moves)


def analyse(
    game: GomokuGame,
    seconds: float = SECONDS,
    progress: Callable[[int, int], None] | None = None,
    cancel: threading.Event | None = None,
) -> list[MoveReview]:
    """Every move of game's record analysed (see the module docstring); progress(done, total)
    after each position; cancel stops between positions (the moves analysed so far)."""
    moves = list(game.moves)
    opening = opening_stones(game)
    state = S.new_state()
    line = GomokuGame(game.size, game.rule)
    total = len(moves) + 1
    values = [_value(line, state, seconds)]
    if progress is not None:
        progress(1, total)
    reviews: list[MoveReview] = []
    for k, (p, c) in enumerate(moves):
        if cancel is not None and cancel.is_set():
            break
        line.play(p, c)
        values.append(_value(line, state, seconds))
        if progress is not None:
            progress(k + 2, total)
        (before, best, pv), (after, _, _) = values[k], values[k + 1]
        # the search's own best move loses nothing (the two searches' values may differ a little)
        lost = 0.0 if p == best or k < opening else (before - after if c == R.BLACK else after - before)
        best = best if best >= 0 else p
        reviews.append(MoveReview(k + 1, c, p, before, after, best, pv, max(0.0, lost), k < opening))
    return reviews


def comments(reviews: list[MoveReview], game: GomokuGame) -> dict[int, str]:
    """Each analysed move's comment by its number."""
    return {r.number: r.comment(game) for r in reviews}


def grades(reviews: list[MoveReview]) -> dict[int, dict[str, list[str]]]:
    """The graded moves' SGF annotations (BM, DO) by number."""
    out: dict[int, dict[str, list[str]]] = {}
    for r in reviews:
        if r.grade:
            prop, value = GRADE_MARKS[r.grade]
            out[r.number] = {prop: [value]}
    return out


def annotate(
    comments: dict[int, str],
    marks: dict[int, dict[str, list[str]]],
    notes: dict[int, str],
    graded: dict[int, dict[str, list[str]]],
) -> tuple[dict[int, str], dict[int, dict[str, list[str]]]]:
    """A record's comments and marks with an analysis in: its notes after the record's own
    comments, its grades in place of any earlier move annotations (new dicts)."""
    out_c = dict(comments)
    for n, note in notes.items():
        out_c[n] = f"{out_c[n]}\n\n{note}" if out_c.get(n) else note
    out_m = {n: {k: v for k, v in m.items() if k not in MOVE_GRADES} for n, m in marks.items()}
    for n, grade in graded.items():
        out_m[n] = {**out_m.get(n, {}), **grade}
    return out_c, out_m


def report_text(reviews: list[MoveReview], game: GomokuGame, names: dict[int, str], seconds: float) -> str:
    """The summary: per side, its moves, the win rate it lost on average, its mistakes and
    blunders, and its worst moves."""
    lines = [
        f"Analysis by Gorilla (pvs+vct, {seconds:g} s a position): inaccuracy ="
        f" {100 * INACCURACY:g}+% win rate lost, mistake = {100 * MISTAKE:g}+%, blunder = {100 * BLUNDER:g}+%"
    ]
    stones = sum(1 for r in reviews if r.opening)
    if stones:
        what = "Swap2 opening" if game.opening == "swap2" else "given opening"
        lines.append(f"The {what}'s {stones} stones are valued, not graded")
    for color in (R.BLACK, R.WHITE):
        own = [r for r in reviews if r.color == color and not r.opening]
        if not own:
            continue
        name = names.get(color)
        who = f"{COLOR_NAME[color]} ({name})" if name else COLOR_NAME[color]
        mean = 100 * sum(r.lost for r in own) / len(own)
        count = {g: sum(1 for r in own if r.grade == g) for g in ("mistake", "blunder")}
        worst = sorted((r for r in own if r.lost >= INACCURACY), key=lambda r: -r.lost)[:5]
        shown = ", ".join(f"{r.number}. {point_name(game, r.move)} -{100 * r.lost:.0f}%" for r in worst)
        worst_text = f"; worst: {shown}" if shown else ""
        lines.append(
            f"{who}: {counted(len(own), 'move')}, {mean:.1f}% lost a move on average,"
            f" {counted(count['mistake'], 'mistake')}, {counted(count['blunder'], 'blunder')}{worst_text}"
        )
    return "\n".join(lines)
