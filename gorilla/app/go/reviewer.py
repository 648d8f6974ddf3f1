"""How Go reviews a record (:class:`gorilla.app.kind.Reviewer`): every position of the line on
the board searched by the net (the MCTS where the net does not play) on a worker thread by
:class:`Review` (the search of each position and the points lost are
:mod:`gorilla.app.go.review`'s), which keeps the results keyed by position and is what the
window's graph, dots and review marks read (``Table.review``); :class:`GoReviewer` gives it the
words of the shared analysis's requests (``g``, ``n``, ``d``): the points each move lost, a
mistake from the threshold on."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from gorilla.ai.agent import Budget
from gorilla.app.analysis import no_mistake_hint
from gorilla.app.go.report import GameReport, game_report
from gorilla.app.go.review import (
    BLUNDER,
    MISTAKE,
    THRESHOLDS,
    Key,
    MoveReview,
    PositionEval,
    analyse_line,
    default_budget,
    engine_for,
    line_keys,
    next_mistake,
    report_summary,
    reviews,
)
from gorilla.app.tasks import Task
from gorilla.rules.board import BLACK, RESIGN
from gorilla.rules.coords import format_vertex
from gorilla.rules.game import Game

if TYPE_CHECKING:
    from gorilla.app.go.tree_book import TreeBook
    from gorilla.app.record import Record


class Review:
    """The window's analysis: a cache of analysed positions, the running pass, the settings."""

    def __init__(self, playouts: int | None = None, threads: int = 1, engine: str | None = None) -> None:
        self.playouts = playouts  # None: the engine's default (default_budget)
        self.engine = engine  # net or mcts; None: the net wherever it plays (engine_for)
        self.threads = max(1, int(threads))
        self.cache: dict[Key, PositionEval] = {}
        self.task: Task | None = None
        self.fraction = 0.0
        self.threshold = MISTAKE
        self.show_dots = False
        self.version = 0  # bumps when results arrive

    @property
    def running(self) -> bool:
        """Whether a pass is running (also after a cancel, until it returns)."""
        return self.task is not None and not self.task.done.is_set()

    def start(self, game: Game, result: str | None = None) -> bool:
        """Start analysing game's current line on a worker thread (result: the record's at the
        line's end, see :func:`analyse_line`); False if already running."""
        if self.running:
            return False
        snap = game.copy()
        budget = None if self.playouts is None else Budget(playouts=int(self.playouts))
        cache = self.cache
        self.fraction = 0.0

        def on_progress(done: int, total: int) -> None:
            self.fraction = done / max(1, total)
            self.version += 1

        def run(cancel: threading.Event) -> list[MoveReview]:
            return analyse_line(
                snap,
                budget,
                threads=self.threads,
                cancel=cancel,
                progress=on_progress,
                cache=cache,
                engine=self.engine,
                result=result,
            )

        self.task = Task("review", 0, run).start()
        self.show_dots = True
        return True

    def cancel(self) -> None:
        """Ask the running pass to stop (results so far stay)."""
        if self.task is not None:
            self.task.cancel.set()

    def poll(self) -> str | None:
        """On the GUI thread: a message when a pass has just finished, else None."""
        t = self.task
        if t is None or not t.done.is_set():
            return None
        self.task = None
        self.version += 1
        if t.error is not None:
            return f"Analysis failed: {t.error}"
        if t.cancel.is_set():
            return "Analysis cancelled"
        return (
            f"Analysis done (mistake {MISTAKE:g}+, blunder {BLUNDER:g}+ points)\n{report_summary(t.result)}"
        )

    def close(self) -> None:
        """Cancel and wait briefly for the pass to stop."""
        t = self.task
        if t is not None:
            t.cancel.set()
            t.thread.join(1.0)

    def reviews(self, game: Game) -> list[MoveReview]:
        """The analysed moves of game's current line."""
        return reviews(game, self.cache)

    def shown_review(self, game: Game) -> MoveReview | None:
        """The review of the move on show (game's last move), if analysed: what it lost and its
        better move (``best``), which is the best of the position before it, not of the board's."""
        n = len(game.moves)
        return next((r for r in self.reviews(game) if r.number == n), None) if n else None

    def positions(self, game: Game) -> list[PositionEval | None]:
        """Each position of game's current line: its analysis or None."""
        return [self.cache.get(k) for k in line_keys(game)]

    def search_text(self, game: Game) -> str:
        """The search a position gets, in words: 'the net, 256 visits a position' or 'the
        MCTS, 1000 playouts a position' (the settings', else the engine's default)."""
        engine = engine_for(game, self.engine)
        count = self.playouts if self.playouts is not None else default_budget(engine, game.size).playouts
        if engine == "net":
            return f"the net, {count} visits a position"
        return f"the MCTS, {count} playouts a position"

    def cycle_threshold(self) -> float:
        """The next threshold of THRESHOLDS for n / Shift+n; returns it."""
        later = [t for t in THRESHOLDS if t > self.threshold]
        self.threshold = later[0] if later else THRESHOLDS[0]
        return self.threshold


class GoReviewer(Review):
    """The review of the Go record: a :class:`Review` with the words of its requests (see the
    module docstring)."""

    def refuses(self, record: Record) -> None:
        """Any Go record can be analysed."""
        return None

    def groups(self, record: Record) -> tuple[str, ...]:
        """The engine's kernels (the engine's name is its kernel group's)."""
        return (engine_for(record.game),)

    def begin(self, record: Record) -> str:
        """Analyse the line on the board, its end valued by the record's own result there."""
        book: TreeBook = record.book  # type: ignore[assignment]
        self.start(record.game, book.recorded_result(book.tree.end()))
        return f"Analysing the game: {self.search_text(record.game)} (g cancels)"

    def stop(self) -> str:
        """Stop the pass (its results stay: they belong to the lines they analysed)."""
        self.cancel()
        return "Cancelling the analysis"

    def mistake(self, record: Record, step: int) -> tuple[int, str] | str:
        """The next or previous move that lost the threshold in points or more."""
        game = record.game
        reviews = self.reviews(game)
        n = next_mistake(reviews, len(game.moves), self.threshold, step)
        if n is None:
            way = "after" if step > 0 else "before"
            back = next_mistake(reviews, len(game.moves), self.threshold, -step)
            hint = no_mistake_hint(bool(reviews), back is not None, step)
            return f"No mistake of {self.threshold:g}+ points {way} this move{hint}"
        return n, self.review_line(record, n)

    def review_line(self, record: Record, n: int) -> str:
        """One line about analysed move n of the line: the move, what it lost, the better move
        in the position before it (what the board marks with the move shown), and Black's win
        rate after it ('' if not analysed)."""
        game = record.game
        r = next((r for r in self.reviews(game) if r.number == n), None)
        if r is None:
            return ""
        who, size = "B" if r.color == BLACK else "W", game.size
        better = ""
        if r.best not in (r.move, RESIGN):
            better = f"; {format_vertex(r.best, size)} was better"
        return (
            f"Move {n} ({who} {format_vertex(r.move, size)}) lost {r.points_lost:.1f} points{better};"
            f" Black {100 * r.winrate_after:.0f}% after it"
        )

    def game_report(self, game: Game) -> GameReport | None:
        """The report of the line on the board (F3), or None while no move of it is analysed."""
        revs = self.reviews(game)
        if not revs:
            return None
        return game_report(revs, self.positions(game), game.size)

    def next_threshold(self) -> str:
        """The next threshold in points lost."""
        return f"Mistakes: {self.cycle_threshold():g}+ points lost"


__all__ = ["GoReviewer", "Review"]
