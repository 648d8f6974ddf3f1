"""KataGo's binary model format (``.bin.gz``) read into numpy arrays.

The file is a gzip of a text header and binary weights, one layer after another: the
model's name and version, the numbers of spatial and global input features, then the
trunk, the policy head and the value head. Each layer is its name and its shape as
whitespace-separated text, and a layer with weights is followed by ``@BIN@`` and the
weights as little-endian float32 values. Batch norms are folded here into a scale and a
bias per channel, as every backend does (``scale = gamma / sqrt(var + eps)``,
``bias = beta - scale * mean``).

Only model version 8 (KataGo's ``g170`` nets: residual blocks, some with global pooling,
ReLU activations, one policy channel, four score outputs) is read; anything else, and any
damaged file, is refused with a :class:`NetError` whose message is one line.

Shapes kept here: a convolution's weights as ``(kh, kw, in, out)`` (the file's order), a
matrix multiplication's as ``(in, out)``.
"""

from __future__ import annotations

import gzip
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

SUPPORTED_VERSIONS = (8,)
MAX_CHANNELS = 4096  # a shape beyond this is a damaged header, not a net
MAX_KERNEL = 9
MAX_BLOCKS = 512


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
    """A batch norm folded to ``x * scale + bias``, then the activation (ReLU or identity)."""

    name: str
    scale: np.ndarray
    bias: np.ndarray
    relu: bool = True

    @property
    def channels(self) -> int:
        """The number of channels."""
        return int(self.scale.shape[0])


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
class Trunk:
    """The initial convolution of the spatial features plus a matrix of the global ones,
    the residual blocks, and the final norm."""

    initial_conv: Conv
    initial_dense: Dense  # global features -> a bias per trunk channel
    blocks: tuple[ResBlock | GPoolBlock, ...]
    tip: Norm

    @property
    def channels(self) -> int:
        """The trunk's width."""
        return self.initial_conv.out_channels


@dataclass(frozen=True)
class PolicyHead:
    """The policy: ``p2(norm(p1(trunk) + bias from pooled g1(trunk)))`` per point, pass from the pool."""

    p1_conv: Conv
    g1_conv: Conv
    g1_norm: Norm
    gpool_to_bias: Dense
    p1_norm: Norm
    p2_conv: Conv
    gpool_to_pass: Dense


@dataclass(frozen=True)
class ValueHead:
    """The value: v1 pooled (mean, scaled mean, scaled again) into v2, then v3 (win, loss,
    no result logits) and sv3 (score mean, score stdev before softplus, lead, variance of
    the time left); the ownership is a 1x1 convolution of v1."""

    v1_conv: Conv
    v1_norm: Norm
    v2: Dense  # with bias, ReLU after
    v3: Dense  # with bias: 3 value logits
    sv3: Dense  # with bias: the score outputs
    ownership_conv: Conv


@dataclass(frozen=True)
class PostProcess:
    """KataGo's multipliers that turn the raw score outputs into points (fixed before version 13)."""

    score_mean: float = 20.0
    score_stdev: float = 20.0
    lead: float = 20.0
    variance_time: float = 40.0


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

    def describe(self) -> str:
        """One line: name, version, blocks and channels."""
        t = self.trunk
        kinds = "".join("g" if isinstance(b, GPoolBlock) else "r" for b in t.blocks)
        return (
            f"{self.name} (version {self.version}, {len(t.blocks)} blocks [{kinds}], "
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

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0
        self.layer = "header"

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

    def float(self, what: str) -> float:
        t = self.token()
        try:
            v = float(t)
        except ValueError:
            raise self.fail(f"expected {what} (a number), found {t[:20]!r}") from None
        if not np.isfinite(v):
            raise self.fail(f"{what} is not finite")
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
        dy = self.int("dilation", 1, 1)
        dx = self.int("dilation", 1, 1)
        del dy, dx
        if kh % 2 == 0 or kw % 2 == 0 or kh != kw:
            raise self.fail(f"unsupported kernel {kh}x{kw} (odd and square only)")
        w = self.floats(kh * kw * cin * cout).reshape(kh, kw, cin, cout)
        return Conv(name, w)

    def norm(self) -> Norm:
        name = self.name()
        c = self.int("channels")
        eps = self.float("epsilon")
        if not eps > 0:
            raise self.fail("epsilon must be positive")
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
        return Norm(name, scale, bias)

    def activation(self, norm: Norm) -> Norm:
        self.name()  # version 8 writes the layer's name only: always ReLU
        return norm

    def dense(self) -> Dense:
        name = self.name()
        cin = self.int("input channels")
        cout = self.int("output channels")
        return Dense(name, self.floats(cin * cout).reshape(cin, cout))

    def bias(self) -> np.ndarray:
        self.name()
        c = self.int("channels")
        return self.floats(c)


def _check(cond: bool, where: str, what: str) -> None:
    if not cond:
        raise NetError(f"{where}: {what}")


def _read_block(r: _Reader, kind: str, channels: int) -> ResBlock | GPoolBlock:
    name = r.name()
    if kind == "ordinary_block":
        n1 = r.activation(r.norm())
        c1 = r.conv()
        n2 = r.activation(r.norm())
        c2 = r.conv()
        _check(n1.channels == channels == c1.in_channels, name, "input channels differ from the trunk's")
        _check(n2.channels == c1.out_channels == c2.in_channels, name, "inner channels disagree")
        _check(c2.out_channels == channels, name, "output channels differ from the trunk's")
        return ResBlock(name, n1, c1, n2, c2)
    if kind == "gpool_block":
        n1 = r.activation(r.norm())
        c1 = r.conv()
        gc = r.conv()
        gn = r.activation(r.norm())
        gb = r.dense()
        n2 = r.activation(r.norm())
        c2 = r.conv()
        _check(n1.channels == channels == c1.in_channels == gc.in_channels, name, "input channels disagree")
        _check(gn.channels == gc.out_channels, name, "pooled channels disagree")
        _check(gb.in_channels == 3 * gc.out_channels, name, "pooling matrix inputs != 3 x pooled channels")
        _check(gb.out_channels == c1.out_channels == n2.channels == c2.in_channels, name, "inner channels")
        _check(c2.out_channels == channels, name, "output channels differ from the trunk's")
        return GPoolBlock(name, n1, c1, gc, gn, gb, n2, c2)
    raise NetError(f"{name}: unsupported block kind {kind!r} (only ordinary_block and gpool_block)")


def parse_model(data: bytes) -> Model:
    """A :class:`Model` from the uncompressed bytes of a ``.bin`` model; raises NetError."""
    r = _Reader(data)
    name = r.token()
    version = r.int("model version", 0, 10**6)
    if version not in SUPPORTED_VERSIONS:
        supported = ", ".join(map(str, SUPPORTED_VERSIONS))
        raise NetError(f"model version {version} is not supported (only {supported})")
    n_spatial = r.int("spatial features")
    n_global = r.int("global features")
    if (n_spatial, n_global) != (22, 19):
        raise NetError(f"{n_spatial} spatial and {n_global} global features (version 8 has 22 and 19)")

    r.name()  # "trunk"
    n_blocks = r.int("number of blocks", 1, MAX_BLOCKS)
    channels = r.int("trunk channels")
    for what in ("mid channels", "regular channels", "dilated channels", "gpool channels"):
        r.int(what)
    initial_conv = r.conv()
    initial_dense = r.dense()
    _check(initial_conv.in_channels == n_spatial, "trunk", "initial convolution's inputs != spatial features")
    _check(initial_conv.out_channels == channels, "trunk", "initial convolution's outputs != trunk channels")
    _check(initial_dense.in_channels == n_global, "trunk", "initial matrix's inputs != global features")
    _check(initial_dense.out_channels == channels, "trunk", "initial matrix's outputs != trunk channels")
    blocks = []
    for _ in range(n_blocks):
        kind = r.token()
        blocks.append(_read_block(r, kind, channels))
    tip = r.activation(r.norm())
    _check(tip.channels == channels, "trunk", "final norm's channels != trunk channels")
    trunk = Trunk(initial_conv, initial_dense, tuple(blocks), tip)

    r.name()  # policy head
    p1 = r.conv()
    g1 = r.conv()
    g1n = r.activation(r.norm())
    gtb = r.dense()
    p1n = r.activation(r.norm())
    p2 = r.conv()
    gtp = r.dense()
    _check(p1.in_channels == g1.in_channels == channels, "policy head", "inputs != trunk channels")
    _check(g1n.channels == g1.out_channels, "policy head", "g1 channels disagree")
    _check(gtb.in_channels == 3 * g1.out_channels == gtp.in_channels, "policy head", "pooled inputs")
    _check(
        gtb.out_channels == p1.out_channels == p1n.channels == p2.in_channels, "policy head", "p1 channels"
    )
    _check(p2.out_channels == 1 and gtp.out_channels == 1, "policy head", "version 8 has one policy channel")
    _check(p2.size == 1, "policy head", "p2 must be 1x1")
    policy = PolicyHead(p1, g1, g1n, gtb, p1n, p2, gtp)

    r.name()  # value head
    v1 = r.conv()
    v1n = r.activation(r.norm())
    v2 = r.dense()
    v2b = r.bias()
    r.name()  # v2 activation
    v3 = r.dense()
    v3b = r.bias()
    sv3 = r.dense()
    sv3b = r.bias()
    own = r.conv()
    _check(v1.in_channels == channels, "value head", "v1 inputs != trunk channels")
    _check(v1n.channels == v1.out_channels, "value head", "v1 channels disagree")
    _check(v2.in_channels == 3 * v1.out_channels, "value head", "v2 inputs != 3 x v1 channels")
    _check(v2b.size == v2.out_channels == v3.in_channels == sv3.in_channels, "value head", "v2 channels")
    _check(v3.out_channels == v3b.size == 3, "value head", "v3 must have 3 outputs")
    _check(sv3.out_channels == sv3b.size == 4, "value head", "sv3 must have 4 outputs in version 8")
    _check(own.in_channels == v1.out_channels and own.out_channels == 1, "value head", "ownership channels")
    _check(own.size == 1, "value head", "the ownership convolution must be 1x1")
    value = ValueHead(
        v1,
        v1n,
        Dense(v2.name, v2.w, v2b),
        Dense(v3.name, v3.w, v3b),
        Dense(sv3.name, sv3.w, sv3b),
        own,
    )
    if r.data[r.pos :].strip():
        raise NetError("unexpected data after the value head (a damaged or unsupported model)")
    return Model(name, version, n_spatial, n_global, trunk, policy, value, PostProcess())


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
