"""The net behind the search: games in, :class:`~gorilla.ai.puct.search.Evaluation` out.

A thin adapter over :class:`gorilla.ai.net.Net`: one random symmetry per position
(KataGo's practice), the outputs mapped onto Gorilla's flat points: the policy, the win
rate ``(1 + win - loss) / 2`` (a no-result counts half), the score lead and the
ownership, all for the side to move. A net file is read once per process.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from gorilla.ai.net import Net, default_net_path, load_net
from gorilla.ai.puct.search import Evaluation, board_points
from gorilla.rules.board import MAX_POINTS
from gorilla.rules.game import Game

MIN_NET_SIZE, MAX_NET_SIZE = 7, 19  # the sizes KataGo's nets of this version were trained on

_NETS: dict[str, Net] = {}
_NETS_LOCK = threading.Lock()


def supports(game: Game) -> bool:
    """Whether the net plays game: boards of 7x7 to 19x19, counted by area or territory (not
    Little-Go's stones count, which KataGo's rules cannot express)."""
    return MIN_NET_SIZE <= game.size <= MAX_NET_SIZE and game.ruleset.scoring != "stones"


def shared_net(path: str | Path | None = None) -> Net:
    """The net at path (None: the shipped one), loaded once per process and shared.

    Raises :class:`~gorilla.ai.net.NetError` (one line) for a file that cannot be used.
    """
    p = Path(path) if path else default_net_path()
    key = str(p.resolve())
    with _NETS_LOCK:
        net = _NETS.get(key)
        if net is None:
            net = _NETS[key] = load_net(p)
        return net


class NetEvaluator:
    """Evaluates games with a KataGo net for the search (see the module docstring)."""

    def __init__(self, path: str | Path | None = None, seed: int | None = None):
        self.net = shared_net(path)
        self.rng = np.random.default_rng(seed)
        self._rng_lock = threading.Lock()

    def reseed(self, seed: int) -> None:
        """New random symmetries from now on."""
        with self._rng_lock:
            self.rng = np.random.default_rng(seed)

    def evaluate_games(self, games: Sequence[Game]) -> list[Evaluation]:
        """One evaluation per game, for each game's side to move."""
        with self._rng_lock:
            syms = [int(s) for s in self.rng.integers(0, 8, len(games))]
        out = []
        for g, ev in zip(games, self.net.evaluate(list(games), symmetry=syms), strict=True):
            pts = board_points(g.size)
            area = g.size * g.size
            policy = np.zeros(MAX_POINTS, np.float32)
            policy[pts] = ev.policy[:area]
            ownership = np.zeros(MAX_POINTS, np.float32)
            ownership[pts] = ev.ownership
            out.append(
                Evaluation(
                    policy=policy,
                    pass_prob=float(ev.policy[area]),
                    winrate=0.5 * (1.0 + ev.winrate - ev.loss),
                    lead=ev.score_lead,
                    ownership=ownership,
                    stdev=ev.score_stdev,
                )
            )
        return out
