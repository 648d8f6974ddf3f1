"""Gomoku games for ``gorilla match --game gomoku``: openings, time controls, the referee.

The match runner (:mod:`gorilla.match.runner`) plays a Gomoku match through the same
results, SGFs, summary, report, SPRT and cluster paths as a Go match; it asks this
module for the players (:func:`build_gomoku_players`) and for each game
(:func:`play_gomoku_game`). Gorilla's Gomoku rules (:mod:`gorilla.gomoku.game`) referee
every move. A player loses by forfeit for an illegal move, a crash, an answer that is not
a move, a move past ``timeout_turn`` plus the grace, or its match time
(``timeout_match``) running out; both limits are in milliseconds as the Gomocup
protocol sends them, 0 meaning none (then ``--move-timeout`` seconds still end a hang).

An openings file holds one opening a line: comma- or space-separated ``dx,dy`` pairs,
offsets from the centre of the board, stones alternating from Black (the Gomocup
format); ``#`` starts a comment. Games 2k and 2k+1 play opening k with the colours
swapped, so each opening is played from both sides.

With ``--swap2`` (``config.swap2``) each game opens by Swap2 instead (:func:`swap2_opening`):
the first player, A in even games and B in odd ones, puts three stones; the other takes
Black, plays White or puts two more, and so on; brains are asked by ``SWAP2BOARD``.
"""

from __future__ import annotations

import time
from datetime import date
from typing import Any

from gorilla.gomoku import rules as R
from gorilla.gomoku import sgf
from gorilla.gomoku.game import GomokuGame
from gorilla.gomoku.openings import DEFAULT_OPENINGS, load_openings, parse_openings
from gorilla.match.gomoku_players import GomokuPlayer, make_gomoku_player
from gorilla.match.players import Forfeit


def opening_game(config: Any, index: int) -> GomokuGame:
    """The start position of game index: the board with its opening stones (none without a file)."""
    rule = R.rule_from_name(config.rules)
    game = GomokuGame(config.size, rule)
    if not config.openings_file:
        return game
    openings = load_openings(config.openings_file)
    stones = openings[(index // 2 if config.alternate else index) % len(openings)]
    c = config.size // 2
    for dx, dy in stones:
        try:
            game.play_xy(c + dx, c + dy)
        except ValueError as e:
            raise ValueError(
                f"opening {stones} does not fit a {config.size}x{config.size} board: {e}"
            ) from None
    if game.over:
        raise ValueError(f"opening {stones} already ends the game")
    game.given = len(game.moves)  # the players did not choose them: the record says so
    return game


__all__ = [
    "DEFAULT_OPENINGS",
    "Swap2Forfeit",
    "build_gomoku_players",
    "load_openings",
    "opening_game",
    "parse_openings",
    "play_gomoku_game",
    "swap2_opening",
]


class Swap2Forfeit(Exception):
    """A player lost in the Swap2 opening: who (``pid``) and how (``forfeit``)."""

    def __init__(self, pid: str, forfeit: Forfeit) -> None:
        super().__init__(str(forfeit))
        self.pid, self.forfeit = pid, forfeit


def swap2_opening(
    game: GomokuGame,
    players: dict[str, GomokuPlayer],
    first: str,
    second: str,
    wait: float | None,
    timed: Any,
    log: list[str],
) -> dict[int, str]:
    """Swap2 on the empty board of game: first puts three stones (B W B); second takes Black
    (SWAP), plays White's fourth stone, or puts two more (W B), after which first takes Black
    (SWAP) or plays White's sixth stone. Plays the stones on game, notes each step in log and
    returns who plays which colour ({BLACK: pid, WHITE: pid}); Swap2Forfeit for a player's
    illegal stone, crash, time-out or garbage."""

    def ask(pid: str) -> list[tuple[int, int]] | None:
        try:
            answer = timed(pid, lambda: players[pid].swap2(game, wait))
        except Forfeit as f:
            raise Swap2Forfeit(pid, f) from None
        if answer is None:
            log.append(f"{pid}: SWAP")
            return None
        for x, y in answer:
            try:
                game.play_xy(x, y)
            except ValueError as e:
                raise Swap2Forfeit(pid, Forfeit("illegal", f"Swap2 stone {x},{y}: {e}")) from None
        log.append(f"{pid}: " + " ".join(f"{x},{y}" for x, y in answer))
        return answer

    ask(first)  # three stones (the player's own swap2 checks the count)
    answer = ask(second)
    if answer is None:  # second takes Black; first plays White's fourth stone
        return {R.BLACK: second, R.WHITE: first}
    if len(answer) == 1:  # second played White's fourth stone
        return {R.BLACK: first, R.WHITE: second}
    answer = ask(first)  # five stones: first chooses
    if answer is None:  # first keeps Black; second plays White's sixth stone
        return {R.BLACK: first, R.WHITE: second}
    return {R.BLACK: second, R.WHITE: first}  # first played White's sixth stone


def build_gomoku_players(config: Any) -> dict[str, GomokuPlayer]:
    """Players A and B of config; built-in agents get the seeds 2*seed+1 and 2*seed+2."""
    return {
        pid: make_gomoku_player(spec, seed=config.seed * 2 + i + 1)
        for i, (pid, spec) in enumerate(zip(("A", "B"), config.players, strict=True))
    }


def _name(c: int) -> str:
    return "B" if c == R.BLACK else "W"


def play_gomoku_game(
    config: Any, index: int, players: dict[str, GomokuPlayer], black_id: str, seeds: dict[str, int]
) -> tuple[dict, str]:
    """Play game index between players {'A', 'B'} (black_id has Black); its record and SGF text."""
    t_start = time.monotonic()
    ids = {R.BLACK: black_id, R.WHITE: "B" if black_id == "A" else "A"}
    game = opening_game(config, index)
    n_open = len(game.moves)
    turn, match_ms = int(config.timeout_turn), int(config.timeout_match)
    grace = float(config.grace)
    used = {"A": 0.0, "B": 0.0}
    clocks = {p: {"moves": 0, "total": 0.0, "max": 0.0} for p in ("A", "B")}
    forfeit: dict | None = None
    limit = config.max_moves or config.size * config.size

    def lose(pid: str, color: int, f: Forfeit) -> dict:
        return {"player": pid, "color": _name(color), "kind": f.kind, "reason": str(f)}

    for color in (R.BLACK, R.WHITE):
        pid = ids[color]
        try:
            players[pid].set_game_seed(seeds[pid])
            players[pid].new_game(game, turn, match_ms)
        except Forfeit as f:
            forfeit = lose(pid, color, f)
            break
    swap2: list[str] = []
    if forfeit is None and config.swap2:
        wait = (turn / 1000 + grace) if turn > 0 else config.move_timeout

        def timed(pid: str, ask: Any) -> Any:
            players[pid].settle()
            t0 = time.monotonic()
            try:
                return ask()
            finally:
                used[pid] += time.monotonic() - t0

        try:
            ids = swap2_opening(game, players, ids[R.BLACK], ids[R.WHITE], wait, timed, swap2)
        except Swap2Forfeit as f:
            forfeit = lose(f.pid, R.BLACK if f.pid == ids[R.BLACK] else R.WHITE, f.forfeit)
        n_open = len(game.moves)
    while forfeit is None and not game.over and len(game.moves) < limit:
        color = game.to_move
        pid = ids[color]
        left_ms = int(match_ms - 1000 * used[pid]) if match_ms > 0 else None
        waits = [
            w for w in (turn / 1000 if turn > 0 else None, None if left_ms is None else left_ms / 1000) if w
        ]
        wait = min(waits) + grace if waits else config.move_timeout  # no limit: --move-timeout
        players[pid].settle()  # a brain's wait after its last answer is not its time
        t0 = time.monotonic()
        try:
            x, y = players[pid].genmove(game, left_ms, wait)
        except Forfeit as f:
            forfeit = lose(pid, color, f)
            break
        dt = time.monotonic() - t0
        used[pid] += dt
        ck = clocks[pid]
        ck["moves"] += 1
        ck["total"] = round(ck["total"] + dt, 4)
        ck["max"] = round(max(ck["max"], dt), 4)
        if match_ms > 0 and 1000 * used[pid] > match_ms + 1000 * grace:
            forfeit = lose(pid, color, Forfeit("timeout", f"match time {match_ms} ms used up"))
            break
        try:
            game.play_xy(x, y)
        except ValueError as e:
            forfeit = lose(pid, color, Forfeit("illegal", f"illegal move {x},{y} ({e})"))
            break

    if forfeit is not None:
        winner_c = R.WHITE if forfeit["color"] == "B" else R.BLACK
        letter = "T" if forfeit["kind"] == "timeout" else "F"
        result, reason = f"{_name(winner_c)}+{letter}", "forfeit"
        who = players[forfeit["player"]].label
        comment = f"{forfeit['color']} ({who}) forfeits: {forfeit['reason']}"
    elif game.result is not None:
        winner_c, result, reason, comment = game.result.winner, game.result.sgf(), game.result.reason, ""
        if winner_c == 0:
            result = "0"
    else:
        winner_c, result, reason = 0, "0", "move limit"
        comment = f"a draw by the move limit after {len(game.moves)} moves"
    black, white = players[ids[R.BLACK]].label, players[ids[R.WHITE]].label
    record = {
        "game": index,
        "black": ids[R.BLACK],
        "white": ids[R.WHITE],
        "black_player": black,
        "white_player": white,
        "winner": ids[winner_c] if winner_c else None,
        "result": result,
        "reason": reason,
        "moves": len(game.moves),
        "forfeit": forfeit,
        "dead_by": None,
        "dead": 0,
        "opening": ["{},{}".format(*game.xy(p)) for p, _ in game.moves[:n_open]],
        "swap2": swap2 or None,
        "times": clocks,
        "duration": round(time.monotonic() - t_start, 3),
    }
    text = sgf.dumps(game, black, white, result=result, comment=comment, date=date.today().isoformat())
    return record, text
