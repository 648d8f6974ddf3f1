"""The AI's turn in the Go controller, as a part: when an AI may move (continuous play, or one
move asked for in a game between two AIs), its search on a worker thread against a copy of the
game, the search's progress for the window, and its move played on the GUI thread only if it
still belongs to the game (same generation, same colour, same move number)."""

from __future__ import annotations

import threading
from collections.abc import Callable

from gorilla.ai.agent import Agent, Progress
from gorilla.ai.warmup import groups_for
from gorilla.app.clocks import Clocks
from gorilla.app.feed import Feed
from gorilla.app.files import reason
from gorilla.app.gtp_player import GtpEngineAgent
from gorilla.app.players import Players
from gorilla.app.record import Record
from gorilla.app.referee import COLOR_NAME, Referee
from gorilla.app.tasks import Task, Workers
from gorilla.rules.coords import format_vertex
from gorilla.rules.position import IllegalMove


class AiTurn:
    """The AI's moves (see the module docstring): ``continuous``, ``steps`` (moves asked for),
    ``progress`` and ``ai_error`` (a failed search waits for a click). ``ready(*groups)`` says
    whether kernels can run; ``changed()`` is the controller's, after the AI's move."""

    def __init__(
        self,
        parts: tuple[Record, Players, Workers, Clocks, Referee, Feed],
        ready: Callable[..., bool],
        changed: Callable[[], None],
        continuous: bool = False,
    ) -> None:
        self.record, self.seats, self.workers, self.clocks, self.referee, self.feed = parts
        self.ready = ready
        self.changed = changed
        self.continuous = continuous
        self.steps = 0  # AI-vs-AI moves requested by advance()
        self.progress: Progress | None = None
        self.ai_error: str | None = None
        self._seen: object = None  # the progress last drawn

    def saw(self, progress: object) -> None:
        """A search's progress changed since the last frame: redraw."""
        if progress is not self._seen:
            self._seen = progress
            self.feed.touch()

    def due(self) -> Agent | None:
        """The agent to start now, if an AI has the move and may search (its kernels loaded,
        its last cancelled search returned, a move asked for in step mode)."""
        game = self.record.game
        if not self.wants_to_move():
            return None
        agent = self.seats.agents[game.to_move]
        if self.workers.winding_down(agent):
            return None  # the agent's cancelled search is still winding down (≤ 50 ms)
        if not self.ready(*groups_for([self.seats.specs[game.to_move]])):
            self.clocks.hold(game.to_move)  # loading the engine costs the AI no time
            return None  # its first move (and its clock) wait until its kernels are ready
        if self.seats.ai_vs_ai and not self.continuous:
            self.steps -= 1
        return agent

    def wants_to_move(self) -> bool:
        """Whether an AI has the move and would search it now (no search running, no failure
        waiting for a click, not reviewing the record or setting up, a move asked for in step
        mode); :meth:`due` also waits for its kernels and its last cancelled search."""
        if self.workers.thinking or self.ai_error is not None or self.record.reviewing or self.record.editing:
            return False  # reviewing the record: the AI waits for a move or for space
        if self.seats.agents[self.record.game.to_move] is None:
            return False
        return not (self.seats.ai_vs_ai and not self.continuous and self.steps <= 0)

    def start(self, agent: Agent) -> None:
        """agent searches the move of the side to move on a worker thread."""
        game = self.record.game
        snap = game.copy()
        color = game.to_move
        self.clocks.feed(agent, color)

        def on_progress(p: Progress) -> None:
            if self.workers.current(task):
                self.progress = p

        budget = self.clocks.budget(self.seats.specs[color], color)

        def run(cancel: threading.Event) -> int:
            return agent.select_move(snap, budget, cancel, on_progress)

        task = self.workers.task("ai", run, agent=agent, color=color, move_number=game.move_number)
        self.progress = None
        self.workers.launch(task)
        self.feed.touch()

    def finish(self, task: Task) -> None:
        """Play the move of a finished search if it still belongs to the game (never a late one)."""
        self.progress = None
        self.feed.touch()
        game = self.record.game
        color, agent = task.data["color"], task.data["agent"]
        if (
            not self.workers.fresh(task)
            or game.to_move != color
            or game.move_number != task.data["move_number"]
        ):
            return  # stale: never play a late answer
        name = COLOR_NAME[color]
        engine = isinstance(agent, GtpEngineAgent)  # its messages name the engine
        if task.error is not None:
            self._failed(
                f"{name}: {reason(task.error)}" if engine else f"{name} AI failed: {reason(task.error)}"
            )
            return
        move = int(task.result)
        if self.referee.flag_fell(color):
            return
        try:
            game.play(move)
        except (IllegalMove, ValueError) as e:
            where = format_vertex(move, game.size)
            if engine:
                self.referee.forfeit(
                    color, f"{name} ({agent.label}) played an illegal move {where} ({e}) and forfeits"
                )
            else:
                self._failed(f"{name} AI chose an illegal move {where}: {e}")
            return
        self.feed.message = ""
        self.referee.moved(color)
        self.changed()

    def _failed(self, why: str) -> None:
        self.ai_error = why
        self.feed.say(why)

    def advance(self) -> None:
        """AI vs AI: ask for the next AI move (a left click in Gorilla)."""
        game = self.record.game
        if self.referee.over:
            self.feed.say("The game is over: r starts a new one")
            return
        if self.seats.is_human(game.to_move):
            self.feed.say(f"{COLOR_NAME[game.to_move]} is played by a human")
            return
        if self.workers.thinking:
            self.feed.say(f"{COLOR_NAME[game.to_move]} is still thinking")
            return
        self.ai_error = None  # after a failure, a click tries again
        self.record.reviewing = False
        self.steps = 1
        self.feed.touch()

    def set_continuous(self, on: bool) -> None:
        """AI vs AI: play move after move without clicks (True) or one move per advance()."""
        self.continuous = bool(on)
        self.steps = 0
        self.feed.say("Continuous play" if on else "Step mode: click for the next move")
