"""A referee for Gomocup brains: two engines speaking the protocol play one game.

Each engine is a command line (``gorilla pbrain --agent pvs`` or any pbrain-* program).
The referee sends START and INFO, asks for a move with BEGIN (empty board), BOARD (the
first time an engine moves in a game with opening stones) or TURN, checks every move on
its own board, and ends the game on a five, a full board, or a forfeit: an illegal or
malformed move, a time-out or a crash. MESSAGE, DEBUG and SUGGEST lines are skipped.
"""

from __future__ import annotations

import contextlib
import queue
import subprocess
import threading
import time
from dataclasses import dataclass, field

from gorilla.gomoku import rules as R
from gorilla.gomoku.game import GomokuGame

RULE_BITS = {R.FREESTYLE: 0, R.STANDARD: 1, R.RENJU: 4, R.CARO: 8}


class EngineError(Exception):
    """An engine crashed, timed out or answered nonsense."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason


# seconds between a brain's answer and the next line sent to it: Rapfi drops a command that
# arrives while its search thread is still finishing the move it just printed (its protocol loop
# skips commands while it is "thinking"), so a TURN sent at once after a fast opponent's reply
# was lost and the coordinates that followed it answered "ERROR Unknown command: x,y"
# (benchmarks/RESULTS.md#2026-11-29-gomoku-even-openings-rapfi-far-ahead-of-aiwine-session-39)
SETTLE = 0.02


class PBrain:
    """One engine process behind pipes, with a reader thread so reads can time out. A line is
    sent no sooner than SETTLE seconds after the brain's last answer."""

    def __init__(self, command: list[str]) -> None:
        self.command = command
        self.proc = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.answered = -1e9  # time.monotonic() of the last answer
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\r\n"))
        self.lines.put(None)

    def settle(self) -> None:
        """Wait until SETTLE seconds have passed since the brain's last answer."""
        wait = self.answered + SETTLE - time.monotonic()
        if wait > 0:
            time.sleep(wait)

    def send(self, text: str) -> None:
        """Send one protocol line to the brain (waiting out SETTLE after its last answer)."""
        self.settle()
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write(text + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise EngineError("crash", "the engine closed its input") from None

    def answer(self, timeout: float) -> str:
        """The next line that is not MESSAGE/DEBUG/SUGGEST, within timeout seconds."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise EngineError("timeout", f"no answer within {timeout:.1f}s")
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                raise EngineError("timeout", f"no answer within {timeout:.1f}s") from None
            if line is None:
                raise EngineError("crash", f"the engine exited (status {self.proc.poll()})")
            word = line.split(" ", 1)[0].upper()
            if word in ("MESSAGE", "DEBUG", "SUGGEST") or not line.strip():
                continue
            self.answered = time.monotonic()
            return line.strip()

    def close(self) -> None:
        """Send END and stop the process (killed if it does not exit)."""
        with contextlib.suppress(EngineError):
            self.send("END")
        try:
            self.proc.wait(timeout=3)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


@dataclass
class GameRecord:
    """A finished game: the winner (0 draw), how it ended, the moves and the engines' names."""

    winner: int
    reason: str
    game: GomokuGame
    forfeit: str = ""
    names: dict[int, str] = field(default_factory=dict)


def play_game(
    black: list[str],
    white: list[str],
    size: int = 15,
    rule: int = R.FREESTYLE,
    opening: list[tuple[int, int]] | None = None,
    timeout_turn_ms: int = 1000,
    start_timeout: float = 300.0,
    grace: float = 2.0,
    max_moves: int | None = None,
) -> GameRecord:
    """One game between two engine commands; opening stones alternate from Black."""
    game = GomokuGame(size, rule)
    for x, y in opening or []:
        game.play_xy(x, y)
    engines = {R.BLACK: PBrain(black), R.WHITE: PBrain(white)}
    fresh = {R.BLACK: True, R.WHITE: True}
    colour = R.BLACK
    try:
        for c in (R.BLACK, R.WHITE):
            colour = c
            e = engines[c]
            e.send(f"START {size}")
            ok = e.answer(start_timeout)
            if ok.upper() != "OK":
                raise EngineError("crash", f"START answered {ok!r}")
            e.send(f"INFO rule {RULE_BITS[rule]}")
            e.send(f"INFO timeout_turn {timeout_turn_ms}")
            e.send("INFO timeout_match 0")
        limit = max_moves or size * size
        while not game.over and len(game.moves) < limit:
            colour = game.to_move
            e = engines[colour]
            if fresh[colour]:
                fresh[colour] = False
                if not game.moves:
                    e.send("BEGIN")
                else:
                    e.send("BOARD")
                    for p, c in game.moves:
                        x, y = game.xy(p)
                        e.send(f"{x},{y},{1 if c == colour else 2}")
                    e.send("DONE")
            else:
                x, y = game.xy(game.moves[-1][0])
                e.send(f"TURN {x},{y}")
            reply = e.answer(timeout_turn_ms / 1000 + grace)
            try:
                xs, ys = (int(t) for t in reply.split(","))
                game.play_xy(xs, ys)
            except ValueError as err:
                raise EngineError("illegal", f"{reply!r} ({err})") from None
        if game.result is not None:
            return GameRecord(game.result.winner, game.result.reason, game)
        return GameRecord(0, "move limit", game)
    except EngineError as err:
        return GameRecord(3 - colour, err.reason, game, forfeit=str(err))
    finally:
        for e in engines.values():
            e.close()
