"""Winograd F(4x4, 3x3) transforms as numba kernels, fused with what surrounds them.

A 3x3 convolution (same padding, channels last) is computed on 4x4 output tiles read
from 6x6 input tiles (Lavin and Gray 2016)::

    Y = A^T [ (G g G^T) * (B^T d B) ] A

:func:`transform_in` reads the activations ``(N, H, W, C)``, applies the batch norm
folded to ``scale * x + bias``, the activation (identity, ReLU, Mish or SiLU:
:mod:`gorilla.ai.net.kernels`' codes) and the mask on the fly, pads with zeros and
writes ``B^T d B`` for every tile: ``(36, tiles, C)``. The 36 products with the
transformed weights (``(36, C, C_out)``) are BLAS matrix products in numpy.
:func:`transform_out` turns ``(36, tiles, C_out)`` back into ``(N, H, W, C_out)``,
written or added to the output (a residual connection) in the same pass. The inner
loops run over channels, contiguous in memory, so they vectorize.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gorilla.ai.net.kernels import RELU, act


@njit(cache=True, nogil=True)
def transform_in(
    x: np.ndarray,
    scale: np.ndarray,
    bias: np.ndarray,
    mask: np.ndarray,
    code: int,
    v: np.ndarray,
) -> None:
    """``v[36, N*TY*TX, C] = B^T d B`` of every 6x6 tile of ``act(x * scale + bias) * mask``
    (``code``: the activation; a bool reads as identity or ReLU)."""
    n, h, w, c = x.shape
    ty = (h + 3) // 4
    tx = (w + 3) // 4
    d = np.zeros((6, 6, c), dtype=np.float32)
    r = np.empty((6, 6, c), dtype=np.float32)
    for b in range(n):
        for ti in range(ty):
            for tj in range(tx):
                t = (b * ty + ti) * tx + tj
                for yy in range(6):
                    y = 4 * ti + yy - 1
                    for xx in range(6):
                        xc = 4 * tj + xx - 1
                        if 0 <= y < h and 0 <= xc < w and mask[b, y, xc] != 0:
                            m = mask[b, y, xc]
                            if code == RELU:
                                for k in range(c):
                                    a = x[b, y, xc, k] * scale[k] + bias[k]
                                    d[yy, xx, k] = (a if a > 0 else np.float32(0.0)) * m
                            else:
                                for k in range(c):
                                    d[yy, xx, k] = act(x[b, y, xc, k] * scale[k] + bias[k], code) * m
                        else:
                            for k in range(c):
                                d[yy, xx, k] = 0.0
                # B^T along the rows (yy), for each column
                for xx in range(6):
                    for k in range(c):
                        d0 = d[0, xx, k]
                        d1 = d[1, xx, k]
                        d2 = d[2, xx, k]
                        d3 = d[3, xx, k]
                        d4 = d[4, xx, k]
                        d5 = d[5, xx, k]
                        r[0, xx, k] = 4 * d0 - 5 * d2 + d4
                        r[1, xx, k] = -4 * d1 - 4 * d2 + d3 + d4
                        r[2, xx, k] = 4 * d1 - 4 * d2 - d3 + d4
                        r[3, xx, k] = -2 * d1 - d2 + 2 * d3 + d4
                        r[4, xx, k] = 2 * d1 - d2 - 2 * d3 + d4
                        r[5, xx, k] = 4 * d1 - 5 * d3 + d5
                # ... and along the columns (xx)
                for a in range(6):
                    base = a * 6
                    for k in range(c):
                        d0 = r[a, 0, k]
                        d1 = r[a, 1, k]
                        d2 = r[a, 2, k]
                        d3 = r[a, 3, k]
                        d4 = r[a, 4, k]
                        d5 = r[a, 5, k]
                        v[base, t, k] = 4 * d0 - 5 * d2 + d4
                        v[base + 1, t, k] = -4 * d1 - 4 * d2 + d3 + d4
                        v[base + 2, t, k] = 4 * d1 - 4 * d2 - d3 + d4
                        v[base + 3, t, k] = -2 * d1 - d2 + 2 * d3 + d4
                        v[base + 4, t, k] = 2 * d1 - d2 - 2 * d3 + d4
                        v[base + 5, t, k] = 4 * d1 - 5 * d3 + d5


@njit(cache=True, nogil=True)
def transform_out(m: np.ndarray, c0: int, c1: int, out: np.ndarray, accumulate: bool) -> None:
    """``out[N, H, W, c1 - c0] (+)= A^T m A`` of channels ``c0:c1`` of ``m[36, tiles, C]``."""
    n, h, w, _ = out.shape
    ty = (h + 3) // 4
    tx = (w + 3) // 4
    c = c1 - c0
    s = np.empty((4, 6, c), dtype=np.float32)
    q = np.empty((4, c), dtype=np.float32)
    for b in range(n):
        for ti in range(ty):
            for tj in range(tx):
                t = (b * ty + ti) * tx + tj
                # A^T along the first index, for each second index
                for j in range(6):
                    for k in range(c):
                        m0 = m[j, t, c0 + k]
                        m1 = m[6 + j, t, c0 + k]
                        m2 = m[12 + j, t, c0 + k]
                        m3 = m[18 + j, t, c0 + k]
                        m4 = m[24 + j, t, c0 + k]
                        m5 = m[30 + j, t, c0 + k]
                        s[0, j, k] = m0 + m1 + m2 + m3 + m4
                        s[1, j, k] = m1 - m2 + 2 * m3 - 2 * m4
                        s[2, j, k] = m1 + m2 + 4 * m3 + 4 * m4
                        s[3, j, k] = m1 - m2 + 8 * m3 - 8 * m4 + m5
                for i in range(4):
                    y = 4 * ti + i
                    if y >= h:
                        break
                    for k in range(c):
                        m0 = s[i, 0, k]
                        m1 = s[i, 1, k]
                        m2 = s[i, 2, k]
                        m3 = s[i, 3, k]
                        m4 = s[i, 4, k]
                        m5 = s[i, 5, k]
                        q[0, k] = m0 + m1 + m2 + m3 + m4
                        q[1, k] = m1 - m2 + 2 * m3 - 2 * m4
                        q[2, k] = m1 + m2 + 4 * m3 + 4 * m4
                        q[3, k] = m1 - m2 + 8 * m3 - 8 * m4 + m5
                    for jj in range(min(4, w - 4 * tj)):
                        xc = 4 * tj + jj
                        if accumulate:
                            for k in range(c):
                                out[b, y, xc, k] += q[jj, k]
                        else:
                            for k in range(c):
                                out[b, y, xc, k] = q[jj, k]
