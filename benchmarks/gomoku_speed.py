"""Gomoku search speed beside a Gomocup engine's: nodes per second and VCF solve times.

    python benchmarks/gomoku_speed.py [ENGINE] [--turn-ms 1000] [--repeats 3] [--sources DIR]
    python benchmarks/gomoku_speed.py --depth 8 [--repeats 3]

With ``--depth D`` it runs no engine: Gorilla's PVS to depth D (no time limit) on each
position, best of ``--repeats``, with its nodes per second and a digest of every position's
move, score and node count, so that two versions of the tree (``PYTHONPATH``) can be shown
to search the same tree at their own speed.

On the same positions (the middle game of ``benchmarks/gomoku.py``, two quiet and two with a
VCF from the sparring games, one without a VCF), Gorilla's PVS (no
root solvers: its nodes alone) searches ``--turn-ms``, its VCF solver runs to the end and its
root VCT once;
ENGINE (default ``aiwine``, built as ``benchmarks/gomoku_spar.py`` builds it; or any
command) gets the position with ``BOARD`` and ``INFO timeout_turn``. AIWine reports its
alpha-beta nodes (``MESSAGE node:N``) and its root VCF (``MESSAGE VCF cost time:Tms
node:N``, whole milliseconds); the rate is its nodes over the move's wall time. Nodes are
not the same unit: Gorilla's count every PVS and solver node, AIWine's its alpha-beta
calls. The machine is shared: print ``uptime`` beside the figures.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gomoku import MIDDLE, VCF_NONE  # noqa: E402
from gomoku_spar import default_sources, engine_command, load_average  # noqa: E402

from gorilla.gomoku import rules as R  # noqa: E402
from gorilla.gomoku import search as S  # noqa: E402
from gorilla.gomoku.agents import warm_up  # noqa: E402
from gorilla.gomoku.game import GomokuGame  # noqa: E402
from gorilla.gomoku.vcf import new_state  # noqa: E402

# positions as moves in order (alternating from Black), from the sparring games against AIWine
QUIET_A = [(8, 6), (9, 10), (7, 7), (10, 10), (8, 7), (8, 10), (7, 10), (6, 8)]
QUIET_A += [(10, 7), (9, 7), (9, 8), (8, 9), (7, 6), (10, 9), (6, 6), (9, 6)]
QUIET_B = [(10, 8), (6, 4), (9, 6), (5, 4), (10, 6), (7, 4), (8, 4), (6, 5), (9, 5), (11, 7)]
QUIET_B += [(9, 4), (9, 7), (10, 5), (10, 7), (8, 7), (12, 7), (13, 7), (3, 4), (4, 4), (11, 4)]
VCF_A = [(4, 5), (7, 7), (7, 10), (8, 6), (4, 4), (7, 5), (4, 6), (4, 7), (6, 4), (9, 5), (6, 8)]
VCF_A += [(8, 5), (6, 5), (8, 4), (6, 6), (6, 7), (6, 2), (6, 3), (4, 3), (4, 2), (8, 7)]
VCF_B = [(4, 8), (6, 6), (5, 4), (4, 6), (6, 5), (4, 4), (5, 5), (5, 3), (3, 5), (4, 5), (4, 3), (7, 6)]
VCF_B += [(5, 6), (5, 8), (7, 4), (4, 7), (8, 5), (3, 6), (6, 9), (7, 5), (9, 6), (10, 7), (6, 3), (5, 2)]
VCF_B += [(8, 7), (1, 4), (2, 5), (7, 8)]


def _alternate(black: list, white: list) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for b, w in zip(black, white, strict=False):
        out += [b, w]
    return out


POSITIONS = {
    "middle": MIDDLE,
    "quiet-a": QUIET_A,
    "quiet-b": QUIET_B,
    "vcf-a": VCF_A,
    "vcf-b": VCF_B,
    "vcf-none": _alternate(*VCF_NONE),
}


def game_of(moves: list[tuple[int, int]]) -> GomokuGame:
    """A 15x15 freestyle game with moves played in order."""
    g = GomokuGame(15)
    for x, y in moves:
        g.play_xy(x, y)
    return g


def gorilla_pvs(moves: list, seconds: float) -> tuple[float, int, int]:
    """(nodes/s, nodes, depth) of Gorilla's PVS alone on the position."""
    g = game_of(moves)
    res = S.search(R.copy_board(g.bd), new_state(20), g.to_move, seconds)
    return res.nodes / max(res.seconds, 1e-9), res.nodes, res.depth


def fixed_depth(depth: int, repeats: int) -> int:
    """Gorilla's PVS to depth on every position (threats off, a fresh state each time): prints
    each position's nodes and best nodes per second, and a digest of the moves, scores and
    node counts (equal digests: the same search)."""
    digest = hashlib.sha1()
    total_nodes, total_s = 0, 0.0
    print(f"load average {load_average()}; PVS to depth {depth}, best of {repeats}")
    for name, moves in POSITIONS.items():
        g = game_of(moves)
        best = 1e9
        for _ in range(repeats):
            res = S.search(R.copy_board(g.bd), new_state(20), g.to_move, 1e6, max_depth=depth)
            best = min(best, res.seconds)
        digest.update(f"{res.move},{res.score},{res.nodes};".encode())
        total_nodes += res.nodes
        total_s += best
        print(f"{name:10} | {res.nodes:>10,} nodes | {res.nodes / best:>10,.0f} nodes/s | move {res.move}")
    rate = total_nodes / total_s
    tag = digest.hexdigest()[:12]
    print(f"all        | {total_nodes:>10,} nodes | {rate:>10,.0f} nodes/s | digest {tag}")
    print(f"load average {load_average()}")
    return 0


def gorilla_vcf(moves: list, repeats: int, vct: bool = False) -> tuple[float, int, bool]:
    """(best seconds, nodes, found) of Gorilla's VCF (vct: its root VCT, 5 attacking moves deep
    with VCFs of 12, 400,000 nodes at most) for the side to move."""
    g = game_of(moves)
    best, nodes, found = 1e9, 0, False
    for _ in range(repeats):
        st = new_state(12)
        t0 = time.perf_counter()
        if vct:
            mv = S.solve_vct(R.copy_board(g.bd), st, g.to_move, 5, 12, S.ROOT_SOLVER_NODES)
        else:
            mv = S.solve_vcf(R.copy_board(g.bd), st, g.to_move, depth=20)
        best = min(best, time.perf_counter() - t0)
        nodes, found = int(st[0][S.CTL_NODES]), mv >= 0
    return best, nodes, found


def engine_move(argv: list[str], moves: list, turn_ms: int) -> dict:
    """The engine's reply to BOARD with moves: seconds, its MESSAGE lines' numbers."""
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(f"START 15\nINFO timeout_turn {turn_ms}\nINFO timeout_match 0\nINFO rule 0\n")
    proc.stdin.flush()
    proc.stdout.readline()  # OK
    to_move = 1 if len(moves) % 2 == 0 else 2
    lines = ["BOARD"]
    for i, (x, y) in enumerate(moves):
        colour = 1 if i % 2 == 0 else 2
        lines.append(f"{x},{y},{1 if colour == to_move else 2}")
    lines.append("DONE")
    t0 = time.perf_counter()
    proc.stdin.write("\n".join(lines) + "\n")
    proc.stdin.flush()
    out: dict = {
        "nodes": None,
        "vcf_ms": None,
        "vcf_nodes": None,
        "vct_ms": None,
        "vct_nodes": None,
        "won": "",
    }
    while True:
        line = proc.stdout.readline()
        if not line:
            break
        m = re.search(r"node:\s*(\d+)(k?)", line)
        if line.startswith("MESSAGE VCF cost time"):
            t = re.search(r"time:\s*(\d+)ms\s+node:\s*(\d+)", line)
            if t:
                out["vcf_ms"], out["vcf_nodes"] = int(t.group(1)), int(t.group(2))
        elif line.startswith("MESSAGE VCT cost time"):
            t = re.search(r"time:\s*(\d+)ms\s+node:\s*(\d+)", line)
            if t:
                out["vct_ms"], out["vct_nodes"] = int(t.group(1)), int(t.group(2))
        elif "success" in line:
            out["won"] = "VCF" if "VCF" in line else "VCT"
        elif line.startswith("MESSAGE") and m:
            out["nodes"] = int(m.group(1)) * (1000 if m.group(2) else 1)
        elif re.match(r"^\s*\d+\s*,\s*\d+\s*$", line):
            out["seconds"] = time.perf_counter() - t0
            out["move"] = line.strip()
            break
    proc.stdin.write("END\n")
    proc.stdin.flush()
    proc.wait(timeout=10)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("engine", nargs="?", default="aiwine", help="aiwine (default), rapfi or a command")
    ap.add_argument("--turn-ms", type=int, default=1000)
    ap.add_argument("--repeats", type=int, default=3, help="VCF runs per position (the best is kept)")
    ap.add_argument("--sources", type=Path, default=None)
    ap.add_argument("--depth", type=int, default=0, help="PVS to this depth on each position, no engine")
    a = ap.parse_args(argv)
    if a.depth > 0:
        warm_up()
        return fixed_depth(a.depth, a.repeats)
    argv_engine = shlex.split(engine_command(a.engine, a.sources or default_sources()))
    warm_up()
    print(f"load average {load_average()}; {a.turn_ms} ms a search")
    print(
        f"{'position':10} | {'Gorilla PVS nodes/s':>19} {'depth':>5} | {'engine nodes/s':>14} |"
        f" {'Gorilla VCF':>14} | {'engine VCF':>16} | {'Gorilla VCT':>16} | {'engine VCT':>16}"
    )
    for name, moves in POSITIONS.items():
        rate, _, depth = gorilla_pvs(moves, a.turn_ms / 1000)
        vs, vn, found = gorilla_vcf(moves, a.repeats)
        ts, tn, tfound = gorilla_vcf(moves, 1, vct=True)
        e = engine_move(argv_engine, moves, a.turn_ms)
        erate = f"{e['nodes'] / e['seconds']:,.0f}" if e.get("nodes") and e.get("seconds") else "-"
        evcf = f"{e['vcf_ms']} ms {e['vcf_nodes']} n" if e["vcf_ms"] is not None else "(none run)"
        evcf += f"{'*' if e['won'] == 'VCF' else ''}"
        evct = f"{e['vct_ms']} ms {e['vct_nodes']} n" if e["vct_ms"] is not None else "(none run)"
        evct += f"{'*' if e['won'] == 'VCT' else ''}"
        gvcf = f"{vs * 1e3:.2f} ms {vn} n{'*' if found else ''}"
        gvct = f"{ts * 1e3:.1f} ms {tn} n{'*' if tfound else ''}"
        print(
            f"{name:10} | {rate:>19,.0f} {depth:>5} | {erate:>14} | {gvcf:>14} | {evcf:>16} | {gvct:>16}"
            f" | {evct:>16}"
        )
    print("(* a win found; n: nodes; engine nodes/s '-': no alpha-beta, the move came from its solvers)")
    print(f"load average {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
