"""Terminal mode (``-no_gui``): the board in text after every move, humans type their moves.

AI vs AI runs to the end without input, as Gorilla's command-prompt version did. In a teaching
game (``--teach``) each judgement is a line after the move; a move taken back says so, and the
board is shown again.
A human types a vertex (``D4``), ``pass``, ``undo``, ``resign``, ``board``, ``help``
or ``quit``; bad input gets one line of explanation and the prompt again; end of
input ends the session cleanly (the game is autosaved after every move).
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

from gorilla.app.go.controller import COLOR_NAME, Controller
from gorilla.rules.board import BLACK, PASS, RESIGN, WHITE
from gorilla.rules.coords import format_vertex, parse_vertex

HELP = """\
Commands:
  D4         play at D4 (column letter without I, then row number)
  pass       pass (two passes in a row end the game)
  undo       take back your last move (and the AI's reply)
  resign     give up the game
  board      show the board again
  help       this text
  quit       leave (the game is autosaved)"""

DEAD_HELP = "Type a point of a group to mark it dead or alive, 'done' to count."


class Terminal:
    """One terminal session over a controller."""

    def __init__(self, controller: Controller, stdin: TextIO | None = None, stdout: TextIO | None = None):
        self.c = controller
        self.inp = stdin if stdin is not None else sys.stdin
        self.out = stdout if stdout is not None else sys.stdout
        self.shown = -1  # move number of the last board printed

    def say(self, text: str = "") -> None:
        """Print a line."""
        self.out.write(text + "\n")
        self.out.flush()

    def read(self, prompt: str) -> str | None:
        """One line of input, or None at end of input."""
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            self.out.write("\n")
            return None
        return line.strip()

    # --- printing -------------------------------------------------------------------------
    def show_board(self) -> None:
        """Print the board."""
        game = self.c.game
        self.say(str(game.position))
        self.say(f"Captures: Black {game.captures(BLACK)}, White {game.captures(WHITE)}")
        self.shown = game.move_number

    def show_move(self) -> None:
        """Print the last move: who played what, and what it captured."""
        game = self.c.game
        m = game.last_move
        if m is None:
            self.show_board()
            return
        who = "human" if self.c.is_human(m.color) else self.c.players[m.color]
        if m.point == RESIGN:
            self.say(f"Move {game.move_number}: {COLOR_NAME[m.color]} ({who}) resigns")
            self.shown = game.move_number
            return
        took = f", captures {m.captures}" if m.captures else ""
        where = format_vertex(m.point, game.size)
        self.say(f"Move {game.move_number}: {COLOR_NAME[m.color]} ({who}) {where}{took}")
        self.show_board()

    def show_teaching(self) -> None:
        """The teacher's judgements since the last call, one line each; after a take-back the
        board again."""
        size = self.c.game.size
        for j in self.c.teacher.drain():
            if j.taken_back:
                self.say(j.try_again(size, hint=j.answer(size)))
                self.show_board()
            else:
                self.say(j.text(size))

    def show_header(self) -> None:
        """Print the players, the board size, the rules and the komi."""
        game = self.c.game
        self.say(
            f"Gorilla: Black {self.c.players[BLACK]} vs White {self.c.players[WHITE]}, "
            f"{game.size}x{game.size}, {game.ruleset.name} rules, komi {game.komi:g}"
            + (f", handicap {game.handicap}" if game.handicap else "")
        )
        if any(self.c.is_human(col) for col in (BLACK, WHITE)):
            self.say("Type a move like D4, or pass, undo, resign, help, quit.")
        taught = [COLOR_NAME[col] for col in (BLACK, WHITE) if self.c.teacher.teaches(col)]
        if taught:
            back = self.c.teacher.settings.take_back
            again = f"; a move that loses {back:g} points or more is taken back once" if back else ""
            self.say(f"Teaching game: the net judges {' and '.join(taught)}'s moves{again}.")

    def show_result(self) -> None:
        """Print how the game ended and the count."""
        game = self.c.game
        if game.resigned:
            self.say(f"{COLOR_NAME[game.resigned]} resigned. Result: {game.result}")
            return
        if self.c.ended is not None:
            msg = self.c.message
            self.say(msg if msg and str(game.result) in msg else f"Game over. Result: {game.result}")
            return
        self.say(f"Game over ({game.end_reason}) after {game.move_number} moves.")
        if game.dead:
            pts = " ".join(format_vertex(p, game.size) for p in sorted(game.dead))
            self.say(f"Dead stones ({len(game.dead)}): {pts}")
        sc = self.c.score()
        if sc is not None:
            self.say(sc.breakdown())

    # --- the session ----------------------------------------------------------------------
    def run(self) -> int:
        """Play the game to its end in the terminal; returns the exit status."""
        c = self.c
        c.continuous = True  # AI vs AI plays on without input here
        self.show_header()
        self.show_board()
        while True:
            c.poll()  # applies a finished AI move, starts the next AI turn
            self.show_teaching()
            if c.game.move_number != self.shown:
                self.show_move()
            if c.over:
                break
            if c.ai_error is not None:
                self.say(c.ai_error)
                return 1
            if c.thinking or c.teacher.judging:
                c.wait()
                continue
            if c.ai_to_move:
                time.sleep(0.005)  # a cancelled search is still winding down; poll() starts the AI
                continue
            if not self.human_turn():
                self.say("Bye. The game is autosaved." if c.autosave else "Bye.")
                return 0
        c.wait()  # the dead-stone estimate
        if self.c.game.end_reason == "passes" and any(c.is_human(col) for col in (BLACK, WHITE)):
            self.mark_dead()
        self.show_result()
        return 0

    def human_turn(self) -> bool:
        """Read and carry out one command; False to leave."""
        c = self.c
        game = c.game
        color = COLOR_NAME[game.to_move]
        views = c.clock_views()
        clock = f" [{views[game.to_move].text()}]" if views is not None else ""
        line = self.read(f"{color} to move{clock}> ")
        if line is None:
            return False
        word = line.lower()
        if not word:
            return True
        if word in ("quit", "exit", "q"):
            return False
        if word in ("help", "h", "?"):
            self.say(HELP)
            return True
        if word in ("board", "show", "b"):
            self.show_board()
            return True
        if word == "undo":
            if c.undo():
                self.say(f"Undone: back to move {c.game.move_number}")
                self.show_board()
            else:
                self.say(c.message)
            return True
        try:
            point = parse_vertex(line, game.size)
        except ValueError as e:
            self.say(f"{e}; type a move like D4, or help")
            return True
        if point == PASS:
            ok = c.pass_turn()
        elif point == RESIGN:
            ok = c.resign()
        else:
            ok = c.play(point)
        if not ok:
            if not c.over:
                self.say(c.message)
            return True
        self.show_move()
        return True

    def mark_dead(self) -> None:
        """After two passes: let the humans correct the dead-stone estimate."""
        c = self.c
        game = c.game
        self.show_result()
        self.say(DEAD_HELP)
        while True:
            line = self.read("dead> ")
            if line is None or line.lower() in ("done", "", "quit", "q", "ok"):
                return
            try:
                point = parse_vertex(line, game.size)
            except ValueError as e:
                self.say(f"{e}; type a point of a group, or done")
                continue
            if point < 0:
                self.say("type a point of a group, or done")
                continue
            c.toggle_dead(point)
            self.say(c.message)


def run_terminal(controller: Controller, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Play the controller's game in the terminal; returns the exit status."""
    try:
        return Terminal(controller, stdin, stdout).run()
    except KeyboardInterrupt:
        (stdout or sys.stdout).write("\nInterrupted. The game is autosaved.\n")
        return 130
