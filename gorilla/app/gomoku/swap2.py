"""Swap2 in the window, as Gomoku's opening protocol (:class:`Swap2`): who acts in each phase
of the opening, what the panel says, and what an AI answers, for the Gomoku controller. The
phases themselves are the game's (:class:`gorilla.gomoku.game.GomokuGame`: ``swap2_phase``,
``swap2_put``, ``swap2_two_more``, ``swap2_choose``).

The new-game form's Opening row (or ``--swap2``) asks for it. The player in the form's Black
row opens: it puts three stones (Black, White, Black). The other player then chooses: it
plays White's fourth stone (it keeps White), passes (it takes Black, and the opener plays
White's fourth stone), or puts two more stones (White, Black), after which the opener
chooses: it plays White's sixth stone (it takes White) or passes (it keeps Black). A pass is
the Gomocup protocol's SWAP: no stone, and the colours are exchanged or kept so that the
other player moves. After the opening the game goes on as any other; its stones cannot be
taken back.

Until the colours are chosen the players keep the seats of the form (the opener the Black
seat); once they are, the seats are exchanged when the opener plays White (the game's
``first_player_black`` is False).
"""

from __future__ import annotations

import threading
from typing import Any, Protocol

from gorilla.app.clocks import Clocks
from gorilla.app.feed import Feed
from gorilla.app.gomoku.players import think_seconds
from gorilla.app.gomoku.view import GomokuView, to_view
from gorilla.app.kind import Job
from gorilla.app.players import Players
from gorilla.app.record import Record
from gorilla.app.referee import Referee
from gorilla.app.tasks import Task
from gorilla.gomoku import rules as R
from gorilla.gomoku import swap2
from gorilla.gomoku.game import (
    SWAP2_CHOOSE,
    SWAP2_CHOOSE2,
    SWAP2_DONE,
    SWAP2_PLACE2,
    SWAP2_PLACE3,
    SWAP2_STONES,
    GomokuGame,
)

Answer = list[tuple[int, int]] | None  # stones (x, y) put down, or None: pass (SWAP)

# what an AI may answer in each phase: the number of stones (0: a pass)
ANSWERS = {SWAP2_PLACE3: (3,), SWAP2_CHOOSE: (0, 1, 2), SWAP2_CHOOSE2: (0, 1)}
# the stones on the board when a phase begins: undo goes back no further
PHASE_START = {phase: stones[0] for phase, stones in SWAP2_STONES.items()}


def opening(game: GomokuGame) -> bool:
    """Whether game is in a Swap2 opening (its stones and choices come before the game)."""
    return game.swap2_phase != SWAP2_DONE


def choosing(game: GomokuGame) -> bool:
    """Whether a player chooses its colour now (a pass or a White stone answers)."""
    return game.swap2_phase in (SWAP2_CHOOSE, SWAP2_CHOOSE2)


def actor(game: GomokuGame) -> int:
    """The seat (BLACK: the opener, WHITE: the other) whose player acts in the opening."""
    return R.BLACK if game.swap2_phase in (SWAP2_PLACE3, SWAP2_CHOOSE2) else R.WHITE


def undo_floor(game: GomokuGame) -> int:
    """The stones undo leaves on the board: the phase's first ones, or the whole opening."""
    return PHASE_START.get(game.swap2_phase, game.swap2_end)


def prompt(game: GomokuGame, name: dict[int, str]) -> str:
    """The panel's line: who does what now (name: seat -> the player's name)."""
    who = name[actor(game)]
    return {
        SWAP2_PLACE3: f"Swap2: {who} puts three stones (Black, White, Black)",
        SWAP2_CHOOSE: f"Swap2: {who} plays White's stone, passes to take Black, or puts two more (2)",
        SWAP2_PLACE2: f"Swap2: {who} puts two more stones (White, Black)",
        SWAP2_CHOOSE2: f"Swap2: {who} plays White's stone to take White, or passes to keep Black",
    }.get(game.swap2_phase, "")


def opening_answer(agent: Any, game: GomokuGame, seconds: float, seed: int = 0) -> Answer:
    """An AI's Swap2 answer on game (a copy): three stones on an empty board; after three or
    five, one White stone or None (a pass: it takes Black). A Gomocup engine answers its
    ``SWAP2BOARD`` (it may put two more stones after three); a built-in agent searches
    (:mod:`gorilla.gomoku.swap2`)."""
    if hasattr(agent, "swap2"):
        return agent.swap2(game, seconds)
    if not game.moves:
        return swap2.place_three(agent, game, seconds, seed)
    move = swap2.choose(agent, game, seconds)
    return None if move is None else [move]


class Swap2Host(Protocol):
    """What :class:`Swap2` asks of the controller that holds it (its parts, and two requests)."""

    record: Record
    seats: Players
    clocks: Clocks
    feed: Feed
    referee: Referee

    def stop_work(self) -> None:
        """Cancel the background work before the game changes."""
        ...

    def changed(self, autosave: bool = True) -> None:
        """After any change of the game."""
        ...


class Swap2:
    """The Swap2 opening as Gomoku's part (:class:`gorilla.app.kind.Opening`): while the game on
    the board (a :class:`gorilla.app.gomoku.view.GomokuView`) is in its opening, who acts, how
    far undo goes, a human's stone, pass and two more stones, and the AI's answers (see the
    module docstring). A free game has no opening: the side to move acts."""

    def __init__(self, host: Swap2Host) -> None:
        self.host = host

    @property
    def view(self) -> GomokuView:
        """The game on the board."""
        return self.host.record.game

    def active(self) -> bool:
        """Whether the opening goes on (its stones and choices before the game)."""
        return opening(self.view.gomoku) and not self.host.referee.over

    def choosing(self) -> bool:
        """Whether a player chooses its colour now."""
        return self.active() and choosing(self.view.gomoku)

    def actor(self) -> int:
        """The seat whose player acts: the opening's actor, else the side to move."""
        g = self.view.gomoku
        return actor(g) if opening(g) else g.to_move

    def undo_floor(self) -> int:
        """The stones undo leaves on the board: the phase's first ones, or the whole opening."""
        return undo_floor(self.view.gomoku)

    def stays(self) -> str:
        """Undo does not take an opening's stones or choices."""
        return "The Swap2 opening's stones and choices stay (r starts a new game)"

    def offers(self, command: str) -> bool:
        """Every command but pass; pass and two_more while a human's Swap2 choice asks for them."""
        if command not in ("pass", "two_more"):
            return True
        human_choice = self.choosing() and self.host.seats.is_human(self.actor())
        return human_choice and (command == "pass" or self.view.gomoku.swap2_phase == SWAP2_CHOOSE)

    # --- a human acts ----------------------------------------------------------------------------
    def stone(self, point: int, seat: int) -> int | None:
        """A human's stone while the opening goes on: when it chooses, a stone plays White (the
        opening ends, the game's own move follows: None); else one of the opening's stones
        (seat's turn goes on until its three or two stones are down)."""
        if self.choosing():
            self.choose(take_black=False)  # a stone: the chooser plays White
        if not opening(self.view.gomoku):
            return None
        self.view.put(point)
        return seat

    def pass_turn(self) -> bool:
        """There is no passing in Gomoku, but in a Swap2 choice: the human who chooses passes,
        taking Black (after three stones) or keeping it (after five); the other player moves."""
        if not self._human_chooses("There is no passing in Gomoku", self.choosing()):
            return False
        self.host.stop_work()
        self.choose(take_black=True)
        self.host.changed()
        return True

    def two_more(self) -> bool:
        """Swap2, after the first three stones: the human who chooses puts two more (2)."""
        three = self.choosing() and self.view.gomoku.swap2_phase == SWAP2_CHOOSE
        if not self._human_chooses("Two more stones: only in a Swap2 opening, after its first three", three):
            return False
        self.view.gomoku.swap2_two_more()
        self.host.changed()
        self.host.feed.say("Swap2: put two more stones, White then Black")
        return True

    def _human_chooses(self, otherwise: str, now: bool) -> bool:
        """Whether a human's choice may be made now (else says why: otherwise, the AI's turn to
        choose, or a flag that fell, which loses the game)."""
        host = self.host
        if not now:
            host.feed.say(otherwise)
            return False
        seat = self.actor()
        if not host.seats.is_human(seat):
            host.feed.say("Wait for the AI's choice")
            return False
        return not host.referee.flag_fell(seat)

    def choose(self, take_black: bool) -> None:
        """The chooser takes Black (a pass) or White (a stone follows): the opening ends, and the
        players change seats when the opener plays White."""
        host, g = self.host, self.view.gomoku
        who = host.seats.labels[actor(g)]
        g.swap2_choose(take_black)
        if not g.first_player_black:
            self.swap_seats()
        host.feed.say(f"Swap2: {who} plays {'Black' if take_black else 'White'}")
        if take_black:
            host.feed.emit("pass")  # Swap2's pass sounds as Go's
            host.clocks.pressed(R.BLACK, g, record=False)  # the pass ends its turn

    def swap_seats(self) -> None:
        """The players exchange colours (their agents, names, specs and clocks)."""
        self.host.clocks.exchange()
        self.host.seats.exchange()

    def form_seats(self) -> None:
        """The players back at the form's seats (the Swap2 opener at Black) for another game."""
        g = self.view.gomoku
        if g.opening == "swap2" and not g.first_player_black:
            self.swap_seats()

    def prompt(self) -> str:
        """The panel's line while the opening goes on: who does what now."""
        seats = self.host.seats
        names = {c: f"{'Black' if c == R.BLACK else 'White'} ({seats.labels[c]})" for c in (R.BLACK, R.WHITE)}
        return prompt(self.view.gomoku, names)

    # --- an AI acts -------------------------------------------------------------------------------
    def job(self, agent: Any, seat: int, clocks: Clocks) -> Job:
        """The AI at seat answers the opening on a worker thread, in its seconds a move or what
        its clock affords."""
        seconds = think_seconds(self.host.seats.specs[seat], seat, clocks)
        snapshot = self.view.gomoku.copy()
        seed = len(snapshot.moves) + 1

        def run(cancel: threading.Event) -> Answer:
            return opening_answer(agent, snapshot, seconds, seed)

        return run

    def answer(self, task: Task) -> None:
        """Apply an AI's Swap2 answer: its stones, its pass, or its White stone; an answer that
        does not fit the phase, or an illegal stone, forfeits."""
        host, view = self.host, self.view
        g = view.gomoku
        seat = task.data["color"]
        if not self.active():
            return
        answer = task.result
        n = 0 if answer is None else len(answer) or -1  # 0: a pass; no stone at all is no answer
        if n not in ANSWERS.get(g.swap2_phase, ()):
            why = f"{host.seats.labels[seat]} answered Swap2 with {n} stones and forfeits"
            host.referee.forfeit(seat, why)
            return
        if answer is None:
            self.choose(take_black=True)
            host.changed()
            return
        if g.swap2_phase == SWAP2_CHOOSE and n == 2:
            g.swap2_two_more()
        elif choosing(g):
            self.choose(take_black=False)
        for x, y in answer:
            color, put = g.to_move, opening(g)
            try:
                q = to_view(g, g.point(x, y))
                if put:
                    view.put(q)
                else:
                    view.play(q)
            except ValueError as e:
                host.referee.forfeit(self.actor(), f"{host.seats.labels[seat]}: Swap2 stone {x},{y}: {e}")
                return
            host.referee.moved(color, q, seat if put else None)
        host.changed()
