"""Fitting the move model: Coulom's minorization-maximization (MM) for Bradley-Terry teams.

Each sampled position is a competition between the teams of features of every
legal move (and the pass); the move played wins. The candidates' feature
levels go into one array (a row per candidate, a column per group, global
feature indices, ``-1`` none), with ``starts`` delimiting positions (a CSR of
positions over candidates) and ``winner`` the row of the move played.

MM updates one group at a time: ``gamma_i <- (W_i + 1) / (C_i + 2 / (gamma_i + 1))``
where ``W_i`` counts the wins of teams holding i, ``C_i`` sums over positions
the strength of i's teammates over the position's total strength, and the
``+1`` / ``2 / (gamma_i + 1)`` is Coulom's prior (one win and one loss against
a virtual opponent of strength 1). Each step increases the likelihood.

Sampling positions (:func:`extract`) and the fit are seeded; the same files,
settings and seed give the same model.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numba import njit

from gorilla.ai.policy.features import (
    FIXED_LEVELS,
    G_PAT3,
    NGROUPS,
    NRADII,
    PAT3_CODES,
    canonical_table,
    diamond_keys,
    position_features,
)
from gorilla.ai.policy.model import PolicyModel, offsets
from gorilla.ai.policy.records import GameRecord
from gorilla.rules.board import (
    MAX_POINTS,
    OK,
    PASS,
    S_LAST,
    S_LAST2,
    S_N,
    S_TOMOVE,
    ZOBRIST,
    check_move,
    new_board,
    place,
    play_pass,
)

ProgressFn = Callable[[str, int, int, str], None]  # (stage, done, total, note)


@njit(cache=True, nogil=True)
def _play_recorded(b: np.ndarray, st: np.ndarray, zob: np.ndarray, c: int, p: int) -> bool:
    """Play a record's move p (or pass) for c; False, playing nothing, when it is illegal."""
    if p == PASS:
        st[S_TOMOVE] = c  # the mover passes
        play_pass(st)
        return True
    if check_move(b, st, p, c) != OK:
        return False
    place(b, st, zob, p, c)
    return True


@njit(cache=True, nogil=True)
def replay_features(
    game: tuple,
    zob: np.ndarray,
    take: np.ndarray,
    pidx: np.ndarray,
    dkeys: np.ndarray,
    moves: np.ndarray,
    feats: np.ndarray,
    starts: np.ndarray,
    winner: np.ndarray,
    number: np.ndarray,
) -> int:
    """Play the game's moves (game = :func:`record_arrays`' (b, st, colours, points)); before
    each move i with take[i], write every candidate's levels into feats (rows from starts[k])
    and the row of the move played into winner[k].

    Positions whose move is not among the candidates are skipped; an illegal move ends the
    game. Returns the number of positions written (starts[k + 1] ends position k)."""
    b, st, colours, points = game
    k = 0
    row = 0
    starts[0] = 0
    most = st[S_N] * st[S_N] + 1
    for i in range(len(points)):
        c = colours[i]
        p = points[i]
        if take[i] and row + most <= feats.shape[0]:
            n = position_features(b, st, zob, c, pidx, dkeys, moves, feats[row:])
            w = -1
            for j in range(n):
                if moves[j] == p:
                    w = j
            if w >= 0:
                winner[k] = row + w
                number[k] = i
                row += n
                k += 1
                starts[k] = row
        if not _play_recorded(b, st, zob, c, p):
            break
    return k


@njit(cache=True, nogil=True)
def replay_diamonds(game: tuple, zob: np.ndarray, take: np.ndarray, out: np.ndarray) -> int:
    """Play the game's moves (as :func:`replay_features`); for each legal move i but a pass
    with take[i], the diamond keys of the move played into the next row of out. Returns the
    rows written."""
    b, st, colours, points = game
    k = 0
    for i in range(len(points)):
        c = colours[i]
        p = points[i]
        if take[i] and p != PASS and check_move(b, st, p, c) == OK:
            diamond_keys(b, st, p, c, out[k])
            k += 1
        if not _play_recorded(b, st, zob, c, p):
            break
    return k


def record_arrays(rec: GameRecord) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(b, st) with the record's setup stones, and its moves as colour and point arrays."""
    b, st = new_board(rec.size, False)
    for p, c in rec.setup:
        place(b, st, ZOBRIST, p, c)
    st[S_LAST] = PASS  # setup stones are no moves
    st[S_LAST2] = PASS
    if rec.moves:
        st[S_TOMOVE] = rec.moves[0][0]
    colours = np.array([c for c, _ in rec.moves], dtype=np.int64)
    points = np.array([p for _, p in rec.moves], dtype=np.int64)
    return b, st, colours, points


@dataclass
class Samples:
    """Sampled positions: candidate levels (global feature indices), their CSR and the winners."""

    feats: np.ndarray  # int32 (rows, NGROUPS), global indices, -1 none
    starts: np.ndarray  # int64 (positions + 1)
    winner: np.ndarray  # int64 (positions), a row
    number: np.ndarray  # int64 (positions), the move number (0-based)


def sample_positions(records: list[GameRecord], fraction: float, seed: int) -> list[np.ndarray]:
    """For each game, which of its moves are sampled (a random fraction, seeded)."""
    rng = np.random.default_rng(seed)
    return [rng.random(len(rec.moves)) < fraction for rec in records]


def common_diamonds(records: list[GameRecord], takes: list[np.ndarray], min_played: int) -> np.ndarray:
    """The diamond keys (increasing) of the sampled moves played at least min_played times."""
    parts = []
    for rec, take in zip(records, takes, strict=True):
        out = np.empty((int(take.sum()), NRADII), dtype=np.int64)
        k = replay_diamonds(record_arrays(rec), ZOBRIST, take, out)
        parts.append(out[:k].ravel())
    if not parts:
        return np.empty(0, dtype=np.int64)
    keys, counts = np.unique(np.concatenate(parts), return_counts=True)
    return keys[counts >= min_played].astype(np.int64)


def replayed(
    rec: GameRecord, take: np.ndarray, pidx: np.ndarray, dkeys: np.ndarray, moves: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The candidates' levels of rec's positions with take[i] (see :func:`replay_features`;
    moves is scratch of MAX_POINTS + 1): (feats, starts, winner, number), starts of one more
    position than the others (k + 1, from 0), feats of starts[-1] rows."""
    npos = int(take.sum())
    feats = np.empty((npos * (rec.size * rec.size + 1), NGROUPS), dtype=np.int32)
    starts = np.empty(npos + 1, dtype=np.int64)
    winner = np.empty(npos, dtype=np.int64)
    number = np.empty(npos, dtype=np.int64)
    k = replay_features(record_arrays(rec), ZOBRIST, take, pidx, dkeys, moves, feats, starts, winner, number)
    return feats[: starts[k]], starts[: k + 1], winner[:k], number[:k]


def extract(
    records: list[GameRecord],
    takes: list[np.ndarray],
    pidx: np.ndarray,
    dkeys: np.ndarray,
    progress: Callable[[int, int], None] | None = None,
) -> Samples:
    """Candidate levels (group-local; G_PAT3 through pidx, G_DIAMOND through dkeys) of the
    sampled positions."""
    parts_f, parts_s, parts_w, parts_n = [], [], [], []
    rows = 0
    moves = np.empty(MAX_POINTS + 1, dtype=np.int64)
    for gi, (rec, take) in enumerate(zip(records, takes, strict=True)):
        if take.any():
            feats, starts, winner, number = replayed(rec, take, pidx, dkeys, moves)
            parts_f.append(feats)
            parts_s.append(starts[1:] + rows)
            parts_w.append(winner + rows)
            parts_n.append(number)
            rows += int(starts[-1])
        if progress:
            progress(gi + 1, rows)
    if not parts_f:
        return Samples(
            np.empty((0, NGROUPS), np.int32),
            np.zeros(1, np.int64),
            np.empty(0, np.int64),
            np.empty(0, np.int64),
        )
    return Samples(
        np.concatenate(parts_f),
        np.concatenate([[0], *parts_s]).astype(np.int64),
        np.concatenate(parts_w),
        np.concatenate(parts_n),
    )


def index_patterns(feats: np.ndarray, winner: np.ndarray, min_played: int, min_seen: int) -> np.ndarray:
    """The canonical 3x3 codes (increasing) kept as features: played at least min_played
    times, or seen among the candidates at least min_seen times."""
    col = feats[:, G_PAT3]
    seen_codes, seen = np.unique(col[col >= 0], return_counts=True)
    played_codes, played = np.unique(col[winner], return_counts=True)
    keep = set(seen_codes[seen >= min_seen].tolist()) | set(played_codes[played >= min_played].tolist())
    keep.discard(-1)
    return np.array(sorted(keep), dtype=np.int32)


def globalize(feats: np.ndarray, pat_codes: np.ndarray, ndiamonds: int) -> np.ndarray:
    """Group-local levels (G_PAT3 as canonical codes) -> global feature indices, in place."""
    offs = offsets((*FIXED_LEVELS, len(pat_codes), ndiamonds))
    col = feats[:, G_PAT3]
    pos = np.searchsorted(pat_codes, col)
    pos = np.minimum(pos, max(len(pat_codes) - 1, 0))
    known = (col >= 0) & (len(pat_codes) > 0)
    if len(pat_codes):
        known &= pat_codes[pos] == col
    feats[:, G_PAT3] = np.where(known, pos, -1)
    for g in range(NGROUPS):
        c = feats[:, g]
        feats[:, g] = np.where(c >= 0, c + offs[g], -1)
    return feats


@njit(cache=True, nogil=True)
def _strengths(feats: np.ndarray, gamma: np.ndarray, out: np.ndarray) -> None:
    for i in range(feats.shape[0]):
        s = 1.0
        for g in range(feats.shape[1]):
            f = feats[i, g]
            if f >= 0:
                s *= gamma[f]
        out[i] = s


@njit(cache=True, nogil=True)
def mm_step(
    feats: np.ndarray,
    starts: np.ndarray,
    wins: np.ndarray,
    gamma: np.ndarray,
    lo: int,
    hi: int,
    strength: np.ndarray,
    denom: np.ndarray,
) -> None:
    """One MM update of the features lo..hi-1 (one group), in place on gamma."""
    _strengths(feats, gamma, strength)
    for f in range(lo, hi):
        denom[f] = 0.0
    for k in range(len(starts) - 1):
        total = 0.0
        for i in range(starts[k], starts[k + 1]):
            total += strength[i]
        inv = 1.0 / total
        for i in range(starts[k], starts[k + 1]):
            for g in range(feats.shape[1]):
                f = feats[i, g]
                if lo <= f < hi:
                    denom[f] += strength[i] / gamma[f] * inv
    for f in range(lo, hi):
        gamma[f] = (wins[f] + 1.0) / (denom[f] + 2.0 / (gamma[f] + 1.0))


@njit(cache=True, nogil=True)
def log_likelihood(feats: np.ndarray, starts: np.ndarray, winner: np.ndarray, gamma: np.ndarray) -> float:
    """The mean log-probability of the moves played."""
    strength = np.empty(feats.shape[0])
    _strengths(feats, gamma, strength)
    ll = 0.0
    for k in range(len(starts) - 1):
        total = 0.0
        for i in range(starts[k], starts[k + 1]):
            total += strength[i]
        ll += np.log(strength[winner[k]] / total)
    return ll / max(1, len(starts) - 1)


def fit(
    samples: Samples,
    nfeatures: int,
    levels: tuple[int, ...],
    iterations: int,
    progress: ProgressFn | None = None,
) -> np.ndarray:
    """MM iterations over every group in turn; returns the gammas (float64)."""
    feats, starts, winner = samples.feats, samples.starts, samples.winner
    wins = np.zeros(nfeatures)
    for g in range(NGROUPS):
        f = feats[winner, g]
        np.add.at(wins, f[f >= 0], 1.0)
    gamma = np.ones(nfeatures)
    offs = offsets(levels)
    strength = np.empty(feats.shape[0])
    denom = np.zeros(nfeatures)
    for it in range(iterations):
        for g in range(NGROUPS):
            if offs[g + 1] > offs[g]:
                mm_step(feats, starts, wins, gamma, int(offs[g]), int(offs[g + 1]), strength, denom)
        if progress:
            ll = log_likelihood(feats, starts, winner, gamma)
            progress("fit", it + 1, iterations, f"log-likelihood {ll:.4f}")
    return gamma


def train(
    records: list[GameRecord],
    fraction: float = 0.1,
    iterations: int = 20,
    seed: int = 1,
    min_played: int = 2,
    min_seen: int = 50,
    min_diamond: int = 5,
    shapes: bool = True,
    progress: ProgressFn | None = None,
) -> PolicyModel:
    """Sample positions from the records, fit the gammas, and return the model.

    3x3 shapes are kept if played min_played times or seen min_seen times among the
    candidates; diamonds if played min_diamond times in the sampled positions. Without
    ``shapes`` the model has neither (only the tactical and distance features)."""
    t0 = time.monotonic()
    takes = sample_positions(records, fraction, seed)
    dkeys = common_diamonds(records, takes, min_diamond) if shapes else np.empty(0, dtype=np.int64)
    pidx = canonical_table() if shapes else np.full(PAT3_CODES, -1, dtype=np.int32)

    def extracting(games: int, rows: int) -> None:
        if progress:
            progress("positions", games, len(records), f"{rows:,} candidates")

    samples = extract(records, takes, pidx, dkeys, extracting)
    pat_codes = index_patterns(samples.feats, samples.winner, min_played, min_seen)
    globalize(samples.feats, pat_codes, len(dkeys))
    levels = (*FIXED_LEVELS, len(pat_codes), len(dkeys))
    gamma = fit(samples, int(sum(levels)), levels, iterations, progress)
    ll = log_likelihood(samples.feats, samples.starts, samples.winner, gamma)
    info = {
        "games": len(records),
        "sizes": sorted({r.size for r in records}),
        "positions": len(samples.winner),
        "candidates": int(samples.feats.shape[0]),
        "iterations": iterations,
        "seed": seed,
        "fraction": fraction,
        "seconds": round(time.monotonic() - t0, 1),
        "train_log_likelihood": round(float(ll), 4),
    }
    return PolicyModel(np.log(gamma).astype(np.float32), pat_codes, dkeys, info)


def bar(stage: str, done: int, total: int, note: str, out=sys.stderr) -> None:
    """A one-line progress bar on a terminal (rewritten in place)."""
    width = 30
    filled = int(width * done / total) if total else 0
    count = f"{done}/{total}" if total else f"{done}"
    out.write(f"\r{stage:>9} [{'#' * filled}{'.' * (width - filled)}] {count} {note}   ")
    if total and done >= total:
        out.write("\n")
    out.flush()
