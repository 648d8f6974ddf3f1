"""The transformer blocks of KataGo's nets (model version 17, and inside version 15's nested
bottlenecks) as batched matrix products over the board's points.

The trunk is ``(N, S, C)`` rows, S = the board's points in row-major order from the top. An
attention block is:

1. the RMS norm of each point's channels (``kernels.rms_norm``);
2. one product with the query, key and value projections side by side (``(N*S, C) @ (C,
   heads*q + kv*(q + v))``; the ``1/sqrt(q)`` of the scores folded into the query columns);
3. the rotary position embedding on queries and keys while they are split into batch-first
   head layouts (``kernels.split_heads``): the queries of a key/value head's group one after
   the other ``(N, kv, group*S, q)``, the keys transposed ``(N, kv, q, S)``, the values
   ``(N, kv, S, v + 1)`` with a column of ones;
4. the scores as one batched product ``(group*S, q) @ (q, S)`` per board and key/value head,
   off-board keys pushed to ``-1e30``, then ``exp(score - row max)`` in place (numpy's
   vectorized max and exp);
5. one batched product with the values: the last column the softmax's row sums, by which
   ``kernels.merge_heads`` divides while it puts the heads back side by side;
6. the output projection, added to the trunk (times the mask).

A feed-forward block is the RMS norm, one product with the two halves of SwiGLU side by
side, ``silu(a) * b`` (``kernels.swiglu``), the second product, added to the trunk.

The rotary tables (cos and sin per key/value head, point and pair) are computed once per
board size, as KataGo's ``computeRopeCosSin`` does (float32 angles): learnable, the angle
``x * f_x + y * f_y``; fixed, ``y`` times the frequencies ``theta^(-2p / (q/2))`` for the
first half of the pairs and ``x`` times them for the second.
"""

from __future__ import annotations

import numpy as np

from gorilla.ai.net import kernels as K
from gorilla.ai.net.model import AttentionBlock, FFNBlock

F32 = np.float32


def rope_tables(block: AttentionBlock, h: int, w: int) -> tuple[np.ndarray, np.ndarray]:
    """The rotary tables ``(T, h*w, q_dim/2)`` (T: key/value heads for learnable ones, else 1),
    empty ``(0, 0, 0)`` without rotary embeddings."""
    if block.rope == "none":
        empty = np.zeros((0, 0, 0), F32)
        return empty, empty
    pairs = block.q_dim // 2
    ys, xs = np.divmod(np.arange(h * w), w)
    xs, ys = xs.astype(F32), ys.astype(F32)
    if block.rope == "learnable":
        f = block.rope_freqs  # (kv, pairs, 2)
        angle = xs[None, :, None] * f[:, None, :, 0] + ys[None, :, None] * f[:, None, :, 1]
    else:
        per_dim = pairs // 2
        half = block.q_dim // 2
        p = np.arange(pairs)
        pp = np.where(p < per_dim, p, p - per_dim).astype(F32)
        freq = (F32(1.0) / np.power(F32(block.rope_theta), F32(2) * pp / F32(half))).astype(F32)
        pos = np.where(p[None, :] < per_dim, ys[:, None], xs[:, None])
        angle = (pos * freq[None, :])[None]
    angle = angle.astype(F32)
    return np.cos(angle).astype(F32), np.sin(angle).astype(F32)


class Attention:
    """A transformer attention block, ready to run (see the module's docstring)."""

    def __init__(self, b: AttentionBlock) -> None:
        self.block = b
        self.heads, self.kv, self.q_dim, self.v_dim = b.heads, b.kv_heads, b.q_dim, b.v_dim
        scale = F32(1.0) / np.sqrt(F32(b.q_dim))
        self.wqkv = np.ascontiguousarray(np.concatenate([b.wq * scale, b.wk, b.wv], axis=1).astype(F32))
        self.wo = np.ascontiguousarray(b.wo)
        self._tables: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}

    def tables(self, h: int, w: int) -> tuple[np.ndarray, np.ndarray]:
        """The rotary tables for an h x w board (computed once)."""
        t = self._tables.get((h, w))
        if t is None:
            t = self._tables[(h, w)] = rope_tables(self.block, h, w)
        return t

    def flops(self, points: int) -> int:
        """Multiply-adds times two for one board of ``points`` points."""
        proj = points * (self.wqkv.size + self.wo.size)
        att = self.heads * points * points * (self.q_dim + self.v_dim)
        return 2 * (proj + att)

    def __call__(self, x: np.ndarray, ctx) -> None:
        """``x`` ``(N, S, C)`` += the block's output (``ctx``: the forward pass's mask and size)."""
        n, s, c = x.shape
        rows = x.reshape(n * s, c)
        xn = np.empty_like(rows)
        K.rms_norm(rows, self.block.norm_w, self.block.norm_eps, ctx.mask_rows, xn)
        qkv = (xn @ self.wqkv).reshape(n, s, -1)
        group = self.heads // self.kv
        q = np.empty((n, self.kv, group * s, self.q_dim), F32)
        kt = np.empty((n, self.kv, self.q_dim, s), F32)
        v = np.empty((n, self.kv, s, self.v_dim + 1), F32)
        cos, sin = self.tables(ctx.h, ctx.w)
        K.split_heads(qkv, self.heads, self.kv, self.q_dim, self.v_dim, cos, sin, q, kt, v)
        scores = np.matmul(q, kt)
        if ctx.key_bias is not None:
            scores += ctx.key_bias
        scores -= scores.max(axis=-1, keepdims=True)
        np.exp(scores, out=scores)
        o = np.matmul(scores, v)
        att = np.empty((n, s, self.heads * self.v_dim), F32)
        K.merge_heads(o, self.heads, self.v_dim, att)
        y = att.reshape(n * s, -1) @ self.wo
        ctx.add(rows, y)


class FeedForward:
    """A transformer feed-forward block (SwiGLU), ready to run."""

    def __init__(self, b: FFNBlock) -> None:
        self.block = b
        self.f = b.w1.shape[1]
        self.w1g = np.ascontiguousarray(np.concatenate([b.w1, b.wgate], axis=1))
        self.w2 = np.ascontiguousarray(b.w2)

    def flops(self, points: int) -> int:
        """Multiply-adds times two for one board of ``points`` points."""
        return 2 * points * (self.w1g.size + self.w2.size)

    def __call__(self, x: np.ndarray, ctx) -> None:
        """``x`` ``(N, S, C)`` += the block's output."""
        n, s, c = x.shape
        rows = x.reshape(n * s, c)
        xn = np.empty_like(rows)
        K.rms_norm(rows, self.block.norm_w, self.block.norm_eps, ctx.mask_rows, xn)
        ag = xn @ self.w1g
        hidden = np.empty((n * s, self.f), F32)
        K.swiglu(ag, self.f, hidden)
        ctx.add(rows, hidden @ self.w2)
