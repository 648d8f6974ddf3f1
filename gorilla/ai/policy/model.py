"""The move-pattern model: feature strengths (gammas), their file, and move probabilities.

A move's strength is the product of the gammas of its features (one level per
group, see :mod:`gorilla.ai.policy.features`); its probability is its strength
over the sum of the strengths of every legal move and the pass (a
Bradley-Terry model of teams, Coulom 2007). The model keeps natural logs of
the gammas, so a team's strength is ``exp`` of a sum.

The model file (``.gpol``), little-endian:

=========  ==========================================================
bytes      what
=========  ==========================================================
8          the magic ``GORPOLv1``
4          uint32 ``H``, the length of the header
H          the header, JSON in UTF-8: ``groups`` (names), ``levels``
           (levels per group, the last two being the counts of 3x3
           patterns P and diamonds D), and free information (games,
           positions, seed, ...)
4 * L      float32 log-gammas, group after group (L = sum of levels)
4 * P      int32 canonical 3x3 codes of the pattern levels 0..P-1,
           in increasing order
8 * D      int64 diamond keys of the diamond levels 0..D-1, increasing
4          uint32 CRC-32 of every byte before it
=========  ==========================================================

A file that is short, long, of another format or damaged is refused with a
:class:`ModelError` whose message is one line.
"""

from __future__ import annotations

import functools
import json
import os
import struct
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from numba import njit

from gorilla import asset_dirs
from gorilla.ai.policy.features import (
    FIXED_LEVELS,
    GROUP_NAMES,
    NGROUPS,
    canonical_table,
    position_features,
)
from gorilla.rules.board import MAX_POINTS, ZOBRIST

MAGIC = b"GORPOLv1"
MODEL_NAME = "tygem.gpol"
MODEL_DIRS = asset_dirs("policy")
DEFAULT_MODEL = next(
    (d / MODEL_NAME for d in MODEL_DIRS if (d / MODEL_NAME).is_file()), MODEL_DIRS[0] / MODEL_NAME
)


class ModelError(ValueError):
    """A model file that cannot be used (the message is one line)."""


def offsets(levels: tuple[int, ...] | list[int]) -> np.ndarray:
    """int64 start of each group's levels in the flat gamma array, plus the total at the end."""
    return np.concatenate(([0], np.cumsum(levels))).astype(np.int64)


@dataclass
class PolicyModel:
    """Log-gammas of every feature level, the canonical 3x3 codes of the pattern levels and
    the keys of the diamond levels."""

    loggamma: np.ndarray  # float32, FIXED_LEVELS then the 3x3 patterns then the diamonds
    pat_codes: np.ndarray  # int32, increasing
    dkeys: np.ndarray  # int64, increasing
    info: dict = field(default_factory=dict)
    _pidx: np.ndarray | None = field(default=None, repr=False)

    @property
    def levels(self) -> tuple[int, ...]:
        """Levels per group (the last: the 3x3 patterns)."""
        return (*FIXED_LEVELS, len(self.pat_codes), len(self.dkeys))

    @property
    def offs(self) -> np.ndarray:
        """Where each group starts in loggamma."""
        return offsets(self.levels)

    @property
    def pidx(self) -> np.ndarray:
        """int32 over the 2**20 raw 3x3 codes: the pattern level, or -1 for an unknown shape."""
        if self._pidx is None:
            self._pidx = pattern_index(self.pat_codes)
        return self._pidx

    def probabilities(self, b: np.ndarray, st: np.ndarray, c: int) -> tuple[np.ndarray, np.ndarray]:
        """(moves, probabilities) of every legal move of c (and PASS, last) on the board arrays."""
        moves = np.empty(MAX_POINTS + 1, dtype=np.int64)
        feats = np.empty((MAX_POINTS + 1, NGROUPS), dtype=np.int32)
        probs = np.empty(MAX_POINTS + 1, dtype=np.float64)
        n = move_probabilities(
            b, st, ZOBRIST, c, self.pidx, self.dkeys, self.offs, self.loggamma, moves, feats, probs
        )
        return moves[:n].copy(), probs[:n].copy()

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the model file (format in the module docstring)."""
        header = dict(self.info, groups=list(GROUP_NAMES), levels=list(self.levels))
        head = json.dumps(header, sort_keys=True).encode()
        body = (
            MAGIC
            + struct.pack("<I", len(head))
            + head
            + self.loggamma.astype("<f4").tobytes()
            + self.pat_codes.astype("<i4").tobytes()
            + self.dkeys.astype("<i8").tobytes()
        )
        Path(path).write_bytes(body + struct.pack("<I", zlib.crc32(body)))


@functools.cache
def shipped_model() -> PolicyModel:
    """The model in assets/ (loaded once); ModelError if it is missing or damaged."""
    return load_model(DEFAULT_MODEL)


def pattern_index(pat_codes: np.ndarray) -> np.ndarray:
    """The raw-code -> pattern-level table for the canonical codes pat_codes (increasing)."""
    canon = canonical_table()
    if len(pat_codes) == 0:
        return np.full(len(canon), -1, dtype=np.int32)
    pos = np.searchsorted(pat_codes, canon)
    pos = np.minimum(pos, len(pat_codes) - 1)
    return np.where(pat_codes[pos] == canon, pos, -1).astype(np.int32)


def load_model(path: str | os.PathLike[str] = DEFAULT_MODEL) -> PolicyModel:
    """Read a model file; raises ModelError (one line) for anything but a whole, valid one."""
    name = os.fspath(path)
    try:
        data = Path(path).read_bytes()
    except OSError as e:
        raise ModelError(f"cannot read the model file {name}: {e.strerror or e}") from None
    if len(data) < len(MAGIC) + 8 or not data.startswith(MAGIC):
        raise ModelError(f"{name} is not a Gorilla move-pattern model (no {MAGIC.decode()} header)")
    (crc,) = struct.unpack("<I", data[-4:])
    if zlib.crc32(data[:-4]) != crc:
        raise ModelError(f"{name} is damaged or truncated (checksum mismatch)")
    (hlen,) = struct.unpack("<I", data[8:12])
    try:
        header = json.loads(data[12 : 12 + hlen].decode())
        levels = [int(x) for x in header["levels"]]
        groups = list(header["groups"])
    except (ValueError, KeyError, TypeError, UnicodeDecodeError):
        raise ModelError(f"{name} has a malformed header") from None
    if groups != list(GROUP_NAMES) or levels[:-2] != list(FIXED_LEVELS) or min(levels) < 0:
        raise ModelError(f"{name} was written for other features ({', '.join(map(str, groups))})")
    total = sum(levels)
    start = 12 + hlen
    npat, ndia = levels[-2], levels[-1]
    need = start + 4 * total + 4 * npat + 8 * ndia + 4
    if len(data) != need:
        raise ModelError(f"{name} has {len(data)} bytes where its header says {need}")
    lg = np.frombuffer(data, dtype="<f4", count=total, offset=start).astype(np.float32)
    codes = np.frombuffer(data, dtype="<i4", count=npat, offset=start + 4 * total).astype(np.int32)
    dkeys = np.frombuffer(data, dtype="<i8", count=ndia, offset=start + 4 * total + 4 * npat).astype(np.int64)
    if not np.all(np.isfinite(lg)) or np.any(np.diff(codes) <= 0) or np.any(np.diff(dkeys) <= 0):
        raise ModelError(f"{name} holds invalid values")
    info = {k: v for k, v in header.items() if k not in ("groups", "levels")}
    return PolicyModel(lg, codes, dkeys, info)


@njit(cache=True, nogil=True)
def team_logits(feats: np.ndarray, n: int, offs: np.ndarray, lg: np.ndarray, out: np.ndarray) -> None:
    """out[i] = the log-strength of candidate i (the sum of its levels' log-gammas)."""
    for i in range(n):
        s = 0.0
        for g in range(feats.shape[1]):
            lv = feats[i, g]
            if lv >= 0:
                s += lg[offs[g] + lv]
        out[i] = s


@njit(cache=True, nogil=True)
def move_probabilities(
    b: np.ndarray,
    st: np.ndarray,
    zob: np.ndarray,
    c: int,
    pidx: np.ndarray,
    dkeys: np.ndarray,
    offs: np.ndarray,
    lg: np.ndarray,
    moves: np.ndarray,
    feats: np.ndarray,
    probs: np.ndarray,
) -> int:
    """Every legal move of c and PASS into moves, their probabilities into probs; returns the count."""
    n = position_features(b, st, zob, c, pidx, dkeys, moves, feats)
    team_logits(feats, n, offs, lg, probs)
    top = probs[0]
    for i in range(n):
        top = max(top, probs[i])
    total = 0.0
    for i in range(n):
        probs[i] = np.exp(probs[i] - top)
        total += probs[i]
    for i in range(n):
        probs[i] /= total
    return n
