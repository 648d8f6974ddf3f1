"""KataGo's raw net outputs under a playout doubling advantage: the data of tests/test_pda.py.

As ``benchmarks/katago_reference.py`` (whose positions, GTP driver and parser it uses), but
only handicap games and games whose komi favours a side, each evaluated by ``kata-raw-nn``
after ``kata-set-param playoutDoublingAdvantage X`` for several X (KataGo tells the side to
move X: global inputs 15 and 16 of fillRowV7 are 1 and X / 2).

    python benchmarks/katago_pda_reference.py --katago PATH --model NET [--positions 12]
        [-o tests/data/net/katago_pda.json.gz]

The output is katago_reference.py's format with ``pda`` beside each eval.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
import tempfile
from pathlib import Path

from katago_reference import CONFIG, KataGo, evaluate, make_positions

PDAS = (-1.0, 0.5, 1.5, 2.75)


def handicap_positions(n: int, seed: int) -> list[dict]:
    """n positions from katago_reference's maker that have handicap stones or a komi far from 7."""
    out: list[dict] = []
    k = 0
    while len(out) < n:
        for spec in make_positions(200, seed + k):
            if (spec["handicap"] or abs(spec["komi"] - 7) >= 6) and spec["size"] >= 9:
                out.append(spec)
                if len(out) == n:
                    break
        k += 1
    rng = random.Random(seed)
    for spec in out:
        spec["symmetries"] = [rng.randrange(8)]
    return out


def main(argv: list[str] | None = None) -> int:
    """Write the reference data; returns the exit status."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--katago", required=True)
    ap.add_argument("--model", required=True)
    ap.add_argument("--positions", type=int, default=12)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("-o", "--output", default="tests/data/net/katago_pda.json.gz")
    ns = ap.parse_args(argv)
    tmp = tempfile.TemporaryDirectory()
    config = Path(tmp.name) / "gtp.cfg"
    config.write_text(CONFIG.format(log=Path(tmp.name) / "logs"))
    kata = KataGo(ns.katago, ns.model, str(config))
    positions = []
    try:
        for spec in handicap_positions(ns.positions, ns.seed):
            evals = []
            for pda in PDAS:
                kata.send(f"kata-set-param playoutDoublingAdvantage {pda}")
                evals += [{**e, "pda": pda} for e in evaluate(kata, spec)]
            spec["evals"] = evals
            positions.append(spec)
        version = kata.send("version")
    finally:
        kata.close()
    data = {"net": Path(ns.model).name, "katago": version, "seed": ns.seed, "positions": positions}
    out = Path(ns.output)
    with gzip.open(out, "wt", compresslevel=9) as f:
        json.dump(data, f, separators=(",", ":"))
    print(f"{len(positions)} positions -> {out} ({out.stat().st_size} bytes)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
