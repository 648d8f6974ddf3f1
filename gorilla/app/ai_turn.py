"""The AI's turn, as a part both games share: when an AI may move (continuous play, or one move
asked for in a game between two AIs), its search on a worker thread against a copy of the game
(the game's kind says how its agents search: :meth:`gorilla.app.kind.GameKind.search`), the
search's progress for the window, and its move played on the GUI thread only if it still belongs
to the game (same generation, same colour, same move number). While an opening protocol goes on
(Gomoku's Swap2) the AI answers it instead (:class:`gorilla.app.kind.Opening`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gorilla.ai.agent import Progress
from gorilla.app.clocks import Clocks
from gorilla.app.feed import Feed
from gorilla.app.files import reason
from gorilla.app.kind import Opening
from gorilla.app.players import Players
from gorilla.app.record import Record
from gorilla.app.referee import COLOR_NAME, Referee
from gorilla.app.tasks import Task, Workers
from gorilla.rules.coords import format_vertex


class AiTurn:
    """The AI's moves (see the module docstring): ``continuous``, ``steps`` (moves asked for),
    ``progress`` and ``ai_error`` (a failed search waits for a click). ``kind`` is the game's;
    ``ready(*groups)`` says whether kernels can run; ``changed()`` is the controller's, after the
    AI's move."""

    def __init__(
        self,
        kind: Any,
        parts: tuple[Record, Players, Workers, Clocks, Referee, Feed, Opening],
        ready: Callable[..., bool],
        changed: Callable[[], None],
        continuous: bool = False,
    ) -> None:
        self.kind = kind
        self.record, self.seats, self.workers, self.clocks, self.referee, self.feed, self.opening = parts
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

    def groups(self, seat: int) -> list[str]:
        """The kernel groups the player at seat needs before it moves."""
        return self.kind.groups(self.seats.specs[seat])

    def due(self) -> Any:
        """The agent to start now, if an AI acts and may search (its kernels loaded, its last
        cancelled search returned, a move asked for in step mode)."""
        if not self.wants_to_move():
            return None
        seat = self.opening.actor()
        agent = self.seats.agents[seat]
        if self.workers.winding_down(agent):
            return None  # the agent's cancelled search is still winding down
        if not self.ready(*self.groups(seat)):
            self.clocks.hold(seat)  # loading the engine costs the AI no time
            return None  # its first move (and its clock) wait until its kernels are ready
        if self.seats.ai_vs_ai and not self.continuous:
            self.steps -= 1
        return agent

    def wants_to_move(self) -> bool:
        """Whether an AI acts and would search now (no search running, no failure waiting for a
        click, not reviewing the record or setting up, a move asked for in step mode);
        :meth:`due` also waits for its kernels and its last cancelled search."""
        if self.workers.thinking or self.ai_error is not None or self.record.reviewing or self.record.editing:
            return False  # reviewing the record: the AI waits for a move or for space
        if self.referee.over or self.seats.agents[self.opening.actor()] is None:
            return False
        return not (self.seats.ai_vs_ai and not self.continuous and self.steps <= 0)

    def start(self, agent: Any) -> None:
        """agent searches the move of the seat that acts on a worker thread (or, while the
        opening goes on, its answer to the opening)."""
        game = self.record.game
        seat = self.opening.actor()
        data = {"agent": agent, "color": seat, "move_number": game.move_number}
        if self.opening.active():
            run = self.opening.job(agent, seat, self.clocks)
            data["opening"] = True
        else:

            def on_progress(p: Progress) -> None:
                if self.workers.current(task):
                    self.progress = p

            run = self.kind.search(agent, self.seats.specs[seat], game, seat, self.clocks, on_progress)
        task = self.workers.task("ai", run, **data)
        self.progress = None
        self.workers.launch(task)
        self.feed.touch()

    def finish(self, task: Task) -> None:
        """Play the move of a finished search if it still belongs to the game (never a late one)."""
        self.progress = None
        self.feed.touch()
        game = self.record.game
        color, agent = task.data["color"], task.data["agent"]
        if not self.workers.fresh(task) or game.move_number != task.data["move_number"]:
            return  # stale: never play a late answer
        if task.error is not None:
            self._failed(color, agent, task.error)
            return
        if task.data.get("opening"):
            self.opening.answer(task)
            return
        if game.to_move != color or self.referee.flag_fell(color):
            return
        move = int(task.result)
        try:
            game.play(move)
        except ValueError as e:  # IllegalMove is one
            where = format_vertex(move, game.size, self.kind.column_letters)
            if self.kind.is_engine(agent):
                name = f"{COLOR_NAME[color]} ({agent.label})"
                self.referee.forfeit(color, f"{name} played an illegal move {where} ({e}) and forfeits")
            else:
                self.ai_error = f"{COLOR_NAME[color]} AI chose an illegal move {where}: {e}"
                self.feed.say(self.ai_error)
            return
        self.feed.message = ""
        self.referee.moved(color, move)
        self.changed()

    def _failed(self, color: int, agent: Any, error: BaseException) -> None:
        """The search failed: a forfeit where the game's kind says so (a Gomocup engine's crash),
        else the failure waits for a click to try again."""
        name = COLOR_NAME[color]
        if self.kind.forfeits(error):
            self.referee.forfeit(color, f"{name} forfeits: {reason(error)}")
            return
        self.ai_error = (
            f"{name}: {reason(error)}" if self.kind.is_engine(agent) else f"{name} AI failed: {reason(error)}"
        )
        self.feed.say(self.ai_error)

    def advance(self) -> None:
        """Space, or a click between two AIs: reviewing an earlier move where the record drops the
        later ones, the game goes on from it; else the next AI move is asked for."""
        if self.record.play_on():
            return
        seat = self.opening.actor()
        if self.referee.over:
            self.feed.say("The game is over: r starts a new one")
            return
        if self.seats.is_human(seat):
            self.feed.say(f"{COLOR_NAME[seat]} is played by a human")
            return
        if self.workers.thinking:
            self.feed.say(f"{COLOR_NAME[seat]} is still thinking")
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
