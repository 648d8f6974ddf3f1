"""Playing a match: one refereed game at a time, or many in parallel processes.

Gorilla's rules engine referees every game. A player that plays an illegal
move, crashes, hangs past the move timeout or answers garbage loses that game
(recorded as a forfeit with its reason); an external engine is restarted for
the next game and the match goes on. Each finished game is written as SGF and
appended to ``results.jsonl`` at once, so stopping the match loses no finished
game and ``--resume`` plays only what is missing.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import dataclasses
import hashlib
import json
import multiprocessing
import os
import random
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import TextIO

from gorilla.ai.warmup import groups_for, stderr_progress, warm
from gorilla.match.players import Forfeit, GtpPlayer, Player, is_builtin, make_player, short_label
from gorilla.match.sprt import Sprt, SprtTracker, sprt_text
from gorilla.match.stats import summarize, wilson
from gorilla.rules.board import BLACK, PASS, RESIGN, WHITE
from gorilla.rules.coords import format_vertex, to_xy
from gorilla.rules.game import Game

RESULTS = "results.jsonl"
SUMMARY = "summary.json"
CONFIG = "match.json"
GAMES_DIR = "games"
IDS = ("A", "B")


@dataclass
class MatchConfig:
    """Everything that defines a match (saved as match.json so --resume can go on)."""

    players: list[str]  # [A, B]: agent specs or engine commands
    games: int = 10
    size: int = 9
    komi: float | None = None
    rules: str = "chinese"
    handicap: int = 0
    alternate: bool = True  # A takes Black in even games, White in odd ones
    openings: int = 0  # random first moves (seeded), the same for each pair of games
    seed: int = 0
    move_timeout: float | None = 60.0
    jobs: int = 1
    out: str = "match"
    max_moves: int | None = None  # adjudicate by counting after this many moves (default 3*size*size)
    referee: str | None = None  # a GTP engine that says which stones are dead at the end
    sprt: list[float] | None = None  # [elo0, elo1, alpha, beta]: stop once the SPRT decides
    cluster: str | None = None  # play on Ray: an address, or "" for RAY_ADDRESS or a local instance
    game: str = "go"  # or "gomoku" (rules freestyle/standard/renju/caro; see gomoku_games)
    openings_file: str | None = None  # gomoku: openings, each played with both colours
    timeout_turn: int = 1000  # gomoku: ms per move as the Gomocup protocol sends it (0: none)
    timeout_match: int = 0  # gomoku: ms per game and player (0: none)
    grace: float = 1.0  # gomoku: seconds past a limit before a move is a time-out
    swap2: bool = False  # gomoku: each game opens by Swap2 (the openings file is not used)

    def to_json(self) -> dict:
        """The config as a JSON-ready dict (what match.json holds)."""
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> MatchConfig:
        """A config from a match.json dict; keys it does not know are ignored."""
        names = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in names})


@dataclass
class _Clock:
    moves: int = 0
    total: float = 0.0
    max: float = 0.0

    def add(self, dt: float) -> None:
        """Count one move that took dt seconds."""
        self.moves += 1
        self.total += dt
        self.max = max(self.max, dt)

    def as_json(self) -> dict:
        """The move count, total and longest move in seconds, for a result record."""
        return {"moves": self.moves, "total": round(self.total, 4), "max": round(self.max, 4)}


@dataclass
class GameOutcome:
    """A played game: its result record (one line of results.jsonl) and the game itself."""

    record: dict
    game: Game = field(repr=False)


def black_of(config: MatchConfig, index: int) -> str:
    """Which player ('A' or 'B') has Black in game index."""
    return "B" if config.alternate and index % 2 == 1 else "A"


def game_seed(config: MatchConfig, index: int, pid: str) -> int:
    """Player pid's seed for game index: every game differs, and a match replays exactly.

    Without it a seeded agent would start each game from the same seed and, facing the
    same opponent, play the same game again and again.
    """
    digest = hashlib.sha256(f"{config.seed}:{index}:{pid}".encode()).digest()
    return int.from_bytes(digest[:4], "little") & 0x7FFFFFFF


def opening_moves(config: MatchConfig, index: int, game: Game) -> list[int]:
    """config.openings random legal moves, the same for games 2k and 2k+1 (colours swapped)."""
    rng = random.Random(f"{config.seed}:{index // 2 if config.alternate else index}")
    g = game.replay()
    moves = []
    for _ in range(config.openings):
        legal = g.legal_moves(reasonable=True)
        if g.size >= 5:  # keep off the first line: a random opening should not be a blunder
            inner = [p for p in legal if all(0 < v < g.size - 1 for v in to_xy(p, g.size))]
            legal = inner or legal
        if not legal:
            break
        p = rng.choice(legal)
        g.play(p)
        moves.append(p)
    return moves


def _color_name(c: int) -> str:
    return "B" if c == BLACK else "W"


def play_game(config: MatchConfig, index: int, players: dict[str, Player]) -> GameOutcome:
    """Play game number index between players {'A': ..., 'B': ...} and referee it."""
    t_start = time.monotonic()
    black_id = black_of(config, index)
    white_id = "B" if black_id == "A" else "A"
    ids = {BLACK: black_id, WHITE: white_id}
    game = Game.new(config.size, config.rules, config.komi, config.handicap)
    game.info.black_name = players[black_id].label
    game.info.white_name = players[white_id].label
    game.info.date = date.today().isoformat()
    for p in opening_moves(config, index, game):
        game.play(p, comment="random opening move")
    clocks = {"A": _Clock(), "B": _Clock()}
    forfeit: dict | None = None
    reason = ""
    max_moves = config.max_moves or 3 * config.size * config.size

    def lose(pid: str, f: Forfeit, color: int) -> dict:
        return {"player": pid, "color": _color_name(color), "kind": f.kind, "reason": str(f)}

    for color in (BLACK, WHITE):
        try:
            players[ids[color]].set_game_seed(game_seed(config, index, ids[color]))
            players[ids[color]].new_game(game)
        except Forfeit as f:
            forfeit = lose(ids[color], f, color)
            break
    while forfeit is None and not game.over:
        if len(game.moves) >= max_moves:
            reason = "move limit"
            break
        color = game.to_move
        pid = ids[color]
        t0 = time.monotonic()
        try:
            move = players[pid].genmove(game, color, config.move_timeout)
        except Forfeit as f:
            forfeit = lose(pid, f, color)
            break
        clocks[pid].add(time.monotonic() - t0)
        why = game.check(move, color)
        if why is not None:
            vertex = players[pid].describe(move, game)
            forfeit = lose(pid, Forfeit("illegal", f"illegal move {vertex} ({why})"), color)
            break
        game.play(move, color)
        if move == RESIGN:
            break
        other = ids[3 - color]
        try:
            players[other].play(color, move, game)
        except Forfeit as f:
            forfeit = lose(other, f, 3 - color)
            break

    dead_by = None
    if forfeit is not None:
        loser_color = BLACK if forfeit["color"] == "B" else WHITE
        letter = "T" if forfeit["kind"] == "timeout" else "F"
        game.info.extra_result = f"{_color_name(3 - loser_color)}+{letter}"
        reason = "forfeit"
        who = players[forfeit["player"]].label
        game.info.comment = f"{forfeit['color']} ({who}) forfeits: {forfeit['reason']}"
    elif game.resigned:
        reason = "resign"
    else:
        reason = reason or game.end_reason or "?"
        dead, dead_by = _dead_stones(config, game, players)
        game.dead = set(dead)
        if reason == "move limit":
            game.info.extra_result = game.score().result
            game.info.comment = f"adjudicated by counting after {len(game.moves)} moves"
    result = game.result or game.score().result
    win_color = game.winner()
    winner = ids[win_color] if win_color else None
    record = {
        "game": index,
        "black": black_id,
        "white": white_id,
        "black_player": players[black_id].label,
        "white_player": players[white_id].label,
        "winner": winner,
        "result": result,
        "reason": reason,
        "moves": len(game.moves),
        "forfeit": forfeit,
        "dead_by": dead_by,
        "dead": len(game.dead),
        "opening": [format_vertex(m.point, game.size) for m in game.moves[: config.openings]],
        "times": {p: c.as_json() for p, c in clocks.items()},
        "duration": round(time.monotonic() - t_start, 3),
    }
    return GameOutcome(record, game)


def _dead_stones(config: MatchConfig, game: Game, players: dict[str, Player]) -> tuple[list[int], str | None]:
    """Dead stones at the end: the referee engine's word, else what the engines agree on, else none."""
    if game.ruleset.scoring == "stones" or not any(p for p in game.moves if p.point != PASS):
        return [], None
    if config.referee:
        ref = _referee(config.referee)
        try:
            ref.new_game(game)
            dead = ref.dead_stones(game)
        except Forfeit:
            dead = None
        if dead is not None:
            return dead, "referee"
    answers = [p.dead_stones(game) for p in players.values()]
    given = [a for a in answers if a is not None]
    if given and all(a == given[0] for a in given):
        return given[0], "engines"
    return [], None


_REFEREES: dict[str, GtpPlayer] = {}


def _referee(command: str) -> GtpPlayer:
    if command not in _REFEREES:
        _REFEREES[command] = GtpPlayer(command)
    return _REFEREES[command]


def close_referees() -> None:
    """Close the referee engines kept between games (see MatchConfig.referee)."""
    for r in _REFEREES.values():
        r.close()
    _REFEREES.clear()


def game_file(index: int) -> str:
    """Where game index (0-based) is saved, relative to the match folder: games/game_0001.sgf first."""
    return f"{GAMES_DIR}/game_{index + 1:04d}.sgf"


def play_and_save(config: MatchConfig, index: int, players: dict[str, Player]) -> dict:
    """Play one game, write its SGF under config.out and return its result record."""
    record, sgf_text = play_to_text(config, index, players)
    return save_game(config, index, record, sgf_text)


def play_to_text(config: MatchConfig, index: int, players: dict[str, Player]) -> tuple[dict, str]:
    """Play one game; its result record and its SGF text (for a worker with no access to config.out)."""
    from gorilla.rules.sgf import save_sgf

    if config.game == "gomoku":
        from gorilla.match.gomoku_games import play_gomoku_game

        black = black_of(config, index)
        seeds = {pid: game_seed(config, index, pid) for pid in IDS}
        return play_gomoku_game(config, index, players, black, seeds)  # type: ignore[arg-type]
    outcome = play_game(config, index, players)
    return outcome.record, save_sgf(outcome.game)


def save_game(config: MatchConfig, index: int, record: dict, sgf_text: str) -> dict:
    """Write game index's SGF text under config.out; returns record with its 'sgf' path."""
    path = Path(config.out) / game_file(index)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(sgf_text.encode("utf-8"))
    record["sgf"] = game_file(index)
    return record


def player_label(spec: str) -> str:
    """A short name for a player spec: a built-in spec as given, an engine command without directories."""
    return spec if is_builtin(spec) else short_label(spec.removeprefix("gtp:"))


def build_players(config: MatchConfig) -> dict[str, Player]:
    """Players A and B from config's specs; built-in agents get the seeds 2*seed+1 and 2*seed+2."""
    if config.game == "gomoku":
        from gorilla.match.gomoku_games import build_gomoku_players

        return build_gomoku_players(config)  # type: ignore[return-value]
    return {
        pid: make_player(spec, seed=(config.seed * 2 + i + 1) if config.seed is not None else None)
        for i, (pid, spec) in enumerate(zip(IDS, config.players, strict=True))
    }


def close_players(players: dict[str, Player]) -> None:
    """Close every player and the referee engines, ignoring their errors."""
    for p in players.values():
        with contextlib.suppress(Exception):  # closing must never hide the match's own outcome
            p.close()
    close_referees()


# --- worker processes ----------------------------------------------------------------------------
_worker: dict = {}


def _init_worker(config_json: dict) -> None:
    from multiprocessing import util

    config = MatchConfig.from_json(config_json)
    _worker["config"] = config
    _worker["players"] = build_players(config)
    util.Finalize(None, close_players, args=(_worker["players"],), exitpriority=10)


def _worker_game(index: int) -> dict:
    return play_and_save(_worker["config"], index, _worker["players"])


# --- results files -------------------------------------------------------------------------------
def load_results(out: str | os.PathLike[str]) -> list[dict]:
    """Finished games from results.jsonl (a torn last line from a crash is ignored)."""
    path = Path(out) / RESULTS
    recs: dict[int, dict] = {}
    if not path.exists():
        return []
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line:
            continue
        try:
            r = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(r, dict) and isinstance(r.get("game"), int):
            recs[r["game"]] = r
    return list(recs.values())


def append_result(out: str | os.PathLike[str], record: dict) -> None:
    """Append record to results.jsonl in out as one line, flushed to disk at once."""
    path = Path(out) / RESULTS
    data = path.read_bytes() if path.exists() else b""
    with open(path, "a", encoding="utf-8") as f:
        if data and not data.endswith(b"\n"):
            f.write("\n")  # a line torn by a crash stays on its own
        f.write(json.dumps(record, sort_keys=True) + "\n")
        f.flush()
        os.fsync(f.fileno())


# a game source: plays the games of config with the given numbers, yielding each result record as it
# finishes; once stop() is true it starts no new game but still yields the games already under way
GameSource = Callable[["MatchConfig", list[int], Callable[[], bool]], Iterator[dict]]


def match_sprt(config: MatchConfig) -> Sprt | None:
    """config's SPRT, or None for a match of a fixed number of games."""
    return Sprt.from_list(config.sprt) if config.sprt else None


def sprt_tracker(config: MatchConfig, records: list[dict]) -> SprtTracker | None:
    """config's SPRT followed over records (in finishing order), or None without --sprt."""
    test = match_sprt(config)
    if test is None:
        return None
    tracker = SprtTracker(test)
    for r in records:
        tracker.add(r)
    return tracker


def write_summary(config: MatchConfig, records: list[dict], sprt: SprtTracker | None = None) -> dict:
    """Write summary.json for config's records (atomically); returns the summary."""
    summary = summarize(records, dict(zip(IDS, config.players, strict=True)))
    summary["labels"] = dict(zip(IDS, (player_label(s) for s in config.players), strict=True))
    summary["config"] = config.to_json()
    if sprt is not None:
        summary["sprt"] = sprt.state()
    path = Path(config.out) / SUMMARY
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    os.replace(tmp, path)
    return summary


def progress_line(config: MatchConfig, records: list[dict], last: dict, sprt: dict | None = None) -> str:
    """The log line after a finished game: progress bar, score, A's win rate and interval, the SPRT's
    LLR and bounds (with --sprt), last result."""
    n = len(records)
    a = sum(r.get("winner") == "A" for r in records)
    b = sum(r.get("winner") == "B" for r in records)
    d = n - a - b
    lo, hi = wilson(a + 0.5 * d, n)
    pa, pb = (player_label(s) for s in config.players)
    draws = f", {d} draw{'s' if d != 1 else ''}" if d else ""
    tail = f"game {last['game'] + 1}: {last['result']}"
    if last.get("forfeit"):
        f = last["forfeit"]
        tail += f" ({f['player']} forfeits: {f['kind']})"
    done = round(20 * n / max(1, config.games))
    bar = "#" * done + "." * (20 - done)
    test = f" | {sprt_text(sprt)}" if sprt else ""
    return (
        f"[{bar}] {n}/{config.games} A {pa} {a} - {b} {pb} B{draws} | "
        f"A {100 * (a + 0.5 * d) / n:.0f}% [{100 * lo:.0f}-{100 * hi:.0f}%]{test} | {tail}"
    )


def local_games(config: MatchConfig, todo: list[int], stop: Callable[[], bool]) -> Iterator[dict]:
    """Play games todo in this process (config.jobs 1) or in config.jobs worker processes."""
    if config.jobs <= 1 or len(todo) <= 1:
        players = build_players(config)
        try:
            for i in todo:
                if stop():
                    return
                yield play_and_save(config, i, players)
        finally:
            close_players(players)
        return
    ctx = multiprocessing.get_context("spawn")
    with cf.ProcessPoolExecutor(
        max_workers=min(config.jobs, len(todo)),
        mp_context=ctx,
        initializer=_init_worker,
        initargs=(config.to_json(),),
    ) as pool:
        futures = [pool.submit(_worker_game, i) for i in todo]
        try:
            for fut in cf.as_completed(futures):
                if stop():
                    for f in futures:
                        f.cancel()
                if not fut.cancelled():
                    yield fut.result()
        except BaseException:
            for f in futures:
                f.cancel()
            raise


def run_match(
    config: MatchConfig,
    resume: bool = False,
    log: TextIO | None = None,
    on_result: Callable[[dict], None] | None = None,
    games: GameSource | None = None,
) -> dict:
    """Play every game of config that results.jsonl does not have yet; returns the summary.

    games plays them (default :func:`local_games`; :mod:`gorilla.match.cluster` plays them on Ray).
    With config.sprt the match stops as soon as the SPRT decides: no new game starts, and the
    games already under way are still recorded.
    """
    log = sys.stderr if log is None else log
    out = Path(config.out)
    out.mkdir(parents=True, exist_ok=True)
    records = load_results(out) if resume else []
    if not resume and (out / RESULTS).exists() and (out / RESULTS).stat().st_size:
        raise ValueError(f"{out / RESULTS} already has results: use --resume or another --out")
    (out / CONFIG).write_text(json.dumps(config.to_json(), indent=2) + "\n", encoding="utf-8")
    done = {r["game"] for r in records}
    todo = [i for i in range(config.games) if i not in done]
    sprt = sprt_tracker(config, records)
    if sprt is not None and sprt.decision:
        print(f"the SPRT has decided already: {sprt_text(sprt.state())}", file=log, flush=True)
        todo = []
    if done:
        print(f"resuming: {len(done)} games done, {len(todo)} to play", file=log, flush=True)

    def finished(rec: dict) -> None:
        append_result(out, rec)
        records.append(rec)
        if sprt is not None:
            sprt.add(rec)
        write_summary(config, records, sprt)
        print(progress_line(config, records, rec, sprt.state() if sprt else None), file=log, flush=True)
        if on_result:
            on_result(rec)

    def stop() -> bool:
        return sprt is not None and sprt.decision is not None

    if games is None and config.game == "go":  # compile the built-in agents' kernels before the first game
        groups = groups_for([s for s in config.players if is_builtin(s)], extra=("ownership",))
        warm(groups, stderr_progress("gorilla match", groups, log))
    try:
        if todo:
            for rec in (games or local_games)(config, todo, stop):
                finished(rec)
    finally:
        summary = write_summary(config, records, sprt)
    return summary
