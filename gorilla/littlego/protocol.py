"""The Little-Go tournament file protocol.

An agent is started once per move in a folder holding ``input.txt``: the
first line is the colour it plays (1 = black, 2 = white), then N lines of
the board before the opponent's last move and N lines of the board now,
digits 0 (empty), 1 (black), 2 (white), row 0 at the top. The agent writes
``output.txt``: ``row,col`` (0-based) or ``PASS``.

Gorilla infers the opponent's move, its captures and any ko from the two
boards, and keeps the move count in a small state file beside them.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from gorilla.rules.board import BLACK, EMPTY, PASS, RESIGN, WHITE
from gorilla.rules.coords import to_index, to_xy
from gorilla.rules.game import Game
from gorilla.rules.position import IllegalMove, Position

INPUT, OUTPUT, STATE = "input.txt", "output.txt", "gorilla_state.json"


class ProtocolError(ValueError):
    """A malformed input.txt; str() is one line naming the problem."""


@dataclass
class Turn:
    """What input.txt says: our colour, the board before the opponent's move, and now."""

    color: int
    previous: np.ndarray  # (N, N) int8
    current: np.ndarray


def parse_input(text: str) -> Turn:
    """input.txt's text as a Turn; ProtocolError with one line when it is malformed."""
    lines = [ln.strip() for ln in text.strip().splitlines() if ln.strip()]
    if not lines:
        raise ProtocolError("input.txt is empty")
    if lines[0] not in ("1", "2"):
        raise ProtocolError(f"input.txt line 1: colour must be 1 or 2, not '{lines[0][:20]}'")
    rows = lines[1:]
    if len(rows) % 2 or not rows:
        raise ProtocolError(f"input.txt: expected two square boards, got {len(rows)} board lines")
    n = len(rows) // 2
    if not 2 <= n <= 25:
        raise ProtocolError(f"input.txt: board size {n} is not supported")
    boards = []
    for i, row in enumerate(rows):
        if len(row) != n or any(ch not in "012" for ch in row):
            raise ProtocolError(f"input.txt line {i + 2}: expected {n} digits 0/1/2, got '{row[:30]}'")
        boards.append([int(ch) for ch in row])
    arr = np.array(boards, dtype=np.int8)
    return Turn(int(lines[0]), arr[:n], arr[n:])


def _position(grid: np.ndarray, to_move: int) -> Position:
    n = grid.shape[0]
    pos = Position(n)
    for r in range(n):
        for c in range(n):
            if grid[r, c] != EMPTY:
                try:
                    pos.setup_stone(to_index(c, n - 1 - r, n), int(grid[r, c]))
                except IllegalMove:
                    raise ProtocolError(f"input.txt: stone at {r},{c} is on an occupied point") from None
    pos.to_move = to_move
    return pos


def infer_position(turn: Turn) -> tuple[Position, int | None]:
    """The position to move in (ko included) and the opponent's last move (PASS, or None: unknown).

    The opponent's move is the point empty before and holding its stone now;
    replaying it on the previous board yields the captures and the ko point.
    Two equal boards mean the opponent passed (unless Black opens the game),
    so a pass now would end the game. Without a consistent single move, the
    current board is taken as it is.
    """
    me = turn.color
    opp = 3 - me
    n = turn.current.shape[0]
    if np.array_equal(turn.previous, turn.current):
        pos = _position(turn.current, opp)
        if turn.current.any() or me == WHITE:
            pos.play(PASS, opp)
            return pos, PASS
        pos.to_move = me
        return pos, None
    new = np.argwhere((turn.previous == EMPTY) & (turn.current == opp))
    if len(new) == 1:
        r, c = (int(v) for v in new[0])
        p = to_index(c, n - 1 - r, n)
        before = _position(turn.previous, opp)
        try:
            before.play(p, opp)
        except IllegalMove:
            pass
        else:
            if np.array_equal(before.grid(), turn.current):
                return before, p
    return _position(turn.current, me), None


def _load_state(folder: Path) -> dict:
    try:
        return json.loads((folder / STATE).read_text())
    except (OSError, ValueError):
        return {}


def moves_played(turn: Turn, state: dict) -> int:
    """How many moves (passes included) the game has had before ours."""
    last_board = state.get("board")
    if (
        last_board is not None
        and state.get("color") == turn.color
        and np.array_equal(np.array(last_board, dtype=np.int8), turn.previous)
    ):
        return int(state.get("moves", 0)) + 1
    if not turn.current.any() and not turn.previous.any():
        return 0 if turn.color == BLACK else 1
    # picked up mid-game without state: estimate from the stones on the board
    guess = int(np.count_nonzero(turn.current))
    if (guess % 2 == 0) != (turn.color == BLACK):
        guess += 1
    return guess


def write_atomic(path: Path, text: str) -> None:
    """Write text to path through a temporary file and a rename: readers never see half of it."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def format_move(p: int, size: int) -> str:
    """A point as the protocol writes it, 'row,col' (0-based, row 0 at the top), or 'PASS'."""
    if p == PASS:
        return "PASS"
    x, y = to_xy(p, size)
    return f"{size - 1 - y},{x}"


def parse_move(text: str, size: int) -> int:
    """An output.txt answer as a point or PASS; ValueError with one line if malformed."""
    t = text.strip()
    if t.upper() == "PASS":
        return PASS
    parts = t.split(",")
    if len(parts) != 2 or not all(s.strip().lstrip("-").isdigit() for s in parts):
        raise ValueError(f"output.txt: expected 'row,col' or 'PASS', got '{t[:30]}'")
    r, c = (int(s) for s in parts)
    if not (0 <= r < size and 0 <= c < size):
        raise ValueError(f"output.txt: {r},{c} is off the {size}x{size} board")
    return to_index(c, size - 1 - r, size)


def board_text(grid: np.ndarray) -> list[str]:
    """A board grid as the protocol's lines of digits (0 empty, 1 black, 2 white)."""
    return ["".join(str(int(v)) for v in row) for row in grid]


def write_input(folder: Path, color: int, previous: np.ndarray, current: np.ndarray) -> None:
    """Write input.txt as a tournament host does (used when Gorilla referees file agents)."""
    lines = [str(color), *board_text(previous), *board_text(current)]
    write_atomic(folder / INPUT, "\n".join(lines) + "\n")


def run_turn(folder: Path, agent_spec: str, seconds: float | None = None, rules: str = "little-go") -> str:
    """Read input.txt in folder, choose a move with the agent, write output.txt; returns the answer.

    Raises ProtocolError for a malformed input.txt; output.txt is then absent.
    """
    from gorilla.ai.agent import Budget, make_agent

    out = folder / OUTPUT
    out.unlink(missing_ok=True)
    try:
        text = (folder / INPUT).read_text(encoding="utf-8", errors="replace")
    except OSError as e:
        raise ProtocolError(f"cannot read {INPUT}: {e.strerror}") from None
    turn = parse_input(text)
    pos, _ = infer_position(turn)
    state = _load_state(folder)
    played = moves_played(turn, state)
    game = Game.from_position(pos, rules, move_offset=played)
    agent = make_agent(agent_spec)
    move = agent.select_move(game, Budget(seconds=seconds) if seconds else None)
    if move == RESIGN or (move != PASS and not game.is_legal(move)):
        move = PASS  # the protocol has no resignation; never answer an illegal move
    after = pos.copy()
    after.play(move, turn.color)
    answer = format_move(move, pos.size)
    write_atomic(out, answer + "\n")
    write_atomic(
        folder / STATE,
        json.dumps({"color": turn.color, "moves": played + 1, "board": after.grid().tolist()}),
    )
    return answer


__all__ = [
    "ProtocolError",
    "Turn",
    "parse_input",
    "infer_position",
    "moves_played",
    "run_turn",
    "parse_move",
    "format_move",
    "write_input",
    "BLACK",
    "WHITE",
]
