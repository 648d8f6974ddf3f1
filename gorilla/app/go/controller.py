"""The Go game controller: the shared facade (:class:`gorilla.app.facade.Facade`) over Go's kind,
with the parts only Go has.

The window (or the terminal front end) turns input into requests (``click``, ``pass_turn``,
``undo``, ``reset``, ``advance`` ...) and draws what the controller shows
(:class:`gorilla.app.table.Table`). The parts every game has (``record``, ``moves``, ``turn``,
``referee`` and ``clocks``, ``values``, ``analysis``, ``files``, ``seats``, ``feed``,
``workers``) are the facade's; Go adds, each one :class:`gorilla.app.parts.Part` line a name:

- ``variations`` (:mod:`gorilla.app.go.variations`): the game tree's variations and branches, a
  reset taken back, the game info that replays the record; ``setup``
  (:mod:`gorilla.app.go.setup`): the set-up mode; ``handicap``
  (:mod:`gorilla.app.go.handicap`): free handicap stones put by hand;
- ``dead`` (:mod:`gorilla.app.go.dead_stones`): the dead stones at the end; ``overlays``
  (``c``, ``o``, ``f``); ``teacher`` (:mod:`gorilla.app.go.teaching`: the teaching game);
  ``ponder`` (:mod:`gorilla.app.go.ponder`: the analysis of the position shown while ``v`` is on).

The controller itself makes these parts, starts new games and resets, and ties its own parts
into the facade's frame tick (``_tick``) and changes (``_forget``). No pyglet here.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from gorilla.ai.agent import Agent
from gorilla.ai.warmup import groups_for
from gorilla.app.clock import TimeControl
from gorilla.app.compiler import Compiler
from gorilla.app.facade import Facade
from gorilla.app.files import reason
from gorilla.app.go import review_file
from gorilla.app.go.dead_stones import DeadStones
from gorilla.app.go.handicap import Handicap
from gorilla.app.go.kind import GoKind
from gorilla.app.go.overlays import Overlays
from gorilla.app.go.panel import go_status_lines
from gorilla.app.go.players import go_players, name_game
from gorilla.app.go.ponder import Ponder, PonderView
from gorilla.app.go.review import engine_for as review_engine
from gorilla.app.go.setup import Setup
from gorilla.app.go.teaching import Marks, Teacher, TeachSettings, position_key
from gorilla.app.go.tree_book import TreeBook
from gorilla.app.go.variations import Variations
from gorilla.app.kind import Loaded
from gorilla.app.parts import hands
from gorilla.app.referee import COLOR_NAME
from gorilla.rules.board import BLACK, WHITE
from gorilla.rules.game import Game
from gorilla.rules.gametree import GameTree
from gorilla.rules.position import IllegalMove
from gorilla.rules.scoring import Score

__all__ = ["COLOR_NAME", "Controller"]


@hands(  # the record's own parts: the tree, the set-up mode, free handicap stones
    variations="tree go_to_node switch_variation promote_variation delete_branch branch_summary"
    " set_record_info",
    setup="toggle_setup setup_click setup_side_to_move",
    handicap="handicap_to_place",
)
@hands(  # the evaluator's settings, the dead stones, the board's maps, the teaching game
    valuer="eval_games eval_turns eval_engine eval_enabled",
    dead="dead_estimated estimating",
    overlays="control_map ownership_map policy_map show_ownership show_policy toggle_ownership toggle_policy",
    teacher="teach",
)
class Controller(Facade):
    """Owns a Go game through its parts (see the module docstring and :mod:`gorilla.app.facade`
    for the threading rules). A :class:`gorilla.app.table.Table`."""

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
        eval_engine: str | None = None,
        continuous: bool = False,
        compiler: Compiler | None = None,
        clock: TimeControl | None = None,
        now: Callable[[], float] = time.monotonic,
        tree: GameTree | None = None,
        teach: str = "off",
        teaching: TeachSettings | None = None,
    ) -> None:
        kind = GoKind(threads, eval_engine, eval_games, eval_turns)
        book = TreeBook(game, tree) if tree is not None else None
        options = {"autosave": autosave, "continuous": continuous, "compiler": compiler, "clock": clock}
        super().__init__(kind, game, black, white, book=book, now=now, **options)
        self.threads = kind.threads
        self.valuer = self.values.valuer  # the evaluator's settings (G, T, its engine)
        self.variations = Variations(self.record, self)
        self.setup = Setup(self.record, self)
        self.handicap = Handicap(self.record, self.seats, self.feed, self.changed)
        self.dead = DeadStones(self.workers, self.feed, self._dead_marked)
        self.overlays = Overlays(self.kernels_ready, self.feed, lambda: (self.game, self.workers.gen))
        self.review = kind.review  # the whole-game analysis (g) the window draws
        review_file.adopt(self.review, self.book.tree)  # a record's own review (SBKV, SBKS)
        self.teacher = Teacher(
            (self.record, self.seats, self.workers, self.feed), self, self.kernels_ready, teaching
        )
        self.teacher.teach(teach)
        self.ponder = Ponder(self.workers, self.feed, self.threads)
        self._key: tuple[tuple[int, int], Any] = ((-1, -1), None)  # (generation, moves), the key
        name_game(self.seats, game.info)
        self.referee.adopt_result(game)
        kind.tell_clock(self.agents, self.time_control)

    @property
    def book(self) -> TreeBook:
        """The record's tree (Go's book)."""
        return self.record.book  # type: ignore[return-value]

    def recorded_result(self) -> str | None:
        """The record's own result (RE) while the board shows the main line's end it was given
        for (:meth:`TreeBook.recorded_result`), else None."""
        return self.book.recorded_result()

    # --- what the window reads ------------------------------------------------------------------
    def status_lines(self) -> list[str]:
        """The panel's text (:func:`gorilla.app.go.panel.go_status_lines`)."""
        return go_status_lines(self)

    def _choices(self) -> dict[str, Any]:
        """Go's rows of the new-game form: komi, handicap, the teaching game."""
        game = self.game
        return {"komi": f"{game.komi:g}", "handicap": game.handicap, "teach": self.teacher.choice()}

    def analysis_graph(self) -> None:
        """None: Go's graph reads ``review`` (:func:`gorilla.gui.graph.graph_data`)."""
        return None

    def analysis_dots(self) -> list[tuple[int, float]]:
        """[]: Go's dots read ``review`` (:func:`gorilla.gui.scene.build_scene`)."""
        return []

    def analysis_best(self) -> None:
        """None: Go's best move comes from ``review`` (:func:`gorilla.gui.pv.review_best`)."""
        return None

    def game_report(self) -> Any:
        """The game report of the line on the board (F3), or None while none of it is analysed."""
        return self.review.game_report(self.game)

    def teaching_marks(self) -> Marks | None:
        """The teaching's dots and ghost at the position on the board (:meth:`Teacher.marks`)."""
        return self.teacher.marks(self.version)

    def ponder_view(self) -> PonderView | None:
        """The analysis of the position on the board while ``v`` is on (:mod:`gorilla.app.go.ponder`)."""
        return self.ponder.shown(self.position_key())

    def position_key(self) -> Any:
        """The review's key of the position on the board (kept until the game changes)."""
        at = (self.workers.gen, len(self.game.moves))
        if self._key[0] != at:
            self._key = (at, position_key(self.game))
        return self._key[1]

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

    @property
    def ai_to_move(self) -> bool:
        """Whether the game goes on and an AI has the move."""
        return not self.over and self.agents[self.game.to_move] is not None

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

    # --- a click, and what Go's own parts take first ----------------------------------------------
    def click(self, point: int) -> bool:
        """Left click on a point: in set-up mode a black stone, a free handicap stone, a dead group
        at the end, else the shared click (a move, or the next move between two AIs)."""
        if self.editing:
            return self.setup.setup_click(point, BLACK)
        if self.handicap.handicap_to_place:
            return self.handicap.place(point)
        game = self.game
        if self.over and game.over and game.end_reason == "passes" and game.position.on_board(point):
            return self.toggle_dead(point)
        return self.moves.click(point)

    def toggle_dead(self, point: int) -> bool:
        """Mark the group at point dead, or alive again if it was dead (after two passes): the
        count is the result from then on, not the record's."""
        if not self.dead.toggle(self.game, point):
            return False
        self.book.rescored(self.game)
        return True

    def _dead_marked(self) -> None:
        """The dead stones changed (the estimate, the user's marking): the record's result
        follows them, and the autosave."""
        self.record.sync()
        self.autosave_now()

    # --- what the parts ask -----------------------------------------------------------------------
    def _forget(self) -> None:
        """After any change: the dead-stone estimate is stale."""
        self.dead.dead_estimated = False

    def human_played(self, color: int) -> None:
        """A human's move is on the board: the teacher judges it when it teaches that side."""
        self.teacher.played(self.game, color)

    def take_back(self) -> bool:
        """The teacher takes back the last move (as undo does)."""
        return self.moves.undo()

    def put_back(self) -> bool:
        """Undo right after a deleted branch, a set-up or a reset: that comes back."""
        if self.variations.restore_branch() or self.setup.restore_record():
            return True
        if self.variations.restore_reset():
            self.seats.new_game()  # the agents drop what they kept of the game after the reset
            return True
        return False

    def restarted(self, game: Game) -> None:
        """The game on the board was replaced by the record's: its end as the record says."""
        self.referee.reopen(game)
        self.changed()

    # --- the frame tick -----------------------------------------------------------------------
    def _tick(self) -> None:
        """The dead-stone estimate, the teacher's judgements, the analysis of the position shown."""
        task = self.workers.finished("dead")
        if task is not None:
            self.dead.finish(task, self.game)
        self.teacher.tick(self.game)
        self.ponder.poll()

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

    # --- new games -----------------------------------------------------------------------------
    def reset(self) -> None:
        """A new game with the same size, rules, komi, handicap and players. The record's names
        and other properties (PB, PW, EV, ranks, date, result) go with the old game, which undo
        (u) brings back until the new game changes (the window asks before a reset of a game
        with moves)."""
        self.stop_work()
        size, ruleset, komi, handicap = self.book.start_settings
        points = self.book.handicap_points
        if points:
            game = Game(size, ruleset, komi)
            game.set_handicap(points)
        else:
            game = Game.new(size, ruleset, komi, handicap)
        name_game(self.seats, game.info)  # the players' own names, none of the old record's
        old = self.variations.keep()
        self.seats.new_game()
        self.teacher.new_game()
        self._start(game, points)
        kept = self.variations.kept_for_undo(old)
        self.say("New game (u brings the last one back)" if kept else "New game")

    def new_game(self, ng: Any) -> bool:
        """Start the game a new-game form made (gorilla.app.newgame.NewGame): size, rules, komi,
        handicap, players, clock. A player that cannot be made is one message; nothing changes."""
        try:
            seats = go_players(ng.black, ng.white, self.threads)
        except (ValueError, ImportError, TypeError) as e:
            self.say(f"Cannot start that game: {reason(e)}")
            return False
        try:
            game = self.kind.new_game(ng)
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
        name_game(seats, game.info)
        self.clocks.time_control = ng.clock
        self.continuous = False
        self._ensure_compiling()
        self._start(game, points)
        self.say(
            f"New game: {game.size}x{game.size}, Black {self.players[BLACK]}, White {self.players[WHITE]}"
            + (f"; Black: place {ng.handicap} handicap stones" if by_hand else "")
        )
        return True

    def _start(self, game: Game, handicap_points: list[int] | None) -> None:
        """game on the board, a new one (reset, new game), with its handicap stones."""
        self.book.started(game, handicap_points)
        self._begin(game)

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

    def _adopting(self, loaded: Loaded) -> None:
        """A record read: the analysis stops (its results stay: they belong to the lines they
        analysed) and the record's own review shows at once; nothing deleted is put back any more."""
        self.review.cancel()
        review_file.adopt(self.review, loaded.book.tree)
        self.variations.forget()

    def _close(self) -> None:
        self.teacher.close()
