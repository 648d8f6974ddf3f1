"""Whole-game analysis in the Go controller, as a part: ``g`` starts or cancels the analysis of
every move of the current line (:class:`gorilla.app.review.Review`, which owns the results),
``n`` / Shift+``n`` jump to the next or previous mistake, Alt+``n`` cycles the threshold, ``d``
shows the dots coloured by points lost."""

from __future__ import annotations

from collections.abc import Callable

from gorilla.app.feed import Feed
from gorilla.app.record import Record
from gorilla.app.report import GameReport, game_report
from gorilla.app.review import Review, next_mistake
from gorilla.rules.board import BLACK, RESIGN
from gorilla.rules.coords import format_vertex


class Analysis:
    """The analysis requests over one review and one record (see the module docstring).

    ``waiting_for(*groups)`` is True (and says so) while the kernels the analysis needs compile.
    """

    def __init__(self, review: Review, record: Record, feed: Feed, waiting_for: Callable[..., bool]) -> None:
        self.review = review
        self.record = record
        self.feed = feed
        self.waiting_for = waiting_for

    def toggle_analysis(self) -> None:
        """Start analysing every move of the current line in the background, or cancel (``g``)."""
        if self.review.running:
            self.review.cancel()
            self.feed.say("Cancelling the analysis")
            return
        from gorilla.app.review import engine_for

        if self.waiting_for(engine_for(self.record.game)):  # the engine's name is its kernel group's
            return
        record = self.record
        self.review.start(record.game, record.recorded_result(record.tree.end()))
        self.feed.say(f"Analysing the game: {self.review.search_text(self.record.game)} (g cancels)")

    def next_mistake(self, step: int = 1) -> bool:
        """Jump to the next (step 1) or previous (-1) analysed move that lost the threshold or more."""
        rv = self.review
        game = self.record.game
        reviews = rv.reviews(game)
        n = next_mistake(reviews, len(game.moves), rv.threshold, step)
        if n is None:
            way = "after" if step > 0 else "before"
            if not reviews:
                hint = " (g analyses the game first)"
            elif next_mistake(reviews, len(game.moves), rv.threshold, -step) is not None:
                hint = f" ({'Shift+n' if step > 0 else 'n'} goes the other way)"
            else:
                hint = " in the moves analysed"
            self.feed.say(f"No mistake of {rv.threshold:g}+ points {way} this move{hint}")
            return False
        self.record.goto_move(n)
        self.feed.say(self.review_line(n))
        return True

    def review_line(self, n: int) -> str:
        """One line about analysed move n of the current line: the move, what it lost, the
        better move in the position before it (what the board marks with the move shown), and
        Black's win rate after it ('' if not analysed)."""
        game = self.record.game
        r = next((r for r in self.review.reviews(game) if r.number == n), None)
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

    def cycle_mistake_threshold(self) -> None:
        """The next mistake threshold for ``n`` / Shift+``n`` (Alt+``n``)."""
        self.feed.say(f"Mistakes: {self.review.cycle_threshold():g}+ points lost")

    def toggle_mistake_dots(self) -> None:
        """Show or hide the dots coloured by points lost on the analysed stones (``d``)."""
        self.review.show_dots = not self.review.show_dots
        self.feed.touch()

    def game_report(self) -> GameReport | None:
        """The report of the line on the board (F3), or None while no move of it is analysed."""
        game = self.record.game
        revs = self.review.reviews(game)
        if not revs:
            return None
        return game_report(revs, self.review.positions(game), game.size)
