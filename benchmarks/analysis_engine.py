"""The same analysis queries to KataGo's JSON analysis engine and to ``gorilla analysis``.

Both engines run as processes with the same net and the same config, and are asked the same
queries (:func:`positions`: games of ``benchmarks/data/`` at several moves, 9x9 to 19x19,
KataGo's rules by name and as JSON, handicap stones, a komi, a playout doubling advantage).

    python benchmarks/analysis_engine.py --katago PATH [--model NET] [--visits 400]

prints, per position, the net's own win rate and score lead (one visit, ``nnRandomize = false``:
symmetry 0 for both, so these must agree to the net's precision), then each engine's win
rate, score lead and top moves (visits) after ``--visits`` visits, and the time each took;

    python benchmarks/analysis_engine.py --katago PATH --write tests/data/analysis/katago_analysis.json.gz

keeps KataGo's answers (the one-visit ones with the policy, and the searched ones) for
``tests/test_analysis_vs_katago.py``;

    python benchmarks/analysis_engine.py --katrain [--katago PATH] [--game SGF]

times KaTrain 1.20.0's own engine client (``katrain.core.engine.KataGoEngine``, headless)
driving each engine as its "KataGo executable", with KaTrain's ``analysis_config.cfg``: the
time from starting the engine to the first complete analysis (the empty board, KaTrain's 500
visits and 8 s), and the fast analysis of a whole loaded game (``--game``, default the
250-move ``review-19x19-tygem.sgf``, 25 visits a position). ``--katago-config`` gives KataGo
another config for that (KaTrain's asks for 12 x 8 threads).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks" / "data"
NET = ROOT / "assets" / "net" / "g170-b6c96-s175395328-d26788732.bin.gz"
CONFIG = """\
logDir = {log}
reportAnalysisWinratesAs = BLACK
maxVisits = 500
numAnalysisThreads = 1
numSearchThreads = 1
nnMaxBatchSize = 8
nnCacheSizePowerOfTwo = 18
nnMutexPoolSizePowerOfTwo = 14
numEigenThreadsPerModel = 1
nnRandomize = {randomize}
"""


def _sgf_moves(name: str, upto: int) -> tuple[int, float, list[list[str]]]:
    """(size, komi, the first moves as [colour, vertex]) of a game in benchmarks/data."""
    from gorilla.rules.board import BLACK
    from gorilla.rules.coords import format_vertex
    from gorilla.rules.sgf import read_sgf

    game = read_sgf(str(DATA / name))
    moves = [["B" if m.color == BLACK else "W", format_vertex(m.point, game.size)] for m in game.moves[:upto]]
    return game.size, float(game.komi), moves


def positions() -> list[tuple[str, dict]]:
    """(name, query less id and maxVisits) of every position compared."""
    out = []
    for name, sgf, upto, rules in (
        ("tygem-30", "review-19x19-tygem.sgf", 30, "chinese"),
        ("tygem-120", "review-19x19-tygem.sgf", 120, "japanese"),
        ("tygem-201", "review-19x19-tygem.sgf", 201, "japanese"),
        ("gorilla-60", "review-19x19.sgf", 60, "chinese"),
        ("gorilla-150", "review-19x19.sgf", 150, "tromp-taylor"),
        ("9x9-21", "review-9x9.sgf", 21, "chinese"),
        ("9x9-40", "review-9x9.sgf", 40, "aga"),
    ):
        size, komi, moves = _sgf_moves(sgf, upto)
        out.append(
            (name, {"moves": moves, "rules": rules, "komi": komi, "boardXSize": size, "boardYSize": size})
        )
    size, komi, moves = _sgf_moves("review-19x19-tygem.sgf", 50)
    json_rules = {
        "ko": "SIMPLE",
        "scoring": "AREA",
        "tax": "NONE",
        "suicide": False,
        "whiteHandicapBonus": "N",
    }
    out.append(
        (
            "tygem-50-pda",
            {
                "moves": moves,
                "rules": json_rules,
                "komi": 7.5,
                "boardXSize": 19,
                "boardYSize": 19,
                "overrideSettings": {"playoutDoublingAdvantage": 1.5},
            },
        )
    )
    stones = [["B", v] for v in ("D4", "K10", "K4")]
    moves = [["W", "D10"], ["B", "C11"], ["W", "F3"], ["B", "H6"]]
    out.append(
        (
            "13x13-h3",
            {
                "initialStones": stones,
                "moves": moves,
                "rules": "aga",
                "komi": 0.5,
                "boardXSize": 13,
                "boardYSize": 13,
            },
        )
    )
    return out


class JsonEngine:
    """An analysis engine process: queries in, the final answer of each id out."""

    def __init__(self, command: list[str]) -> None:
        self.proc = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
        )
        self.answers: queue.Queue[dict] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            d = json.loads(line)
            if "rootInfo" in d and not d.get("isDuringSearch") or "error" in d:
                self.answers.put(d)

    def ask(self, query: dict, timeout: float = 1800.0) -> tuple[dict, float]:
        """The final answer to one query and the seconds it took."""
        assert self.proc.stdin is not None
        t0 = time.perf_counter()
        self.proc.stdin.write(json.dumps(query) + "\n")
        self.proc.stdin.flush()
        answer = self.answers.get(timeout=timeout)
        if "error" in answer:
            raise RuntimeError(f"{query['id']}: {answer}")
        return answer, time.perf_counter() - t0

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


def engines(katago: str, model: str, tmp: Path, randomize: bool) -> dict[str, JsonEngine]:
    """KataGo's and Gorilla's analysis engines on one config."""
    cfg = tmp / f"analysis-{randomize}.cfg"
    cfg.write_text(CONFIG.format(log=tmp / "logs", randomize=str(randomize).lower()))
    gorilla = [sys.executable, "-m", "gorilla", "analysis"]
    out = {}
    for name, exe in (("katago", [katago, "analysis"]), ("gorilla", gorilla)):
        out[name] = JsonEngine([*exe, "-model", model, "-config", str(cfg)])
    return out


def _top(answer: dict, k: int = 3) -> str:
    infos = sorted(answer["moveInfos"], key=lambda m: m["order"])[:k]
    return " ".join(f"{m['move']}({m['visits']})" for m in infos)


def compare(katago: str, model: str, visits: int) -> dict:
    """Every position asked to both engines, printed side by side; KataGo's answers returned."""
    tmp = Path(tempfile.mkdtemp(prefix="analysis-bench-"))
    kept: dict = {"positions": []}
    raw = engines(katago, model, tmp, randomize=False)
    searched = engines(katago, model, tmp, randomize=True)
    head = ("position", "engine", "raw wr", "raw lead", "wr", "lead", "s")
    print("{:14} {:8} {:>7} {:>8} {:>6} {:>6} {:>6}  top moves".format(*head))
    for name, base in positions():
        entry = {"name": name, "query": base}
        for who in ("katago", "gorilla"):
            r, _ = raw[who].ask({"id": f"{name}-raw", **base, "maxVisits": 1, "includePolicy": True})
            a, secs = searched[who].ask({"id": name, **base, "maxVisits": visits})
            ri, ai = r["rootInfo"], a["rootInfo"]
            print(
                f"{name:14} {who:8} {ri['rawWinrate']:7.4f} {ri['rawLead']:8.3f} {ai['winrate']:6.3f} "
                f"{ai['scoreLead']:6.2f} {secs:6.1f}  {_top(a)}"
            )
            if who == "katago":
                entry["raw"] = {
                    "rootInfo": {k: ri[k] for k in ("rawWinrate", "rawLead")},
                    "policy": r["policy"],
                }
                infos = sorted(a["moveInfos"], key=lambda m: m["order"])[:10]
                entry["search"] = {
                    "rootInfo": {k: a["rootInfo"][k] for k in ("winrate", "scoreLead", "visits")},
                    "moveInfos": [
                        {k: m[k] for k in ("move", "visits", "winrate", "scoreLead", "order")} for m in infos
                    ],
                }
        entry["gorilla"] = {
            "rootInfo": {k: a["rootInfo"][k] for k in ("winrate", "scoreLead")},
            "most": _most_visited(a["moveInfos"]),
        }
        kept["positions"].append(entry)
    _summary(kept["positions"])
    for e in (*raw.values(), *searched.values()):
        e.close()
    shutil.rmtree(tmp, ignore_errors=True)
    return kept


def _most_visited(infos: list[dict]) -> str:
    return max(infos, key=lambda m: m["visits"])["move"]


def _summary(entries: list[dict]) -> None:
    """The mean differences of the searched answers and how often the most visited moves agree."""
    k = [e["search"]["rootInfo"] for e in entries]
    g = [e["gorilla"]["rootInfo"] for e in entries]
    dwr = [abs(a["winrate"] - b["winrate"]) for a, b in zip(k, g, strict=True)]
    dlead = [abs(a["scoreLead"] - b["scoreLead"]) for a, b in zip(k, g, strict=True)]
    same = sum(_most_visited(e["search"]["moveInfos"]) == e["gorilla"]["most"] for e in entries)
    print(f"searched: mean |win rate difference| {sum(dwr) / len(dwr):.3f} (largest {max(dwr):.3f})")
    mean, most = sum(dlead) / len(dlead), max(dlead)
    print(f"searched: mean |score lead difference| {mean:.2f} points (largest {most:.2f})")
    print(f"searched: the same most visited move in {same} of {len(entries)} positions")


def katrain_timing(exe: str, model: str, config: str | None, game: Path) -> dict[str, float]:
    """KaTrain's client with exe as its KataGo: seconds to the first analysis and to the fast
    analysis of a game."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-"))
    sys.path.insert(0, str(ROOT / "tests"))
    from katrain.core.engine import KataGoEngine
    from katrain.core.game import Game, KaTrainSGF
    from test_katrain_client import HeadlessKaTrain, engine_settings, wait

    kt = HeadlessKaTrain()
    settings = engine_settings(kt, Path(model))
    settings.update(katago=exe, max_visits=500, max_time=8.0)
    if config:
        settings["config"] = config
    t0 = time.perf_counter()
    engine = KataGoEngine(kt, settings)
    first = Game(kt, engine)
    wait(lambda: first.root.analysis_complete, 600, "the first analysis")
    t_first = time.perf_counter() - t0
    t1 = time.perf_counter()
    loaded = Game(kt, engine, move_tree=KaTrainSGF.parse_file(str(game)), analyze_fast=True)
    nodes = loaded.root.nodes_in_tree
    wait(lambda: all(n.analysis_complete for n in nodes), 3600, "the game's analysis")
    t_game = time.perf_counter() - t1
    engine.shutdown(finish=False)
    if kt.errors:
        print("KaTrain's errors:", kt.errors[:3])
    return {"first": t_first, "game": t_game, "positions": len(nodes)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--katago", help="KataGo's binary (katago analysis)")
    ap.add_argument("--model", default=str(NET))
    ap.add_argument("--visits", type=int, default=400)
    ap.add_argument("--write", help="keep KataGo's answers in this .json.gz")
    ap.add_argument("--katrain", action="store_true", help="time KaTrain's client driving each engine")
    ap.add_argument("--katago-config", help="KataGo's config under KaTrain (default KaTrain's own)")
    ap.add_argument("--game", default=str(DATA / "review-19x19-tygem.sgf"))
    ns = ap.parse_args(argv)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"load: {load}; {os.cpu_count()} cores")
    if ns.katrain:
        gorilla = shutil.which("gorilla")
        for name, exe, cfg in (("gorilla", gorilla, None), ("katago", ns.katago, ns.katago_config)):
            if exe:
                t = katrain_timing(exe, ns.model, cfg, Path(ns.game))
                print(
                    f"KaTrain + {name}: first analysis {t['first']:.1f} s; fast analysis of "
                    f"{t['positions']} positions (25 visits) {t['game']:.1f} s"
                )
        return 0
    if not ns.katago:
        ap.error("--katago PATH is needed to compare")
    kept = compare(ns.katago, ns.model, ns.visits)
    if ns.write:
        version = subprocess.run([ns.katago, "version"], capture_output=True, text=True).stdout.split("\n")[0]
        kept.update(net=Path(ns.model).name, visits=ns.visits, katago=version)
        for e in kept["positions"]:
            e.pop("gorilla")  # KataGo's answers only
        with gzip.open(ns.write, "wt") as f:
            json.dump(kept, f, separators=(",", ":"))
        print(f"wrote {ns.write}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
