"""How Go reviews a record (:class:`gorilla.app.kind.Reviewer`): every position of the line on
the board searched by the net (the MCTS where the net does not play) by
:class:`gorilla.app.review.Review`, which keeps the results keyed by position and is what the
window's graph, dots and review marks read (``Table.review``); the points each move lost, a
mistake from the threshold on."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gorilla.app.report import GameReport, game_report
from gorilla.app.review import Review, engine_for, next_mistake
from gorilla.rules.board import BLACK, RESIGN
from gorilla.rules.coords import format_vertex
from gorilla.rules.game import Game

if TYPE_CHECKING:
    from gorilla.app.go.tree_book import TreeBook
    from gorilla.app.record import Record


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
            if not reviews:
                hint = " (g analyses the game first)"
            elif next_mistake(reviews, len(game.moves), self.threshold, -step) is not None:
                hint = f" ({'Shift+n' if step > 0 else 'n'} goes the other way)"
            else:
                hint = " in the moves analysed"
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


__all__ = ["GoReviewer"]
