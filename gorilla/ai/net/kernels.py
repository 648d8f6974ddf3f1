"""The net's elementwise and per-point passes as numba kernels (float32, rows of channels).

Everything between the matrix products: a folded batch norm with its activation and the
mask (:func:`norm_act`), the transformer blocks' RMS norm (:func:`rms_norm`), the trunk's
final RMS norm (:func:`rms_norm_tip`), SwiGLU (:func:`swiglu`), the rotary position
embedding with the query/key/value split into batch-first head layouts
(:func:`split_heads`), the masked residual add (:func:`add_masked`) and the heads back side by side
(:func:`merge_heads`). The activations are KataGo's formulas (Eigen's
``eigenbackend.cpp``): ReLU, Mish ``x * tanh(softplus(x))`` with softplus taken as ``x``
above 20, SiLU ``x / (1 + exp(-x))``; their codes are ``model.ACTIVATION_CODES``.

The exponentials of SiLU, Mish and SwiGLU are :func:`exp_into`: Cephes' ``expf`` (a
polynomial on ``[-ln2/2, ln2/2]`` times ``2^n``, relative error below 1e-7, :func:`exp_parts`)
written so that LLVM vectorizes the loop (numba's ``math.exp`` is a scalar call): ``2^n`` is
built as float bits in an int32 view of the output, then multiplied in place; what uses the
exponential reads it in a second loop (one loop that reads back what it wrote through the
other view does not vectorize).

The kernels release the GIL, so evaluations on several threads run in parallel.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

IDENTITY, RELU, MISH, SILU = 0, 1, 2, 3
_LOG2E = np.float32(1.4426950408889634)
_LN2_HI = np.float32(0.693359375)
_LN2_LO = np.float32(-2.12194440e-4)


@njit(cache=True, nogil=True, inline="always")
def exp_parts(x: float) -> tuple[float, int]:
    """``exp(x) = p * 2^n`` of a float32 (clamped to -87..88): ``(p, the float bits of 2^n)``."""
    x = min(max(x, np.float32(-87.0)), np.float32(88.0))
    fl = np.float32(math.floor(x * _LOG2E + np.float32(0.5)))
    f = x - fl * _LN2_HI - fl * _LN2_LO
    p = np.float32(1.9875691500e-4)
    p = p * f + np.float32(1.3981999507e-3)
    p = p * f + np.float32(8.3334519073e-3)
    p = p * f + np.float32(4.1665795894e-2)
    p = p * f + np.float32(1.6666665459e-1)
    p = p * f + np.float32(5.0000001201e-1)
    p = p * f * f + f + np.float32(1.0)
    return p, (np.int32(fl) + np.int32(127)) << 23


@njit(cache=True, nogil=True, inline="always")
def exp_into(src: np.ndarray, dst: np.ndarray, sign: float, hi: float) -> None:
    """``dst = exp(min(src * sign, hi))`` over 1-D float32 arrays (vectorized)."""
    bits = dst.view(np.int32)
    for i in range(src.size):
        p, e = exp_parts(min(src[i] * sign, hi))
        bits[i] = e
        dst[i] = dst[i] * p


@njit(cache=True, nogil=True, inline="always")
def act_row(z: np.ndarray, tmp: np.ndarray, code: int) -> None:
    """``z = act(z)`` in place over a 1-D float32 row (``tmp``: scratch of its size): SiLU
    ``z / (1 + e^-z)``, Mish ``z * n / (n + 2)`` with ``n = e^z (e^z + 2)`` (that is
    ``tanh(softplus(z))``, 1 above 20 as KataGo's), ReLU, identity."""
    one, two = np.float32(1.0), np.float32(2.0)
    if code == RELU:
        for i in range(z.size):
            z[i] = max(z[i], np.float32(0.0))
    elif code == SILU:
        exp_into(z, tmp, np.float32(-1.0), np.float32(88.0))
        for i in range(z.size):
            z[i] = z[i] / (one + tmp[i])
    elif code == MISH:
        exp_into(z, tmp, np.float32(1.0), np.float32(20.0))
        for i in range(z.size):
            n = tmp[i] * (tmp[i] + two)
            z[i] = z[i] * n / (n + two)


@njit(cache=True, nogil=True, inline="always")
def act(a: float, code: int) -> float:
    """One activation (``code``: identity, ReLU, Mish, SiLU) of a float32."""
    if code == RELU:
        return a if a > 0 else np.float32(0.0)
    if code == MISH:
        sp = math.log1p(math.exp(min(a, np.float32(20.0)))) + (max(a, np.float32(20.0)) - np.float32(20.0))
        return a * math.tanh(sp)
    if code == SILU:
        return a / (math.exp(-a) + np.float32(1.0))
    return a


@njit(cache=True, nogil=True)
def norm_act(
    x: np.ndarray, scale: np.ndarray, bias: np.ndarray, mask: np.ndarray, code: int, out: np.ndarray
) -> None:
    """``out[r] = act(x[r] * scale + bias) * mask[r]`` for rows ``x`` ``(R, C)``, mask ``(R,)``."""
    rows, c = x.shape
    tmp = np.empty(c, np.float32)
    for r in range(rows):
        row = out[r]
        for k in range(c):
            row[k] = x[r, k] * scale[k] + bias[k]
        act_row(row, tmp, code)
        m = mask[r]
        if m != 1:
            for k in range(c):
                row[k] *= m


@njit(cache=True, nogil=True)
def rms_norm(x: np.ndarray, weight: np.ndarray, eps: float, mask: np.ndarray, out: np.ndarray) -> None:
    """A transformer block's RMS norm: ``out[r] = x[r] / sqrt(mean(x[r]^2) + eps) * weight``
    (0 off the board)."""
    rows, c = x.shape
    e = np.float32(eps)
    inv_c = np.float32(1.0) / np.float32(c)
    for r in range(rows):
        if mask[r] == 0:
            for k in range(c):
                out[r, k] = 0.0
            continue
        s = np.float32(0.0)
        for k in range(c):
            s += x[r, k] * x[r, k]
        f = np.float32(1.0) / np.float32(math.sqrt(s * inv_c + e))
        for k in range(c):
            out[r, k] = x[r, k] * f * weight[k]


@njit(cache=True, nogil=True)
def rms_norm_tip(
    x: np.ndarray,
    gamma: np.ndarray,
    beta: np.ndarray,
    eps: float,
    spatial: bool,
    code: int,
    mask: np.ndarray,
    out: np.ndarray,
) -> None:
    """The trunk's final RMS norm over ``x`` ``(N, S, C)``: per point, or (``spatial``) over
    each board's points and channels; then ``* gamma + beta``, the activation, 0 off the board."""
    n, pts, c = x.shape
    e = np.float32(eps)
    tmp = np.empty(c, np.float32)
    for b in range(n):
        f = np.float32(0.0)
        if spatial:
            s = np.float32(0.0)
            count = 0
            for p in range(pts):
                if mask[b, p] != 0:
                    for k in range(c):
                        s += x[b, p, k] * x[b, p, k]
                    count += 1
            f = np.float32(1.0) / np.float32(math.sqrt(s / (np.float32(count) * np.float32(c)) + e))
        for p in range(pts):
            if mask[b, p] == 0:
                for k in range(c):
                    out[b, p, k] = 0.0
                continue
            if not spatial:
                s = np.float32(0.0)
                for k in range(c):
                    s += x[b, p, k] * x[b, p, k]
                f = np.float32(1.0) / np.float32(math.sqrt(s / np.float32(c) + e))
            row = out[b, p]
            for k in range(c):
                row[k] = x[b, p, k] * f * gamma[k] + beta[k]
            act_row(row, tmp, code)


@njit(cache=True, nogil=True)
def swiglu(ag: np.ndarray, f: int, out: np.ndarray) -> None:
    """``out[r] = silu(ag[r, :f]) * ag[r, f:]`` (the two halves of one product)."""
    one = np.float32(1.0)
    for r in range(ag.shape[0]):
        row = out[r]
        exp_into(ag[r, :f], row, np.float32(-1.0), np.float32(88.0))
        for k in range(f):
            row[k] = ag[r, k] * ag[r, f + k] / (one + row[k])


@njit(cache=True, nogil=True)
def add_masked(x: np.ndarray, y: np.ndarray, mask: np.ndarray) -> None:
    """``x[r] += y[r] * mask[r]`` for rows ``(R, C)``."""
    rows, c = x.shape
    for r in range(rows):
        m = mask[r]
        if m != 0:
            for k in range(c):
                x[r, k] += y[r, k] * m


@njit(cache=True, nogil=True)
def split_heads(
    qkv: np.ndarray,
    heads: int,
    kv_heads: int,
    q_dim: int,
    v_dim: int,
    cos: np.ndarray,
    sin: np.ndarray,
    q: np.ndarray,
    kt: np.ndarray,
    v: np.ndarray,
) -> None:
    """The rows of one product ``(N, S, heads*q_dim + kv_heads*(q_dim + v_dim))`` into
    ``q`` ``(N, kv_heads, group*S, q_dim)`` (a key-value head's query heads one after the
    other), ``kt`` ``(N, kv_heads, q_dim, S)`` (keys transposed) and ``v`` ``(N, kv_heads,
    S, v_dim + 1)`` (a last column of ones: the softmax's sums come out of its product),
    queries and keys turned by the rotary embedding: pair ``(2p, 2p+1)`` of a head by the
    angle of table row ``[kv head (0 for fixed tables), point, p]`` (``cos`` empty: none)."""
    n, pts, _ = qkv.shape
    group = heads // kv_heads
    k0 = heads * q_dim
    v0 = k0 + kv_heads * q_dim
    pairs = q_dim // 2
    rope = cos.shape[0] > 0
    per_head = cos.shape[0] > 1
    for b in range(n):
        for s in range(pts):
            for kv in range(kv_heads):
                t = kv if per_head else 0
                for j in range(group):
                    h = kv * group + j
                    base = h * q_dim
                    row = j * pts + s
                    if rope:
                        for p in range(pairs):
                            x0 = qkv[b, s, base + 2 * p]
                            x1 = qkv[b, s, base + 2 * p + 1]
                            cv = cos[t, s, p]
                            sv = sin[t, s, p]
                            q[b, kv, row, 2 * p] = x0 * cv - x1 * sv
                            q[b, kv, row, 2 * p + 1] = x0 * sv + x1 * cv
                    else:
                        for d in range(q_dim):
                            q[b, kv, row, d] = qkv[b, s, base + d]
                base = k0 + kv * q_dim
                if rope:
                    for p in range(pairs):
                        x0 = qkv[b, s, base + 2 * p]
                        x1 = qkv[b, s, base + 2 * p + 1]
                        cv = cos[t, s, p]
                        sv = sin[t, s, p]
                        kt[b, kv, 2 * p, s] = x0 * cv - x1 * sv
                        kt[b, kv, 2 * p + 1, s] = x0 * sv + x1 * cv
                else:
                    for d in range(q_dim):
                        kt[b, kv, d, s] = qkv[b, s, base + d]
                base = v0 + kv * v_dim
                for d in range(v_dim):
                    v[b, kv, s, d] = qkv[b, s, base + d]
                v[b, kv, s, v_dim] = 1.0


@njit(cache=True, nogil=True)
def merge_heads(o: np.ndarray, heads: int, v_dim: int, out: np.ndarray) -> None:
    """``o`` ``(N, kv_heads, group*S, v_dim + 1)`` (the last column the softmax's sums) into
    ``out`` ``(N, S, heads*v_dim)``, each row divided by its sum."""
    n, kv_heads, rows, _ = o.shape
    group = heads // kv_heads
    pts = rows // group
    for b in range(n):
        for kv in range(kv_heads):
            for j in range(group):
                h = kv * group + j
                for s in range(pts):
                    r = j * pts + s
                    f = np.float32(1.0) / o[b, kv, r, v_dim]
                    for d in range(v_dim):
                        out[b, s, h * v_dim + d] = o[b, kv, r, d] * f
