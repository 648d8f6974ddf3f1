"""Tests' helpers for KataGo nets of every block kind: a random :class:`Model` of small
widths, the writer of a model in KataGo's ``.bin`` format (``desc.cpp``'s layout, so the
reader reads it back), and a plain float64 forward pass by the formulas of KataGo's Eigen
backend, one head at a time, to compare the fast one with."""

from __future__ import annotations

import math
import struct

import numpy as np

from gorilla.ai.net import model as M

F32 = np.float32
KINDS = {"identity": "ACTIVATION_IDENTITY", "relu": "ACTIVATION_RELU", "mish": "ACTIVATION_MISH"}
KINDS["silu"] = "ACTIVATION_SILU"


# --- a random model ------------------------------------------------------------------------


class Maker:
    """Random layers of a model (seeded)."""

    def __init__(self, seed: int, scale: float = 0.3) -> None:
        self.rng = np.random.default_rng(seed)
        self.scale = scale
        self.count = 0

    def name(self, what: str) -> str:
        self.count += 1
        return f"{what}{self.count}"

    def arr(self, *shape: int, scale: float | None = None) -> np.ndarray:
        s = self.scale if scale is None else scale
        return (self.rng.standard_normal(shape) * s).astype(F32)

    def conv(self, k: int, cin: int, cout: int) -> M.Conv:
        return M.Conv(self.name("conv"), self.arr(k, k, cin, cout, scale=1 / math.sqrt(k * k * cin)))

    def norm(self, c: int, act: str) -> M.Norm:
        return M.Norm(self.name("norm"), (1 + self.arr(c)).astype(F32), self.arr(c), act)

    def dense(self, cin: int, cout: int, bias: bool = False) -> M.Dense:
        w = self.arr(cin, cout, scale=1 / math.sqrt(cin))
        return M.Dense(self.name("mat"), w, self.arr(cout) if bias else None)

    def res(self, c: int, act: str, mid: int = 6) -> M.ResBlock:
        return M.ResBlock(
            self.name("res"),
            self.norm(c, act),
            self.conv(3, c, mid),
            self.norm(mid, act),
            self.conv(3, mid, c),
        )

    def gpool(self, c: int, act: str) -> M.GPoolBlock:
        n1, c1, gc = self.norm(c, act), self.conv(3, c, 6), self.conv(3, c, 4)
        return M.GPoolBlock(
            self.name("gpool"),
            n1,
            c1,
            gc,
            self.norm(4, act),
            self.dense(12, 6),
            self.norm(6, act),
            self.conv(3, 6, c),
        )

    def nested(self, c: int, mid: int, act: str, inner: list) -> M.NestedBlock:
        return M.NestedBlock(
            self.name("nested"),
            self.norm(c, act),
            self.conv(1, c, mid),
            tuple(inner),
            self.norm(mid, act),
            self.conv(1, mid, c),
        )

    def attention(self, c: int, heads: int, kv: int, q: int, v: int, rope: str) -> M.AttentionBlock:
        freqs = self.arr(kv, q // 2, 2, scale=0.7) if rope == "learnable" else None
        theta = 100.0 if rope == "fixed" else 0.0
        return M.AttentionBlock(
            self.name("attention"), heads, kv, q, v, (1 + self.arr(c)).astype(F32), 1e-6,
            self.arr(c, heads * q, scale=0.5), self.arr(c, kv * q, scale=0.5), self.arr(c, kv * v),
            self.arr(heads * v, c), rope, theta, freqs,
        )  # fmt: skip

    def ffn(self, c: int, f: int) -> M.FFNBlock:
        return M.FFNBlock(
            self.name("ffn"),
            (1 + self.arr(c)).astype(F32),
            1e-6,
            self.arr(c, f),
            self.arr(c, f),
            self.arr(f, c),
        )


def random_model(seed: int = 1, version: int = 17, policy_channels: int = 4) -> M.Model:
    """A small model with every block kind, activation and norm KataGo reads (version 15 on)."""
    m = Maker(seed)
    c = 12
    deep = m.nested(8, 6, "relu", [m.attention(6, 2, 2, 8, 3, "fixed"), m.gpool(6, "mish")])
    inner = [m.res(8, "identity", 5), m.attention(8, 4, 2, 6, 4, "learnable"), m.ffn(8, 10), deep]
    blocks = (
        m.res(c, "mish"),
        m.gpool(c, "silu"),
        m.nested(c, 8, "silu", inner),
        m.attention(c, 3, 1, 4, 5, "none"),
        m.ffn(c, 16),
    )
    trunk = M.Trunk(
        m.conv(3, 22, c), m.dense(19, c), blocks, M.RMSNorm("tip", 1 + m.arr(c), m.arr(c), 1e-5, True, "silu")
    )
    g = 5
    pass1 = M.Dense("pass", m.arr(3 * g, 7), m.arr(7))
    policy = M.PolicyHead(
        m.conv(1, c, 7), m.conv(1, c, g), m.norm(g, "mish"), m.dense(3 * g, 7), m.norm(7, "silu"),
        m.conv(1, 7, policy_channels), pass1, m.dense(7, policy_channels), "mish",
    )  # fmt: skip
    value = M.ValueHead(
        m.conv(1, c, 6), m.norm(6, "silu"), m.dense(18, 9, True), m.dense(9, 3, True), m.dense(9, 6, True),
        m.conv(1, 6, 1), "mish",
    )  # fmt: skip
    post = M.PostProcess(21.0, 19.0, 18.0, 41.0, 22.0, 0.3, 150.0)
    return M.Model("random-net", version, 22, 19, trunk, policy, value, post)


# --- the writer ----------------------------------------------------------------------------


class Writer:
    """A model in KataGo's binary layout, layer by layer."""

    def __init__(self, version: int) -> None:
        self.version = version
        self.parts: list[bytes] = []

    def text(self, *tokens: object) -> None:
        self.parts.append(("\n".join(str(t) for t in tokens) + "\n").encode())

    def floats(self, a: np.ndarray) -> None:
        self.parts.append(b"@BIN@" + np.ascontiguousarray(a, "<f4").tobytes() + b"\n")

    def conv(self, c: M.Conv) -> None:
        k, _, cin, cout = c.w.shape
        self.text(c.name, k, k, cin, cout, 1, 1)
        self.floats(c.w)

    def act(self, kind: str) -> None:
        self.text("act", *([KINDS[kind]] if self.version >= 11 else []))

    def norm(self, n: M.Norm) -> None:
        self.text(n.name, n.channels, 1e-20, 1, 1)  # mean 0, variance 1: folds to the scale and bias
        for a in (np.zeros(n.channels), np.ones(n.channels), n.scale, n.bias):
            self.floats(a)
        self.act(n.activation)

    def dense(self, d: M.Dense, bias: bool = False) -> None:
        self.text(d.name, *d.w.shape)
        self.floats(d.w)
        if bias:
            self.text(d.name + "/bias", d.w.shape[1])
            self.floats(d.bias)

    def tnorm(self, w: np.ndarray, eps: float) -> None:
        self.text("ln", w.size, eps)
        self.floats(w)

    def block(self, b) -> None:
        if isinstance(b, M.ResBlock):
            self.text("ordinary_block", b.name)
            self.norm(b.norm1), self.conv(b.conv1), self.norm(b.norm2), self.conv(b.conv2)
        elif isinstance(b, M.GPoolBlock):
            self.text("gpool_block", b.name)
            self.norm(b.norm1), self.conv(b.conv1), self.conv(b.gconv), self.norm(b.gnorm)
            self.dense(b.gpool_to_bias), self.norm(b.norm2), self.conv(b.conv2)
        elif isinstance(b, M.NestedBlock):
            self.text("nested_bottleneck_block", b.name, len(b.blocks))
            self.norm(b.norm1), self.conv(b.conv1)
            for x in b.blocks:
                self.block(x)
            self.norm(b.norm2), self.conv(b.conv2)
        elif isinstance(b, M.AttentionBlock):
            rope, learn = int(b.rope != "none"), int(b.rope == "learnable")
            self.text(
                "transformer_attention_block", b.name, b.heads, b.kv_heads, b.q_dim, b.v_dim, rope, learn
            )
            self.tnorm(b.norm_w, b.norm_eps)
            for w in (b.wq, b.wk, b.wv, b.wo):
                self.dense(M.Dense("proj", w))
            if b.rope == "learnable":
                self.text("rope", *b.rope_freqs.shape)
                self.floats(b.rope_freqs)
            elif b.rope == "fixed":
                self.text("rope", b.rope_theta)
        else:
            self.text("transformer_ffn_block", b.name, b.w1.shape[0], b.w1.shape[1], 1)
            self.tnorm(b.norm_w, b.norm_eps)
            for w in (b.w1, b.wgate, b.w2):
                self.dense(M.Dense("lin", w))

    def model(self, m: M.Model, meta: int = 0, options: tuple[int, ...] = (0,) * 6) -> bytes:
        v = self.version
        self.text(m.name, v, 22, 19)
        p = m.post
        if v >= 13:
            self.text(p.td_score, p.score_mean, p.score_stdev, p.lead, p.variance_time)
            self.text(p.shortterm_value_error, p.shortterm_score_error)
        if v >= 15:
            self.text(meta, int(m.prefer_pass_alive_suicide), *options)
        t = m.trunk
        rms = isinstance(t.tip, M.RMSNorm)
        self.text(
            "trunk", len(t.blocks), t.channels, 8, 8, 8, 8, *([int(rms), 0, 0, 0, 0, 0] if v >= 15 else [])
        )
        self.conv(t.initial_conv), self.dense(t.initial_dense)
        for b in t.blocks:
            self.block(b)
        if rms:
            self.text(t.tip.name, t.tip.channels, t.tip.eps, int(t.tip.spatial), 0)
            self.floats(t.tip.gamma), self.floats(t.tip.beta)
            self.act(t.tip.activation)
        else:
            self.norm(t.tip)
        h = m.policy
        self.text("policyhead", *([h.channels, 0, 0, 0] if v >= 17 else []))
        self.conv(h.p1_conv), self.conv(h.g1_conv), self.norm(h.g1_norm), self.dense(h.gpool_to_bias)
        self.norm(h.p1_norm), self.conv(h.p2_conv), self.dense(h.gpool_to_pass, v >= 15)
        if v >= 15:
            self.act(h.pass_activation), self.dense(h.pass2)
        vh = m.value
        self.text("valuehead", *([0, 0, 0] if v >= 17 else []))
        self.conv(vh.v1_conv), self.norm(vh.v1_norm), self.dense(vh.v2, True), self.act(vh.v2_activation)
        self.dense(vh.v3, True), self.dense(vh.sv3, True), self.conv(vh.ownership_conv)
        return b"".join(self.parts)


def write_model(m: M.Model, **kw) -> bytes:
    """The model's bytes (uncompressed ``.bin``)."""
    return Writer(m.version).model(m, **kw)


# --- a plain forward pass ------------------------------------------------------------------


def act(x: np.ndarray, kind: str) -> np.ndarray:
    if kind == "relu":
        return np.maximum(x, 0)
    if kind == "mish":
        return x * np.tanh(np.log1p(np.exp(np.minimum(x, 20))) + np.maximum(x, 20) - 20)
    if kind == "silu":
        return x / (1 + np.exp(-x))
    return x


def conv(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Same-padded convolution of (N, H, W, C) by its definition."""
    k = w.shape[0]
    r = k // 2
    n, h, wd, _ = x.shape
    xp = np.pad(x, ((0, 0), (r, r), (r, r), (0, 0)))
    out = np.zeros((n, h, wd, w.shape[3]))
    for dy in range(k):
        for dx in range(k):
            out += xp[:, dy : dy + h, dx : dx + wd] @ w[dy, dx].astype(np.float64)
    return out


def bn(x: np.ndarray, n: M.Norm, mask: np.ndarray) -> np.ndarray:
    return act(x * n.scale + n.bias, n.activation) * mask


def pool(x: np.ndarray, mask: np.ndarray) -> np.ndarray:
    area = mask.sum(axis=(1, 2, 3))
    mean = x.sum(axis=(1, 2)) / area[:, None]
    mx = np.maximum((x + mask - 1).max(axis=(1, 2)), -1.0)
    return np.concatenate([mean, mean * ((np.sqrt(area) - 14) * 0.1)[:, None], mx], axis=1)


def rope_angles(b: M.AttentionBlock, h: int, w: int, head: int) -> np.ndarray:
    """(H*W, pairs) angles of a query head, as KataGo's ``computeRopeCosSin`` (float32)."""
    pairs = b.q_dim // 2
    out = np.zeros((h * w, pairs), F32)
    for y in range(h):
        for x in range(w):
            for p in range(pairs):
                if b.rope == "learnable":
                    f = b.rope_freqs[head * b.kv_heads // b.heads, p]
                    out[y * w + x, p] = F32(x) * f[0] + F32(y) * f[1]
                else:
                    half = pairs // 2
                    pp = p if p < half else p - half
                    freq = F32(1) / F32(b.rope_theta) ** (F32(2 * pp) / F32(b.q_dim // 2))
                    out[y * w + x, p] = F32(y if p < half else x) * freq
    return out


def turn(t: np.ndarray, angles: np.ndarray) -> np.ndarray:
    out = t.copy()
    c, s = np.cos(angles), np.sin(angles)
    out[:, 0::2] = t[:, 0::2] * c - t[:, 1::2] * s
    out[:, 1::2] = t[:, 0::2] * s + t[:, 1::2] * c
    return out


def rms(x: np.ndarray, w: np.ndarray, eps: float) -> np.ndarray:
    return x / np.sqrt((x * x).mean(axis=-1, keepdims=True) + eps) * w


def attention(x: np.ndarray, b: M.AttentionBlock, mask: np.ndarray) -> np.ndarray:
    n, h, w, c = x.shape
    out = np.zeros((n, h * w, c))
    for i in range(n):
        on = mask[i].reshape(-1) > 0
        xn = rms(x[i].reshape(-1, c), b.norm_w, b.norm_eps) * on[:, None]
        q, k, v = xn @ b.wq, xn @ b.wk, xn @ b.wv
        heads = []
        for hd in range(b.heads):
            kv = hd // (b.heads // b.kv_heads)
            qh = q[:, hd * b.q_dim : (hd + 1) * b.q_dim]
            kh = k[:, kv * b.q_dim : (kv + 1) * b.q_dim]
            if b.rope != "none":
                qh, kh = turn(qh, rope_angles(b, h, w, hd)), turn(kh, rope_angles(b, h, w, hd))
            s = qh @ kh.T / math.sqrt(b.q_dim)
            s[:, ~on] = -np.inf
            p = np.exp(s - s.max(axis=1, keepdims=True))
            p /= p.sum(axis=1, keepdims=True)
            heads.append(p @ v[:, kv * b.v_dim : (kv + 1) * b.v_dim])
        out[i] = np.concatenate(heads, axis=1) @ b.wo * on[:, None]
    return x + out.reshape(x.shape)


def ffn(x: np.ndarray, b: M.FFNBlock, mask: np.ndarray) -> np.ndarray:
    xn = rms(x, b.norm_w, b.norm_eps) * mask
    return x + (act(xn @ b.w1, "silu") * (xn @ b.wgate)) @ b.w2 * mask


def block(x: np.ndarray, b, mask: np.ndarray) -> np.ndarray:
    if isinstance(b, M.ResBlock):
        return x + conv(bn(conv(bn(x, b.norm1, mask), b.conv1.w), b.norm2, mask), b.conv2.w)
    if isinstance(b, M.GPoolBlock):
        a = bn(x, b.norm1, mask)
        g = bn(conv(a, b.gconv.w), b.gnorm, mask)
        r = conv(a, b.conv1.w) + (pool(g, mask) @ b.gpool_to_bias.w)[:, None, None, :]
        return x + conv(bn(r, b.norm2, mask), b.conv2.w)
    if isinstance(b, M.NestedBlock):
        mid = conv(bn(x, b.norm1, mask), b.conv1.w)
        for inner in b.blocks:
            mid = block(mid, inner, mask)
        return x + conv(bn(mid, b.norm2, mask), b.conv2.w)
    if isinstance(b, M.AttentionBlock):
        return attention(x, b, mask)
    return ffn(x, b, mask)


def forward(m: M.Model, spatial: np.ndarray, glob: np.ndarray) -> dict[str, np.ndarray]:
    """The raw outputs (policy channels ``(N, H*W + 1, C)``, value, score, ownership)."""
    x = conv(spatial.transpose(0, 2, 3, 1).astype(np.float64), m.trunk.initial_conv.w)
    x = x + (glob @ m.trunk.initial_dense.w)[:, None, None, :]
    mask = spatial[:, 0][..., None].astype(np.float64)
    for b in m.trunk.blocks:
        x = block(x, b, mask)
    tip = m.trunk.tip
    area = mask.sum(axis=(1, 2, 3))
    if isinstance(tip, M.RMSNorm):
        ms = (x * x * mask).sum(axis=(1, 2, 3)) / (area * x.shape[-1])
        x = act(x / np.sqrt(ms + tip.eps)[:, None, None, None] * tip.gamma + tip.beta, tip.activation) * mask
    else:
        x = bn(x, tip, mask)
    p, v = m.policy, m.value
    g1 = bn(conv(x, p.g1_conv.w), p.g1_norm, mask)
    pooled = pool(g1, mask)
    p1 = bn(conv(x, p.p1_conv.w) + (pooled @ p.gpool_to_bias.w)[:, None, None, :], p.p1_norm, mask)
    n, h, w, _ = x.shape
    points = conv(p1, p.p2_conv.w).reshape(n, h * w, -1)
    if p.pass2 is None:
        passes = pooled @ p.gpool_to_pass.w
    else:
        passes = act(pooled @ p.gpool_to_pass.w + p.gpool_to_pass.bias, p.pass_activation) @ p.pass2.w
    v1 = bn(conv(x, v.v1_conv.w), v.v1_norm, mask)
    mean = v1.sum(axis=(1, 2)) / area[:, None]
    b = (np.sqrt(area) - 14)[:, None]
    v2 = act(
        np.concatenate([mean, mean * b * 0.1, mean * (b * b * 0.01 - 0.1)], 1) @ v.v2.w + v.v2.bias,
        v.v2_activation,
    )
    return {
        "policy": np.concatenate([points, passes[:, None, :]], axis=1),
        "value": v2 @ v.v3.w + v.v3.bias,
        "score": v2 @ v.sv3.w + v.sv3.bias,
        "ownership": conv(v1, v.ownership_conv.w).reshape(n, h * w),
    }


def float_bytes(x: float) -> bytes:
    """A float32's little-endian bytes."""
    return struct.pack("<f", x)
