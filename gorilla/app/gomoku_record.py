"""What a Gomoku game's record holds beyond its moves, kept for the record the game writes.

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

from gorilla.app.gomoku_review import GomokuReview, shared_moves
from gorilla.app.record_info import RecordInfo
from gorilla.gomoku import psq, sgf
from gorilla.gomoku import rules as R
from gorilla.gomoku.game import GomokuGame


@dataclass
class KeptRecord:
    """The record's names (PB, PW), other root properties and, by move number, its comments,
    marks and thinking times (a loaded record's and what was typed since; empty at first)."""

    names: dict[int, str] = field(default_factory=dict)
    extra: dict[str, list[str]] = field(default_factory=dict)
    moves: list[int] = field(default_factory=list)
    comments: dict[int, str] = field(default_factory=dict)
    marks: dict[int, dict[str, list[str]]] = field(default_factory=dict)
    times_ms: list[int] = field(default_factory=list)

    @classmethod
    def of(cls, record: sgf.Record) -> KeptRecord:
        """What record brings beyond its moves."""
        return cls(
            names={c: n for c, n in ((R.BLACK, record.black), (R.WHITE, record.white)) if n},
            extra=dict(record.extra),
            moves=[p for p, _ in record.game.moves],
            comments=dict(record.comments),
            marks=dict(record.marks),
            times_ms=list(record.times_ms),
        )

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

    def set_names(self, black: str, white: str, event: str) -> None:
        """The record's player and event names (an empty one is removed)."""
        self.names = {c: n.strip() for c, n in ((R.BLACK, black), (R.WHITE, white)) if n.strip()}
        if event.strip():
            self.extra["EV"] = [sgf.escape(event.strip())]
        else:
            self.extra.pop("EV", None)

    def comment(self, g: GomokuGame) -> str:
        """The record's comment on g's last move while g follows the record (on the empty
        board: the game's comment, the root's C), else ''."""
        if not g.moves:
            root = self.extra.get("C")
            return sgf.unescape(root[0]).strip() if root else ""
        note = self.comments.get(len(g.moves), "").strip()
        return note if note and self.shared(g) == len(g.moves) else ""

    def set_comment(self, g: GomokuGame, whole: GomokuGame, text: str) -> None:
        """text as the comment of g's last move (on the empty board, the game's comment); ''
        removes it. Where g has left the record's moves or goes past them, the record takes
        whole's moves (the game with the moves taken back while moving through it), and what
        it said of its moves after the ones it shares with g goes."""
        text = text.strip()
        n = len(g.moves)
        if n == 0:
            if text:
                self.extra["C"] = [sgf.escape(text)]
            else:
                self.extra.pop("C", None)
            return
        same = self.shared(g)
        if same < n:
            self.moves = [p for p, _ in whole.moves]
            self.comments = {k: v for k, v in self.comments.items() if k <= same}
            self.marks = {k: v for k, v in self.marks.items() if k <= same}
            self.times_ms = self.times_ms[:same]
        if text:
            self.comments[n] = text
        else:
            self.comments.pop(n, None)

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
