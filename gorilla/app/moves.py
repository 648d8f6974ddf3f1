"""What a human's input does to the game, as a part both games share: a click (a move, or the
next move between two AIs), a move, a resignation, undo and redo. A move clicked while the
rules' kernels still load is played once they are (``pending_move``). An opening protocol
(Gomoku's Swap2, :class:`gorilla.app.kind.Opening`) names who acts and takes the stones put
while it goes on; what only one game has (Go's set-up clicks, free handicap stones and dead
stones; Gomoku's Swap2 pass) is that game's own part, in front of this one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from gorilla.app.ai_turn import AiTurn
from gorilla.app.clocks import Clocks
from gorilla.app.feed import Feed
from gorilla.app.kind import Opening, PlayedGame
from gorilla.app.players import Players
from gorilla.app.record import Record
from gorilla.app.referee import COLOR_NAME, Referee
from gorilla.rules.board import PASS, RESIGN
from gorilla.rules.coords import format_vertex


class MovesHost(Protocol):
    """What :class:`Moves` asks of the controller that holds it."""

    def stop_work(self) -> None:
        """Cancel the background work before the game changes."""
        ...

    def changed(self, autosave: bool = True) -> None:
        """After any change of the game."""
        ...

    def human_played(self, color: int) -> None:
        """A human's move is on the board (Go's teacher judges it)."""
        ...

    def put_back(self) -> bool:
        """Undo's first say: what the game's own parts put back (Go's deleted branch, the record
        before a set-up or a reset); True when they did."""
        ...


class Moves:
    """A human's requests on the game (see the module docstring). ``ready(*groups)`` says
    whether kernels can run now; ``letters`` are the board's column letters."""

    def __init__(
        self,
        parts: tuple[Record, Players, Clocks, Referee, AiTurn, Feed, Opening],
        ready: Callable[..., bool],
        host: MovesHost,
        letters: str,
    ) -> None:
        self.record, self.seats, self.clocks, self.referee, self.turn, self.feed, self.opening = parts
        self.ready = ready
        self.host = host
        self.letters = letters
        self.pending_move: int | None = None  # a human move clicked before the rules were loaded

    def tick(self) -> None:
        """Every frame: a move clicked while the rules loaded is played once they are."""
        if self.pending_move is not None and self.ready("rules"):
            point, self.pending_move = self.pending_move, None
            if not self.referee.over and self.seats.is_human(self.opening.actor()):
                self.human_move(point)

    def click(self, point: int) -> bool:
        """Left click on a point: play it, or advance AI vs AI."""
        if self.referee.over:
            self.feed.say("The game is over: r starts a new one")
            return False
        if self.clocks.clock.paused:
            self.feed.say("The clocks are paused: Ctrl+P goes on")
            return False
        if self.seats.ai_vs_ai:
            self.turn.advance()
            return True
        return self.play(point)

    def play(self, point: int) -> bool:
        """Play point (or PASS/RESIGN) for the side to move, if a human acts now."""
        if self.referee.over:
            self.feed.say("The game is over")
            return False
        seat = self.opening.actor()
        if not self.seats.is_human(seat):
            self._wait_for(seat)
            return False
        return self.human_move(point)

    def _wait_for(self, seat: int) -> None:
        """An AI acts now: its move comes (once its engine is compiled)."""
        if not self.ready(*self.turn.groups(seat)):
            self.feed.say(f"{COLOR_NAME[seat]} ({self.seats.labels[seat]}) moves once its engine is compiled")
        else:
            self.feed.say(f"Wait: {COLOR_NAME[seat]} ({self.seats.labels[seat]}) is thinking")

    def human_move(self, point: int) -> bool:
        """The human who acts plays point: a move of the game, or an opening's stone or choice."""
        game = self.record.game
        if not self.ready("rules"):
            self.pending_move = point
            self.feed.say(f"Loading the rules: {self._where(game, point, 'pass')} is played in a moment")
            return True
        reason = game.check(point)
        if reason is not None:
            self.feed.say(f"Illegal move at {self._where(game, point, 'there')}: {reason}")
            self.feed.emit("illegal")
            return False
        seat = self.opening.actor()
        if self.referee.flag_fell(seat):
            return False
        color = game.to_move
        turn = self.opening.stone(point, seat) if self.opening.active() and point >= 0 else None
        if turn is None:
            try:
                game.play(point, seat if point == RESIGN else None)  # a resignation is the seat's
            except ValueError as e:  # IllegalMove is one
                self.feed.say(f"Illegal move: {e}")
                self.feed.emit("illegal")
                return False
        self.feed.message = ""
        self.record.reviewing = False  # a move from an earlier position: the game goes on from it
        self.referee.moved(color, point, turn)
        self.host.changed()
        self.host.human_played(color)
        return True

    def _where(self, game: PlayedGame, point: int, off: str) -> str:
        on = game.position.on_board(point)  # type: ignore[attr-defined]
        return format_vertex(point, game.size, self.letters) if on else off

    def pass_turn(self) -> bool:
        """Right click: the human to move passes."""
        return self.play(PASS)

    def resign(self) -> bool:
        """The human who acts resigns (the window asks for a confirmation first)."""
        return self.play(RESIGN)

    def undo(self) -> bool:
        """Take back a move (right after what the game's own parts put back: that); against an AI,
        back to the human's turn, never into an opening's stones. The move stays in the record:
        redo or the arrows bring it back."""
        if self.host.put_back():
            return True
        game = self.record.game
        if self.referee.ended == "time":
            self.feed.say("The game was lost on time: start a new one")
            return False
        floor = 0 if game.resigned else self.opening.undo_floor()  # a resignation is taken back
        if len(game.moves) <= floor and not game.resigned:
            self.feed.say(self.opening.stays() if floor else "Nothing to undo")
            return False
        steps = self._undo_steps(game, floor)
        if steps is None:
            self.feed.say(self.opening.stays())
            return False
        opening = self.opening.active()
        self.referee.ended = None
        game.info.extra_result = ""  # a forfeit goes with the moves taken back
        self.turn.continuous = False
        self.turn.steps = 0
        self.host.stop_work()
        for _ in range(steps):
            game.undo()
        if opening:
            game.redo_stack.clear()  # an opening's stones are put again, not redone
        self.feed.message = ""
        self.record.reviewing = False
        self.referee.follow_turn()
        self.host.changed()
        return True

    def _undo_steps(self, game: PlayedGame, floor: int) -> int | None:
        """How many moves undo takes back: one in an opening, else back to a human's turn against
        an AI (not below floor); None when that leaves an AI to move on an opening's stones."""
        probe = game.copy()
        probe.undo()
        steps = 1
        if self.opening.active() or self.seats.ai_vs_ai:
            return steps
        while len(probe.moves) > floor and not self.seats.is_human(probe.to_move):
            probe.undo()
            steps += 1
        if floor and not self.seats.is_human(probe.to_move):
            return None
        return steps

    def redo(self) -> bool:
        """Replay an undone move; against an AI, its reply too."""
        game = self.record.game
        if self.referee.ended is not None:
            self.feed.say("The game is over")
            return False
        if not game.redo_stack:
            self.feed.say("Nothing to redo")
            return False
        self.host.stop_work()
        try:
            game.redo()
        except ValueError as e:
            self.feed.say(f"Cannot redo: {e}")
            return False
        while game.redo_stack and not self.seats.ai_vs_ai and not self.seats.is_human(game.to_move):
            game.redo()
        self.feed.message = ""
        self.record.reviewing = False
        if game.over:
            self.clocks.stop()
        else:
            self.referee.follow_turn()
        self.host.changed()
        return True
