"""Compile a pattern database into lookup tables for the playout kernel.

The eight neighbours of a point, read in the order NW, N, NE, W, E, SW, S, SE
(``OFFSETS``), each EMPTY/BLACK/WHITE/BORDER (2 bits, the board's colour codes),
form a 16-bit *code*. Only 7,641 codes are geometrically possible (interior
3^8, edges 4 x 3^5, corners 4 x 3^3); ``cidx[c - 1, code]`` maps a code to the
row of the value table for mover c (a White mover sees the colours swapped),
so one table serves both colours. ``table[row, context]`` is the move value
(uint32) for the 256 contexts of :mod:`gorilla.ai.playout.database`.
Neighbourhoods with identical rows share one row, so a database of a few
dozen patterns compiles to a table of a few kilobytes that stays in cache.

Compilation follows GNU Go's semantics: the (pattern, colon line) pairs are
taken in file order, each pattern in its 8 rotations and reflections, and a
(neighbourhood, context) cell takes the value of the first pair that matches
it; unmatched cells get the default value 1.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from gorilla.ai.playout.database import NCONTEXTS, Database

# mover-view cell values used while compiling
C_EMPTY, C_OWN, C_OPP, C_EDGE = 0, 1, 2, 3
CELLS = [(0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2)]  # (row, col) of code cell i
ALLOWED = {
    ".": (C_EMPTY,),
    "O": (C_OWN,),
    "X": (C_OPP,),
    "o": (C_EMPTY, C_OWN),
    "x": (C_EMPTY, C_OPP),
    "?": (C_EMPTY, C_OWN, C_OPP),
    "%": (C_EMPTY, C_OWN, C_OPP, C_EDGE),
    "|": (C_EDGE,),
    "-": (C_EDGE,),
    "+": (C_EDGE,),
}
DEFAULT_VALUE = 1


def _valid_configs() -> np.ndarray:
    """All geometrically possible neighbourhoods as an (n, 8) array of cell values."""
    out = []
    for top, bottom, left, right in itertools.product((0, 1), repeat=4):
        if top and bottom or left and right:
            continue
        off = [
            (top and r == 0) or (bottom and r == 2) or (left and c == 0) or (right and c == 2)
            for r, c in CELLS
        ]
        choices = [(C_EDGE,) if o else (C_EMPTY, C_OWN, C_OPP) for o in off]
        out.extend(itertools.product(*choices))
    return np.array(out, dtype=np.int64)


CONFIGS = _valid_configs()
NCONFIGS = len(CONFIGS)
_CODES = (CONFIGS << (2 * np.arange(8))).sum(axis=1)


def _swap_colours(cfg: np.ndarray) -> np.ndarray:
    out = cfg.copy()
    out[cfg == C_OWN] = C_OPP
    out[cfg == C_OPP] = C_OWN
    return out


def _build_cidx() -> np.ndarray:
    cidx = np.full((2, 1 << 16), -1, dtype=np.int32)
    # Black mover: own = BLACK = 1, opp = WHITE = 2, which are the board codes themselves.
    cidx[0, _CODES] = np.arange(NCONFIGS, dtype=np.int32)
    swapped = (_swap_colours(CONFIGS) << (2 * np.arange(8))).sum(axis=1)
    cidx[1, swapped] = np.arange(NCONFIGS, dtype=np.int32)
    return cidx


CIDX = _build_cidx()
CIDX.setflags(write=False)


def symmetries(diagram: tuple[str, str, str]) -> list[tuple[str, str, str]]:
    """The 8 rotations and reflections of a 3x3 diagram (duplicates included)."""
    grid = np.array([list(r) for r in diagram])
    out = []
    for k in range(4):
        g = np.rot90(grid, k)
        for h in (g, g[:, ::-1]):
            out.append(tuple("".join(row) for row in h))
    return out


def matching_configs(diagram: tuple[str, str, str]) -> np.ndarray:
    """Boolean mask over CONFIGS: neighbourhoods the diagram matches in some orientation."""
    mask = np.zeros(NCONFIGS, dtype=bool)
    for sym in symmetries(diagram):
        allowed = np.zeros((8, 4), dtype=bool)
        for i, (r, c) in enumerate(CELLS):
            allowed[i, list(ALLOWED[sym[r][c]])] = True
        mask |= allowed[np.arange(8), CONFIGS].all(axis=1)
    return mask


@dataclass(frozen=True)
class CompiledPatterns:
    """What the playout kernel needs: ``table`` (rows, 256) uint32 and ``cidx`` (2, 65536) int32."""

    name: str
    table: np.ndarray
    cidx: np.ndarray


def compile_database(db: Database) -> CompiledPatterns:
    """The database as lookup tables: a value per 3x3 configuration and context (first match wins)."""
    table = np.full((NCONFIGS, NCONTEXTS), DEFAULT_VALUE, dtype=np.uint32)
    assigned = np.zeros((NCONFIGS, NCONTEXTS), dtype=bool)
    for pat in db.patterns:
        rows = np.flatnonzero(matching_configs(pat.diagram))
        if rows.size == 0:
            continue
        sub_assigned = assigned[rows]
        sub_table = table[rows]
        for cl in pat.lines:
            ctx = cl.contexts()
            new = ctx[None, :] & ~sub_assigned
            sub_table[new] = cl.value
            sub_assigned |= new
        assigned[rows] = sub_assigned
        table[rows] = sub_table
    # identical rows share one: the table shrinks from megabytes to what stays in cache
    rows, inverse = np.unique(table, axis=0, return_inverse=True)
    inverse = inverse.reshape(-1).astype(np.int32)
    cidx = np.where(CIDX >= 0, inverse[np.maximum(CIDX, 0)], -1).astype(np.int32)
    rows = np.ascontiguousarray(rows, dtype=np.uint32)
    rows.setflags(write=False)
    cidx.setflags(write=False)
    return CompiledPatterns(db.name, rows, cidx)


def neighbourhood_code(cells: list[int]) -> int:
    """The 16-bit code of 8 absolute cell colours in CELLS order (for tests and tools)."""
    return sum(int(v) << (2 * i) for i, v in enumerate(cells))
