"""The teaching game (KaTrain's "Teaching Game") as a controller part: every move of a taught
human judged by the net's search, the bad ones taken back once.

After each move of a taught player (:meth:`Teacher.played`) a task on the ``workers``
searches the position before the move and the position after it with one net agent (the
tree of the first reused by the second) and measures the **points lost** as the whole-game
review does (:func:`gorilla.app.go.review.move_review`: the fall of the mover's root score lead,
0 for the search's own best move). The loss gets a **class** by the thresholds (the game
report's classes, :data:`gorilla.app.go.report.THRESHOLDS`: under 0.5 points, 0.5 to 1.5, ..., 12
or more), shown as a dot of the class's colour on the stone for the last
:attr:`TeachSettings.dots` moves.

A move that lost at least :attr:`TeachSettings.take_back` points (3 by default), or a move of a
class below it by that class's chance (:attr:`TeachSettings.chances`, KaTrain's "undo counts":
by default half the moves of 1.5 to 3 points), is **taken back** once per position: the
panel names the move, what it lost and says "try again"; the move stays at that position as a
ghost with its loss and the net's refutation (the best line after it,
:meth:`Teacher.marks`). The second try at that position stands.

The position is searched before the move while the player thinks (a *pre-judgement*, as soon
as a taught human has the move), so after the move most of the work is the position after
it. The AI's reply waits for the judgement only while a take-back is possible (the first try
at a position, take-backs on: :meth:`Teacher.holding`); otherwise judgement and reply run side
by side, since the judgement's task is *lasting* (a change of the game does not cancel it:
its results are keyed by positions, :func:`gorilla.app.go.review.line_keys`).

Teaching needs the net (boards of 7x7 to 19x19, not Little-Go's count); elsewhere it says so
once and judges nothing. No pyglet here.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from gorilla.ai.agent import Budget
from gorilla.app.feed import Feed
from gorilla.app.go.report import CLASS_NAMES, THRESHOLDS, move_class
from gorilla.app.go.review import Key, PositionEval, evaluate_position, line_keys, make_agent, move_review
from gorilla.app.players import Players
from gorilla.app.record import Record
from gorilla.app.referee import COLOR_NAME
from gorilla.app.tasks import Task, Workers
from gorilla.rules.board import BLACK, RESIGN, WHITE
from gorilla.rules.coords import GTP_LETTERS, format_vertex
from gorilla.rules.game import Game

TAKE_BACK = 3.0  # points lost from which a move is always taken back (0: never)
CHANCES = (0.0, 0.0, 0.5, 1.0, 1.0, 1.0)  # each class's chance of a take-back below TAKE_BACK
DOTS = 20  # the last moves whose judgement shows as a dot (0: none)
SIDES = ("off", "human", "black", "white", "both")  # --teach and the new-game form's Teaching row


def default_visits(size: int) -> int:
    """The search per position of a judgement when the settings name none: fewer on big boards,
    so that the judgement is on screen within a second on 9x9 and two on 19x19 on two cores
    (``benchmarks/teaching.py`` measures it)."""
    return 200 if size <= 13 else 100


WINDOW_HINT = "the pointer on it shows the net's answer"  # the take-back's hint in the window


@dataclass(frozen=True)
class TeachSettings:
    """The teacher's settings (the ``teaching`` object of the settings file)."""

    thresholds: tuple[float, ...] = THRESHOLDS
    take_back: float = TAKE_BACK
    chances: tuple[float, ...] = CHANCES
    dots: int = DOTS
    visits: int = 0  # per position; 0: default_visits(size)

    @classmethod
    def from_dict(cls, data: Any) -> tuple[TeachSettings, str | None]:
        """Settings from the settings file's object: (settings, None), or the defaults and one line
        saying what was wrong."""
        if not isinstance(data, dict):
            return cls(), "teaching: not an object; using the defaults"
        try:
            thresholds = tuple(float(x) for x in data.get("thresholds", THRESHOLDS))
            chances = tuple(float(x) for x in data.get("chances", CHANCES))
            out = cls(
                thresholds,
                float(data.get("take_back", TAKE_BACK)),
                chances,
                int(data.get("dots", DOTS)),
                int(data.get("visits", 0)),
            )
        except (TypeError, ValueError) as e:
            return cls(), f"teaching: {e}; using the defaults"
        problem = out.problem()
        return (cls(), f"teaching: {problem}; using the defaults") if problem else (out, None)

    def problem(self) -> str | None:
        """What makes these settings unusable, or None."""
        t = self.thresholds
        if not t or any(b <= a for a, b in zip(t, t[1:], strict=False)) or t[0] <= 0:
            return "thresholds must be positive and increasing"
        if len(self.chances) != len(t) + 1 or any(not 0 <= c <= 1 for c in self.chances):
            return f"chances must be {len(t) + 1} numbers from 0 to 1, one a class"
        if self.take_back < 0 or self.dots < 0 or self.visits < 0:
            return "take_back, dots and visits must not be negative"
        return None

    def to_dict(self) -> dict[str, Any]:
        """The settings as the settings file keeps them."""
        return {
            "thresholds": list(self.thresholds),
            "take_back": self.take_back,
            "chances": list(self.chances),
            "dots": self.dots,
            "visits": self.visits,
        }

    def grade(self, lost: float) -> int:
        """The class of a move that lost this many points: 0 (under the first threshold) .. 5."""
        return move_class(lost, self.thresholds)


@dataclass
class Judgement:
    """One judged move: its number, colour and point, the points it lost, its class, the search's
    best move before it, the refutation (the best line after it, the opponent first), whether it
    was taken back, the seconds from the move to the judgement on screen and the CPU seconds
    its searches took after the move (on their thread)."""

    number: int
    color: int
    move: int
    lost: float
    grade: int
    best: int
    refutation: list[int]
    taken_back: bool = False
    delay: float = 0.0
    cpu: float = 0.0

    def text(self, size: int, letters: str = GTP_LETTERS) -> str:
        """The judgement as one line: 'Move 23 (Black D4): lost 1.2 points, an inaccuracy; best C3'."""
        where = format_vertex(self.move, size, letters)
        head = f"Move {self.number} ({COLOR_NAME[self.color]} {where})"
        if self.move == self.best:
            return f"{head}: the net's first choice"
        best = format_vertex(self.best, size, letters)
        return f"{head}: lost {self.lost:.1f} points ({CLASS_NAMES[self.grade]}); best {best}"

    def try_again(self, size: int, letters: str = GTP_LETTERS, hint: str = "") -> str:
        """The take-back's line: the move, what it lost, try again, and a hint after it (the
        window: where the refutation shows; the terminal: the refutation itself)."""
        where = format_vertex(self.move, size, letters)
        line = f"Move {self.number} {where} lost {self.lost:.1f} points: try again"
        return f"{line} ({hint})" if hint else line

    def answer(self, size: int, letters: str = GTP_LETTERS, most: int = 5) -> str:
        """The refutation's first moves in words ('the net's answer: Q3 C3 F16'; '' without one)."""
        moves = " ".join(format_vertex(p, size, letters) for p in self.refutation[:most])
        return f"the net's answer: {moves}" if moves else ""


@dataclass
class Marks:
    """What the board shows of the teaching at the position on the board: ``dots`` (point,
    class) on the judged stones of the last moves, and ``ghost``, the move taken back here."""

    dots: list[tuple[int, int]] = field(default_factory=list)
    ghost: Judgement | None = None


@dataclass
class _Job:
    """A move waiting for its judgement: the keys of the positions before and after it."""

    before: Key
    after: Key
    number: int
    color: int
    move: int
    hold: bool  # a take-back is possible: the AI's reply waits
    played_at: float
    task: Task | None = None


class TeacherHost(Protocol):
    """What :class:`Teacher` asks of the controller."""

    def take_back(self) -> bool:
        """Take back the last move (the human's, judged bad)."""
        ...


def position_key(game: Game) -> Key:
    """The key of game's position (the review's keys: :func:`gorilla.app.go.review.line_keys`)."""
    return line_keys(game)[len(game.moves)]


def taught_sides(teach: str, human: Callable[[int], bool]) -> set[int]:
    """The colours a --teach value (:data:`SIDES`) teaches: 'human' is every human side."""
    if teach not in SIDES:
        raise ValueError(f"teach must be one of {', '.join(SIDES)}, got '{teach}'")
    if teach == "human":
        return {c for c in (BLACK, WHITE) if human(c)}
    return {"off": set(), "black": {BLACK}, "white": {WHITE}, "both": {BLACK, WHITE}}[teach]


class Teacher:
    """The teaching game as a part (see the module docstring): which sides it teaches, the
    judgements and take-backs, the lines for the terminal (``news``)."""

    def __init__(
        self,
        parts: tuple[Record, Players, Workers, Feed],
        host: TeacherHost,
        ready: Callable[..., bool],
        settings: TeachSettings | None = None,
        seed: int | None = None,
    ) -> None:
        self.record, self.seats, self.workers, self.feed = parts
        self.host = host
        self.ready = ready
        self.settings = settings or TeachSettings()
        self.sides: set[int] = set()
        self.cache: dict[Key, PositionEval] = {}  # searched positions
        self.judged: dict[Key, Judgement] = {}  # by the key of the position after the move
        self.ghosts: dict[Key, Judgement] = {}  # the move taken back, by the key of the position before
        self.news: list[Judgement] = []  # judgements the terminal has not printed yet
        self.jobs: list[_Job] = []  # played moves waiting for their judgement, oldest first
        self.rng = random.Random(seed)
        self._agent: Any = None
        self._last: Task | None = None  # the teacher's last task: the next one waits for it
        self._said_no_net = False
        self._marks: tuple[tuple[int, int], Marks] | None = None

    # --- which sides ----------------------------------------------------------------------------
    def teach(self, teach: str) -> set[int]:
        """Teach the sides a --teach value names (:data:`SIDES`); the colours taught."""
        self.sides = taught_sides(teach, self.seats.is_human)
        self.feed.touch()
        return self.sides

    def choice(self) -> str:
        """The sides taught as the new-game form's Teaching row names them."""
        return {0: "off", 2: "both"}.get(len(self.sides), "black" if BLACK in self.sides else "white")

    def teaches(self, color: int) -> bool:
        """Whether color's moves are judged: taught, and played by a human."""
        return color in self.sides and self.seats.is_human(color)

    def groups(self) -> tuple[str, ...]:
        """The kernel groups the teacher needs: the net's, while it teaches."""
        return ("net",) if self.sides else ()

    def _usable(self, game: Game) -> bool:
        from gorilla.ai.puct.evaluator import supports

        if supports(game):
            return True
        if not self._said_no_net:
            self._said_no_net = True
            self.feed.say("Teaching needs the net: boards of 7x7 to 19x19, not Little-Go")
        return False

    # --- the moves -----------------------------------------------------------------------------
    def played(self, game: Game, color: int) -> None:
        """A human has just played on game (the controller calls it after the move): judge the
        move when color is taught."""
        last = game.last_move
        if not self.teaches(color) or last is None or last.point == RESIGN or not self._usable(game):
            return
        if not self.ready("net"):
            self.feed.say("Teaching: the net is still loading; this move is not judged")
            return
        keys = line_keys(game)[: len(game.moves) + 1]
        before = keys[-2]
        hold = self.settings.take_back > 0 and before not in self.ghosts
        job = _Job(before, keys[-1], len(game.moves), color, last.point, hold, time.monotonic())
        snap = game.copy()
        snap.redo_stack = []
        job.task = self._launch(snap, job)
        self.jobs.append(job)

    def holding(self) -> bool:
        """Whether the AI's reply waits for a judgement (a take-back is possible)."""
        return any(j.hold for j in self.jobs)

    @property
    def judging(self) -> bool:
        """Whether a played move waits for its judgement."""
        return bool(self.jobs)

    def tick(self, game: Game) -> None:
        """Every frame: the finished judgements shown (a move taken back when due); while a
        taught human thinks, the position searched ahead (the pre-judgement)."""
        self.workers.finished("teach")  # the slot is free once its task is done
        # a cancelled job (undo, navigation, a new game) shows nothing
        self.jobs = [j for j in self.jobs if j.task is not None and not j.task.cancel.is_set()]
        while self.jobs and self.jobs[0].task is not None and self.jobs[0].task.done.is_set():
            job = self.jobs.pop(0)
            self._judged(job.task, job)
        if self.workers.get("teach") is None and not self.jobs:
            self._prejudge(game)

    def _prejudge(self, game: Game) -> None:
        if game.over or not self.teaches(game.to_move) or not self.ready("net"):
            return
        if self.record.editing or self.record.reviewing:
            return  # a record stepped through: a move played here is judged from scratch
        if not self._usable(game):
            return
        key = position_key(game)
        if key in self.cache:
            return
        snap = game.copy()
        snap.redo_stack = []
        self._launch(snap, None)

    # --- the search ------------------------------------------------------------------------------
    def _budget(self, game: Game) -> Budget:
        return Budget(playouts=self.settings.visits or default_visits(game.size))

    def _launch(self, game: Game, job: _Job | None) -> Task:
        """A lasting task: the position before the move (or, without a job, the position on the
        board) then the position after it, each into the cache; it waits for the previous task
        (one agent, one tree)."""
        prev, budget = self._last, self._budget(game)
        keys = line_keys(game)[: len(game.moves) + 1]

        def run(cancel: threading.Event) -> tuple[PositionEval | None, PositionEval | None, float]:
            if prev is not None:
                prev.done.wait()
            cpu = time.thread_time()
            if self._agent is None:
                self._agent = make_agent(1, None, "net")
            if job is None:
                return self._search(game, keys[-1], budget, cancel), None, 0.0
            before = game.copy()
            before.undo()
            first = self._search(before, keys[-2], budget, cancel)
            second = self._search(game, keys[-1], budget, cancel)
            return first, second, time.thread_time() - cpu

        task = self.workers.task("teach", run, lasting=True)
        self._last = task
        self.workers.launch(task)
        return task

    def _search(self, game: Game, key: Key, budget: Budget, cancel: threading.Event) -> PositionEval | None:
        ev = self.cache.get(key)
        if ev is None and not cancel.is_set():
            ev = evaluate_position(game, self._agent, budget, cancel)
            if ev is not None and not cancel.is_set():
                self.cache[key] = ev
        return ev

    # --- the judgement ---------------------------------------------------------------------------
    def _judged(self, task: Task | None, job: _Job) -> None:
        size = self.record.game.size
        if task is None:
            return
        if task.error is not None:
            self.feed.say(f"Teaching: the judgement failed: {task.error}")
            return
        before, after, cpu = task.result
        if before is None or after is None:
            return
        rev = move_review(job.number, job.color, job.move, before, after)
        grade = self.settings.grade(rev.points_lost)
        j = Judgement(
            job.number, job.color, job.move, rev.points_lost, grade, before.best, list(after.pv),
            delay=time.monotonic() - job.played_at, cpu=cpu,
        )  # fmt: skip
        self.judged[job.after] = j
        self._marks = None
        if job.hold and self._take_back_due(j) and self._last_key() == job.after and self.host.take_back():
            j.taken_back = True
            self.ghosts[job.before] = j
            line = j.try_again(size, hint=WINDOW_HINT if j.refutation else "")
        else:
            line = j.text(size)
        self.news.append(j)
        self.feed.say(line)

    def _take_back_due(self, j: Judgement) -> bool:
        s = self.settings
        if j.lost >= s.take_back:
            return True
        chance = s.chances[j.grade] if j.grade < len(s.chances) else 0.0
        return chance > 0 and self.rng.random() < chance

    def _last_key(self) -> Key | None:
        game = self.record.game
        return position_key(game) if game.moves else None

    def drain(self) -> list[Judgement]:
        """The judgements since the last call (the terminal prints them)."""
        out, self.news = self.news, []
        return out

    # --- what the board shows --------------------------------------------------------------------
    def marks(self, version: int) -> Marks | None:
        """The dots and the ghost of the position on the board (None while nothing is taught and
        nothing was judged); cached per version of the feed."""
        if not self.judged and not self.ghosts:
            return None
        if self._marks is not None and self._marks[0] == (version, len(self.judged)):
            return self._marks[1]
        game = self.record.game
        keys = line_keys(game)[: len(game.moves) + 1]
        marks = Marks(ghost=self.ghosts.get(keys[-1]))
        n = self.settings.dots
        pos = game.position
        for i in range(max(0, len(game.moves) - n), len(game.moves)):
            j = self.judged.get(keys[i + 1])
            m = game.moves[i]
            if j is not None and m.point >= 0 and pos.color_at(m.point) == m.color:
                marks.dots.append((m.point, j.grade))
        self._marks = ((version, len(self.judged)), marks)
        return marks

    def new_game(self) -> None:
        """A new game: no judgement waits, the last game's dots and ghosts go (the searched
        positions stay)."""
        self.jobs = []
        self.judged = {}
        self.ghosts = {}
        self._marks = None
        self._said_no_net = False

    def close(self) -> None:
        """Wait briefly for the last task, then close the agent."""
        if self._last is not None:
            self._last.cancel.set()
            self._last.thread.join(1.0)
        if self._agent is not None:
            self._agent.close()
