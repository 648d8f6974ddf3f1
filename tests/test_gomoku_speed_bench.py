"""benchmarks/gomoku_speed.py's fixed-depth mode: the digest that shows two versions of the
kernels search the same tree is the same from run to run, and tells a different search apart."""

from __future__ import annotations

import re

from helpers import load_benchmark


def _module():
    return load_benchmark("gomoku_speed")


def _digest(out: str) -> tuple[str, int]:
    m = re.search(r"^all\s+\|\s+([\d,]+) nodes .* digest ([0-9a-f]{12})$", out, re.M)
    assert m, out
    return m.group(2), int(m.group(1).replace(",", ""))


def test_fixed_depth_digest_repeats_and_tells_searches_apart(capsys):
    sp = _module()
    assert sp.main(["--depth", "3", "--repeats", "1"]) == 0
    first, nodes = _digest(capsys.readouterr().out)
    assert nodes > 0
    assert sp.fixed_depth(3, 1) == 0
    assert _digest(capsys.readouterr().out) == (first, nodes)
    assert sp.fixed_depth(2, 1) == 0
    assert _digest(capsys.readouterr().out)[0] != first
