"""Match players: a built-in agent, an external GTP engine or a file agent, behind one small API.

A player is told the game (``new_game``), the opponent's moves (``play``) and is
asked for a move (``genmove``). Anything that breaks the rules of the match
(crash, hang past the move timeout, garbage answer) raises :class:`Forfeit`
with the reason; the referee (the runner) checks the legality of every move
itself with Gorilla's rules engine.

A file agent (spec ``file:CMD``) is a program that plays one move per run
through the Little-Go tournament protocol (:mod:`gorilla.littlego.protocol`):
for each move it is started in its own scratch folder holding ``input.txt``
and must leave ``output.txt``. The folder lives for the whole game, so the
state files the program keeps beside them survive from move to move; each
game gets a fresh one.
"""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path

from gorilla.ai.agent import AGENTS, Agent, make_agent, parse_spec
from gorilla.ai.warmup import groups_for, warm
from gorilla.match.gtp_client import EngineFailure, GtpClient, GtpCommandError
from gorilla.rules.board import BLACK, PASS, RESIGN
from gorilla.rules.coords import format_vertex, parse_vertex
from gorilla.rules.game import Game

COLOR_LETTER = {BLACK: "b", 3 - BLACK: "w"}


class Forfeit(Exception):
    """A player loses the game; ``kind`` is 'illegal', 'crash', 'timeout', 'garbage' or 'error'."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def move_within(
    think: Callable[[], object],
    wait: float | None,
    name: str,
    stuck: Callable[[threading.Thread], None] | None = None,
) -> object:
    """What think() answers on a daemon thread within wait seconds (None: no limit).

    Forfeit 'timeout' past wait (``stuck(thread)`` first: cancel it, replace the agent) and
    'crash' when think raises (the agent's bug loses the game, the match goes on); the
    answer itself is the caller's to check.
    """
    box: dict[str, object] = {}

    def run() -> None:
        try:
            box["move"] = think()
        except Exception as e:
            box["error"] = f"{type(e).__name__}: {e}"

    t = threading.Thread(target=run, daemon=True, name=name)
    t.start()
    t.join(wait)
    if t.is_alive():
        if stuck is not None:
            stuck(t)
        raise Forfeit("timeout", f"no move within {wait:g} s")
    if "error" in box:
        raise Forfeit("crash", f"agent failed: {str(box['error'])[:200]}")
    return box.get("move")


FILE_PREFIX = "file:"


def is_file_agent(spec: str) -> bool:
    """True when spec is a file agent, 'file:CMD' (one run of CMD per move, input.txt -> output.txt)."""
    return spec.strip().startswith(FILE_PREFIX)


def is_builtin(spec: str) -> bool:
    """True when spec names a built-in agent ('random', 'mcts:playouts=500'), not an engine command."""
    s = spec.strip()
    if s.startswith("gtp:") or s.startswith(FILE_PREFIX):
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

    def set_game_seed(self, seed: int) -> None:  # noqa: B027 - an optional hook
        """A seeded built-in agent takes this seed for the next game; other players ignore it."""

    def play(self, color: int, move: int, game: Game) -> None:
        """The opponent (or the opening) played move; game already contains it."""

    def genmove(self, game: Game, color: int, timeout: float | None) -> int:
        """A move for color (point, PASS or RESIGN); raises Forfeit."""
        raise NotImplementedError

    def dead_stones(self, game: Game) -> list[int] | None:
        """The stones this player thinks are dead at the end, or None when it cannot say."""
        return None

    def describe(self, move: int, game: Game) -> str:
        """move as this player wrote it (for forfeit reasons): a GTP vertex unless said otherwise."""
        return format_vertex(move, game.size)

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
        self._warm = False
        self._game_seed: int | None = None

    def _make(self) -> Agent:
        _, _, kwargs = parse_spec(self.spec)
        if self.seed is not None and "seed" not in kwargs:
            try:
                return make_agent(self.spec, seed=self.seed)
            except ValueError:
                pass
        return make_agent(self.spec)

    def set_game_seed(self, seed: int) -> None:
        """Reseed the agent with seed at the next new_game (only an agent made with a seed)."""
        if self.seed is not None:
            self._game_seed = seed

    def new_game(self, game: Game) -> None:
        """Warm the agent up once (untimed), reseed it for this game and clear what it kept."""
        if not self._warm:
            self._warm_up()
        if self._game_seed is not None:  # after the warm-up, which may draw random numbers
            self.agent.reseed(self._game_seed)
        self.agent.new_game()

    def _warm_up(self) -> None:
        """Load (or compile) the agent's kernels, so compiling never counts against a move's timeout."""
        self._warm = True
        warm(groups_for([self.spec]))

    def genmove(self, game: Game, color: int, timeout: float | None) -> int:
        """The agent's move for color, searched on a thread.

        Forfeit 'timeout' past timeout seconds (the search is cancelled), 'crash' when the agent
        raises, 'garbage' for an answer that is not a move, 'error' when color is not to move.
        """
        if game.to_move != color:
            raise Forfeit("error", "asked to move out of turn")
        cancel = threading.Event()

        def stuck(t: threading.Thread) -> None:
            cancel.set()  # agents answer within 50 ms of cancel; past the timeout it is lost anyway
            t.join(1.0)
            if t.is_alive():
                self.agent = self._make()  # the old one is stuck; never reuse it

        try:
            move = move_within(
                lambda: self.agent.select_move(game, cancel=cancel), timeout, f"match-{self.spec}", stuck
            )
        except Forfeit as f:
            if f.kind == "crash":
                self.agent = self._make()
            raise
        if not isinstance(move, int):
            raise Forfeit("garbage", f"agent returned {move!r}, not a move")
        return int(move)

    def close(self) -> None:
        """Close the agent (its worker threads)."""
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
        """Start the engine unless it runs, then send board size, komi, handicap stones and moves so far."""
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
        """Send the move with ``play`` (not a resignation); Forfeit when the engine refuses it or fails."""
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
        """The engine's ``genmove`` answer as a point, PASS or RESIGN.

        Forfeit when the engine fails, times out or answers anything but one vertex (it is then
        killed, and restarted for the next game).
        """
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
        """The engine's ``final_status_list dead``; None if it lacks the command, fails or is not running."""
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
        """Ask the engine to quit (it is killed if it does not)."""
        self.client.close()


class FilePlayer(Player):
    """A program that plays one move per run through input.txt and output.txt (Little-Go protocol).

    Paths in the command that exist relative to the folder the match was
    started in are made absolute, since the program runs in its scratch folder.
    A crash (non-zero exit), a run past the move timeout, a missing or garbled
    output.txt lose the game; the runner referees the move itself.
    """

    def __init__(self, spec: str) -> None:
        self.spec = spec
        self.command = spec.strip()[len(FILE_PREFIX) :].strip()
        self.argv = _absolute_argv(self.command)
        self.label = "file:" + short_label(self.command)
        self.engine_name = self.label
        self.folder: Path | None = None

    def new_game(self, game: Game) -> None:
        """A fresh scratch folder for the game (the previous game's is removed)."""
        self._drop_folder()
        self.folder = Path(tempfile.mkdtemp(prefix="gorilla-file-agent-"))

    def genmove(self, game: Game, color: int, timeout: float | None) -> int:
        """Write input.txt, run the program once in the scratch folder and read its move from output.txt.

        Forfeit 'timeout' past timeout seconds (its whole process group is killed), 'crash' when it
        cannot start or exits non-zero, 'garbage' for a missing or malformed output.txt.
        """
        from gorilla.littlego.protocol import OUTPUT, parse_move, write_input

        if self.folder is None:
            self.new_game(game)
        assert self.folder is not None
        before = game.positions[-2] if len(game.positions) >= 2 else game.positions[-1]
        write_input(self.folder, color, before.grid(), game.position.grid())
        out = self.folder / OUTPUT
        out.unlink(missing_ok=True)
        try:
            proc = subprocess.Popen(
                self.argv,
                cwd=self.folder,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                start_new_session=True,  # its own process group: a timeout kills its children too
            )
        except OSError as e:
            raise Forfeit("crash", f"cannot start '{self.command}': {e.strerror or e}") from None
        try:
            _, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            _kill_group(proc)
            raise Forfeit("timeout", f"no output.txt within {timeout:g} s") from None
        if proc.returncode != 0:
            tail = err.decode("utf-8", "replace").strip().splitlines()
            why = f": {tail[-1][:160]}" if tail else ""
            raise Forfeit("crash", f"exited with status {proc.returncode}{why}")
        try:
            text = out.read_text(encoding="utf-8", errors="replace")
        except OSError:
            raise Forfeit("garbage", "wrote no output.txt") from None
        try:
            move = parse_move(text, game.size)
        except ValueError as e:
            raise Forfeit("garbage", str(e)) from None
        return PASS if move == PASS else move

    def describe(self, move: int, game: Game) -> str:
        """The move as the program wrote it, then as a GTP vertex: '1,2 (C4)' on 5x5."""
        from gorilla.littlego.protocol import format_move

        return f"{format_move(move, game.size)} ({format_vertex(move, game.size)})"

    def _drop_folder(self) -> None:
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None

    def close(self) -> None:
        """Remove the scratch folder."""
        self._drop_folder()


def _absolute_argv(command: str) -> list[str]:
    """shlex-split command; words naming existing files or folders here become absolute paths."""
    argv = shlex.split(command)
    if argv and os.sep not in argv[0]:
        found = shutil.which(argv[0])
        if found is None and os.path.exists(argv[0]):
            found = os.path.abspath(argv[0])
        argv[0] = found or argv[0]
    return (
        [
            argv[0],
            *(os.path.abspath(w) if not w.startswith("-") and os.path.exists(w) else w for w in argv[1:]),
        ]
        if argv
        else argv
    )


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except OSError:
        proc.kill()
    proc.wait()


def short_label(command: str) -> str:
    """An engine command without directories: '/usr/games/gnugo --mode gtp' -> 'gnugo --mode gtp'."""
    try:
        words = shlex.split(command)
    except ValueError:
        return command
    return " ".join(os.path.basename(w) if os.sep in w and not w.startswith("-") else w for w in words)


def make_player(spec: str, seed: int | None = None, command_timeout: float = 30.0) -> Player:
    """A built-in agent for an agent spec, a file agent for 'file:CMD', else an external GTP engine."""
    if is_builtin(spec):
        return AgentPlayer(spec, seed=seed)
    if is_file_agent(spec):
        return FilePlayer(spec)
    return GtpPlayer(spec, command_timeout=command_timeout)


def check_spec(spec: str) -> str | None:
    """None when spec can make a player, else a one-line reason (agents are built; engines not started)."""
    if is_builtin(spec):
        try:
            make_agent(spec).close()
        except (ValueError, ImportError) as e:
            return f"player '{spec}': {e}"
        return None
    cmd = spec.strip()
    cmd = cmd[4:] if cmd.startswith("gtp:") else cmd
    file_agent = is_file_agent(cmd)
    if file_agent:
        cmd = cmd[len(FILE_PREFIX) :]
    try:
        argv = shlex.split(cmd)
    except ValueError as e:
        return f"player '{spec}': {e}"
    if not argv:
        return f"player '{spec}': no command" if file_agent else "empty player"
    if file_agent:
        if shutil.which(argv[0]) is None and not os.path.isfile(argv[0]):
            return f"player '{spec}': program '{argv[0]}' not found"
        return None
    if shutil.which(argv[0]) is None:
        name = parse_spec(cmd)[0]
        hint = f" (known AIs: {', '.join(sorted(AGENTS))})" if len(argv) == 1 else ""
        return f"player '{spec}': '{name}' is neither an AI nor a program found on PATH{hint}"
    return None


__all__ = [
    "AgentPlayer",
    "FilePlayer",
    "Forfeit",
    "GtpPlayer",
    "Player",
    "check_spec",
    "is_builtin",
    "is_file_agent",
    "make_player",
]
