"""The Gomoku game in the window: the controller interface the window uses, over a GomokuGame.

The window only calls requests (``click``, ``undo``, ``advance``, ``evaluate``, ...) and
draws ``game`` (a :class:`gorilla.app.gomoku_view.GomokuView`), ``progress`` (the search's
candidates and principal variation while it thinks), ``evaluation`` (``e``: the value of
every move) and ``control_map()`` (``c``: the threat map, which points make fours and
threes for whom). Legality and fives come from :mod:`gorilla.gomoku`.

As in the Go controller, an AI move and an evaluation run on a worker thread
(:class:`gorilla.app.tasks.Task`) against a copy of the game, and their results are
applied in :meth:`GomokuController.poll` on the GUI thread only if still current.

The clocks are Go's (:class:`gorilla.app.clocks.Clocks`, the same ``--clock`` notation): an
AI thinks its seconds a move or what its clock affords when that is less, and a fallen flag
loses (``W+T``). In a Swap2 opening the clock of the player who acts (``acting``) runs from
the opener's third stone, and each player's clock goes with it when it changes colour. A
player ``pbrain:COMMAND`` is an external Gomocup engine
(:class:`gorilla.app.pbrain_player.PbrainAgent`): its moves are played through Gorilla's
rules, and an illegal move, a crash or a time-out forfeits the game (``B+F``) with one message.

The record (:meth:`GomokuController.record_text`: SGF ``GM[4]`` with its result and clock) is
what Ctrl+S saves (to a name ending in ``.psq``: Piskvork's record, as Gomocup archives games)
and what the autosave thread (:class:`gorilla.app.files.Autosaver`) writes after each change,
beside Go's autosave (``autosave-gomoku.sgf``): ``gorilla --game gomoku --resume`` plays on
from it.

On an empty cache the window starts the game as soon as the rules are compiled and hands
the controller its :class:`gorilla.app.compiler.Compiler` (``compiler``), which goes on
compiling the built-in agents' parts in a child process: a human plays meanwhile, and an
AI's first move (and its clock) waits until its parts are loaded, as in Go.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterable
from typing import Any

import numpy as np

from gorilla.ai import warmup
from gorilla.ai.agent import Candidate, Progress
from gorilla.app.clock import NO_CLOCK, ClockView, TimeControl
from gorilla.app.clocks import Clocks
from gorilla.app.feed import Feed
from gorilla.app.files import Autosaver, autosave_failure, autosaver_for, reason, write_atomic
from gorilla.app.gomoku_analysis import win_rate
from gorilla.app.gomoku_eval import EVAL_SECONDS, evaluate_moves, forbidden_points, threat_map
from gorilla.app.gomoku_record import KeptRecord
from gorilla.app.gomoku_review import Curve, GomokuReview
from gorilla.app.gomoku_swap2 import ANSWERS, actor, choosing, opening, opening_answer, prompt, undo_floor
from gorilla.app.gomoku_view import GomokuView, from_view, to_view
from gorilla.app.move_values import EvaluationView
from gorilla.app.parts import Shared
from gorilla.app.pbrain_player import EngineForfeit, PbrainAgent, is_pbrain
from gorilla.app.players import Players
from gorilla.app.record_info import RecordInfo
from gorilla.app.status_text import COMMENT_SHOWN
from gorilla.app.table import NeutralTable
from gorilla.app.tasks import Task, Workers
from gorilla.gomoku import rules as R
from gorilla.gomoku import search as S
from gorilla.gomoku import sgf
from gorilla.gomoku.agents import AGENTS, GomokuAgent, engine_groups, make_agent, ready_engine
from gorilla.gomoku.game import SWAP2_CHOOSE, GomokuGame
from gorilla.match.gomoku_players import check_gomoku_spec, gomoku_label
from gorilla.rules.coords import format_vertex

COLOR_NAME = {R.BLACK: "Black", R.WHITE: "White"}
DEFAULT_SECONDS = 1.0


def parse_player(spec: str) -> tuple[str, float]:
    """('human', 0) or (agent name, seconds a move) from 'human', 'pvs', 'pvs+vct:2', 'mcts:0.5';
    (the spec, 1 s) for a Gomocup engine 'pbrain:COMMAND' whose program is found."""
    if is_pbrain(spec):
        why = check_gomoku_spec(spec)
        if why is not None:
            raise ValueError(why)
        return spec.strip(), DEFAULT_SECONDS
    name, _, secs = spec.strip().lower().partition(":")
    if name == "human":
        return "human", 0.0
    if name not in AGENTS:
        raise ValueError(f"unknown Gomoku player {spec!r} (human or one of {', '.join(AGENTS)}[:SECONDS])")
    try:
        seconds = float(secs.removeprefix("time=")) if secs else DEFAULT_SECONDS
    except ValueError:
        raise ValueError(f"bad seconds in Gomoku player {spec!r}") from None
    if not 0 < seconds <= 600:
        raise ValueError(f"seconds of Gomoku player {spec!r} must be in (0, 600]")
    return name, seconds


def builtin_agents(players: Iterable[str]) -> list[str]:
    """The built-in agents' names among the players' specs: what
    :func:`gorilla.gomoku.agents.ready_engine` readies for a game between them (a human or a
    Gomocup engine needs only the rules, which check its moves; a spec that does not parse
    needs nothing: the new game says why)."""
    agents = []
    for spec in players:
        try:
            name, _ = parse_player(spec)
        except ValueError:
            continue
        if name != "human" and not is_pbrain(name):
            agents.append(name)
    return agents


class GomokuController(Shared, NeutralTable):
    """Owns a Gomoku game; a :class:`gorilla.app.table.Table` (see the module docstring). What
    it lacks of Go's (no captures, clock, record tree, set-up, whole-game analysis, ownership,
    move model) answers as :class:`gorilla.app.table.NeutralTable` does: the request says so."""

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
        self.feed = Feed(show_thinking=True)
        self.compiler = compiler  # the agents' parts compiling in a child (None: all loaded)
        self.workers = Workers()  # the AI's search ('ai') and the evaluation ('eval')
        self._specs = {R.BLACK: black, R.WHITE: white}
        self._players = {c: parse_player(s) for c, s in self._specs.items()}
        self.seats: Players | None = None
        self.now = now  # the monotonic time the clocks read (tests inject their own)
        self.clocks = Clocks(clock or NO_CLOCK, now)  # Go's clocks (gorilla.app.clocks)
        self._set_game(game)
        self.continuous = continuous
        self.autosave = autosave  # the autosave's path (None: none); may change
        self._autosaver: Autosaver | None = None
        self.show_eval = True
        self.progress: Progress | None = None
        self.evaluation: EvaluationView | None = None
        self._redo: list[tuple[int, int]] = []
        self._forbidden: tuple[Any, list[int]] = (None, [])  # (position, its forbidden points)
        self._lock = threading.Lock()
        self._pending: Progress | None = None
        self._stepped = False  # AI vs AI: one move asked for (click or space)
        self.reviewing = False  # the board shows an earlier move (<-): the AI waits

    # --- state --------------------------------------------------------------------------------
    def _set_game(self, game: GomokuGame) -> None:
        self.reviewing = False
        self.record = KeptRecord()  # the record's names, comments, ...: a loaded one's, or typed
        if getattr(self, "game_review", None) is not None:
            self.game_review.cancel()
        self.game_review = GomokuReview()  # g: the whole game's analysis (its notes follow its line)
        self.gomoku = game
        self.game = GomokuView(game)
        if self.seats is not None:
            self.seats.close()  # a Gomocup engine ends; the built-in agents have nothing to end
        self.seats = Players(
            {c: _make_agent(n) for c, (n, _) in self._players.items()},
            {c: _player_label(n, secs) for c, (n, secs) in self._players.items()},
            self._specs,
        )
        self.clocks.new()

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.game.over

    def offers(self, command: str) -> bool:
        """Every command but pass; pass and two_more while a human's Swap2 choice asks for them."""
        if command not in ("pass", "two_more"):
            return True
        human_choice = self._opening(choice=True) and self.is_human(self.acting)
        return human_choice and (command == "pass" or self.gomoku.swap2_phase == SWAP2_CHOOSE)

    def _opening(self, choice: bool = False) -> bool:
        """Whether a Swap2 opening goes on (choice: and a player chooses its colour now)."""
        g = self.gomoku
        return opening(g) and (choosing(g) or not choice) and not self.over

    def _human_at(self, moves: int) -> bool:
        """Whether a human has the move after the first moves stones (colours alternate)."""
        return self.is_human(R.BLACK if moves % 2 == 0 else R.WHITE)

    @property
    def acting(self) -> int:
        """The seat whose player acts now: the side to move, or the Swap2 opening's actor."""
        return actor(self.gomoku) if opening(self.gomoku) else self.gomoku.to_move

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

    def _groups(self, color: int) -> list[str]:
        """The kernel groups color's player needs (a human's or a Gomocup engine's: the rules)."""
        return engine_groups(builtin_agents([self._specs[color]]))

    def _agent_waits(self, color: int) -> bool:
        """True while the parts of color's built-in agent are still compiling: its clock does
        not run (loading the engine costs the AI no time) and the panel shows the compile."""
        if self.kernels_ready(*self._groups(color)):
            return False
        self.clocks.hold(color)
        c = self.compiler
        if c is not None and c.error and c.error != self.message:
            self.say(c.error)  # the panel shows the compile's progress (status_lines)
        return True

    def new_game_choices(self) -> dict[str, Any]:
        """The new-game form's rows for this game."""
        g = self.game
        return {
            "size": g.size,
            "rules": g.ruleset.name,
            "komi": "0",
            "handicap": 0,
            "black": self._specs[R.BLACK],
            "white": self._specs[R.WHITE],
            "clock": self.clocks.time_control.spec(),
            "opening": self.gomoku.opening,
        }

    # --- the game loop ----------------------------------------------------------------------
    def _changed(self) -> None:
        self.workers.gen += 1
        self.evaluation = None
        self.progress = None
        self.version += 1
        self._autosave_now()

    def _cancel(self) -> None:
        self.workers.cancel_all()  # cancelled searches winding down share the agent's tables
        for agent in self.agents.values():
            if agent is not None:
                agent.stop()

    def _played(self, p: int, color: int, seat: int | None = None) -> None:
        """After color's stone at p; seat: the player who put it when it was a Swap2 opening's
        stone (its clock is pressed when its turn ends: after its three or two stones)."""
        self.emit("stone", move=len(self.gomoku.moves))
        if seat is None:
            self.clocks.pressed(color, self.gomoku)
        elif self.acting != seat:
            self.clocks.pressed(seat, self.gomoku, record=False)
        if self.gomoku.over:
            self.emit("game_end", result=self.game.result)
            r = self.gomoku.result
            assert r is not None
            self.message = (
                f"{COLOR_NAME[r.winner]} wins with five in a row" if r.winner else "Draw: the board is full"
            )

    def poll(self) -> None:
        """Apply finished work (on the GUI thread) and start the AI when it is its turn."""
        with self._lock:
            if self._pending is not None:
                self.progress, self._pending = self._pending, None
                self.version += 1
        task = self.workers.finished("ai")
        if task is not None:
            self._finish_ai(task)
        done = self.game_review.poll()
        if done is not None:
            self.say(done)
        task = self.workers.finished("eval")
        if task is not None and task.error is None and task.gen == self.workers.gen:
            self.evaluation = EvaluationView(task.result, None, len(self.gomoku.moves), "win rate")
            best = task.result.best
            what = f"the {len(task.result.values)} best candidates" if task.result.pvs else "every move"
            self.say(f"Evaluated {what}" + ("" if best is None else f": best {self._name(best)}"))
        self.workers.prune()
        self._watch_clock()
        self._check_autosave()
        ai_turn = not self.over and not self.reviewing and not self.is_human(self.acting)
        stepped = not self.ai_vs_ai or self.continuous or self._stepped
        if ai_turn and stepped and not self.thinking and not self.workers.retired:
            if self._agent_waits(self.acting):
                return
            self._stepped = False
            self._start_ai()

    # --- whole-game analysis (g, n) ------------------------------------------------------------
    def toggle_analysis(self) -> None:
        """Analyse every move of the game (g; again: cancel): its notes show at each move and
        are saved with the record (:mod:`gorilla.app.gomoku_review`)."""
        rv = self.game_review
        if rv.running:
            rv.cancel()
            self.say("Cancelled the analysis")
            return
        if not self.gomoku.moves:
            self.say("No moves to analyse")
            return
        if not self._search_ready():
            self.say("The analysis waits for the search's parts (they are compiling)")
            return
        g = self._whole_game()
        black, white = self.record.players(self.players)
        rv.start(g, {R.BLACK: black, R.WHITE: white})
        self.say(f"Analysing the game ({rv.seconds:g} s a position; g cancels)")

    def _whole_moves(self) -> list[int]:
        """The whole game's points, with the moves taken back while moving through it."""
        return [p for p, _ in self.gomoku.moves] + [p for p, _ in reversed(self._redo)]

    def analysis_graph(self) -> Curve:
        """The analysis graph's values (the window draws them as Go's)."""
        return self.game_review.curve(self.gomoku, self._whole_moves())

    def analysis_dots(self) -> list[tuple[int, float]]:
        """(window point, win rate lost) of each analysed stone on the board shown, while the
        dots are on (d)."""
        rv, g = self.game_review, self.gomoku
        if not rv.show_dots:
            return []
        return [(to_view(g, p), lost) for p, lost in rv.dots(self._whole_moves(), len(g.moves))]

    def analysis_best(self) -> int | None:
        """The analysis's best move (window point) in the position shown, while the dots are on."""
        rv, g = self.game_review, self.gomoku
        best = rv.best(self._whole_moves(), len(g.moves)) if rv.show_dots else None
        return None if best is None else to_view(g, best)

    def toggle_mistake_dots(self) -> None:
        """Show or hide the analysed stones' dots and the best move's ring (d)."""
        self.game_review.show_dots = not self.game_review.show_dots
        self.version += 1

    def cycle_mistake_threshold(self) -> None:
        """The next win rate lost from which n stops and the graph marks a move (Alt+n)."""
        t = self.game_review.cycle_threshold()
        self.say(f"Mistakes: {100 * t:g}+% win rate lost")
        self.version += 1

    def next_mistake(self, step: int = 1) -> bool:
        """Show the next (step 1) or previous (-1) analysed move that lost the threshold or more
        (n, Shift+n)."""
        g = self.gomoku
        r = self.game_review.next_mistake(self._whole_moves(), len(g.moves), step)
        if r is None:
            way = "after" if step > 0 else "before"
            t = 100 * self.game_review.threshold
            self.say(f"No analysed move losing {t:g}%+ {way} this move (g analyses the game)")
            return False
        self.goto_move(r.number)
        best = self._name(to_view(g, r.best))
        self.say(f"Move {r.number}: lost {100 * r.lost:.0f}% ({r.grade}), best {best}")
        return True

    def _name(self, q: int) -> str:
        g = self.gomoku
        return format_vertex(q, g.size, self.column_letters) if from_view(g, q) is not None else "?"

    def _start_ai(self) -> None:
        if self._opening():
            self._start_swap2()
            return
        color = self.gomoku.to_move
        agent = self.agents[color]
        assert agent is not None
        seconds = self._players[color][1]
        seconds = self.clocks.share(seconds, color) or seconds  # what the clock affords
        if isinstance(agent, PbrainAgent):
            agent.time_left = self.clocks.to_lose(color) if self.clocks.enabled else None
        snapshot = self.gomoku.copy()
        t0 = time.monotonic()
        view_game = self.gomoku

        def on_depth(r: S.SearchResult) -> None:
            pv = [to_view(view_game, m) for m in r.pv]
            wr = win_rate(r.score)
            cands = [Candidate(pv[0], max(1, r.nodes), wr, float(r.score), pv=pv)] if pv else []
            prog = Progress(pv[0] if pv else -1, wr, r.nodes, min(1.0, (time.monotonic() - t0) / seconds))
            prog.candidates = cands + self._threat_candidates(snapshot, pv[:1], r.nodes)
            prog.elapsed = time.monotonic() - t0
            with self._lock:
                self._pending = prog

        def run(cancel: threading.Event) -> int:
            return agent.select(snapshot, seconds, on_depth).move

        self.workers.launch(self.workers.task("ai", run, color=color))
        self.version += 1

    @staticmethod
    def _threat_candidates(game: GomokuGame, skip: list[int], nodes: int) -> list[Candidate]:
        """The next points in the search's own order (threat scores of both sides) for the live view."""
        bd = game.bd
        c = game.to_move
        pts = [p for p in game.empty_points() if bd[5][p] > 0]
        pts.sort(key=lambda p: -(int(bd[4][c, p]) + int(bd[4][3 - c, p])))
        out = []
        for k, p in enumerate(pts[:8]):
            q = to_view(game, p)
            if q not in skip:
                out.append(Candidate(q, max(1, nodes // (k + 2)), 0.5))
        return out[:6]

    def _finish_ai(self, task: Task) -> None:
        if not self.workers.fresh(task):
            return
        if task.data.get("swap2") and task.error is None:
            self._finish_swap2(task)
            return
        color = task.data["color"]
        agent = self.agents[color]
        name = COLOR_NAME[color] + (f" ({agent.label})" if isinstance(agent, PbrainAgent) else "")
        if task.error is not None:
            if isinstance(task.error, EngineForfeit):
                self._lose(color, "F", f"{COLOR_NAME[color]} forfeits: {task.error}")
            else:
                self.say(f"The AI failed: {task.error}")
            return
        if self._flag_fell(color):
            return
        p = int(task.result)
        try:
            self.gomoku.play(p, color)
        except ValueError as e:
            if isinstance(agent, PbrainAgent):
                self._lose(color, "F", f"{name} played an illegal move ({e}) and forfeits")
            else:
                self.say(f"The AI played an illegal move ({e})")
            return
        self._redo.clear()
        self._changed()
        self._played(p, color)

    def wait(self, timeout: float | None = None) -> bool:
        """Poll until no AI or evaluation runs and none is due (tests, the terminal); False on timeout."""
        end = None if timeout is None else time.monotonic() + timeout
        while True:
            self.poll()
            ai_due = not self.over and not self.reviewing and not self.is_human(self.acting)
            due = ai_due and not self.ai_vs_ai
            if not self.workers.slots and not self.workers.retired and not due:
                return True
            if end is not None and time.monotonic() > end:
                return False
            time.sleep(0.01)

    # --- requests -------------------------------------------------------------------------------
    def click(self, q: int) -> bool:
        """A click on window point q: the human's move (AI vs AI: the next AI move)."""
        if self.ai_vs_ai:
            self.advance()
            return False
        return self.play(q)

    def play(self, q: int) -> bool:
        """The human to move plays window point q; False (and a message) if not allowed. In a
        Swap2 opening the human whose turn it is puts an opening stone, or, when it chooses,
        plays White's stone (it takes White)."""
        if self.over:
            self.say("The game is over (r starts a new one)")
            return False
        seat, color = self.acting, self.gomoku.to_move
        if not self.is_human(seat) and not self.kernels_ready(*self._groups(seat)):
            self.say(f"{COLOR_NAME[seat]} ({self.players[seat]}) moves once its engine is compiled")
            return False
        if not self.is_human(seat) or self.thinking:
            self.say("Wait for the AI's move")
            return False
        if self._flag_fell(seat):
            return False
        why = self.game.check(q)
        if why is not None:
            self.say(f"Illegal move: {why}")
            self.emit("illegal")
            return False
        p = from_view(self.gomoku, q)
        assert p is not None
        self._cancel()
        if self._opening(choice=True):
            self._choose(take_black=False)  # a stone: the chooser plays White
        put = self._opening()
        if put:
            self.gomoku.swap2_put(p)  # one of the opening's stones
        else:
            self.gomoku.play(p, color)
        self._redo.clear()
        self.reviewing = False  # a move from an earlier position: the game goes on from it
        self.message = ""
        self._changed()
        self._played(p, color, seat if put else None)
        return True

    def advance(self) -> None:
        """AI vs AI: play the next move (space or a click); reviewing an earlier move: the game
        goes on from it (the AI, if it has the move, plays)."""
        if self.reviewing:
            self._play_from_here()
            return
        if self.ai_vs_ai and not self.over and not self.thinking:
            self._stepped = True
            self.version += 1

    def set_continuous(self, on: bool) -> None:
        """AI vs AI: play on without clicks (a)."""
        self.continuous = bool(on)
        self.say("Continuous play" if on else "Stepwise: space or click for the next move")

    def pass_turn(self) -> bool:
        """There is no passing in Gomoku, but in a Swap2 choice: the human who chooses passes,
        taking Black (after three stones) or keeping it (after five); the other player moves."""
        if not self._opening(choice=True):
            self.say("There is no passing in Gomoku")
            return False
        if not self.is_human(self.acting) or self.thinking:
            self.say("Wait for the AI's choice")
            return False
        if self._flag_fell(self.acting):
            return False
        self._cancel()
        self._choose(take_black=True)
        self._changed()
        return True

    def two_more(self) -> bool:
        """Swap2, after the first three stones: the human who chooses puts two more (2)."""
        if not self._opening(choice=True) or self.gomoku.swap2_phase != SWAP2_CHOOSE:
            self.say("Two more stones: only in a Swap2 opening, after its first three")
            return False
        if not self.is_human(self.acting):
            self.say("Wait for the AI's choice")
            return False
        if self._flag_fell(self.acting):
            return False
        self.gomoku.swap2_two_more()
        self._changed()
        self.say("Swap2: put two more stones, White then Black")
        return True

    # --- Swap2 (gorilla.app.gomoku_swap2) -------------------------------------------------------
    def _choose(self, take_black: bool) -> None:
        """The chooser takes Black (a pass) or White (a stone follows): the opening ends, and the
        players change seats when the opener plays White."""
        who = self.players[actor(self.gomoku)]
        self.gomoku.swap2_choose(take_black)
        if not self.gomoku.first_player_black:
            self._swap_seats()
        colour = "Black" if take_black else "White"
        self.say(f"Swap2: {who} plays {colour}")
        if take_black:
            self.emit("pass")  # Swap2's pass sounds as Go's
            self.clocks.pressed(R.BLACK, self.gomoku, record=False)  # the pass ends its turn

    def _swap_seats(self) -> None:
        """The players exchange colours (their agents, names, specs and think times)."""
        b, w = R.BLACK, R.WHITE
        self.clocks.exchange()
        self._specs = {b: self._specs[w], w: self._specs[b]}
        self._players = {b: self._players[w], w: self._players[b]}
        seats = self.seats
        assert seats is not None
        seats.agents = {b: seats.agents[w], w: seats.agents[b]}
        seats.labels = {b: seats.labels[w], w: seats.labels[b]}
        seats.specs = {b: seats.specs[w], w: seats.specs[b]}

    def _start_swap2(self) -> None:
        """The AI whose turn it is in the opening answers on a worker thread."""
        seat = self.acting
        agent = self.agents[seat]
        assert agent is not None
        seconds = self._players[seat][1]
        seconds = self.clocks.share(seconds, seat) or seconds  # what the clock affords
        snapshot = self.gomoku.copy()
        seed = len(self.gomoku.moves) + 1

        def run(cancel: threading.Event) -> Any:
            return opening_answer(agent, snapshot, seconds, seed)

        self.workers.launch(self.workers.task("ai", run, color=seat, swap2=self.gomoku.swap2_phase))
        self.version += 1

    def _finish_swap2(self, task: Task) -> None:
        """Apply an AI's Swap2 answer: its stones, its pass, or its White stone; an answer that
        does not fit the phase, or an illegal stone, forfeits."""
        g = self.gomoku
        seat = task.data["color"]
        if not self._opening() or g.swap2_phase != task.data["swap2"]:
            return
        answer = task.result
        n = 0 if answer is None else len(answer) or -1  # 0: a pass; no stone at all is no answer
        if n not in ANSWERS.get(g.swap2_phase, ()):
            self._lose(seat, "F", f"{self.players[seat]} answered Swap2 with {n} stones and forfeits")
            return
        if answer is None:
            self._choose(take_black=True)
            self._changed()
            return
        if g.swap2_phase == SWAP2_CHOOSE and n == 2:
            g.swap2_two_more()
        elif choosing(g):
            self._choose(take_black=False)
        for x, y in answer:
            color, put = g.to_move, opening(g)
            try:
                p = g.point(x, y)
                if put:
                    g.swap2_put(p)
                else:
                    g.play(p, color)
            except ValueError as e:
                self._lose(self.acting, "F", f"{self.players[seat]}: Swap2 stone {x},{y}: {e}")
                return
            self._played(p, color, seat if put else None)
        self._redo.clear()
        self._changed()

    def resign(self) -> bool:
        """The human to move (in a Swap2 opening: whose turn it is) resigns."""
        seat = self.acting
        if self.over or not self.is_human(seat):
            return False
        self._lose(seat, "R", f"{COLOR_NAME[seat]} resigned")
        return True

    def undo(self) -> bool:
        """Take back the last move (against an AI: back to the human's turn)."""
        lost = self.game.lost
        if lost is not None and lost[1] == "T":
            self.say("The game was lost on time: start a new one")
            return False
        if lost is not None:  # a resignation or a forfeit is taken back
            self.game.lost = None
            self.clocks.follow_turn(self.acting)
            self._changed()
            return True
        if not self.gomoku.moves:
            self.say("Nothing to undo")
            return False
        n, floor = len(self.gomoku.moves), undo_floor(self.gomoku)
        if self._opening():  # the opening: a human's own stone of this phase
            target = n - 1 if n > floor else -1
        else:  # back to a human's turn, not into the opening
            target = n - 1
            while not self.ai_vs_ai and target > floor and not self._human_at(target):
                target -= 1
            if floor and not self.ai_vs_ai and not self._human_at(target):
                target = -1
        if target < 0:
            self.say("The Swap2 opening's stones and choices stay (r starts a new game)")
            return False
        self._cancel()
        self.reviewing = False
        while len(self.gomoku.moves) > target:
            self._redo.append(self.gomoku.undo())
        if self._opening():
            self._redo.clear()  # the opening's stones are put again, not redone
        self.clocks.follow_turn(self.acting)
        self._changed()
        self.say(f"Undone: move {len(self.gomoku.moves) + 1}")
        return True

    def redo(self) -> bool:
        """Play again what undo took back."""
        if self.game.lost is not None:
            self.say("The game is over")
            return False
        if not self._redo:
            self.say("Nothing to redo")
            return False
        self._cancel()
        self.reviewing = False
        while self._redo:
            p, c = self._redo.pop()
            self.gomoku.play(p, c)
            if self.is_human(self.gomoku.to_move) or self.ai_vs_ai:
                break
        if self.gomoku.over:
            self.clocks.stop()
        else:
            self.clocks.follow_turn(self.acting)
        self._changed()
        return True

    # --- moving through the game (Left/Right, Shift+Left/Right, Home/End, a numbered stone) ---
    def go_back(self, steps: int = 1) -> bool:
        """Show the position steps moves earlier (not into a Swap2 opening); the AI waits."""
        n = len(self.gomoku.moves)
        return self.goto_move(max(min(n, self.gomoku.swap2_end), n - steps))

    def go_forward(self, steps: int = 1) -> bool:
        """Show the position steps moves later, along the moves taken back."""
        return self.goto_move(len(self.gomoku.moves) + min(steps, len(self._redo)))

    def go_start(self) -> bool:
        """The first position (after a Swap2 opening's stones)."""
        return self.go_back(10**9)

    def go_end(self) -> bool:
        """The last position of the game; reaching it ends the review."""
        return self.go_forward(10**9)

    def goto_move(self, number: int) -> bool:
        """Show the position after move number (a click on a numbered stone). An earlier one is
        reviewed: the AI waits until a move is played there or space is pressed (the game
        goes on from it, the later moves dropped); the last one ends the review."""
        g = self.gomoku
        n, last = len(g.moves), len(g.moves) + len(self._redo)
        if self._opening():
            self.say("Moving through the game: after the Swap2 opening")
            return False
        if not g.swap2_end <= number <= last:
            self.say(f"No move {number} in this game (moves {g.swap2_end}-{last})")
            return False
        if number == n:
            where = "the start" if n == g.swap2_end else "the end of the game" if n == last else f"move {n}"
            self.say(f"At {where}")
            return False
        self._cancel()
        while len(g.moves) > number:
            self._redo.append(g.undo())
        while len(g.moves) < number:
            g.play(*self._redo.pop())
        self.reviewing = bool(self._redo)
        if self.clocks.clock.running:  # a game that goes on: the side to move's clock runs
            self.clocks.follow_turn(self.acting)
        self._changed()
        self.say(f"Move {number} of {last}" + (" (space: play on from here)" if self.reviewing else ""))
        return True

    def _play_from_here(self) -> None:
        """Space while reviewing: the game goes on from the position shown."""
        self._redo.clear()
        self.reviewing = False
        if not self.over and self.clocks.enabled and self.clocks.started:
            self.clocks.follow_turn(self.acting)
        self._changed()
        self.say(f"Playing on from move {len(self.gomoku.moves)}")

    def _form_seats(self) -> None:
        """The players back at the form's seats (the Swap2 opener at Black) for another game."""
        g = self.gomoku
        if g.opening == "swap2" and not g.first_player_black:
            self._swap_seats()

    def reset(self) -> None:
        """A new game with the same players, rule, size and opening."""
        self._cancel()
        g = self.gomoku
        self._form_seats()
        self._set_game(GomokuGame(g.size, g.rule, g.opening))
        for a in self.agents.values():
            if a is not None:
                a.new_game()
        self._redo.clear()
        self._changed()
        self.say("New game")

    def new_game(self, ng: Any) -> bool:
        """A new Gomoku game from the new-game form's choices (size, rule, players, clock), then
        the record of ``ng.load`` when there is one (a bad file is one message)."""
        try:
            rule = R.rule_from_name(str(getattr(ng, "rules", "freestyle")).removeprefix("gomoku "))
            game = GomokuGame(int(ng.size), rule, getattr(ng, "opening", "free"))
            players = {R.BLACK: parse_player(ng.black), R.WHITE: parse_player(ng.white)}
        except ValueError as e:
            self.say(str(e))
            return False
        self._cancel()
        self._specs = {R.BLACK: ng.black, R.WHITE: ng.white}
        self._players = players
        self.clocks.time_control = getattr(ng, "clock", None) or NO_CLOCK
        self._set_game(game)
        self._redo.clear()
        self._changed()
        how = ", Swap2 opening" if game.opening == "swap2" else ""
        self.say(f"New game: {game.size}x{game.size} Gomoku, {R.RULE_NAMES[rule]}{how}")
        path = getattr(ng, "load", None)  # a record asked for on the command line
        if path:
            self.load(path)
        return True

    def toggle_eval(self) -> None:
        """The evaluation's heat map on or off."""
        self.show_eval = not self.show_eval
        self.version += 1

    # --- clocks (their state: gorilla.app.clocks.Clocks) -------------------------------------
    @property
    def time_control(self) -> TimeControl:
        """The game's time control."""
        return self.clocks.time_control

    def clock_views(self) -> dict[int, ClockView] | None:
        """Both clocks as shown now, None without a clock."""
        return self.clocks.views()

    def _flag_fell(self, color: int) -> bool:
        """True (and the game lost on time) when color's flag has fallen; checked before a move."""
        if self.clocks.flag_fell(color):
            self._lose(color, "T", f"{COLOR_NAME[color]} lost on time")
            return True
        return False

    def _watch_clock(self) -> None:
        """Every poll: a fallen flag ends the game; the last seconds are counted down."""
        if self.over:
            return
        flagged, second = self.clocks.watch(len(self.gomoku.moves))
        if flagged:
            self._lose(flagged, "T", f"{COLOR_NAME[flagged]} lost on time")
        elif second:
            self.emit("countdown", seconds=second, color=self.clocks.clock.running)
            self.version += 1

    def _lose(self, color: int, how: str, why: str) -> None:
        """color loses: 'R' resigned, 'T' on time (its flag down), 'F' forfeit."""
        self._cancel()
        if how == "T":
            self.clocks.flag(color)
        else:
            self.clocks.stop()
        self.game.lost = (color, how)
        self.continuous = False
        self._changed()
        self.emit("game_end", result=self.game.result)
        self.say(f"{why}: {self.game.result}")

    def toggle_pause(self) -> bool:
        """Pause or resume the clocks; only between two humans, while the game goes on."""
        if not self.clocks.enabled or not self.clocks.started or self.over:
            self.say("No clock is running")
            return False
        if not self.is_human(R.BLACK) or not self.is_human(R.WHITE):
            self.say("Only a game between two humans can be paused")
            return False
        paused = self.clocks.toggle_pause(self.gomoku.to_move)
        self.say("Paused: Ctrl+P goes on" if paused else "Clocks running")
        return True

    def control_map(self) -> np.ndarray:
        """The threat map in grid orientation: -1..0 where Black makes a four or three, 0..1 for White."""
        return threat_map(self.gomoku)

    def forbidden_points(self) -> list[int]:
        """Renju, Black to move: the window's points where Black may not play (an overline, a
        double four, a double three of real threes), marked on the board; else none."""
        g = self.gomoku
        if self.over:
            return []
        key = (id(g), tuple(g.moves))
        if self._forbidden[0] != key:
            self._forbidden = (key, forbidden_points(g))
        return list(self._forbidden[1])

    def winning_line(self) -> list[int]:
        """The window's points of the five that won the game (none before its end)."""
        return [to_view(self.gomoku, p) for p in self.gomoku.five()]

    def evaluate(self) -> None:
        """Value every move of the side to move (e), on a worker thread."""
        if self.over:
            self.say("The game is over")
            return
        snapshot = self.gomoku.copy()
        seconds = EVAL_SECONDS if self._search_ready() else 0.0  # else the one-ply values only
        task = self.workers.task("eval", lambda cancel: evaluate_moves(snapshot, cancel, seconds))
        self.workers.launch(task)
        self.version += 1

    # --- files ----------------------------------------------------------------------------------
    def record_text(self) -> str:
        """The game as its SGF record (GM[4]): while moving through it (<-) the whole game, with
        how it ended (RE) and, on the clock, TM/OT and the time left after each move."""
        g = self._whole_game()
        result = self.game.result if self.game.lost is not None else ""  # else the board's own
        timing = self.clocks.sgf_timing(len(g.moves))
        return self.record.sgf_text(g, self.players, result, timing, self.game_review)

    def _whole_game(self) -> GomokuGame:
        """The game with the moves taken back while moving through it (<-)."""
        g = self.gomoku
        if self.reviewing and self._redo:
            g = g.copy()
            for p, c in reversed(self._redo):
                g.play(p, c)
        return g

    def names(self) -> RecordInfo:
        """The record's player and event names (PB, PW, EV), which Ctrl+I edits."""
        return self.record.info()

    def set_game_info(self, black: str, white: str, event: str) -> bool:
        """The record's player and event names (SGF PB, PW, EV), kept in the autosave and Ctrl+S."""
        self.record.set_names(black, white, event)
        self.version += 1
        self._autosave_now()
        self.say("Names saved in the record (PB, PW, EV)")
        return True

    @property
    def comment(self) -> str:
        """The current move's comment (the game's comment on the empty board)."""
        return self.record.comment(self.gomoku)

    def set_comment(self, text: str) -> None:
        """Replace the current move's comment (saved in the SGF's C)."""
        if text.strip() == self.comment:
            return
        self.record.set_comment(self.gomoku, self._whole_game(), text)
        self.version += 1
        self._autosave_now()

    def psq_text(self) -> str:
        """The whole game as Piskvork's record (``.psq``): its moves, a loaded record's
        thinking times for the moves it holds (0 for the others) and the players' names."""
        return self.record.psq_text(self._whole_game(), self.players)

    def save(self, path: str) -> None:
        """Save the game as SGF (GM[4]), or as Piskvork's record when path ends in ``.psq``;
        the message says where (or why not)."""
        text = self.psq_text() if path.lower().endswith(".psq") else self.record_text()
        try:
            write_atomic(os.path.expanduser(path), text)
        except Exception as e:
            self.say(f"Cannot save {path}: {reason(e)}")
            return
        self.say(f"Saved {path}")

    def _autosave_now(self) -> None:
        """Hand the record to the autosave thread after a change (an empty board never
        overwrites a saved game); ``gorilla --game gomoku --resume`` goes on from it."""
        saver = self._autosaver = autosaver_for(self._autosaver, self.autosave)
        if saver is None or not self.gomoku.moves:
            return
        saver.submit_text(self.record_text())

    def flush_autosave(self, timeout: float | None = 10.0) -> bool:
        """Wait until the autosave file holds the current game."""
        return True if self._autosaver is None else self._autosaver.flush(timeout)

    def _check_autosave(self) -> None:
        """Every poll: a failed autosave is said in the panel (once)."""
        failure = autosave_failure(self._autosaver)
        if failure is not None:
            self.say(failure)

    def load(self, path: str) -> None:
        """Load a Gomoku SGF (GM[4]); a bad file is one message and changes nothing
        (:meth:`load_record` does the rest)."""
        try:
            record = sgf.load_record(os.path.expanduser(path))
        except ValueError as e:
            self.say(str(e))
            return
        self.load_record(record, path)

    def load_record(self, record: sgf.Record, path: str = "") -> None:
        """Play on from a record (same players, at the form's seats). A record that ended by
        resignation, time or forfeit (RE) is over; one on the clock (TM/OT) brings its time
        control and the time left after its moves (BL/WL), as Go's records do."""
        self.load_game(record.game)
        g = self.gomoku
        self.record = KeptRecord.of(record)
        self._autosave_now()  # with the record's names and clock
        if record.loser is not None:
            self.game.lost = record.loser
        ongoing = bool(g.moves) and not self.over
        if self.clocks.restore_timing(record.timing, [c for _, c in g.moves], ongoing, self.acting):
            if record.loser is not None and record.loser[1] == "T":
                self.clocks.clock.clocks[record.loser[0]].flagged = True
            self.version += 1
        ended = f" ({self.game.result})" if self.over else ""
        self.say(f"Loaded {path or 'the record'}{ended}")

    def load_game(self, game: GomokuGame) -> None:
        """Play on from game (same players, at the form's seats; in a Swap2 game the form's
        Black player is the opener, so it plays White where the opener chose White)."""
        self._cancel()
        self._form_seats()
        self._set_game(game)
        if game.opening == "swap2" and not game.first_player_black:
            self._swap_seats()
        self._redo.clear()
        self._changed()

    def close(self) -> None:
        """Stop any search and the compile; end the Gomocup engines; write what the autosave holds."""
        self._cancel()
        self.game_review.cancel()
        if self._autosaver is not None:
            self._autosaver.close()
        if self.compiler is not None:
            self.compiler.close()
        if self.seats is not None:
            self.seats.close()

    # --- the panel --------------------------------------------------------------------------------
    def status_lines(self) -> list[str]:
        """The panel's text: players, board and rule, the move, who is to move or the result."""
        g = self.gomoku
        kind = "  (AI vs AI)" if self.ai_vs_ai else ""
        lines = [f"Black: {self.players[R.BLACK]}  White: {self.players[R.WHITE]}{kind}"]
        lines.append(f"{g.size}x{g.size} Gomoku, {R.RULE_NAMES[g.rule]}")
        last = self.game.last_move
        lines.append(f"Move {len(g.moves)}" + (f", last {self._name(last.point)}" if last else ""))
        note = self.record.comment(g)
        if note:  # the record's comment on this move (the game's, on the empty board)
            lines.append("Comment: " + (note if len(note) <= COMMENT_SHOWN else note[:COMMENT_SHOWN] + "..."))
        analysed = self.game_review.note(g, [p for p, _ in g.moves])
        if analysed:  # the analysis (g) of this move
            lines += analysed.split("\n")
        if self.game_review.running:
            done, total = self.game_review.progress
            lines.append(f"Analysing the game: {done}/{total} positions (g cancels)")
        views = self.clock_views()
        if views is not None:
            paused = "  (paused)" if self.clocks.clock.paused else ""
            lines.append(f"Clock: Black {views[R.BLACK].text()}  White {views[R.WHITE].text()}{paused}")
        if self.over:
            lines.append(f"Game over ({self.game.end_reason}). Result: {self.game.result}")
        else:
            color = g.to_move
            who = "human" if self.is_human(color) else self.players[color]
            if self._opening():
                names = {c: f"{COLOR_NAME[c]} ({self.players[c]})" for c in (R.BLACK, R.WHITE)}
                lines.append(prompt(g, names))
            else:
                lines.append(f"{COLOR_NAME[color]} to move ({who})")
            if self.reviewing:
                n = len(g.moves)
                lines.append(f"Reviewing move {n} of {n + len(self._redo)}: the AI waits (space: play on)")
            p = self.progress
            if self.thinking and p is not None and p.candidates:
                pv = " ".join(self._name(m) for m in p.candidates[0].pv[:6])
                lines.append(f"PV {pv}")
            elif self.ai_vs_ai and not self.continuous and not self.thinking:
                lines.append("Click or space: next AI move")
        if self.compiler is not None and self.compiler.compiling:
            lines.append(self.compiler.status())
        if self.evaluating:
            lines.append("Evaluating...")
        if self.message:
            lines.append(self.message)
        return lines


def _make_agent(name: str) -> GomokuAgent | None:
    """None for a human, a Gomocup engine for 'pbrain:COMMAND', else a built-in agent."""
    if name == "human":
        return None
    return PbrainAgent(name) if is_pbrain(name) else make_agent(name)


def _player_label(name: str, seconds: float) -> str:
    """How the panel names a player: 'human', 'pvs+vct 1s', 'pbrain:pbrain-wine'."""
    if name == "human":
        return "human"
    return gomoku_label(name) if is_pbrain(name) else f"{name} {seconds:g}s"


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
