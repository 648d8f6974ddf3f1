"""Counting a finished game: area, territory and Little-Go's stones-only score."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from gorilla.rules import board as K
from gorilla.rules.board import BLACK, WHITE
from gorilla.rules.position import Position
from gorilla.rules.rulesets import Ruleset


@dataclass(frozen=True)
class Score:
    """Points for each side and how they were made up."""

    black: float
    white: float
    komi: float
    method: str
    black_territory: int = 0
    white_territory: int = 0
    black_stones: int = 0
    white_stones: int = 0
    black_prisoners: int = 0
    white_prisoners: int = 0
    dead: tuple[int, ...] = field(default_factory=tuple)

    @property
    def margin(self) -> float:
        """Black's lead (negative when White leads)."""
        return self.black - self.white

    @property
    def result(self) -> str:
        """The SGF result string, like 'B+3.5' (see :func:`result_string`)."""
        return result_string(self.margin)

    def breakdown(self) -> str:
        """One line per side: how the points add up."""
        if self.method == "territory":
            b = f"Black: {self.black_territory} territory + {self.black_prisoners} prisoners = {self.black:g}"
            w = (
                f"White: {self.white_territory} territory + {self.white_prisoners} prisoners"
                f" + {self.komi:g} komi = {self.white:g}"
            )
        elif self.method == "stones":
            b = f"Black: {self.black_stones} stones = {self.black:g}"
            w = f"White: {self.white_stones} stones + {self.komi:g} komi = {self.white:g}"
        else:
            b = f"Black: {self.black_stones} stones + {self.black_territory} territory = {self.black:g}"
            w = (
                f"White: {self.white_stones} stones + {self.white_territory} territory"
                f" + {self.komi:g} komi = {self.white:g}"
            )
        return f"{b}\n{w}\nResult: {self.result}"


def result_string(margin: float) -> str:
    """SGF result for Black's margin: 'B+3.5', 'W+0.5', '0' for a draw."""
    if margin > 0:
        return f"B+{margin:g}"
    if margin < 0:
        return f"W+{-margin:g}"
    return "0"


def dead_mask(pos: Position, dead: Iterable[int]) -> np.ndarray:
    """An int8 array over the points: 1 at each stone listed in dead (empty points ignored), else 0."""
    mask = np.zeros(pos.b.shape[1], dtype=np.int8)
    for p in dead:
        if pos.color_at(p) in (BLACK, WHITE):
            mask[p] = 1
    return mask


def ownership(pos: Position, dead: Iterable[int] = ()) -> np.ndarray:
    """Tromp-Taylor owner of every point (flat, BORDER on the border) with dead stones removed."""
    return K.area_owner(pos.b, pos.st, dead_mask(pos, dead))


def score(pos: Position, ruleset: Ruleset, komi: float | None = None, dead: Iterable[int] = ()) -> Score:
    """Score pos under ruleset; dead lists the dead stones (points)."""
    k = ruleset.komi if komi is None else komi
    mask = dead_mask(pos, dead)
    dead_pts = tuple(int(p) for p in np.flatnonzero(mask))
    colors = pos.b[K.COLOR]
    alive = mask == 0
    bs = int(np.count_nonzero((colors == BLACK) & alive))
    ws = int(np.count_nonzero((colors == WHITE) & alive))
    if ruleset.scoring == "stones":
        bs = int(np.count_nonzero(colors == BLACK))
        ws = int(np.count_nonzero(colors == WHITE))
        return Score(bs, ws + k, k, "stones", black_stones=bs, white_stones=ws)
    owner = K.area_owner(pos.b, pos.st, mask)
    empty_or_dead = (colors == K.EMPTY) | (mask != 0)
    bt = int(np.count_nonzero((owner == BLACK) & empty_or_dead))
    wt = int(np.count_nonzero((owner == WHITE) & empty_or_dead))
    parts = dict(black_territory=bt, white_territory=wt, black_stones=bs, white_stones=ws, dead=dead_pts)
    if ruleset.scoring == "territory":
        dead_b = int(np.count_nonzero((colors == BLACK) & ~alive))
        dead_w = int(np.count_nonzero((colors == WHITE) & ~alive))
        bp = pos.captures(BLACK) + dead_w
        wp = pos.captures(WHITE) + dead_b
        return Score(bt + bp, wt + wp + k, k, "territory", black_prisoners=bp, white_prisoners=wp, **parts)
    return Score(bs + bt, ws + wt + k, k, "area", **parts)
