"""What both games' controllers are: a facade over one set of parts, made for the game's kind.

:class:`Facade` makes the parts every game has from its kind (:class:`gorilla.app.kind.GameKind`)
and lists, one :class:`gorilla.app.parts.Part` name at a time, which part answers what the window
reads or asks (:class:`gorilla.app.table.Table`):

- ``record`` (:mod:`gorilla.app.record`): the game on the board and the line it follows;
- ``moves`` (:mod:`gorilla.app.moves`): a human's clicks, moves, resignation, undo and redo;
- ``turn`` (:mod:`gorilla.app.ai_turn`): the AI's turn, its search and its progress;
- ``referee`` (:mod:`gorilla.app.referee`) over ``clocks`` (:mod:`gorilla.app.clocks`): the
  clocks in the game and the ends the rules do not see;
- ``values`` (:mod:`gorilla.app.move_values`: ``e``), ``analysis`` (:mod:`gorilla.app.analysis`:
  ``g``, ``n``, ``d``), ``files`` (:mod:`gorilla.app.record_files`: save and autosave);
- ``opening`` (the kind's opening protocol: none in Go, Swap2 in Gomoku);
- ``seats``, ``feed``, ``workers`` (:class:`gorilla.app.parts.Shared`).

It ties them together after every change (:meth:`Facade.changed`), runs the frame tick
(:meth:`Facade.poll`), reads and closes games. Go's controller
(:class:`gorilla.app.go.controller.Controller`) and Gomoku's
(:class:`gorilla.app.gomoku.controller.GomokuController`) derive from it and add their own
parts (Go's tree, set-up mode, dead stones, overlays, teacher; Gomoku's Swap2 and threat map).

Threading: every long computation runs on a daemon worker thread against a copy of the game,
with a ``threading.Event`` to cancel it; results are applied only on the GUI thread, in
:meth:`Facade.poll`, and only while their generation is the game's: a late answer from a search
cancelled by reset, undo, load or close is never played. No pyglet here.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from gorilla.app.ai_turn import AiTurn
from gorilla.app.analysis import Analysis
from gorilla.app.clock import NO_CLOCK, TimeControl
from gorilla.app.clocks import Clocks
from gorilla.app.feed import Feed
from gorilla.app.files import reason
from gorilla.app.kind import Book, GameKind, Loaded, PlayedGame
from gorilla.app.move_values import MoveValues
from gorilla.app.moves import Moves
from gorilla.app.parts import Shared, hands
from gorilla.app.record import Record
from gorilla.app.record_files import RecordFiles
from gorilla.app.referee import Referee
from gorilla.app.tasks import Workers
from gorilla.rules.board import BLACK, WHITE


@hands(
    record="game editing reviewing comment go_back go_forward go_start go_end goto_move set_comment names"
    " set_game_info",
    moves="click play pass_turn resign undo redo pending_move",
    turn="advance set_continuous continuous steps progress ai_error",
    referee="over ended toggle_pause set_time_control sgf_timing",
    clocks="clock time_control clock_started=started clock_views=views",
    values="evaluation eval_progress show_eval toggle_eval",
    analysis="toggle_analysis next_mistake cycle_mistake_threshold toggle_mistake_dots",
    files="save autosave autosave_now flush_autosave",
)
class Facade(Shared):
    """The parts every game has, made for ``kind`` (see the module docstring); ``now`` is the
    monotonic time the clocks read (tests inject their own), ``compiler`` the kernels compiling
    in a child process (None: all usable at once)."""

    def __init__(
        self,
        kind: GameKind,
        game: PlayedGame,
        black: Any,
        white: Any,
        *,
        book: Book | None = None,
        autosave: str | None = None,
        continuous: bool = False,
        compiler: Any = None,
        clock: TimeControl | None = None,
        now: Callable[[], float] | None = None,
        show_thinking: bool = False,
    ) -> None:
        self.kind = kind
        self.column_letters = kind.column_letters  # the board's (Go's skip I)
        self.feed = Feed(show_thinking=show_thinking)
        self.workers = Workers()
        self.seats = kind.players(black, white)
        self.record = Record(book or kind.book(game), game, self)
        self.clocks = Clocks(clock or NO_CLOCK, now)
        self.now = self.clocks.now
        self.opening = kind.opening(self)
        self.referee = Referee(
            kind, self.clocks, self.record, self.seats, self.feed, self.opening.actor, self._ended
        )
        parts = (self.record, self.seats, self.workers, self.clocks, self.referee, self.feed, self.opening)
        self.turn = AiTurn(kind, parts, self.kernels_ready, self.changed, continuous)
        parts = (self.record, self.seats, self.clocks, self.referee, self.turn, self.feed, self.opening)
        self.moves = Moves(parts, self.kernels_ready, self, kind.column_letters)
        self.values = MoveValues(self.workers, self.feed, kind.valuer())
        self.files = RecordFiles(kind, self.record, self.feed, self.clocks.sgf_timing, autosave)
        self.analysis = Analysis(
            kind.reviewer(), self.record, self.feed, self._waiting_for, self.autosave_now
        )
        self.compiler = compiler
        self.closed = False

    @property
    def acting(self) -> int:
        """The seat whose player acts now: the side to move, or the one the opening names."""
        return self.opening.actor()

    def new_game_choices(self) -> dict[str, Any]:
        """The new-game form's rows for the game on the board (and the game's own: ``_choices``)."""
        game = self.game
        specs = self.seats.specs
        rows = {"size": game.size, "rules": game.ruleset.name, "black": specs[BLACK], "white": specs[WHITE]}
        return rows | {"clock": self.time_control.spec()} | self._choices()

    def _choices(self) -> dict[str, Any]:
        """The form's rows only the game has (Go's komi and handicap, Gomoku's opening)."""
        return {}

    def kernels_ready(self, *groups: str) -> bool:
        """Whether the kernel groups (see :mod:`gorilla.ai.warmup`) can be used now."""
        return self.compiler is None or self.compiler.ready(*groups)

    def _waiting_for(self, *groups: str) -> bool:
        """True (and a word in the panel) when the groups are still compiling."""
        if self.kernels_ready(*groups):
            return False
        c = self.compiler
        self.say(c.status() if c is not None and c.status() else "Loading the engine...")
        return True

    # --- what the parts ask (gorilla.app.record.RecordHost, gorilla.app.moves.MovesHost) ------------
    def stop_work(self) -> None:
        """Cancel the AI's search and the evaluation (and every other task); the agents stop."""
        self.workers.cancel_all()
        self.kind.stop(self.agents)
        self.progress = None
        self.values.eval_progress = None

    def touch(self) -> None:
        """Something visible changed (redraw)."""
        self.feed.touch()

    def changed(self, autosave: bool = True) -> None:
        """After any change of the game: the record follows, stale work and results go, autosave."""
        self.record.sync()
        self.workers.changed()
        self.progress = None
        self.values.forget()
        self.ai_error = None
        self._forget()
        self.version += 1
        if autosave:
            self.autosave_now()

    def _forget(self) -> None:
        """What the game's own parts drop after any change (Go's dead-stone estimate)."""

    def human_played(self, color: int) -> None:
        """A human's move is on the board (Go's teacher judges it)."""

    def put_back(self) -> bool:
        """What the game's own parts put back before undo takes a move (Go's); none here."""
        return False

    def arrived(self) -> None:
        """The board shows another position: the AI waits (one move at a time), the clock follows."""
        self.referee.reopen(self.game)
        self.continuous = False
        self.steps = 0
        self.message = ""
        self.referee.follow_turn()
        self.changed()

    def _ended(self) -> None:
        """The referee ended the game (on time, by forfeit): play stops, the agents stop."""
        self.kind.stop(self.agents)
        self.continuous = False
        self.changed()

    # --- the frame tick -----------------------------------------------------------------------
    def poll(self) -> None:
        """Called every frame on the GUI thread: apply finished work, start the next AI turn."""
        if self.closed:
            return
        self.workers.prune()
        self.files.check()
        self._compiler_tick()
        if self.workers.thinking:
            self.turn.saw(self.progress)
        task = self.workers.finished("ai")
        if task is not None:
            self.turn.finish(task)
        if self.workers.evaluating:
            self.turn.saw(self.eval_progress)
        task = self.workers.finished("eval")
        if task is not None:
            self.values.finish(task, self.game)
        self.analysis.poll()
        self._tick()
        self.referee.watch()
        self._start_work()

    def _compiler_tick(self) -> None:
        """The compile's error in the panel; a move clicked while the rules loaded is played."""
        c = self.compiler
        if c is None:
            return
        if c.error and self.message != c.error:
            self.say(c.error)
        self.moves.tick()

    def _tick(self) -> None:
        """Every frame, what the game's own parts take (Go's dead stones, teacher, analysis)."""

    def _start_work(self) -> None:
        """The AI starts when it acts (its kernels loaded)."""
        if not self.referee.over and self.turn.wants_to_move():
            agent = self.turn.due()
            if agent is not None:
                self.turn.start(agent)

    # --- requests that tie parts together ----------------------------------------------------------
    def evaluate(self) -> None:
        """Value every move of the current position in the background (the ``e`` key)."""
        if self.workers.evaluating:
            self.say("Already evaluating")
            return
        if self.over:
            self.say("The game is over")
            return
        if self._waiting_for(*self.values.groups(self.game)):
            return
        self.values.start(self.game)

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the work running now (or started by a poll() now) finishes, then poll();
        against a human, until an AI that acts has moved (its start may wait for a cancelled
        search to wind down). For the terminal front end and tests; False on timeout. Between
        two AIs, the poll() at the end may start the next move, which a later wait() waits for."""
        end = None if timeout is None else time.monotonic() + timeout
        while True:
            left = None if end is None else max(0.0, end - time.monotonic())
            if not self.workers.wait(self.poll, left):
                return False
            if self.seats.ai_vs_ai or self.workers.slots or not self.turn.wants_to_move():
                return True
            if end is not None and time.monotonic() > end:
                return False
            time.sleep(0.01)

    def _begin(self, game: PlayedGame, book: Book | None = None) -> None:
        """game on the board, a new one (reset, new game; its book when it brings one): fresh
        clocks, no AI move asked for yet."""
        self.record.adopt(game, book)
        self.referee.new_clock()
        self.steps = 0
        self.message = ""
        self.changed(autosave=False)

    def load(self, path: str) -> None:
        """Load a record (the kind reads it: Go's SGF with every variation, at the main line's
        end; Gomoku's SGF or ``.psq``); a failure becomes the message and the game stays as it was."""
        try:
            loaded = self.kind.read(path)
        except Exception as e:
            self.say(f"Cannot load {path}: {reason(e)}")
            return
        self.adopt(loaded)
        ended = f" ({self.game.result})" if self.over else ""
        self.say(f"Loaded {path}{ended}")

    def adopt(self, loaded: Loaded) -> None:
        """Play on from a record read (the same players): its game, book, end and clock."""
        self.stop_work()
        self._adopting(loaded)
        self.record.adopt(loaded.game, loaded.book)
        self.seats.new_game()
        self.referee.new_clock()
        self.referee.adopt_result(loaded.game, loaded.ended)
        self.referee.restore_clock(loaded.timing)
        self.steps = 0
        self.message = ""
        self.changed()

    def _adopting(self, loaded: Loaded) -> None:
        """What the game's own parts do before another record is on the board."""

    def close(self) -> None:
        """Cancel all thinking, stop the agents, the analysis, the autosave and the compile."""
        if self.closed:
            return
        self.closed = True
        self.workers.close()
        self.kind.stop(self.agents)
        self.progress = None
        self.values.eval_progress = None
        self.analysis.reviewer.close()
        self._close()
        self.seats.close()
        self.files.close()
        if self.compiler is not None:
            self.compiler.close()

    def _close(self) -> None:
        """What the game's own parts stop at close (Go's teacher)."""


__all__ = ["Facade"]
