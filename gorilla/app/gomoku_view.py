"""A Gomoku game seen through the small part of Go's ``Game`` API that the window draws.

The window, the scene and the panel read ``game.size``, ``position.grid()``,
``position.color_at(p)``, ``last_move.point``, ``moves``, ``over``, ``check(p)`` and
a few more, with points numbered as Go's padded board numbers them
(:mod:`gorilla.rules.coords`: ``(y + 1) * (size + 2) + x + 1`` with y from the top row).
:class:`GomokuView` answers them from a :class:`gorilla.gomoku.game.GomokuGame`, so the
window draws Gomoku without a line of its own; every answer about legality and fives
comes from :mod:`gorilla.gomoku.rules`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gorilla.gomoku import rules as R
from gorilla.gomoku.game import GomokuGame


@dataclass(frozen=True)
class ViewMove:
    """One stone of the record as the window reads it: point (window numbering) and colour."""

    point: int
    color: int
    captures: int = 0


@dataclass(frozen=True)
class ViewRules:
    """The rule's name; ``scoring`` 'stones' so that nothing is ever counted."""

    name: str
    scoring: str = "stones"


def to_view(game: GomokuGame, p: int) -> int:
    """The window's number of the Gomoku board's flat point p."""
    x, y = game.xy(p)
    return (y + 1) * (game.size + 2) + x + 1


def from_view(game: GomokuGame, q: int) -> int | None:
    """The Gomoku board's flat point of window point q, or None off the board."""
    w = game.size + 2
    y, x = divmod(q, w)
    if not (1 <= x <= game.size and 1 <= y <= game.size):
        return None
    return game.point(x - 1, y - 1)


class _Position:
    """The board part of the view: colours by window point."""

    ko = None

    def __init__(self, game: GomokuGame) -> None:
        self.game = game

    def grid(self) -> np.ndarray:
        """Colours as a size x size int8 array, row 0 at the top."""
        g = self.game
        n, w = g.size, g.size + 2 * R.PAD
        cells = g.bd[0].reshape(w, w)[R.PAD : R.PAD + n, R.PAD : R.PAD + n]
        return cells.astype(np.int8)

    def color_at(self, q: int) -> int:
        """EMPTY, BLACK, WHITE at window point q (BORDER off the board)."""
        p = from_view(self.game, q)
        return R.BORDER if p is None else int(self.game.bd[0][p])

    def points(self) -> list[int]:
        """Every on-board window point, top row first."""
        n = self.game.size
        return [(y + 1) * (n + 2) + x + 1 for y in range(n) for x in range(n)]


class GomokuView:
    """The Go-``Game``-shaped view of a GomokuGame (see the module docstring)."""

    komi = 0.0
    handicap = 0
    move_offset = 0
    resigned = 0
    LOSS_REASONS = {"R": "resign", "T": "time", "F": "forfeit"}

    def __init__(self, game: GomokuGame) -> None:
        self.gomoku = game
        self.position = _Position(game)
        self.dead: set[int] = set()
        self.ruleset = ViewRules("gomoku " + R.RULE_NAMES[game.rule])
        self.lost: tuple[int, str] | None = None  # (loser, 'R' resigned, 'T' on time, 'F' forfeit)

    @property
    def size(self) -> int:
        """The board size."""
        return self.gomoku.size

    @property
    def to_move(self) -> int:
        """The colour to play."""
        return self.gomoku.to_move

    @property
    def moves(self) -> list[ViewMove]:
        """The stones in the order played."""
        return [ViewMove(to_view(self.gomoku, p), c) for p, c in self.gomoku.moves]

    @property
    def move_number(self) -> int:
        """How many stones are on the board."""
        return len(self.gomoku.moves)

    @property
    def last_move(self) -> ViewMove | None:
        """The last stone, or None."""
        if not self.gomoku.moves:
            return None
        p, c = self.gomoku.moves[-1]
        return ViewMove(to_view(self.gomoku, p), c)

    @property
    def over(self) -> bool:
        """Whether the game has ended (a five, a full board, a resignation, a flag, a forfeit)."""
        return self.gomoku.over or self.lost is not None

    @property
    def end_reason(self) -> str:
        """'five', 'full board', 'resign', 'time', 'forfeit' or ''."""
        if self.lost is not None:
            return self.LOSS_REASONS[self.lost[1]]
        r = self.gomoku.result
        return r.reason if r is not None else ""

    @property
    def result(self) -> str:
        """B+, W+, 0 (a draw), B+R / W+R, B+T / W+T, B+F / W+F, or '' while the game goes on."""
        if self.lost is not None:
            loser, how = self.lost
            return f"{'W' if loser == R.BLACK else 'B'}+{how}"
        r = self.gomoku.result
        return r.sgf() if r is not None else ""

    def check(self, q: int, color: int | None = None) -> str | None:
        """None if the side to move (or color) may play window point q, else why not."""
        p = from_view(self.gomoku, q)
        if p is None:
            return "off the board"
        if self.over:
            return "the game is over"
        c = self.to_move if color is None else color
        if self.gomoku.bd[0][p] != R.EMPTY:
            return "occupied"
        if not R.legal(self.gomoku.bd, p, c):
            return "forbidden for Black under renju"
        return None

    def captures(self, color: int) -> int:
        """Gomoku captures nothing."""
        return 0
