"""The net behind the search: games in, :class:`~gorilla.ai.puct.search.Evaluation` out.

A thin adapter over :class:`gorilla.ai.net.Net`: one random symmetry per position
(KataGo's practice), the outputs mapped onto Gorilla's flat points: the policy, the win
rate ``(1 + win - loss) / 2`` (a no-result counts half), the score lead and the
ownership, all for the side to move. A net file is read once per process.

:class:`NetInputs` says what the net is told besides the position, as KataGo's search tells
it: the rules (KataGo's, set by ``kata-set-rules`` or an analysis query; default each game's
own), the playout doubling advantage of one player (``playoutDoublingAdvantage``: positive,
that player is assumed to have 2**pda times the opponent's playouts), and how much of the
history before the search's root the net sees (KataGo's analysis engine default,
``ignorePreRootHistory``: none at the root, below it only the moves since the root).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from gorilla.ai.net import Net, default_net_path, legal_moves, load_net
from gorilla.ai.net.inputs import NetRules, encode, set_playout_doubling
from gorilla.ai.puct.search import Evaluation, board_points
from gorilla.rules.board import BLACK, MAX_POINTS
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


@dataclass(frozen=True)
class NetInputs:
    """What the net is told besides the position (module docstring).

    ``rules``: None for each game's own (:meth:`NetRules.from_game`), a komi of None in them
    the game's; ``pda``: the playout doubling advantage of ``pda_color`` (the opponent's is its
    negative); ``history_from``: the net sees only the moves after this many (the search's root
    move number; None: the whole history, as far as KataGo's features reach).
    """

    rules: NetRules | None = None
    pda: float = 0.0
    pda_color: int = BLACK
    history_from: int | None = None

    @property
    def plain(self) -> bool:
        """Whether Net.evaluate's own encoding says it all (no PDA, the whole history)."""
        return self.pda == 0 and self.history_from is None


def cap_history(spatial: np.ndarray, glob: np.ndarray, turns: int) -> None:
    """Show the net at most ``turns`` moves of history, in place (KataGo's ``maxHistory``).

    fillRowV7 stops its history planes (9-13) and pass flags (globals 0-4) there, and its
    ladder planes of the boards one and two moves ago (15, 16) fall back to the newer board
    where the history they come from is not shown."""
    shown = 0
    while shown < 5 and (spatial[9 + shown].any() or glob[shown] != 0):
        shown += 1
    if turns >= shown:
        return
    spatial[9 + turns : 14] = 0.0
    glob[turns:5] = 0.0
    if turns < 1:
        spatial[15] = spatial[14]
    if turns < 2:
        spatial[16] = spatial[15]


class EvalCache:
    """Evaluations kept by the net's inputs, shared by searches (KataGo's NN cache): a position
    met again, in the same search or another, is not evaluated again (the first symmetry drawn
    for it stays, as in KataGo). The least recently used go beyond ``size``; thread-safe."""

    def __init__(self, size: int = 8192) -> None:
        self.size = size
        self._items: OrderedDict[int, Evaluation] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    @staticmethod
    def key(spatial: np.ndarray, glob: np.ndarray) -> int:
        """The key of one position's inputs."""
        return hash((spatial.shape, spatial.tobytes(), glob.tobytes()))

    def get(self, key: int) -> Evaluation | None:
        """The evaluation kept for key, or None."""
        with self._lock:
            ev = self._items.get(key)
            if ev is None:
                self.misses += 1
                return None
            self._items.move_to_end(key)
            self.hits += 1
            return ev

    def put(self, key: int, ev: Evaluation) -> None:
        """Keep an evaluation."""
        with self._lock:
            self._items[key] = ev
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def __len__(self) -> int:
        return len(self._items)

    def clear(self) -> None:
        """Forget every evaluation (KataGo's clear_cache)."""
        with self._lock:
            self._items.clear()


class NetEvaluator:
    """Evaluates games with a KataGo net for the search (see the module docstring)."""

    def __init__(
        self,
        path: str | Path | None = None,
        seed: int | None = None,
        inputs: NetInputs | None = None,
        symmetry: int | None = None,
        cache: EvalCache | None = None,
    ):
        self.net = shared_net(path)
        self.rng = np.random.default_rng(seed)
        self._rng_lock = threading.Lock()
        self.inputs = inputs or NetInputs()
        self.symmetry = symmetry  # the same one of the eight always (nnRandomize false); None: random
        self.cache = cache

    def reseed(self, seed: int) -> None:
        """New random symmetries from now on."""
        with self._rng_lock:
            self.rng = np.random.default_rng(seed)

    def evaluate_games(self, games: Sequence[Game]) -> list[Evaluation]:
        """One evaluation per game, for each game's side to move."""
        if self.symmetry is not None:
            syms = [self.symmetry] * len(games)
        else:
            with self._rng_lock:
                syms = [int(s) for s in self.rng.integers(0, 8, len(games))]
        if not self.inputs.plain or self.cache is not None:
            return self._evaluate_inputs(games, syms)
        out = []
        for g, ev in zip(games, self.net.evaluate(list(games), syms, self.inputs.rules), strict=True):
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

    def _evaluate_inputs(self, games: Sequence[Game], syms: list[int]) -> list[Evaluation]:
        """Games encoded here (the PDA, the history cap), those not in the cache evaluated in
        one forward pass per board size."""
        out: list[Evaluation | None] = [None] * len(games)
        rows = [self._encode(g) for g in games]
        keys = [EvalCache.key(r[0], r[1]) for r in rows] if self.cache is not None else []
        by_size: dict[int, list[int]] = {}
        for i, g in enumerate(games):
            hit = self.cache.get(keys[i]) if self.cache is not None else None
            if hit is not None:
                out[i] = hit
            else:
                by_size.setdefault(g.size, []).append(i)
        for size, idx in by_size.items():
            spatial = np.stack([rows[i][0] for i in idx])
            glob = np.stack([rows[i][1] for i in idx])
            legal = np.stack([rows[i][2] for i in idx])
            no_result = np.array([rows[i][3] for i in idx])
            res = self.net.evaluate_inputs(spatial, glob, [syms[i] for i in idx], legal, no_result)
            for j, i in enumerate(idx):
                out[i] = _evaluation(res, j, size)
                if self.cache is not None:
                    self.cache.put(keys[i], out[i])  # type: ignore[arg-type]
        return out  # type: ignore[return-value]

    def _encode(self, game: Game) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool]:
        """(spatial, global, legal moves, no result possible) of one game under the inputs."""
        s = self.inputs
        rules = s.rules if s.rules is not None else NetRules.from_game(game)
        spatial, glob = encode(game, rules)
        if s.history_from is not None:
            cap_history(spatial, glob, max(0, len(game.moves) - s.history_from))
        if s.pda:
            set_playout_doubling(glob, s.pda if game.to_move == s.pda_color else -s.pda)
        legal = legal_moves(game, spatial, rules.suicide)
        return spatial, glob, legal, rules.ko == "simple" or rules.scoring == "territory"


def _evaluation(res, j: int, size: int) -> Evaluation:  # res: gorilla.ai.net.forward.Outputs
    """Row j of the net's outputs on Gorilla's flat points."""
    pts = board_points(size)
    area = size * size
    policy = np.zeros(MAX_POINTS, np.float32)
    policy[pts] = res.policy[j, :area]
    ownership = np.zeros(MAX_POINTS, np.float32)
    ownership[pts] = res.ownership[j]
    return Evaluation(
        policy=policy,
        pass_prob=float(res.policy[j, area]),
        winrate=0.5 * (1.0 + float(res.wdl[j, 0]) - float(res.wdl[j, 1])),
        lead=float(res.lead[j]),
        ownership=ownership,
        stdev=float(res.score_stdev[j]),
    )
