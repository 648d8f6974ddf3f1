"""A GTP engine as a player of the app: ``gtp:COMMAND`` (``gtp:gnugo --mode gtp``).

:class:`GtpEngineAgent` is an :class:`~gorilla.ai.agent.Agent`, so the controller
runs it like any AI, on its worker thread. Before each ``genmove`` it brings the
engine's board in line with the game (``boardsize``, ``clear_board``, ``komi``,
the setup stones, every move so far; only the new moves when the engine's record
is a prefix of the game's), tells it the game's rules and sends the clock (``kgs-time_settings`` or
``time_settings``, then ``time_left``). The engine's answer is only parsed here:
the controller plays it through Gorilla's rules.

The rules: a known engine gets them as its command-line flags (GNU Go:
``--chinese-rules`` for area scoring, ``--japanese-rules`` for territory; the
engine is restarted when a new game changes them), any engine over GTP with
``kata-set-rules`` (KataGo) or ``kgs-rules`` (KGS's extension) where it lists
them. Little-Go's stones-only count has no engine equivalent: Chinese is the nearest.

The engine is driven through the match runner's :class:`~gorilla.match.gtp_client.GtpClient`.
A cancelled move returns at once; the engine's late answer is drained before the
next command and the board is set up again.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import threading

from gorilla.ai.agent import Agent, MoveRequest
from gorilla.app.clock import NO_CLOCK, TimeControl
from gorilla.match.engines import GTP_ARGS, find_program
from gorilla.match.gtp_client import EngineFailure, GtpClient, GtpCommandError
from gorilla.match.players import short_label
from gorilla.rules.board import BLACK, PASS, RESIGN, WHITE
from gorilla.rules.coords import format_vertex, parse_vertex
from gorilla.rules.game import Game
from gorilla.rules.rulesets import Ruleset

PREFIX = "gtp:"
# the command-line flag that gives a known engine the game's scoring ("area", "territory", "stones")
RULES_FLAGS: dict[str, dict[str, str]] = {
    "gnugo": {"area": "--chinese-rules", "territory": "--japanese-rules", "stones": "--chinese-rules"},
}
# the game's rules named in KataGo's kata-set-rules and KGS's kgs-rules
KATA_RULES = {
    "chinese": "chinese",
    "japanese": "japanese",
    "tromp-taylor": "tromp-taylor",
    "little-go": "chinese",
}
KGS_RULES = {
    "chinese": "chinese",
    "japanese": "japanese",
    "tromp-taylor": "new_zealand",
    "little-go": "chinese",
}
LETTER = {BLACK: "b", WHITE: "w"}
COMMAND_TIMEOUT = 30.0
NO_CLOCK_GENMOVE_TIMEOUT = 600.0


class EngineError(Exception):
    """The engine did not start, crashed, hung or answered something that is not a move (one line)."""


def is_gtp_spec(spec: str) -> bool:
    """Whether a player spec names a GTP engine (``gtp:COMMAND``)."""
    return spec.strip().lower().startswith(PREFIX)


def engine_command(spec: str) -> str:
    """The command line of a ``gtp:COMMAND`` spec; a known engine's bare name gets its GTP flags and path.

    ``gtp:gnugo`` -> ``/usr/games/gnugo --mode gtp``; any other command is kept as typed.
    """
    cmd = spec.strip()[len(PREFIX) :].strip() if is_gtp_spec(spec) else spec.strip()
    if cmd in GTP_ARGS:
        path = find_program(cmd)
        if path:
            return " ".join([path, *GTP_ARGS[cmd]])
    return cmd


def command_for_rules(command: str, ruleset: Ruleset) -> str:
    """command with the flag that gives a known engine the ruleset's scoring, unless it names one already.

    ``/usr/games/gnugo --mode gtp`` in a Chinese game -> ``/usr/games/gnugo --mode gtp --chinese-rules``.
    """
    try:
        argv = shlex.split(command)
    except ValueError:
        return command
    if not argv:
        return command
    flags = RULES_FLAGS.get(os.path.basename(argv[0]))
    if flags is None or any(a in flags.values() for a in argv[1:]):
        return command
    flag = flags.get(ruleset.scoring)
    return f"{command} {flag}" if flag else command


def engine_label(spec: str) -> str:
    """How the panel names the engine: the command without folders ('gnugo --mode gtp')."""
    cmd = spec.strip()[len(PREFIX) :].strip() if is_gtp_spec(spec) else spec.strip()
    return short_label(cmd) or "gtp"


class GtpEngineAgent(Agent):
    """An external GTP engine behind the Agent interface (see the module docstring)."""

    def __init__(self, spec: str, startup_timeout: float = 30.0, command_timeout: float = COMMAND_TIMEOUT):
        self.spec = spec.strip()
        self.command = engine_command(spec)
        if not self.command:
            raise ValueError("gtp: needs a command, e.g. gtp:gnugo or 'gtp:pachi -t 5'")
        self.label = engine_label(spec)
        self.name = f"gtp:{self.label}"
        self.startup_timeout = startup_timeout
        self.client = GtpClient(self.command, startup_timeout=startup_timeout)
        self.command_timeout = command_timeout
        self.time_control: TimeControl = NO_CLOCK
        self._time_sent: TimeControl | None = None
        self._use_kgs = False
        self._left: dict[int, tuple[tuple[float, int], tuple[float, int]]] = {}
        self._key: tuple | None = None  # the start position the engine holds
        self._sent: list[tuple[int, int]] = []  # the moves the engine holds
        self._lock = threading.Lock()  # one command at a time, across cancelled moves
        self.engine_name = ""

    # --- time ---------------------------------------------------------------------------------
    def set_time_control(self, tc: TimeControl) -> None:
        """The game's time system; sent before the next move."""
        self.time_control = tc
        self._time_sent = None

    def set_clock_state(self, color: int, gtp: tuple[float, int], kgs: tuple[float, int]) -> None:
        """color's time left as GTP ``time_left`` numbers and as KGS ones (byo-yomi: periods)."""
        self._left[color] = (gtp, kgs)

    # --- the engine ---------------------------------------------------------------------------
    def _send(self, cmd: str, timeout: float | None = None) -> str:
        try:
            return self.client.send(cmd, self.command_timeout if timeout is None else timeout)
        except EngineFailure as e:
            self._key = None
            raise EngineError(f"{self.label}: {e}") from None

    def _start(self, game: Game) -> None:
        command = command_for_rules(self.command, game.ruleset)
        if command != self.client.command:  # the first game, or new rules: the flags change
            if self.client.alive:
                self.client.close(grace=1.0)
            self.client = GtpClient(command, startup_timeout=self.startup_timeout)
        if self.client.alive:
            return
        self._key = None
        self._time_sent = None
        try:
            self.client.start()
        except EngineFailure as e:
            self.client.kill()
            raise EngineError(f"{self.label} did not start: {e}") from None
        self._use_kgs = "kgs-time_settings" in self.client.known
        self.engine_name = " ".join(filter(None, (self.client.name, self.client.version))) or self.label

    def _sync(self, game: Game) -> None:
        """Make the engine's board the game's: the start position, then the moves it lacks."""
        key = (
            game.size,
            float(game.komi),
            game.ruleset.name,
            tuple(sorted(game.setup.items())),
            game.move_offset,
        )
        moves = [(m.color, m.point) for m in game.moves if m.point != RESIGN]
        if key != self._key or self._sent != moves[: len(self._sent)]:
            self._key = None
            try:
                self._send(f"boardsize {game.size}")
            except GtpCommandError:
                raise EngineError(f"{self.label} cannot play on {game.size}x{game.size}") from None
            self._send("clear_board")
            with contextlib.suppress(GtpCommandError):  # an engine without komi still plays
                self._send(f"komi {game.komi:g}")
            self._send_rules(game)
            self._sent = []
            self._setup(game)
            self._key = key
            self._time_sent = None
        for color, point in moves[len(self._sent) :]:
            self._play(color, point, game)

    def _send_rules(self, game: Game) -> None:
        """The game's rules over GTP where the engine speaks KataGo's or KGS's rules command."""
        name = game.ruleset.name
        if "kata-set-rules" in self.client.known and name in KATA_RULES:
            self.client.try_send(f"kata-set-rules {KATA_RULES[name]}", self.command_timeout)
        elif "kgs-rules" in self.client.known and name in KGS_RULES:
            self.client.try_send(f"kgs-rules {KGS_RULES[name]}", self.command_timeout)

    def _setup(self, game: Game) -> None:
        """Handicap stones with ``set_free_handicap`` where the engine has it, other setup as moves."""
        stones = sorted(game.setup.items())
        black = [p for p, c in stones if c == BLACK]
        if game.handicap and len(black) == len(stones) >= 2 and "set_free_handicap" in self.client.known:
            verts = " ".join(format_vertex(p, game.size) for p in black)
            try:
                self._send(f"set_free_handicap {verts}")
                return
            except GtpCommandError:
                self._send("clear_board")
        for point, color in stones:
            self._play(color, point, game)

    def _play(self, color: int, point: int, game: Game) -> None:
        vertex = format_vertex(point, game.size)
        try:
            self._send(f"play {LETTER[color]} {vertex}")
        except GtpCommandError as e:
            self._key = None
            move = f"{LETTER[color].upper()} {vertex}"
            raise EngineError(f"{self.label} refused the move {move}: {e}") from None
        self._sent.append((color, point))

    def _send_time(self, color: int) -> None:
        tc = self.time_control
        if self._time_sent != tc:
            self._time_sent = tc
            if self._use_kgs:
                self.client.try_send(f"kgs-time_settings {tc.kgs_time_settings()}", self.command_timeout)
            else:
                main, byo, stones = tc.gtp_time_settings()
                self.client.try_send(f"time_settings {main:g} {byo:g} {stones}", self.command_timeout)
        if tc.enabled and color in self._left:
            gtp, kgs = self._left[color]
            seconds, stones = kgs if self._use_kgs else gtp
            self.client.try_send(f"time_left {LETTER[color]} {int(seconds)} {stones}", self.command_timeout)

    def _genmove(self, game: Game, color: int, box: dict) -> None:
        with self._lock:
            try:
                self._start(game)
                self._sync(game)
                self._send_time(color)
                timeout = NO_CLOCK_GENMOVE_TIMEOUT
                if self.time_control.enabled and color in self._left:
                    timeout = self._left[color][0][0] + 10.0 + (self.time_control.period or 0)
                try:
                    answer = self._send(f"genmove {LETTER[color]}", timeout)
                except GtpCommandError as e:
                    raise EngineError(f"{self.label} could not generate a move: {e}") from None
                word = answer.split()[0] if answer.split() else ""
                try:
                    move = parse_vertex(word, game.size)
                except ValueError:
                    self._key = None
                    what = f"{self.label} answered {answer[:40]!r} to genmove"
                    raise EngineError(f"{what}, not a move") from None
                if move != RESIGN:
                    self._sent.append((color, move))
                box["move"] = move
            except BaseException as e:
                box["error"] = e

    def choose(self, req: MoveRequest) -> int:
        """The engine's move for the side to move (PASS when cancelled; the late answer is drained)."""
        cancel = req.cancel
        box: dict = {}
        snap = req.game.copy()
        worker = threading.Thread(
            target=self._genmove, args=(snap, snap.to_move, box), daemon=True, name="gorilla-gtp"
        )
        worker.start()
        while worker.is_alive():
            worker.join(0.02)
            if cancel is not None and cancel.is_set() and worker.is_alive():
                return PASS
        if "error" in box:
            raise box["error"]
        return int(box["move"])

    def new_game(self) -> None:
        """The next move sets the board up afresh."""
        self._key = None
        self._left.clear()

    def close(self) -> None:
        """Quit the engine (killing it when it is busy)."""
        if self._lock.acquire(timeout=0.5):
            try:
                self.client.close(grace=1.0)
            finally:
                self._lock.release()
        else:
            self.client.kill()
