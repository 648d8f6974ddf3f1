"""The referee, as a part both games share: the ends of a game the rules do not see (a flag that
fell, a forfeit, the result a loaded record gives) and the clocks' part in the game: pressed
after a move, watched every frame, started afresh or from a record's times, paused between two
humans. The clocks themselves are :class:`gorilla.app.clocks.Clocks`; the sounds of a move
(stone, capture, pass, the end) go out through the feed, and the game's words for how it ended
(Gomoku's five) through the message."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gorilla.app.clock import TimeControl
from gorilla.app.clocks import Clocks
from gorilla.app.feed import Feed
from gorilla.app.players import Players
from gorilla.app.record import Record
from gorilla.rules.board import BLACK, PASS, WHITE
from gorilla.rules.sgf import Timing

COLOR_NAME = {BLACK: "Black", WHITE: "White"}


@dataclass
class Referee:
    """``ended`` ('time', 'forfeit', 'record' or None) and the clocks' calls (see the module
    docstring). ``kind`` is the game's (:class:`gorilla.app.kind.GameKind`); ``actor()`` the
    seat that acts now; ``on_end()`` is the controller's: play stops and the game changed."""

    kind: Any
    clocks: Clocks
    record: Record
    seats: Players
    feed: Feed
    actor: Callable[[], int]
    on_end: Callable[[], None]
    ended: str | None = None  # an end the rules do not see

    @property
    def over(self) -> bool:
        """Whether the game has ended: by the rules, or on time, by forfeit, or as its record says."""
        return self.record.game.over or self.ended is not None

    def adopt_result(self, game: Any, ended: str | None = None) -> None:
        """A loaded record's end: ended where the record says how the game ended ('time',
        'forfeit'), else a result the rules do not give (W+T, B+F) makes it a finished game."""
        self.ended = ended
        if ended is None and game.info.extra_result and not game.over:
            self.ended = "record"

    def reopen(self, game: Any) -> None:
        """The board shows another position of the record: its end is what the record says."""
        self.ended = None
        self.adopt_result(game)

    def new_clock(self) -> None:
        """Fresh clocks for a new or loaded game; they start with its first move."""
        self.clocks.new()
        self.ended = None
        self.kind.tell_clock(self.seats.agents, self.clocks.time_control)

    def set_time_control(self, tc: TimeControl) -> None:
        """Use tc from the next new game on (and for this one, if it has not started)."""
        self.clocks.time_control = tc
        if not self.clocks.started:
            self.new_clock()

    def restore_clock(self, timing: Timing | None) -> None:
        """A loaded record's clock (TM/OT) brings its time control and the time left (BL/WL);
        the side to move's clock runs if the game goes on, a flag that fell stays down."""
        game = self.record.game
        ongoing = bool(game.moves) and not self.over
        if not self.clocks.restore_timing(timing, [m.color for m in game.moves], ongoing, self.actor()):
            return
        if self.ended == "time":
            loser = WHITE if (game.result or "").startswith("B") else BLACK
            self.clocks.clock.clocks[loser].flagged = True
        self.kind.tell_clock(self.seats.agents, self.clocks.time_control)
        self.feed.touch()

    def moved(self, color: int, point: int, turn: int | None = None) -> None:
        """After color's move at point: its sound, its clock pressed (the first move starts the
        clocks; an opening's stone presses turn's clock when that turn has ended), and how the
        game ended if it did."""
        game = self.record.game
        if point == PASS:
            self.feed.emit("pass")
        elif point >= 0:
            captured = game.moves[-1].captures
            self.feed.emit("capture" if captured else "stone", stones=captured, move=len(game.moves))
        if turn is None:
            self.clocks.pressed(color, game)
        elif self.actor() != turn:
            self.clocks.pressed(turn, game, record=False)
        if game.over:
            self.feed.emit("game_end", result=game.result or "")
            words = self.kind.end_words(game)
            if words:
                self.feed.say(words)

    def follow_turn(self) -> None:
        """After undo, redo or a step through the record: the clock of the player who acts runs
        (no time is given back)."""
        self.clocks.follow_turn(self.actor())

    def flag_fell(self, color: int) -> bool:
        """True (and the game lost on time) when color's flag has fallen; checked before a move."""
        if self.clocks.flag_fell(color):
            self.lose_on_time(color)
            return True
        return False

    def watch(self) -> None:
        """Every frame: a fallen flag ends the game; the last seconds are counted down."""
        if self.over:
            return
        flagged, second = self.clocks.watch(len(self.record.game.moves))
        if flagged:
            self.lose_on_time(flagged)
        elif second:
            self.feed.emit("countdown", seconds=second, color=self.clocks.clock.running)
            self.feed.touch()

    def lose_on_time(self, color: int) -> None:
        """color's flag fell: the game is lost on time."""
        self.clocks.flag(color)
        self.end(color, "T", "time", f"{COLOR_NAME[color]} lost on time")

    def forfeit(self, color: int, why: str) -> None:
        """color forfeits the game (an engine's illegal move, crash or garbage)."""
        self.end(color, "F", "forfeit", why)

    def end(self, loser: int, how: str, ended: str, why: str) -> None:
        """The game ends, lost by loser: 'T' on time, 'F' by forfeit (the SGF's RE)."""
        self.clocks.stop()
        self.ended = ended
        info = self.record.game.info
        info.extra_result = f"{'W' if loser == BLACK else 'B'}+{how}"
        self.on_end()
        self.feed.say(f"{why}: {info.extra_result}")
        self.feed.emit("game_end", result=info.extra_result)

    def toggle_pause(self) -> bool:
        """Pause or resume the clocks; only between two humans, while the game goes on."""
        if not self.clocks.time_control.enabled or not self.clocks.started or self.over:
            self.feed.say("No clock is running")
            return False
        if not self.seats.is_human(BLACK) or not self.seats.is_human(WHITE):
            self.feed.say("Only a game between two humans can be paused")
            return False
        paused = self.clocks.toggle_pause(self.record.game.to_move)
        self.feed.say("Paused: Ctrl+P goes on" if paused else "Clocks running")
        return True

    def sgf_timing(self) -> Timing | None:
        """TM/OT and the time left after each move, for the SGF (None without a clock)."""
        return self.clocks.sgf_timing(len(self.record.game.moves))
