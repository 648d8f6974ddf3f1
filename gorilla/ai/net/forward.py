"""The forward pass of a KataGo net in numpy (float32, channels last), and its post-processing.

Layout: activations are ``(N, H, W, C)`` float32 arrays (a batch of boards of one size);
a 1x1 convolution is one matrix product over ``(N*H*W, C)``. A 3x3 convolution is
Winograd's F(4x4, 3x3), as KataGo's CPU backend does it: the board cut into 4x4 output
tiles read from 6x6 input tiles, the tiles transformed (``B^T d B``), 36 matrix products
of ``(tiles, C_in) @ (C_in, C_out)`` with the transformed weights (``G g G^T``, computed
once), and the products transformed back (``A^T m A``); it needs 3.6 times fewer
multiplications than the direct convolution, all in BLAS. Other kernels (the 5x5 initial
convolution) are one im2col product.

The mask (the spatial input's first plane: 1 on the board) multiplies every activation
before a convolution and before a pooling, exactly where KataGo masks, so a board smaller
than the buffer gives what the board alone gives. Global pooling is KataGo's: the mean
over the board, the mean times ``(sqrt(area) - 14) / 10``, and the max (the value head
has a third term, ``mean * ((sqrt(area) - 14)^2 / 100 - 0.1)``, in place of the max).

:func:`postprocess` turns the raw outputs into KataGo's numbers (``nneval.cpp``): the
policy as a softmax over the legal moves and pass, the win/loss/no-result softmax, the
scores times the model's multipliers, ``tanh`` of the ownership; all for the side to move.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gorilla.ai.net import winograd as W
from gorilla.ai.net.model import Conv, Dense, GPoolBlock, Model, Norm

F32 = np.float32

# Winograd F(4x4, 3x3) (Lavin and Gray 2016): Y = A^T [(G g G^T) * (B^T d B)] A
_BT = np.array(
    [
        [4, 0, -5, 0, 1, 0],
        [0, -4, -4, 1, 1, 0],
        [0, 4, -4, -1, 1, 0],
        [0, -2, -1, 2, 1, 0],
        [0, 2, -1, -2, 1, 0],
        [0, 4, 0, -5, 0, 1],
    ],
    dtype=np.float64,
)
_G = np.array(
    [
        [1 / 4, 0, 0],
        [-1 / 6, -1 / 6, -1 / 6],
        [-1 / 6, 1 / 6, -1 / 6],
        [1 / 24, 1 / 12, 1 / 6],
        [1 / 24, -1 / 12, 1 / 6],
        [0, 0, 1],
    ],
    dtype=np.float64,
)
_AT = np.array(
    [
        [1, 1, 1, 1, 1, 0],
        [0, 1, -1, 2, -2, 0],
        [0, 1, 1, 4, 4, 0],
        [0, 1, -1, 8, -8, 1],
    ],
    dtype=np.float64,
)


def winograd_weights(w: np.ndarray) -> np.ndarray:
    """3x3 weights ``(3, 3, in, out)`` transformed to ``(36, in, out)`` (``G g G^T`` per pair)."""
    u = np.einsum("ai,ijco,bj->abco", _G, w.astype(np.float64), _G)
    return np.ascontiguousarray(u.reshape(36, w.shape[2], w.shape[3]).astype(F32))


class _Conv3:
    """A 3x3 convolution by Winograd: the norm before it fused into the input transform."""

    def __init__(self, conv: Conv) -> None:
        self.cin = conv.in_channels
        self.cout = conv.out_channels
        self.u = winograd_weights(conv.w)

    def transform(self, x: np.ndarray, norm: Norm, mask: np.ndarray) -> np.ndarray:
        """``B^T d B`` of ``norm(x) * mask``: ``(36, tiles, C)``."""
        n, h, w, c = x.shape
        v = np.empty((36, n * (-(-h // 4)) * (-(-w // 4)), c), F32)
        W.transform_in(x, norm.scale, norm.bias, mask, norm.relu, v)
        return v

    def __call__(
        self, x: np.ndarray, norm: Norm, mask: np.ndarray, out: np.ndarray | None = None
    ) -> np.ndarray:
        """``conv(norm(x) * mask)``, written to a new array or added to ``out``."""
        m = np.matmul(self.transform(x, norm, mask), self.u)
        if out is None:
            out = np.empty(x.shape[:3] + (self.cout,), F32)
            W.transform_out(m, 0, self.cout, out, False)
        else:
            W.transform_out(m, 0, self.cout, out, True)
        return out


def conv3_direct(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """A 3x3 convolution ``(N, H, W, in)`` -> ``(N, H, W, out)`` by its definition (for tests)."""
    return _im2col(x, np.ascontiguousarray(w.reshape(-1, w.shape[3])), 3)


def _im2col(x: np.ndarray, w2: np.ndarray, k: int) -> np.ndarray:
    n, h, w, c = x.shape
    r = k // 2
    xp = np.zeros((n, h + 2 * r, w + 2 * r, c), F32)
    xp[:, r : r + h, r : r + w] = x
    s = xp.strides
    cols = np.lib.stride_tricks.as_strided(xp, (n, h, w, k, k, c), (s[0], s[1], s[2], s[1], s[2], s[3]))
    return (cols.reshape(n * h * w, k * k * c) @ w2).reshape(n, h, w, w2.shape[1])


def _norm(x: np.ndarray, norm: Norm, mask: np.ndarray | None) -> np.ndarray:
    y = x * norm.scale
    y += norm.bias
    if norm.relu:
        np.maximum(y, 0, out=y)
    if mask is not None:
        y *= mask
    return y


def _dense(x: np.ndarray, d: Dense) -> np.ndarray:
    y = x @ d.w
    if d.bias is not None:
        y += d.bias
    return y


def _pool(x: np.ndarray, area: np.ndarray, mask: np.ndarray | None) -> np.ndarray:
    """KataGo's global pooling of masked ReLU outputs: mean, scaled mean, max -> ``(N, 3C)``."""
    mean = x.sum(axis=(1, 2)) / area[:, None]
    scaled = mean * ((np.sqrt(area) - F32(14)) * F32(0.1))[:, None]
    # off the board the activations are 0; KataGo counts them as -1, below any ReLU output
    mx = (x if mask is None else x + (mask - F32(1))).max(axis=(1, 2))
    return np.concatenate([mean, scaled, mx], axis=1)


def _pool_value(x: np.ndarray, area: np.ndarray) -> np.ndarray:
    mean = x.sum(axis=(1, 2)) / area[:, None]
    b = np.sqrt(area) - F32(14)
    return np.concatenate(
        [mean, mean * (b * F32(0.1))[:, None], mean * (b * b * F32(0.01) - F32(0.1))[:, None]], 1
    )


@dataclass
class RawOutput:
    """The net's outputs before post-processing, for a batch; the side to move's view.

    ``policy``: ``(N, H*W + 1)`` logits, row-major from the top row, pass last;
    ``value``: ``(N, 3)`` win, loss, no-result logits; ``score``: ``(N, 4)`` score mean,
    score stdev before softplus, lead, variance of the time left before softplus (all
    before the multipliers); ``ownership``: ``(N, H*W)`` before tanh.
    """

    policy: np.ndarray
    value: np.ndarray
    score: np.ndarray
    ownership: np.ndarray


class Forward:
    """A model ready to evaluate: transformed weights, the layers in order."""

    def __init__(self, model: Model) -> None:
        self.model = model
        t = model.trunk
        self.initial_w = t.initial_conv.w  # (k, k, in, out)
        self._board_maps: dict[tuple[int, int], np.ndarray] = {}  # the on-board plane's part, per size
        self.blocks: list[tuple] = []
        for b in t.blocks:
            if isinstance(b, GPoolBlock):
                # the regular and the pooled convolutions read the same input: one product
                both = Conv(b.conv1.name, np.concatenate([b.conv1.w, b.gconv.w], axis=3))
                self.blocks.append((b, _Conv3(both), b.conv1.out_channels, _Conv3(b.conv2)))
            else:
                self.blocks.append((b, _Conv3(b.conv1), 0, _Conv3(b.conv2)))
        p, v = model.policy, model.value
        # the heads' 1x1 convolutions that read the trunk, in one product
        self.head_w = np.ascontiguousarray(
            np.concatenate([p.p1_conv.w[0, 0], p.g1_conv.w[0, 0], v.v1_conv.w[0, 0]], axis=1)
        )
        self.head_split = (p.p1_conv.out_channels, p.p1_conv.out_channels + p.g1_conv.out_channels)

    def _initial_conv(self, spatial: np.ndarray, full: bool) -> np.ndarray:
        """The first convolution over the input planes that are not all zero (many are: the
        encore planes, often the ko and ladder ones); on full boards the on-board plane's
        part is a constant map, computed once per size."""
        n, c, h, w = spatial.shape
        wk = self.initial_w
        k = wk.shape[0]
        first = 1 if full else 0
        used = [i for i in range(first, c) if spatial[:, i].any()]
        if used:
            planes = np.ascontiguousarray(spatial[:, used].transpose(0, 2, 3, 1))
            x = _im2col(planes, np.ascontiguousarray(wk[:, :, used].reshape(k * k * len(used), -1)), k)
        else:  # an empty board
            x = np.zeros((n, h, w, wk.shape[3]), F32)
        if full:
            board = self._board_maps.get((h, w))
            if board is None:
                ones = np.ones((1, h, w, 1), F32)
                board = _im2col(ones, np.ascontiguousarray(wk[:, :, :1].reshape(k * k, -1)), k)[0]
                self._board_maps[(h, w)] = board
            x += board
        return x

    def run(self, spatial: np.ndarray, globals_: np.ndarray) -> RawOutput:
        """The raw outputs for ``spatial`` ``(N, 22, H, W)`` and ``globals_`` ``(N, 19)`` (float32).

        The first spatial plane is the mask: 1 where the board is.
        """
        spatial = np.asarray(spatial, dtype=F32)
        globals_ = np.asarray(globals_, dtype=F32)
        if spatial.ndim != 4 or globals_.ndim != 2 or spatial.shape[0] != globals_.shape[0]:
            raise ValueError(
                f"inputs of shapes {spatial.shape} and {globals_.shape}: expected (N, C, H, W), (N, G)"
            )
        m = self.model
        if spatial.shape[1] != m.spatial_features or globals_.shape[1] != m.global_features:
            raise ValueError(
                f"{spatial.shape[1]} spatial and {globals_.shape[1]} global features; "
                f"the net wants {m.spatial_features} and {m.global_features}"
            )
        n, _, h, w = spatial.shape
        mask3 = np.ascontiguousarray(spatial[:, 0])
        area = mask3.sum(axis=(1, 2), dtype=F32)
        if (area <= 0).any():
            raise ValueError("an input without any point on the board (its first plane is the mask)")
        full = bool((area == h * w).all())
        mask = None if full else mask3[..., None]

        t = m.trunk
        x = self._initial_conv(spatial, full)
        x += (globals_ @ t.initial_dense.w)[:, None, None, :]
        for b, c1, split, c2 in self.blocks:
            if split:
                mm = np.matmul(c1.transform(x, b.norm1, mask3), c1.u)
                r = np.empty((n, h, w, split), F32)
                W.transform_out(mm, 0, split, r, False)
                g = np.empty((n, h, w, c1.cout - split), F32)
                W.transform_out(mm, split, c1.cout, g, False)
                g = _norm(g, b.gnorm, mask)
                r += (_pool(g, area, mask) @ b.gpool_to_bias.w)[:, None, None, :]
            else:
                r = c1(x, b.norm1, mask3)
            c2(r, b.norm2, mask3, out=x)
        x = _norm(x, t.tip, mask)

        p, v = m.policy, m.value
        heads = x.reshape(n * h * w, -1) @ self.head_w
        s1, s2 = self.head_split
        p1 = heads[:, :s1].reshape(n, h, w, s1)
        g1 = _norm(heads[:, s1:s2].reshape(n, h, w, s2 - s1), p.g1_norm, mask)
        v1 = _norm(heads[:, s2:].reshape(n, h, w, -1), v.v1_norm, mask)

        pooled = _pool(g1, area, mask)
        p1 = p1 + (pooled @ p.gpool_to_bias.w)[:, None, None, :]
        p1 = _norm(p1, p.p1_norm, mask)
        policy = np.empty((n, h * w + 1), F32)
        policy[:, : h * w] = (p1.reshape(n * h * w, -1) @ p.p2_conv.w[0, 0]).reshape(n, h * w)
        policy[:, h * w] = (pooled @ p.gpool_to_pass.w)[:, 0]

        v2 = _dense(_pool_value(v1, area), v.v2)
        np.maximum(v2, 0, out=v2)
        value = _dense(v2, v.v3)
        score = _dense(v2, v.sv3)
        ownership = (v1.reshape(n * h * w, -1) @ v.ownership_conv.w[0, 0]).reshape(n, h * w)
        return RawOutput(policy, value, score, ownership)


# --- symmetries ---------------------------------------------------------------------------


def transform(planes: np.ndarray, symmetry: int) -> np.ndarray:
    """KataGo's symmetry ``0..7`` applied to ``(..., H, W)`` planes: bit 2 flips x, bit 1 flips y,
    then bit 4 transposes."""
    a = planes
    if symmetry & 2:
        a = a[..., :, ::-1]
    if symmetry & 1:
        a = a[..., ::-1, :]
    if symmetry & 4:
        a = np.swapaxes(a, -1, -2)
    return a


def untransform(planes: np.ndarray, symmetry: int) -> np.ndarray:
    """The inverse of :func:`transform`: outputs of a transformed input back on the board."""
    a = planes
    if symmetry & 4:
        a = np.swapaxes(a, -1, -2)
    if symmetry & 1:
        a = a[..., ::-1, :]
    if symmetry & 2:
        a = a[..., :, ::-1]
    return a


# --- post-processing ---------------------------------------------------------------------


@dataclass
class Outputs:
    """Post-processed outputs for a batch, the side to move's view (KataGo's ``nneval.cpp``).

    ``policy`` ``(N, H*W + 1)`` probabilities (0 for illegal moves, pass last); ``wdl``
    ``(N, 3)`` win, loss, no-result probabilities; ``score_mean``, ``score_stdev``, ``lead``,
    ``var_time_left`` ``(N,)`` in points (mean and lead made unconditional on a result, as
    KataGo does); ``ownership`` ``(N, H*W)`` in -1..1 (1: the side to move's).
    """

    policy: np.ndarray
    wdl: np.ndarray
    score_mean: np.ndarray
    score_stdev: np.ndarray
    lead: np.ndarray
    var_time_left: np.ndarray
    ownership: np.ndarray


def softplus(x: np.ndarray) -> np.ndarray:
    """``log(1 + exp(x))`` without overflow (KataGo's: ``x`` itself above 40)."""
    x = np.asarray(x, dtype=np.float64)
    return np.where(x > 40, x, np.log1p(np.exp(np.minimum(x, 40))))


def postprocess(
    raw: RawOutput, model: Model, legal: np.ndarray | None = None, no_result: np.ndarray | None = None
) -> Outputs:
    """KataGo's post-processing of raw outputs.

    ``legal`` ``(N, H*W + 1)`` bools: the policy's softmax runs over these only (None: all).
    ``no_result`` ``(N,)`` bools: whether the rules allow a game without result (KataGo:
    simple ko or territory scoring); where they do not, the no-result probability is 0.
    """
    logits = raw.policy.astype(F32)
    if legal is not None:
        logits = np.where(legal, logits, F32(-1e30))
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    if legal is not None:
        e = np.where(legal, e, F32(0))
    policy = (e / e.sum(axis=1, keepdims=True)).astype(F32)

    v = raw.value.astype(np.float64)
    if no_result is not None:
        v[:, 2] = np.where(no_result, v[:, 2], v[:, 2] - 100000.0)
    ev = np.exp(v - v.max(axis=1, keepdims=True))
    if no_result is not None:
        ev[:, 2] = np.where(no_result, ev[:, 2], 0.0)
    wdl = ev / ev.sum(axis=1, keepdims=True)
    has_result = 1.0 - wdl[:, 2]

    s = raw.score.astype(np.float64)
    post = model.post
    mean = s[:, 0] * post.score_mean
    stdev = softplus(s[:, 1]) * post.score_stdev
    lead = s[:, 2] * post.lead
    var_time = softplus(s[:, 3]) * post.variance_time
    return Outputs(
        policy=policy,
        wdl=wdl,
        score_mean=mean * has_result,
        score_stdev=stdev,
        lead=lead * has_result,
        var_time_left=var_time,
        ownership=np.tanh(raw.ownership.astype(np.float64)).astype(F32),
    )
