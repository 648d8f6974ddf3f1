"""The Go game controller: a facade over the parts that own the game's state.

The window (or the terminal front end) only turns input into requests —
``click``, ``pass_turn``, ``undo``, ``reset``, ``advance`` ... — and draws
what the controller exposes (:class:`gorilla.app.table.Table`): ``game``, ``message``,
``progress``, ``evaluation``, ``control_map()``, ``score()``; the panel's text is
:func:`gorilla.app.status_text.status_lines`.

The parts, each a class that owns its state (the names the controller hands them are
listed in its class body, one :class:`gorilla.app.parts.Part` a name):

- ``record`` (:class:`gorilla.app.record.Record`): the game tree, the game on the board,
  navigation, variations, comments, the set-up mode;
- ``seats`` (:class:`gorilla.app.players.Players`): who plays each colour;
- ``feed`` (:class:`gorilla.app.feed.Feed`): the message, the events (sounds), the version;
- ``workers`` (:class:`gorilla.app.tasks.Workers`): the background tasks and their generation;
- ``clocks`` (:class:`gorilla.app.clocks.Clocks`), ``overlays``
  (:class:`gorilla.app.overlays.Overlays`: ``c``, ``o``, ``f``), ``values`` and ``dead``
  (:mod:`gorilla.app.move_values`: ``e``, the dead stones at the end), ``review``
  (:class:`gorilla.app.review.Review`: ``g``). Files and the autosave thread are in
  :mod:`gorilla.app.files`.

The controller itself keeps what ties them together: playing a move, the AI's turn, undo and
redo, a new game, loading and saving, the end of the game.

Threading model: every long computation (an AI move, an evaluation, the
dead-stone estimate) runs on its own daemon worker thread against a
snapshot of the game, with a ``threading.Event`` to cancel it. Results are
applied only on the GUI thread, in :meth:`Controller.poll`, and only if the
task is still the current one (its generation matches): a late answer from a
search cancelled by reset, undo, load or close is never played.

No pyglet here: plain Python, usable from the terminal and from tests.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from typing import Any

from gorilla.ai.agent import Agent, Progress
from gorilla.ai.warmup import groups_for
from gorilla.app.analysis import Analysis
from gorilla.app.clock import NO_CLOCK, TimeControl
from gorilla.app.clocks import Clocks
from gorilla.app.compiler import Compiler
from gorilla.app.feed import Feed
from gorilla.app.files import Autosaver, game_to_sgf, reason, tree_from_sgf, write_atomic
from gorilla.app.gtp_player import GtpEngineAgent
from gorilla.app.move_values import (
    DeadStones,
    MoveValues,
)
from gorilla.app.overlays import Overlays
from gorilla.app.parts import Part, Shared
from gorilla.app.players import Players
from gorilla.app.record import Record
from gorilla.app.review import Review
from gorilla.app.review import engine_for as review_engine
from gorilla.app.status_text import go_status_lines
from gorilla.app.tasks import Task, Workers
from gorilla.rules.board import BLACK, EMPTY, PASS, RESIGN, WHITE
from gorilla.rules.coords import format_vertex
from gorilla.rules.game import Game
from gorilla.rules.gametree import GameTree
from gorilla.rules.position import IllegalMove
from gorilla.rules.scoring import Score
from gorilla.rules.sgf import Timing

COLOR_NAME = {BLACK: "Black", WHITE: "White"}


class Controller(Shared):
    """Owns the game through its parts (see the module docstring for the parts and the
    threading rules). A :class:`gorilla.app.table.Table`."""

    shows_captures = True  # the panel counts each side's captures
    gomoku_wait = None  # only the stand-in for a compiling Gomoku game waits for one

    # --- what the parts answer (gorilla.app.parts.Part) ---------------------------------------
    game = Part("record")
    tree = Part("record")
    editing = Part("record")
    reviewing = Part("record")
    comment = Part("record")
    adopt_tree = Part("record")
    go_to_node = Part("record")
    go_back = Part("record")
    go_forward = Part("record")
    go_start = Part("record")
    go_end = Part("record")
    goto_move = Part("record")
    switch_variation = Part("record")
    promote_variation = Part("record")
    delete_branch = Part("record")
    set_comment = Part("record")
    toggle_setup = Part("record")
    setup_click = Part("record")
    setup_side_to_move = Part("record")
    branch_summary = Part("record")
    set_game_info = Part("record")
    clock = Part("clocks")
    time_control = Part("clocks")
    clock_started = Part("clocks", "started")
    clock_views = Part("clocks", "views")
    evaluation = Part("values")
    eval_progress = Part("values")
    show_eval = Part("values")
    eval_games = Part("values")
    eval_turns = Part("values")
    eval_engine = Part("values")
    eval_enabled = Part("values")
    toggle_eval = Part("values")
    dead_estimated = Part("dead")
    show_ownership = Part("overlays")
    show_policy = Part("overlays")
    toggle_ownership = Part("overlays")
    toggle_policy = Part("overlays")
    control_map = Part("overlays")
    ownership_map = Part("overlays")
    policy_map = Part("overlays")
    toggle_analysis = Part("analysis")
    next_mistake = Part("analysis")
    review_line = Part("analysis")
    cycle_mistake_threshold = Part("analysis")
    toggle_mistake_dots = Part("analysis")
    estimating = Part("dead")

    def __init__(
        self,
        game: Game,
        black: str | Agent = "human",
        white: str | Agent = "human",
        *,
        eval_games: int | None = None,
        eval_turns: int | None = None,
        autosave: str | None = None,
        threads: int = 1,
        eval_engine: str | None = None,
        continuous: bool = False,
        compiler: Compiler | None = None,
        clock: TimeControl | None = None,
        now: Callable[[], float] = time.monotonic,
        tree: GameTree | None = None,
    ) -> None:
        self.feed = Feed()
        self.workers = Workers()
        self.threads = max(1, int(threads))
        self.seats = Players.for_go(black, white, self.threads)
        self.record = Record(game, self, tree)
        self.now = now  # the monotonic time the clocks read (tests inject their own)
        self.clocks = Clocks(clock or NO_CLOCK, now)
        self.values = MoveValues(self.workers, self.feed, eval_engine, eval_games, eval_turns)
        self.dead = DeadStones(self.workers, self.feed, self.autosave_now)
        self.overlays = Overlays(self.kernels_ready, self.feed, lambda: (self.game, self.workers.gen))
        self.review = Review(threads=self.threads)  # whole-game analysis (g), kept across navigation
        self.analysis = Analysis(self.review, self.record, self.feed, self._waiting_for)
        self.ended: str | None = None  # 'time', 'forfeit' or 'record': an end the rules do not see
        self.compiler = compiler  # None: every kernel is usable at once (tests, the terminal)
        self.pending_move: int | None = None  # a human move clicked before the rules were loaded
        self.autosave = autosave
        self._autosaver = Autosaver(autosave) if autosave else None
        self.progress: Progress | None = None
        self.continuous = continuous
        self.steps = 0  # AI-vs-AI moves requested by advance()
        self.ai_error: str | None = None
        self.closed = False
        self._seen_progress: object = None
        self._review_seen = 0
        self.handicap_to_place = 0  # a human Black placing free handicap stones: how many are to come
        self.seats.name_game(game.info)
        self._adopt_result(game)
        self.clocks.tell(self.agents)

    # --- what the window reads ------------------------------------------------------------------
    def status_lines(self) -> list[str]:
        """The panel's text (:func:`gorilla.app.status_text.go_status_lines`)."""
        return go_status_lines(self)

    def new_game_choices(self) -> dict[str, Any]:
        """The new-game form's rows for the game on the board."""
        game = self.game
        return {
            "size": game.size,
            "rules": game.ruleset.name,
            "komi": f"{game.komi:g}",
            "handicap": game.handicap,
            "black": self.seats.specs[BLACK],
            "white": self.seats.specs[WHITE],
            "clock": self.time_control.spec(),
        }

    def kernels_ready(self, *groups: str) -> bool:
        """Whether the kernel groups (see gorilla.ai.warmup) can be used now."""
        return self.compiler is None or self.compiler.ready(*groups)

    def groups_needed(self, heat_map: bool = True) -> list[str]:
        """Every kernel group this game can use: the players', the evaluator's, dead stones (the
        net's where it plays the board), control map, and the window's heat map and whole-game
        analysis (not in the terminal: heat_map False)."""
        game = self.game
        net = ("net",) if self.dead.group(game) == "net" else ()
        window = ("policy", review_engine(game)) if heat_map else ()
        extra = (*self.values.groups(game), *net, "ownership", "control", *window)
        return groups_for(self.seats.specs.values(), extra=extra)

    def _waiting_for(self, *groups: str) -> bool:
        """True (and a word in the panel) when the groups are still compiling."""
        if self.kernels_ready(*groups):
            return False
        c = self.compiler
        self.say(c.status() if c is not None and c.status() else "Loading the engine...")
        return True

    @property
    def ai_to_move(self) -> bool:
        """Whether the game goes on and an AI has the move."""
        return not self.over and self.agents[self.game.to_move] is not None

    @property
    def over(self) -> bool:
        """Whether the game has ended: by the rules, or on time, by forfeit, or as its record says."""
        return self.game.over or self.ended is not None

    @property
    def result(self) -> str | None:
        """The result ('B+R', 'W+T', 'B+F', 'B+3.5') once the game is over."""
        return self.game.result if self.over else None

    def score(self) -> Score | None:
        """The score of a game ended by passes or the move cap (None before, or after a resignation)."""
        game = self.game
        if not game.over or game.resigned or self.ended is not None:
            return None
        return game.score()

    # --- what the record asks (gorilla.app.record.RecordHost) ---------------------------------
    def stop_work(self) -> None:
        """Cancel the AI's search, the evaluation and the dead-stone estimate."""
        self.workers.cancel_all()
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
        self.dead.dead_estimated = False
        self.version += 1
        if autosave:
            self.autosave_now()

    def restarted(self, game: Game) -> None:
        """The game on the board was replaced by the record's: its end as the record says."""
        self.ended = None
        self._adopt_result(game)
        self.changed()

    def arrived(self) -> None:
        """The board shows another node: the AI waits (one move at a time), the clock follows."""
        self.ended = None
        self._adopt_result(self.game)
        self.continuous = False
        self.steps = 0
        self.message = ""
        self._clock_follows_turn()
        self.changed()

    def autosave_now(self) -> None:
        """Hand a snapshot of the record to the autosave thread (an empty board never overwrites a
        saved game); its main line is the current line, so a resume goes on where play was."""
        saver = self._autosaver
        if saver is None or saver.path != self.autosave:
            saver = self._autosaver = Autosaver(self.autosave) if self.autosave else None
        if saver is None or not (self.tree.root.children or self.game.setup):
            return
        snap = self.tree.snapshot()
        if snap.promote():  # the autosave's main line is the line on the board: --resume goes on there
            snap.result = None if self.game.redo_stack else self.game.result
        saver.submit(snap, self.sgf_timing())

    def flush_autosave(self, timeout: float | None = 10.0) -> bool:
        """Wait until the autosave file holds the current game."""
        return True if self._autosaver is None else self._autosaver.flush(timeout)

    # --- the frame tick -----------------------------------------------------------------------
    def poll(self) -> None:
        """Called every frame on the GUI thread: apply finished work, start the next AI turn."""
        if self.closed:
            return
        self.workers.prune()
        saver = self._autosaver
        if saver is not None and saver.error is not None:
            self.say(f"Autosave failed: {saver.error}")
            saver.error = None
        self._compiler_tick()
        if self.workers.thinking:
            self._saw(self.progress)
        task = self.workers.finished("ai")
        if task is not None:
            self._finish_ai(task)
        if self.workers.evaluating:
            self._saw(self.eval_progress)
        task = self.workers.finished("eval")
        if task is not None:
            self.values.finish(task, self.game.size)
        done = self.review.poll()
        if done is not None:
            self.say(done)
        if self.review.version != self._review_seen:
            self._review_seen = self.review.version
            self.version += 1
        task = self.workers.finished("dead")
        if task is not None:
            self.dead.finish(task, self.game)
        self._watch_clock()
        self._start_work()

    def _saw(self, progress: object) -> None:
        """A search's progress changed since the last frame: redraw."""
        if progress is not self._seen_progress:
            self._seen_progress = progress
            self.version += 1

    def _compiler_tick(self) -> None:
        """The compile's error in the panel; a move clicked while the rules loaded is played."""
        c = self.compiler
        if c is None:
            return
        if c.error and self.message != c.error:
            self.say(c.error)
        if self.pending_move is not None and self.kernels_ready("rules"):
            point, self.pending_move = self.pending_move, None
            if not self.game.over and self.is_human(self.game.to_move):
                self._human_move(point)

    def _start_work(self) -> None:
        game = self.game
        if self.ended is not None:
            return
        if game.over:
            if self.dead.due(game) and self.kernels_ready(self.dead.group(game)):
                self.dead.start(game)  # else poll() asks again every frame
            return
        if self.workers.thinking or self.ai_error is not None or self.reviewing or self.editing:
            return  # reviewing the record: the AI waits for a move or for space
        agent = self.agents[game.to_move]
        if agent is None:
            return
        if self.ai_vs_ai and not self.continuous and self.steps <= 0:
            return
        if self.workers.winding_down(agent):
            return  # the agent's cancelled search is still winding down (≤ 50 ms)
        if not self.kernels_ready(*groups_for([self.seats.specs[game.to_move]])):
            running = self.clocks.clock.clocks[game.to_move]
            if running.running:
                running.running_since = self.now()  # loading the engine costs the AI no time
            return  # its first move (and its clock) wait until its kernels are ready
        if self.ai_vs_ai and not self.continuous:
            self.steps -= 1
        self._start_ai(agent)

    def _start_ai(self, agent: Agent) -> None:
        snap = self.game.copy()
        color = self.game.to_move
        self.clocks.feed(agent, color)

        def on_progress(p: Progress) -> None:
            if self.workers.current(task):
                self.progress = p

        budget = self.clocks.budget(self.seats.specs[color], color)

        def run(cancel: threading.Event) -> int:
            return agent.select_move(snap, budget, cancel, on_progress)

        task = self.workers.task("ai", run, agent=agent, color=color, move_number=self.game.move_number)
        self.progress = None
        self.workers.launch(task)
        self.version += 1

    def _finish_ai(self, task: Task) -> None:
        self.progress = None
        self.version += 1
        game = self.game
        if (
            not self.workers.fresh(task)
            or game.to_move != task.data["color"]
            or game.move_number != task.data["move_number"]
        ):
            return  # stale: never play a late answer
        name = COLOR_NAME[task.data["color"]]
        agent = task.data["agent"]
        if task.error is not None:
            if isinstance(agent, GtpEngineAgent):  # its messages name the engine
                self.ai_error = f"{name}: {reason(task.error)}"
            else:
                self.ai_error = f"{name} AI failed: {reason(task.error)}"
            self.say(self.ai_error)
            return
        if isinstance(agent, GtpEngineAgent):
            name = f"{name} ({agent.label})"
        move = int(task.result)
        color = task.data["color"]
        if self._flag_fell(color):
            return
        try:
            game.play(move)
        except (IllegalMove, ValueError) as e:
            where = format_vertex(move, game.size)
            if isinstance(agent, GtpEngineAgent):
                self._forfeit(color, f"{name} played an illegal move {where} ({e}) and forfeits")
                return
            self.ai_error = f"{name} AI chose an illegal move {where}: {e}"
            self.say(self.ai_error)
            return
        self.message = ""
        self._moved(color)
        self.changed()

    # --- input --------------------------------------------------------------------------------
    def click(self, point: int) -> bool:
        """Left click on a point: play it, place a free handicap stone, advance AI vs AI, toggle a
        dead group at the end, or in set-up mode put or take off a black stone."""
        game = self.game
        if self.editing:
            return self.setup_click(point, BLACK)
        if self.handicap_to_place:
            return self._place_handicap_stone(point)
        if self.over:
            if game.over and game.end_reason == "passes" and game.position.on_board(point):
                return self.toggle_dead(point)
            self.say("The game is over: r starts a new one")
            return False
        if self.clocks.clock.paused:
            self.say("The clocks are paused: Ctrl+P goes on")
            return False
        if self.ai_vs_ai:
            self.advance()
            return True
        if not self.is_human(game.to_move):
            self.say(f"{COLOR_NAME[game.to_move]} (AI) is thinking")
            return False
        return self._human_move(point)

    def _place_handicap_stone(self, point: int) -> bool:
        """One of a human Black's free handicap stones; White moves after the last one."""
        game = self.game
        if not game.position.on_board(point) or game.position.color_at(point) != EMPTY:
            self.say("Handicap stones go on empty points")
            self.emit("illegal")
            return False
        placed = [p for p, _ in game.setup.items()] + [point]
        fresh = Game(game.size, game.ruleset, game.komi)
        self.handicap_to_place -= 1
        if self.handicap_to_place:
            fresh.add_setup([(p, BLACK) for p in placed], to_move=BLACK)
            self.say(f"Black: place {self.handicap_to_place} more handicap stone(s)")
        else:
            fresh.set_handicap(placed)
            self.record.started(fresh, placed)
            self.say("Handicap placed: White to move")
        self.seats.name_game(fresh.info)
        self.game = fresh
        self.emit("stone", stones=0, move=0)
        self.changed(autosave=False)
        return True

    def play(self, point: int) -> bool:
        """Play point (or PASS/RESIGN) for the side to move, if a human has the move."""
        if self.over:
            self.say("The game is over")
            return False
        if not self.is_human(self.game.to_move):
            self.say(f"{COLOR_NAME[self.game.to_move]} is played by the AI")
            return False
        return self._human_move(point)

    def _human_move(self, point: int) -> bool:
        game = self.game
        if not self.kernels_ready("rules"):
            self.pending_move = point
            where = format_vertex(point, game.size) if game.position.on_board(point) else "pass"
            self.say(f"Loading the rules: {where} is played in a moment")
            return True
        reason = game.check(point)
        if reason is not None:
            where = format_vertex(point, game.size) if game.position.on_board(point) else "there"
            self.say(f"Illegal move at {where}: {reason}")
            self.emit("illegal")
            return False
        color = game.to_move
        if self._flag_fell(color):
            return False
        try:
            game.play(point)
        except (IllegalMove, ValueError) as e:
            self.say(f"Illegal move: {e}")
            self.emit("illegal")
            return False
        self.message = ""
        self.reviewing = False
        self._moved(color)
        self.changed()
        return True

    def pass_turn(self) -> bool:
        """Right click: the human to move passes."""
        return self.play(PASS)

    def resign(self) -> bool:
        """The human to move resigns (the window asks for a confirmation first)."""
        return self.play(RESIGN)

    def toggle_dead(self, point: int) -> bool:
        """Mark the group at point dead, or alive again if it was dead (after two passes)."""
        return self.dead.toggle(self.game, point)

    def undo(self) -> bool:
        """Take back a move (right after a deleted branch: put it back); against an AI, back to the
        human's turn. The move stays in the record: redo or the arrows bring it back."""
        if self.record.restore_branch() or self.record.restore_record():
            return True
        game = self.game
        if self.ended == "time":
            self.say("The game was lost on time: start a new one")
            return False
        if not game.moves:
            self.say("Nothing to undo")
            return False
        self.ended = None
        self.continuous = False
        self.steps = 0
        self.stop_work()
        game.undo()
        # against an AI, take back its reply too so the human has the move again
        while game.moves and not self.ai_vs_ai and not self.is_human(game.to_move):
            game.undo()
        self.message = ""
        self._clock_follows_turn()
        self.changed()
        return True

    def redo(self) -> bool:
        """Replay an undone move; against an AI, its reply too."""
        game = self.game
        if self.ended is not None:
            self.say("The game is over")
            return False
        if not game.redo_stack:
            self.say("Nothing to redo")
            return False
        self.stop_work()
        try:
            game.redo()
        except (IllegalMove, ValueError) as e:
            self.say(f"Cannot redo: {e}")
            return False
        while game.redo_stack and not self.ai_vs_ai and not self.is_human(game.to_move):
            game.redo()
        self.message = ""
        if game.over:
            self.clocks.stop()
        else:
            self._clock_follows_turn()
        self.changed()
        return True

    def reset(self) -> None:
        """A new game with the same size, rules, komi, handicap and players."""
        self.stop_work()
        size, ruleset, komi, handicap = self.record.start_settings
        points = self.record.handicap_points
        if points:
            game = Game(size, ruleset, komi)
            game.set_handicap(points)
        else:
            game = Game.new(size, ruleset, komi, handicap)
        game.info.black_name, game.info.white_name = self.game.info.black_name, self.game.info.white_name
        self.seats.new_game()
        self._begin(game, points)
        self.say("New game")

    def new_game(self, ng: Any) -> bool:
        """Start the game a new-game form made (gorilla.app.newgame.NewGame): size, rules, komi,
        handicap, players, clock. A player that cannot be made is one message; nothing changes."""
        try:
            seats = Players.for_go(ng.black, ng.white, self.threads)
        except (ValueError, ImportError, TypeError) as e:
            self.say(f"Cannot start that game: {reason(e)}")
            return False
        try:
            game = Game(ng.size, ng.rules, ng.komi)
            # free placement by a human Black: the stones come from clicks (see click)
            by_hand = bool(ng.handicap) and ng.placement == "free" and seats.is_human(BLACK)
            points = [] if by_hand else ng.handicap_points()
            if points:
                game.set_handicap(points)
        except (ValueError, IllegalMove) as e:
            seats.close()
            self.say(f"Cannot start that game: {reason(e)}")
            return False
        self.stop_work()
        self.seats.close()
        self.seats = seats
        self.handicap_to_place = ng.handicap if by_hand else 0
        seats.name_game(game.info)
        self.time_control = ng.clock
        self.continuous = False
        self._ensure_compiling()
        self._begin(game, points)
        self.say(
            f"New game: {game.size}x{game.size}, Black {self.players[BLACK]}, White {self.players[WHITE]}"
            + (f"; Black: place {ng.handicap} handicap stones" if by_hand else "")
        )
        return True

    def _begin(self, game: Game, handicap_points: list[int] | None) -> None:
        """game on the board, a new one (reset, new game): fresh clocks, no AI move asked for yet."""
        self.editing = self.reviewing = False
        self.record.started(game, handicap_points)
        self._new_clock()
        self.steps = 0
        self.message = ""
        self.changed(autosave=False)

    def _ensure_compiling(self) -> None:
        """The window's compiler covers the groups the new players need (a fresh one when not)."""
        c = self.compiler
        if c is None:
            return
        need = self.groups_needed()
        if all(g in c.groups for g in need):
            return
        c.close()
        self.compiler = Compiler([*c.groups, *need])

    def advance(self) -> None:
        """AI vs AI: ask for the next AI move (a left click in Gorilla)."""
        if self.over:
            self.say("The game is over: r starts a new one")
            return
        if not self.ai_to_move:
            self.say(f"{COLOR_NAME[self.game.to_move]} is played by a human")
            return
        if self.workers.thinking:
            self.say(f"{COLOR_NAME[self.game.to_move]} is still thinking")
            return
        self.ai_error = None  # after a failure, a click tries again
        self.reviewing = False
        self.steps = 1
        self.version += 1

    def set_continuous(self, on: bool) -> None:
        """AI vs AI: play move after move without clicks (True) or one move per advance()."""
        self.continuous = bool(on)
        self.steps = 0
        self.say("Continuous play" if on else "Step mode: click for the next move")

    # --- clocks (their state: gorilla.app.clocks.Clocks) ---------------------------------------
    def _new_clock(self) -> None:
        """Fresh clocks for a new or loaded game; they start with its first move."""
        self.clocks.new()
        self.ended = None
        self.clocks.tell(self.agents)

    def set_time_control(self, tc: TimeControl) -> None:
        """Use tc from the next new game on (and for this one, if it has not started)."""
        self.time_control = tc
        if not self.clock_started:
            self._new_clock()

    def _adopt_result(self, game: Game) -> None:
        """A loaded record whose result the rules do not give (W+T, B+F) is a finished game."""
        if game.info.extra_result and not game.over:
            self.ended = "record"

    def _restore_clock(self, text: str) -> None:
        """A loaded record with TM/OT brings its time control and the time left (BL/WL)."""
        if self.clocks.restore(text, self.game):
            self.clocks.tell(self.agents)

    def _moved(self, color: int) -> None:
        """After color's move: press its clock (the first move starts the clocks); sounds."""
        game = self.game
        last = game.moves[-1]
        if last.point == PASS:
            self.emit("pass")
        elif last.point >= 0:
            self.emit("capture" if last.captures else "stone", stones=last.captures, move=len(game.moves))
        self.clocks.pressed(color, game)
        if game.over:
            self.emit("game_end", result=game.result or "")

    def _clock_follows_turn(self) -> None:
        """After undo or redo: the clock of the side to move runs (no time is given back)."""
        self.clocks.follow_turn(self.game.to_move)

    def _flag_fell(self, color: int) -> bool:
        """True (and the game lost on time) when color's flag has fallen; checked before a move."""
        if self.clocks.flag_fell(color):
            self._lose_on_time(color)
            return True
        return False

    def _watch_clock(self) -> None:
        """Every frame: a fallen flag ends the game; the last seconds are counted down."""
        if self.over:
            return
        flagged, second = self.clocks.watch(len(self.game.moves))
        if flagged:
            self._lose_on_time(flagged)
        elif second:
            self.emit("countdown", seconds=second, color=self.clock.running)
            self.version += 1

    def _lose_on_time(self, color: int) -> None:
        self.clocks.flag(color)
        self._end(color, "T", "time", f"{COLOR_NAME[color]} lost on time")

    def _forfeit(self, color: int, why: str) -> None:
        self._end(color, "F", "forfeit", why)

    def _end(self, loser: int, how: str, ended: str, why: str) -> None:
        self.clocks.stop()
        self.ended = ended
        self.game.info.extra_result = f"{'W' if loser == BLACK else 'B'}+{how}"
        self.continuous = False
        self.changed()
        self.say(f"{why}: {self.game.info.extra_result}")
        self.emit("game_end", result=self.game.info.extra_result)

    def toggle_pause(self) -> bool:
        """Pause or resume the clocks; only between two humans, while the game goes on."""
        if not self.time_control.enabled or not self.clock_started or self.over:
            self.say("No clock is running")
            return False
        if self.agents[BLACK] is not None or self.agents[WHITE] is not None:
            self.say("Only a game between two humans can be paused")
            return False
        paused = self.clocks.toggle_pause(self.game.to_move)
        self.say("Paused: Ctrl+P goes on" if paused else "Clocks running")
        return True

    def sgf_timing(self) -> Timing | None:
        """TM/OT and the time left after each move, for the SGF (None without a clock)."""
        return self.clocks.sgf_timing(len(self.game.moves))

    # --- evaluation (gorilla.app.move_values) ---------------------------------------------------
    def evaluate(self) -> None:
        """Evaluate every move of the current position in the background (the ``e`` key)."""
        if self.workers.evaluating:
            self.say("Already evaluating")
            return
        if self.over:
            self.say("The game is over")
            return
        if self._waiting_for(*self.values.groups(self.game)):
            return
        self.values.start(self.game)

    # --- waiting (terminal mode and tests) ----------------------------------------------------
    def wait(self, timeout: float | None = None) -> bool:
        """Block until the work running now (or started by a poll() now) finishes, then poll().

        For the terminal front end and tests; False on timeout. The poll() at the end may
        start the next AI turn, which a later wait() waits for.
        """
        return self.workers.wait(self.poll, timeout)

    # --- files --------------------------------------------------------------------------------
    def save(self, path: str) -> None:
        """Save the game as SGF; a failure becomes the message, nothing else changes."""
        try:
            write_atomic(os.path.expanduser(path), game_to_sgf(self.tree, self.sgf_timing()))
        except Exception as e:
            self.say(f"Cannot save {path}: {reason(e)}")
            return
        self.say(f"Saved {path}")

    def load(self, path: str) -> None:
        """Load an SGF with all its variations, at the main line's end; a failure becomes the
        message and the game stays as it was."""
        try:
            with open(os.path.expanduser(path), encoding="utf-8", errors="replace") as f:
                text = f.read()
            tree = tree_from_sgf(text)
            game = tree.line_game()
        except Exception as e:
            self.say(f"Cannot load {path}: {reason(e)}")
            return
        self.stop_work()
        self.review.cancel()  # its results stay: they belong to the lines they analysed
        self.adopt_tree(tree, game)
        self.seats.new_game()
        self._new_clock()
        self._restore_clock(text)
        self._adopt_result(game)
        self.steps = 0
        self.message = ""
        self.changed()
        self.say(f"Loaded {path}")

    def close(self) -> None:
        """Cancel all thinking and stop the agents' threads."""
        if self.closed:
            return
        self.closed = True
        self.workers.close()
        self.progress = None
        self.values.eval_progress = None
        self.review.close()
        self.seats.close()
        if self._autosaver is not None:
            self._autosaver.close()
        if self.compiler is not None:
            self.compiler.close()
