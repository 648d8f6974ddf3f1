"""The evaluation of every move (``e``) and the dead stones at the end, as the Go controller's
parts: each runs on a worker thread (:class:`gorilla.app.tasks.Workers`) against a copy of the
game, and its result is taken on the GUI thread only while it still belongs to the game."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gorilla.app.feed import Feed
from gorilla.app.files import reason
from gorilla.app.tasks import Task, Workers
from gorilla.rules.board import BLACK, PASS, WHITE
from gorilla.rules.coords import format_vertex
from gorilla.rules.game import Game

DEFAULT_EVAL_GAMES = 10
DEFAULT_EVAL_TURNS = 3
DEAD_STONE_PLAYOUTS = 200
COLOR_NAME = {BLACK: "Black", WHITE: "White"}


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
    """``e``: the evaluator's value of every move of the position on the board (its settings,
    its progress, its last answer and whether the board shows it)."""

    def __init__(
        self, workers: Workers, feed: Feed, engine: str | None, games: int | None, turns: int | None
    ) -> None:
        self.workers = workers
        self.feed = feed
        self.eval_games = DEFAULT_EVAL_GAMES if games is None else int(games)
        self.eval_turns = DEFAULT_EVAL_TURNS if turns is None else int(turns)
        self.eval_enabled = games is not None or turns is not None
        # the net evaluates unless named otherwise; the flat evaluator's numbers (G, T) pick it
        self.eval_engine = engine or ("flat" if self.eval_enabled else "net")
        self.evaluation: EvaluationView | None = None
        self.eval_progress: Any = None
        self.show_eval = False

    def groups(self, game: Game) -> tuple[str, ...]:
        """The kernel groups the evaluator runs on for game (the MCTS's where the net does not play)."""
        from gorilla.ai.evaluator import ENGINE_GROUPS, engine_for

        return ENGINE_GROUPS[engine_for(game, self.eval_engine)[0]]

    def forget(self) -> None:
        """The game changed: the last answer is gone."""
        self.evaluation = None
        self.eval_progress = None
        self.show_eval = False

    def toggle_eval(self) -> None:
        """Show or hide the evaluator's move values on the board."""
        self.show_eval = not self.show_eval and self.evaluation is not None
        self.feed.touch()

    def start(self, game: Game) -> None:
        """Evaluate every move of game (a copy) on a worker thread."""
        from gorilla.ai import evaluator

        snap = game.copy()
        engine, why = evaluator.engine_for(game, self.eval_engine)  # the MCTS where the net does not play
        games, turns = self.eval_games, self.eval_turns

        def on_progress(p: Any) -> None:
            if self.workers.current(task):
                self.eval_progress = p

        def run(cancel: threading.Event) -> EvaluationView:
            ev = evaluator.evaluate(
                snap, engine=engine, games=games, turns=turns, cancel=cancel, progress=on_progress
            )
            lost = None
            n = snap.move_number
            if n and snap.moves[-1].point >= 0 and not cancel.is_set():
                try:
                    lost = float(
                        evaluator.points_lost(snap, n, engine=engine, games=games, turns=turns, cancel=cancel)
                    )
                except Exception:
                    lost = None
            return EvaluationView(ev, lost, n, games=games, turns=turns)

        task = self.workers.task("eval", run)
        self.workers.launch(task)
        label = f"{engine}, G={games}, T={turns}" if engine == "flat" else engine
        self.feed.say(why or f"Evaluating ({label})")

    def finish(self, task: Task, size: int) -> None:
        """Take the answer of a finished evaluation (on a board of size)."""
        self.eval_progress = None
        if not self.workers.fresh(task):
            return
        if task.error is not None:
            self.feed.say(f"Evaluation failed: {reason(task.error)}")
            return
        self.evaluation = task.result
        self.show_eval = True
        best = getattr(task.result.evaluation, "best", PASS)
        self.feed.say(f"Best move: {format_vertex(best, size)}")


class DeadStones:
    """After two passes: the estimate of the dead stones (on a worker thread), and the user's
    marking of a group dead or alive, which wins over the estimate."""

    def __init__(self, workers: Workers, feed: Feed, autosave: Callable[[], None]) -> None:
        self.workers = workers
        self.feed = feed
        self.autosave = autosave
        self.dead_estimated = False

    @property
    def estimating(self) -> bool:
        """Whether the dead stones at the end are being estimated."""
        return self.workers.get("dead") is not None

    def due(self, game: Game) -> bool:
        """Whether game ended by passes wants an estimate it has not had."""
        return (
            game.end_reason == "passes"
            and not self.dead_estimated
            and not self.estimating
            and game.ruleset.scoring != "stones"
        )

    @staticmethod
    def group(game: Game) -> str:
        """The kernel group the estimate runs on: the net's where it plays the board, else the playouts'."""
        from gorilla.ai.puct.evaluator import supports

        return "net" if supports(game) else "ownership"

    def start(self, game: Game) -> None:
        """Estimate the dead stones of game (a copy) on a worker thread: by the net's ownership
        where it plays the board, else by playouts."""
        from gorilla.ai import ownership

        snap = game.copy()

        def run(cancel: threading.Event) -> list[int]:
            return ownership.estimated_dead_stones(snap, playouts=DEAD_STONE_PLAYOUTS, cancel=cancel)

        self.workers.launch(self.workers.task("dead", run))
        self.feed.touch()

    def finish(self, task: Task, game: Game) -> None:
        """Mark the estimated dead stones of game (if the estimate still belongs to it)."""
        self.dead_estimated = True
        self.feed.touch()
        if not self.workers.fresh(task):
            return
        if task.error is not None:
            self.feed.say(f"Dead-stone estimate failed: {reason(task.error)}")
            return
        game.dead = {int(p) for p in task.result}
        self.autosave()

    def toggle(self, game: Game, point: int) -> bool:
        """Mark the group at point dead, or alive again if it was dead (after two passes)."""
        if game.end_reason != "passes":
            self.feed.say("Dead stones are marked after two passes")
            return False
        if game.position.color_at(point) not in (BLACK, WHITE):
            self.feed.say("Click a group to mark it dead or alive")
            return False
        self.workers.cancel("dead")
        self.dead_estimated = True  # the user's marking wins over the estimate
        game.info.extra_result = ""  # ... and over a recorded result: the count is the result now
        group = game.position.group(point)
        if all(p in game.dead for p in group):
            game.dead.difference_update(group)
            state = "alive"
        else:
            game.dead.update(group)
            state = "dead"
        name = COLOR_NAME[game.position.color_at(point)]
        self.feed.say(f"{name} group at {format_vertex(point, game.size)} {state}")
        self.autosave()  # RE follows the marking
        return True
