"""Seeded games finished by a GTP engine playing itself: end positions for dead-stone checks.

:func:`finished_game` plays one game on a GTP engine (GNU Go in practice)
from an empty board: during the first ``random_moves`` moves, each move is
with probability ``p_random`` a random reasonable move drawn from a seeded
:class:`random.Random` (so the engine has to deal with invaders and unsound
stones that usually end up dead), otherwise the engine's own ``genmove``.
After that the engine plays both sides until two passes in a row (or
``max_moves``). GNU Go's own random seed is set too (``set_random_seed``),
so a seed gives the same game every time. An in-process :class:`Game`
mirrors every move. The engine is then asked for ``final_status_list dead``
and ``final_score``: the reference answers the ownership estimate is
compared with in ``tests/test_ownership.py`` and ``benchmarks/ownership.py``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from gorilla.match.gtp_client import GtpClient
from gorilla.rules.board import BLACK, PASS, RESIGN, WHITE
from gorilla.rules.coords import format_vertex, parse_vertex
from gorilla.rules.game import Game
from gorilla.rules.rulesets import CHINESE

NAMES = {BLACK: "black", WHITE: "white"}


@dataclass
class FinishedGame:
    """A game the engine played to two passes, with the engine's own end-of-game verdict."""

    game: Game
    seed: int
    finished: bool  # ended by two passes (not the move cap or a resignation)
    engine_dead: list[int]  # the engine's final_status_list dead
    engine_score: str  # the engine's final_score, e.g. 'B+3.5'


def finished_game(
    engine: GtpClient,
    size: int,
    seed: int,
    *,
    komi: float = 7.5,
    random_moves: int = 30,
    p_random: float = 0.2,
    max_moves: int | None = None,
) -> FinishedGame:
    """Play one seeded game on engine (which plays both sides) to the end; see the module docstring."""
    rng = random.Random(seed)
    cap = max_moves if max_moves is not None else 4 * size * size
    engine.send(f"boardsize {size}")
    engine.send("clear_board")
    engine.send(f"komi {komi:g}")
    engine.ask(f"set_random_seed {seed}")  # GNU Go's own randomness; other engines may refuse it
    game = Game.new(size, replace(CHINESE, superko=False), komi=komi)  # GNU Go's rules: simple ko
    color = BLACK
    resigned = False
    while not game.over and len(game.moves) < cap:
        p = None
        if len(game.moves) < random_moves and rng.random() < p_random:
            legal = game.legal_moves(color, reasonable=True)
            if legal:
                p = rng.choice(legal)
                engine.send(f"play {NAMES[color]} {format_vertex(p, size)}")
        if p is None:
            p = parse_vertex(engine.send(f"genmove {NAMES[color]}"), size)
            if p == RESIGN:
                resigned = True
                break
        if p == PASS:
            game.pass_move(color)
        else:
            game.play(p, color)
        color = 3 - color
    dead_text = engine.send("final_status_list dead")
    dead = sorted(parse_vertex(v, size) for v in dead_text.split())
    score = engine.send("final_score").strip()
    return FinishedGame(game, seed, game.over and not resigned, dead, score)


__all__ = ["FinishedGame", "finished_game"]
