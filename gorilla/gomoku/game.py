"""GomokuGame: the record of one game of five in a row: moves, undo, result, rule, Swap2.

Colours alternate from Black unless stones are set up out of turn (a Gomocup BOARD,
a Swap2 opening). Moves are flat points of the board (:mod:`gorilla.gomoku.rules`);
``play_xy`` takes 0-based ``(x, y)`` from the top-left.
"""

from __future__ import annotations

from dataclasses import dataclass

from gorilla.gomoku import rules as R

# Swap2 phases: who does what next
SWAP2_PLACE3 = "place3"  # the first player puts three stones (B, W, B)
SWAP2_CHOOSE = "choose"  # the second player: take Black ("swap"), play White, or put two more stones
SWAP2_PLACE2 = "place2"  # the second player puts two more stones (W, B)
SWAP2_CHOOSE2 = "choose2"  # after two more stones, the first player chooses a colour
SWAP2_DONE = "done"
# per phase of the opening, the stones that may stand on the board (the first: where it begins)
SWAP2_STONES = {SWAP2_PLACE3: (0, 1, 2), SWAP2_CHOOSE: (3,), SWAP2_PLACE2: (3, 4), SWAP2_CHOOSE2: (5,)}


@dataclass(frozen=True)
class Result:
    """How a game ended: winner BLACK/WHITE, or 0 for a draw; reason in words."""

    winner: int
    reason: str

    def sgf(self) -> str:
        """The SGF RE value: B+, W+ or 0."""
        return {R.BLACK: "B+", R.WHITE: "W+"}.get(self.winner, "0")


class GomokuGame:
    """One game: a board under a rule, its moves and its result."""

    def __init__(self, size: int = 15, rule: int | str = R.FREESTYLE, opening: str = "free") -> None:
        self.rule = R.rule_from_name(rule) if isinstance(rule, str) else int(rule)
        if self.rule not in range(4):
            raise ValueError(f"unknown gomoku rule {rule}")
        if opening not in ("free", "swap2"):
            raise ValueError(f"unknown opening rule {opening!r} (free or swap2)")
        self.size = size
        self.bd = R.new_board(size, self.rule)
        self.moves: list[tuple[int, int]] = []  # (point, colour)
        self.result: Result | None = None
        self.opening = opening
        self.swap2_phase = SWAP2_PLACE3 if opening == "swap2" else SWAP2_DONE
        self.first_player_black = True  # Swap2: whether the player who opened plays Black
        self.swap2_end = 0  # Swap2: the stones of the opening, once the colours are chosen
        # the first stones given to both players rather than chosen by them (a match's seeded
        # opening; the record's OPENING): an analysis values them but does not grade them
        self.given = 0

    # --- queries -------------------------------------------------------------------------
    @property
    def to_move(self) -> int:
        """The colour to play next: the opposite of the last stone's (Black on an empty board)."""
        if not self.moves:
            return R.BLACK
        return R.WHITE if self.moves[-1][1] == R.BLACK else R.BLACK

    @property
    def over(self) -> bool:
        """Whether the game has a result."""
        return self.result is not None

    def point(self, x: int, y: int) -> int:
        """Flat index of (x, y); ValueError if off the board."""
        if not (0 <= x < self.size and 0 <= y < self.size):
            raise ValueError(f"point {x},{y} is off the {self.size}x{self.size} board")
        return R.point(self.bd, x, y)

    def xy(self, p: int) -> tuple[int, int]:
        """The (x, y) of flat point p, from 0 at the top-left."""
        return R.xy(self.bd, p)

    def color_at(self, x: int, y: int) -> int:
        """The stone at (x, y): EMPTY, BLACK or WHITE."""
        return int(self.bd[0][self.point(x, y)])

    def is_legal(self, p: int, color: int | None = None) -> bool:
        """Whether color (default: to move) may play p now."""
        c = self.to_move if color is None else color
        return not self.over and bool(R.legal(self.bd, p, c))

    def five(self) -> list[int]:
        """The stones of the line that won the game (its last stone's row of five, more under
        freestyle and for White under renju; under Caro not one blocked at both ends), in order
        along each line; [] if no five ended it."""
        if self.result is None or self.result.reason != "five" or not self.moves:
            return []
        p, c = self.moves[-1]
        x0, y0 = self.xy(p)
        longer = self.rule == R.FREESTYLE or (self.rule == R.RENJU and c == R.WHITE)
        out: list[int] = []
        for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
            run = [(x0, y0)]
            blocked = 0  # ends held by the opponent's stones (the edge blocks nothing)
            for sign in (1, -1):
                x, y = x0 + sign * dx, y0 + sign * dy
                while 0 <= x < self.size and 0 <= y < self.size and self.color_at(x, y) == c:
                    run.append((x, y))
                    x, y = x + sign * dx, y + sign * dy
                if 0 <= x < self.size and 0 <= y < self.size and self.color_at(x, y) == 3 - c:
                    blocked += 1
            if self.rule == R.CARO and blocked == 2:
                continue  # a five blocked at both ends does not win under Caro
            if len(run) == 5 or (longer and len(run) > 5):
                out += [self.point(x, y) for x, y in sorted(run)]
        return list(dict.fromkeys(out))  # two fives through the last stone: it counts once

    def empty_points(self) -> list[int]:
        """The empty points of the board, in board order."""
        return [
            self.point(x, y) for y in range(self.size) for x in range(self.size) if self.color_at(x, y) == 0
        ]

    # --- changes -------------------------------------------------------------------------
    def play(self, p: int, color: int | None = None) -> Result | None:
        """Play p for color (default: to move); returns the result if the game ended.
        ValueError with one line (and nothing changed) if the move is not legal."""
        c = self.to_move if color is None else color
        if self.over:
            raise ValueError("the game is over")
        if c not in (R.BLACK, R.WHITE):
            raise ValueError(f"bad colour {c}")
        cell = self.bd[0]
        if not 0 <= p < cell.shape[0] or cell[p] == R.BORDER:
            raise ValueError("move off the board")
        x, y = self.xy(p)
        if cell[p] != R.EMPTY:
            raise ValueError(f"point {x},{y} is occupied")
        if c == R.BLACK and self.rule == R.RENJU and R.is_forbidden(self.bd, p):
            raise ValueError(f"point {x},{y} is forbidden for Black under renju")
        wins = bool(R.is_win(self.bd, p, c))
        R.place(self.bd, p, c)
        self.moves.append((p, c))
        if wins:
            self.result = Result(c, "five")
        elif int(self.bd[6][R.S_STONES]) == self.size * self.size:
            self.result = Result(0, "full board")
        return self.result

    def play_xy(self, x: int, y: int, color: int | None = None) -> Result | None:
        """Play at (x, y); see :meth:`play`."""
        return self.play(self.point(x, y), color)

    def undo(self) -> tuple[int, int]:
        """Take back the last stone; returns (point, colour). ValueError if there is none."""
        if not self.moves:
            raise ValueError("no move to undo")
        p, c = self.moves.pop()
        R.remove(self.bd, p)
        self.result = None
        self.given = min(self.given, len(self.moves))
        return p, c

    def remove_xy(self, x: int, y: int) -> None:
        """Take back the stone at (x, y) wherever it is in the record (Gomocup TAKEBACK)."""
        p = self.point(x, y)
        for i in range(len(self.moves) - 1, -1, -1):
            if self.moves[i][0] == p:
                del self.moves[i]
                R.remove(self.bd, p)
                self.result = None
                self.given = min(self.given, i)
                return
        raise ValueError(f"no stone at {x},{y}")

    def copy(self) -> GomokuGame:
        """An independent copy of the game."""
        g = GomokuGame.__new__(GomokuGame)
        g.__dict__.update(self.__dict__)
        g.bd = R.copy_board(self.bd)
        g.moves = list(self.moves)
        return g

    # --- Swap2 -----------------------------------------------------------------------------
    def swap2_place(self, stones: list[tuple[int, int]]) -> None:
        """The opening stones of Swap2: three (B, W, B) in phase place3, two (W, B) in phase choose."""
        want = {SWAP2_PLACE3: 3, SWAP2_CHOOSE: 2}.get(self.swap2_phase)
        if want is None or len(stones) != want:
            raise ValueError(f"swap2: {len(stones)} stones do not fit phase {self.swap2_phase}")
        if self.swap2_phase == SWAP2_CHOOSE:
            self.swap2_two_more()
        for x, y in stones:
            self.swap2_put(self.point(x, y))

    def swap2_put(self, p: int) -> Result | None:
        """One stone of the opening (the side to move's colour) in phase place3 or place2; the
        third stone leads to choose, the fifth to choose2. ValueError for an illegal stone."""
        if self.swap2_phase not in (SWAP2_PLACE3, SWAP2_PLACE2):
            raise ValueError(f"swap2: no stone to put in phase {self.swap2_phase}")
        result = self.play(p)
        n = len(self.moves)
        if self.swap2_phase == SWAP2_PLACE3 and n == 3:
            self.swap2_phase = SWAP2_CHOOSE
        elif self.swap2_phase == SWAP2_PLACE2 and n == 5:
            self.swap2_phase = SWAP2_CHOOSE2
        return result

    def swap2_two_more(self) -> None:
        """After the first three stones the second player puts two more instead of choosing."""
        if self.swap2_phase != SWAP2_CHOOSE:
            raise ValueError(f"swap2: two more stones only in phase choose, not {self.swap2_phase}")
        self.swap2_phase = SWAP2_PLACE2

    def swap2_choose(self, take_black: bool) -> None:
        """The choosing player takes Black (or White); play goes on normally."""
        if self.swap2_phase == SWAP2_CHOOSE:
            self.first_player_black = not take_black
        elif self.swap2_phase == SWAP2_CHOOSE2:
            self.first_player_black = take_black
        else:
            raise ValueError(f"swap2: no colour to choose in phase {self.swap2_phase}")
        self.swap2_phase = SWAP2_DONE
        self.swap2_end = len(self.moves)

    # --- diagrams ---------------------------------------------------------------------------
    def diagram(self) -> str:
        """Rows of X (Black), O (White) and . from the top."""
        chars = ".XO"
        return "\n".join(
            "".join(chars[self.color_at(x, y)] for x in range(self.size)) for y in range(self.size)
        )

    @classmethod
    def from_diagram(cls, text: str, rule: int | str = R.FREESTYLE, to_move: int | None = None) -> GomokuGame:
        """A position from rows of X/O/. (spaces ignored); stones alternate where they can so
        that ``to_move`` (default: Black if the counts are equal, else White) moves next."""
        rows = [r.replace(" ", "") for r in text.strip().splitlines() if r.strip()]
        n = len(rows)
        if any(len(r) != n for r in rows):
            raise ValueError("diagram is not square")
        g = cls(n, rule)
        blacks = [(x, y) for y, r in enumerate(rows) for x, ch in enumerate(r) if ch in "Xx"]
        whites = [(x, y) for y, r in enumerate(rows) for x, ch in enumerate(r) if ch in "Oo"]
        cell = g.bd[0]
        for x, y in blacks:
            cell[R.point(g.bd, x, y)] = R.BLACK
        for x, y in whites:
            cell[R.point(g.bd, x, y)] = R.WHITE
        R.init_board(g.bd)
        order: list[tuple[int, int]] = []
        b, w = list(blacks), list(whites)
        colour = R.BLACK
        while b or w:
            src = b if (colour == R.BLACK and b) or not w else w
            x, y = src.pop(0)
            c = R.BLACK if src is b else R.WHITE
            order.append((g.point(x, y), c))
            colour = R.WHITE if c == R.BLACK else R.BLACK
        g.moves = order
        if to_move is not None and g.to_move != to_move and g.moves:
            # the last stone's colour decides who moves; move a stone of the right colour last
            want_last = R.WHITE if to_move == R.BLACK else R.BLACK
            for i in range(len(g.moves) - 1, -1, -1):
                if g.moves[i][1] == want_last:
                    g.moves.append(g.moves.pop(i))
                    break
        return g
