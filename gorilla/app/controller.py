"""The Go game controller: a facade over parts that own the game's state.

The window (or the terminal front end) turns input into requests (``click``, ``pass_turn``,
``undo``, ``reset``, ``advance`` ...) and draws what the controller shows
(:class:`gorilla.app.table.Table`). Each name the controller hands to a part is one
:class:`gorilla.app.parts.Part` line in its class body; the parts:

- ``record`` (:mod:`gorilla.app.record`): the game tree, the game on the board (its current
  line), navigation, variations, comments, the set-up mode;
- ``moves`` (:mod:`gorilla.app.moves`): a human's clicks, passes, resignation, undo and redo;
- ``turn`` (:mod:`gorilla.app.ai_turn`): the AI's turn, its search and its progress;
- ``referee`` (:mod:`gorilla.app.referee`) over ``clocks`` (:mod:`gorilla.app.clocks`): the
  clocks in the game and the ends the rules do not see (time, forfeit, the record's result);
- ``seats`` (:mod:`gorilla.app.players`), ``feed`` (:mod:`gorilla.app.feed`: the message, the
  sounds, the version), ``workers`` (:mod:`gorilla.app.tasks`: the background tasks);
- ``overlays`` (``c``, ``o``, ``f``), ``values`` and ``dead`` (:mod:`gorilla.app.move_values`:
  ``e``, the dead stones at the end), ``review`` and ``analysis`` (``g``, ``n``, ``d``),
  ``files`` (:mod:`gorilla.app.record_files`: save and autosave);
- ``teacher`` (:mod:`gorilla.app.teaching`: the teaching game), ``ponder``
  (:mod:`gorilla.app.ponder`: the analysis of the position shown while ``v`` is on).

The controller itself makes the parts, ties them together after every change (``changed``),
runs the frame tick (``poll``), and starts, loads and closes games.

Threading: every long computation (an AI move, an evaluation, the dead-stone estimate) runs on
a daemon worker thread against a copy of the game, with a ``threading.Event`` to cancel it;
results are applied only on the GUI thread, in :meth:`Controller.poll`, and only while their
generation is the game's: a late answer from a search cancelled by reset, undo, load or close
is never played. No pyglet here: plain Python, usable from the terminal and from tests.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

from gorilla.ai.agent import Agent
from gorilla.ai.warmup import groups_for
from gorilla.app import review_file
from gorilla.app.ai_turn import AiTurn
from gorilla.app.analysis import Analysis
from gorilla.app.clock import NO_CLOCK, TimeControl
from gorilla.app.clocks import Clocks
from gorilla.app.compiler import Compiler
from gorilla.app.feed import Feed
from gorilla.app.files import reason, tree_from_sgf
from gorilla.app.move_values import DeadStones, MoveValues
from gorilla.app.moves import Moves
from gorilla.app.overlays import Overlays
from gorilla.app.parts import Shared, hands
from gorilla.app.players import Players
from gorilla.app.ponder import Ponder, PonderView
from gorilla.app.record import Record
from gorilla.app.record_files import RecordFiles
from gorilla.app.referee import COLOR_NAME, Referee
from gorilla.app.review import Review
from gorilla.app.review import engine_for as review_engine
from gorilla.app.status_text import go_status_lines
from gorilla.app.tasks import Workers
from gorilla.app.teaching import Marks, Teacher, TeachSettings, position_key
from gorilla.rules.board import BLACK, WHITE
from gorilla.rules.coords import GTP_LETTERS
from gorilla.rules.game import Game
from gorilla.rules.gametree import GameTree
from gorilla.rules.position import IllegalMove
from gorilla.rules.scoring import Score

__all__ = ["COLOR_NAME", "Controller"]


@hands(
    record="game tree editing reviewing comment adopt_tree go_to_node go_back go_forward go_start go_end"
    " goto_move switch_variation promote_variation delete_branch set_comment toggle_setup setup_click"
    " setup_side_to_move branch_summary set_game_info set_record_info names recorded_result",
    moves="click play pass_turn resign toggle_dead undo redo pending_move handicap_to_place",
    turn="advance set_continuous continuous steps progress ai_error",
    referee="ended toggle_pause set_time_control sgf_timing",
    clocks="clock time_control clock_started=started clock_views=views",
    values="evaluation eval_progress show_eval toggle_eval eval_games eval_turns eval_engine eval_enabled",
    dead="dead_estimated estimating",
    overlays="control_map ownership_map policy_map show_ownership show_policy toggle_ownership toggle_policy",
    analysis="toggle_analysis next_mistake review_line cycle_mistake_threshold toggle_mistake_dots"
    " game_report",
    files="save autosave autosave_now flush_autosave",
    teacher="teach",
)
class Controller(Shared):
    """Owns the game through its parts (see the module docstring for the parts and the
    threading rules). A :class:`gorilla.app.table.Table`."""

    shows_captures = True  # the panel counts each side's captures
    column_letters = GTP_LETTERS  # Go's columns skip I

    def analysis_graph(self) -> None:
        """None: Go's graph reads ``review`` (:func:`gorilla.gui.graph.graph_data`)."""
        return None

    def analysis_dots(self) -> list[tuple[int, float]]:
        """[]: Go's dots read ``review`` (:func:`gorilla.gui.scene.build_scene`)."""
        return []

    def analysis_best(self) -> None:
        """None: Go's best move comes from ``review`` (:func:`gorilla.gui.pv.review_best`)."""
        return None

    gomoku_wait = None  # only the stand-in for a compiling Gomoku game waits for one
    # every other name the window reads or asks is a part's (@hands above, gorilla.app.parts)

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
        teach: str = "off",
        teaching: TeachSettings | None = None,
    ) -> None:
        self.feed = Feed()
        self.workers = Workers()
        self.threads = max(1, int(threads))
        self.seats = Players.for_go(black, white, self.threads)
        self.record = Record(game, self, tree)
        self.now = now  # the monotonic time the clocks read (tests inject their own)
        self.clocks = Clocks(clock or NO_CLOCK, now)
        self.referee = Referee(self.clocks, self.record, self.seats, self.feed, self._ended)
        parts = (self.record, self.seats, self.workers, self.clocks, self.referee, self.feed)
        self.turn = AiTurn(parts, self.kernels_ready, self.changed, continuous)
        self.values = MoveValues(self.workers, self.feed, eval_engine, eval_games, eval_turns)
        self.files = RecordFiles(self.record, self.feed, self.referee.sgf_timing, autosave, self._keep_review)
        self.dead = DeadStones(self.workers, self.feed, self._dead_marked)
        parts = (self.record, self.seats, self.clocks, self.referee, self.turn, self.dead, self.feed)
        self.moves = Moves(parts, self.kernels_ready, self)
        self.overlays = Overlays(self.kernels_ready, self.feed, lambda: (self.game, self.workers.gen))
        self.review = Review(threads=self.threads)  # whole-game analysis (g), kept across navigation
        review_file.adopt(self.review, self.record.tree)  # a record's own review (SBKV, SBKS)
        self.analysis = Analysis(self.review, self.record, self.feed, self._waiting_for)
        parts = (self.record, self.seats, self.workers, self.feed)
        self.teacher = Teacher(parts, self, self.kernels_ready, teaching)
        self.teacher.teach(teach)
        self.ponder = Ponder(self.workers, self.feed, self.threads)
        self.compiler = compiler  # None: every kernel is usable at once (tests, the terminal)
        self.closed = False
        self._key: tuple[tuple[int, int], Any] = ((-1, -1), None)  # (generation, moves), the key
        self._review_seen = 0
        self.seats.name_game(game.info)
        self.referee.adopt_result(game)
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
            "teach": self.teacher.choice(),
        }

    def teaching_marks(self) -> Marks | None:
        """The teaching's dots and ghost at the position on the board (:meth:`Teacher.marks`)."""
        return self.teacher.marks(self.version)

    def ponder_view(self) -> PonderView | None:
        """The analysis of the position on the board while ``v`` is on (:mod:`gorilla.app.ponder`)."""
        return self.ponder.shown(self.position_key())

    def position_key(self) -> Any:
        """The review's key of the position on the board (kept until the game changes)."""
        at = (self.workers.gen, len(self.game.moves))
        if self._key[0] != at:
            self._key = (at, position_key(self.game))
        return self._key[1]

    def kernels_ready(self, *groups: str) -> bool:
        """Whether the kernel groups (see gorilla.ai.warmup) can be used now."""
        return self.compiler is None or self.compiler.ready(*groups)

    def offers(self, command: str) -> bool:
        """Go has every command of the window but Gomoku's Swap2."""
        return command != "two_more"

    def two_more(self) -> bool:
        """Swap2 is a Gomoku opening: says so."""
        self.say("Two more stones: only in a Gomoku game with a Swap2 opening")
        return False

    def groups_needed(self, heat_map: bool = True) -> list[str]:
        """Every kernel group this game can use: the players', the evaluator's, dead stones (the
        net's where it plays the board), control map, and the window's heat map and whole-game
        analysis (not in the terminal: heat_map False)."""
        game = self.game
        net = ("net",) if self.dead.group(game) == "net" else ()
        window = ("policy", review_engine(game)) if heat_map else ()
        extra = (*self.values.groups(game), *net, "ownership", "control", *window, *self.teacher.groups())
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
        return self.referee.over

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

    def _dead_marked(self) -> None:
        """The dead stones changed (the estimate, the user's marking): the record's result
        follows them, and the autosave."""
        self.record.sync()
        self.autosave_now()

    def _ended(self) -> None:
        """The referee ended the game (on time, by forfeit): play stops."""
        self.continuous = False
        self.changed()

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

    def human_played(self, color: int) -> None:
        """A human's move is on the board: the teacher judges it when it teaches that side."""
        self.teacher.played(self.game, color)

    def take_back(self) -> bool:
        """The teacher takes back the last move (as undo does)."""
        return self.moves.undo()

    def restarted(self, game: Game) -> None:
        """The game on the board was replaced by the record's: its end as the record says."""
        self.referee.reopen(game)
        self.changed()

    def arrived(self) -> None:
        """The board shows another node: the AI waits (one move at a time), the clock follows."""
        self.referee.reopen(self.game)
        self.continuous = False
        self.steps = 0
        self.message = ""
        self.referee.follow_turn()
        self.changed()

    def _keep_review(self, tree: GameTree) -> None:
        """Write the review into a record about to be saved (a snapshot): values and report."""
        names = {BLACK: tree.info.black_name, WHITE: tree.info.white_name}
        review_file.annotate(tree, self.review.cache, names)

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
            self.values.finish(task, self.game.size)
        done = self.review.poll()
        if done is not None:
            self.say(done)
            self.autosave_now()  # the review goes into the autosaved record
        if self.review.version != self._review_seen:
            self._review_seen = self.review.version
            self.version += 1
        task = self.workers.finished("dead")
        if task is not None:
            self.dead.finish(task, self.game)
        self.teacher.tick(self.game)
        self.ponder.poll()
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

    def _start_work(self) -> None:
        game = self.game
        if self.ended is not None:
            pass
        elif game.over:
            if self.recorded_result() is not None:
                pass  # the record's result stands until the user counts again: no estimate
            elif self.dead.due(game) and self.kernels_ready(self.dead.group(game)):
                self.dead.start(game)  # else poll() asks again every frame
        elif self.workers.thinking or self.turn.wants_to_move():
            self._ai_turn()
            return
        key = self.position_key()
        if self.ponder.due(game, key) and self.kernels_ready("net"):
            self.ponder.start(game, key)  # no AI is to move: the net thinks on the position shown

    def _ai_turn(self) -> None:
        """An AI has the move: the analysis of the position stops and the AI waits for its last
        batch; the reply waits for a judgement that may take the human's move back."""
        if self.ponder.running or self.ponder.winding_down():
            self.ponder.stop(wait=0.5)  # one batch: the AI starts in this frame
        if self.ponder.winding_down() or self.teacher.holding():
            return
        agent = self.turn.due()
        if agent is not None:
            self.turn.start(agent)

    def reset(self) -> None:
        """A new game with the same size, rules, komi, handicap and players. The record's names
        and other properties (PB, PW, EV, ranks, date, result) go with the old game, which undo
        (u) brings back until the new game changes (the window asks before a reset of a game
        with moves)."""
        self.stop_work()
        size, ruleset, komi, handicap = self.record.start_settings
        points = self.record.handicap_points
        if points:
            game = Game(size, ruleset, komi)
            game.set_handicap(points)
        else:
            game = Game.new(size, ruleset, komi, handicap)
        self.seats.name_game(game.info)  # the players' own names, none of the old record's
        old = self.record.keep()
        self.seats.new_game()
        self.teacher.new_game()
        self._begin(game, points)
        kept = self.record.kept_for_undo(old)
        self.say("New game (u brings the last one back)" if kept else "New game")

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
        self.seats.take(seats)
        self.teacher.new_game()
        self.teacher.teach(ng.teach)
        self.handicap_to_place = ng.handicap if by_hand else 0
        seats.name_game(game.info)
        self.clocks.time_control = ng.clock
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
        self.referee.new_clock()
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
        review_file.adopt(self.review, tree)  # the record's own review shows at once
        self.seats.new_game()
        self.referee.new_clock()
        self.referee.restore_clock(text)
        self.referee.adopt_result(game)
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
        self.teacher.close()
        self.seats.close()
        self.files.close()
        if self.compiler is not None:
            self.compiler.close()
