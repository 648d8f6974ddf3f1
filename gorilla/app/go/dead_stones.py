"""Go's dead stones at the end, as Go's part: after two passes the estimate of the dead stones
(on a worker thread against a copy of the game, taken on the GUI thread only while it still
belongs to the game), and the user's marking of a group dead or alive, which wins over it."""

from __future__ import annotations

import threading
from collections.abc import Callable

from gorilla.app.feed import Feed
from gorilla.app.files import reason
from gorilla.app.tasks import Task, Workers
from gorilla.rules.board import BLACK, WHITE
from gorilla.rules.coords import format_vertex
from gorilla.rules.game import Game

DEAD_STONE_PLAYOUTS = 200
COLOR_NAME = {BLACK: "Black", WHITE: "White"}


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


__all__ = ["DEAD_STONE_PLAYOUTS", "DeadStones"]
