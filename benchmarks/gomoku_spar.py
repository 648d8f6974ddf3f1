"""Gomoku sparring: Gorilla's ``gorilla pbrain`` against any Gomocup engine, with Elo.

    python benchmarks/gomoku_spar.py ENGINE [--agent pvs+vct] [-n 20] [--turn-ms 1000]
        [--rule freestyle|renju] [--seed 1] [--stones 3] [--radius 3] [--openings FILE]
        [--out DIR] [--resume] [--sources DIR]

ENGINE is ``aiwine``, ``rapfi`` (Rapfi's classical evaluation, no NNUE weights) or any
Gomocup brain command in quotes (``"/path/pbrain-foo"``). ``aiwine`` and ``rapfi`` are
built on first use from their sources under ``--sources`` (default ``$GOMOKU_ENGINES``,
else ``~/gomoku-engines``): ``DIR/AIWine`` and ``DIR/rapfi``; when a source is missing
the script says how to get it (git clone) and stops. The builds stay in those folders.

Gorilla plays as a separate process (``python -m gorilla pbrain --agent AGENT``), so both
sides are brains under the same referee: the match runner of ``gorilla match --game
gomoku`` (:mod:`gorilla.match.gomoku_games`: the protocol's time controls, forfeits for
time-outs, crashes and illegal moves, SGFs, ``results.jsonl``, ``--resume``). The openings
are seeded random: ``-n/2`` openings of ``--stones`` stones (alternating from Black) on
distinct points within ``--radius`` of the centre, each played with both colours; the
same seed gives the same openings. ``--openings FILE`` plays the first ``-n/2`` openings of
an openings file instead, each with both colours: ``assets/gomoku_swap2.txt`` holds 40
three-stone openings that Gorilla's search and Rapfi both find even, where a random
opening often favours one colour and decides both of its games. The printout: wins, draws
and losses per colour, Gorilla's score with its 95% (Wilson) interval and the Elo difference
with its interval, time per move (mean and max: a move past ``timeout_turn`` plus ``--grace``
forfeits), forfeits, and the load average (the machine is shared: both engines
suffer the same load; report it with the result).

Swap2 is not played here (the runner plays fixed openings); renju (``--rule renju``)
needs an engine that knows it (Rapfi does, AIWine plays freestyle only).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shlex
import subprocess
import sys
from pathlib import Path

from gorilla.gomoku.openings import load_openings
from gorilla.match import stats
from gorilla.match.runner import MatchConfig, load_results, run_match

AIWINE_GIT = "https://github.com/jinjiebang/AIWine"
RAPFI_GIT = "https://github.com/dhbloo/rapfi"


def default_sources() -> Path:
    """Where the engines' sources are looked for."""
    return Path(os.environ.get("GOMOKU_ENGINES", Path.home() / "gomoku-engines"))


def _missing(name: str, url: str, folder: Path) -> SystemExit:
    return SystemExit(
        f"{name}: no sources in {folder}. Get them with\n"
        f"    git clone {url} {folder}\n"
        f"(or give --sources DIR holding {folder.name}/), then run this again: it builds them."
    )


def build_aiwine(src: Path) -> Path:
    """AIWine's brain, built once in src (one g++ line); its path."""
    exe = src / "pbrain-wine"
    if exe.exists():
        return exe
    if not (src / "src").is_dir():
        raise _missing("AIWine", AIWINE_GIT, src)
    files = sorted(str(p) for p in (src / "src").glob("*.cpp"))
    cmd = ["g++", "-std=c++17", "-O3", "-funroll-all-loops", "-msse4.2", "-pthread", "-DNDEBUG", *files]
    print("building AIWine:", " ".join(cmd[:7]), "src/*.cpp", file=sys.stderr)
    subprocess.run([*cmd, "-o", str(exe)], check=True)
    return exe


def build_rapfi(src: Path, jobs: int = 2) -> Path:
    """Rapfi's brain (classical evaluation: its internal config, no network weights), built
    once with CMake in src/Rapfi/build; its path."""
    folder = src / "Rapfi"
    build = folder / "build"
    exe = build / "pbrain-rapfi"
    if exe.exists():
        return exe
    if not (folder / "CMakeLists.txt").exists():
        raise _missing("Rapfi", RAPFI_GIT, src)
    print(f"building Rapfi in {build} (CMake, make -j{jobs}; several minutes)", file=sys.stderr)
    build.mkdir(exist_ok=True)
    subprocess.run(
        ["cmake", "..", "-DCMAKE_BUILD_TYPE=Release", "-DNO_COMMAND_MODULES=ON"], cwd=build, check=True
    )
    subprocess.run(["make", f"-j{jobs}"], cwd=build, check=True)
    return exe


def engine_command(engine: str, sources: Path) -> str:
    """The brain's command line for an engine name (built when needed) or a command."""
    key = engine.strip().lower()
    if key == "aiwine":
        return shlex.quote(str(build_aiwine(sources / "AIWine")))
    if key == "rapfi":
        return shlex.quote(str(build_rapfi(sources / "rapfi")))
    return engine


def random_openings(count: int, stones: int, radius: int, seed: int) -> list[list[tuple[int, int]]]:
    """count distinct openings of stones points (dx, dy) within radius of the centre, seeded."""
    rng = random.Random(seed)
    box = [(dx, dy) for dx in range(-radius, radius + 1) for dy in range(-radius, radius + 1)]
    seen: set[tuple] = set()
    out: list[list[tuple[int, int]]] = []
    while len(out) < count:
        op = rng.sample(box, stones)
        key = tuple(op)
        if key in seen and len(seen) < 10 * count:
            continue
        seen.add(key)
        out.append(op)
    return out


def write_openings(path: Path, openings: list[list[tuple[int, int]]]) -> None:
    """An openings file of the match runner's format (dx,dy pairs from the centre)."""
    lines = ["# seeded random openings of gomoku_spar.py"]
    lines += [" ".join(f"{dx},{dy}" for dx, dy in op) for op in openings]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def load_average() -> str:
    """The 1, 5 and 15 minute load averages."""
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "?"


def report(records: list[dict], gorilla: str, engine: str) -> str:
    """The match from Gorilla's side (player A): W-D-L per colour, score, Elo, times."""
    s = stats.summarize(records, {"A": gorilla, "B": engine})
    lines = [f"{gorilla} vs {engine}: {s['games']} games"]
    total = [0, 0, 0]
    for col in ("black", "white"):
        g = [r for r in records if (r["black"] == "A") == (col == "black")]
        w = sum(r.get("winner") == "A" for r in g)
        d = sum(r.get("winner") is None for r in g)
        lo = len(g) - w - d
        total = [total[0] + w, total[1] + d, total[2] + lo]
        sc = (w + d / 2) / len(g) if g else 0.0
        lines.append(f"  as {col:5}: {w}-{d}-{lo} (W-D-L), {100 * sc:.1f}%")
    n = s["games"]
    if n:
        score = total[0] + total[1] / 2
        lo95, hi95 = s["win_rate_A_95"]
        e = s["elo_A_minus_B"]
        elo_lo, elo_hi = s["elo_A_minus_B_95"]

        def fmt(x: float | None, p: float) -> str:
            return ("+inf" if p >= 0.5 else "-inf") if x is None else f"{x:+.0f}"

        lines.append(
            f"  total: {total[0]}-{total[1]}-{total[2]}, score {score:g}/{n} = {100 * score / n:.1f}%"
            f" (95% {100 * lo95:.1f}-{100 * hi95:.1f}%), Elo {fmt(e, score / n)}"
            f" (95% {fmt(elo_lo, lo95)} to {fmt(elo_hi, hi95)})"
        )
    played = [r for r in records if not r.get("forfeit")]
    if len(played) < n:
        w = sum(r.get("winner") == "A" for r in played)
        d = sum(r.get("winner") is None for r in played)
        lo_p, hi_p = stats.wilson(w + d / 2, len(played))
        lines.append(
            f"  without the {n - len(played)} forfeits: {w}-{d}-{len(played) - w - d},"
            f" {100 * (w + d / 2) / max(1, len(played)):.1f}% (95% {100 * lo_p:.1f}-{100 * hi_p:.1f}%)"
        )
    tm = s["time_per_move"]
    lines.append(
        "  time per move: Gorilla {} s (max {}), engine {} s (max {})".format(
            tm["A"]["mean"], tm["A"]["max"], tm["B"]["mean"], tm["B"]["max"]
        )
    )
    lines.append(f"  end reasons: {s['end_reasons']}")
    for f in s["forfeits"]:
        lines.append(f"  forfeit game {f['game']}: {f['color']} {f['player']} {f['kind']}: {f['reason']}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("engine", help="aiwine, rapfi or a Gomocup brain command")
    ap.add_argument("--agent", default="pvs+vct", help="Gorilla's agent spec (default pvs+vct)")
    ap.add_argument("-n", "--games", type=int, default=20, help="games (even: each opening both colours)")
    ap.add_argument("--turn-ms", type=int, default=1000, help="timeout_turn in ms (default 1000)")
    ap.add_argument("--rule", default="freestyle", help="freestyle (default), standard or renju")
    ap.add_argument("--size", type=int, default=15)
    ap.add_argument("--seed", type=int, default=1, help="seed of the random openings")
    ap.add_argument("--stones", type=int, default=3, help="stones in an opening (default 3)")
    ap.add_argument("--radius", type=int, default=3, help="openings within this distance of the centre")
    ap.add_argument(
        "--openings",
        type=Path,
        default=None,
        help="an openings file: its first n/2 openings, in order, instead of random ones",
    )
    ap.add_argument(
        "--grace",
        type=float,
        default=1.0,
        help="seconds past timeout_turn before a move forfeits (1; more on a loaded machine)",
    )
    ap.add_argument("--sources", type=Path, default=None, help="folder with AIWine/ and rapfi/ sources")
    ap.add_argument("--out", default=None, help="match folder (default spar-ENGINE-SEED)")
    ap.add_argument("--resume", action="store_true", help="play the games the folder does not have yet")
    ap.add_argument("--report", action="store_true", help="only print the report of --out")
    a = ap.parse_args(argv)

    sources = a.sources or default_sources()
    slug = "".join(ch if ch.isalnum() else "-" for ch in Path(shlex.split(a.engine)[0]).name.lower())
    out = Path(a.out or f"spar-{slug}-{a.seed}")
    gorilla = f"pbrain:{shlex.quote(sys.executable)} -m gorilla pbrain --agent {shlex.quote(a.agent)}"
    if a.report:
        cfg = json.loads((out / "match.json").read_text(encoding="utf-8"))
        print(report(load_results(out), cfg["players"][0], cfg["players"][1]))
        return 0
    engine = "pbrain:" + engine_command(a.engine, sources)
    if a.openings is not None:
        try:
            chosen = load_openings(a.openings)[: (a.games + 1) // 2]
        except ValueError as e:
            raise SystemExit(str(e)) from None
        if len(chosen) < (a.games + 1) // 2:
            raise SystemExit(f"{a.openings} holds {len(chosen)} openings: give -n {2 * len(chosen)} or fewer")
    else:
        chosen = random_openings((a.games + 1) // 2, a.stones, a.radius, a.seed)
    out.mkdir(parents=True, exist_ok=True)
    openings = out / "openings.txt"
    write_openings(openings, chosen)
    cfg = MatchConfig(
        players=[gorilla, engine],
        games=a.games,
        size=a.size,
        rules=a.rule,
        seed=a.seed,
        out=str(out),
        game="gomoku",
        openings_file=str(openings),
        timeout_turn=a.turn_ms,
        move_timeout=None,
        grace=a.grace,
    )
    print(f"load average before: {load_average()}", file=sys.stderr, flush=True)
    records: list[dict] = []

    def progress(r: dict) -> None:
        records.append(r)
        col = "B" if r["black"] == "A" else "W"
        res = {"A": "win", "B": "loss"}.get(r.get("winner") or "", "draw")
        print(f"game {r['game']}: Gorilla {col} {res} ({r['reason']}, {r['moves']} moves)", file=sys.stderr)

    run_match(cfg, resume=a.resume, on_result=progress)
    print(report(load_results(out), gorilla, engine))
    print(f"  load average after: {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
