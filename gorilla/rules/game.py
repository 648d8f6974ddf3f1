"""The game record: moves, undo/redo, superko, handicap, game end, result, and its copies."""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from gorilla.rules import board as K
from gorilla.rules.board import BLACK, PASS, RESIGN, WHITE
from gorilla.rules.coords import check_size, format_vertex
from gorilla.rules.handicap import fixed_handicap_points
from gorilla.rules.position import IllegalMove, Position, opponent
from gorilla.rules.rulesets import CHINESE, Ruleset, get_ruleset
from gorilla.rules.scoring import Score, result_string, score


@dataclass(frozen=True)
class Move:
    """One entry of the record: who played what, and what it captured."""

    color: int
    point: int  # a flat index, PASS or RESIGN
    captures: int = 0
    comment: str = ""


@dataclass
class GameInfo:
    """SGF root information that is not part of the rules."""

    black_name: str = ""
    white_name: str = ""
    date: str = ""
    comment: str = ""
    extra_result: str = ""  # a result given from outside (SGF RE, time loss, forfeit)


@dataclass
class Game:
    """A game in progress or finished, with everything needed to replay it.

    ``positions[i]`` is the position after ``i`` moves; ``positions[0]`` holds
    the setup (handicap) stones. Undone moves stay on a redo list until a new
    move is played.
    """

    size: int = 19
    ruleset: Ruleset = CHINESE
    komi: float | None = None
    info: GameInfo = field(default_factory=GameInfo)
    handicap: int = 0

    def __post_init__(self) -> None:
        if isinstance(self.ruleset, str):
            self.ruleset = get_ruleset(self.ruleset)
        check_size(self.size)
        if self.komi is None:
            self.komi = self.ruleset.komi
        self.positions: list[Position] = [Position(self.size, self.ruleset.suicide)]
        self.moves: list[Move] = []
        self.redo_stack: list[Move] = []
        self.setup: dict[int, int] = {}  # point -> colour of setup stones
        self._hashes: Counter[int] = Counter([self.positions[0].hash])
        self.resigned: int = 0  # colour that resigned
        self.move_offset: int = 0  # moves played before positions[0] (a game picked up mid-way)
        self.dead: set[int] = set()

    # --- construction --------------------------------------------------
    @classmethod
    def new(
        cls,
        size: int | None = None,
        rules: str | Ruleset = "chinese",
        komi: float | None = None,
        handicap: int = 0,
    ) -> Game:
        """A new game; size defaults to the ruleset's, handicap stones are fixed placement."""
        rs = get_ruleset(rules) if isinstance(rules, str) else rules
        game = cls(size or rs.default_size, rs, komi)
        if handicap:
            game.set_handicap(fixed_handicap_points(game.size, handicap))
        return game

    @classmethod
    def from_position(
        cls,
        position: Position,
        rules: str | Ruleset = "chinese",
        komi: float | None = None,
        move_offset: int = 0,
    ) -> Game:
        """A game that starts from position (its ko point and side to move included),
        with move_offset moves already played (they count towards a move cap)."""
        rs = get_ruleset(rules) if isinstance(rules, str) else rules
        game = cls(position.size, rs, komi)
        start = position.copy()
        start.st[K.S_SUICIDE] = 1 if rs.suicide else 0  # the game's rules decide, not the position's
        game.positions = [start]
        game._hashes = Counter([start.hash])
        game.setup = {p: start.color_at(p) for c in (BLACK, WHITE) for p in start.stones(c)}
        game.move_offset = move_offset
        return game

    def add_setup(self, stones: Iterable[tuple[int, int]], to_move: int | None = None) -> None:
        """Put setup stones (point, colour) on the start position; only before any move."""
        if self.moves:
            raise ValueError("setup stones only before the first move")
        stones = list(stones)
        start = self.positions[0].copy()
        for p, color in stones:
            if not start.on_board(p):
                raise ValueError("setup stone off the board")
            if color not in (BLACK, WHITE):
                raise ValueError(f"invalid setup colour {color}")
            start.setup_stone(p, color)
        for p, color in stones:
            # a setup stone never captures nor dies: the position is drawn as given
            if start.color_at(p) != color:
                raise ValueError(f"setup stone at {format_vertex(p, self.size)} would have no liberties")
        new_setup = dict(self.setup)
        for p, color in stones:
            new_setup[p] = color
        if to_move is not None:
            start.to_move = to_move
        self.positions = [start]
        self.setup = new_setup
        self.redo_stack.clear()
        self._hashes = Counter([start.hash])

    def set_handicap(self, points: Iterable[int]) -> None:
        """Black handicap stones on an empty board; White moves first afterwards."""
        pts = list(points)
        if self.moves or self.setup:
            raise ValueError("board not empty")
        if len(set(pts)) != len(pts) or len(pts) < 2:
            raise ValueError("invalid handicap stones")
        self.add_setup([(p, BLACK) for p in pts], to_move=WHITE)
        self.handicap = len(pts)

    # --- state ---------------------------------------------------------
    @property
    def position(self) -> Position:
        """The current position (after the last move on the record)."""
        return self.positions[-1]

    @property
    def to_move(self) -> int:
        """The colour to move."""
        return self.position.to_move

    @property
    def move_number(self) -> int:
        """How many moves are on the record (passes and a resignation included)."""
        return len(self.moves)

    @property
    def last_move(self) -> Move | None:
        """The last move on the record, or None before the first."""
        return self.moves[-1] if self.moves else None

    @property
    def move_cap(self) -> int | None:
        """The most moves a game may last when the ruleset has a move cap (size * size - 1), else None."""
        return self.size * self.size - 1 if self.ruleset.move_cap else None

    @property
    def moves_left(self) -> int | None:
        """Moves (passes included) until the move cap ends the game, or None without a cap."""
        cap = self.move_cap
        return None if cap is None else max(0, cap - len(self.moves) - self.move_offset)

    def captures(self, color: int) -> int:
        """How many stones color has captured."""
        return self.position.captures(color)

    @property
    def end_reason(self) -> str | None:
        """'resign', 'passes' or 'move cap' once the game is over, else None."""
        if self.resigned:
            return "resign"
        if self.moves and self.position.passes >= 2:
            return "passes"
        if self.moves_left == 0:
            return "move cap"
        return None

    @property
    def over(self) -> bool:
        """True once the game has ended: a resignation, two passes in a row or the move cap."""
        return self.end_reason is not None

    # --- moves ---------------------------------------------------------
    def check(self, point: int, color: int | None = None) -> str | None:
        """None if the move is legal now, else the reason (occupied, suicide, ko, superko, ...)."""
        if self.over:
            return "game is over"
        if point in (PASS, RESIGN):
            return None
        pos = self.position
        c = pos.to_move if color is None else color
        reason = pos.check(point, c)
        if reason is None and self.ruleset.superko and self._hashes[pos.hash_after(point, c)]:
            # a suicide that leaves the board as it was is a repetition too
            reason = "superko"
        return reason

    def is_legal(self, point: int, color: int | None = None) -> bool:
        """True if the move is legal now (see :meth:`check`)."""
        return self.check(point, color) is None

    def legal_moves(self, color: int | None = None, reasonable: bool = False) -> list[int]:
        """Legal points (superko included when the rules have it), without passing."""
        if self.over:
            return []
        pos = self.position
        c = pos.to_move if color is None else color
        pts = pos.legal_moves(c, reasonable)
        if self.ruleset.superko and pts:
            seen = self._hashes  # a Counter: 0 (or absent) for a position no longer on the line
            after = pos.hashes_after(pts, c).tolist()
            pts = [p for p, h in zip(pts, after, strict=True) if not seen.get(h)]
        return pts

    def play(self, point: int, color: int | None = None, comment: str = "") -> int:
        """Play a move (a point, PASS or RESIGN) for color, default the side to move.

        Returns the stones it captured. Raises IllegalMove, changing nothing,
        when the rules forbid it.
        """
        c = self.to_move if color is None else color
        reason = self.check(point, c)
        if reason is not None:
            raise IllegalMove(reason)
        if point == RESIGN:
            self.info.extra_result = ""
            self.resigned = c
            self.moves.append(Move(c, RESIGN, 0, comment))
            self.positions.append(self.position.copy())
            self.redo_stack.clear()
            return 0
        new = self.position.copy()
        captured = new.play(point, c)
        self.positions.append(new)
        self.moves.append(Move(c, point, captured, comment))
        self._hashes[new.hash] += 1
        self.redo_stack.clear()
        self.dead.clear()
        self.info.extra_result = ""  # a recorded result no longer describes the record
        return captured

    def pass_move(self, color: int | None = None) -> None:
        """Pass for color (default the side to move)."""
        self.play(PASS, color)

    def resign(self, color: int | None = None) -> None:
        """Resign for color (default the side to move)."""
        self.play(RESIGN, color)

    def undo(self) -> bool:
        """Take back the last move; False when there is none."""
        if not self.moves:
            return False
        move = self.moves.pop()
        gone = self.positions.pop()
        if move.point == RESIGN:
            self.resigned = 0
        else:
            self._hashes[gone.hash] -= 1
        self.redo_stack.append(move)
        self.dead.clear()
        self.info.extra_result = ""
        return True

    def redo(self) -> bool:
        """Replay the last undone move; False when there is none."""
        if not self.redo_stack:
            return False
        move = self.redo_stack.pop()
        keep = list(self.redo_stack)
        self.play(move.point, move.color, move.comment)
        self.redo_stack = keep
        return True

    def goto(self, n: int) -> None:
        """Undo or redo until n moves are on the record."""
        while len(self.moves) > n and self.undo():
            pass
        while len(self.moves) < n and self.redo():
            pass

    # --- copies -----------------------------------------------------------
    def copy(self) -> Game:
        """An independent copy (a worker thread searches it while the original goes on).

        Positions are never changed in place once on the record (``play`` appends a
        new one), so copying the containers is enough: O(moves) pointer copies.
        """
        g = copy.copy(self)
        g.info = replace(self.info)
        g.positions = list(self.positions)
        g.moves = list(self.moves)
        g.redo_stack = list(self.redo_stack)
        g.setup = dict(self.setup)
        g._hashes = Counter(self._hashes)
        g.dead = set(self.dead)
        return g

    def at(self, n: int) -> Game:
        """A copy of the game as it was after n moves (the later moves on its redo list)."""
        if not 0 <= n <= len(self.moves):
            raise ValueError(f"cannot go to move {n}")
        g = self.copy()
        g.goto(n)
        return g

    def reopened(self) -> Game:
        """Itself, or, after two passes or a resignation, a copy in which play goes on.

        GTP has no game end: controllers may keep playing after two passes (KGS
        clean-up) or a resignation; legality is then that of the board.
        """
        reason = self.end_reason
        if reason not in ("passes", "resign"):
            return self
        g = self.copy()
        g.redo_stack = []
        g.dead = set()
        g.reopen()
        return g

    def reopen(self) -> None:
        """Make a game ended by two passes or a resignation playable again, in place."""
        reason = self.end_reason
        if reason == "resign":
            self.undo()
            self.redo_stack.clear()
        elif reason == "passes":
            pos = self.positions[-1].copy()
            pos.st[K.S_PASSES] = 0
            self.positions[-1] = pos

    def with_to_move(self, color: int) -> Game:
        """Itself when color is to move, else a copy (reopened if over) with color to move."""
        g = self.reopened()
        if g.to_move == color:
            return g
        if g is self:
            g = self.copy()
            g.redo_stack = []
            g.dead = set()
        pos = g.positions[-1].copy()
        pos.to_move = color
        g.positions[-1] = pos
        return g

    # --- result ----------------------------------------------------------
    def score(self, dead: Iterable[int] | None = None) -> Score:
        """The count under the game's rules with the given (or the marked) dead stones."""
        return score(self.position, self.ruleset, self.komi, self.dead if dead is None else dead)

    @property
    def result(self) -> str | None:
        """SGF result ('B+3.5', 'W+R', '0') once the game is over, else None."""
        if self.resigned:
            return ("W" if self.resigned == BLACK else "B") + "+R"
        if self.info.extra_result:
            return self.info.extra_result
        if not self.over:
            return None
        return result_string(self.score().margin)

    def winner(self) -> int:
        """BLACK, WHITE or 0 (draw or not over)."""
        r = self.result or ""
        return BLACK if r.startswith("B+") else WHITE if r.startswith("W+") else 0

    def replay(self) -> Game:
        """A fresh copy of this game built move by move (what SGF load does)."""
        g = Game(self.size, self.ruleset, self.komi, replace(self.info), self.handicap)
        if self.setup:
            g.add_setup(self.setup.items(), self.positions[0].to_move)
        g.move_offset = self.move_offset
        for m in self.moves:
            g.play(m.point, m.color, m.comment)
        g.info.extra_result = self.info.extra_result
        return g

    def __str__(self) -> str:
        return str(self.position)


__all__ = ["Game", "GameInfo", "Move", "IllegalMove", "opponent"]
