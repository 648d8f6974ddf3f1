"""Swap2 in the window: who acts in each phase of the opening, what the panel says, and what
an AI answers, for the Gomoku controller. The phases themselves are the game's
(:class:`gorilla.gomoku.game.GomokuGame`: ``swap2_phase``, ``swap2_put``, ``swap2_two_more``,
``swap2_choose``).

The new-game form's Opening row (or ``--swap2``) asks for it. The player in the form's Black
row opens: it puts three stones (Black, White, Black). The other player then chooses: it
plays White's fourth stone (it keeps White), passes (it takes Black, and the opener plays
White's fourth stone), or puts two more stones (White, Black), after which the opener
chooses: it plays White's sixth stone (it takes White) or passes (it keeps Black). A pass is
the Gomocup protocol's SWAP: no stone, and the colours are exchanged or kept so that the
other player moves. After the opening the game goes on as any other; its stones cannot be
taken back.

Until the colours are chosen the players keep the seats of the form (the opener the Black
seat); once they are, the seats are exchanged when the opener plays White (the game's
``first_player_black`` is False).
"""

from __future__ import annotations

from typing import Any

from gorilla.gomoku import rules as R
from gorilla.gomoku import swap2
from gorilla.gomoku.game import (
    SWAP2_CHOOSE,
    SWAP2_CHOOSE2,
    SWAP2_DONE,
    SWAP2_PLACE2,
    SWAP2_PLACE3,
    SWAP2_STONES,
    GomokuGame,
)

Answer = list[tuple[int, int]] | None  # stones (x, y) put down, or None: pass (SWAP)

# what an AI may answer in each phase: the number of stones (0: a pass)
ANSWERS = {SWAP2_PLACE3: (3,), SWAP2_CHOOSE: (0, 1, 2), SWAP2_CHOOSE2: (0, 1)}
# the stones on the board when a phase begins: undo goes back no further
PHASE_START = {phase: stones[0] for phase, stones in SWAP2_STONES.items()}


def opening(game: GomokuGame) -> bool:
    """Whether game is in a Swap2 opening (its stones and choices come before the game)."""
    return game.swap2_phase != SWAP2_DONE


def choosing(game: GomokuGame) -> bool:
    """Whether a player chooses its colour now (a pass or a White stone answers)."""
    return game.swap2_phase in (SWAP2_CHOOSE, SWAP2_CHOOSE2)


def actor(game: GomokuGame) -> int:
    """The seat (BLACK: the opener, WHITE: the other) whose player acts in the opening."""
    return R.BLACK if game.swap2_phase in (SWAP2_PLACE3, SWAP2_CHOOSE2) else R.WHITE


def undo_floor(game: GomokuGame) -> int:
    """The stones undo leaves on the board: the phase's first ones, or the whole opening."""
    return PHASE_START.get(game.swap2_phase, game.swap2_end)


def prompt(game: GomokuGame, name: dict[int, str]) -> str:
    """The panel's line: who does what now (name: seat -> the player's name)."""
    who = name[actor(game)]
    return {
        SWAP2_PLACE3: f"Swap2: {who} puts three stones (Black, White, Black)",
        SWAP2_CHOOSE: f"Swap2: {who} plays White's stone, passes to take Black, or puts two more (2)",
        SWAP2_PLACE2: f"Swap2: {who} puts two more stones (White, Black)",
        SWAP2_CHOOSE2: f"Swap2: {who} plays White's stone to take White, or passes to keep Black",
    }.get(game.swap2_phase, "")


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
