"""Vertices: GTP/SGF strings, (x, y) pairs and flat board indices.

``(x, y)``: x is the column from the left (0 = A), y the row from the bottom
(0 = row 1), as GTP counts. Flat index: see :mod:`gorilla.rules.board`.
GTP letters skip I; Gomoku's (Renju notation, as Gomoku programs label the board) do not.
"""

from __future__ import annotations

from gorilla.rules.board import MAX_SIZE, PASS, RESIGN

GTP_LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
GOMOKU_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXY"  # columns A-O on 15x15, I included


def to_index(x: int, y: int, size: int) -> int:
    """The flat index of (x, y) on a size x size board."""
    return (size - y) * (size + 2) + x + 1


def to_xy(p: int, size: int) -> tuple[int, int]:
    """The (x, y) of a flat index on a size x size board (the inverse of to_index)."""
    w = size + 2
    return p % w - 1, size - p // w


def on_board(x: int, y: int, size: int) -> bool:
    """True if (x, y) lies on a size x size board."""
    return 0 <= x < size and 0 <= y < size


def parse_vertex(text: str, size: int) -> int:
    """A GTP vertex ('D4', 'pass', 'resign') as a flat index, PASS or RESIGN.

    Raises ValueError with a one-line reason for anything else.
    """
    t = text.strip().upper()
    if t == "PASS":
        return PASS
    if t == "RESIGN":
        return RESIGN
    if len(t) < 2 or t[0] not in GTP_LETTERS or not t[1:].isdigit():
        raise ValueError(f"invalid coordinate '{text}'")
    x = GTP_LETTERS.index(t[0])
    y = int(t[1:]) - 1
    if not on_board(x, y, size):
        raise ValueError(f"coordinate '{text}' is off the {size}x{size} board")
    return to_index(x, y, size)


def format_vertex(p: int, size: int, letters: str = GTP_LETTERS) -> str:
    """A flat index, PASS or RESIGN as GTP writes it: 'D4', 'pass', 'resign' (with letters:
    the columns' letters, :data:`GOMOKU_LETTERS` for Gomoku)."""
    if p == PASS:
        return "pass"
    if p == RESIGN:
        return "resign"
    x, y = to_xy(p, size)
    return f"{letters[x]}{y + 1}"


def check_size(size: int) -> int:
    """size itself when it lies in 2..MAX_SIZE (25), else ValueError with a one-line reason."""
    if not 2 <= size <= MAX_SIZE:
        raise ValueError(f"board size {size} is outside 2..{MAX_SIZE}")
    return size
