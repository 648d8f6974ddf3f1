"""The KataGo model reader and the forward pass's parts: damaged files refused with one line,
the layers as KataGo computes them (Winograd against a direct convolution, masks, pooling,
symmetries)."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import numpy as np
import pytest

from gorilla.ai.net import default_net_path, load_net, point_of, policy_index
from gorilla.ai.net import forward as F
from gorilla.ai.net import winograd as W
from gorilla.ai.net.model import Conv, GPoolBlock, NetError, Norm, ResBlock, load_model, parse_model

NET = default_net_path()


@pytest.fixture(scope="module")
def raw() -> bytes:
    return gzip.decompress(NET.read_bytes())


@pytest.fixture(scope="module")
def model():
    return load_model(NET)


def refused(tmp_path: Path, data: bytes, name: str = "bad.bin.gz") -> str:
    f = tmp_path / name
    f.write_bytes(data)
    with pytest.raises(NetError) as e:
        load_model(f)
    msg = str(e.value)
    assert msg and "\n" not in msg and str(f) in msg
    assert isinstance(e.value, ValueError)
    return msg


def test_the_shipped_net_reads_with_its_structure(model) -> None:
    assert model.version == 8 and model.name == "g170-b6c96-s175395328-d26788732"
    t = model.trunk
    assert (model.spatial_features, model.global_features, t.channels) == (22, 19, 96)
    assert t.initial_conv.w.shape == (5, 5, 22, 96) and t.initial_dense.w.shape == (19, 96)
    assert [type(b) for b in t.blocks] == [ResBlock, ResBlock, GPoolBlock, ResBlock, GPoolBlock, ResBlock]
    g = t.blocks[2]
    assert g.conv1.w.shape == (3, 3, 96, 64) and g.gconv.w.shape == (3, 3, 96, 32)
    assert g.gpool_to_bias.w.shape == (96, 64) and g.conv2.w.shape == (3, 3, 64, 96)
    assert model.value.sv3.w.shape == (64, 4) and model.value.v3.bias.shape == (3,)
    assert model.policy.gpool_to_pass.w.shape == (96, 1)
    for arr in (t.initial_conv.w, t.tip.scale, t.tip.bias, model.value.ownership_conv.w):
        assert arr.dtype == np.float32 and np.isfinite(arr).all()
    assert "6 blocks [rrgrgr], 96 channels" in model.describe()


def test_batch_norms_are_folded_as_katago_does(raw) -> None:
    # the first block's first norm: mean, variance, (scale), (bias) after "@BIN@"
    m = re.search(rb"\nrconv1/norm1\n(\d+)\n(\S+)\n(\d)\n(\d)\n@BIN@", raw)
    assert m is not None
    c, eps, has_scale, has_bias = int(m.group(1)), float(m.group(2)), int(m.group(3)), int(m.group(4))
    arrays, at = [], m.end() - 5
    for _ in range(2 + has_scale + has_bias):  # each array: "@BIN@" then c floats
        at = raw.index(b"@BIN@", at)
        arrays.append(np.frombuffer(raw, "<f4", c, at + 5))
        at += 5 + 4 * c
    mean, var = arrays[0], arrays[1]
    gamma = arrays[2] if has_scale else np.ones(c, np.float32)
    beta = arrays[2 + has_scale] if has_bias else np.zeros(c, np.float32)
    norm = load_model(NET).trunk.blocks[0].norm1
    scale = gamma / np.sqrt(var + np.float32(eps))
    np.testing.assert_allclose(norm.scale, scale, rtol=1e-6)
    np.testing.assert_allclose(norm.bias, beta - scale * mean, rtol=1e-5, atol=1e-6)


def test_not_gzip_garbage_truncated_and_missing_files_are_refused(tmp_path: Path) -> None:
    assert "not a gzip file" in refused(tmp_path, b"g170 8 22 19 trunk ...")
    assert "damaged gzip" in refused(tmp_path, NET.read_bytes()[:100_000])
    assert "damaged gzip" in refused(tmp_path, b"\x1f\x8b" + bytes(range(200)))
    msg = refused(tmp_path, gzip.compress(bytes(range(256)) * 50))
    assert "unreadable header" in msg or "expected" in msg
    assert "version" in refused(tmp_path, gzip.compress(b"just some text\n"))
    with pytest.raises(NetError, match="cannot read"):
        load_model(tmp_path / "absent.bin.gz")


def test_wrong_versions_are_refused(tmp_path: Path, raw) -> None:
    head, rest = raw.split(b"\n", 2)[:2], raw.split(b"\n", 2)[2]
    for version in (b"3", b"7", b"18", b"-1"):
        msg = refused(tmp_path, gzip.compress(head[0] + b"\n" + version + b"\n" + rest))
        assert "version" in msg and version.decode() in msg and "8 to 17" in msg
    assert "newer" in refused(tmp_path, gzip.compress(head[0] + b"\n18\n" + rest))
    # a version 8 body under a later version's number: the first layer that differs is named
    msg = refused(tmp_path, gzip.compress(head[0] + b"\n9\n" + rest))
    assert msg.endswith("value head: sv3 must have 6 outputs in version 9")
    msg = refused(tmp_path, gzip.compress(head[0] + b"\n11\n" + rest))
    assert msg.endswith("rconv1/actv1: unknown activation 'rconv1/w1'")  # version 11 names each one
    msg = refused(tmp_path, gzip.compress(head[0] + b"\n14\n" + rest))
    assert "td score multiplier" in msg and "'trunk'" in msg


def test_truncated_and_damaged_weights_are_refused(tmp_path: Path, raw) -> None:
    assert "truncated" in refused(tmp_path, gzip.compress(raw[: len(raw) // 2]))
    assert "ends in the middle" in refused(tmp_path, gzip.compress(raw[:150]))
    # a NaN weight
    at = raw.index(b"@BIN@") + 5
    bad = raw[:at] + np.float32(np.nan).tobytes() + raw[at + 4 :]
    assert "NaN" in refused(tmp_path, gzip.compress(bad))
    # the marker damaged
    assert "marker" in refused(tmp_path, gzip.compress(raw[: at - 2] + b"X" + raw[at - 1 :]))
    # trailing junk after the value head
    assert "after the value head" in refused(tmp_path, gzip.compress(raw + b"\nmore layers 1 2 3\n"))


def test_wrong_shapes_are_refused(tmp_path: Path, raw) -> None:
    # the trunk's initial convolution with 21 inputs: the weights no longer line up
    good = b"conv1\n5\n5\n22\n96\n"
    assert good in raw
    msg = refused(tmp_path, gzip.compress(raw.replace(good, b"conv1\n5\n5\n21\n96\n", 1)))
    assert "conv1" in msg or "spatial" in msg or "weights" in msg
    # a 4x4 kernel
    msg = refused(tmp_path, gzip.compress(raw.replace(good, b"conv1\n4\n4\n22\n96\n", 1)))
    assert "kernel" in msg
    # a block kind that KataGo does not have
    assert b"ordinary_block" in raw
    msg = refused(tmp_path, gzip.compress(raw.replace(b"ordinary_block", b"dilated_block", 1)))
    assert msg.endswith("trunk: unknown block kind 'dilated_block'")
    # the number of spatial features
    name, _version, rest = raw.split(b"\n", 2)
    msg = refused(tmp_path, gzip.compress(name + b"\n8\n" + rest.replace(b"22\n", b"23\n", 1)))
    assert "23 spatial" in msg


def test_parse_model_needs_nothing_but_bytes(raw) -> None:
    m = parse_model(raw)
    assert m.parameters() == load_model(NET).parameters() > 1_000_000


def test_winograd_equals_the_direct_convolution(model) -> None:
    rng = np.random.default_rng(1)
    w = model.trunk.blocks[2].conv1.w  # 96 -> 64
    conv = F._Conv3(Conv("c", w))
    for n, size in ((1, 19), (3, 9), (2, 13), (1, 7), (2, 5), (1, 2)):
        x = rng.standard_normal((n, size, size, 96)).astype(np.float32)
        direct = F.conv3_direct(x, w)
        # the direct convolution by its definition at a few points
        xp = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
        for i, j in ((0, 0), (size - 1, size - 1), (size // 2, 1)):
            patch = xp[0, i : i + 3, j : j + 3].astype(np.float64)
            want = np.einsum("yxc,yxco->o", patch, w.astype(np.float64))
            np.testing.assert_allclose(direct[0, i, j], want, rtol=1e-4, atol=1e-4)
        ident = Norm("n", np.ones(96, np.float32), np.zeros(96, np.float32), "identity")
        mask = np.ones((n, size, size), np.float32)
        np.testing.assert_allclose(conv(x, ident, mask), direct, rtol=1e-4, atol=2e-4)
        # the norm, ReLU and mask fused into the input transform; the output added to a trunk
        norm = Norm("n", rng.random(96).astype(np.float32), rng.standard_normal(96).astype(np.float32))
        mask[:, -1] = 0
        act = np.maximum(x * norm.scale + norm.bias, 0) * mask[..., None]
        trunk = rng.standard_normal((n, size, size, 64)).astype(np.float32)
        want = trunk + F.conv3_direct(act, w)
        conv(x, norm, mask, out=trunk)
        np.testing.assert_allclose(trunk, want, rtol=1e-4, atol=2e-4)


def test_the_transform_kernels_are_the_winograd_matrices() -> None:
    rng = np.random.default_rng(3)
    d = rng.standard_normal((1, 4, 4, 3)).astype(np.float32)
    v = np.empty((36, 1, 3), np.float32)
    one = np.ones(3, np.float32)
    W.transform_in(d, one, np.zeros(3, np.float32), np.ones((1, 4, 4), np.float32), False, v)
    tile = np.pad(d[0], ((1, 1), (1, 1), (0, 0))).astype(np.float64)  # the 6x6 tile around the 4x4 board
    want = np.einsum("ai,ijc,bj->abc", F._BT, tile, F._BT).reshape(36, 3)
    np.testing.assert_allclose(v[:, 0], want, rtol=1e-5, atol=1e-4)
    m = rng.standard_normal((36, 1, 3)).astype(np.float32)
    out = np.zeros((1, 4, 4, 3), np.float32)
    W.transform_out(m, 0, 3, out, False)
    want = np.einsum("ai,ijc,bj->abc", F._AT, m[:, 0].reshape(6, 6, 3).astype(np.float64), F._AT)
    np.testing.assert_allclose(out[0], want, rtol=1e-5, atol=1e-4)


def test_a_small_board_in_a_big_buffer_gives_what_it_gives_alone(model) -> None:
    """The mask: a 9x9 board in the corner of a 13x13 buffer, the rest masked off."""
    fw = F.Forward(model)
    rng = np.random.default_rng(2)
    sp = np.zeros((2, 22, 9, 9), np.float32)
    sp[:, 0] = 1
    stones = rng.random((2, 9, 9))
    sp[:, 1] = stones < 0.2
    sp[:, 2] = stones > 0.8
    gl = np.zeros((2, 19), np.float32)
    gl[:, 5] = [-0.375, 0.1]
    alone = fw.run(sp, gl)
    big = np.zeros((2, 22, 13, 13), np.float32)
    big[:, :, 2:11, 1:10] = sp
    inside = fw.run(big, gl)
    np.testing.assert_allclose(inside.value, alone.value, atol=2e-4)
    np.testing.assert_allclose(inside.score, alone.score, atol=2e-4)
    pol = inside.policy[:, :169].reshape(2, 13, 13)[:, 2:11, 1:10].reshape(2, 81)
    np.testing.assert_allclose(pol, alone.policy[:, :81], atol=2e-4)
    np.testing.assert_allclose(inside.policy[:, 169], alone.policy[:, 81], atol=2e-4)
    own = inside.ownership.reshape(2, 13, 13)[:, 2:11, 1:10].reshape(2, 81)
    np.testing.assert_allclose(own, alone.ownership, atol=2e-4)


def test_pooling_is_katagos() -> None:
    x = np.zeros((1, 3, 3, 2), np.float32)
    x[0, :, :, 0] = [[1, 2, 0], [3, 0, 0], [0, 0, 0]]
    x[0, :, :, 1] = [[0.5, 0, 0], [0, 0, 0], [0, 0, 0]]
    mask = np.zeros((1, 3, 3, 1), np.float32)
    mask[0, :2, :2] = 1  # a 2x2 board
    area = np.array([4], np.float32)
    p = F._pool(x, area, mask)
    b = (2 - 14) / 10
    np.testing.assert_allclose(p[0], [6 / 4, 0.5 / 4, 6 / 4 * b, 0.5 / 4 * b, 3, 0.5], rtol=1e-6)
    v = F._pool_value(x, area)
    c = (2 - 14) ** 2 / 100 - 0.1
    np.testing.assert_allclose(v[0], [1.5, 0.125, 1.5 * b, 0.125 * b, 1.5 * c, 0.125 * c], rtol=1e-6)


def test_symmetries_match_katagos_point_mapping() -> None:
    # KataGo's getSymLoc: flip x (bit 2), flip y (bit 1), then transpose (bit 4)
    n = 5
    planes = np.arange(n * n).reshape(n, n)
    for s in range(8):
        t = F.transform(planes, s)
        assert np.array_equal(F.untransform(t, s), planes)
        for y in range(n):
            for x in range(n):
                sx, sy = (n - 1 - x if s & 2 else x), (n - 1 - y if s & 1 else y)
                if s & 4:
                    sx, sy = sy, sx
                assert t[sy, sx] == planes[y, x]
    assert len({F.transform(planes, s).tobytes() for s in range(8)}) == 8


def test_policy_index_and_point_of_are_inverse() -> None:
    for size in (5, 9, 19):
        idx = [policy_index(point_of(i, size), size) for i in range(size * size + 1)]
        assert idx == list(range(size * size + 1))
    assert policy_index(point_of(0, 19), 19) == 0


def test_a_bad_net_path_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "x.bin.gz"
    bad.write_bytes(b"")
    with pytest.raises(NetError) as e:
        load_net(bad)
    assert "\n" not in str(e.value)


def test_the_first_convolution_skips_empty_planes_exactly(model) -> None:
    fw = F.Forward(model)
    rng = np.random.default_rng(4)
    sp = (rng.random((2, 22, 9, 9)) < 0.2).astype(np.float32)
    sp[:, 0] = 1
    sp[:, [7, 8, 14, 20, 21]] = 0
    w = model.trunk.initial_conv.w
    want = F._im2col(
        np.ascontiguousarray(sp.transpose(0, 2, 3, 1)), np.ascontiguousarray(w.reshape(-1, 96)), 5
    )
    np.testing.assert_allclose(fw._initial_conv(sp, True), want, atol=1e-4)
    np.testing.assert_allclose(fw._initial_conv(sp, False), want, atol=1e-4)
    np.testing.assert_allclose(fw._initial_conv(sp, True), want, atol=1e-4)  # the board's map kept


def test_an_empty_board_evaluates() -> None:
    from gorilla.rules.game import Game

    net = load_net()
    [ev] = net.evaluate(Game.new(9))
    assert abs(ev.policy.sum() - 1) < 1e-5 and ev.legal.all() and 0 < ev.winrate < 1


def test_load_net_runs_blas_on_one_thread() -> None:
    from gorilla.ai.net.blas import blas_threads, set_blas_threads

    if blas_threads() is None:
        pytest.skip("numpy's BLAS is not an OpenBLAS this process can see")
    set_blas_threads(2)
    assert blas_threads() == 2
    load_net()
    assert blas_threads() == 1
    load_net(blas_threads=None)
    assert blas_threads() == 1


def test_gorilla_net_names_the_default_net(monkeypatch, tmp_path: Path) -> None:
    from gorilla.ai.net import default_net_path, shipped_net_path

    assert default_net_path() == shipped_net_path() == NET
    other = tmp_path / "other.bin.gz"
    monkeypatch.setenv("GORILLA_NET", str(other))
    assert default_net_path() == other and shipped_net_path() == NET
