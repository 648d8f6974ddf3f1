"""Gomoku's record as a :class:`gorilla.app.kind.Book`: what a record holds beyond its moves,
and the one line the game on the board follows (the stones taken back wait on the game's redo
list, :class:`gorilla.app.gomoku.view.GomokuView`).

A record (SGF ``GM[4]`` or Piskvork's ``.psq``) has the players' names, other root
properties, a comment and marks on a move and, in a ``.psq``, each move's thinking time: a
loaded record's, and what the player types (Enter: a move's comment; Ctrl+I: the names).
While the game follows the record's moves, what the record says of them is written back
(Ctrl+S, the autosave) and shown in the panel; once the game leaves them, only what belongs
to the moves they still share.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gorilla.app.gomoku.reviewer import GomokuReview, shared_moves
from gorilla.app.gomoku.swap2 import opening
from gorilla.app.gomoku.view import GomokuView
from gorilla.app.record_info import RecordInfo
from gorilla.gomoku import psq, sgf
from gorilla.gomoku import rules as R
from gorilla.gomoku.game import GomokuGame


@dataclass
class GomokuBook:
    """The record's names (PB, PW), other root properties and, by move number, its comments,
    marks and thinking times (a loaded record's and what was typed since; empty at first)."""

    LINE = "the game"

    names: dict[int, str] = field(default_factory=dict)
    extra: dict[str, list[str]] = field(default_factory=dict)
    moves: list[int] = field(default_factory=list)
    comments: dict[int, str] = field(default_factory=dict)
    marks: dict[int, dict[str, list[str]]] = field(default_factory=dict)
    times_ms: list[int] = field(default_factory=list)

    @classmethod
    def of(cls, record: sgf.Record) -> GomokuBook:
        """What record brings beyond its moves."""
        return cls(
            names={c: n for c, n in ((R.BLACK, record.black), (R.WHITE, record.white)) if n},
            extra=dict(record.extra),
            moves=[p for p, _ in record.game.moves],
            comments=dict(record.comments),
            marks=dict(record.marks),
            times_ms=list(record.times_ms),
        )

    # --- the line (gorilla.app.kind.Book) -------------------------------------------------------
    def sync(self, view: GomokuView) -> None:
        """Nothing to follow: what the record says holds for the moves it shares with the game."""

    def span(self, view: GomokuView) -> tuple[int, int] | str:
        """From the end of a Swap2 opening's stones to the last stone taken back; not while the
        opening goes on."""
        g = view.gomoku
        if opening(g):
            return "Moving through the game: after the Swap2 opening"
        return min(len(g.moves), g.swap2_end), len(g.moves) + len(view.redo_stack)

    def goto(self, view: GomokuView, number: int) -> GomokuView:
        """The stones taken back or played again until number are on the board (a resignation or
        a loss stays the game's)."""
        g = view.gomoku
        while len(g.moves) > number:
            view.redo_stack.append(g.undo())
        while len(g.moves) < number:
            g.play(*view.redo_stack.pop())
        return view

    def reviewing(self, view: GomokuView) -> bool:
        """The AI waits while later stones wait to be played again: the last one ends the review."""
        return bool(view.redo_stack)

    def arrived(self, view: GomokuView) -> str:
        """'Move 4 of 6 (space: play on from here)'."""
        n = len(view.gomoku.moves)
        later = " (space: play on from here)" if view.redo_stack else ""
        return f"Move {n} of {n + len(view.redo_stack)}{later}"

    def play_on(self, view: GomokuView) -> bool:
        """The game goes on from the position shown: the later stones go."""
        view.redo_stack.clear()
        return True

    def shared(self, g: GomokuGame) -> int:
        """How many of g's first moves are the record's own (its comments and times hold for
        those only)."""
        return shared_moves([p for p, _ in g.moves], self.moves)

    def players(self, labels: dict[int, str]) -> tuple[str, str]:
        """Black's and White's names as the record gives them, else the seats' labels."""
        return (self.names.get(R.BLACK) or labels[R.BLACK], self.names.get(R.WHITE) or labels[R.WHITE])

    def info(self) -> RecordInfo:
        """The record's player and event names (PB, PW, EV; '' where it has none)."""
        ev = self.extra.get("EV")
        event = sgf.unescape(ev[0]).strip() if ev else ""
        return RecordInfo(self.names.get(R.BLACK, ""), self.names.get(R.WHITE, ""), event)

    def set_names(self, view: GomokuView, black: str, white: str, event: str) -> None:
        """The record's player and event names (an empty one is removed)."""
        self.names = {c: n.strip() for c, n in ((R.BLACK, black), (R.WHITE, white)) if n.strip()}
        if event.strip():
            self.extra["EV"] = [sgf.escape(event.strip())]
        else:
            self.extra.pop("EV", None)

    def comment(self, view: GomokuView) -> str:
        """The record's comment on the last move shown while the game follows the record (on
        the empty board: the game's comment, the root's C), else ''."""
        g = view.gomoku
        if not g.moves:
            root = self.extra.get("C")
            return sgf.unescape(root[0]).strip() if root else ""
        note = self.comments.get(len(g.moves), "").strip()
        return note if note and self.shared(g) == len(g.moves) else ""

    def set_comment(self, view: GomokuView, text: str) -> bool:
        """text as the comment of the last move shown (on the empty board, the game's comment);
        '' removes it; False when it is that already. Where the game has left the record's
        moves or goes past them, the record takes the whole game's moves (with the moves taken
        back while moving through it), and what it said of its moves after the ones it shares
        with the game goes."""
        text = text.strip()
        if text == self.comment(view):
            return False
        g = view.gomoku
        n = len(g.moves)
        if n == 0:
            if text:
                self.extra["C"] = [sgf.escape(text)]
            else:
                self.extra.pop("C", None)
            return True
        same = self.shared(g)
        if same < n:
            self.moves = [p for p, _ in view.whole().moves]
            self.comments = {k: v for k, v in self.comments.items() if k <= same}
            self.marks = {k: v for k, v in self.marks.items() if k <= same}
            self.times_ms = self.times_ms[:same]
        if text:
            self.comments[n] = text
        else:
            self.comments.pop(n, None)
        return True

    def sgf_text(
        self, g: GomokuGame, labels: dict[int, str], result: str, timing: Any, review: GomokuReview
    ) -> str:
        """g's SGF record (GM[4]) with the record's names, root properties and the comments
        and marks of the moves g shares with it, the analysis (review) of g's moves added."""
        same = self.shared(g)
        comments = {n: c for n, c in self.comments.items() if n <= same}
        marks = {n: m for n, m in self.marks.items() if n <= same}
        comments, marks, report = review.annotate(g, comments, marks)
        extra = dict(self.extra)
        if report:
            extra["C"] = ["\n\n".join([*extra.get("C", []), sgf.escape(report)])]
        black, white = self.players(labels)
        return sgf.dumps(
            g, black, white, result=result, timing=timing, extra=extra, comments=comments, marks=marks
        )

    def psq_text(self, g: GomokuGame, labels: dict[int, str]) -> str:
        """g as Piskvork's record: its moves, the record's thinking times for the moves it
        shares with g (0 for the others) and the players' names."""
        return psq.dumps(g, *self.players(labels), times_ms=self.times_ms[: self.shared(g)])
