"""Gomoku as a game kind (:class:`gorilla.app.kind.GameKind`): its rules and position
(:class:`gorilla.gomoku.game.GomokuGame` seen as :class:`gorilla.app.gomoku.view.GomokuView`),
its agents (the built-in ones of :mod:`gorilla.gomoku.agents` and Gomocup engines,
:mod:`gorilla.app.gomoku.players`) and their kernel groups, its record (SGF ``GM[4]`` and
Piskvork's ``.psq``, :class:`gorilla.app.gomoku.book.GomokuBook`), its valuer
(:class:`gorilla.app.gomoku.values.GomokuValuer`) and reviewer
(:class:`gorilla.app.gomoku.reviewer.GomokuReview`), and its opening protocol, Swap2
(:class:`gorilla.app.gomoku.swap2.Swap2`)."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from typing import Any

from gorilla.ai.agent import Candidate, Progress
from gorilla.app.clocks import Clocks
from gorilla.app.gomoku.analysis import win_rate
from gorilla.app.gomoku.book import GomokuBook
from gorilla.app.gomoku.pbrain_player import EngineForfeit, PbrainAgent
from gorilla.app.gomoku.players import builtin_agents, gomoku_players, think_seconds
from gorilla.app.gomoku.reviewer import GomokuReview
from gorilla.app.gomoku.swap2 import Swap2
from gorilla.app.gomoku.values import GomokuValuer
from gorilla.app.gomoku.view import GomokuView, from_view, to_view
from gorilla.app.kind import Job, Loaded
from gorilla.app.players import Players
from gorilla.app.record import Record
from gorilla.gomoku import rules as R
from gorilla.gomoku import search as S
from gorilla.gomoku import sgf
from gorilla.gomoku.agents import engine_groups
from gorilla.gomoku.game import GomokuGame
from gorilla.rules.board import PASS
from gorilla.rules.coords import GOMOKU_LETTERS, format_vertex
from gorilla.rules.sgf import Timing

COLOR_NAME = {R.BLACK: "Black", R.WHITE: "White"}
ENDED = {"T": "time", "F": "forfeit"}  # a record's loss the referee keeps (a resignation is the game's)


class GomokuKind:
    """Gomoku (see the module docstring). ``labels()`` are the seats' names (the record's where
    it names no player); ``search_ready()`` whether the search's kernels can run now (``e`` and
    ``g`` use it)."""

    name = "gomoku"
    column_letters = GOMOKU_LETTERS

    def __init__(self, labels: Callable[[], dict[int, str]], search_ready: Callable[[], bool]) -> None:
        self.labels = labels
        self.search_ready = search_ready
        self.review = GomokuReview(ready=search_ready, labels=labels)

    # --- its rules and position -------------------------------------------------------------------
    def new_game(self, choices: Any) -> GomokuView:
        """An empty board of the form's size, rule ('gomoku renju') and opening (free, swap2)."""
        rule = R.rule_from_name(str(choices.rules).removeprefix("gomoku "))
        return GomokuView(GomokuGame(int(choices.size), rule, choices.opening))

    def point_name(self, game: GomokuView, point: int) -> str:
        """'H8' (the columns include I), '?' off the board."""
        on = from_view(game.gomoku, point) is not None
        return format_vertex(point, game.size, GOMOKU_LETTERS) if on else "?"

    def end_words(self, game: GomokuView) -> str:
        """A five, a full board, a resignation."""
        if game.resigned:
            return f"{COLOR_NAME[game.resigned]} resigned: {game.result}"
        r = game.gomoku.result
        if r is None:
            return ""
        return f"{COLOR_NAME[r.winner]} wins with five in a row" if r.winner else "Draw: the board is full"

    # --- its agents ---------------------------------------------------------------------------------
    def players(self, black: str, white: str) -> Players:
        """The players the specs name (:func:`gorilla.app.gomoku.players.gomoku_players`)."""
        return gomoku_players(black, white)

    def groups(self, spec: str) -> list[str]:
        """The kernel groups of a built-in agent (a human's or a Gomocup engine's: the rules)."""
        return engine_groups(builtin_agents([spec]))

    def search(
        self,
        agent: Any,
        spec: str,
        game: GomokuView,
        color: int,
        clocks: Clocks,
        progress: Callable[[Progress], None],
    ) -> Job:
        """agent's select on a copy of the game in its seconds a move (or what its clock
        affords; a Gomocup engine is told its time left), its progress each depth: the line and
        the next points in the search's own order."""
        seconds = think_seconds(spec, color, clocks)
        if isinstance(agent, PbrainAgent):
            agent.time_left = clocks.to_lose(color) if clocks.enabled else None
        snapshot = game.gomoku.copy()
        t0 = time.monotonic()

        def on_depth(r: S.SearchResult) -> None:
            pv = [to_view(snapshot, m) for m in r.pv]
            wr = win_rate(r.score)
            cands = [Candidate(pv[0], max(1, r.nodes), wr, float(r.score), pv=pv)] if pv else []
            p = Progress(pv[0] if pv else -1, wr, r.nodes, min(1.0, (time.monotonic() - t0) / seconds))
            p.candidates = cands + _threat_candidates(snapshot, pv[:1], r.nodes)
            p.elapsed = time.monotonic() - t0
            progress(p)

        def run(cancel: threading.Event) -> int:
            move = agent.select(snapshot, seconds, on_depth).move
            return to_view(snapshot, move) if move >= 0 else PASS  # stopped: never played

        return run

    def is_engine(self, agent: Any) -> bool:
        """A Gomocup engine: its messages name it, its illegal move forfeits."""
        return isinstance(agent, PbrainAgent)

    def forfeits(self, error: BaseException) -> bool:
        """A Gomocup engine's crash, hang past its time or garbage forfeits."""
        return isinstance(error, EngineForfeit)

    def stop(self, agents: dict[int, Any]) -> None:
        """Gomoku's agents take no cancel flag: each is told to return at once."""
        for agent in agents.values():
            if agent is not None:
                agent.stop()

    def tell_clock(self, agents: dict[int, Any], time_control: Any) -> None:
        """Nothing: each move tells an agent its time (:meth:`search`)."""

    # --- its record codec ---------------------------------------------------------------------------
    def book(self, game: GomokuView) -> GomokuBook:
        """A record with no names or comments yet."""
        return GomokuBook()

    def read(self, path: str) -> Loaded:
        """A Gomoku SGF (GM[4]) or Piskvork record; ValueError (one line) for another file."""
        return self.loaded(sgf.load_record(os.path.expanduser(path)))

    def loaded(self, record: sgf.Record) -> Loaded:
        """A record read: its game, what it says beyond the moves, its clock and how it ended
        (RE: a resignation, a loss on time, a forfeit)."""
        view = GomokuView(record.game)
        if record.loser is not None:
            view.lose(*record.loser)
        ended = ENDED.get(record.loser[1]) if record.loser is not None else None
        return Loaded(view, GomokuBook.of(record), record.timing, ended)

    def write(self, record: Record, path: str, timing: Callable[[int], Timing | None]) -> str:
        """Piskvork's record for a name ending in ``.psq``, else the SGF (:meth:`sgf_text`)."""
        if path.lower().endswith(".psq"):
            book: GomokuBook = record.book  # type: ignore[assignment]
            return book.psq_text(record.game.whole(), self.labels())
        return self.sgf_text(record, timing)

    def sgf_text(self, record: Record, timing: Callable[[int], Timing | None]) -> str:
        """The game as its SGF record (GM[4]): the whole game (the moves taken back while moving
        through it included), how it ended where the board does not show it (RE), the clock
        (TM/OT, the time left after each move) and the analysis of its moves."""
        view: GomokuView = record.game
        whole = view.whole()
        result = view.result if view.lost is not None else ""  # else the board's own
        book: GomokuBook = record.book  # type: ignore[assignment]
        return book.sgf_text(whole, self.labels(), result, timing(len(whole.moves)), self.review)

    def autosave(self, record: Record, timing: Callable[[int], Timing | None]) -> Callable[[], str] | None:
        """The SGF text made now (an empty board never overwrites a saved game)."""
        if not record.game.gomoku.moves:
            return None
        text = self.sgf_text(record, timing)
        return lambda: text

    # --- how a move is valued -----------------------------------------------------------------------
    def valuer(self) -> GomokuValuer:
        """The search's values of the best candidates (one ply while it compiles)."""
        return GomokuValuer(self.search_ready)

    def reviewer(self) -> GomokuReview:
        """The PVS's review of every move."""
        return self.review

    # --- its opening protocol -----------------------------------------------------------------------
    def opening(self, host: Any) -> Swap2:
        """Swap2 (a free game's opening is none: the side to move acts)."""
        return Swap2(host)


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


__all__ = ["GomokuKind"]
