"""Every block, activation and norm kind of KataGo's nets (model versions 8 to 17): a random
model holding them all, written in KataGo's format, read back, and evaluated by the fast
forward pass against a plain float64 one written from KataGo's Eigen backend's formulas;
the refusals (one line naming the layer); the real nets' structures; the post-processing
of each version."""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np
import pytest
from net_writer import forward as plain_forward
from net_writer import random_model, write_model
from test_net import find_net

from gorilla.ai.net import forward as F
from gorilla.ai.net import load_net
from gorilla.ai.net import model as M

TEST_NETS = ("b7c96h3tfrs-test5-cnorm.bin.gz", "b7c96h6kv3qk32v16tflrs-fson-bnh.bin.gz")


def same(a, b, path: str = "model") -> None:
    """Two models' fields equal (arrays exactly)."""
    if isinstance(a, np.ndarray):
        assert isinstance(b, np.ndarray) and a.shape == b.shape, path
        np.testing.assert_array_equal(a, b, err_msg=path)
    elif isinstance(a, tuple):
        assert isinstance(b, tuple) and len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            same(x, y, f"{path}[{i}]")
    elif hasattr(a, "__dataclass_fields__"):
        assert type(a) is type(b), path
        for f in a.__dataclass_fields__:
            if f != "name":
                same(getattr(a, f), getattr(b, f), f"{path}.{f}")
    elif isinstance(a, float):
        assert abs(a - b) <= 1e-6 * abs(a), path
    else:
        assert a == b, path


def test_a_model_of_every_kind_reads_back_as_written() -> None:
    m = random_model(version=17)
    back = M.parse_model(write_model(m))
    same(m, back)
    assert back.describe().startswith("random-net (version 17, 5 blocks [rgn(rafn(ag))af], 12 channels")
    for version, channels in ((15, 2), (16, 4)):
        m = random_model(version=version, policy_channels=channels)
        same(m, M.parse_model(write_model(m)))


def inputs(n: int, size: int, board: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Random inputs: ``board`` x ``board`` boards in the corner of ``size`` x ``size`` ones."""
    rng = np.random.default_rng(seed)
    sp = (rng.random((n, 22, size, size)) < 0.25).astype(np.float32)
    sp[:, 0] = 0
    sp[:, 0, :board, :board] = 1
    sp *= sp[:, :1]
    return sp, rng.standard_normal((n, 19)).astype(np.float32) * 0.5


@pytest.mark.parametrize(("size", "board"), [(7, 7), (9, 6), (5, 5)])
def test_the_fast_forward_pass_is_the_formulas(size: int, board: int) -> None:
    m = random_model(seed=size + board)
    sp, gl = inputs(3, size, board, seed=size)
    raw = F.Forward(m).run(sp, gl)
    want = plain_forward(m, sp, gl)
    on = np.concatenate([sp[:, 0].reshape(3, -1) > 0, np.ones((3, 1), bool)], axis=1)
    pol = np.stack([raw.policy, raw.optimistic, raw.q[..., 0], raw.q[..., 1]], axis=-1)
    scale = np.abs(want["policy"]).max()
    np.testing.assert_allclose(pol[on], want["policy"][on], atol=2e-5 * scale)
    np.testing.assert_allclose(raw.value, want["value"], atol=2e-5 * np.abs(want["value"]).max())
    np.testing.assert_allclose(raw.score, want["score"], atol=2e-5 * np.abs(want["score"]).max())
    own = want["ownership"][on[:, :-1]]
    np.testing.assert_allclose(raw.ownership[on[:, :-1]], own, atol=2e-5 * np.abs(own).max())


def test_flops_count_every_block() -> None:
    m = random_model()
    fw = F.Forward(m)
    total = fw.flops(9, 9)
    pts = 81
    assert m.trunk.blocks[3].heads == 3  # over 12 channels, one key-value head
    att_flops = 2 * pts * (12 * (3 * 4 + 4 + 5) + 3 * 5 * 12) + 2 * 3 * pts * pts * (4 + 5)
    assert fw.blocks[3].flops(pts) == att_flops
    assert fw.blocks[0].flops(pts) == 2 * pts * 9 * (12 * 6 + 6 * 12)
    assert total > sum(b.flops(pts) for b in fw.blocks) > 0


def refused_bytes(data: bytes) -> str:
    with pytest.raises(M.NetError) as e:
        M.parse_model(data)
    msg = str(e.value)
    assert msg and "\n" not in msg
    return msg


def test_what_kataGo_cannot_run_is_refused_in_one_line() -> None:
    m = random_model(version=17)
    msg = refused_bytes(write_model(m, meta=1))
    assert "SGF metadata encoder" in msg and "human" in msg
    msg = refused_bytes(write_model(m, options=(0, 0, 3, 0, 0, 0)))
    assert msg == "header: unknown or unsupported model option 3: 3"
    data = write_model(m)
    ffn = m.trunk.blocks[4]
    head = f"transformer_ffn_block\n{ffn.name}\n12\n16\n1\n".encode()
    assert head in data
    msg = refused_bytes(data.replace(head, head[:-2] + b"0\n"))
    assert msg.startswith(f"{ffn.name}: a non-gated feed-forward block")
    msg = refused_bytes(data.replace(b"ACTIVATION_MISH", b"ACTIVATION_GELU", 1))
    assert msg.endswith("unknown activation 'ACTIVATION_GELU'")
    tip = b"tip\n12\n1e-05\n1\n0\n"
    assert tip in data
    assert "grouped RMS norm" in refused_bytes(data.replace(tip, tip[:-2] + b"4\n"))
    # a nested block's inner layer damaged: that layer is named
    nested = m.trunk.blocks[2].blocks[1]
    bad = data.replace(f"{nested.name}\n4\n2\n6\n4\n".encode(), f"{nested.name}\n4\n3\n6\n4\n".encode())
    assert refused_bytes(bad) == f"{nested.name}: 4 heads not divisible by 3 key-value heads"
    # a block whose width is not the stack's
    bad = data.replace(b"nested_bottleneck_block", b"ordinary_block", 1)
    assert (
        "unknown" in refused_bytes(bad)
        or "expected" in refused_bytes(bad)
        or "channels" in refused_bytes(bad)
    )


def test_an_unreadable_net_leaves_the_shipped_one(tmp_path: Path) -> None:
    from gorilla.ai.net import load_net_or_shipped

    bad = tmp_path / "human.bin.gz"
    bad.write_bytes(gzip.compress(write_model(random_model(), meta=1)))
    net, why = load_net_or_shipped(bad)
    assert net.model.version == 8 and "SGF metadata encoder" in why and str(bad) in why and "\n" not in why
    net, why = load_net_or_shipped(None)
    assert net.model.version == 8 and why is None


@pytest.mark.parametrize("name", TEST_NETS + ("b10c384h6nbttflrs.bin.gz",))
def test_the_new_nets_read_with_their_structure(name: str) -> None:
    path = find_net(name)
    if path is None:
        pytest.skip(f"{name} is not here (tests/data/net, GORILLA_NETS, shared/nets)")
    m = M.load_model(path)
    t = m.trunk
    assert m.policy.channels == 2 and m.value.sv3.out_channels == 6 and m.post.shortterm_score_error == 150
    if name.startswith("b10"):
        assert m.version == 15 and t.channels == 384 and isinstance(t.tip, M.RMSNorm) and t.tip.spatial
        assert "10 blocks [n(afaf)n(afaf)" in m.describe()
        a = t.blocks[0].blocks[0]
        assert (a.heads, a.kv_heads, a.q_dim, a.v_dim, a.rope) == (6, 6, 32, 32, "learnable")
        assert t.blocks[0].conv1.w.shape == (1, 1, 384, 192) and t.blocks[0].norm1.activation == "silu"
        assert m.policy.pass2 is not None and m.policy.pass_activation == "silu"
    else:
        assert m.version == 17 and "14 blocks [afafafafafafaf]" in m.describe()
        a = t.blocks[0]
        gqa = "kv3" in name
        assert (a.heads, a.kv_heads, a.v_dim, a.rope) == (
            (6, 3, 16, "learnable") if gqa else (3, 3, 32, "fixed")
        )
        assert isinstance(t.tip, M.Norm if gqa else M.RMSNorm)


def test_the_scores_errors_follow_each_versions_formula() -> None:
    raw = F.RawOutput(
        policy=np.zeros((1, 2), np.float32),
        value=np.zeros((1, 3), np.float32),
        score=np.array([[0.5, 0.2, -0.25, 1.0, -0.4, 0.8]], np.float32),
        ownership=np.zeros((1, 1), np.float32),
    )
    m = random_model(version=17)
    sp = F.softplus
    for version, wl, sc in (
        (9, sp(-0.4), sp(0.8) * 10),
        (12, np.sqrt(sp(-0.4) * 0.3), np.sqrt(sp(0.8) * 150)),
        (17, sp(-0.2) * np.sqrt(0.3), sp(0.4) * np.sqrt(150)),
    ):
        model = M.Model(m.name, version, 22, 19, m.trunk, m.policy, m.value, m.post)
        out = F.postprocess(raw, model, no_result=np.array([False]))
        np.testing.assert_allclose(
            [out.shortterm_winloss_error[0], out.shortterm_score_error[0]], [wl, sc], rtol=1e-6
        )
        np.testing.assert_allclose(out.var_time_left, sp(1.0) * 41.0, rtol=1e-6)
        np.testing.assert_allclose([out.score_mean[0], out.lead[0]], [0.5 * 21, -0.25 * 18], rtol=1e-6)
        np.testing.assert_allclose(out.score_stdev, sp(0.2) * 19, rtol=1e-6)
    old = F.postprocess(raw, load_net().model)
    assert old.var_time_left[0] == old.shortterm_winloss_error[0] == -1


def test_optimism_mixes_the_two_policies() -> None:
    raw = F.RawOutput(
        policy=np.log(np.array([[0.7, 0.2, 0.1]], np.float32)),
        value=np.zeros((1, 3), np.float32),
        score=np.zeros((1, 6), np.float32),
        ownership=np.zeros((1, 2), np.float32),
        optimistic=np.log(np.array([[0.1, 0.2, 0.7]], np.float32)),
    )
    m = random_model()
    for opt in (0.0, 0.2, 1.0):
        logits = (1 - opt) * raw.policy + opt * raw.optimistic
        want = np.exp(logits) / np.exp(logits).sum()
        np.testing.assert_allclose(F.postprocess(raw, m, optimism=opt).policy, want, rtol=1e-5)
