"""3x3 shape patterns (MoGo's hane / cut / edge patterns, as in michi) as a lookup table.

The eight neighbours of an empty point, each EMPTY/BLACK/WHITE/BORDER (2 bits),
form a 16-bit code; ``PAT3[code]`` is 1 when some rotation, reflection or
colour swap of a pattern below matches. Patterns are written with the move
at the centre; ``X``/``O`` are stones of either colour, ``x`` is "not X"
(empty, O or edge), ``o`` is "not O", ``?`` anything and a space the edge.
"""

from __future__ import annotations

import itertools

import numpy as np
from numba import njit

from gorilla.rules.board import BLACK, BORDER, COLOR, EMPTY, WHITE

PATTERNS: list[list[str]] = [
    ["XOX", "...", "???"],  # hane: enclosing hane
    ["XO.", "...", "?.?"],  # hane: non-cutting hane
    ["XO?", "X..", "x.?"],  # hane: magari
    [".O.", "X..", "..."],  # katatsuke / diagonal attachment
    ["XO?", "O.o", "?o?"],  # cut 1: unprotected cut
    ["XO?", "O.X", "???"],  # cut 1: peeped cut
    ["?X?", "O.O", "ooo"],  # cut 2
    ["OX?", "o.O", "???"],  # cut keima
    ["X.?", "O.?", "   "],  # edge: chase
    ["OX?", "X.O", "   "],  # edge: block side cut
    ["?X?", "x.O", "   "],  # edge: block side connection
    ["?XO", "x.x", "   "],  # edge: sagari
    ["?OX", "X.O", "   "],  # edge: cut
]

_STATE = {".": EMPTY, "X": BLACK, "O": WHITE, " ": BORDER}
_WILD = {"?": ".XO ", "x": ".O ", "o": ".X "}


def _rot90(p: list[str]) -> list[str]:
    return [p[2][0] + p[1][0] + p[0][0], p[2][1] + p[1][1] + p[0][1], p[2][2] + p[1][2] + p[0][2]]


def _symmetries(p: list[str]) -> list[list[str]]:
    out = []
    q = p
    for _ in range(4):
        out.append(q)
        out.append([row[::-1] for row in q])
        q = _rot90(q)
    return out


def _swap(p: list[str]) -> list[str]:
    table = str.maketrans("XOxo", "OXox")
    return [row.translate(table) for row in p]


def build_table(patterns: list[list[str]] = PATTERNS) -> np.ndarray:
    """The uint8 lookup table over all 65536 neighbourhood codes."""
    table = np.zeros(1 << 16, dtype=np.uint8)
    for pat in patterns:
        for sym in _symmetries(pat):
            for variant in (sym, _swap(sym)):
                cells = (
                    variant[0] + variant[1][0] + variant[1][2] + variant[2]
                )  # 8 neighbours, centre left out
                choices = [_WILD.get(ch, ch) for ch in cells]
                for combo in itertools.product(*choices):
                    code = 0
                    for i, ch in enumerate(combo):
                        code |= _STATE[ch] << (2 * i)
                    table[code] = 1
    return table


PAT3 = build_table()


@njit(cache=True, nogil=True, inline="always")
def pat3_code(b: np.ndarray, w: int, p: int) -> int:
    """The neighbourhood code of p: row above (left to right), left, right, row below."""
    return (
        b[COLOR, p - w - 1]
        | (b[COLOR, p - w] << 2)
        | (b[COLOR, p - w + 1] << 4)
        | (b[COLOR, p - 1] << 6)
        | (b[COLOR, p + 1] << 8)
        | (b[COLOR, p + w - 1] << 10)
        | (b[COLOR, p + w] << 12)
        | (b[COLOR, p + w + 1] << 14)
    )
