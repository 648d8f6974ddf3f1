"""A Go position: the board arrays of :mod:`gorilla.rules.board` behind a small API.

Moves are flat point indices (see :mod:`gorilla.rules.coords`), ``PASS`` or
``RESIGN``. ``play`` changes the position only when the move is legal;
``played`` returns a new position and leaves this one alone.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from gorilla.rules import board as K
from gorilla.rules.board import BLACK, BORDER, EMPTY, PASS, WHITE
from gorilla.rules.coords import GTP_LETTERS, check_size, format_vertex, to_index, to_xy

COLOR_NAMES = {BLACK: "black", WHITE: "white"}
_REASONS = {K.OCCUPIED: "occupied", K.SUICIDE: "suicide", K.KO: "ko"}


class IllegalMove(ValueError):
    """A move the rules forbid; str() is the one-word reason (occupied, suicide, ko, superko)."""


def opponent(color: int) -> int:
    """The other colour: WHITE for BLACK and BLACK for WHITE."""
    return 3 - color


def parse_color(text: str) -> int:
    """BLACK or WHITE from 'b', 'black', 'w' or 'white' (any case); ValueError otherwise."""
    t = text.strip().lower()
    if t in ("b", "black"):
        return BLACK
    if t in ("w", "white"):
        return WHITE
    raise ValueError(f"invalid color '{text}'")


class Position:
    """Stones, groups, ko point, captures, side to move and Zobrist hash."""

    __slots__ = ("b", "st", "size")

    def __init__(self, size: int = 19, suicide: bool = False) -> None:
        self.size = check_size(size)
        self.b, self.st = K.new_board(size, suicide)

    # --- copying -------------------------------------------------------
    def copy(self) -> Position:
        """An independent copy (its own board arrays)."""
        new = Position.__new__(Position)
        new.size = self.size
        new.b = self.b.copy()
        new.st = self.st.copy()
        return new

    # --- state ---------------------------------------------------------
    @property
    def to_move(self) -> int:
        """The colour to play next (settable)."""
        return int(self.st[K.S_TOMOVE])

    @to_move.setter
    def to_move(self, color: int) -> None:
        """Give the move to color (no move is played)."""
        self.st[K.S_TOMOVE] = color

    @property
    def hash(self) -> int:
        """The Zobrist hash of the stones on the board (side to move and ko left out)."""
        return int(self.st[K.S_HASH])

    @property
    def ko(self) -> int:
        """The point the side to move may not retake, or 0."""
        return int(self.st[K.S_KO]) if self.st[K.S_KOCOL] == self.to_move else 0

    @property
    def last_move(self) -> int:
        """The point last played, or PASS."""
        return int(self.st[K.S_LAST])

    @property
    def passes(self) -> int:
        """Consecutive passes at the end of the moves so far (0 after a stone is played)."""
        return int(self.st[K.S_PASSES])

    @property
    def suicide_allowed(self) -> bool:
        """Whether the rules allow suicide (the mover's group is then taken off the board)."""
        return bool(self.st[K.S_SUICIDE])

    def captures(self, color: int) -> int:
        """Stones color has captured."""
        return int(self.st[K.S_CAP_B if color == BLACK else K.S_CAP_W])

    def color_at(self, p: int) -> int:
        """EMPTY, BLACK, WHITE or BORDER at point p."""
        return int(self.b[K.COLOR, p])

    def points(self) -> list[int]:
        """Every on-board point index, in board order (top row first); no border points."""
        w = self.size + 2
        return [r * w + c for r in range(1, self.size + 1) for c in range(1, self.size + 1)]

    def on_board(self, p: int) -> bool:
        """Whether p is an index of an on-board point (not the border, not out of range)."""
        return 0 <= p < self.b.shape[1] and self.b[K.COLOR, p] != BORDER

    def stones(self, color: int) -> list[int]:
        """The points holding a stone of color, in board order."""
        return [int(p) for p in np.flatnonzero(self.b[K.COLOR] == color)]

    def group(self, p: int) -> list[int]:
        """The stones of the group at p."""
        h = int(self.b[K.HEAD, p])
        out = [h]
        s = int(self.b[K.NEXT, h])
        while s != h:
            out.append(s)
            s = int(self.b[K.NEXT, s])
        return sorted(out)

    def liberties(self, p: int) -> int:
        """The exact number of distinct liberties of the group at p."""
        w = self.size + 2
        libs = set()
        for s in self.group(p):
            for q in (s - 1, s + 1, s - w, s + w):
                if self.b[K.COLOR, q] == EMPTY:
                    libs.add(q)
        return len(libs)

    def grid(self) -> np.ndarray:
        """Colours as a size x size int8 array, row 0 at the top, column 0 at the left."""
        w = self.size + 2
        return self.b[K.COLOR].reshape(w, w)[1:-1, 1:-1].astype(np.int8)

    # --- moves ---------------------------------------------------------
    def check(self, p: int, color: int | None = None) -> str | None:
        """None if color may play at p (simple ko), else the reason."""
        if p == PASS:
            return None
        if not self.on_board(p):
            return "off board"
        c = self.to_move if color is None else color
        err = K.check_move(self.b, self.st, p, c)
        return _REASONS.get(err)

    def is_legal(self, p: int, color: int | None = None) -> bool:
        """Whether color (default: the side to move) may play at p (simple ko); PASS always may."""
        return self.check(p, color) is None

    def play(self, p: int, color: int | None = None) -> int:
        """Play (or pass) for color, default the side to move; returns stones captured.

        Raises IllegalMove and leaves the position unchanged if the move is illegal.
        """
        c = self.to_move if color is None else color
        if p == PASS:
            self.st[K.S_TOMOVE] = c
            K.play_pass(self.st)
            return 0
        reason = self.check(p, c)
        if reason is not None:
            raise IllegalMove(reason)
        return int(K.place(self.b, self.st, K.ZOBRIST, p, c))

    def played(self, p: int, color: int | None = None) -> Position:
        """A copy with the move played (IllegalMove if it is illegal); this position is unchanged."""
        new = self.copy()
        new.play(p, color)
        return new

    def hash_after(self, p: int, color: int | None = None) -> int:
        """The hash after a move that passes check() (the same hash for a pass)."""
        if p == PASS:
            return self.hash
        c = self.to_move if color is None else color
        return int(K.hash_after(self.b, self.st, K.ZOBRIST, p, c))

    def hashes_after(self, points: Sequence[int] | np.ndarray, color: int | None = None) -> np.ndarray:
        """The hashes after each of points (moves that pass check(), no pass), in one kernel call."""
        c = self.to_move if color is None else color
        pts = np.asarray(points, dtype=np.int64)
        out = np.empty(pts.shape[0], dtype=np.int64)
        K.hashes_after(self.b, self.st, K.ZOBRIST, pts, c, out)
        return out

    def setup_stone(self, p: int, color: int) -> None:
        """Add a setup stone (handicap, SGF AB/AW) without making it a move."""
        if self.b[K.COLOR, p] != EMPTY:
            raise IllegalMove("occupied")
        saved = self.st[[K.S_TOMOVE, K.S_LAST, K.S_LAST2, K.S_MOVES, K.S_PASSES]].copy()
        K.place(self.b, self.st, K.ZOBRIST, p, color)
        self.st[[K.S_TOMOVE, K.S_LAST, K.S_LAST2, K.S_MOVES, K.S_PASSES]] = saved
        self.st[K.S_KO] = 0

    def legal_moves(self, color: int | None = None, reasonable: bool = False) -> list[int]:
        """Legal points (simple ko) for color; without its own eyes if reasonable."""
        c = self.to_move if color is None else color
        out = np.empty(self.b.shape[1], dtype=np.int64)
        n = K.legal_moves(self.b, self.st, c, reasonable, out)
        return [int(p) for p in out[:n]]

    def is_eye(self, p: int, color: int) -> bool:
        """Whether empty p is a single-point true eye of color."""
        return self.b[K.COLOR, p] == EMPTY and bool(K.is_eye(self.b, self.st, p, color))

    # --- text ----------------------------------------------------------
    @classmethod
    def from_diagram(cls, text: str, to_move: int = BLACK, suicide: bool = False) -> Position:
        """A position from rows of ``X`` (black), ``O`` (white) and ``.``, top row first.

        Spaces are ignored; every row must have the same length as there are rows.
        """
        rows = [r.replace(" ", "") for r in text.strip().splitlines() if r.strip()]
        size = len(rows)
        if any(len(r) != size for r in rows):
            raise ValueError("diagram must be square")
        pos = cls(size, suicide)
        drawn = []
        for r, row in enumerate(rows):
            for x, ch in enumerate(row):
                p = to_index(x, size - 1 - r, size)
                if ch in "Xx#@":
                    drawn.append((p, BLACK))
                elif ch in "Oo":
                    drawn.append((p, WHITE))
                elif ch not in ".+,":
                    raise ValueError(f"unknown diagram symbol '{ch}'")
        for p, color in drawn:
            pos.setup_stone(p, color)
        for p, color in drawn:
            if pos.color_at(p) != color:
                raise ValueError(f"diagram: the stone at {format_vertex(p, size)} has no liberties")
        pos.to_move = to_move
        return pos

    def diagram(self) -> str:
        """Rows of X, O and . from the top, as from_diagram reads them."""
        sym = {EMPTY: ".", BLACK: "X", WHITE: "O"}
        return "\n".join("".join(sym[int(c)] for c in row) for row in self.grid())

    def __str__(self) -> str:
        n = self.size
        letters = "   " + " ".join(GTP_LETTERS[:n])
        lines = [letters]
        last = self.last_move
        sym = {EMPTY: ".", BLACK: "X", WHITE: "O"}
        for r, row in enumerate(self.grid()):
            y = n - r
            cells = []
            for c in row:
                cells.append(sym[int(c)])
            line = f"{y:2d} " + " ".join(cells) + f" {y}"
            if last >= 0:
                lx, ly = to_xy(last, n)
                if ly + 1 == y:
                    i = 3 + 2 * lx
                    line = line[: i - 1] + "(" + line[i] + ")" + line[i + 2 :]
            lines.append(line)
        lines.append(letters)
        return "\n".join(lines)

    def __repr__(self) -> str:
        last = format_vertex(self.last_move, self.size)
        return f"Position(size={self.size}, to_move={COLOR_NAMES[self.to_move]}, last={last})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Position)
            and self.size == other.size
            and bool(np.array_equal(self.b[K.COLOR], other.b[K.COLOR]))
            and self.to_move == other.to_move
            and self.ko == other.ko
        )

    __hash__ = None  # type: ignore[assignment]
