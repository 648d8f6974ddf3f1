"""The game controller: owns the game, runs the AIs on worker threads, autosaves.

The window (or the terminal front end) only turns input into requests —
``click``, ``pass_turn``, ``undo``, ``reset``, ``advance`` ... — and draws
what the controller exposes: ``game``, ``message``, ``progress``,
``evaluation``, ``control_map()``, ``score()``; the panel's text is
:func:`gorilla.app.status_text.status_lines`. Files and the autosave thread are
in :mod:`gorilla.app.files`, the worker-thread task in :mod:`gorilla.app.tasks`.

Threading model: every long computation (an AI move, an evaluation, the
dead-stone estimate) runs on its own daemon worker thread against a
snapshot of the game, with a ``threading.Event`` to cancel it. Results are
applied only on the GUI thread, in :meth:`Controller.poll`, and only if the
task is still the current one (its generation matches): a late answer from a
search cancelled by reset, undo, load or close is never played.

No pyglet here: plain Python, usable from the terminal and from tests.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from gorilla.ai.agent import Agent, Progress, make_agent
from gorilla.ai.warmup import groups_for
from gorilla.app.clock import NO_CLOCK, GameClock, TimeControl
from gorilla.app.clocks import Clocks
from gorilla.app.compiler import Compiler
from gorilla.app.files import Autosaver, game_to_sgf, reason, tree_from_sgf, write_atomic
from gorilla.app.gtp_player import GtpEngineAgent, engine_label, is_gtp_spec
from gorilla.app.overlays import Overlays
from gorilla.app.players_state import PlayersState
from gorilla.app.record import RecordActions
from gorilla.app.review import Review, next_mistake
from gorilla.app.status_text import go_status_lines
from gorilla.app.tasks import Task
from gorilla.rules.board import BLACK, EMPTY, PASS, RESIGN, WHITE
from gorilla.rules.coords import format_vertex
from gorilla.rules.game import Game
from gorilla.rules.gametree import GameTree
from gorilla.rules.position import IllegalMove
from gorilla.rules.scoring import Score
from gorilla.rules.sgf import Timing

COLOR_NAME = {BLACK: "Black", WHITE: "White"}

DEFAULT_EVAL_GAMES = 10
DEFAULT_EVAL_TURNS = 3
DEAD_STONE_PLAYOUTS = 200


@dataclass
class EvaluationView:
    """What the HUD shows after ``e``: the evaluation and the points the last move lost."""

    evaluation: Any  # gorilla.ai.evaluator.Evaluation
    points_lost: float | None
    move_number: int
    unit: str = "points"  # the labels' scale: the moves' scores (points)


def player_label(spec: str | Agent) -> str:
    """How the HUD names a player: 'human', 'random', 'montecarlo:5,5' (seeds left out)."""
    if isinstance(spec, Agent):
        return spec.name
    if is_gtp_spec(spec):
        return engine_label(spec)
    name, sep, rest = spec.strip().partition(":")
    keep = [s for s in rest.split(",") if s.strip() and not s.strip().startswith("seed=")]
    return name + (sep + ",".join(keep) if keep else "")


class Controller(PlayersState, RecordActions):
    """Owns the game (the current line of its record ``tree``); see the module docstring for the
    threading rules and :mod:`gorilla.app.record` for the tree. A :class:`gorilla.app.table.Table`."""

    shows_captures = True  # the panel counts each side's captures
    gomoku_wait = None  # only the stand-in for a compiling Gomoku game waits for one

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
        eval_engine: str = "flat",
        continuous: bool = False,
        compiler: Compiler | None = None,
        clock: TimeControl | None = None,
        now: Callable[[], float] = time.monotonic,
        tree: GameTree | None = None,
    ) -> None:
        self.game = game
        self._init_record(tree)
        self.now = now  # the monotonic time the clocks read (tests inject their own)
        self.clocks = Clocks(clock or NO_CLOCK, now)  # the clocks' part (gorilla.app.clocks)
        self.ended: str | None = None  # 'time', 'forfeit' or 'record': an end the rules do not see
        self.events: list[tuple[str, dict]] = []  # sounds and the like, drained by the window
        self.compiler = compiler  # None: every kernel is usable at once (tests, the terminal)
        self.pending_move: int | None = None  # a human move clicked before the rules were loaded
        self._specs = {BLACK: _spec(black), WHITE: _spec(white)}
        self.threads = max(1, int(threads))
        self.players: dict[int, str] = {BLACK: player_label(black), WHITE: player_label(white)}
        self.agents: dict[int, Agent | None] = {
            BLACK: self._make_agent(black),
            WHITE: self._make_agent(white),
        }
        self.eval_games = DEFAULT_EVAL_GAMES if eval_games is None else int(eval_games)
        self.eval_turns = DEFAULT_EVAL_TURNS if eval_turns is None else int(eval_turns)
        self.eval_enabled = eval_games is not None or eval_turns is not None
        self.eval_engine = eval_engine
        self.autosave = autosave
        self._autosaver = Autosaver(autosave) if autosave else None
        self.version = 0
        self.message = ""
        self.message_time = 0.0
        self.progress: Progress | None = None
        self.evaluation: EvaluationView | None = None
        self.eval_progress: Any = None
        self.show_control = False
        self.show_eval = False
        self.show_thinking = False
        self.show_policy = False
        self.continuous = continuous
        self.steps = 0  # AI-vs-AI moves requested by advance()
        self.ai_error: str | None = None
        self.dead_estimated = False
        self.closed = False
        self._gen = 0  # bumps whenever the game changes: stale results are dropped
        self._ai: Task | None = None
        self._eval: Task | None = None
        self._dead: Task | None = None
        self._retired: list[Task] = []  # cancelled tasks still winding down
        self._seen_progress: object = None
        self.overlays = Overlays(lambda group: self.kernels_ready(group))  # c, o, f: gorilla.app.overlays
        self.review = Review(threads=self.threads)  # whole-game analysis (g), kept across navigation
        self._review_seen = 0
        self.show_ownership = False
        self._start_settings = (game.size, game.ruleset, game.komi, game.handicap)
        self._handicap_points: list[int] | None = None
        # a human Black placing free handicap stones: how many are still to come
        self.handicap_to_place = 0
        self._name_players(game)
        self._adopt_result(game)
        self.clocks.tell(self.agents)

    # --- players ------------------------------------------------------------------------------
    def _make_agent(self, spec: str | Agent) -> Agent | None:
        if isinstance(spec, Agent):
            return spec
        if spec.strip().lower() == "human":
            return None
        if is_gtp_spec(spec):
            return GtpEngineAgent(spec)
        name = spec.split(":", 1)[0].strip().lower()
        overrides = {"threads": self.threads} if name == "mcts" and "threads" not in spec else {}
        return make_agent(spec, **overrides)

    def _name_players(self, game: Game) -> None:
        """PB/PW for the SGF when the game has no names yet."""
        for color, attr in ((BLACK, "black_name"), (WHITE, "white_name")):
            if not getattr(game.info, attr):
                label = self.players[color]
                if label == "human":
                    name = "Human"
                elif is_gtp_spec(self._specs[color]):
                    name = label
                else:
                    name = f"Gorilla ({label})"
                setattr(game.info, attr, name)

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
            "black": self._specs[BLACK],
            "white": self._specs[WHITE],
            "clock": self.time_control.spec(),
        }

    def kernels_ready(self, *groups: str) -> bool:
        """Whether the kernel groups (see gorilla.ai.warmup) can be used now."""
        return self.compiler is None or self.compiler.ready(*groups)

    def groups_needed(self, heat_map: bool = True) -> list[str]:
        """Every kernel group this game can use: the players', the evaluator's, dead stones, control
        map, and the move model's heat map (the window's; not in the terminal: heat_map False)."""
        evaluator = ("mcts",) if self.eval_engine == "mcts" else ("control", "flat")
        extra = (*evaluator, "ownership", "control", *(("policy",) if heat_map else ()))
        return groups_for(self._specs.values(), extra=extra)

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

    @property
    def estimating(self) -> bool:
        """Whether the dead stones at the end are being estimated."""
        return self._dead is not None

    # --- bookkeeping --------------------------------------------------------------------------
    def _cancel(self, task: Task | None) -> None:
        if task is not None:
            task.cancel.set()
            if task.alive():
                self._retired.append(task)

    def _cancel_all(self) -> None:
        self._cancel(self._ai)
        self._cancel(self._eval)
        self._cancel(self._dead)
        self._ai = self._eval = self._dead = None
        self.progress = None
        self.eval_progress = None

    def _game_changed(self, autosave: bool = True) -> None:
        """After any change of the game: the record follows, stale work and results go, autosave."""
        self._sync_tree()
        self._gen += 1
        self._cancel_all()
        self.evaluation = None
        self.show_eval = False
        self.ai_error = None
        self.dead_estimated = False
        self.version += 1
        if autosave:
            self._autosave()

    def _autosave(self) -> None:
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
        self._retired = [t for t in self._retired if t.alive()]
        saver = self._autosaver
        if saver is not None and saver.error is not None:
            self.say(f"Autosave failed: {saver.error}")
            saver.error = None
        c = self.compiler
        if c is not None:
            if c.error and self.message != c.error:
                self.say(c.error)
            if self.pending_move is not None and self.kernels_ready("rules"):
                point, self.pending_move = self.pending_move, None
                if not self.game.over and self.is_human(self.game.to_move):
                    self._human_move(point)
        ai = self._ai
        if ai is not None:
            p = self.progress
            if p is not self._seen_progress:
                self._seen_progress = p
                self.version += 1
            if ai.done.is_set():
                self._ai = None
                self._finish_ai(ai)
        ev = self._eval
        if ev is not None:
            if self.eval_progress is not self._seen_progress:
                self._seen_progress = self.eval_progress
                self.version += 1
            if ev.done.is_set():
                self._eval = None
                self._finish_eval(ev)
        done = self.review.poll()
        if done is not None:
            self.say(done)
        if self.review.version != self._review_seen:
            self._review_seen = self.review.version
            self.version += 1
        dead = self._dead
        if dead is not None and dead.done.is_set():
            self._dead = None
            self._finish_dead(dead)
        self._watch_clock()
        self._start_work()

    def _start_work(self) -> None:
        game = self.game
        if self.ended is not None:
            return
        if game.over:
            if (
                game.end_reason == "passes"
                and not self.dead_estimated
                and self._dead is None
                and game.ruleset.scoring != "stones"
            ):
                self._start_dead()
            return
        if self._ai is not None or self.ai_error is not None or self.reviewing or self.editing:
            return  # reviewing the record: the AI waits for a move or for space
        agent = self.agents[game.to_move]
        if agent is None:
            return
        if self.ai_vs_ai and not self.continuous and self.steps <= 0:
            return
        if any(t.data.get("agent") is agent for t in self._retired):
            return  # the agent's cancelled search is still winding down (≤ 50 ms)
        if not self.kernels_ready(*groups_for([self._specs[game.to_move]])):
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
        gen = self._gen
        holder: list[Task] = []

        def on_progress(p: Progress) -> None:
            if holder and self._ai is holder[0] and not holder[0].cancel.is_set():
                self.progress = p

        budget = self.clocks.budget(self._specs[color], color)

        def run(cancel: threading.Event) -> int:
            return agent.select_move(snap, budget, cancel, on_progress)

        task = Task("ai", gen, run, agent=agent, color=color, move_number=self.game.move_number)
        holder.append(task)
        self.progress = None
        self._ai = task
        task.start()
        self.version += 1

    def _finish_ai(self, task: Task) -> None:
        self.progress = None
        self.version += 1
        game = self.game
        if (
            task.gen != self._gen
            or task.cancel.is_set()
            or game.to_move != task.data["color"]
            or game.move_number != task.data["move_number"]
        ):
            return  # stale: never play a late answer
        name = COLOR_NAME[task.data["color"]]
        if task.error is not None:
            if isinstance(task.data["agent"], GtpEngineAgent):  # its messages name the engine
                self.ai_error = f"{name}: {reason(task.error)}"
            else:
                self.ai_error = f"{name} AI failed: {reason(task.error)}"
            self.say(self.ai_error)
            return
        agent = task.data["agent"]
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
        self._game_changed()

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
            self._start_settings = (fresh.size, fresh.ruleset, fresh.komi, fresh.handicap)
            self._handicap_points = placed
            self.say("Handicap placed: White to move")
        self._name_players(fresh)
        self.game = fresh
        self.emit("stone", stones=0, move=0)
        self._game_changed(autosave=False)
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
        self._game_changed()
        return True

    def pass_turn(self) -> bool:
        """Right click: the human to move passes."""
        return self.play(PASS)

    def resign(self) -> bool:
        """The human to move resigns (the window asks for a confirmation first)."""
        return self.play(RESIGN)

    def toggle_dead(self, point: int) -> bool:
        """Mark the group at point dead, or alive again if it was dead (after two passes)."""
        game = self.game
        if game.end_reason != "passes":
            self.say("Dead stones are marked after two passes")
            return False
        if game.position.color_at(point) not in (BLACK, WHITE):
            self.say("Click a group to mark it dead or alive")
            return False
        self._cancel(self._dead)
        self._dead = None
        self.dead_estimated = True  # the user's marking wins over the estimate
        group = game.position.group(point)
        if all(p in game.dead for p in group):
            game.dead.difference_update(group)
            state = "alive"
        else:
            game.dead.update(group)
            state = "dead"
        name = COLOR_NAME[game.position.color_at(point)]
        self.say(f"{name} group at {format_vertex(point, game.size)} {state}")
        self._autosave()  # RE follows the marking
        return True

    def undo(self) -> bool:
        """Take back a move (right after a deleted branch: put it back); against an AI, back to the
        human's turn. The move stays in the record: redo or the arrows bring it back."""
        if self.restore_branch() or self.restore_record():
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
        self._cancel_all()
        game.undo()
        # against an AI, take back its reply too so the human has the move again
        while game.moves and not self.ai_vs_ai and not self.is_human(game.to_move):
            game.undo()
        self.message = ""
        self._clock_follows_turn()
        self._game_changed()
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
        self._cancel_all()
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
        self._game_changed()
        return True

    def reset(self) -> None:
        """A new game with the same size, rules, komi, handicap and players."""
        self._cancel_all()
        self.editing = self.reviewing = False
        size, ruleset, komi, handicap = self._start_settings
        info = self.game.info
        points = getattr(self, "_handicap_points", None)
        if points:
            self.game = Game(size, ruleset, komi)
            self.game.set_handicap(points)
        else:
            self.game = Game.new(size, ruleset, komi, handicap)
        self.game.info.black_name, self.game.info.white_name = info.black_name, info.white_name
        for agent in self.agents.values():
            if agent is not None:
                agent.new_game()
        self._new_clock()
        self.steps = 0
        self.message = ""
        self._game_changed(autosave=False)
        self.say("New game")

    def new_game(self, ng: Any) -> bool:
        """Start the game a new-game form made (gorilla.app.newgame.NewGame): size, rules, komi,
        handicap, players, clock. A player that cannot be made is one message; nothing changes."""
        try:
            agents = {BLACK: self._make_agent(ng.black), WHITE: self._make_agent(ng.white)}
        except (ValueError, ImportError, TypeError) as e:
            self.say(f"Cannot start that game: {reason(e)}")
            return False
        try:
            game = Game(ng.size, ng.rules, ng.komi)
            # free placement by a human Black: the stones come from clicks (see click)
            by_hand = bool(ng.handicap) and ng.placement == "free" and agents[BLACK] is None
            points = [] if by_hand else ng.handicap_points()
            if points:
                game.set_handicap(points)
        except (ValueError, IllegalMove) as e:
            for agent in agents.values():
                if agent is not None:
                    with contextlib.suppress(Exception):
                        agent.close()
            self.say(f"Cannot start that game: {reason(e)}")
            return False
        self._cancel_all()
        self.editing = self.reviewing = False
        for agent in self.agents.values():
            if agent is not None:
                with contextlib.suppress(Exception):
                    agent.close()
        self._specs = {BLACK: _spec(ng.black), WHITE: _spec(ng.white)}
        self.agents = agents
        self.players = {BLACK: player_label(ng.black), WHITE: player_label(ng.white)}
        self.game = game
        self._start_settings = (game.size, game.ruleset, game.komi, game.handicap)
        self._handicap_points = points
        self.handicap_to_place = ng.handicap if by_hand else 0
        self._name_players(game)
        self.time_control = ng.clock
        self._new_clock()
        self.steps = 0
        self.continuous = False
        self._ensure_compiling()
        self.message = ""
        self._game_changed(autosave=False)
        self.say(
            f"New game: {game.size}x{game.size}, Black {self.players[BLACK]}, White {self.players[WHITE]}"
            + (f"; Black: place {ng.handicap} handicap stones" if by_hand else "")
        )
        return True

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
        if self._ai is not None:
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

    # --- clocks (their state: gorilla.app.clocks.Clocks) -------------------------------------
    @property
    def clock(self) -> GameClock:
        """Both players' clocks."""
        return self.clocks.clock

    @property
    def time_control(self) -> TimeControl:
        """The game's time control."""
        return self.clocks.time_control

    @time_control.setter
    def time_control(self, tc: TimeControl) -> None:
        self.clocks.time_control = tc

    @property
    def clock_started(self) -> bool:
        """Whether the clocks run (from the first move)."""
        return self.clocks.started

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
        self._game_changed()
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

    def clock_views(self) -> dict[int, Any] | None:
        """Both clocks as shown now (gorilla.app.clock.ClockView), None without a clock."""
        return self.clocks.views()

    def sgf_timing(self) -> Timing | None:
        """TM/OT and the time left after each move, for the SGF (None without a clock)."""
        return self.clocks.sgf_timing(len(self.game.moves))

    # --- views --------------------------------------------------------------------------------
    def toggle_eval(self) -> None:
        """Show or hide the evaluator's move values on the board."""
        self.show_eval = not self.show_eval and self.evaluation is not None
        self.version += 1

    def toggle_policy(self) -> None:
        """Show or hide the move model's heat map (``l``): the moves strong players would consider."""
        self.show_policy = not self.show_policy
        self.version += 1

    def policy_map(self) -> dict[int, float]:
        """The move model's probability of each legal move of the side to move (PASS left out),
        cached per position; empty while its kernels compile, or without a usable model."""
        from gorilla.ai.policy.model import ModelError

        try:
            return self.overlays.policy_map(self.game, self._gen)
        except ModelError as e:
            self.show_policy = False
            self.say(str(e))
            return {}

    def control_map(self) -> np.ndarray:
        """The control map of the current position (-1 Black .. +1 White, row 0 on top), cached."""
        return self.overlays.control_map(self.game, self._gen)

    def toggle_ownership(self) -> None:
        """Show or hide the ownership estimate overlay (``o``)."""
        self.show_ownership = not self.show_ownership
        self.version += 1

    def ownership_map(self) -> np.ndarray:
        """Who owns each point at the end, from playouts (-1 Black .. +1 White, row 0 on top), cached."""
        return self.overlays.ownership_map(self.game, self._gen)

    # --- whole-game analysis (gorilla.app.review) ---------------------------------------------
    def toggle_analysis(self) -> None:
        """Start analysing every move of the current line in the background, or cancel (``g``)."""
        if self.review.running:
            self.review.cancel()
            self.say("Cancelling the analysis")
            return
        if self._waiting_for("mcts"):
            return
        self.review.start(self.game)
        self.say(f"Analysing the game ({self.review.playouts} playouts a position; g cancels)")

    def next_mistake(self, step: int = 1) -> bool:
        """Jump to the next (step 1) or previous (-1) analysed move that lost the threshold or more."""
        rv = self.review
        n = next_mistake(rv.reviews(self.game), len(self.game.moves), rv.threshold, step)
        if n is None:
            way = "after" if step > 0 else "before"
            self.say(f"No mistake of {rv.threshold:g}+ points {way} this move (g analyses the game)")
            return False
        self.goto_move(n)
        self.say(f"Move {n}: {self.review_line(n)}")
        return True

    def review_line(self, n: int) -> str:
        """One line about analysed move n of the current line ('' if not analysed)."""
        for r in self.review.reviews(self.game):
            if r.number == n:
                best = format_vertex(r.best, self.game.size)
                return f"lost {r.points_lost:.1f} points, best {best}, Black {100 * r.winrate_after:.0f}%"
        return ""

    def cycle_mistake_threshold(self) -> None:
        """The next mistake threshold for ``n`` / Shift+``n`` (Alt+``n``)."""
        self.say(f"Mistakes: {self.review.cycle_threshold():g}+ points lost")

    def toggle_mistake_dots(self) -> None:
        """Show or hide the dots coloured by points lost on the analysed stones (``d``)."""
        self.review.show_dots = not self.review.show_dots
        self.version += 1

    # --- evaluation ---------------------------------------------------------------------------
    def evaluate(self) -> None:
        """Evaluate every move of the current position in the background (the ``e`` key)."""
        if self._eval is not None:
            self.say("Already evaluating")
            return
        if self.over:
            self.say("The game is over")
            return
        if self._waiting_for(*(("mcts",) if self.eval_engine == "mcts" else ("control", "flat"))):
            return
        from gorilla.ai import evaluator

        snap = self.game.copy()
        engine, games, turns = self.eval_engine, self.eval_games, self.eval_turns
        holder: list[Task] = []

        def on_progress(p: Any) -> None:
            if holder and self._eval is holder[0] and not holder[0].cancel.is_set():
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
            return EvaluationView(ev, lost, n)

        task = Task("eval", self._gen, run)
        holder.append(task)
        self._eval = task
        task.start()
        self.say(f"Evaluating ({engine}, G={games}, T={turns})")

    def _finish_eval(self, task: Task) -> None:
        self.eval_progress = None
        if task.gen != self._gen or task.cancel.is_set():
            return
        if task.error is not None:
            self.say(f"Evaluation failed: {reason(task.error)}")
            return
        self.evaluation = task.result
        self.show_eval = True
        best = getattr(task.result.evaluation, "best", PASS)
        self.say(f"Best move: {format_vertex(best, self.game.size)}")

    # --- end of game --------------------------------------------------------------------------
    def _start_dead(self) -> None:
        if not self.kernels_ready("ownership"):
            return  # poll() asks again every frame
        from gorilla.ai import ownership

        snap = self.game.copy()

        def run(cancel: threading.Event) -> list[int]:
            return list(ownership.dead_stones(snap, playouts=DEAD_STONE_PLAYOUTS, cancel=cancel))

        self._dead = Task("dead", self._gen, run).start()
        self.version += 1

    def _finish_dead(self, task: Task) -> None:
        self.dead_estimated = True
        self.version += 1
        if task.gen != self._gen or task.cancel.is_set():
            return
        if task.error is not None:
            self.say(f"Dead-stone estimate failed: {reason(task.error)}")
            return
        self.game.dead = {int(p) for p in task.result}
        self._autosave()

    def score(self) -> Score | None:
        """The score of a game ended by passes or the move cap (None before, or after a resignation)."""
        game = self.game
        if not game.over or game.resigned or self.ended is not None:
            return None
        return game.score()

    # --- waiting (terminal mode and tests) ----------------------------------------------------
    def wait(self, timeout: float | None = None) -> bool:
        """Block until the work running now (or started by a poll() now) finishes, then poll().

        For the terminal front end and tests; False on timeout. The poll() at the end may
        start the next AI turn, which a later wait() waits for.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        tasks = [t for t in (self._ai, self._eval, self._dead) if t is not None]
        if not tasks:
            self.poll()
            tasks = [t for t in (self._ai, self._eval, self._dead) if t is not None]
        for t in tasks:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            if not t.done.wait(left):
                return False
        self.poll()
        return True

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
        self._cancel_all()
        self.review.cancel()  # its results stay: they belong to the lines they analysed
        self.adopt_tree(tree, game)
        self._start_settings = (game.size, game.ruleset, game.komi, game.handicap)
        self._handicap_points = None
        for agent in self.agents.values():
            if agent is not None:
                agent.new_game()
        self._new_clock()
        self._restore_clock(text)
        self._adopt_result(game)
        self.steps = 0
        self.message = ""
        self._game_changed()
        self.say(f"Loaded {path}")

    def close(self) -> None:
        """Cancel all thinking and stop the agents' threads."""
        if self.closed:
            return
        self.closed = True
        tasks = [t for t in (self._ai, self._eval, self._dead) if t is not None] + self._retired
        self._gen += 1
        self._cancel_all()
        for t in tasks:
            t.cancel.set()
        for t in tasks:
            t.thread.join(0.5)
        self._retired = []
        self.review.close()
        for agent in self.agents.values():
            if agent is not None:
                with contextlib.suppress(Exception):
                    agent.close()
        if self._autosaver is not None:
            self._autosaver.close()
        if self.compiler is not None:
            self.compiler.close()


def _spec(player: str | Agent) -> str:
    """The agent spec of a player ('human' for a human)."""
    return player.name if isinstance(player, Agent) else player.strip()
