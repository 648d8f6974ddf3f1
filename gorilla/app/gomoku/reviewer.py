"""How Gomoku reviews its record (:class:`gorilla.app.kind.Reviewer`, for the shared
:class:`gorilla.app.analysis.Analysis`): ``g`` analyses every move of the game
(:func:`gorilla.app.gomoku.analysis.analyse`, on a thread of its own: moving through the game
does not stop it) and ``n`` / Shift+``n`` jump to the next or previous mistake.

The results belong to the line analysed: a move's note (its win rates, the best move and line,
the win rate lost) shows and is saved only while the game on the board follows that line up to
the move, as a loaded record's comments do.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from gorilla.app.analysis import no_mistake_hint
from gorilla.app.gomoku import analysis as ga
from gorilla.app.gomoku.view import GomokuView, to_view
from gorilla.app.status_text import counted
from gorilla.app.tasks import Task
from gorilla.gomoku import rules as R
from gorilla.gomoku.game import GomokuGame

if TYPE_CHECKING:
    from gorilla.app.record import Record


def whole_moves(view: GomokuView) -> list[int]:
    """The whole game's points: the stones on the board, then the ones taken back."""
    return [p for p, _ in view.gomoku.moves] + [p for p, _ in reversed(view.redo_stack)]


def shared_moves(a: list[int], b: list[int]) -> int:
    """How many first points two lines of moves have in common."""
    n = 0
    for p, q in zip(a, b, strict=False):
        if p != q:
            break
        n += 1
    return n


SECONDS = 1.0  # the search's time a position
THRESHOLDS = (ga.INACCURACY, ga.MISTAKE, ga.BLUNDER)  # Alt+n's choices: the win rate lost that n finds


@dataclass
class Curve:
    """The analysis graph as plain values for the window: Black's win rate by position number,
    the mistakes (move number, win rate lost in %), the current move, the line's length, the
    progress, the thresholds (in %) and the current move's line of text."""

    points: list[tuple[int, float]] = field(default_factory=list)
    mistakes: list[tuple[int, float]] = field(default_factory=list)
    current: int = 0
    total: int = 0
    running: bool = False
    fraction: float = 0.0
    threshold: float = 100 * ga.MISTAKE
    blunder: float = 100 * ga.BLUNDER
    info: str = ""


class GomokuReview:
    """The analysis of one line of a Gomoku game and its results (see the module docstring).

    ``ready()`` says whether the search's kernels can run now; ``labels()`` are the seats'
    names, the report's where the record names no player."""

    def __init__(
        self,
        seconds: float = SECONDS,
        ready: Callable[[], bool] = lambda: True,
        labels: Callable[[], dict[int, str]] = dict,
    ) -> None:
        self.seconds = seconds
        self.ready = ready
        self.labels = labels
        self.task: Task | None = None
        self.progress = (0, 0)  # positions done, positions in all
        self._lock = threading.Lock()
        self.version = 0  # bumps with the progress and the results
        self.threshold = ga.MISTAKE  # the win rate lost from which n stops at a move and the graph marks it
        self.forget()

    def forget(self) -> None:
        """Another game: the analysis stops and its results go."""
        self.cancel()
        self.moves: list[int] = []  # the analysed line's points
        self.reviews: list[ga.MoveReview] = []
        self.report = ""
        self.show_dots = False  # d: the analysed stones' dots (on once an analysis starts)

    @property
    def running(self) -> bool:
        """Whether an analysis runs."""
        return self.task is not None and not self.task.done.is_set()

    def refuses(self, record: Record) -> str | None:
        """An empty board has nothing to analyse; the search's parts may still compile."""
        if not record.game.gomoku.moves:
            return "No moves to analyse"
        if not self.ready():
            return "The analysis waits for the search's parts (they are compiling)"
        return None

    def groups(self, record: Record) -> tuple[str, ...]:
        """None to wait for (:meth:`refuses` says when the search is not loaded)."""
        return ()

    def begin(self, record: Record) -> str:
        """Analyse the whole game (the moves taken back included) on a thread of its own."""
        black, white = record.book.players(self.labels())
        self.analyse(record.game.whole(), {R.BLACK: black, R.WHITE: white})
        return f"Analysing the game ({self.seconds:g} s a position; g cancels)"

    def analyse(self, game: GomokuGame, names: dict[int, str]) -> None:
        """Analyse game's moves (a copy is taken) on a thread; :meth:`poll` takes the results."""
        line = game.copy()
        self.progress = (0, len(line.moves) + 1)

        def step(done: int, total: int) -> None:
            with self._lock:
                self.progress = (done, total)
                self.version += 1

        def run(cancel: threading.Event) -> tuple:
            revs = ga.analyse(line, self.seconds, progress=step, cancel=cancel)
            return line, revs, ga.report_text(revs, line, names, self.seconds)

        self.task = Task("analyse", 0, run).start()
        self.show_dots = True

    def cancel(self) -> None:
        """Stop the analysis (the results of an earlier one stay)."""
        if self.task is not None:
            self.task.cancel.set()
            self.task = None

    def stop(self) -> str:
        """Stop the analysis (g again); the panel's line."""
        self.cancel()
        return "Cancelled the analysis"

    def close(self) -> None:
        """Stop the analysis for good."""
        self.cancel()

    def poll(self) -> str | None:
        """Take a finished analysis's results; a line for the panel then, else None."""
        task = self.task
        if task is None or not task.done.is_set():
            return None
        self.task, self.version = None, self.version + 1
        if task.error is not None or task.cancel.is_set():
            return None if task.error is None else f"The analysis failed: {task.error}"
        line, self.reviews, self.report = task.result
        self.moves = [p for p, _ in line.moves]
        bad = [r for r in self.reviews if r.grade in ("mistake", "blunder")]
        found = f"{len(bad)} {'mistake or blunder' if len(bad) == 1 else 'mistakes or blunders'}"
        return f"Analysed {counted(len(self.reviews), 'move')}: {found} (n: the next one)"

    def mistake(self, record: Record, step: int) -> tuple[int, str] | str:
        """The next or previous analysed move that lost the threshold in win rate or more."""
        view: GomokuView = record.game
        g = view.gomoku
        moves = whole_moves(view)
        r = self.next_mistake(moves, len(g.moves), step)
        if r is None:
            way = "after" if step > 0 else "before"
            back = self.next_mistake(moves, len(g.moves), -step)
            hint = no_mistake_hint(bool(self._shared(moves)), back is not None, step)
            return f"No analysed move losing {100 * self.threshold:g}%+ {way} this move{hint}"
        best = ga.point_name(g, r.best) if r.best >= 0 else "?"
        return r.number, f"Move {r.number}: lost {100 * r.lost:.0f}% ({r.grade}), best {best}"

    def graph(self, view: GomokuView) -> Curve:
        """The analysis graph's values along the whole game, the move shown the current one."""
        return self.curve(view.gomoku, whole_moves(view))

    def dots_on(self, view: GomokuView) -> list[tuple[int, float]]:
        """(window point, win rate lost) of each analysed stone on the board, while the dots are on."""
        if not self.show_dots:
            return []
        g = view.gomoku
        return [(to_view(g, p), lost) for p, lost in self.dots(whole_moves(view), len(g.moves))]

    def best_on(self, view: GomokuView) -> int | None:
        """The better move (window point) for the move shown, while the dots are on: the
        analysis's best in the position before it, as Go's review and KaTrain mark it (the
        move played and the one it should have been, together); None at the start, where the
        position before was not analysed, or where the move played was the best."""
        g = view.gomoku
        n = len(g.moves)
        if not self.show_dots or n == 0:
            return None
        moves = whole_moves(view)
        best = self.best(moves, n - 1)
        return None if best is None or best == moves[n - 1] else to_view(g, best)

    def _follows(self, moves: list[int]) -> int:
        """How many of moves' first points are the analysed line's."""
        return shared_moves(moves, self.moves)

    def _shared(self, moves: list[int]) -> list[ga.MoveReview]:
        """The analysed moves that moves (a game's points) shares with the line."""
        same = self._follows(moves)
        return [r for r in self.reviews if r.number <= same]

    def next_threshold(self) -> str:
        """The next threshold of THRESHOLDS for n / Shift+n and the graph's marks; the panel's line."""
        later = [t for t in THRESHOLDS if t > self.threshold + 1e-9]
        self.threshold = later[0] if later else THRESHOLDS[0]
        return f"Mistakes: {100 * self.threshold:g}+% win rate lost"

    def _marked(self, reviews: list[ga.MoveReview]) -> list[ga.MoveReview]:
        return [r for r in reviews if r.lost >= self.threshold - 1e-9]

    def dots(self, moves: list[int], shown: int) -> list[tuple[int, float]]:
        """(point, win rate lost) of each analysed move among the first shown of moves (the
        whole game's points; shown: the moves on the board) that moves shares with the line, a
        Swap2 opening's stones left out (not graded)."""
        return [(r.move, r.lost) for r in self._shared(moves) if r.number <= shown and not r.opening]

    def best(self, moves: list[int], shown: int) -> int | None:
        """The analysis's best move in the position after the first shown of moves, when moves
        follows the line that far and the position was analysed; else None."""
        if shown >= len(self.reviews) or self._follows(moves) < shown:
            return None
        best = self.reviews[shown].best
        return best if best >= 0 else None

    def note(self, game: GomokuGame, moves: list[int]) -> str:
        """The analysis of moves' last move when moves follows the line ('' otherwise)."""
        n = len(moves)
        if n == 0 or n > len(self.reviews) or self._follows(moves) < n:
            return ""
        return self.reviews[n - 1].comment(game)

    def annotate(
        self, game: GomokuGame, comments: dict[int, str], marks: dict[int, dict[str, list[str]]]
    ) -> tuple[dict[int, str], dict[int, dict[str, list[str]]], str]:
        """A record's comments and marks with the analysis of the moves game shares with the
        line (:func:`gorilla.app.gomoku.analysis.annotate`), and the report ('' when none)."""
        shared = self._shared([p for p, _ in game.moves])
        if not shared:
            return comments, marks, ""
        notes, graded = ga.comments(shared, game), ga.grades(shared)
        return (*ga.annotate(comments, marks, notes, graded), self.report)

    def curve(self, game: GomokuGame, moves: list[int]) -> Curve:
        """The graph of the analysis along moves (the whole game's points; game: the position
        shown, its move the current one): the positions that moves shares with the line."""
        shared = self._shared(moves)
        done, total = self.progress
        out = Curve(current=len(game.moves), total=len(moves), running=self.running)
        out.threshold = 100 * self.threshold
        out.fraction = done / total if self.running and total else 0.0
        if not shared:
            return out
        out.points = [(0, shared[0].winrate_before)] + [(r.number, r.winrate_after) for r in shared]
        out.mistakes = [(r.number, 100 * r.lost) for r in self._marked(shared)]
        here = next((r for r in shared if r.number == out.current), None)
        if here is not None:
            who = ga.COLOR_NAME[here.color][0]
            line = " ".join(ga.point_name(game, p) for p in here.pv[:6])
            out.info = (
                f"{here.number}. {who} {ga.point_name(game, here.move)} lost {100 * here.lost:.0f}%"
                f"  Black {100 * here.winrate_after:.0f}%\nbest {line}"
            )
        return out

    def next_mistake(self, moves: list[int], current: int, step: int) -> ga.MoveReview | None:
        """The next (step 1) or previous (-1) move of the line from move current that lost the
        threshold or more, among the moves that moves shares with the line (moves: the whole
        game's points)."""
        bad = self._marked(self._shared(moves))
        if step > 0:
            return next((r for r in bad if r.number > current), None)
        return next((r for r in reversed(bad) if r.number < current), None)
