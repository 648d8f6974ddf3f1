"""A Gomoku game as the window draws it and the shared parts play it: the part of Go's ``Game``
API that both read (:class:`gorilla.app.table.Board`, :class:`gorilla.app.kind.PlayedGame`).

The window, the scene and the panel read ``game.size``, ``position.grid()``,
``position.color_at(p)``, ``last_move.point``, ``moves``, ``over``, ``check(p)`` and
a few more, with points numbered as Go's padded board numbers them
(:mod:`gorilla.rules.coords`: ``(y + 1) * (size + 2) + x + 1`` with y from the top row); the
parts ``play``, ``undo`` and ``redo`` (the moves taken back wait on ``redo_stack``), and a
resignation, a loss on time or a forfeit is the view's (``resigned``, ``info.extra_result``).
:class:`GomokuView` answers them from a :class:`gorilla.gomoku.game.GomokuGame`, so the
window draws Gomoku without a line of its own; every answer about legality and fives
comes from :mod:`gorilla.gomoku.rules`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from gorilla.gomoku import rules as R
from gorilla.gomoku.game import GomokuGame
from gorilla.rules.board import PASS, RESIGN


@dataclass(frozen=True)
class ViewMove:
    """One stone of the record as the window reads it: point (window numbering) and colour."""

    point: int
    color: int
    captures: int = 0


@dataclass
class ViewInfo:
    """What the record says of the game beyond its stones: a result they do not give (a loss on
    time or by forfeit, 'B+T'), as Go's ``GameInfo`` keeps it."""

    extra_result: str = ""


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

    def on_board(self, q: int) -> bool:
        """Whether window point q is on the board."""
        return q >= 0 and from_view(self.game, q) is not None


class GomokuView:
    """The Go-``Game``-shaped view of a GomokuGame (see the module docstring)."""

    komi = 0.0
    handicap = 0
    move_offset = 0
    LOSS_REASONS = {"R": "resign", "T": "time", "F": "forfeit"}

    def __init__(self, game: GomokuGame) -> None:
        self.gomoku = game
        self.position = _Position(game)
        self.dead: set[int] = set()
        self.ruleset = ViewRules("gomoku " + R.RULE_NAMES[game.rule])
        self.redo_stack: list[tuple[int, int]] = []  # (board point, colour) taken back, the next last
        self.info = ViewInfo()
        self.resigned = 0  # the colour that resigned

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
    def lost(self) -> tuple[int, str] | None:
        """(the loser, 'R' resigned, 'T' on time, 'F' forfeit), or None."""
        if self.resigned:
            return self.resigned, "R"
        result = self.info.extra_result
        if not result:
            return None
        return (R.WHITE if result.startswith("B") else R.BLACK), result[2:]

    def lose(self, loser: int, how: str) -> None:
        """loser lost: 'R' resigned, 'T' on time, 'F' by forfeit (a record's RE)."""
        if how == "R":
            self.resigned = loser
        else:
            self.info.extra_result = f"{'W' if loser == R.BLACK else 'B'}+{how}"

    @property
    def over(self) -> bool:
        """Whether the game has ended (a five, a full board, a resignation, a flag, a forfeit)."""
        return self.gomoku.over or self.lost is not None

    @property
    def end_reason(self) -> str:
        """'five', 'full board', 'resign', 'time', 'forfeit' or ''."""
        lost = self.lost
        if lost is not None:
            return self.LOSS_REASONS[lost[1]]
        r = self.gomoku.result
        return r.reason if r is not None else ""

    @property
    def result(self) -> str:
        """B+, W+, 0 (a draw), B+R / W+R, B+T / W+T, B+F / W+F, or '' while the game goes on."""
        lost = self.lost
        if lost is not None:
            loser, how = lost
            return f"{'W' if loser == R.BLACK else 'B'}+{how}"
        r = self.gomoku.result
        return r.sgf() if r is not None else ""

    def check(self, q: int, color: int | None = None) -> str | None:
        """None if the side to move (or color) may play window point q, else why not."""
        if q == PASS:
            return "there is no passing in Gomoku"
        if self.over:
            return "the game is over"
        if q == RESIGN:
            return None
        p = from_view(self.gomoku, q)
        if p is None:
            return "off the board"
        c = self.to_move if color is None else color
        if self.gomoku.bd[0][p] != R.EMPTY:
            return "occupied"
        if not R.legal(self.gomoku.bd, p, c):
            return "forbidden for Black under renju"
        return None

    def play(self, q: int, color: int | None = None) -> int:
        """color (default the side to move) plays window point q, or resigns (RESIGN); the
        moves taken back go. ValueError (one line), nothing changed, when it may not."""
        if q == RESIGN:
            if self.over:
                raise ValueError("the game is over")
            self.resigned = self.to_move if color is None else color
        else:
            p = from_view(self.gomoku, q)
            if p is None:
                raise ValueError("off the board")
            self.gomoku.play(p, color)
        self.redo_stack.clear()
        return 0

    def put(self, q: int) -> None:
        """One of a Swap2 opening's stones at window point q (the moves taken back go)."""
        p = from_view(self.gomoku, q)
        if p is None:
            raise ValueError("off the board")
        self.gomoku.swap2_put(p)
        self.redo_stack.clear()

    def undo(self) -> bool:
        """Take back a resignation, else the last stone (onto the redo list); False when none."""
        if self.resigned:
            self.resigned = 0
            return True
        if not self.gomoku.moves:
            return False
        self.redo_stack.append(self.gomoku.undo())
        return True

    def redo(self) -> bool:
        """Play the last stone taken back again; False when there is none."""
        if not self.redo_stack:
            return False
        p, c = self.redo_stack.pop()
        self.gomoku.play(p, c)
        return True

    def whole(self) -> GomokuGame:
        """The game with the stones taken back played again (what the record holds)."""
        g = self.gomoku
        if self.redo_stack:
            g = g.copy()
            for p, c in reversed(self.redo_stack):
                g.play(p, c)
        return g

    def copy(self) -> GomokuView:
        """An independent copy."""
        view = GomokuView(self.gomoku.copy())
        view.redo_stack = list(self.redo_stack)
        view.info = replace(self.info)
        view.resigned = self.resigned
        return view

    def captures(self, color: int) -> int:
        """Gomoku captures nothing."""
        return 0
