"""The forward pass of a KataGo net in numpy (float32, channels last), and its post-processing.

Layout: activations are ``(N, H, W, C)`` float32 arrays (a batch of boards of one size),
the same memory as ``(N*H*W, C)`` rows; a 1x1 convolution is one matrix product over the
rows. A 3x3 convolution is Winograd's F(4x4, 3x3), as KataGo's CPU backend does it: the
board cut into 4x4 output tiles read from 6x6 input tiles, the tiles transformed
(``B^T d B``), 36 matrix products of ``(tiles, C_in) @ (C_in, C_out)`` with the transformed
weights (``G g G^T``, computed once), and the products transformed back (``A^T m A``); it
needs 3.6 times fewer multiplications than the direct convolution, all in BLAS. Other
kernels (the 5x5 initial convolution), and 3x3 ones over a batch of fewer than
``WINOGRAD_MIN_POINTS`` points (one 9x9 board), are one im2col product. The norm and activation
before a convolution are fused into its input pass (the Winograd transform, or
``kernels.norm_act`` for the others).

The blocks: ordinary and global-pooling residual blocks, nested bottleneck blocks (a
stack of blocks of any kind between two convolutions, as deep as the file nests them),
and transformer attention and feed-forward blocks (:mod:`gorilla.ai.net.transformer`).

The mask (the spatial input's first plane: 1 on the board) multiplies every activation
before a convolution, a pooling and every residual add of a transformer block, exactly
where KataGo masks, so a board smaller than the buffer gives what the board alone gives;
a batch of full boards (Gorilla's own: one size per batch) skips the mask's work. Global
pooling is KataGo's: the mean over the board, the mean times ``(sqrt(area) - 14) / 10``,
and the max (at least -1: KataGo's pooling starts there; the value head has a third term,
``mean * ((sqrt(area) - 14)^2 / 100 - 0.1)``, in place of the max).

:func:`postprocess` turns the raw outputs into KataGo's numbers (``nneval.cpp``): the
policy (mixed with the optimistic policy by the optimism asked) as a softmax over the
legal moves and pass, the win/loss/no-result softmax, the scores times the model's
multipliers, the short-term errors by the version's formula, ``tanh`` of the ownership;
all for the side to move.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gorilla.ai.net import kernels as K
from gorilla.ai.net import winograd as W
from gorilla.ai.net.model import (
    ACTIVATION_CODES,
    AttentionBlock,
    Block,
    Conv,
    FFNBlock,
    GPoolBlock,
    Model,
    NestedBlock,
    Norm,
    ResBlock,
    RMSNorm,
    block_letters,
)
from gorilla.ai.net.transformer import Attention, FeedForward

F32 = np.float32
# below this many points in a batch (one 9x9 board: 81), a 3x3 convolution is one im2col
# product: Winograd's 36 small products cost more in calls than they save in multiplications
WINOGRAD_MIN_POINTS = 200

# a batch runs in chunks of at most this many points (but one board at least): measured best
# on one core (19x19: one board a chunk for the transformer nets, four for the 2020 net)
CHUNK_POINTS = 1500
CHUNK_POINTS_TRANSFORMER = 400

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


def activate(x: np.ndarray, kind: str) -> np.ndarray:
    """An activation of a small array in numpy (KataGo's formulas; see :mod:`gorilla.ai.net.kernels`)."""
    if kind == "relu":
        return np.maximum(x, F32(0))
    if kind == "mish":
        sp = np.log1p(np.exp(np.minimum(x, F32(20)))) + (np.maximum(x, F32(20)) - F32(20))
        return (x * np.tanh(sp)).astype(F32)
    if kind == "silu":
        return (x / (np.exp(-x) + F32(1))).astype(F32)
    return x


class _Ctx:
    """What every layer of one forward pass shares: the board's size, the mask in the shapes
    the layers want, the area."""

    def __init__(self, mask3: np.ndarray) -> None:
        self.n, self.h, self.w = mask3.shape
        self.mask3 = mask3
        self.area = mask3.sum(axis=(1, 2), dtype=F32)
        self.full = bool((self.area == self.h * self.w).all())
        self.mask = None if self.full else mask3[..., None]  # (N, H, W, 1) for numpy's broadcasts
        self.mask_rows = mask3.reshape(-1)
        # attention: off-board keys pushed out of the softmax
        self.key_bias = None
        if not self.full:
            self.key_bias = np.where(mask3.reshape(self.n, 1, 1, -1) > 0, F32(0), F32(-1e30))

    def add(self, rows: np.ndarray, y: np.ndarray) -> None:
        """``rows += y * mask`` (rows ``(R, C)``)."""
        if self.full:
            rows += y
        else:
            K.add_masked(rows, y, self.mask_rows)


def _norm(x: np.ndarray, norm: Norm, ctx: _Ctx) -> np.ndarray:
    """``act(x * scale + bias) * mask`` as a new array of x's shape."""
    c = x.shape[-1]
    x2 = np.ascontiguousarray(x).reshape(-1, c)
    out = np.empty_like(x2)
    K.norm_act(x2, norm.scale, norm.bias, ctx.mask_rows, norm.code, out)
    return out.reshape(x.shape)


class _Conv3:
    """A 3x3 convolution by Winograd: the norm before it fused into the input transform."""

    def __init__(self, conv: Conv) -> None:
        self.cin = conv.in_channels
        self.cout = conv.out_channels
        self.u = winograd_weights(conv.w)

    def flops(self, points: int) -> int:
        """The direct convolution's multiply-adds times two (what the FLOP counts count)."""
        return 2 * points * 9 * self.cin * self.cout

    def transform(self, x: np.ndarray, norm: Norm, mask: np.ndarray) -> np.ndarray:
        """``B^T d B`` of ``norm(x) * mask``: ``(36, tiles, C)``. ReLU and identity are fused
        into the transform; SiLU and Mish (whose exponentials vectorize in a pass of their
        own, not per tile point) come first, in ``kernels.norm_act``."""
        n, h, w, c = x.shape
        v = np.empty((36, n * (-(-h // 4)) * (-(-w // 4)), c), F32)
        scale, bias, code = norm.scale, norm.bias, ACTIVATION_CODES[norm.activation]
        if code > K.RELU:
            y = np.empty_like(x)
            K.norm_act(x.reshape(-1, c), scale, bias, mask.reshape(-1), code, y.reshape(-1, c))
            x, scale, bias, code = y, np.ones(c, F32), np.zeros(c, F32), K.IDENTITY
        W.transform_in(x, scale, bias, mask, code, v)
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


class _NormConv:
    """``conv(act(norm(x)) * mask)`` for any kernel: Winograd for 3x3, one product otherwise."""

    def __init__(self, norm: Norm, conv: Conv) -> None:
        self.norm = norm
        self.k = conv.size
        self.cin, self.cout = conv.in_channels, conv.out_channels
        self.wino = _Conv3(conv) if self.k == 3 else None
        self.w2 = np.ascontiguousarray(conv.w.reshape(-1, self.cout))

    def flops(self, points: int) -> int:
        """Multiply-adds times two, as the direct convolution counts them."""
        return 2 * points * self.k * self.k * self.cin * self.cout

    def winograd(self, x: np.ndarray) -> bool:
        """Whether x's convolution goes through Winograd (3x3 on a batch of enough points)."""
        return self.wino is not None and x.shape[0] * x.shape[1] * x.shape[2] >= WINOGRAD_MIN_POINTS

    def __call__(self, x: np.ndarray, ctx: _Ctx, out: np.ndarray | None = None) -> np.ndarray:
        """The convolution of the normed x, a new array or added to ``out``."""
        if self.winograd(x):
            return self.wino(x, self.norm, ctx.mask3, out)
        y = _norm(x, self.norm, ctx)
        if self.k == 1:
            r = (y.reshape(-1, self.cin) @ self.w2).reshape(x.shape[:3] + (self.cout,))
        else:
            r = _im2col(y, self.w2, self.k)
        if out is None:
            return r
        out += r
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


def _pool(x: np.ndarray, area: np.ndarray, mask: np.ndarray | None) -> np.ndarray:
    """KataGo's global pooling of masked activations: mean, scaled mean, max -> ``(N, 3C)``."""
    mean = x.sum(axis=(1, 2)) / area[:, None]
    scaled = mean * ((np.sqrt(area) - F32(14)) * F32(0.1))[:, None]
    # off the board the activations are 0; KataGo counts them as -1 and starts its max at -1
    mx = (x if mask is None else x + (mask - F32(1))).max(axis=(1, 2))
    np.maximum(mx, F32(-1), out=mx)
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
    ``optimistic``: the optimistic policy's logits (version 12 on; else None); ``q``: the
    policy head's Q-value channels (win-loss and score, ``(N, H*W + 1, 2)``, versions 16 and
    17 with four channels; else None); ``value``: ``(N, 3)`` win, loss, no-result logits;
    ``score``: ``(N, 4)`` or ``(N, 6)`` score mean, score stdev before softplus, lead,
    variance of the time left before softplus (and the short-term win-loss and score
    errors), all before the multipliers; ``ownership``: ``(N, H*W)`` before tanh.
    """

    policy: np.ndarray
    value: np.ndarray
    score: np.ndarray
    ownership: np.ndarray
    optimistic: np.ndarray | None = None
    q: np.ndarray | None = None


class _Res:
    def __init__(self, b: ResBlock) -> None:
        self.c1, self.c2 = _NormConv(b.norm1, b.conv1), _NormConv(b.norm2, b.conv2)

    def flops(self, points: int) -> int:
        return self.c1.flops(points) + self.c2.flops(points)

    def __call__(self, x: np.ndarray, ctx: _Ctx) -> None:
        self.c2(self.c1(x, ctx), ctx, out=x)


class _GPool:
    def __init__(self, b: GPoolBlock) -> None:
        self.b = b
        self.split = b.conv1.out_channels
        # the regular and the pooled convolutions read the same input: one product
        both = Conv(b.conv1.name, np.concatenate([b.conv1.w, b.gconv.w], axis=3))
        self.c1 = _NormConv(b.norm1, both)
        self.c2 = _NormConv(b.norm2, b.conv2)

    def flops(self, points: int) -> int:
        return self.c1.flops(points) + self.c2.flops(points) + 2 * self.b.gpool_to_bias.w.size

    def __call__(self, x: np.ndarray, ctx: _Ctx) -> None:
        n, h, w, _ = x.shape
        b, split, c1 = self.b, self.split, self.c1
        if c1.winograd(x):
            mm = np.matmul(c1.wino.transform(x, b.norm1, ctx.mask3), c1.wino.u)
            r = np.empty((n, h, w, split), F32)
            W.transform_out(mm, 0, split, r, False)
            g = np.empty((n, h, w, c1.cout - split), F32)
            W.transform_out(mm, split, c1.cout, g, False)
        else:
            both = c1(x, ctx)
            r, g = np.ascontiguousarray(both[..., :split]), np.ascontiguousarray(both[..., split:])
        g = _norm(g, b.gnorm, ctx)
        r += (_pool(g, ctx.area, ctx.mask) @ b.gpool_to_bias.w)[:, None, None, :]
        self.c2(r, ctx, out=x)


class _Nested:
    def __init__(self, b: NestedBlock) -> None:
        self.c1, self.c2 = _NormConv(b.norm1, b.conv1), _NormConv(b.norm2, b.conv2)
        self.blocks = [make_block(x) for x in b.blocks]

    def flops(self, points: int) -> int:
        inner = sum(x.flops(points) for x in self.blocks)
        return self.c1.flops(points) + inner + self.c2.flops(points)

    def __call__(self, x: np.ndarray, ctx: _Ctx) -> None:
        mid = self.c1(x, ctx)
        run_blocks(self.blocks, mid, ctx)
        self.c2(mid, ctx, out=x)


class _Transformer:
    """A transformer block over the trunk's rows ``(N, S, C)``."""

    def __init__(self, b: AttentionBlock | FFNBlock) -> None:
        self.run = Attention(b) if isinstance(b, AttentionBlock) else FeedForward(b)

    def flops(self, points: int) -> int:
        return self.run.flops(points)

    def __call__(self, x: np.ndarray, ctx: _Ctx) -> None:
        n, h, w, c = x.shape
        self.run(x.reshape(n, h * w, c), ctx)


def make_block(b: Block):  # -> a block runner: __call__(x, ctx) adds its output to x
    """The runner of one block of the model."""
    if isinstance(b, ResBlock):
        return _Res(b)
    if isinstance(b, GPoolBlock):
        return _GPool(b)
    if isinstance(b, NestedBlock):
        return _Nested(b)
    return _Transformer(b)


def run_blocks(blocks: list, x: np.ndarray, ctx: _Ctx) -> None:
    """The blocks one after the other, each adding to x in place."""
    for b in blocks:
        b(x, ctx)


class Forward:
    """A model ready to evaluate: transformed weights, the layers in order."""

    def __init__(self, model: Model) -> None:
        self.model = model
        t = model.trunk
        self.initial_w = t.initial_conv.w  # (k, k, in, out)
        self._board_maps: dict[tuple[int, int], np.ndarray] = {}  # the on-board plane's part, per size
        self.blocks = [make_block(b) for b in t.blocks]
        p, v = model.policy, model.value
        # the heads' 1x1 convolutions that read the trunk, in one product
        self.head_w = np.ascontiguousarray(
            np.concatenate([p.p1_conv.w[0, 0], p.g1_conv.w[0, 0], v.v1_conv.w[0, 0]], axis=1)
        )
        self.head_split = (p.p1_conv.out_channels, p.p1_conv.out_channels + p.g1_conv.out_channels)
        self.p2 = np.ascontiguousarray(p.p2_conv.w[0, 0])
        transformer = "a" in block_letters(t.blocks) or "f" in block_letters(t.blocks)
        self.chunk_points = CHUNK_POINTS_TRANSFORMER if transformer else CHUNK_POINTS
        self.own = np.ascontiguousarray(v.ownership_conv.w[0, 0])

    def flops(self, h: int, w: int) -> int:
        """Floating-point operations (a multiply-add is two) of one evaluation of an h x w
        board, counting a 3x3 convolution as the direct one (Winograd does fewer)."""
        pts = h * w
        k = self.initial_w.shape[0]
        total = 2 * pts * k * k * self.initial_w.shape[2] * self.initial_w.shape[3]
        total += sum(b.flops(pts) for b in self.blocks)
        total += 2 * pts * (self.head_w.size + self.p2.size + self.own.size)
        m = self.model
        small = (m.policy.gpool_to_bias, m.policy.gpool_to_pass, m.policy.pass2, m.value.v2, m.value.v3)
        total += sum(2 * d.w.size for d in small if d is not None)
        return total

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

    def _check(self, spatial: np.ndarray, globals_: np.ndarray) -> None:
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

    def trunk(self, spatial: np.ndarray, globals_: np.ndarray, ctx: _Ctx) -> np.ndarray:
        """The trunk's output ``(N, H, W, C)``, after its final norm."""
        t = self.model.trunk
        x = self._initial_conv(spatial, ctx.full)
        x += (globals_ @ t.initial_dense.w)[:, None, None, :]
        run_blocks(self.blocks, x, ctx)
        if isinstance(t.tip, RMSNorm):
            n, h, w, c = x.shape
            out = np.empty_like(x)
            tip = t.tip
            code = ACTIVATION_CODES[tip.activation]
            K.rms_norm_tip(
                x.reshape(n, h * w, c), tip.gamma, tip.beta, tip.eps, tip.spatial, code,
                ctx.mask3.reshape(n, h * w), out.reshape(n, h * w, c),
            )  # fmt: skip
            return out
        return _norm(x, t.tip, ctx)

    def run(self, spatial: np.ndarray, globals_: np.ndarray) -> RawOutput:
        """The raw outputs for ``spatial`` ``(N, 22, H, W)`` and ``globals_`` ``(N, 19)`` (float32).

        The first spatial plane is the mask: 1 where the board is.
        """
        spatial = np.asarray(spatial, dtype=F32)
        globals_ = np.asarray(globals_, dtype=F32)
        self._check(spatial, globals_)
        mask3 = np.ascontiguousarray(spatial[:, 0])
        ctx = _Ctx(mask3)
        if (ctx.area <= 0).any():
            raise ValueError("an input without any point on the board (its first plane is the mask)")
        n, _, h, w = spatial.shape
        step = max(1, self.chunk_points // (h * w))
        if n > step:  # a big batch in chunks whose activations stay in cache
            parts = [self.run(spatial[i : i + step], globals_[i : i + step]) for i in range(0, n, step)]
            return _concat(parts)
        x = self.trunk(spatial, globals_, ctx)
        return self._heads(x, ctx)

    def _heads(self, x: np.ndarray, ctx: _Ctx) -> RawOutput:
        n, h, w, _ = x.shape
        p, v = self.model.policy, self.model.value
        heads = x.reshape(n * h * w, -1) @ self.head_w
        s1, s2 = self.head_split
        p1 = heads[:, :s1].reshape(n, h, w, s1)
        g1 = _norm(heads[:, s1:s2].reshape(n, h, w, s2 - s1), p.g1_norm, ctx)
        v1 = _norm(heads[:, s2:].reshape(n, h, w, -1), v.v1_norm, ctx)

        pooled = _pool(g1, ctx.area, ctx.mask)
        p1 = p1 + (pooled @ p.gpool_to_bias.w)[:, None, None, :]
        p1 = _norm(p1, p.p1_norm, ctx)
        out = p.channels
        points = (p1.reshape(n * h * w, -1) @ self.p2).reshape(n, h * w, out)
        if p.pass2 is None:
            passes = pooled @ p.gpool_to_pass.w
        else:
            t = activate(pooled @ p.gpool_to_pass.w + p.gpool_to_pass.bias, p.pass_activation)
            passes = t @ p.pass2.w
        policy = np.concatenate([points, passes[:, None, :]], axis=1)  # (N, H*W + 1, channels)

        v2 = activate(_pool_value(v1, ctx.area) @ v.v2.w + v.v2.bias, v.v2_activation)
        value = v2 @ v.v3.w + v.v3.bias
        score = v2 @ v.sv3.w + v.sv3.bias
        ownership = (v1.reshape(n * h * w, -1) @ self.own).reshape(n, h * w)
        return RawOutput(
            policy=np.ascontiguousarray(policy[..., 0]),
            value=value,
            score=score,
            ownership=ownership,
            optimistic=np.ascontiguousarray(policy[..., 1]) if out >= 2 else None,
            q=np.ascontiguousarray(policy[..., 2:4]) if out >= 4 else None,
        )


def _concat(parts: list[RawOutput]) -> RawOutput:
    """One RawOutput of the chunks' in order."""

    def cat(name: str) -> np.ndarray | None:
        arrays = [getattr(p, name) for p in parts]
        return None if arrays[0] is None else np.concatenate(arrays)

    return RawOutput(*(cat(f) for f in ("policy", "value", "score", "ownership", "optimistic", "q")))


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
    KataGo does); ``ownership`` ``(N, H*W)`` in -1..1 (1: the side to move's);
    ``shortterm_winloss_error`` and ``shortterm_score_error`` ``(N,)`` (from version 9; -1
    before, and ``var_time_left`` too, as KataGo prints them).
    """

    policy: np.ndarray
    wdl: np.ndarray
    score_mean: np.ndarray
    score_stdev: np.ndarray
    lead: np.ndarray
    var_time_left: np.ndarray
    ownership: np.ndarray
    shortterm_winloss_error: np.ndarray | None = None
    shortterm_score_error: np.ndarray | None = None


def softplus(x: np.ndarray) -> np.ndarray:
    """``log(1 + exp(x))`` without overflow (KataGo's: ``x`` itself above 40)."""
    x = np.asarray(x, dtype=np.float64)
    return np.where(x > 40, x, np.log1p(np.exp(np.minimum(x, 40))))


def policy_logits(raw: RawOutput, optimism: float | np.ndarray = 0.0) -> np.ndarray:
    """The policy's logits mixed with the optimistic policy's: ``p + (opt - p) * optimism``
    (KataGo's; a net without the optimistic channel has its policy alone)."""
    if raw.optimistic is None:
        return raw.policy.astype(F32)
    o = np.asarray(optimism, dtype=F32)
    if o.ndim == 1:
        o = o[:, None]
    if not (o != 0).any():
        return raw.policy.astype(F32)
    return (raw.policy + (raw.optimistic - raw.policy) * o).astype(F32)


def _policy(logits: np.ndarray, legal: np.ndarray | None) -> np.ndarray:
    if legal is not None:
        logits = np.where(legal, logits, F32(-1e30))
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    if legal is not None:
        e = np.where(legal, e, F32(0))
    return (e / e.sum(axis=1, keepdims=True)).astype(F32)


def _wdl(value: np.ndarray, no_result: np.ndarray | None) -> np.ndarray:
    v = value.astype(np.float64)
    if no_result is not None:
        v[:, 2] = np.where(no_result, v[:, 2], v[:, 2] - 100000.0)
    ev = np.exp(v - v.max(axis=1, keepdims=True))
    if no_result is not None:
        ev[:, 2] = np.where(no_result, ev[:, 2], 0.0)
    return ev / ev.sum(axis=1, keepdims=True)


def _errors(s: np.ndarray, model: Model) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The variance of the time left and the short-term errors by the version's formula."""
    n = s.shape[0]
    if model.version < 9:
        minus = np.full(n, -1.0)
        return minus, minus, minus.copy()
    post = model.post
    var_time = softplus(s[:, 3]) * post.variance_time
    if model.version >= 14:
        wl = softplus(s[:, 4] * 0.5) * np.sqrt(post.shortterm_value_error)
        sc = softplus(s[:, 5] * 0.5) * np.sqrt(post.shortterm_score_error)
    elif model.version >= 10:
        wl = np.sqrt(softplus(s[:, 4]) * post.shortterm_value_error)
        sc = np.sqrt(softplus(s[:, 5]) * post.shortterm_score_error)
    else:
        wl, sc = softplus(s[:, 4]), softplus(s[:, 5]) * 10.0
    return var_time, wl, sc


def postprocess(
    raw: RawOutput,
    model: Model,
    legal: np.ndarray | None = None,
    no_result: np.ndarray | None = None,
    optimism: float | np.ndarray = 0.0,
) -> Outputs:
    """KataGo's post-processing of raw outputs.

    ``legal`` ``(N, H*W + 1)`` bools: the policy's softmax runs over these only (None: all).
    ``no_result`` ``(N,)`` bools: whether the rules allow a game without result (KataGo:
    simple ko or territory scoring); where they do not, the no-result probability is 0.
    ``optimism``: the policy optimism, 0..1 (one, or one per row): how far the policy moves
    toward the optimistic policy (KataGo's search: 1 inside the tree, 0.2 at the root).
    """
    policy = _policy(policy_logits(raw, optimism), legal)
    wdl = _wdl(raw.value, no_result)
    has_result = 1.0 - wdl[:, 2]
    s = raw.score.astype(np.float64)
    post = model.post
    var_time, wl_error, score_error = _errors(s, model)
    return Outputs(
        policy=policy,
        wdl=wdl,
        score_mean=s[:, 0] * post.score_mean * has_result,
        score_stdev=softplus(s[:, 1]) * post.score_stdev,
        lead=s[:, 2] * post.lead * has_result,
        var_time_left=var_time,
        ownership=np.tanh(raw.ownership.astype(np.float64)).astype(F32),
        shortterm_winloss_error=wl_error,
        shortterm_score_error=score_error,
    )
