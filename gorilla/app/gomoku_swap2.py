"""Swap2 in the window: where the opening stands and who acts, for the Gomoku controller.

The new-game form's Opening row asks for it. The player in the form's Black row opens: it
puts three stones (Black, White, Black). The other player then chooses: it plays White's
fourth stone (it keeps White), passes (it takes Black, and the opener plays White's fourth
stone), or puts two more stones (White, Black), after which the opener chooses: it plays
White's sixth stone (it takes White) or passes (it keeps Black). A pass is the Gomocup
protocol's SWAP: no stone, and the colours are exchanged or kept so that the other player
moves. After the opening the game goes on as any other; its stones cannot be taken back.

Until the colours are chosen the players keep the seats of the form (the opener the Black
seat); :meth:`Swap2.choose` says whether the seats must be exchanged. The AIs' answers come
from :func:`opening_answer`: a built-in agent's from :mod:`gorilla.gomoku.swap2`, a Gomocup
engine's from its ``SWAP2BOARD``.
"""

from __future__ import annotations

from typing import Any

from gorilla.gomoku import rules as R
from gorilla.gomoku import swap2
from gorilla.gomoku.game import GomokuGame

PLACE3 = "place3"  # the opener puts three stones
CHOOSE = "choose"  # the other player: White's fourth stone, pass (take Black) or two more stones
PLACE2 = "place2"  # the other player puts two more stones (White, Black)
CHOOSE2 = "choose2"  # the opener: White's sixth stone (take White) or pass (keep Black)
DONE = "done"

Answer = list[tuple[int, int]] | None  # stones (x, y) put down, or None: pass (SWAP)


class Swap2:
    """Where a Swap2 opening stands (see the module docstring)."""

    def __init__(self) -> None:
        self.phase = PLACE3
        self.swapped = False  # whether the seats were exchanged (the opener plays White)
        self.end = 0  # the moves of the opening, once it is done (undo stops there)

    @property
    def active(self) -> bool:
        """Whether the opening goes on (its stones and choices come before the game)."""
        return self.phase != DONE

    @property
    def choosing(self) -> bool:
        """Whether a player chooses now (a pass or a stone answers)."""
        return self.phase in (CHOOSE, CHOOSE2)

    def actor(self) -> int:
        """The seat (BLACK: the opener, WHITE: the other) whose player acts now."""
        return R.BLACK if self.phase in (PLACE3, CHOOSE2) else R.WHITE

    def first(self, moves: int) -> int:
        """The number of stones on the board when this phase began (undo goes back no further)."""
        return {PLACE3: 0, CHOOSE: 3, PLACE2: 3, CHOOSE2: 5}.get(self.phase, self.end)

    def put(self, moves: int) -> None:
        """A stone of the opening was put; moves: the stones now on the board."""
        if self.phase == PLACE3 and moves == 3:
            self.phase = CHOOSE
        elif self.phase == PLACE2 and moves == 5:
            self.phase = CHOOSE2

    def two_more(self) -> None:
        """The other player puts two more stones instead of choosing."""
        if self.phase != CHOOSE:
            raise ValueError("two more stones only after the first three")
        self.phase = PLACE2

    def choose(self, take_black: bool, moves: int) -> bool:
        """The chooser takes Black (a pass) or White (a stone); the opening ends. Returns
        whether the seats must be exchanged so that each player sits at its colour."""
        if not self.choosing:
            raise ValueError("no colour to choose now")
        chooser = self.actor()
        swap = (chooser == R.WHITE) == take_black
        self.phase, self.end = DONE, moves
        self.swapped = swap
        return swap

    def prompt(self, name: dict[int, str]) -> str:
        """The panel's line: who does what now (name: seat -> the player's name)."""
        who = name[self.actor()]
        if self.phase == PLACE3:
            return f"Swap2: {who} puts three stones (Black, White, Black)"
        if self.phase == CHOOSE:
            return f"Swap2: {who} plays White's stone, passes to take Black, or puts two more (2)"
        if self.phase == PLACE2:
            return f"Swap2: {who} puts two more stones (White, Black)"
        if self.phase == CHOOSE2:
            return f"Swap2: {who} plays White's stone to take White, or passes to keep Black"
        return ""


def opening_answer(agent: Any, game: GomokuGame, seconds: float, seed: int = 0) -> Answer:
    """An AI's Swap2 answer on game (a copy): three stones on an empty board; after three or
    five, one White stone or None (a pass: it takes Black). A Gomocup engine answers its
    ``SWAP2BOARD`` (it may put two more stones after three); a built-in agent searches
    (:mod:`gorilla.gomoku.swap2`)."""
    if hasattr(agent, "swap2"):
        return agent.swap2(game, seconds)
    if not game.moves:
        return swap2.place_three(agent, game, seconds, seed)
    move = swap2.choose(agent, game, seconds)
    return None if move is None else [move]
