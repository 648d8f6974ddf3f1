"""Whole-game analysis, as a part both games share: ``g`` starts or cancels the analysis of
every move of the line on the board, ``n`` / Shift+``n`` go to the next or previous mistake,
Alt+``n`` cycles the threshold, ``d`` shows the dots on the analysed stones. How a game is
analysed, and what its results say, is its kind's :class:`gorilla.app.kind.Reviewer` (Go's net,
Gomoku's PVS), which keeps the results."""

from __future__ import annotations

from collections.abc import Callable

from gorilla.app.feed import Feed
from gorilla.app.kind import Reviewer
from gorilla.app.record import Record


def no_mistake_hint(analysed: bool, other_way: bool, step: int) -> str:
    """What ``n`` (step 1) or Shift+``n`` (-1) adds where it finds no mistake, in both games:
    ``g`` first where nothing of the line is analysed, the other key where a mistake lies the
    other way, else that the moves analysed hold none."""
    if not analysed:
        return " (g analyses the game first)"
    if other_way:
        return f" ({'Shift+n' if step > 0 else 'n'} goes the other way)"
    return " in the moves analysed"


class Analysis:
    """The analysis requests over one reviewer and one record (see the module docstring).

    ``waiting_for(*groups)`` is True (and says so) while the kernels the analysis needs compile;
    ``autosave()`` saves the record when an analysis ends (the review goes into it).
    """

    def __init__(
        self,
        reviewer: Reviewer,
        record: Record,
        feed: Feed,
        waiting_for: Callable[..., bool],
        autosave: Callable[[], None],
    ) -> None:
        self.reviewer, self.record, self.feed = reviewer, record, feed
        self.waiting_for, self.autosave = waiting_for, autosave
        self._seen = reviewer.version

    def toggle_analysis(self) -> None:
        """Start analysing every move of the line in the background, or cancel (``g``)."""
        rv = self.reviewer
        if rv.running:
            self.feed.say(rv.stop())
            return
        why = rv.refuses(self.record)
        if why is not None:
            self.feed.say(why)
            return
        if self.waiting_for(*rv.groups(self.record)):
            return
        self.feed.say(rv.begin(self.record))

    def next_mistake(self, step: int = 1) -> bool:
        """Go to the next (step 1) or previous (-1) analysed move that lost the threshold or more."""
        found = self.reviewer.mistake(self.record, step)
        if isinstance(found, str):
            self.feed.say(found)
            return False
        number, line = found
        self.record.goto_move(number)
        self.feed.say(line)
        return True

    def cycle_mistake_threshold(self) -> None:
        """The next mistake threshold for ``n`` / Shift+``n`` and the graph's marks (Alt+``n``)."""
        self.feed.say(self.reviewer.next_threshold())

    def toggle_mistake_dots(self) -> None:
        """Show or hide the dots on the analysed stones (``d``)."""
        self.reviewer.show_dots = not self.reviewer.show_dots
        self.feed.touch()

    def poll(self) -> None:
        """Every frame: an analysis that has ended says so; new results redraw."""
        done = self.reviewer.poll()
        if done is not None:
            self.feed.say(done)
            self.autosave()  # the review goes into the autosaved record
        if self.reviewer.version != self._seen:
            self._seen = self.reviewer.version
            self.feed.touch()
