"""What a human's input does to the Go game, as the controller's part: a click (a move, a free
handicap stone, a dead group marked at the end, the next move between two AIs), a pass,
resignation, undo and redo. A move clicked while the rules' kernels still load is played once
they are (``pending_move``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from gorilla.app.ai_turn import AiTurn
from gorilla.app.clocks import Clocks
from gorilla.app.feed import Feed
from gorilla.app.move_values import DeadStones
from gorilla.app.players import Players
from gorilla.app.record import Record
from gorilla.app.referee import COLOR_NAME, Referee
from gorilla.rules.board import BLACK, EMPTY, PASS, RESIGN
from gorilla.rules.coords import format_vertex
from gorilla.rules.game import Game
from gorilla.rules.position import IllegalMove


class MovesHost(Protocol):
    """What :class:`Moves` asks of the controller that holds it."""

    def stop_work(self) -> None:
        """Cancel the background work before the game changes."""
        ...

    def changed(self, autosave: bool = True) -> None:
        """After any change of the game."""
        ...

    def human_played(self, color: int) -> None:
        """A human's move is on the board (the teacher judges it)."""
        ...


class Moves:
    """A human's requests on the game (see the module docstring). ``ready(*groups)`` says
    whether kernels can run now."""

    def __init__(
        self,
        parts: tuple[Record, Players, Clocks, Referee, AiTurn, DeadStones, Feed],
        ready: Callable[..., bool],
        host: MovesHost,
    ) -> None:
        self.record, self.seats, self.clocks, self.referee, self.turn, self.dead, self.feed = parts
        self.ready = ready
        self.host = host
        self.pending_move: int | None = None  # a human move clicked before the rules were loaded
        self.handicap_to_place = 0  # a human Black placing free handicap stones: how many are to come

    def tick(self) -> None:
        """Every frame: a move clicked while the rules loaded is played once they are."""
        if self.pending_move is not None and self.ready("rules"):
            point, self.pending_move = self.pending_move, None
            game = self.record.game
            if not game.over and self.seats.is_human(game.to_move):
                self.human_move(point)

    def click(self, point: int) -> bool:
        """Left click on a point: play it, place a free handicap stone, advance AI vs AI, toggle a
        dead group at the end, or in set-up mode put or take off a black stone."""
        game = self.record.game
        if self.record.editing:
            return self.record.setup_click(point, BLACK)
        if self.handicap_to_place:
            return self._place_handicap_stone(point)
        if self.referee.over:
            if game.over and game.end_reason == "passes" and game.position.on_board(point):
                return self.toggle_dead(point)
            self.feed.say("The game is over: r starts a new one")
            return False
        if self.clocks.clock.paused:
            self.feed.say("The clocks are paused: Ctrl+P goes on")
            return False
        if self.seats.ai_vs_ai:
            self.turn.advance()
            return True
        if not self.seats.is_human(game.to_move):
            self.feed.say(f"{COLOR_NAME[game.to_move]} (AI) is thinking")
            return False
        return self.human_move(point)

    def _place_handicap_stone(self, point: int) -> bool:
        """One of a human Black's free handicap stones; White moves after the last one."""
        game = self.record.game
        if not game.position.on_board(point) or game.position.color_at(point) != EMPTY:
            self.feed.say("Handicap stones go on empty points")
            self.feed.emit("illegal")
            return False
        placed = [p for p, _ in game.setup.items()] + [point]
        fresh = Game(game.size, game.ruleset, game.komi)
        self.handicap_to_place -= 1
        if self.handicap_to_place:
            fresh.add_setup([(p, BLACK) for p in placed], to_move=BLACK)
            self.feed.say(f"Black: place {self.handicap_to_place} more handicap stone(s)")
        else:
            fresh.set_handicap(placed)
            self.record.started(fresh, placed)
            self.feed.say("Handicap placed: White to move")
        self.seats.name_game(fresh.info)
        self.record.game = fresh
        self.feed.emit("stone", stones=0, move=0)
        self.host.changed(autosave=False)
        return True

    def play(self, point: int) -> bool:
        """Play point (or PASS/RESIGN) for the side to move, if a human has the move."""
        if self.referee.over:
            self.feed.say("The game is over")
            return False
        if not self.seats.is_human(self.record.game.to_move):
            self.feed.say(f"{COLOR_NAME[self.record.game.to_move]} is played by the AI")
            return False
        return self.human_move(point)

    def human_move(self, point: int) -> bool:
        game = self.record.game
        if not self.ready("rules"):
            self.pending_move = point
            where = format_vertex(point, game.size) if game.position.on_board(point) else "pass"
            self.feed.say(f"Loading the rules: {where} is played in a moment")
            return True
        reason = game.check(point)
        if reason is not None:
            where = format_vertex(point, game.size) if game.position.on_board(point) else "there"
            self.feed.say(f"Illegal move at {where}: {reason}")
            self.feed.emit("illegal")
            return False
        color = game.to_move
        if self.referee.flag_fell(color):
            return False
        try:
            game.play(point)
        except (IllegalMove, ValueError) as e:
            self.feed.say(f"Illegal move: {e}")
            self.feed.emit("illegal")
            return False
        self.feed.message = ""
        self.record.reviewing = False
        self.referee.moved(color)
        self.host.changed()
        self.host.human_played(color)
        return True

    def pass_turn(self) -> bool:
        """Right click: the human to move passes."""
        return self.play(PASS)

    def resign(self) -> bool:
        """The human to move resigns (the window asks for a confirmation first)."""
        return self.play(RESIGN)

    def toggle_dead(self, point: int) -> bool:
        """Mark the group at point dead, or alive again if it was dead (after two passes): the
        count is the result from then on, not the record's."""
        if not self.dead.toggle(self.record.game, point):
            return False
        self.record.rescored()
        return True

    def undo(self) -> bool:
        """Take back a move (right after a deleted branch or a reset: put it or the old game back);
        against an AI, back to the human's turn. The move stays in the record: redo or the arrows
        bring it back."""
        if self.record.restore_branch() or self.record.restore_record():
            return True
        if self.record.restore_reset():
            self.seats.new_game()  # the agents drop what they kept of the game after the reset
            return True
        game = self.record.game
        if self.referee.ended == "time":
            self.feed.say("The game was lost on time: start a new one")
            return False
        if not game.moves:
            self.feed.say("Nothing to undo")
            return False
        self.referee.ended = None
        self.turn.continuous = False
        self.turn.steps = 0
        self.host.stop_work()
        game.undo()
        # against an AI, take back its reply too so the human has the move again
        while game.moves and not self.seats.ai_vs_ai and not self.seats.is_human(game.to_move):
            game.undo()
        self.feed.message = ""
        self.referee.follow_turn()
        self.host.changed()
        return True

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
        except (IllegalMove, ValueError) as e:
            self.feed.say(f"Cannot redo: {e}")
            return False
        while game.redo_stack and not self.seats.ai_vs_ai and not self.seats.is_human(game.to_move):
            game.redo()
        self.feed.message = ""
        if game.over:
            self.clocks.stop()
        else:
            self.referee.follow_turn()
        self.host.changed()
        return True
