"""KataGo's binary model format (``.bin.gz``) read into numpy arrays: model versions 8 to 17.

The file is a gzip of a text header and binary weights, one layer after another: the
model's name and version, the numbers of spatial and global input features (from version
13 the score and variance multipliers, from 15 the model's options), then the trunk, the
policy head and the value head. Each layer is its name and its shape as whitespace-separated
text, and a layer with weights is followed by ``@BIN@`` and the weights as little-endian
float32 values. KataGo's ``cpp/neuralnet/desc.cpp`` reads it; this module reads what it
reads, layer by layer, with the same checks:

- the trunk's blocks: ``ordinary_block`` (two convolutions), ``gpool_block`` (with global
  pooling), ``nested_bottleneck_block`` (a 1x1 convolution down, a stack of any blocks,
  a convolution back up: nested to any depth), ``transformer_attention_block`` (an RMS
  norm, query/key/value projections with grouped key-value heads, fixed or learnable
  rotary position embeddings, the output projection) and ``transformer_ffn_block`` (an RMS
  norm, a gated SiLU feed-forward);
- the activations each norm names from version 11 (``ACTIVATION_IDENTITY``, ``RELU``,
  ``MISH``, ``SILU``; ReLU before), the trunk's final norm a batch norm or (version 15) an
  RMS norm over channels or over the whole board;
- the policy head's optimistic channel (version 12), its pass output's extra layer
  (version 15), its Q-value channels (versions 16, 17 with four channels); the value
  head's short-term error outputs (version 9).

Batch norms are folded here into a scale and a bias per channel, as every backend does
(``scale = gamma / sqrt(var + eps)``, ``bias = beta - scale * mean``). A net with an SGF
metadata encoder (KataGo's human-like nets), a non-gated feed-forward block (KataGo's own
backends refuse it), any other version and any damaged file are refused with a
:class:`NetError` whose message is one line naming the layer.

Shapes kept here: a convolution's weights as ``(kh, kw, in, out)`` (the file's order), a
matrix multiplication's as ``(in, out)``.
"""

from __future__ import annotations

import gzip
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

SUPPORTED_VERSIONS = tuple(range(8, 18))
MAX_CHANNELS = 8192  # a shape beyond this is a damaged header, not a net
MAX_KERNEL = 9
MAX_BLOCKS = 512
MAX_DEPTH = 8  # nested bottleneck blocks inside each other
ACTIVATIONS = {
    "ACTIVATION_IDENTITY": "identity",
    "ACTIVATION_RELU": "relu",
    "ACTIVATION_MISH": "mish",
    "ACTIVATION_SILU": "silu",
}
ACTIVATION_CODES = {"identity": 0, "relu": 1, "mish": 2, "silu": 3}  # for the numba kernels


class NetError(ValueError):
    """A model file that cannot be used; the message is one line."""


# --- the layers --------------------------------------------------------------------------


@dataclass(frozen=True)
class Conv:
    """A convolution without bias: weights ``(kh, kw, in, out)``, same padding."""

    name: str
    w: np.ndarray

    @property
    def in_channels(self) -> int:
        """The number of input channels."""
        return int(self.w.shape[2])

    @property
    def out_channels(self) -> int:
        """The number of output channels."""
        return int(self.w.shape[3])

    @property
    def size(self) -> int:
        """The kernel's side (1, 3, 5...)."""
        return int(self.w.shape[0])


@dataclass(frozen=True)
class Norm:
    """A batch norm folded to ``x * scale + bias``, then the activation (``ACTIVATIONS``' values)."""

    name: str
    scale: np.ndarray
    bias: np.ndarray
    activation: str = "relu"

    @property
    def channels(self) -> int:
        """The number of channels."""
        return int(self.scale.shape[0])

    @property
    def code(self) -> int:
        """The activation as the kernels' code (``ACTIVATION_CODES``)."""
        return ACTIVATION_CODES[self.activation]


@dataclass(frozen=True)
class RMSNorm:
    """The trunk's final RMS norm (version 15): ``x / rms(x) * gamma + beta``, then the
    activation; the mean of squares over each point's channels, or (``spatial``) over the
    whole board's points and channels."""

    name: str
    gamma: np.ndarray
    beta: np.ndarray
    eps: float
    spatial: bool
    activation: str = "identity"

    @property
    def channels(self) -> int:
        """The number of channels."""
        return int(self.gamma.shape[0])


@dataclass(frozen=True)
class Dense:
    """A matrix multiplication ``x @ w`` (``w`` is ``(in, out)``), then ``+ bias`` if there is one."""

    name: str
    w: np.ndarray
    bias: np.ndarray | None = None

    @property
    def in_channels(self) -> int:
        """The number of inputs."""
        return int(self.w.shape[0])

    @property
    def out_channels(self) -> int:
        """The number of outputs."""
        return int(self.w.shape[1])


@dataclass(frozen=True)
class ResBlock:
    """A regular residual block: ``trunk += conv2(norm2(conv1(norm1(trunk))))``."""

    name: str
    norm1: Norm
    conv1: Conv
    norm2: Norm
    conv2: Conv


@dataclass(frozen=True)
class GPoolBlock:
    """A residual block with global pooling: a second convolution's pooled channels (mean,
    mean scaled by the board's width, max) become a bias per channel of the first's output."""

    name: str
    norm1: Norm
    conv1: Conv  # the regular part
    gconv: Conv  # the part that is pooled
    gnorm: Norm
    gpool_to_bias: Dense  # (3 * gpool channels, regular channels)
    norm2: Norm
    conv2: Conv


@dataclass(frozen=True)
class NestedBlock:
    """A nested bottleneck residual block: ``trunk += conv2(norm2(stack(conv1(norm1(trunk)))))``,
    the stack any blocks over the narrower width ``conv1.out_channels``."""

    name: str
    norm1: Norm
    conv1: Conv
    blocks: tuple[Block, ...]
    norm2: Norm
    conv2: Conv


@dataclass(frozen=True)
class AttentionBlock:
    """A transformer attention block over the board's points: ``trunk += mask * wo(attention)``
    of ``rmsnorm(trunk) * norm_w``'s projections. ``heads`` query heads share ``kv_heads``
    key/value heads (grouped); ``rope``: ``"none"``, ``"fixed"`` (from ``rope_theta``: the
    first half of each head's pairs turn with the row, the second with the column) or
    ``"learnable"`` (``rope_freqs`` ``(kv_heads, q_dim / 2, 2)``: each pair's angle is
    ``x * f[0] + y * f[1]``)."""

    name: str
    heads: int
    kv_heads: int
    q_dim: int
    v_dim: int
    norm_w: np.ndarray
    norm_eps: float
    wq: np.ndarray  # (C, heads * q_dim)
    wk: np.ndarray  # (C, kv_heads * q_dim)
    wv: np.ndarray  # (C, kv_heads * v_dim)
    wo: np.ndarray  # (heads * v_dim, C)
    rope: str = "none"
    rope_theta: float = 0.0
    rope_freqs: np.ndarray | None = None

    @property
    def channels(self) -> int:
        """The trunk's width it reads and writes."""
        return int(self.wq.shape[0])


@dataclass(frozen=True)
class FFNBlock:
    """A transformer feed-forward block: ``trunk += mask * w2(silu(x @ w1) * (x @ wgate))`` of
    ``x = rmsnorm(trunk) * norm_w`` (SwiGLU)."""

    name: str
    norm_w: np.ndarray
    norm_eps: float
    w1: np.ndarray  # (C, F)
    wgate: np.ndarray  # (C, F)
    w2: np.ndarray  # (F, C)

    @property
    def channels(self) -> int:
        """The trunk's width it reads and writes."""
        return int(self.w1.shape[0])


Block = ResBlock | GPoolBlock | NestedBlock | AttentionBlock | FFNBlock
_KIND_LETTERS = {ResBlock: "r", GPoolBlock: "g", NestedBlock: "n", AttentionBlock: "a", FFNBlock: "f"}


def block_letters(blocks: tuple[Block, ...]) -> str:
    """The blocks as letters (``r`` ordinary, ``g`` pooling, ``a`` attention, ``f``
    feed-forward; a nested block as ``n(...)`` of its own)."""
    out = []
    for b in blocks:
        if isinstance(b, NestedBlock):
            out.append("n(" + block_letters(b.blocks) + ")")
        else:
            out.append(_KIND_LETTERS[type(b)])
    return "".join(out)


@dataclass(frozen=True)
class Trunk:
    """The initial convolution of the spatial features plus a matrix of the global ones,
    the residual blocks, and the final norm."""

    initial_conv: Conv
    initial_dense: Dense  # global features -> a bias per trunk channel
    blocks: tuple[Block, ...]
    tip: Norm | RMSNorm

    @property
    def channels(self) -> int:
        """The trunk's width."""
        return self.initial_conv.out_channels


@dataclass(frozen=True)
class PolicyHead:
    """The policy: ``p2(norm(p1(trunk) + bias from pooled g1(trunk)))`` per point, pass from the
    pool (from version 15 through a second layer: ``pass2(act(pass(pool) + pass_bias))``).

    The output channels (``channels``): 1 (version 8 to 11: the policy), 2 (version 12: and
    the optimistic policy), 4 (version 16, or 17 with four: and the Q values' win-loss and
    score)."""

    p1_conv: Conv
    g1_conv: Conv
    g1_norm: Norm
    gpool_to_bias: Dense
    p1_norm: Norm
    p2_conv: Conv
    gpool_to_pass: Dense
    pass2: Dense | None = None  # version 15: gpool_to_pass has a bias and an activation, then this
    pass_activation: str = "identity"

    @property
    def channels(self) -> int:
        """The number of policy output channels."""
        return self.p2_conv.out_channels


@dataclass(frozen=True)
class ValueHead:
    """The value: v1 pooled (mean, scaled mean, scaled again) into v2, then v3 (win, loss,
    no result logits) and sv3 (score mean, score stdev before softplus, lead, variance of
    the time left; from version 9 the short-term win-loss and score errors); the ownership
    is a 1x1 convolution of v1."""

    v1_conv: Conv
    v1_norm: Norm
    v2: Dense  # with bias, its activation after
    v3: Dense  # with bias: 3 value logits
    sv3: Dense  # with bias: the score outputs
    ownership_conv: Conv
    v2_activation: str = "relu"


@dataclass(frozen=True)
class PostProcess:
    """KataGo's multipliers that turn the raw score outputs into points (in the file from
    version 13, fixed before)."""

    score_mean: float = 20.0
    score_stdev: float = 20.0
    lead: float = 20.0
    variance_time: float = 40.0
    td_score: float = 20.0
    shortterm_value_error: float = 0.25
    shortterm_score_error: float = 30.0


@dataclass(frozen=True)
class Model:
    """A whole net: what the forward pass needs, as float32 arrays."""

    name: str
    version: int
    spatial_features: int
    global_features: int
    trunk: Trunk
    policy: PolicyHead
    value: ValueHead
    post: PostProcess
    # version 15: the pass-alive features as if multi-stone suicide were legal (see docs/net.md)
    prefer_pass_alive_suicide: bool = field(default=False)

    def describe(self) -> str:
        """One line: name, version, blocks and channels."""
        t = self.trunk
        return (
            f"{self.name} (version {self.version}, {len(t.blocks)} blocks [{block_letters(t.blocks)}], "
            f"{t.channels} channels, {self.parameters()} parameters)"
        )

    def parameters(self) -> int:
        """How many float weights the net holds (folded norms count two per channel)."""
        total = 0
        stack: list[object] = [self.trunk, self.policy, self.value]
        while stack:
            x = stack.pop()
            if isinstance(x, np.ndarray):
                total += x.size
            elif isinstance(x, tuple):
                stack.extend(x)
            elif hasattr(x, "__dataclass_fields__"):
                stack.extend(getattr(x, f) for f in x.__dataclass_fields__)
        return total


# --- the reader ---------------------------------------------------------------------------


class _Reader:
    """A cursor over the uncompressed bytes: whitespace-separated tokens and float blocks."""

    def __init__(self, data: bytes, version: int = 8) -> None:
        self.data = data
        self.pos = 0
        self.layer = "header"
        self.version = version

    def fail(self, what: str) -> NetError:
        return NetError(f"{self.layer}: {what}")

    def token(self) -> str:
        d, n, i = self.data, len(self.data), self.pos
        while i < n and d[i] in b" \t\r\n":
            i += 1
        j = i
        while j < n and d[j] not in b" \t\r\n":
            j += 1
        if i == j:
            raise self.fail("the file ends in the middle of the header")
        self.pos = j
        try:
            return d[i:j].decode("ascii")
        except UnicodeDecodeError:
            raise self.fail("unreadable header text (not a KataGo .bin.gz model?)") from None

    def int(self, what: str, low: int = 1, high: int = MAX_CHANNELS) -> int:
        t = self.token()
        try:
            v = int(t)
        except ValueError:
            raise self.fail(f"expected {what} (an integer), found {t[:20]!r}") from None
        if not low <= v <= high:
            raise self.fail(f"{what} {v} out of range {low}..{high}")
        return v

    def zeros(self, what: str, count: int) -> None:
        """``count`` option fields that must be 0 (KataGo's "unused params")."""
        for k in range(count):
            v = self.int(f"{what} option {k + 1}", -(10**9), 10**9)
            if v != 0:
                raise self.fail(f"unknown or unsupported {what} option {k + 1}: {v}")

    def float(self, what: str, positive: bool = False) -> float:
        t = self.token()
        try:
            v = float(t)
        except ValueError:
            raise self.fail(f"expected {what} (a number), found {t[:20]!r}") from None
        if not np.isfinite(v) or (positive and not v > 0):
            raise self.fail(f"{what} {t[:20]} is not {'positive and ' if positive else ''}finite")
        return v

    def name(self) -> str:
        self.layer = self.token()
        return self.layer

    def floats(self, count: int) -> np.ndarray:
        d, i = self.data, self.pos
        at = d.find(b"@", i, i + 101)
        if at < 0 or d[i:at].strip():
            raise self.fail("no binary weights where expected (a text model, or a damaged file)")
        if d[at : at + 5] != b"@BIN@":
            raise self.fail("damaged binary weight marker")
        start = at + 5
        end = start + 4 * count
        if end > len(d):
            raise self.fail("the file ends in the middle of the weights (truncated)")
        a = np.frombuffer(d, dtype="<f4", count=count, offset=start).astype(np.float32)
        if not np.isfinite(a).all():
            raise self.fail("a weight is NaN or infinite")
        self.pos = end
        return a

    # --- layers ---

    def conv(self) -> Conv:
        name = self.name()
        kh = self.int("kernel height", 1, MAX_KERNEL)
        kw = self.int("kernel width", 1, MAX_KERNEL)
        cin = self.int("input channels")
        cout = self.int("output channels")
        self.int("dilation", 1, 1)
        self.int("dilation", 1, 1)
        if kh % 2 == 0 or kw % 2 == 0 or kh != kw:
            raise self.fail(f"unsupported kernel {kh}x{kw} (odd and square only)")
        w = self.floats(kh * kw * cin * cout).reshape(kh, kw, cin, cout)
        return Conv(name, w)

    def norm(self) -> Norm:
        """A batch norm and the activation layer after it."""
        name = self.name()
        c = self.int("channels")
        eps = self.float("epsilon", positive=True)
        has_scale = self.int("has-scale flag", 0, 1)
        has_bias = self.int("has-bias flag", 0, 1)
        mean = self.floats(c)
        var = self.floats(c)
        gamma = self.floats(c) if has_scale else np.ones(c, np.float32)
        beta = self.floats(c) if has_bias else np.zeros(c, np.float32)
        if (var + np.float32(eps) <= 0).any():
            raise self.fail("negative variance")
        # in float32, as KataGo's loader folds them
        scale = gamma / np.sqrt(var + np.float32(eps))
        bias = beta - scale * mean
        return Norm(name, scale, bias, self.activation())

    def activation(self) -> str:
        """An activation layer: its name, and from version 11 its kind (ReLU before)."""
        self.name()
        if self.version < 11:
            return "relu"
        kind = self.token()
        if kind not in ACTIVATIONS:
            raise self.fail(f"unknown activation {kind[:40]!r}")
        return ACTIVATIONS[kind]

    def rms_norm(self) -> RMSNorm:
        """The trunk's final RMS norm and the activation layer after it."""
        name = self.name()
        c = self.int("channels")
        eps = self.float("epsilon", positive=True)
        if eps > 1:
            raise self.fail(f"epsilon {eps} too large")
        spatial = self.int("spatial flag", 0, 1)
        group = self.int("channel group size", 0, MAX_CHANNELS)
        if group:
            raise self.fail(f"grouped RMS norm (group size {group}) is not supported (nor by KataGo)")
        gamma = self.floats(c)
        beta = self.floats(c)
        return RMSNorm(name, gamma, beta, eps, bool(spatial), self.activation())

    def transformer_norm(self) -> tuple[np.ndarray, float]:
        """A transformer block's RMS norm: its weight and epsilon."""
        self.name()
        c = self.int("channels")
        eps = self.float("epsilon", positive=True)
        if eps > 1:
            raise self.fail(f"epsilon {eps} too large")
        return self.floats(c), eps

    def dense(self) -> Dense:
        name = self.name()
        cin = self.int("input channels")
        cout = self.int("output channels")
        return Dense(name, self.floats(cin * cout).reshape(cin, cout))

    def bias(self) -> np.ndarray:
        self.name()
        c = self.int("channels")
        return self.floats(c)

    def dense_bias(self) -> Dense:
        d = self.dense()
        b = self.bias()
        if b.size != d.out_channels:
            raise self.fail(f"{b.size} biases for {d.out_channels} outputs")
        return Dense(d.name, d.w, b)


def _check(cond: bool, where: str, what: str) -> None:
    if not cond:
        raise NetError(f"{where}: {what}")


def _ordinary(r: _Reader, name: str) -> ResBlock:
    n1 = r.norm()
    c1 = r.conv()
    n2 = r.norm()
    c2 = r.conv()
    _check(n1.channels == c1.in_channels, name, "norm1's channels != conv1's inputs")
    _check(n2.channels == c1.out_channels == c2.in_channels, name, "inner channels disagree")
    return ResBlock(name, n1, c1, n2, c2)


def _gpool(r: _Reader, name: str) -> GPoolBlock:
    n1 = r.norm()
    c1 = r.conv()
    gc = r.conv()
    gn = r.norm()
    gb = r.dense()
    n2 = r.norm()
    c2 = r.conv()
    _check(n1.channels == c1.in_channels == gc.in_channels, name, "input channels disagree")
    _check(gn.channels == gc.out_channels, name, "pooled channels disagree")
    _check(gb.in_channels == 3 * gc.out_channels, name, "pooling matrix inputs != 3 x pooled channels")
    _check(gb.out_channels == c1.out_channels == n2.channels == c2.in_channels, name, "inner channels")
    return GPoolBlock(name, n1, c1, gc, gn, gb, n2, c2)


def _nested(r: _Reader, name: str, depth: int) -> NestedBlock:
    count = r.int("number of nested blocks", 1, MAX_BLOCKS)
    n1 = r.norm()
    c1 = r.conv()
    inner = _read_stack(r, name, count, c1.out_channels, depth + 1)
    r.layer = name
    n2 = r.norm()
    c2 = r.conv()
    _check(n1.channels == c1.in_channels, name, "preBN's channels != preConv's inputs")
    _check(n2.channels == c1.out_channels == c2.in_channels, name, "postBN's channels != the inner width")
    return NestedBlock(name, n1, c1, inner, n2, c2)


def _rope(
    r: _Reader, name: str, learnable: bool, kv_heads: int, q_dim: int
) -> tuple[str, float, np.ndarray | None]:
    r.name()  # the rope layer's name
    if learnable:
        h = r.int("rope key-value heads")
        pairs = r.int("rope pairs")
        two = r.int("rope frequency width")
        _check(h == kv_heads, name, f"rope heads {h} != key-value heads {kv_heads}")
        _check(pairs == q_dim // 2, name, f"rope pairs {pairs} != q_dim / 2 ({q_dim // 2})")
        _check(two == 2, name, "rope frequency width must be 2")
        return "learnable", 0.0, r.floats(h * pairs * 2).reshape(h, pairs, 2)
    theta = r.float("rope theta", positive=True)
    return "fixed", theta, None


def _attention(r: _Reader, name: str) -> AttentionBlock:
    heads = r.int("heads")
    kv = r.int("key-value heads")
    q_dim = r.int("query head width")
    v_dim = r.int("value head width")
    use_rope = r.int("rope flag", 0, 1)
    learnable = r.int("learnable rope flag", 0, 1)
    _check(heads % kv == 0, name, f"{heads} heads not divisible by {kv} key-value heads")
    _check(not use_rope or q_dim % 2 == 0, name, f"query head width {q_dim} must be even with rope")
    norm_w, eps = r.transformer_norm()
    q, k, v, o = r.dense(), r.dense(), r.dense(), r.dense()
    c = q.in_channels
    _check(norm_w.size == c == k.in_channels == v.in_channels == o.out_channels, name, "channels disagree")
    _check(q.out_channels == heads * q_dim, name, "query projection != heads x query width")
    _check(k.out_channels == kv * q_dim, name, "key projection != key-value heads x query width")
    _check(v.out_channels == kv * v_dim, name, "value projection != key-value heads x value width")
    _check(o.in_channels == heads * v_dim, name, "output projection != heads x value width")
    rope, theta, freqs = _rope(r, name, bool(learnable), kv, q_dim) if use_rope else ("none", 0.0, None)
    return AttentionBlock(name, heads, kv, q_dim, v_dim, norm_w, eps, q.w, k.w, v.w, o.w, rope, theta, freqs)


def _ffn(r: _Reader, name: str) -> FFNBlock:
    c = r.int("channels")
    f = r.int("feed-forward channels")
    gated = r.int("SwiGLU flag", 0, 1)
    if not gated:
        raise NetError(f"{name}: a non-gated feed-forward block (KataGo's own backends do not run it either)")
    norm_w, eps = r.transformer_norm()
    w1, gate, w2 = r.dense(), r.dense(), r.dense()
    _check(norm_w.size == c == w1.in_channels == gate.in_channels == w2.out_channels, name, "channels")
    _check(w1.out_channels == gate.out_channels == w2.in_channels == f, name, "feed-forward channels")
    return FFNBlock(name, norm_w, eps, w1.w, gate.w, w2.w)


def _block_io(b: Block) -> tuple[int, int]:
    """The channels a block reads and writes."""
    if isinstance(b, (AttentionBlock, FFNBlock)):
        return b.channels, b.channels
    return b.norm1.channels, b.conv2.out_channels


def _read_stack(r: _Reader, where: str, count: int, channels: int, depth: int) -> tuple[Block, ...]:
    """``count`` blocks of any kind over ``channels``."""
    if depth > MAX_DEPTH:
        raise NetError(f"{where}: nested bottleneck blocks deeper than {MAX_DEPTH}")
    blocks: list[Block] = []
    for _ in range(count):
        r.layer = where
        kind = r.token()
        name = r.name()
        if kind == "ordinary_block":
            b: Block = _ordinary(r, name)
        elif kind == "gpool_block":
            b = _gpool(r, name)
        elif kind == "nested_bottleneck_block":
            b = _nested(r, name, depth)
        elif kind == "transformer_attention_block":
            b = _attention(r, name)
        elif kind == "transformer_ffn_block":
            b = _ffn(r, name)
        else:
            raise NetError(f"{where}: unknown block kind {kind[:40]!r}")
        cin, cout = _block_io(b)
        _check(cin == cout == channels, name, f"reads {cin} and writes {cout} channels, not {channels}")
        blocks.append(b)
    return tuple(blocks)


def _header(r: _Reader) -> tuple[str, int, int, int, PostProcess, bool]:
    """The model's name, version, input features, multipliers and options."""
    name = r.token()
    version = r.int("model version", -(10**6), 10**6)
    if version not in SUPPORTED_VERSIONS:
        newer = " (a newer KataGo's net)" if version > SUPPORTED_VERSIONS[-1] else ""
        raise NetError(f"model version {version} is not supported (only 8 to 17){newer}")
    r.version = version
    n_spatial = r.int("spatial features")
    n_global = r.int("global features")
    if (n_spatial, n_global) != (22, 19):
        raise NetError(
            f"{n_spatial} spatial and {n_global} global features (versions 8 to 17 have 22 and 19)"
        )
    post = PostProcess()
    if version >= 13:
        names = (
            "td score",
            "score mean",
            "score stdev",
            "lead",
            "variance time",
            "value error",
            "score error",
        )
        m = [r.float(f"{what} multiplier", positive=True) for what in names]
        post = PostProcess(m[1], m[2], m[3], m[4], m[0], m[5], m[6])
    prefer = False
    if version >= 15:
        meta = r.int("metadata encoder version", 0, 10**6)
        if meta:
            raise NetError(
                f"{name}: a net with an SGF metadata encoder (version {meta}: KataGo's human-like nets) "
                "is not supported"
            )
        prefer = bool(r.int("pass-alive-under-suicide flag", 0, 1))
        r.zeros("model", 6)
    return name, version, n_spatial, n_global, post, prefer


def _trunk(r: _Reader, n_spatial: int, n_global: int) -> Trunk:
    r.name()  # "trunk"
    n_blocks = r.int("number of blocks", 1, MAX_BLOCKS)
    channels = r.int("trunk channels")
    for what in ("mid channels", "regular channels", "dilated channels", "gpool channels"):
        r.int(what)
    norm_kind = 0
    if r.version >= 15:
        norm_kind = r.int("trunk norm kind", 0, 10**6)
        if norm_kind > 1:
            raise r.fail(f"unknown trunk norm kind {norm_kind}")
        r.zeros("trunk", 5)
    initial_conv = r.conv()
    initial_dense = r.dense()
    _check(initial_conv.in_channels == n_spatial, "trunk", "initial convolution's inputs != spatial features")
    _check(initial_conv.out_channels == channels, "trunk", "initial convolution's outputs != trunk channels")
    _check(initial_dense.in_channels == n_global, "trunk", "initial matrix's inputs != global features")
    _check(initial_dense.out_channels == channels, "trunk", "initial matrix's outputs != trunk channels")
    blocks = _read_stack(r, "trunk", n_blocks, channels, 0)
    tip = r.rms_norm() if norm_kind == 1 else r.norm()
    _check(tip.channels == channels, "trunk", "final norm's channels != trunk channels")
    return Trunk(initial_conv, initial_dense, blocks, tip)


def _policy_channels(r: _Reader) -> int:
    if r.version >= 17:
        c = r.int("policy channels", 1, 64)
        if c not in (2, 4):
            raise r.fail(f"{c} policy channels (2 or 4)")
        r.zeros("policy", 3)
        return c
    return 4 if r.version == 16 else 2 if r.version >= 12 else 1


def _policy(r: _Reader, channels: int) -> PolicyHead:
    r.name()  # policy head
    out = _policy_channels(r)
    p1 = r.conv()
    g1 = r.conv()
    g1n = r.norm()
    gtb = r.dense()
    p1n = r.norm()
    p2 = r.conv()
    gtp = r.dense()
    pass2, pass_act = None, "identity"
    if r.version >= 15:
        gtp = Dense(gtp.name, gtp.w, r.bias())
        pass_act = r.activation()
        pass2 = r.dense()
    where = "policy head"
    _check(p1.in_channels == g1.in_channels == channels, where, "inputs != trunk channels")
    _check(g1n.channels == g1.out_channels, where, "g1 channels disagree")
    _check(gtb.in_channels == 3 * g1.out_channels == gtp.in_channels, where, "pooled inputs")
    _check(gtb.out_channels == p1.out_channels == p1n.channels == p2.in_channels, where, "p1 channels")
    _check(p2.out_channels == out, where, f"p2 has {p2.out_channels} outputs, version {r.version} has {out}")
    _check(p2.size == 1, where, "p2 must be 1x1")
    if pass2 is None:
        _check(gtp.out_channels == out, where, f"the pass output has {gtp.out_channels} channels, not {out}")
    else:
        _check(gtp.bias is not None and gtp.bias.size == gtp.out_channels, where, "pass bias channels")
        _check(gtp.out_channels == p1.out_channels == pass2.in_channels, where, "pass layer channels")
        _check(
            pass2.out_channels == out, where, f"the pass output has {pass2.out_channels} channels, not {out}"
        )
    return PolicyHead(p1, g1, g1n, gtb, p1n, p2, gtp, pass2, pass_act)


def _value(r: _Reader, channels: int) -> ValueHead:
    r.name()  # value head
    if r.version >= 17:
        r.zeros("value", 3)
    v1 = r.conv()
    v1n = r.norm()
    v2 = r.dense_bias()
    v2_act = r.activation()
    v3 = r.dense_bias()
    sv3 = r.dense_bias()
    own = r.conv()
    where = "value head"
    n_scores = 6 if r.version >= 9 else 4
    _check(v1.in_channels == channels, where, "v1 inputs != trunk channels")
    _check(v1n.channels == v1.out_channels, where, "v1 channels disagree")
    _check(v2.in_channels == 3 * v1.out_channels, where, "v2 inputs != 3 x v1 channels")
    _check(v2.out_channels == v3.in_channels == sv3.in_channels, where, "v2 channels")
    _check(v3.out_channels == 3, where, "v3 must have 3 outputs")
    _check(sv3.out_channels == n_scores, where, f"sv3 must have {n_scores} outputs in version {r.version}")
    _check(own.in_channels == v1.out_channels and own.out_channels == 1, where, "ownership channels")
    _check(own.size == 1, where, "the ownership convolution must be 1x1")
    return ValueHead(v1, v1n, v2, v3, sv3, own, v2_act)


def parse_model(data: bytes) -> Model:
    """A :class:`Model` from the uncompressed bytes of a ``.bin`` model; raises NetError."""
    r = _Reader(data)
    name, version, n_spatial, n_global, post, prefer = _header(r)
    trunk = _trunk(r, n_spatial, n_global)
    policy = _policy(r, trunk.channels)
    value = _value(r, trunk.channels)
    if r.data[r.pos :].strip():
        raise NetError("unexpected data after the value head (a damaged or unsupported model)")
    return Model(name, version, n_spatial, n_global, trunk, policy, value, post, prefer)


def load_model(path: str | Path) -> Model:
    """Read a KataGo ``.bin.gz`` model; raises :class:`NetError` (one line) for any unusable file."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as e:
        raise NetError(f"{p}: cannot read: {e.strerror or e}") from None
    try:
        data = gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else None
    except (OSError, EOFError, zlib.error) as e:
        raise NetError(f"{p}: damaged gzip data ({e})".replace("\n", " ")) from None
    if data is None:
        raise NetError(f"{p}: not a gzip file (a KataGo model is a .bin.gz)")
    try:
        return parse_model(data)
    except NetError as e:
        raise NetError(f"{p}: {e}") from None
