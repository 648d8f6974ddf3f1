"""Texel tuning of the Gomoku evaluation: the weights fitted to game results.

The static evaluation (:func:`gorilla.gomoku.vcf.evaluate`) is linear in the board's
*feature counts*: a colour's threat total is ``wts . F`` where ``F[k]`` counts, over the
empty points, the lines of direction class ``k`` (``F[0:11]``) and the points of point
class ``k`` (``F[11:20]``) a stone of that colour would make (:func:`features`). So the
evaluation of the side to move, ``a * wts . F_own - wts . F_opp`` (``a``: the attack
factor), is linear in the weights, and the probability that the side to move wins can be
modelled as ``sigmoid(K * eval + b)`` (``b``: a side-to-move term). :func:`fit` finds the
weights (some fixed, the others free) that maximize the likelihood of the game results
over quiet positions (:func:`quiet`: no five to make or to stop, no open three to answer,
no VCF for either side), by Newton's method on the log-loss with an L2 pull towards the
starting weights. ``K`` is fitted first with the starting weights and then held, so the
fitted weights keep the evaluation's scale (its fixed weights, the search's margins).

``benchmarks/gomoku_texel.py`` runs it on game records (SGF folders).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numba import njit

from gorilla.gomoku import rules as R
from gorilla.gomoku.patterns import NCLASSES, NPCLASSES, P_F4, P_FIVE
from gorilla.gomoku.vcf import new_state, vcf

NFEATURES = NCLASSES + NPCLASSES


@njit(cache=True, nogil=True)
def features(bd, c: int, out: np.ndarray) -> None:
    """Colour c's feature counts into out[NFEATURES]: the direction classes of its lines and
    the point classes over the board's empty points (so c's threat total is wts . out)."""
    cell, dcls, pcls, st = bd[0], bd[2], bd[3], bd[6]
    n = st[R.S_N]
    w = st[R.S_W]
    out[:] = 0
    for y in range(n):
        base = (y + R.PAD) * w + R.PAD
        for x in range(n):
            p = base + x
            if cell[p] != R.EMPTY:
                continue
            for d in range(4):
                out[dcls[c, d, p]] += 1
            out[NCLASSES + pcls[c, p]] += 1


@njit(cache=True, nogil=True)
def has_class(bd, c: int, lo: int) -> bool:
    """Whether some empty point has a point class of c at least lo (up to a five), by the
    board's class counts (rules.class_count)."""
    for pc in range(lo, P_FIVE + 1):  # noqa: SIM110 - a loop numba compiles (no generator)
        if R.class_count(bd, c, pc) > 0:
            return True
    return False


def quiet(bd: tuple, S: tuple, c: int, vcf_nodes: int = 20_000) -> bool:
    """Whether the position, c to move, is quiet: neither side can make a five, the
    opponent has no open three (a point making an open or double four) and neither side
    has a VCF within vcf_nodes nodes. Freestyle and standard boards (not renju)."""
    o = 3 - c
    if has_class(bd, c, P_F4) or has_class(bd, o, P_F4):
        return False
    for side in (c, o):
        S[0][:] = 0
        S[0][2] = vcf_nodes  # CTL_LIMIT
        if vcf(bd, S, side, 20) >= 0:
            return False
    return True


@dataclass
class Positions:
    """Quiet positions: feature counts of the side to move (own) and of the opponent, the
    result for the side to move (1 win, 0.5 draw, 0 loss), the game and the move number."""

    own: np.ndarray
    opp: np.ndarray
    y: np.ndarray
    game: np.ndarray
    ply: np.ndarray


_RE = re.compile(r"RE\[([^\]]*)\]")
_MOVE = re.compile(r";([BW])\[([a-z]{2})\]")
_GM = re.compile(r"GM\[([^\]]*)\]")


def game_moves(text: str) -> tuple[int, list[tuple[int, int, int]]] | None:
    """(winner: BLACK, WHITE or 0 for a draw; [(colour, x, y)]) of a 15x15-or-smaller SGF
    record, or None without a result, for another game (``GM`` other than 4: Go's records) or
    with a move off a 19x19 board (a Go pass)."""
    m = _RE.search(text)
    if not m or not m.group(1):
        return None
    gm = _GM.search(text)
    if gm and gm.group(1).strip() != "4":
        return None
    r = m.group(1)[0].upper()
    winner = R.BLACK if r == "B" else R.WHITE if r == "W" else 0
    letters = "abcdefghijklmnopqrs"
    found = _MOVE.findall(text)
    if any(v[0] not in letters or v[1] not in letters for _, v in found):
        return None
    mv = [(R.BLACK if col == "B" else R.WHITE, letters.index(v[0]), letters.index(v[1])) for col, v in found]
    return winner, mv


def collect(
    records: list[tuple[int, list[tuple[int, int, int]]]],
    size: int = 15,
    skip: int = 3,
    vcf_nodes: int = 20_000,
) -> Positions:
    """The quiet positions of game records (winner, moves), after the first skip moves (the
    opening) and before the last move."""
    own, opp, ys, gs, ps = [], [], [], [], []
    S = new_state(16, 16)
    fo = np.zeros(NFEATURES, dtype=np.int64)
    fp = np.zeros(NFEATURES, dtype=np.int64)
    for g, (winner, moves) in enumerate(records):
        bd = R.new_board(size, R.FREESTYLE)
        for i, (col, x, y) in enumerate(moves[:-1]):
            R.place(bd, R.point(bd, x, y), col)
            if i + 1 < skip:
                continue
            c = moves[i + 1][0]
            if not quiet(bd, S, c, vcf_nodes):
                continue
            features(bd, c, fo)
            features(bd, 3 - c, fp)
            own.append(fo.copy())
            opp.append(fp.copy())
            ys.append(0.5 if winner == 0 else float(winner == c))
            gs.append(g)
            ps.append(i + 1)
    z = np.zeros((0, NFEATURES), dtype=np.int64)
    return Positions(
        np.array(own) if own else z,
        np.array(opp) if opp else z,
        np.array(ys, dtype=np.float64),
        np.array(gs, dtype=np.int64),
        np.array(ps, dtype=np.int64),
    )


def load_records(folders: list[Path]) -> list[tuple[int, list[tuple[int, int, int]]]]:
    """Every decided SGF record under the folders, each distinct move sequence once."""
    seen: set[tuple] = set()
    out = []
    for folder in folders:
        for path in sorted(Path(folder).rglob("*.sgf")):
            rec = game_moves(path.read_text(encoding="utf-8", errors="replace"))
            if rec is None or len(rec[1]) < 6:
                continue
            key = tuple(rec[1])
            if key in seen:
                continue
            seen.add(key)
            out.append(rec)
    return out


def log_loss(z: np.ndarray, y: np.ndarray) -> float:
    """The mean log-loss of logits z against results y."""
    return float(np.mean(np.logaddexp(0.0, z) - y * z))


def newton(
    X: np.ndarray,
    y: np.ndarray,
    prior: np.ndarray,
    reg: np.ndarray,
    offset: np.ndarray | None = None,
    iters: int = 100,
) -> np.ndarray:
    """Logistic regression of y on X (no intercept given: pass a column of ones) plus a fixed
    offset logit, by damped Newton steps (halved until the objective falls), with the
    penalty sum(reg * (theta - prior)^2) / 2."""
    theta = prior.astype(np.float64).copy()
    n = len(y)
    off = np.zeros(n) if offset is None else offset

    def objective(t: np.ndarray) -> float:
        return log_loss(X @ t + off, y) + 0.5 * float(np.sum(reg * (t - prior) ** 2))

    cur = objective(theta)
    for _ in range(iters):
        z = X @ theta + off
        p = 1.0 / (1.0 + np.exp(-np.clip(z, -40, 40)))
        grad = X.T @ (p - y) / n + reg * (theta - prior)
        h = (X * (p * (1 - p))[:, None]).T @ X / n + np.diag(reg)
        step = np.linalg.lstsq(h, grad, rcond=None)[0]
        t = 1.0
        while t > 1e-6:
            new = objective(theta - t * step)
            if new <= cur:
                break
            t /= 2
        if t <= 1e-6:
            break
        theta -= t * step
        done = cur - new < 1e-12
        cur = new
        if done:
            break
    return theta


def evaluation(pos: Positions, wts: np.ndarray, attack: float) -> np.ndarray:
    """The static evaluation of every position for the side to move (unclipped)."""
    return attack * (pos.own @ wts) - pos.opp @ wts


def fit_scale(pos: Positions, wts: np.ndarray, attack: float) -> tuple[float, float]:
    """(K, b): the logistic scale and side-to-move term of the evaluation with weights wts."""
    e = evaluation(pos, wts, attack)
    s = max(1.0, float(np.std(e)))
    X = np.stack([e / s, np.ones_like(e)], axis=1)
    k, b = newton(X, pos.y, np.zeros(2), np.zeros(2))
    return k / s, b


def fit(
    pos: Positions, wts: np.ndarray, free: list[int], attack: float, scale: float, reg: float = 1e-3
) -> tuple[np.ndarray, float]:
    """Weights with the indices free refitted (the others as in wts), for the attack factor
    and the logistic scale given; and the side-to-move term. The pull towards wts is reg
    per (weight change / max(weight, 10))^2."""
    wts = np.asarray(wts, dtype=np.float64)
    fixed = wts.copy()
    fixed[free] = 0
    base = scale * evaluation(pos, fixed, attack)
    cols = scale * (attack * pos.own[:, free] - pos.opp[:, free])
    unit = np.maximum(np.abs(wts[free]), 10.0)
    X = np.concatenate([cols * unit, np.ones((len(pos.y), 1))], axis=1)
    prior = np.concatenate([wts[free] / unit, [0.0]])
    regs = np.concatenate([np.full(len(free), reg), [0.0]])
    theta = newton(X, pos.y, prior, regs, offset=base)
    out = wts.copy()
    out[free] = theta[: len(free)] * unit
    return out, float(theta[len(free)])


def split(pos: Positions, holdout: float = 0.2, seed: int = 0) -> tuple[Positions, Positions]:
    """Train and test positions, split by game."""
    games = np.unique(pos.game)
    rng = np.random.default_rng(seed)
    test_games = set(rng.choice(games, size=max(1, int(len(games) * holdout)), replace=False).tolist())
    mask = np.array([g in test_games for g in pos.game])

    def take(m: np.ndarray) -> Positions:
        return Positions(pos.own[m], pos.opp[m], pos.y[m], pos.game[m], pos.ply[m])

    return take(~mask), take(mask)
