"""Shared test helpers: vertices, boards drawn as text, whole-board assertions, symmetries.

Test modules import them as ``from helpers import ...``: ``tests/`` has no
``__init__.py``, so pytest's default ("prepend") import mode puts this folder
on ``sys.path`` before it imports the test modules and ``conftest.py``.

A diagram is a square board drawn row by row, the top row first::

       A B C D E
     5 . . . . . 5
     4 . X O . . 4
     3 X O(X)O . 3
     2 . X O . . 2
     1 . . . . . 1
       A B C D E

``X`` or ``#`` (also ``x``, ``@``) is a black stone, ``O`` (also ``o``) a white
one, ``.`` (also ``+``, ``,``) an empty point; spaces do not count. The
coordinate lines and the row numbers on either side are optional; where they
are given they must be right. One stone may be put in parentheses: it is the
last move, played through the rules after the other stones are set up (it must
not capture anything, so that the board is the one drawn). This is the layout
``str(Position)`` prints, so a printed position reads back as it was.
"""

from __future__ import annotations

import importlib.util
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import numpy as np

from gorilla.rules.board import BLACK, EMPTY, WHITE
from gorilla.rules.coords import GTP_LETTERS, format_vertex, parse_vertex, to_index, to_xy
from gorilla.rules.game import Game
from gorilla.rules.position import Position
from gorilla.rules.rulesets import Ruleset

BLACK_SYMBOLS = "X#x@"
WHITE_SYMBOLS = "Oo"
EMPTY_SYMBOLS = ".+,"
COLOUR_OF = {**dict.fromkeys(BLACK_SYMBOLS, BLACK), **dict.fromkeys(WHITE_SYMBOLS, WHITE)}
COLOUR_OF.update(dict.fromkeys(EMPTY_SYMBOLS, EMPTY))
SYMBOL = {EMPTY: ".", BLACK: "X", WHITE: "O"}

# chi-square critical values (upper 0.1% points) by degrees of freedom, from standard tables
CHI2_999 = {1: 10.828, 2: 13.816, 3: 16.266, 4: 18.467, 5: 20.515, 6: 22.458, 7: 24.322, 8: 26.124}
CHI2_999.update({9: 27.877, 10: 29.588, 20: 45.315, 40: 73.402, 60: 99.607, 80: 124.839})


def v(vertex: str, size: int = 9) -> int:
    """The flat point index of a GTP vertex such as ``"D4"`` on a size x size board."""
    return parse_vertex(vertex, size)


def vertex(p: int, size: int = 9) -> str:
    """The GTP vertex (``"D4"``, ``"pass"``) of a flat point index."""
    return format_vertex(p, size)


# --- diagrams ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Diagram:
    """A parsed diagram: ``rows[r][c]`` is EMPTY, BLACK or WHITE, row 0 at the top.

    ``last`` is the (row, column) of the stone drawn in parentheses, or None.
    """

    rows: tuple[tuple[int, ...], ...]
    last: tuple[int, int] | None = None

    @property
    def size(self) -> int:
        return len(self.rows)

    def point(self, r: int, c: int) -> int:
        """The flat point index of row r (0 = top), column c (0 = left)."""
        return to_index(c, self.size - 1 - r, self.size)

    def stones(self) -> list[tuple[int, int]]:
        """(point, colour) of every stone, in board order, the last move included."""
        return [
            (self.point(r, c), col) for r, row in enumerate(self.rows) for c, col in enumerate(row) if col
        ]

    def last_move(self) -> tuple[int, int] | None:
        """(point, colour) of the last move, or None."""
        if self.last is None:
            return None
        r, c = self.last
        return self.point(r, c), self.rows[r][c]

    def text(self, coordinates: bool = True) -> str:
        """The diagram as text that :func:`parse_diagram` reads back (with coordinates by default).

        With coordinates this is the layout of ``str(Position)``.
        """
        n = self.size
        letters = "   " + " ".join(GTP_LETTERS[:n])
        lines = [letters] if coordinates else []
        for r, row in enumerate(self.rows):
            seps = [" "] * (n + 1)  # seps[c] stands before cell c, seps[n] after the last
            if self.last is not None and self.last[0] == r:
                seps[self.last[1]] = "("
                seps[self.last[1] + 1] = ")"
            body = "".join(seps[c] + SYMBOL[col] for c, col in enumerate(row)) + seps[n]
            lines.append(f"{n - r:2d}{body}{n - r}" if coordinates else body.strip())
        if coordinates:
            lines.append(letters)
        return "\n".join(lines)


def _is_letter_line(line: str) -> bool:
    letters = line.replace(" ", "")
    return len(letters) >= 2 and letters == GTP_LETTERS[: len(letters)]


def parse_diagram(diagram: str | list[str] | Diagram) -> Diagram:
    """Read a diagram (text, or a list of row strings); see the module docstring for the symbols.

    Raises ValueError for an unknown symbol, a board that is not square, wrong
    row numbers, or more than one stone in parentheses.
    """
    if isinstance(diagram, Diagram):
        return diagram
    lines = diagram.splitlines() if isinstance(diagram, str) else list(diagram)
    lines = [ln.strip() for ln in lines if ln.strip() and not _is_letter_line(ln)]
    n = len(lines)
    rows: list[tuple[int, ...]] = []
    last = None
    for r, line in enumerate(lines):
        body = line
        numbers = []
        head = len(body) - len(body.lstrip("0123456789"))
        if head:
            numbers.append(int(body[:head]))
            body = body[head:]
        tail = len(body) - len(body.rstrip("0123456789"))
        if tail:
            numbers.append(int(body[len(body) - tail :]))
            body = body[: len(body) - tail]
        if any(k != n - r for k in numbers):
            raise ValueError(f"diagram row {r + 1} from the top is numbered {numbers}, expected {n - r}")
        cells: list[int] = []
        marked = False
        for ch in body:
            if ch in " )":
                continue
            if ch == "(":
                if last is not None or marked:
                    raise ValueError("diagram: more than one last move in parentheses")
                marked = True
                continue
            if ch not in COLOUR_OF:
                raise ValueError(f"unknown diagram symbol '{ch}'")
            if marked:
                if COLOUR_OF[ch] == EMPTY:
                    raise ValueError("diagram: the last move in parentheses must be a stone")
                last = (r, len(cells))
                marked = False
            cells.append(COLOUR_OF[ch])
        rows.append(tuple(cells))
    if n < 2 or any(len(row) != n for row in rows):
        raise ValueError(f"diagram must be square: {n} rows of lengths {[len(row) for row in rows]}")
    return Diagram(tuple(rows), last)


def diagram_of(board: Game | Position, coordinates: bool = False) -> str:
    """The board of a game or position as diagram text (last move in parentheses when it is a stone)."""
    pos = board.position if isinstance(board, Game) else board
    n = pos.size
    rows = tuple(tuple(int(col) for col in row) for row in pos.grid())
    last = None
    if pos.last_move >= 0 and pos.color_at(pos.last_move) != EMPTY:
        x, y = to_xy(pos.last_move, n)
        last = (n - 1 - y, x)
    return Diagram(rows, last).text(coordinates)


def _check_setup(pos: Position, stones: list[tuple[int, int]]) -> None:
    for p, colour in stones:
        if pos.color_at(p) != colour:
            raise ValueError(f"diagram: the stone at {format_vertex(p, pos.size)} has no liberties")


def _check_after_last_move(pos: Position, d: Diagram) -> None:
    for p, colour in d.stones():
        if pos.color_at(p) != colour:
            raise ValueError(f"diagram: the last move captures {format_vertex(p, pos.size)}")


def _side_to_move(d: Diagram, to_move: int | None) -> int:
    last = d.last_move()
    if to_move is not None:
        return to_move
    return BLACK if last is None else 3 - last[1]


def position_from_diagram(
    diagram: str | list[str] | Diagram, to_move: int | None = None, suicide: bool = False
) -> Position:
    """The position drawn, its stones placed with ``Position.setup_stone``.

    A stone in parentheses is then played as a move (so it is the position's
    last move). ``to_move`` defaults to the opponent of the last move, else Black.
    """
    d = parse_diagram(diagram)
    pos = Position(d.size, suicide)
    last = d.last_move()
    setup = [s for s in d.stones() if last is None or s[0] != last[0]]
    for p, colour in setup:
        pos.setup_stone(p, colour)
    _check_setup(pos, setup)
    if last is not None:
        pos.play(last[0], last[1])
        _check_after_last_move(pos, d)
    pos.to_move = _side_to_move(d, to_move)
    return pos


def game_from_diagram(
    diagram: str | list[str] | Diagram,
    to_move: int | None = None,
    rules: str | Ruleset = "chinese",
    komi: float | None = None,
) -> Game:
    """A game whose start position is the board drawn, through ``Game.add_setup``.

    A stone in parentheses is then played as the game's first move. ``komi``
    defaults to the ruleset's; ``to_move`` to the opponent of the last move,
    else Black. With a last move drawn, ``to_move`` may only name that opponent.
    """
    d = parse_diagram(diagram)
    game = Game.new(d.size, rules, komi)
    last = d.last_move()
    setup = [s for s in d.stones() if last is None or s[0] != last[0]]
    side = _side_to_move(d, to_move)
    if last is None:
        game.add_setup(setup, to_move=side)
    else:
        if side != 3 - last[1]:
            raise ValueError("diagram: the side that played the last move cannot be to move")
        game.add_setup(setup, to_move=last[1])
        game.play(last[0], last[1])
        _check_after_last_move(game.position, d)
    return game


def assert_board(board: Game | Position, expected: str | list[str] | Diagram) -> None:
    """Assert that the stones on the board are those of the expected diagram.

    A last move in parentheses in the expected diagram must be the board's last
    move too. On failure the message shows the expected and the actual board
    side by side, with coordinates, and names the points that differ.
    """
    __tracebackhide__ = True
    want = parse_diagram(expected)
    got = parse_diagram(diagram_of(board))
    if want.size != got.size:
        raise AssertionError(f"board is {got.size}x{got.size}, expected {want.size}x{want.size}")
    differ = [
        want.point(r, c)
        for r in range(want.size)
        for c in range(want.size)
        if want.rows[r][c] != got.rows[r][c]
    ]
    last_differs = want.last is not None and want.last != got.last
    if not differ and not last_differs:
        return
    problems = []
    if differ:
        problems.append("stones differ at " + " ".join(format_vertex(p, want.size) for p in differ))
    if last_differs:
        problems.append("the last move differs")
    raise AssertionError("; ".join(problems) + "\n" + side_by_side(want.text(), got.text()))


def side_by_side(expected: str, actual: str, gap: int = 6) -> str:
    """Two blocks of text next to each other under the headings 'expected' and 'actual'."""
    left = ["expected", *expected.splitlines()]
    right = ["actual", *actual.splitlines()]
    width = max(len(line) for line in left) + gap
    rows = max(len(left), len(right))
    left += [""] * (rows - len(left))
    right += [""] * (rows - len(right))
    return "\n".join(f"{a:<{width}}{b}".rstrip() for a, b in zip(left, right, strict=True))


def with_points(diagram: str | list[str] | Diagram, **points: str) -> str:
    """The diagram with some points redrawn, e.g. ``with_points(d, C6="O", E4=".")``."""
    d = parse_diagram(diagram)
    rows = [list(row) for row in d.rows]
    last = d.last
    for name, symbol in points.items():
        x, y = to_xy(parse_vertex(name, d.size), d.size)
        r = d.size - 1 - y
        rows[r][x] = COLOUR_OF[symbol]
        if last == (r, x):
            last = None
    return Diagram(tuple(tuple(row) for row in rows), last).text(coordinates=False)


# --- symmetries ----------------------------------------------------------------------------------
def symmetry(a: np.ndarray, k: int) -> np.ndarray:
    """The k-th of the eight symmetries (k in 0..7) of a square array: k % 4 quarter turns
    (``np.rot90``), then a transpose when k >= 4."""
    a = np.rot90(a, k % 4)
    return a.T if k >= 4 else a


def transform_diagram(diagram: str | list[str] | Diagram, k: int) -> str:
    """The diagram under :func:`symmetry` k (the last move marker moves with its stone)."""
    d = parse_diagram(diagram)
    rows = symmetry(np.array(d.rows, dtype=np.int64), k)
    last = None
    if d.last is not None:
        last = transform_cell(d.last, d.size, k)
    return Diagram(tuple(tuple(int(x) for x in row) for row in rows), last).text(coordinates=False)


def transform_cell(cell: tuple[int, int], size: int, k: int) -> tuple[int, int]:
    """Where (row, column) goes under :func:`symmetry` k."""
    marks = np.zeros((size, size), dtype=np.int8)
    marks[cell] = 1
    r, c = np.argwhere(symmetry(marks, k))[0]
    return int(r), int(c)


def transform_vertex(vertex: str, size: int, k: int) -> str:
    """Where a GTP vertex goes under :func:`symmetry` k; 'pass' stays 'pass'."""
    p = parse_vertex(vertex, size)
    if p < 0:
        return format_vertex(p, size)
    x, y = to_xy(p, size)
    r, c = transform_cell((size - 1 - y, x), size, k)
    return format_vertex(to_index(c, size - 1 - r, size), size)


def variants(
    diagram: str | list[str] | Diagram, to_move: int | None = None
) -> Iterator[tuple[str, Position, Callable[[str], str]]]:
    """The drawn position in its eight orientations, each also with the colours swapped.

    Yields (label, position, where) with ``where(vertex)`` the vertex's place in
    that variant. ``to_move`` is passed to :func:`position_from_diagram` (the
    opponent's colour when the colours are swapped).
    """
    d = parse_diagram(diagram)
    for k in range(8):
        for swapped in (False, True):
            drawn = transform_diagram(d, k)
            side = None if to_move is None else 3 - to_move if swapped else to_move
            pos = position_from_diagram(swap_colours(drawn) if swapped else drawn, side)
            label = f"orientation {k}" + (", colours swapped" if swapped else "")
            yield label, pos, partial(transform_vertex, size=d.size, k=k)


def swap_colours(diagram: str | list[str] | Diagram) -> str:
    """The diagram with black and white exchanged."""
    d = parse_diagram(diagram)
    swap = {EMPTY: EMPTY, BLACK: WHITE, WHITE: BLACK}
    return Diagram(tuple(tuple(swap[x] for x in row) for row in d.rows), d.last).text(coordinates=False)


# --- statistics ----------------------------------------------------------------------------------
def chi_square(counts: np.ndarray | list[int], expected: np.ndarray | list[float]) -> float:
    """Pearson's chi-square statistic of observed counts against expected counts."""
    o = np.asarray(counts, dtype=float)
    e = np.asarray(expected, dtype=float)
    return float(((o - e) ** 2 / e).sum())


# --- agents --------------------------------------------------------------------------------------
class Work:
    """Seconds of work a block of code takes: the smaller of its wall-clock seconds and the CPU
    seconds of this process meanwhile. On an idle machine the two agree for a one-thread job;
    on a busy one the wall clock stretches with the load and the CPU seconds do not, so a
    bound on work holds whatever the machine is doing (a job that overruns its budget
    overruns both). Use as ``with Work() as w: ...`` then ``w.seconds``."""

    def __enter__(self) -> Work:
        self._wall, self._cpu = time.perf_counter(), time.process_time()
        self.seconds = float("nan")
        return self

    def stop(self) -> float:
        """End the measure now; returns the seconds of work."""
        self.seconds = min(time.perf_counter() - self._wall, time.process_time() - self._cpu)
        return self.seconds

    def __exit__(self, *exc: object) -> None:
        if self.seconds != self.seconds:  # not stopped yet
            self.stop()


def seconds_to_stop_after_cancel(
    search: Callable[[threading.Event], object], after: float
) -> tuple[object, float]:
    """Run ``search(cancel)`` in a thread, set ``cancel`` after ``after`` seconds and wait for it.

    Returns (what search returned, seconds of work from setting cancel to its return: see
    :class:`Work`, so a busy machine does not count); the thread must have finished within
    5 seconds.
    """
    cancel = threading.Event()
    result: list[object] = []
    done: list[tuple[float, float]] = []

    def run() -> None:
        result.append(search(cancel))
        done.append((time.perf_counter(), time.process_time()))

    th = threading.Thread(target=run)
    th.start()
    time.sleep(after)
    wall, cpu = time.perf_counter(), time.process_time()
    cancel.set()
    th.join(5)
    assert not th.is_alive(), "the search did not stop within 5 s of cancel"
    # a search that ended before the cancel took no time to stop
    return result[0], max(0.0, min(done[0][0] - wall, done[0][1] - cpu))


def gomoku_position(black, white=(), rule: str = "freestyle", size: int = 15):
    """A Gomoku game with the given stones (x, y from the top-left) set up, Black's and White's."""
    from gorilla.gomoku.game import GomokuGame

    rows = [["."] * size for _ in range(size)]
    for x, y in black:
        rows[y][x] = "X"
    for x, y in white:
        rows[y][x] = "O"
    return GomokuGame.from_diagram("\n".join("".join(r) for r in rows), rule)


def match_games(out: Path, moves_of: Callable[[Path], Sequence]) -> list[tuple]:
    """Every game of a ``gorilla match`` results folder in game order, without wall times:
    number, colours, winner, result, end, opening, and the moves of its SGF read by moves_of
    (Go's or Gomoku's loader): what a cluster run must reproduce of an in-process one."""
    from gorilla.match.runner import load_results

    recs = sorted(load_results(out), key=lambda r: r["game"])
    return [
        (
            r["game"],
            r["black"],
            r["white"],
            r["winner"],
            r["result"],
            r["reason"],
            r["moves"],
            tuple(r["opening"]),
            tuple(moves_of(out / r["sgf"])),
        )
        for r in recs
    ]


def replay_reference(spec: dict) -> Game:
    """The game of a KataGo reference position (``size``, ``gorilla_rules``, ``komi``,
    ``handicap``, ``moves`` of tests/data's JSON files), played through Gorilla's rules."""
    size = spec["size"]
    game = Game.new(size, spec["gorilla_rules"], spec["komi"])
    if spec["handicap"]:
        game.set_handicap([parse_vertex(x, size) for x in spec["handicap"]])
    for color, vert in spec["moves"]:
        game.play(parse_vertex(vert, size), BLACK if color == "B" else WHITE)
    return game


def assert_database_refused(path: Path, text: str, line: int, reason: str) -> None:
    """A pattern database file holding text is refused with one line ``path:line: ...`` that
    says reason."""
    from gorilla.ai.playout.database import PatternError, load_database

    path.write_text(text, encoding="utf-8")
    try:
        load_database(path)
    except PatternError as e:
        msg = str(e)
    else:
        raise AssertionError(f"{path} was loaded")
    assert msg.startswith(f"{path}:{line}: "), msg
    assert reason in msg and "\n" not in msg, msg


BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def load_benchmark(name: str):
    """A script of ``benchmarks/`` as a module (its folder on ``sys.path`` while it loads, for
    its imports of the other scripts)."""
    sys.path.insert(0, str(BENCHMARKS))
    try:
        spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
        assert spec is not None and spec.loader is not None
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        return mod
    finally:
        sys.path.remove(str(BENCHMARKS))
