"""Gomoku move quality: the win rate each player's moves lose, by a reference engine's judgement.

    python benchmarks/gomoku_regret.py GAMES_DIR [GAMES_DIR ...] --player NAME=ENGINE [...]
        [--positions 300] [--first 4] [--last 21] [--seed 5] [--turn-ms 1000]
        [--judge rapfi] [--judge-depth 14] [--judge-nodes 300000] [--sources DIR] [--out F.json]

Positions: the plies ``--first`` to ``--last`` of the 15x15 freestyle games (SGF) under the
folders, each distinct position once, ``--positions`` of them drawn (seeded). Every player,
a Gomocup brain (``gorilla`` for ``python -m gorilla pbrain --agent pvs+vct``, ``gorilla:SPEC``
for another agent, ``aiwine``, ``rapfi`` (built as ``gomoku_spar.py`` builds them) or a
command; ``sh -c 'cd DIR && exec python -m gorilla pbrain'`` plays the checkout in DIR: a
brain starts in this script's folder, which ``python -m`` puts first on the path), gets each
position (``BOARD``) and ``--turn-ms`` to answer. The judge (Rapfi's classical build by
default: a search of ``--judge-depth`` plies, at most ``--judge-nodes`` nodes) values the
position and the position after each player's move. A move's loss is the best win rate found
(the position's own value and every player's move) less the move's, a win rate being
``sigmoid(value / 200)`` and a found win 1 (Rapfi's ``Eval``). It prints, per player, the
mean win rate lost, the moves that lost more than 0.2 and the moves the same as the judge's.

Fast and repeatable where a match is neither: a match's outcome per opening is nearly fixed
(both engines are near-deterministic) and takes 100 games (about 20 minutes) to move by
the noise; 300 positions take about 3 minutes a player. The judge has a horizon: a win
deeper than its search (Rapfi at depth 14 misses some VCTs Gorilla finds) counts against the
move that saw it; compare players on the same positions, not with other judges.
"""

from __future__ import annotations

import argparse
import json
import math
import queue
import random
import shlex
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gomoku_spar import default_sources, engine_command, load_average  # noqa: E402

from gorilla.gomoku.referee import EngineError, PBrain  # noqa: E402
from gorilla.gomoku.texel import load_records  # noqa: E402

Position = tuple[list[tuple[int, int, int]], int]  # (moves (colour, x, y), colour to move)


class Brain:
    """A Gomocup brain (:class:`gorilla.gomoku.referee.PBrain`: the process and its reader)
    asked for moves, and for values where it reports them (Rapfi's ``MESSAGE ... Eval V``)."""

    def __init__(self, command: str, options: list[str], timeout: float = 120.0) -> None:
        self.command = command
        self.timeout = timeout
        try:
            self.brain = PBrain(shlex.split(command))
        except OSError as e:
            raise SystemExit(f"{command}: cannot start it: {e}") from None
        try:
            self.brain.send("START 15")
            ok = self.brain.answer(timeout)
            for opt in options:
                self.brain.send(opt)
        except EngineError as e:
            raise SystemExit(f"{command}: {e}") from None
        if ok.upper() != "OK":
            raise SystemExit(f"{command}: START answered {ok!r}")

    def _line(self) -> str:
        try:
            line = self.brain.lines.get(timeout=self.timeout)
        except queue.Empty:
            raise SystemExit(f"{self.command}: no answer within {self.timeout:.0f} s") from None
        if line is None:
            raise SystemExit(f"{self.command}: the engine quit")
        return line.strip()

    def ask(self, pos: Position) -> tuple[tuple[int, int], str | None]:
        """The brain's move in the position and the last value it reported (or None)."""
        moves, stm = pos

        def board() -> None:  # PBrain waits out Rapfi's race (referee.SETTLE) before sending
            try:
                self.brain.send("BOARD")
                for c, x, y in moves:
                    self.brain.send(f"{x},{y},{1 if c == stm else 2}")
                self.brain.send("DONE")
            except EngineError as e:
                raise SystemExit(f"{self.command}: {e}") from None

        board()
        value = None
        while True:
            line = self._line()
            if line.startswith("MESSAGE") and "Eval " in line:
                for part in line.split("|"):
                    if part.strip().startswith("Eval "):
                        value = part.split()[1]
            elif line[:1].isdigit() and "," in line:
                x, y = (int(v) for v in line.split(",")[:2])
                return (x, y), value
            elif line == "ERROR Unknown command: DONE":  # the BOARD line was lost all the same: again
                value = None
                board()

    def close(self) -> None:
        self.brain.close()


def positions(folders: list[Path], count: int, first: int, last: int, seed: int) -> list[Position]:
    """count distinct positions of plies first..last of the folders' 15x15 games, seeded."""
    out: list[Position] = []
    seen: set[tuple] = set()
    for _, moves in load_records(folders):
        if any(x >= 15 or y >= 15 for _, x, y in moves):
            continue
        for k in range(first, min(last + 1, len(moves) - 1)):
            key = (tuple(moves[:k]), moves[k][0])
            if key not in seen:
                seen.add(key)
                out.append((list(moves[:k]), moves[k][0]))
    random.Random(seed).shuffle(out)
    return out[:count]


def win_rate(value: str | None) -> float | None:
    """A judge's value as the side to move's win rate (a found win 1, a found loss 0)."""
    if value is None:
        return None
    if "M" in value:
        return 1.0 if value.startswith("+") else 0.0
    return 1.0 / (1.0 + math.exp(-int(value) / 200.0))


def add_judge_arguments(ap: argparse.ArgumentParser) -> None:
    """The judge's options (``--judge``, ``--judge-depth``, ``--judge-nodes``) and ``--sources``."""
    ap.add_argument("--judge", default="rapfi")
    ap.add_argument("--judge-depth", type=int, default=14)
    ap.add_argument("--judge-nodes", type=int, default=300_000)
    ap.add_argument("--sources", type=Path, default=default_sources())


def judge_brain(command: str, depth: int | None, nodes: int | None, turn_ms: int = 10000) -> Brain:
    """The judge's brain: one thread, a search of depth plies and at most nodes nodes (Rapfi's
    INFO keys; None: no such limit) within turn_ms, its values shown (``SHOW_DETAIL``),
    freestyle."""
    limits = ([f"INFO MAX_DEPTH {depth}"] if depth is not None else []) + (
        [f"INFO MAX_NODE {nodes}"] if nodes is not None else []
    )
    return Brain(
        command,
        [
            "INFO THREAD_NUM 1",
            *limits,
            f"INFO TIMEOUT_TURN {turn_ms}",
            "INFO TIMEOUT_MATCH 1000000000",
            "INFO SHOW_DETAIL 1",
            "INFO RULE 0",
        ],
    )


def player_command(engine: str, sources: Path) -> str:
    """The brain command of a player: gorilla[:SPEC], aiwine, rapfi or a command."""
    if engine == "gorilla" or engine.startswith("gorilla:"):
        spec = engine.partition(":")[2] or "pvs+vct"
        return f"{shlex.quote(sys.executable)} -m gorilla pbrain --agent {shlex.quote(spec)}"
    return engine_command(engine, sources)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("games", nargs="+", type=Path, help="folders of SGF games (15x15 freestyle)")
    ap.add_argument("--player", action="append", required=True, help="NAME=ENGINE (repeat)")
    ap.add_argument("--positions", type=int, default=300)
    ap.add_argument("--first", type=int, default=4, help="first ply (stones on the board)")
    ap.add_argument("--last", type=int, default=21, help="last ply")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--turn-ms", type=int, default=1000)
    add_judge_arguments(ap)
    ap.add_argument("--out", type=Path, default=None, help="every position's moves and values (JSON)")
    a = ap.parse_args(argv)

    players = []
    for item in a.player:
        name, eq, engine = item.partition("=")
        if not eq or not name or not engine:
            raise SystemExit(f"--player {item!r}: give NAME=ENGINE")
        players.append((name, player_command(engine, a.sources)))
    judge_cmd = engine_command(a.judge, a.sources)  # built (or said missing) before the players play
    todo = positions(a.games, a.positions, a.first, a.last, a.seed)
    if not todo:
        raise SystemExit("no positions: give folders of 15x15 Gomoku SGF games")
    print(f"{len(todo)} positions, plies {a.first}-{a.last}; load {load_average()}", flush=True)
    moves: dict[str, list[tuple[int, int]]] = {}
    for name, cmd in players:
        # the INFO lines of a match (gorilla.match.gomoku_players): no match clock
        brain = Brain(
            cmd, ["INFO rule 0", f"INFO timeout_turn {a.turn_ms}", "INFO timeout_match 0", "INFO game_type 1"]
        )
        t0 = time.perf_counter()
        moves[name] = [brain.ask(p)[0] for p in todo]
        brain.close()
        print(f"{name}: {len(todo)} moves in {time.perf_counter() - t0:.0f} s", flush=True)
    judge = judge_brain(judge_cmd, a.judge_depth, a.judge_nodes)
    lost = {name: [] for name, _ in players}
    same = {name: 0 for name, _ in players}
    records = []
    for i, (mv, stm) in enumerate(todo):
        best_move, root = judge.ask((mv, stm))
        after: dict[tuple[int, int], float | None] = {}
        for name, _ in players:
            m = moves[name][i]
            if m not in after:
                v = win_rate(judge.ask(([*mv, (stm, *m)], 3 - stm))[1])
                after[m] = None if v is None else 1.0 - v
        r = win_rate(root)
        if r is None or any(v is None for v in after.values()):
            continue
        best = max([r, *after.values()])
        rec = {"moves": mv, "stm": stm, "judge": list(best_move), "value": r, "players": {}}
        for name, _ in players:
            m = moves[name][i]
            lost[name].append(best - after[m])
            same[name] += m == best_move
            rec["players"][name] = {"move": list(m), "value": after[m]}
        records.append(rec)
    judge.close()
    n = len(records)
    judged = f"{a.judge}: depth {a.judge_depth}, {a.judge_nodes} nodes"
    print(f"judged {n} positions ({judged}); load {load_average()}")
    print(f"{'player':<16} {'mean lost':>9} {'> 0.2':>6} {'as judge':>8}")
    for name, _ in players:
        ls = lost[name]
        print(f"{name:<16} {sum(ls) / n:9.4f} {sum(x > 0.2 for x in ls):6d} {same[name]:8d}")
    if a.out:
        a.out.write_text(json.dumps(records), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
