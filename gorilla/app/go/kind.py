"""Go as a game kind (:class:`gorilla.app.kind.GameKind`): its rules and position
(:class:`gorilla.rules.game.Game`), its agents (any spec of :mod:`gorilla.ai.agent`, GTP
engines through :class:`gorilla.app.go.gtp_player.GtpEngineAgent`) and their kernel groups
(:func:`gorilla.ai.warmup.groups_for`), its record (the SGF game tree,
:class:`gorilla.app.go.tree_book.TreeBook`), its valuer (:mod:`gorilla.app.go.values`) and
reviewer (:mod:`gorilla.app.go.reviewer`); it has no opening protocol."""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable
from typing import Any

from gorilla.ai.agent import Agent, Budget, Progress, parse_spec
from gorilla.ai.warmup import groups_for
from gorilla.app.clock import TimeControl
from gorilla.app.clocks import Clocks
from gorilla.app.go import review_file
from gorilla.app.go.gtp_player import GtpEngineAgent
from gorilla.app.go.players import go_players
from gorilla.app.go.reviewer import GoReviewer
from gorilla.app.go.sgf_text import game_to_sgf, mark_line, tree_from_sgf
from gorilla.app.go.tree_book import TreeBook
from gorilla.app.go.values import GoValuer
from gorilla.app.kind import FreeOpening, Job, Loaded
from gorilla.app.players import Players
from gorilla.app.record import Record
from gorilla.rules.board import BLACK, WHITE
from gorilla.rules.coords import GTP_LETTERS, format_vertex
from gorilla.rules.game import Game
from gorilla.rules.gametree import GameTree
from gorilla.rules.sgf import Timing, read_timing


class GoKind:
    """Go (see the module docstring), with the settings its agents and its evaluator take:
    ``threads`` for an MCTS without its own and for the review, the evaluator's engine and its
    flat Monte-Carlo's G and T."""

    name = "go"
    column_letters = GTP_LETTERS

    def __init__(
        self,
        threads: int = 1,
        eval_engine: str | None = None,
        eval_games: int | None = None,
        eval_turns: int | None = None,
    ) -> None:
        self.threads = max(1, int(threads))
        self.eval_settings = (eval_engine, eval_games, eval_turns)
        self.review = GoReviewer(threads=self.threads)  # kept across navigation; written into saved records

    # --- its rules and position -------------------------------------------------------------------
    def new_game(self, choices: Any) -> Game:
        """An empty board of the form's size, rules and komi (its handicap is the controller's:
        fixed stones, or free ones placed by hand)."""
        return Game(choices.size, choices.rules, choices.komi)

    def point_name(self, game: Game, point: int) -> str:
        """'D4' (the columns skip I), 'pass'."""
        return format_vertex(point, game.size)

    def end_words(self, game: Game) -> str:
        """Nothing: the panel counts the game or names who resigned."""
        return ""

    # --- its agents ---------------------------------------------------------------------------------
    def players(self, black: str | Agent, white: str | Agent) -> Players:
        """Go's players from their specs (or agents); see :func:`gorilla.app.go.players.go_players`."""
        return go_players(black, white, self.threads)

    def groups(self, spec: str) -> list[str]:
        """The kernel groups of the agent spec (none for a human or a GTP engine)."""
        return groups_for([spec])

    def search(
        self,
        agent: Agent,
        spec: str,
        game: Game,
        color: int,
        clocks: Clocks,
        progress: Callable[[Progress], None],
    ) -> Job:
        """agent's select_move on a copy of game, told its time left, within what the clock affords."""
        snap = game.copy()
        _feed(agent, color, clocks)
        budget = _budget(spec, color, clocks)

        def run(cancel: threading.Event) -> int:
            return agent.select_move(snap, budget, cancel, progress)

        return run

    def is_engine(self, agent: Any) -> bool:
        """A GTP engine: its messages name it, its illegal move forfeits."""
        return isinstance(agent, GtpEngineAgent)

    def forfeits(self, error: BaseException) -> bool:
        """No failure forfeits: it waits for a click to try again."""
        return False

    def stop(self, agents: dict[int, Any]) -> None:
        """Nothing: Go's agents stop when their search's Event is set."""

    def tell_clock(self, agents: dict[int, Any], tc: TimeControl) -> None:
        """Give the AIs the time control (GTP ``time_settings``)."""
        for agent in agents.values():
            if isinstance(agent, GtpEngineAgent):
                agent.set_time_control(tc)
            elif agent is not None and tc.enabled:
                with contextlib.suppress(Exception):
                    agent.set_time(*tc.gtp_time_settings())

    # --- its record codec ---------------------------------------------------------------------------
    def book(self, game: Game) -> TreeBook:
        """A tree with game's one line."""
        return TreeBook(game)

    def read(self, path: str) -> Loaded:
        """The SGF's whole tree at the main line's end (an autosave's: the line that was on show),
        with its clock."""
        with open(os.path.expanduser(path), encoding="utf-8", errors="replace") as f:
            text = f.read()
        tree = tree_from_sgf(text)
        game = tree.line_game()
        try:
            timing = read_timing(text)
        except Exception:
            timing = None
        return Loaded(game, TreeBook(game, tree), timing)

    def write(self, record: Record, path: str, timing: Callable[[int], Timing | None]) -> str:
        """A snapshot of the whole tree as SGF with the review written into it (each analysed
        position's values, the report), the clock's times up to the move shown (a ``.psq`` name
        is refused: that format holds Gomoku games)."""
        if path.lower().endswith(".psq"):
            raise ValueError(".psq holds Gomoku games; save a Go game as .sgf")
        book: TreeBook = record.book  # type: ignore[assignment]
        return game_to_sgf(self._kept(book.tree.snapshot()), timing(len(record.game.moves)))

    def autosave(self, record: Record, timing: Callable[[int], Timing | None]) -> Callable[[], str] | None:
        """A snapshot of the tree in its own order (the main line stays the main line) with the
        review written into it, the line on show named in its root
        (:func:`gorilla.app.go.sgf_text.mark_line`) so that a resume goes on at its end; None while the
        record holds no move and no set-up stone."""
        book: TreeBook = record.book  # type: ignore[assignment]
        tree = book.tree
        if not (tree.root.children or record.game.setup):
            return None
        snap = self._kept(tree.snapshot())
        mark_line(snap)
        times = timing(len(record.game.moves))
        return lambda: game_to_sgf(snap, times)

    def _kept(self, snap: GameTree) -> GameTree:
        """snap (a record about to be saved) with the review written into it: values and report."""
        names = {BLACK: snap.info.black_name, WHITE: snap.info.white_name}
        review_file.annotate(snap, self.review.cache, names)
        return snap

    # --- how a move is valued -----------------------------------------------------------------------
    def valuer(self) -> GoValuer:
        """The evaluator with the command line's settings."""
        return GoValuer(*self.eval_settings)

    def reviewer(self) -> GoReviewer:
        """The net's (or the MCTS's) review of every position, with the kind's threads."""
        return self.review

    # --- its opening protocol -----------------------------------------------------------------------
    def opening(self, host: Any) -> FreeOpening:
        """None: the side to move acts."""
        return FreeOpening(lambda: host.record.game)


def _feed(agent: Agent, color: int, clocks: Clocks) -> None:
    """Before an AI move: its time left (GTP ``time_left`` semantics)."""
    if not clocks.enabled:
        return
    pc = clocks.clock.clocks[color]
    now = clocks.now()
    if isinstance(agent, GtpEngineAgent):
        agent.set_clock_state(color, pc.gtp_time_left(now), pc.kgs_time_left(now))
        return
    seconds, stones = pc.gtp_time_left(now)
    with contextlib.suppress(Exception):
        agent.time_left(color, seconds, stones)


def _budget(spec: str, color: int, clocks: Clocks) -> Budget | None:
    """A shorter think for an AI with a fixed time per move (``mcts:time=8``) whose clock cannot
    afford it; None otherwise (the agent's own settings, or its time manager)."""
    try:
        seconds = parse_spec(spec)[2].get("time")
    except Exception:
        return None
    if not isinstance(seconds, int | float) or isinstance(seconds, bool) or seconds <= 0:
        return None
    share = clocks.share(float(seconds), color)
    return None if share is None else Budget(seconds=share)


__all__ = ["GoKind"]
