"""Where Gorilla's Gomoku games are lost: the first own move after which the opponent wins by threats.

    python benchmarks/gomoku_losses.py RUN [RUN...] [--depth 11] [--nodes 2000000]
        [--alt-depth 9] [--alt-nodes 200000] [--check-depth 7] [--check-nodes 30000]

RUN is a folder written by ``benchmarks/gomoku_spar.py --out`` (``results.jsonl`` and the
games' SGFs). For each game Gorilla lost, the moves are replayed and each of Gorilla's moves
(after the opening) is checked: does the opponent then have a VCF, or a VCT of at most
``--depth`` attacker moves (``--nodes`` per solver)? At the first such move the script counts
Gorilla's root moves (the search's candidates) that give the opponent no VCF/VCT at
``--alt-depth`` within ``--alt-nodes``, and whether the engine's own check (``--check-depth``,
``--check-nodes``: the search's VCT_DEPTH and DEFENCE_NODES, local as ``LOCAL_VCT``) finds the
win. The other checks search the whole board (a complete VCT within their depth). Each loss
is one of

- ``missed``: another root move was safe: the engine's threat check missed the win (``found``
  says whether a check as the engine's would have found it);
- ``earlier``: no root move was safe: the game was lost at an earlier move, before the
  opponent had a win by threats (a positional loss, or a deeper one);
- ``none``: no win by threats appears before the end within the limits.

The printout: one line a loss, and the counts by colour.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

import numpy as np

from gorilla.gomoku import rules as R
from gorilla.gomoku import search as S
from gorilla.gomoku import sgf
from gorilla.gomoku.vcf import ROOT_WIDTH, new_state, root_moves


def opponent_wins(bd: tuple, color: int, p: int, depth: int, nodes: int, local: bool = False) -> str:
    """'vcf', 'vct', 'safe' or 'unknown' (a solver ran out of nodes): the opponent's threats
    once color plays p (fresh tables, so one check does not help the next); local: the
    attacker's moves near its last one, as the engine's (``LOCAL_VCT``), else the whole board."""
    st = new_state(18)
    st[0][S.CTL_LOCAL] = 1 if local else 0
    R.place(bd, p, color)
    try:
        o = 3 - color
        if S.solve_vcf(bd, st, o, 20, nodes) >= 0:
            return "vcf"
        if S.solve_vct(bd, st, o, depth, 14, nodes) >= 0:
            return "vct"
        return "unknown" if st[0][S.CTL_ABORT] else "safe"
    finally:
        R.remove(bd, p)


def gorilla_side(r: dict) -> str | None:
    """'A' or 'B': the side whose player is Gorilla's brain, or None."""
    for side in ("A", "B"):
        if "gorilla" in str(r.get(f"{'black' if r['black'] == side else 'white'}_player", "")):
            return side
    return None


def analyse(run: Path, a: argparse.Namespace) -> list[dict]:
    """One record per game Gorilla lost in run."""
    out = []
    for line in (run / "results.jsonl").read_text().splitlines():
        r = json.loads(line)
        me_side = gorilla_side(r)
        if me_side is None or r.get("winner") in (me_side, None) or not r.get("sgf"):
            continue
        me = R.BLACK if r["black"] == me_side else R.WHITE
        g = sgf.load(str(run / r["sgf"]))
        moves = list(g.moves)
        while g.moves:
            g.undo()
        rec = {"run": run.name, "game": r["game"], "color": "BW"[me - 1], "moves": len(moves), "kind": "none"}
        for i, (p, c) in enumerate(moves):
            if c == me and i >= 3:
                bd = R.copy_board(g.bd)
                res = opponent_wins(bd, me, p, a.depth, a.nodes)
                if res in ("vcf", "vct"):
                    cand = np.empty(ROOT_WIDTH, dtype=np.int32)
                    k = int(root_moves(bd, new_state(18), me, cand))
                    alts = [opponent_wins(bd, me, int(q), a.alt_depth, a.alt_nodes) for q in cand[:k]]
                    safe = [int(q) for q, v in zip(cand[:k], alts, strict=True) if v == "safe"]
                    found = opponent_wins(bd, me, p, a.check_depth, a.check_nodes, S.LOCAL_VCT) in (
                        "vcf",
                        "vct",
                    )
                    rec.update(
                        kind="missed" if safe else "earlier",
                        move=i + 1,
                        point=g.xy(p),
                        threat=res,
                        safe=len(safe),
                        candidates=k,
                        found=found,
                    )
                    break
            g.play(p)
        out.append(rec)
    return out


def main() -> None:
    """Analyse the runs and print the losses and the counts."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs", nargs="+", type=Path)
    ap.add_argument("--depth", type=int, default=11, help="attacker moves of the VCT that finds the loss")
    ap.add_argument("--nodes", type=int, default=2_000_000)
    ap.add_argument("--alt-depth", type=int, default=9, help="VCT depth of the check of each alternative")
    ap.add_argument("--alt-nodes", type=int, default=200_000)
    ap.add_argument("--check-depth", type=int, default=S.VCT_DEPTH, help="the engine's check: VCT_DEPTH")
    ap.add_argument("--check-nodes", type=int, default=S.DEFENCE_NODES, help="the engine's: DEFENCE_NODES")
    a = ap.parse_args()
    counts: Counter = Counter()
    for run in a.runs:
        for rec in analyse(run, a):
            counts[(rec["color"], rec["kind"])] += 1
            head = f"{rec['run']} game {rec['game']} ({rec['color']}, {rec['moves']} moves)"
            if rec["kind"] == "none":
                print(f"{head}: no win by threats found", flush=True)
                continue
            print(
                f"{head}: move {rec['move']} {rec['point']} gives a {rec['threat'].upper()}; "
                f"safe root moves {rec['safe']}/{rec['candidates']}; "
                f"the engine's check finds it: {'yes' if rec['found'] else 'no'} -> {rec['kind']}",
                flush=True,
            )
            if rec["kind"] == "missed":
                found = "missed: the check finds it" if rec["found"] else "missed: it does not"
                counts[(rec["color"], found)] += 1
    print("losses by colour and kind:")
    for (color, kind), n in sorted(counts.items()):
        print(f"  {color} {kind}: {n}")


if __name__ == "__main__":
    main()
