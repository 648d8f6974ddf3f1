"""The search's quality at equal visits, judged by a deep KataGo: load does not enter.

For N middle-game positions (19x19 records, by default the equal-time match against
KataGo: ``/work/scratch/runs/k19-s400/games``, turns 40..190), each player chooses a move
after V visits from a fresh tree:

- ``net[:KEY=VALUE,...]``: Gorilla's ``net`` agent with those settings (``net:fpu_pow=2``);
- ``katago``: KataGo over GTP (``genmove``, ``maxVisits=V``, one search thread, KataGo's GTP
  defaults otherwise: the player of the equal-time matches, resignation off).

A judge (KataGo's analysis engine, ``--judge-visits`` J, no root noise, the same net) scores
the position after each chosen move, and the root itself; a move's loss is the root's value
less the move's, for the mover, in points (score lead) and in win rate (clipped at 0).
Printed: each player's mean loss with its standard error, then for each player after the
first the paired per-position difference to the first (mean and standard error) and how
often its move was worse / better by more than ``--tie`` points. ``--repeats R``: each
player chooses R times per position (Gorilla's symmetries seeded by ``--seed`` + repeat and
the position): the choices' noise averages out.
The judge's values and the players' choices are cached in
``$XDG_CACHE_HOME/gorilla/search_quality.json`` (keyed by the net, the visits, the position;
Gorilla's by the digest of the search's source too), so a later A/B of settings costs only
the new searches and the new moves' judging. The numbers count moves, not time: the load of
the machine does not enter.

    python benchmarks/search_quality.py [PLAYER ...] [--positions 48] [--visits 100]
        [--judge-visits 300] [--repeats 2] [--katago PATH] [--games DIR]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import tempfile
import time
import zlib
from pathlib import Path

from katago_reference import KataGo  # benchmarks/ is on the path when run as a script

from gorilla.ai.agent import MoveRequest
from gorilla.ai.net import default_net_path
from gorilla.ai.puct.agent import NetAgent
from gorilla.rules.board import BLACK
from gorilla.rules.coords import format_vertex, parse_vertex
from gorilla.rules.game import Game
from gorilla.rules.sgf import read_sgf

KATAGO = "/work/scratch/KataGo/cpp/build/katago"
GAMES = "/work/scratch/runs/k19-s400/games"
TURNS = (40, 70, 100, 130, 160, 190)

GTP_CONFIG = """\
logDir = {log}
logToStderr = false
logAllGTPCommunication = false
logSearchInfo = false
rules = chinese
allowResignation = false
resignThreshold = -0.90
resignConsecTurns = 3
maxVisits = {visits}
ponderingEnabled = false
numSearchThreads = 1
numNNServerThreadsPerModel = 1
numEigenThreadsPerModel = 1
nnMaxBatchSize = 1
"""

JUDGE_CONFIG = """\
logDir = {log}
logToStderr = false
numAnalysisThreads = 2
numSearchThreads = 1
nnMaxBatchSize = 2
nnCacheSizePowerOfTwo = 18
numEigenThreadsPerModel = 2
reportAnalysisWinratesAs = BLACK
wideRootNoise = 0.0
"""


def positions(folder: str, count: int) -> list[Game]:
    """Up to count positions: the records' games cut at TURNS, spread over the games."""
    found = []
    for path in sorted(Path(folder).glob("*.sgf")):
        game = read_sgf(path)
        if game.size != 19 or game.setup:
            continue
        for turn in TURNS:
            if len(game.moves) >= turn + 10:
                cut = game.copy()
                while len(cut.moves) > turn:
                    cut.undo()
                cut.redo_stack = []
                found.append(cut)
    step = max(1.0, len(found) / count)
    return [found[int(k * step)] for k in range(min(count, len(found)))]


def key_of(game: Game) -> str:
    """The position's cache key: komi and the moves."""
    return f"{game.komi}:" + ",".join(format_vertex(m.point, game.size) for m in game.moves)


def gtp_moves(game: Game) -> list[list[str]]:
    """The moves as the analysis engine takes them."""
    return [["B" if m.color == BLACK else "W", format_vertex(m.point, game.size)] for m in game.moves]


class Cache:
    """The judge's values and KataGo's choices, in one JSON file."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.data = json.loads(path.read_text()) if path.exists() else {"judge": {}, "choice": {}}

    def save(self) -> None:
        """Write the file (atomically)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.data))
        os.replace(tmp, self.path)


class KataGTP(KataGo):
    """KataGo over GTP choosing moves at a fixed number of visits."""

    def __init__(self, katago: str, model: str, visits: int, tmp: str) -> None:
        cfg = Path(tmp) / "gtp.cfg"
        cfg.write_text(GTP_CONFIG.format(log=tmp, visits=visits))
        super().__init__(katago, model, str(cfg))

    def choose(self, game: Game) -> int:
        """KataGo's move in game's position."""
        self.send("clear_board")
        self.send(f"komi {game.komi}")
        for color, vertex in gtp_moves(game):
            self.send(f"play {color} {vertex}")
        return parse_vertex(self.send("genmove " + ("B" if game.to_move == BLACK else "W")), game.size)


def judge(games: list[Game], moves: list[set[int]], cache: Cache, args: argparse.Namespace) -> None:
    """Fill the cache with the judge's (Black win rate, Black lead) of each root and each move's child."""
    tag = f"{Path(args.model).name}|{args.judge_visits}"
    queries = {}
    for game, chosen in zip(games, moves, strict=True):
        for move in [None, *sorted(chosen)]:
            line = gtp_moves(game)
            if move is not None:
                line.append(["B" if game.to_move == BLACK else "W", format_vertex(move, game.size)])
            key = f"{tag}|{key_of(game)}|{'root' if move is None else format_vertex(move, game.size)}"
            if key in cache.data["judge"]:
                continue
            queries[str(len(queries))] = (key, line, game)
    if not queries:
        return
    print(f"judging {len(queries)} positions at {args.judge_visits} visits", flush=True)
    t0 = time.perf_counter()
    text = "".join(
        json.dumps(
            {
                "id": qid,
                "moves": line,
                "rules": "chinese",
                "komi": game.komi,
                "boardXSize": game.size,
                "boardYSize": game.size,
                "maxVisits": args.judge_visits,
            }
        )
        + "\n"
        for qid, (_, line, game) in queries.items()
    )
    with tempfile.TemporaryDirectory() as tmp:
        cfg = Path(tmp) / "judge.cfg"
        cfg.write_text(JUDGE_CONFIG.format(log=tmp))
        out = subprocess.run(
            [args.katago, "analysis", "-model", args.model, "-config", str(cfg)],
            input=text,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    for line in out.splitlines():
        if not line.startswith("{"):
            continue
        r = json.loads(line)
        if "error" in r:
            raise RuntimeError(r["error"])
        root = r["rootInfo"]
        cache.data["judge"][queries[r["id"]][0]] = [root["winrate"], root["scoreLead"]]
    cache.save()
    print(f"judged in {time.perf_counter() - t0:.0f} s", flush=True)


def choices(spec: str, games: list[Game], cache: Cache, args: argparse.Namespace) -> list[list[int]]:
    """Each position's moves (``--repeats`` of them) chosen by the player spec."""
    out: list[list[int]] = [[] for _ in games]
    if spec == "katago":
        todo = []
        for k, game in enumerate(games):
            for r in range(args.repeats):
                key = f"{Path(args.model).name}|{args.visits}|{r}|{key_of(game)}"
                if key in cache.data["choice"]:
                    out[k].append(parse_vertex(cache.data["choice"][key], game.size))
                else:
                    todo.append((k, r, key))
        if todo:
            with tempfile.TemporaryDirectory() as tmp:
                kata = KataGTP(args.katago, args.model, args.visits, tmp)
                for k, _, key in todo:
                    move = kata.choose(games[k])
                    out[k].append(move)
                    cache.data["choice"][key] = format_vertex(move, games[k].size)
                kata.close()
            cache.save()
        return out
    name, _, rest = spec.partition(":")
    if name != "net":
        raise SystemExit(f"unknown player {spec!r} (net[:KEY=VALUE,...] or katago)")
    settings = dict(kv.split("=", 1) for kv in rest.split(",") if kv)
    version = source_version()
    for r in range(args.repeats):
        agent = None
        for k, game in enumerate(games):
            key = f"{spec}|{version}|{args.visits}|{args.seed + r}|{key_of(game)}|v2"
            if key not in cache.data["choice"]:
                if agent is None:
                    agent = NetAgent(visits=args.visits, resign=0.0, seed=args.seed + r, **settings)  # type: ignore[arg-type]
                agent.new_game()
                # the symmetries follow the position and the repeat, not what was cached before
                agent.reseed(zlib.crc32(f"{args.seed + r}|{key_of(game)}".encode()))
                cache.data["choice"][key] = format_vertex(agent.choose(MoveRequest(game.copy())), game.size)
            out[k].append(parse_vertex(cache.data["choice"][key], game.size))
    cache.save()
    return out


def source_version() -> str:
    """A digest of the search's and the agent's source: Gorilla's cached choices follow the code."""
    import hashlib

    import gorilla.ai.puct.agent as agent_module
    import gorilla.ai.puct.search as search_module

    text = b"".join(Path(m.__file__).read_bytes() for m in (agent_module, search_module))  # type: ignore[arg-type]
    return hashlib.sha256(text).hexdigest()[:12]


def losses(game: Game, moves: list[int], cache: Cache, args: argparse.Namespace) -> tuple[float, float]:
    """The mean (points, win rate) the moves lose against the judge's root value, for the mover."""
    tag = f"{Path(args.model).name}|{args.judge_visits}|{key_of(game)}"
    sign = 1.0 if game.to_move == BLACK else -1.0
    root_wr, root_lead = cache.data["judge"][f"{tag}|root"]
    pts, wrs = [], []
    for move in moves:
        wr, lead = cache.data["judge"][f"{tag}|{format_vertex(move, game.size)}"]
        pts.append(max(0.0, sign * (root_lead - lead)))
        wrs.append(max(0.0, sign * (root_wr - wr)))
    return sum(pts) / len(pts), sum(wrs) / len(wrs)


def mean_se(xs: list[float]) -> tuple[float, float]:
    """The mean and its standard error."""
    n = len(xs)
    m = sum(xs) / n
    var = sum((x - m) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    return m, math.sqrt(var / n)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("players", nargs="*", default=["net", "katago"], help="net[:KEY=VALUE,...] or katago")
    ap.add_argument("--positions", type=int, default=48)
    ap.add_argument("--visits", type=int, default=100)
    ap.add_argument("--judge-visits", type=int, default=300)
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--tie", type=float, default=0.5, help="points within which two moves are even")
    ap.add_argument("--katago", default=KATAGO)
    ap.add_argument("--model", default=str(default_net_path()))
    ap.add_argument("--games", default=GAMES)
    args = ap.parse_args()
    cache = Cache(
        Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "gorilla/search_quality.json"
    )
    games = positions(args.games, args.positions)
    print(
        f"{len(games)} positions, {args.visits} visits, judge {args.judge_visits} visits,",
        f"{args.repeats} repeats",
    )
    picked = {}
    for spec in args.players:
        t0, c0 = time.perf_counter(), time.process_time()
        picked[spec] = choices(spec, games, cache, args)
        print(f"{spec}: chose in {time.perf_counter() - t0:.0f} s wall, {time.process_time() - c0:.0f} s CPU")
    judge(games, [{m for s in args.players for m in picked[s][k]} for k in range(len(games))], cache, args)
    rows = {s: [losses(g, picked[s][k], cache, args) for k, g in enumerate(games)] for s in args.players}
    for s in args.players:
        pm, pse = mean_se([r[0] for r in rows[s]])
        wm, wse = mean_se([r[1] for r in rows[s]])
        print(f"{s:40s} loss {pm:5.2f} +- {pse:4.2f} points, {100 * wm:5.2f} +- {100 * wse:4.2f}% win rate")
    base = args.players[0]
    for s in args.players[1:]:
        dp = [rows[s][k][0] - rows[base][k][0] for k in range(len(games))]
        dw = [rows[s][k][1] - rows[base][k][1] for k in range(len(games))]
        (pm, pse), (wm, wse) = mean_se(dp), mean_se(dw)
        same = sum(picked[s][k] == picked[base][k] for k in range(len(games)))
        print(
            f"{s} - {base}: {pm:+.2f} +- {pse:.2f} points, {100 * wm:+.2f} +- {100 * wse:.2f}% win rate;",
            f"worse by > {args.tie} points at {sum(d > args.tie for d in dp)},",
            f"better at {sum(d < -args.tie for d in dp)}, same moves at {same} of {len(games)}",
        )


if __name__ == "__main__":
    main()
