"""The value of every move of the position on the board (``e``), as a part both games share: it
runs on a worker thread (:class:`gorilla.app.tasks.Workers`) against a copy of the game, and its
result is taken on the GUI thread only while it still belongs to the game. How a move is valued
is the game's (its kind's :class:`gorilla.app.kind.Valuer`: Go's evaluator, Gomoku's search)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gorilla.app.feed import Feed
from gorilla.app.files import reason
from gorilla.app.kind import PlayedGame, Valuer
from gorilla.app.tasks import Task, Workers


@dataclass
class EvaluationView:
    """What the HUD shows after ``e``: the evaluation and the points the last move lost."""

    evaluation: Any  # gorilla.ai.evaluator.Evaluation
    points_lost: float | None
    move_number: int
    unit: str = "points"  # the labels' scale: the moves' scores (points)
    games: int = 0  # the flat evaluator's random games a move (G) ...
    turns: int = 0  # ... and their moves (T; 0: to the end)

    def figure(self, move: int | None = None) -> str:
        """What the evaluator's figures for move (default the best) mean, in words: the flat
        evaluator's share of its short random games ('ahead in 100% of 10 random games of 3
        moves, mean margin +2.8'), a search's win rate and score lead ('win 55%, lead +2.8')."""
        ev = self.evaluation
        v = ev.values.get(ev.best if move is None else move)
        if v is None:
            return ""
        share = f"{100 * v.winrate:.0f}%"
        if self.unit != "points" or v.score is None:
            return f"win {share}"
        if getattr(ev, "engine", "") != "flat":
            return f"win {share}, lead {v.score:+.1f}"
        games = f"{self.games} random game{'' if self.games == 1 else 's'}"
        if self.turns <= 0:
            return f"won {share} of {games} played to the end, mean margin {v.score:+.1f}"
        return f"ahead in {share} of {games} of {self.turns} moves, mean margin {v.score:+.1f}"

    def numbers(self) -> str:
        """What the numbers on the labelled moves are, in words, for the legend: a search's score
        lead, the flat evaluator's mean margin of its random games, or a win rate ('' where the
        legend's own words for the unit fit: a search's)."""
        if self.unit != "points":
            return ""
        if getattr(self.evaluation, "engine", "") != "flat":
            return ""
        return "the mean margin of its random games in points for the side to move (+2.8: ahead by 2.8)"


class MoveValues:
    """``e``: the value of every move of the position on the board (its progress, its last
    answer and whether the board shows it), by the game's ``valuer``."""

    def __init__(self, workers: Workers, feed: Feed, valuer: Valuer) -> None:
        self.workers = workers
        self.feed = feed
        self.valuer = valuer
        self.evaluation: EvaluationView | None = None
        self.eval_progress: Any = None
        self.show_eval = False

    def groups(self, game: PlayedGame) -> tuple[str, ...]:
        """The kernel groups the valuation of game runs on."""
        return self.valuer.groups(game)

    def forget(self) -> None:
        """The game changed: the last answer is gone."""
        self.evaluation = None
        self.eval_progress = None
        self.show_eval = False

    def toggle_eval(self) -> None:
        """Show or hide the move values on the board."""
        self.show_eval = not self.show_eval and self.evaluation is not None
        self.feed.touch()

    def start(self, game: PlayedGame) -> None:
        """Value every move of game (a copy) on a worker thread."""

        def on_progress(p: Any) -> None:
            if self.workers.current(task):
                self.eval_progress = p

        run, words = self.valuer.job(game, on_progress)
        task = self.workers.task("eval", run)
        self.workers.launch(task)
        self.feed.say(words)

    def finish(self, task: Task, game: PlayedGame) -> None:
        """Take the answer of a finished valuation (of the position on the board, game)."""
        self.eval_progress = None
        if not self.workers.fresh(task):
            return
        if task.error is not None:
            self.feed.say(f"Evaluation failed: {reason(task.error)}")
            return
        self.evaluation = task.result
        self.show_eval = True
        self.feed.say(self.valuer.done(task.result, game))
