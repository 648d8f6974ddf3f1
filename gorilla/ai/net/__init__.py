"""A KataGo network evaluated in numpy: policy, win rate, score and ownership of positions.

    net = load_net()                      # the shipped net (assets/net/; GORILLA_NET), or load_net(PATH)
    [ev] = net.evaluate([game])           # one NetEval per game, for the side to move
    ev.policy, ev.winrate, ev.score_lead, ev.ownership
    ev.for_black()                        # the same numbers from Black's view

:class:`NetEval` holds, for one position: ``policy`` (``size*size + 1`` probabilities in
KataGo's order: row by row from the top row, column by column from the left, pass last;
0 for illegal moves; :func:`policy_index` and :func:`point_of` convert to and from
Gorilla's flat points), ``winrate``, ``loss`` and ``no_result`` probabilities,
``score_lead`` (the points the player leads by: what KataGo shows), ``score_mean`` and
``score_stdev`` (the self-play final score's mean and spread), ``ownership`` (``size*size``
values in -1..1 in the same order; 1: the viewer's), all from ``color``'s view; from model
version 9 also ``var_time_left`` and the short-term errors (``shortterm_winloss_error``,
``shortterm_score_error``; -1 before, as KataGo prints them).

Any KataGo net of model versions 8 to 17 (they all read the same inputs, KataGo's input
version 7). The inputs come from :func:`gorilla.ai.net.inputs.encode`; the rules are
:meth:`NetRules.from_game` unless given. ``symmetry`` is one of
KataGo's eight board symmetries (0 is the identity), ``"random"`` (one drawn per position)
or ``"all"`` (the eight averaged). A batch of games is evaluated in one forward pass per
board size. ``optimism`` (0..1, default 0) moves the policy toward the optimistic policy of
the nets that have one (version 12 on), as KataGo's ``policyOptimism`` does.

:mod:`gorilla.ai.net.model` reads the file format (:class:`NetError` for a file that
cannot be used), :mod:`gorilla.ai.net.forward` runs the layers.
"""

from __future__ import annotations

import os
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from gorilla import asset_dirs, asset_file
from gorilla.ai.net.blas import set_blas_threads
from gorilla.ai.net.forward import Forward, Outputs, postprocess, transform, untransform
from gorilla.ai.net.model import Model, NetError, load_model
from gorilla.rules import board as K
from gorilla.rules.board import BLACK, WHITE
from gorilla.rules.game import Game

__all__ = [
    "DEFAULT_NET",
    "Net",
    "NetError",
    "NetEval",
    "default_net_path",
    "load_net",
    "load_net_or_shipped",
    "point_of",
    "policy_index",
    "shipped_net_path",
]

DEFAULT_NET = "g170-b6c96-s175395328-d26788732.bin.gz"
MAX_BATCH = 64  # positions per forward pass (bounds the memory of a big evaluate call)


def default_net_path() -> Path:
    """The net everything uses unless told otherwise: the file named by the environment's
    ``GORILLA_NET`` where it is set (another KataGo net, for the search, ``e``, the review, the
    overlays), else the shipped one (``assets/net/``)."""
    other = os.environ.get("GORILLA_NET")
    return Path(other) if other else shipped_net_path()


def shipped_net_path() -> Path:
    """The shipped net's path (``assets/net/``)."""
    return asset_file("net", DEFAULT_NET)


def shipped_nets() -> list[Path]:
    """Every ``.bin.gz`` in the asset folders."""
    return sorted({p for d in asset_dirs("net") if d.is_dir() for p in d.glob("*.bin.gz")})


def policy_index(point: int, size: int) -> int:
    """The index in a policy or ownership array of Gorilla's flat point (PASS: ``size*size``)."""
    if point == K.PASS:
        return size * size
    r, c = divmod(point, size + 2)
    return (r - 1) * size + (c - 1)


def point_of(index: int, size: int) -> int:
    """Gorilla's flat point of a policy index (``size*size``: PASS)."""
    if index == size * size:
        return K.PASS
    r, c = divmod(index, size)
    return (r + 1) * (size + 2) + c + 1


@dataclass(frozen=True)
class NetEval:
    """The net's view of one position, from ``color``'s side (see the module's docstring)."""

    size: int
    color: int  # whose view: the side to move, or BLACK after for_black()
    to_move: int
    policy: np.ndarray
    winrate: float
    loss: float
    no_result: float
    score_lead: float
    score_mean: float
    score_stdev: float
    ownership: np.ndarray
    legal: np.ndarray | None = None  # the moves the policy ran over (size*size + 1 bools)
    var_time_left: float = -1.0
    shortterm_winloss_error: float = -1.0
    shortterm_score_error: float = -1.0

    def for_black(self) -> NetEval:
        """The same evaluation from Black's view (the policy stays the side to move's)."""
        return self if self.color == BLACK else self.flipped()

    def for_white(self) -> NetEval:
        """The same evaluation from White's view."""
        return self if self.color == WHITE else self.flipped()

    def flipped(self) -> NetEval:
        """The other player's view."""
        return replace(
            self,
            color=3 - self.color,
            winrate=self.loss,
            loss=self.winrate,
            score_lead=-self.score_lead,
            score_mean=-self.score_mean,
            ownership=-self.ownership,
        )

    def best(self, k: int = 5) -> list[tuple[int, float]]:
        """The k likeliest moves as (Gorilla point, probability), likeliest first."""
        order = np.argsort(-self.policy, kind="stable")[:k]
        return [(point_of(int(i), self.size), float(self.policy[i])) for i in order if self.policy[i] > 0]


class Net:
    """A loaded net, ready to evaluate positions (thread-safe: no state changes on evaluate)."""

    def __init__(self, model: Model, path: Path | None = None) -> None:
        self.model = model
        self.path = path
        self.forward = Forward(model)
        self._rng = random.Random()

    @property
    def name(self) -> str:
        """The model's name."""
        return self.model.name

    def evaluate(
        self,
        games: Game | Sequence[Game],
        symmetry: int | str | Sequence[int] = 0,
        rules: object | None = None,
        optimism: float = 0.0,
    ) -> list[NetEval]:
        """One :class:`NetEval` per game (a single game is a list of one), the side to move's view.

        ``symmetry``: 0..7, ``"random"``, ``"all"`` or a list (one 0..7 per game); ``rules``: a
        :class:`~gorilla.ai.net.inputs.NetRules` for every game (default: each game's own);
        ``optimism``: the policy optimism (0..1).
        """
        from gorilla.ai.net.inputs import NetRules, encode

        if isinstance(games, Game):
            games = [games]
        sym_list = _symmetries(symmetry, len(games), self._rng)
        results: list[NetEval | None] = [None] * len(games)
        by_size: dict[int, list[int]] = {}
        for i, g in enumerate(games):
            by_size.setdefault(g.size, []).append(i)
        for size, idx in by_size.items():
            for start in range(0, len(idx), MAX_BATCH):
                chunk = idx[start : start + MAX_BATCH]
                spatial = np.empty((len(chunk), 22, size, size), np.float32)
                glob = np.empty((len(chunk), 19), np.float32)
                legal = np.zeros((len(chunk), size * size + 1), bool)
                no_result = np.zeros(len(chunk), bool)
                for j, i in enumerate(chunk):
                    r = rules if rules is not None else NetRules.from_game(games[i])
                    spatial[j], glob[j] = encode(games[i], r)
                    legal[j] = legal_moves(games[i], spatial[j], r.suicide)
                    no_result[j] = r.ko == "simple" or r.scoring == "territory"
                syms = [sym_list[i] for i in chunk]
                out = self.evaluate_inputs(spatial, glob, syms, legal, no_result, optimism)
                for j, i in enumerate(chunk):
                    results[i] = _net_eval(out, j, size, games[i].to_move, legal[j])
        return results  # type: ignore[return-value]

    def evaluate_inputs(
        self,
        spatial: np.ndarray,
        glob: np.ndarray,
        symmetries: Sequence[int | str] | int | str = 0,
        legal: np.ndarray | None = None,
        no_result: np.ndarray | None = None,
        optimism: float = 0.0,
    ) -> Outputs:
        """Post-processed outputs for a batch of inputs ``(N, 22, H, W)``, ``(N, 19)`` of one size.

        ``symmetries``: one per input or one for all (0..7 or ``"all"``); ``legal``
        ``(N, H*W + 1)``: the moves the policy's softmax runs over (None: every point not
        occupied nor ko-banned in the inputs, and pass); ``no_result`` ``(N,)``: whether the
        rules allow a game without result (None: they do); ``optimism``: the policy optimism.
        """
        n, _, h, w = spatial.shape
        if isinstance(symmetries, (int, str)):
            symmetries = [symmetries] * n
        if legal is None:
            occupied = (spatial[:, 1] + spatial[:, 2] + spatial[:, 6]) > 0
            legal = np.concatenate([~occupied.reshape(n, h * w), np.ones((n, 1), bool)], axis=1)
        # run every (input, symmetry) pair in one batch
        rows: list[tuple[int, int]] = []
        for i, s in enumerate(symmetries):
            for t in range(8) if s == "all" else [int(s)]:
                if not 0 <= t < 8:
                    raise ValueError(f"symmetry {s!r}: 0..7, 'random' or 'all'")
                rows.append((i, t))
        sp = np.empty((len(rows), spatial.shape[1], h, w), np.float32)
        for k, (i, t) in enumerate(rows):
            sp[k] = transform(spatial[i], t)
        raw = self.forward.run(sp, glob[[i for i, _ in rows]])
        # the policy and ownership planes back on the board
        for k, (_, t) in enumerate(rows):
            if t:
                for a in (raw.policy, raw.optimistic):
                    if a is not None:
                        a[k, : h * w] = untransform(a[k, : h * w].reshape(h, w), t).reshape(-1)
                if raw.q is not None:
                    planes = raw.q[k, : h * w].reshape(h, w, 2).transpose(2, 0, 1)
                    raw.q[k, : h * w] = untransform(planes, t).transpose(1, 2, 0).reshape(-1, 2)
                raw.ownership[k] = untransform(raw.ownership[k].reshape(h, w), t).reshape(-1)
        rows_idx = np.array([i for i, _ in rows])
        nr = None if no_result is None else np.asarray(no_result)[rows_idx]
        out = postprocess(raw, self.model, legal[rows_idx], nr, optimism)
        if len(rows) == n:
            return out
        # average the symmetries of each input
        fields = {}
        for f in _AVERAGED:
            a = getattr(out, f)
            acc = np.zeros((n,) + a.shape[1:], np.float64)
            np.add.at(acc, rows_idx, a)
            counts = np.bincount(rows_idx, minlength=n).reshape((n,) + (1,) * (a.ndim - 1))
            fields[f] = (acc / counts).astype(a.dtype)
        return Outputs(**fields)


_AVERAGED = (
    "policy",
    "wdl",
    "score_mean",
    "score_stdev",
    "lead",
    "var_time_left",
    "ownership",
    "shortterm_winloss_error",
    "shortterm_score_error",
)


def _symmetries(symmetry: int | str | Sequence[int], n: int, rng: random.Random) -> list[int | str]:
    if isinstance(symmetry, (list, tuple)):
        if len(symmetry) != n or not all(isinstance(s, int) and 0 <= s < 8 for s in symmetry):
            raise ValueError("symmetries: one 0..7 per game")
        return list(symmetry)
    if symmetry == "random":
        return [rng.randrange(8) for _ in range(n)]
    if symmetry == "all":
        return ["all"] * n
    if isinstance(symmetry, (int, np.integer)) and 0 <= symmetry < 8:
        return [int(symmetry)] * n
    raise ValueError(f"symmetry {symmetry!r}: 0..7, 'random' or 'all'")


def _net_eval(out: Outputs, j: int, size: int, to_move: int, legal: np.ndarray) -> NetEval:
    return NetEval(
        size=size,
        color=to_move,
        to_move=to_move,
        policy=out.policy[j],
        winrate=float(out.wdl[j, 0]),
        loss=float(out.wdl[j, 1]),
        no_result=float(out.wdl[j, 2]),
        score_lead=float(out.lead[j]),
        score_mean=float(out.score_mean[j]),
        score_stdev=float(out.score_stdev[j]),
        ownership=out.ownership[j],
        legal=legal,
        var_time_left=float(out.var_time_left[j]),
        shortterm_winloss_error=float(out.shortterm_winloss_error[j]),
        shortterm_score_error=float(out.shortterm_score_error[j]),
    )


def legal_moves(game: Game, spatial: np.ndarray, suicide: bool) -> np.ndarray:
    """The moves KataGo's policy counts as legal, ``(size*size + 1,)`` bools (pass last): empty
    points that no ko or superko bans (the inputs' plane 6), without suicides (a multi-stone
    suicide is legal when ``suicide`` is; a single-stone one never is, as in KataGo)."""
    n = game.size
    occupied = (spatial[1] + spatial[2]) > 0
    legal = ~(occupied | (spatial[6] > 0))
    # a suicide needs every neighbour occupied: check those points only
    pad = np.ones((n + 2, n + 2), bool)
    pad[1:-1, 1:-1] = occupied
    crowded = pad[:-2, 1:-1] & pad[2:, 1:-1] & pad[1:-1, :-2] & pad[1:-1, 2:]
    pos = game.position
    st = pos.st.copy()
    st[K.S_SUICIDE] = 0
    st[K.S_KO] = 0
    c = pos.to_move
    for r, col in zip(*np.nonzero(legal & crowded), strict=True):
        p = (int(r) + 1) * (n + 2) + int(col) + 1
        if K.check_move(pos.b, st, p, c) == K.SUICIDE:
            own = any(pos.b[K.COLOR, q] == c for q in (p - 1, p + 1, p - n - 2, p + n + 2))
            legal[r, col] = suicide and own
    return np.concatenate([legal.reshape(-1), [True]])


def load_net(path: str | Path | None = None, blas_threads: int | None = 1) -> Net:
    """The net at path (None: the shipped one); raises :class:`NetError` with one line.

    ``blas_threads``: numpy's BLAS is set to this many threads for the whole process (see
    :mod:`gorilla.ai.net.blas`: the net's products are small, one thread each is fastest;
    evaluate from several threads for parallelism); None leaves it as it is."""
    p = Path(path) if path is not None else default_net_path()
    net = Net(load_model(p), p)
    if blas_threads is not None:
        set_blas_threads(blas_threads)
    return net


def load_net_or_shipped(path: str | Path | None, blas_threads: int | None = 1) -> tuple[Net, str | None]:
    """The net at path, or the shipped one where path cannot be used: ``(net, None)`` or
    ``(shipped net, the one-line reason)`` (the engine goes on with the shipped net and says
    why). None: the shipped one."""
    if path is None:
        return load_net(None, blas_threads), None
    try:
        return load_net(path, blas_threads), None
    except NetError as e:
        return load_net(shipped_net_path(), blas_threads), f"{e}; using the shipped net"
