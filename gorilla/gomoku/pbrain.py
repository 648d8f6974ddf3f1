"""The Gomocup ("pbrain") protocol: ``gorilla pbrain`` plays Gomoku on stdin/stdout.

The manager sends one command a line; coordinates are 0-based ``x,y`` from the top-left.
START, RECTSTART (square only), BEGIN, TURN, BOARD..DONE (fields 1 own, 2 opponent,
3 a stone of the continuous game, counted as own), INFO (timeout_turn, timeout_match,
time_left, max_memory, game_type, rule bitmask 1 exactly five / 2 continuous / 4 renju /
8 caro, evaluate, folder), END (exits at once while thinking; otherwise after answering
the commands before it, without starting to think on any), ABOUT, RESTART,
TAKEBACK, SWAP2BOARD..DONE. A malformed or impossible command is answered ``ERROR``
and changes nothing; an unknown one ``UNKNOWN``. The kernels are compiled at START,
before the first timed turn.
"""

from __future__ import annotations

import argparse
import os
import queue
import sys
import threading
from collections.abc import Callable

from gorilla import __version__
from gorilla.gomoku import rules as R
from gorilla.gomoku import search as S
from gorilla.gomoku import swap2
from gorilla.gomoku.agents import AGENTS, make_agent, ready_engine
from gorilla.gomoku.game import GomokuGame

ABOUT = f'name="Gorilla", version="{__version__}", author="Gorilla authors", country="-"'


def rule_from_bitmask(value: int) -> int:
    """The rule of Gomocup's INFO rule bitmask (renju 4 and caro 8 first, then exactly five 1)."""
    if value & 4:
        return R.RENJU
    if value & 8:
        return R.CARO
    if value & 1:
        return R.STANDARD
    return R.FREESTYLE


def _xy(text: str, parts: int = 2) -> tuple[int, ...]:
    items = [t.strip() for t in text.split(",")]
    if len(items) != parts or not all(t.lstrip("-").isdigit() for t in items):
        raise ValueError(f"expected {parts} comma-separated integers, got {text.strip()!r}")
    return tuple(int(t) for t in items)


class Brain:
    """The protocol's state machine: feed it lines, it writes answers through ``out``."""

    def __init__(
        self, agent: str = "pvs+vct", rule: int = R.FREESTYLE, out: Callable[[str], None] | None = None
    ):
        self.agent = make_agent(agent)
        self.agent_spec = agent
        self.rule = rule
        self.out = out or (lambda s: (sys.stdout.write(s + "\n"), sys.stdout.flush()))
        self.game: GomokuGame | None = None
        self.timeout_turn: int | None = None
        self.timeout_match: int | None = None
        self.time_left: int | None = None
        self.max_memory: int | None = None
        self.compiled = False
        self._block: str | None = None  # BOARD or SWAP2BOARD while collecting lines
        self._lines: list[str] = []
        # END has come (``serve``'s reader sets it): no search starts; the reader exits the
        # process at once when END comes during a search (``thinking``)
        self.ending = False
        self.thinking = False

    def _search(self, think: Callable[[], object]) -> object | None:
        """think() as the brain's search (``thinking`` while it runs), or None once END has come."""
        self.thinking = True
        try:
            return None if self.ending else think()
        finally:
            self.thinking = False

    # --- the brain's move --------------------------------------------------------------------
    def _think(self) -> int:
        g = self.game
        assert g is not None
        seconds = S.time_budget(self.timeout_turn, self.time_left, len(g.moves), g.size * g.size)
        return self.agent.select(g, seconds).move

    def _move(self) -> None:
        g = self.game
        if g is None:
            self.out("ERROR no game: send START first")
            return
        if g.over:
            self.out("ERROR the game is over")
            return
        p = self._search(self._think)
        if p is None:
            return
        g.play(p)
        x, y = g.xy(p)
        self.out(f"{x},{y}")

    # --- commands ---------------------------------------------------------------------------
    def handle(self, line: str) -> None:
        """One line from the manager."""
        text = line.strip()
        if self._block is not None:
            if text.upper() == "DONE":
                block, lines = self._block, self._lines
                self._block, self._lines = None, []
                (self._board if block == "BOARD" else self._swap2)(lines)
            elif text:
                self._lines.append(text)
            return
        if not text:
            return
        cmd, _, arg = text.partition(" ")
        cmd = cmd.upper()
        handler = getattr(self, "cmd_" + cmd.lower(), None) if cmd.isalpha() or "2" in cmd else None
        if handler is None:
            self.out(f"UNKNOWN command {cmd}")
            return
        try:
            handler(arg.strip())
        except ValueError as e:
            self.out(f"ERROR {e}")

    def _new_game(self, size: int) -> None:
        if not R.MIN_SIZE <= size <= R.MAX_SIZE:
            raise ValueError(f"unsupported size {size} (5..25)")
        if not self.compiled:
            ready_engine([self.agent_spec])  # this agent's kernels only
            self.compiled = True
        self.game = GomokuGame(size, self.rule)
        self.agent.new_game()

    def cmd_start(self, arg: str) -> None:
        """``START size``: a new game on a size x size board; answers OK (ERROR for a bad size)."""
        (size,) = _xy(arg, 1)
        self._new_game(size)
        self.out("OK")

    def cmd_rectstart(self, arg: str) -> None:
        """``RECTSTART w,h``: a new game on a square w x w board; ERROR for a rectangle."""
        w, h = _xy(arg)
        if w != h:
            raise ValueError(f"rectangular boards are not supported ({w}x{h})")
        self._new_game(w)
        self.out("OK")

    def cmd_restart(self, arg: str) -> None:
        """``RESTART``: a new game on the same board; answers OK."""
        if self.game is None:
            raise ValueError("no game to restart: send START first")
        self._new_game(self.game.size)
        self.out("OK")

    def cmd_begin(self, arg: str) -> None:
        """``BEGIN``: the brain plays the first move and answers it as ``x,y``."""
        if self.game is None:
            raise ValueError("no game: send START first")
        if self.game.moves:
            raise ValueError("BEGIN on a board that is not empty")
        self._move()

    def cmd_turn(self, arg: str) -> None:
        """``TURN x,y``: the opponent's move; the brain answers its own as ``x,y``."""
        g = self.game
        if g is None:
            raise ValueError("no game: send START first")
        x, y = _xy(arg)
        p = g.point(x, y)
        if not g.is_legal(p):
            raise ValueError(f"illegal move {x},{y}")
        g.play(p)
        self._move()

    def cmd_takeback(self, arg: str) -> None:
        """``TAKEBACK x,y``: remove the stone at x,y; answers OK."""
        if self.game is None:
            raise ValueError("no game: send START first")
        x, y = _xy(arg)
        self.game.remove_xy(x, y)
        self.out("OK")

    def cmd_board(self, arg: str) -> None:
        """``BOARD``: ``x,y,field`` lines until ``DONE`` set up the position, then the brain moves."""
        if self.game is None:
            raise ValueError("no game: send START first")
        self._block, self._lines = "BOARD", []

    def cmd_swap2board(self, arg: str) -> None:
        """``SWAP2BOARD``: stones until ``DONE``, then the brain's Swap2 answer (stones or SWAP)."""
        if self.game is None:
            raise ValueError("no game: send START first")
        self._block, self._lines = "SWAP2BOARD", []

    def _position(self, stones: list[tuple[int, int, int]], own: int) -> GomokuGame:
        """A game with the stones (x, y, field) set up, the brain playing colour own."""
        assert self.game is not None
        g = GomokuGame(self.game.size, self.game.rule)
        seen = set()
        for x, y, f in stones:
            if not (0 <= x < g.size and 0 <= y < g.size):
                raise ValueError(f"point {x},{y} is off the {g.size}x{g.size} board")
            if f not in (1, 2, 3):
                raise ValueError(f"bad field {f} at {x},{y} (1, 2 or 3)")
            if (x, y) in seen:
                raise ValueError(f"point {x},{y} given twice")
            seen.add((x, y))
        opp = 3 - own
        for x, y, f in stones:
            p = g.point(x, y)
            c = opp if f == 2 else own
            g.bd[0][p] = c
            g.moves.append((p, c))
        R.init_board(g.bd)
        return g

    def _board(self, lines: list[str]) -> None:
        try:
            stones = [_xy(ln, 3) for ln in lines]
            n_own = sum(1 for s in stones if s[2] != 2)
            n_opp = len(stones) - n_own
            own = R.BLACK if n_own == n_opp else R.WHITE
            g = self._position(stones, own)
        except ValueError as e:
            self.out(f"ERROR {e}")
            return
        # the last stone's colour decides who moves: make it the opponent's
        if g.moves and g.moves[-1][1] == own:
            for i in range(len(g.moves) - 1, -1, -1):
                if g.moves[i][1] != own:
                    g.moves.append(g.moves.pop(i))
                    break
        self.game = g
        self._move()

    def _swap2(self, lines: list[str]) -> None:
        try:
            coords = [_xy(ln, 3)[:2] if ln.count(",") == 2 else _xy(ln) for ln in lines]
            if len(coords) not in (0, 3, 5):
                raise ValueError(f"SWAP2BOARD with {len(coords)} stones (0, 3 or 5)")
            stones = [(x, y, 1 if i % 2 == 0 else 2) for i, (x, y) in enumerate(coords)]
            g = self._position(stones, R.BLACK)
        except ValueError as e:
            self.out(f"ERROR {e}")
            return
        assert self.game is not None
        seconds = S.time_budget(self.timeout_turn, self.time_left, len(g.moves), g.size * g.size)
        if not coords:
            seed = int.from_bytes(os.urandom(4), "little")
            opening = self._search(lambda: swap2.place_three(self.agent, g, seconds, seed=seed))
            if opening is None:
                return
            for x, y in opening:
                g.play_xy(x, y)
            self.game = g
            self.out(" ".join(f"{x},{y}" for x, y in opening))
            return
        self.game = g
        if self.ending:
            return
        move = self._search(lambda: swap2.choose(self.agent, g, seconds))
        if move is None:
            self.out("SWAP")
            return
        g.play_xy(*move)
        self.out(f"{move[0]},{move[1]}")

    def cmd_info(self, arg: str) -> None:
        """``INFO key value``: time limits, memory, rule and the like; no answer."""
        key, _, value = arg.partition(" ")
        key = key.lower()
        value = value.strip()
        ints = ("timeout_turn", "timeout_match", "time_left", "max_memory", "game_type", "rule")
        if key in ints:
            if not value.lstrip("-").isdigit():
                raise ValueError(f"INFO {key} needs an integer, got {value!r}")
            v = int(value)
            if key == "rule":
                self._set_rule(rule_from_bitmask(v))
            elif key != "game_type":
                setattr(self, key, v)
        # evaluate, folder and unknown keys need nothing

    def _set_rule(self, rule: int) -> None:
        self.rule = rule
        g = self.game
        if g is not None and g.rule != rule:
            new = GomokuGame(g.size, rule)
            for p, c in g.moves:
                new.bd[0][p] = c
            new.moves = list(g.moves)
            R.init_board(new.bd)
            self.game = new

    def cmd_about(self, arg: str) -> None:
        """``ABOUT``: name, version, author and country."""
        self.out(ABOUT)

    def cmd_end(self, arg: str) -> None:
        """``END``: exit at once."""
        raise SystemExit(0)


def serve(brain: Brain, stream=None) -> int:
    """Read commands until END or end of input. A reader thread takes END at once: during a
    search it exits the process there and then; otherwise the commands before END are
    answered (no search starts: ``Brain.ending``) and serve returns."""
    src = stream or sys.stdin
    lines: queue.Queue[str | None] = queue.Queue()

    def reader() -> None:
        for line in src:
            if line.strip().upper() == "END":
                brain.ending = True  # before looking at thinking: a search starting now sees it
                if brain.thinking:
                    sys.stdout.flush()
                    os._exit(0)
                break
            lines.put(line)
        lines.put(None)

    threading.Thread(target=reader, daemon=True).start()
    while True:
        line = lines.get()
        if line is None:
            return 0
        try:
            brain.handle(line)
        except SystemExit:
            return 0


def main(argv: list[str] | None = None) -> int:
    """``gorilla pbrain``: a Gomocup brain on stdin/stdout."""
    ap = argparse.ArgumentParser(
        prog="gorilla pbrain", description="Gomoku engine speaking the Gomocup protocol"
    )
    ap.add_argument("--agent", default="pvs+vct", help=f"one of {', '.join(AGENTS)} (default pvs+vct)")
    ap.add_argument(
        "--rule", default="freestyle", help="freestyle, standard, renju or caro (INFO rule overrides)"
    )
    args = ap.parse_args(argv)
    try:
        brain = Brain(args.agent, R.rule_from_name(args.rule))
    except ValueError as e:
        print(f"gorilla pbrain: {e}", file=sys.stderr)
        return 2
    return serve(brain)
