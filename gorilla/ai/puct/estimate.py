"""What the window, GTP and the terminal read from the net besides moves: ownership, dead stones,
the policy heat map.

- :func:`net_view`: the net's evaluation of one position averaged over KataGo's eight board
  symmetries, from Black's view (one forward pass of a batch of eight);
- :func:`ownership_grid`: who owns each point at the end, ``size x size`` in ``-1`` (Black) ..
  ``+1`` (White), row 0 on top: the convention of :func:`gorilla.ai.ownership.ownership`, so the
  overlays draw either; the root's ownership averaged over a short search (``visits``), or the
  symmetric evaluation alone (``visits=0``);
- :func:`settled_ownership`: the ownership the dead stones at the end are read from
  (:func:`gorilla.ai.ownership.net_dead_stones`): the mean of two evaluations of the stones as
  set up, once with Black to move and once with White, eight symmetries each, so a finished
  game's last move does not matter, and a lone invader that could fight on with the move (a
  stone in a 4x9 area) still counts as dead when the other side answers;
- :func:`policy_map`: the net's probability of each legal move of the side to move.

Every function needs a board the net plays (:func:`gorilla.ai.puct.evaluator.supports`); the
callers fall back to the playouts and the move model elsewhere.
"""

from __future__ import annotations

import threading

import numpy as np

from gorilla.ai.agent import Budget
from gorilla.ai.net import NetEval
from gorilla.ai.puct.evaluator import shared_net, supports
from gorilla.ai.puct.search import board_points
from gorilla.rules.board import BLACK, WHITE
from gorilla.rules.game import Game

OWNERSHIP_VISITS = 32  # the search behind the ownership overlay (o)


def _check(game: Game) -> None:
    if not supports(game):
        raise ValueError(f"the net does not play {game.size}x{game.size} {game.ruleset.name}")


def net_view(game: Game) -> NetEval:
    """The net's evaluation of game's position, the eight symmetries averaged, from Black's view."""
    _check(game)
    (ev,) = shared_net().evaluate([game], symmetry="all")
    return ev.for_black()


def _grid(black_own: np.ndarray, size: int) -> np.ndarray:
    """KataGo-ordered ownership (Black +1) as the overlays' grid (-1 Black .. +1 White, row 0 on top)."""
    return (-np.asarray(black_own, dtype=np.float64)).reshape(size, size)


def ownership_grid(
    game: Game, visits: int = OWNERSHIP_VISITS, cancel: threading.Event | None = None
) -> np.ndarray:
    """Who owns each point at the end (see the module docstring); ``visits`` 0: no search."""
    _check(game)
    if visits <= 0 or game.over:
        return _grid(net_view(game).ownership, game.size)
    from gorilla.ai.puct.agent import NetAgent

    agent = NetAgent(resign=0.0, seed=0)
    try:
        agent.analyze(game, Budget(playouts=visits), cancel)
        own = agent.ownership()
    finally:
        agent.close()
    if own is None:  # cancelled before the root's evaluation
        return _grid(net_view(game).ownership, game.size)
    return _grid(own[board_points(game.size)], game.size)


def settled_ownership(game: Game) -> np.ndarray:
    """Ownership per flat point (Black +1 .. White -1) of the stones as they stand, the mean of the
    net's views with Black and with White to move (eight symmetries each, no move history): what
    the dead stones at the end are read from (:func:`gorilla.ai.ownership.net_dead_stones`)."""
    _check(game)
    pos = game.position
    stones = [(int(p), c) for c in (BLACK, WHITE) for p in pos.stones(c)]
    views = []
    for to_move in (BLACK, WHITE):
        g = Game.new(game.size, game.ruleset, game.komi)
        g.add_setup(stones, to_move=to_move)
        views.append(g)
    own = np.zeros(pos.b.shape[1], np.float64)
    evs = shared_net().evaluate(views, symmetry="all")
    own[board_points(game.size)] = np.mean([ev.for_black().ownership for ev in evs], axis=0)
    return own


def policy_map(game: Game) -> dict[int, float]:
    """The net's probability of each legal board move of the side to move (pass left out)."""
    ev = net_view(game)
    pts = board_points(game.size)
    return {int(pts[i]): float(ev.policy[i]) for i in np.flatnonzero(ev.policy[: len(pts)] > 0)}


__all__ = ["OWNERSHIP_VISITS", "net_view", "ownership_grid", "policy_map", "settled_ownership"]
