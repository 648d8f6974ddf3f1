"""The Gomoku game controller: the shared facade (:class:`gorilla.app.facade.Facade`) over
Gomoku's kind (:class:`gorilla.app.gomoku.kind.GomokuKind`), with the parts only Gomoku has.

The window only calls requests (``click``, ``undo``, ``advance``, ``evaluate``, ...) and draws
``game`` (a :class:`gorilla.app.gomoku.view.GomokuView`), ``progress`` (the search's candidates
and principal variation while it thinks), ``evaluation`` (``e``: the value of every move) and
``control_map()`` (``c``: the threat map). The parts every game has are the facade's, the same
classes as Go's: the record (its book :class:`gorilla.app.gomoku.book.GomokuBook`), moves, the
AI's turn, the referee over Go's clocks (the same ``--clock`` notation: an AI thinks its seconds
a move or what its clock affords when that is less, and a fallen flag loses, ``W+T``), the
values, the analysis (its reviewer :class:`gorilla.app.gomoku.reviewer.GomokuReview`, the
controller's ``game_review``) and the files. Gomoku adds, each one
:class:`gorilla.app.parts.Part` line a name:

- ``opening`` (:class:`gorilla.app.gomoku.swap2.Swap2`): the Swap2 opening, who acts in it
  (``acting``), its pass and two more stones, the AI's answers, the players' seats;
- ``threats`` (:class:`gorilla.app.gomoku.values.Threats`): the threat map, renju's forbidden
  points, the winning five.

A player ``pbrain:COMMAND`` is an external Gomocup engine
(:class:`gorilla.app.gomoku.pbrain_player.PbrainAgent`): its moves are played through Gorilla's rules,
and an illegal move, a crash or a time-out forfeits the game (``B+F``) with one message. Ctrl+S
saves SGF ``GM[4]`` (or Piskvork's record, to a name ending in ``.psq``); the autosave writes
beside Go's (``autosave-gomoku.sgf``): ``gorilla --game gomoku --resume`` plays on from it.

On an empty cache the window starts the game as soon as the rules are compiled and hands the
controller its :class:`gorilla.app.compiler.Compiler` (``compiler``), which goes on compiling
the built-in agents' parts in a child process: a human plays meanwhile, and an AI's first move
(and its clock) waits until its parts are loaded, as in Go.
"""

from __future__ import annotations

from typing import Any

from gorilla.ai import warmup
from gorilla.app.clock import NO_CLOCK, TimeControl
from gorilla.app.facade import Facade
from gorilla.app.gomoku.book import GomokuBook
from gorilla.app.gomoku.kind import GomokuKind
from gorilla.app.gomoku.panel import gomoku_status_lines
from gorilla.app.gomoku.players import builtin_agents, gomoku_players
from gorilla.app.gomoku.reviewer import Curve
from gorilla.app.gomoku.values import Threats
from gorilla.app.gomoku.view import GomokuView
from gorilla.app.kind import Loaded
from gorilla.app.parts import hands
from gorilla.app.table import NeutralTable
from gorilla.gomoku import rules as R
from gorilla.gomoku import sgf
from gorilla.gomoku.agents import engine_groups, ready_engine
from gorilla.gomoku.game import GomokuGame


@hands(
    opening="pass_turn two_more offers",
    threats="control_map forbidden_points winning_line",
)
class GomokuController(Facade, NeutralTable):
    """Owns a Gomoku game; a :class:`gorilla.app.table.Table` (see the module docstring). What
    it lacks of Go's (captures, variations, set-up, ownership, the move model) answers as
    :class:`gorilla.app.table.NeutralTable` does: the request says so."""

    NO_COMMANDS = frozenset({"pass"})  # no passing in Gomoku (but a Swap2 choice): Pass is dimmed

    def __init__(
        self,
        game: GomokuGame,
        black: str = "human",
        white: str = "human",
        *,
        continuous: bool = False,
        autosave: str | None = None,
        clock: TimeControl | None = None,
        now: Any = None,
        compiler: Any = None,
    ) -> None:
        kind = GomokuKind(lambda: self.players, self._search_ready)
        options = {"autosave": autosave, "continuous": continuous, "compiler": compiler, "clock": clock}
        super().__init__(kind, GomokuView(game), black, white, now=now, show_thinking=True, **options)
        self.game_review = kind.review  # g: the whole game's analysis (its notes follow its line)
        self.threats = Threats(lambda: self.game, lambda: self.over)
        self.show_eval = True

    @property
    def gomoku(self) -> GomokuGame:
        """The Gomoku game on the board (its rules' own record)."""
        return self.game.gomoku

    def status_lines(self) -> list[str]:
        """The panel's text (:func:`gorilla.app.gomoku.panel.gomoku_status_lines`)."""
        return gomoku_status_lines(self)

    def _choices(self) -> dict[str, Any]:
        """Gomoku's rows of the new-game form: no komi or handicap, its opening."""
        return {"komi": "0", "handicap": 0, "opening": self.gomoku.opening}

    # --- the analysis on the board (g, d): its reviewer's, in the window's points ----------------
    def analysis_graph(self) -> Curve:
        """The analysis graph's values (the window draws them as Go's)."""
        return self.game_review.graph(self.game)

    def analysis_dots(self) -> list[tuple[int, float]]:
        """(window point, win rate lost) of each analysed stone on the board shown, while the
        dots are on (d)."""
        return self.game_review.dots_on(self.game)

    def analysis_best(self) -> int | None:
        """The analysis's best move (window point) in the position shown, while the dots are on."""
        return self.game_review.best_on(self.game)

    # --- kernels ---------------------------------------------------------------------------------
    def _search_ready(self) -> bool:
        """Whether the search's kernels (``pvs+vct``'s) can run at once: loaded here by the
        compiler, or in the on-disk cache. A game between two humans on a first start has only
        the rules: its e shows the one-ply values rather than compile for a minute."""
        groups = engine_groups(["pvs+vct"])
        c = self.compiler
        if c is not None and all(g in c.groups for g in groups):
            return all(c.ready(g) for g in groups)
        return all(warmup.is_warm(g) for g in groups)

    def kernels_ready(self, *groups: str) -> bool:
        """Whether the kernel groups can run now: loaded by the compiler, or by the game's start
        (a group the compiler does not cover was loaded before it)."""
        c = self.compiler
        return c is None or all(c.ready(g) for g in groups if g in c.groups)

    def use_compiler(self, compiler: Any) -> None:
        """The compiler that makes this game's agents ready (None: they are loaded); one that
        compiled for an earlier game is stopped."""
        old = self.compiler
        if old is not None and old is not compiler:
            old.close()
        self.compiler = compiler

    # --- new games and records ---------------------------------------------------------------------
    def reset(self) -> None:
        """A new game with the same players (at the form's seats), rule, size and opening."""
        self.stop_work()
        self.opening.form_seats()
        g = self.gomoku
        self.seats.new_game()
        self._fresh(GomokuView(GomokuGame(g.size, g.rule, g.opening)))
        self.say("New game")

    def new_game(self, ng: Any) -> bool:
        """A new Gomoku game from the new-game form's choices (size, rule, players, clock, opening),
        then the record of ``ng.load`` when there is one (a bad file is one message)."""
        try:
            game = self.kind.new_game(ng)
            seats = gomoku_players(ng.black, ng.white)
        except ValueError as e:
            self.say(str(e))
            return False
        self.stop_work()
        self.seats.take(seats)
        self.clocks.time_control = getattr(ng, "clock", None) or NO_CLOCK
        self._fresh(game)
        how = ", Swap2 opening" if self.gomoku.opening == "swap2" else ""
        self.say(f"New game: {game.size}x{game.size} Gomoku, {R.RULE_NAMES[self.gomoku.rule]}{how}")
        path = getattr(ng, "load", None)  # a record asked for on the command line
        if path:
            self.load(path)
        return True

    def _fresh(self, view: GomokuView) -> None:
        """view on the board with a record of its own; the analysis of the last game goes."""
        self.game_review.forget()
        self._begin(view, GomokuBook())

    def record_text(self) -> str:
        """The game as its SGF record (GM[4]) (:meth:`gorilla.app.gomoku.kind.GomokuKind.sgf_text`)."""
        return self.kind.sgf_text(self.record, self.clocks.sgf_timing)

    def load_record(self, record: sgf.Record, path: str = "") -> None:
        """Play on from a record read (same players, at the form's seats). A record that ended by
        resignation, time or forfeit (RE) is over; one on the clock (TM/OT) brings its time
        control and the time left after its moves (BL/WL), as Go's records do."""
        self.adopt(self.kind.loaded(record))
        ended = f" ({self.game.result})" if self.over else ""
        self.say(f"Loaded {path or 'the record'}{ended}")

    def load_game(self, game: GomokuGame) -> None:
        """Play on from game (same players, at the form's seats), with no record of its own."""
        self.adopt(Loaded(GomokuView(game), GomokuBook()))

    def _adopting(self, loaded: Loaded) -> None:
        """The players go back to the form's seats; in a Swap2 game the form's Black player is the
        opener, so it plays White where the opener chose White. The last analysis goes."""
        self.opening.form_seats()
        g = loaded.game.gomoku
        if g.opening == "swap2" and not g.first_player_black:
            self.opening.swap_seats()
        self.game_review.forget()


def gomoku_controller(
    size: int = 15,
    rule: str = "freestyle",
    black: str = "human",
    white: str = "human",
    opening: str = "free",
    **kw: Any,
) -> GomokuController:
    """A controller over a new game (opening: free or swap2); compiles (or loads) its players'
    kernels first."""
    ready_engine(builtin_agents([black, white]))
    return GomokuController(GomokuGame(size, rule, opening), black, white, **kw)
