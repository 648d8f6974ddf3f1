"""A Gomocup engine as a Gomoku player of the app: ``pbrain:COMMAND`` (``pbrain:pbrain-wine``).

:class:`PbrainAgent` is a :class:`~gorilla.gomoku.agents.GomokuAgent`, so the Gomoku
controller runs it like its own AIs, on its worker thread. It drives the engine through the
match runner's :class:`~gorilla.match.gomoku_players.BrainPlayer` (START or RESTART, the rule
and the limits as INFO lines, then BEGIN, TURN or BOARD..DONE): the engine hears only the
opponent's last move when it holds every earlier one, else the whole position again. Each
move's ``timeout_turn`` is the time the controller gives it (its per-move seconds, or what
the clock affords); ``timeout_match`` is 0, the clock is the app's.

The engine's answer is only read here: the controller plays it through Gorilla's rules. A
crash, a hang past the move's time (plus :data:`GRACE`) or an answer that is not a point of
the board raises :class:`EngineForfeit` (one line), which the controller turns into a
forfeit. A cancelled move (undo, a new game) returns at once; the busy engine is ended in
the background and the next move starts a fresh one.
"""

from __future__ import annotations

import threading

from gorilla.gomoku import search as S
from gorilla.gomoku.agents import GomokuAgent
from gorilla.gomoku.game import GomokuGame
from gorilla.match.gomoku_players import PBRAIN_PREFIX, BrainPlayer, gomoku_label, is_pbrain
from gorilla.match.players import Forfeit

GRACE = 5.0  # seconds past its time before a silent engine forfeits (the machine may be busy)

__all__ = ["GRACE", "PBRAIN_PREFIX", "EngineForfeit", "PbrainAgent", "is_pbrain"]


class EngineForfeit(Exception):
    """The engine crashed, ran out of time or answered something that is not a move (one line)."""


class PbrainAgent(GomokuAgent):
    """An external Gomocup engine behind the GomokuAgent interface (see the module docstring)."""

    def __init__(self, spec: str) -> None:
        self.spec = spec.strip()
        if not is_pbrain(self.spec) or not self.spec[len(PBRAIN_PREFIX) :].strip():
            raise ValueError("pbrain: needs a command, e.g. 'pbrain:pbrain-wine'")
        self.label = gomoku_label(self.spec)
        self.name = self.label
        self.player = BrainPlayer(self.spec)  # ValueError for a command shlex cannot split
        self.time_left: float | None = None  # seconds on the clock (set before a move), None: no clock
        self._held: tuple | None = None  # (size, rule, moves) the engine holds after its last answer
        self._stop = threading.Event()

    def select(
        self, game: GomokuGame, seconds: float = 1.0, on_depth: S.DepthFn | None = None
    ) -> S.SearchResult:
        """The engine's move for the side to move (-1 when stopped); EngineForfeit on a failure."""
        self._stop.clear()
        snap = game.copy()
        box: dict = {}
        player = self.player
        wait = max(seconds, self.time_left or 0.0) + GRACE
        worker = threading.Thread(
            target=self._ask, args=(player, snap, seconds, wait, box), daemon=True, name="gorilla-pbrain"
        )
        worker.start()
        while worker.is_alive():
            worker.join(0.02)
            if self._stop.is_set() and worker.is_alive():
                self._retire(player)
                return S.SearchResult(-1, source=self.label)
        if "error" in box:
            raise box["error"]
        return S.SearchResult(box["move"], source=self.label)

    def _ask(self, player: BrainPlayer, game: GomokuGame, seconds: float, wait: float, box: dict) -> None:
        try:
            box["move"] = self._move(player, game, seconds, wait)
        except BaseException as e:
            box["error"] = e

    def _move(self, player: BrainPlayer, game: GomokuGame, seconds: float, wait: float) -> int:
        moves = tuple(game.moves)
        held = self._held
        fresh = held is None or held[:2] != (game.size, game.rule) or moves[: len(held[2])] != held[2]
        turn_ms = max(1, int(seconds * 1000))
        try:
            if fresh or player.brain is None:
                self._forget(player)
                player.new_game(game, turn_ms, 0)  # START/RESTART: the next move sends the board
            else:
                assert player.brain is not None
                player.brain.send(f"INFO timeout_turn {turn_ms}")
            x, y = player.genmove(game, None, wait)
        except Forfeit as f:
            self._forget(player)
            raise EngineForfeit(f"{self.label}: {f.kind}: {f}") from None
        if not (0 <= x < game.size and 0 <= y < game.size):
            self._forget(player)
            player.close()
            raise EngineForfeit(f"{self.label} answered {x},{y}, off the {game.size}x{game.size} board")
        p = game.point(x, y)
        if player is self.player:  # a retired engine's late answer tells nothing
            self._held = (game.size, game.rule, (*moves, (p, game.to_move)))
        return p

    def _forget(self, player: BrainPlayer) -> None:
        if player is self.player:
            self._held = None

    def _retire(self, player: BrainPlayer) -> None:
        """A cancelled move: the busy engine ends in the background; the next move starts afresh."""
        self.player = BrainPlayer(self.spec)
        self._held = None
        threading.Thread(target=player.close, daemon=True, name="gorilla-pbrain-end").start()

    def new_game(self) -> None:
        """The next move sets the engine's board up afresh."""
        self._held = None

    def swap2(self, game: GomokuGame, seconds: float = 1.0) -> list[tuple[int, int]] | None:
        """The engine's Swap2 answer on game's opening stones (``SWAP2BOARD``): the stones it
        puts, or None for SWAP; EngineForfeit on a crash, a time-out or garbage. The engine's
        next move gets the whole board again."""
        player = self.player
        self._held = None
        try:
            player.new_game(game, max(1, int(seconds * 1000)), 0)
            return player.swap2(game.copy(), seconds + GRACE)
        except Forfeit as f:
            raise EngineForfeit(f"{self.label}: {f.kind}: {f}") from None

    def stop(self) -> None:
        """Return from a running move at once (another thread)."""
        self._stop.set()

    def close(self) -> None:
        """END the engine (killed when it does not exit)."""
        self._stop.set()
        player = self.player
        threading.Thread(target=player.close, daemon=True, name="gorilla-pbrain-end").start()
