"""Match players: a built-in agent or an external GTP engine, behind one small API.

A player is told the game (``new_game``), the opponent's moves (``play``) and is
asked for a move (``genmove``). Anything that breaks the rules of the match
(crash, hang past the move timeout, garbage answer) raises :class:`Forfeit`
with the reason; the referee (the runner) checks the legality of every move
itself with Gorilla's rules engine.
"""

from __future__ import annotations

import os
import shlex
import threading

from gorilla.ai.agent import AGENTS, Agent, make_agent, parse_spec
from gorilla.match.gtp_client import EngineFailure, GtpClient, GtpCommandError
from gorilla.rules.board import BLACK, RESIGN
from gorilla.rules.coords import format_vertex, parse_vertex
from gorilla.rules.game import Game

COLOR_LETTER = {BLACK: "b", 3 - BLACK: "w"}


class Forfeit(Exception):
    """A player loses the game; ``kind`` is 'illegal', 'crash', 'timeout', 'garbage' or 'error'."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def is_builtin(spec: str) -> bool:
    """True when spec names a built-in agent ('random', 'mcts:playouts=500'), not an engine command."""
    s = spec.strip()
    if s.startswith("gtp:"):
        return False
    if not s or any(ch.isspace() for ch in s):
        return False
    return parse_spec(s)[0] in AGENTS


class Player:
    """The interface the runner plays through."""

    spec: str
    label: str  # what the SGF and the summary call this player

    def new_game(self, game: Game) -> None:
        """Set up the start position of game (size, komi, handicap stones, opening moves so far)."""

    def play(self, color: int, move: int, game: Game) -> None:
        """The opponent (or the opening) played move; game already contains it."""

    def genmove(self, game: Game, color: int, timeout: float | None) -> int:
        """A move for color (point, PASS or RESIGN); raises Forfeit."""
        raise NotImplementedError

    def dead_stones(self, game: Game) -> list[int] | None:
        """The stones this player thinks are dead at the end, or None when it cannot say."""
        return None

    def close(self) -> None:
        """Release the player (stop threads, end the engine process)."""


class AgentPlayer(Player):
    """A built-in agent from a spec, asked on a worker thread so a move timeout can cancel it."""

    def __init__(self, spec: str, seed: int | None = None) -> None:
        self.spec = spec
        self.label = spec
        self.seed = seed
        self.agent: Agent = self._make()
        self.engine_name = f"Gorilla {self.agent}"

    def _make(self) -> Agent:
        _, _, kwargs = parse_spec(self.spec)
        if self.seed is not None and "seed" not in kwargs:
            try:
                return make_agent(self.spec, seed=self.seed)
            except ValueError:
                pass
        return make_agent(self.spec)

    def new_game(self, game: Game) -> None:
        self.agent.new_game()

    def genmove(self, game: Game, color: int, timeout: float | None) -> int:
        if game.to_move != color:
            raise Forfeit("error", "asked to move out of turn")
        cancel = threading.Event()
        box: dict[str, object] = {}

        def think() -> None:
            try:
                box["move"] = self.agent.select_move(game, cancel=cancel)
            except Exception as e:  # an agent bug loses the game, the match goes on
                box["error"] = f"{type(e).__name__}: {e}"

        t = threading.Thread(target=think, daemon=True, name=f"match-{self.spec}")
        t.start()
        t.join(timeout)
        if t.is_alive():
            cancel.set()  # agents answer within 50 ms of cancel; past the timeout it is lost anyway
            t.join(1.0)
            if t.is_alive():
                self.agent = self._make()  # the old one is stuck; never reuse it
            raise Forfeit("timeout", f"no move within {timeout:g} s")
        if "error" in box:
            self.agent = self._make()
            raise Forfeit("crash", f"agent failed: {str(box['error'])[:200]}")
        move = box.get("move")
        if not isinstance(move, int):
            raise Forfeit("garbage", f"agent returned {move!r}, not a move")
        return int(move)

    def close(self) -> None:
        self.agent.close()


class GtpPlayer(Player):
    """An external engine driven over GTP; restarted after it crashes, hangs or talks garbage."""

    def __init__(self, command: str, command_timeout: float = 30.0, startup_timeout: float = 60.0) -> None:
        self.spec = command
        cmd = command.strip()
        self.command = cmd[4:] if cmd.startswith("gtp:") else cmd
        self.label = short_label(self.command)
        self.client = GtpClient(self.command, startup_timeout=startup_timeout)
        self.command_timeout = command_timeout
        self.engine_name = ""

    def _ensure_started(self) -> None:
        if not self.client.alive:
            try:
                self.client.start()
            except EngineFailure as e:
                raise Forfeit(e.kind, f"engine did not start: {e}") from None
            self.engine_name = " ".join(filter(None, (self.client.name, self.client.version))) or self.command

    def _send(self, cmd: str, timeout: float | None = None) -> str:
        try:
            return self.client.send(cmd, self.command_timeout if timeout is None else timeout)
        except EngineFailure as e:
            raise Forfeit(e.kind, str(e)) from None
        except GtpCommandError as e:
            raise Forfeit("error", f"'{cmd}' failed: {e}") from None

    def new_game(self, game: Game) -> None:
        self._ensure_started()
        size = game.size
        self._send(f"boardsize {size}")
        self._send("clear_board")
        self._send(f"komi {game.komi:g}")
        if game.setup:
            stones = sorted(p for p, c in game.setup.items() if c == BLACK)
            verts = " ".join(format_vertex(p, size) for p in stones)
            try:
                self.client.send(f"set_free_handicap {verts}", self.command_timeout)
            except GtpCommandError as e:
                raise Forfeit("error", f"'set_free_handicap' failed: {e}") from None
            except EngineFailure as e:
                raise Forfeit(e.kind, str(e)) from None
        for m in game.moves:
            self.play(m.color, m.point, game)

    def play(self, color: int, move: int, game: Game) -> None:
        if move == RESIGN:
            return
        vertex = format_vertex(move, game.size)
        try:
            self.client.send(f"play {COLOR_LETTER[color]} {vertex}", self.command_timeout)
        except EngineFailure as e:
            raise Forfeit(e.kind, str(e)) from None
        except GtpCommandError as e:
            raise Forfeit("error", f"rejected the legal move {vertex}: {e}") from None

    def genmove(self, game: Game, color: int, timeout: float | None) -> int:
        answer = self._send(f"genmove {COLOR_LETTER[color]}", timeout)
        words = answer.split()
        if len(words) != 1:
            self.client.kill()
            raise Forfeit("garbage", f"genmove answer is not a vertex: {answer[:80]!r}")
        try:
            return parse_vertex(words[0], game.size)
        except ValueError as e:
            self.client.kill()
            raise Forfeit("garbage", f"genmove answer {words[0][:40]!r}: {e}") from None

    def dead_stones(self, game: Game) -> list[int] | None:
        if not self.client.alive or "final_status_list" not in self.client.known:
            return None
        try:
            text = self.client.send("final_status_list dead", self.command_timeout)
        except (EngineFailure, GtpCommandError):
            return None
        try:
            return sorted(parse_vertex(v, game.size) for v in text.split())
        except ValueError:
            return None

    def close(self) -> None:
        self.client.close()


def short_label(command: str) -> str:
    """An engine command without directories: '/usr/games/gnugo --mode gtp' -> 'gnugo --mode gtp'."""
    try:
        words = shlex.split(command)
    except ValueError:
        return command
    return " ".join(os.path.basename(w) if os.sep in w and not w.startswith("-") else w for w in words)


def make_player(spec: str, seed: int | None = None, command_timeout: float = 30.0) -> Player:
    """A built-in agent for an agent spec, else an external GTP engine command."""
    if is_builtin(spec):
        return AgentPlayer(spec, seed=seed)
    return GtpPlayer(spec, command_timeout=command_timeout)


def check_spec(spec: str) -> str | None:
    """None when spec can make a player, else a one-line reason (agents are built; engines not started)."""
    if is_builtin(spec):
        try:
            make_agent(spec).close()
        except (ValueError, ImportError) as e:
            return f"player '{spec}': {e}"
        return None
    import shutil

    cmd = spec.strip()
    cmd = cmd[4:] if cmd.startswith("gtp:") else cmd
    try:
        argv = shlex.split(cmd)
    except ValueError as e:
        return f"player '{spec}': {e}"
    if not argv:
        return "empty player"
    if shutil.which(argv[0]) is None:
        name = parse_spec(cmd)[0]
        hint = f" (known AIs: {', '.join(sorted(AGENTS))})" if len(argv) == 1 else ""
        return f"player '{spec}': '{name}' is neither an AI nor a program found on PATH{hint}"
    return None


__all__ = ["AgentPlayer", "Forfeit", "GtpPlayer", "Player", "check_spec", "is_builtin", "make_player"]
