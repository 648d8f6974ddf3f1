"""Analysis of the position shown (KaTrain's continuous analysis, Lizzie's pondering) as a
controller part.

While the live view is on (``v``, :attr:`gorilla.app.feed.Feed.show_thinking`) the net's
search thinks on the position on the board whenever no AI is to move: a human's turn, a
record stepped through, the game over. The controller asks :meth:`Ponder.due` every frame and
starts it on the position shown; any change of the game (a move, a step, a new game) cancels
the task like every other (within one batch of the search), and the next frame starts it on
the new position. Before an AI's search starts the controller stops it and waits for its last
batch (:meth:`Ponder.winding_down`), so no AI shares the cores with it.

Each position keeps its own tree (:class:`gorilla.ai.puct.search.Search`, the net agent's
search; the last :data:`KEPT_TREES` positions, each up to :func:`max_visits`): a position that
comes back (undo, stepping back and forth) goes on from its tree. The search publishes a
snapshot (:class:`PonderView`: the root's candidates with their visits, win rate, score lead
and line) every :data:`PUBLISH_EVERY` seconds; the window draws it (``ponder_view()``). Only
where the net plays (7x7..19x19, not Little-Go). No pyglet here.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from gorilla.ai.agent import Candidate
from gorilla.app.feed import Feed
from gorilla.app.go.review import Key
from gorilla.app.tasks import Task, Workers
from gorilla.rules.game import Game

PUBLISH_EVERY = 0.25  # seconds between the snapshots the window draws
KEPT_TREES = 3  # positions whose trees are kept
MAX_VISITS_19 = 4000  # a 19x19 tree's visits where the analysis stops (about 20 kB a node)


def max_visits(size: int) -> int:
    """The visits where the analysis of a position stops: 4000 on 19x19, more on smaller boards
    (a node's arrays shrink with the board), at most 20000."""
    return min(20000, MAX_VISITS_19 * 361 // max(1, size * size))


@dataclass
class PonderView:
    """One snapshot of the analysis of a position: its key, the side to move, the root's
    candidates (most visited first), its visits, win rate and score lead for the side to move,
    and the visits per second of the run that made it."""

    key: Key
    to_move: int
    candidates: list[Candidate] = field(default_factory=list)
    visits: int = 0
    winrate: float = 0.5
    lead: float = 0.0
    rate: float = 0.0


def candidates(search: Any) -> list[Candidate]:
    """The root's children with visits as candidates (the net agent's order)."""
    info = search.root_info()
    return [
        Candidate(
            move=info.moves[k], visits=info.visits[k], winrate=info.winrate[k], score=info.lead[k],
            prior=info.prior[k], pv=info.pvs[k], utility=info.utility[k],
        )
        for k in range(len(info.moves))
    ]  # fmt: skip


class Ponder:
    """The analysis of the position shown (see the module docstring)."""

    def __init__(self, workers: Workers, feed: Feed, threads: int = 1) -> None:
        self.workers = workers
        self.feed = feed
        self.threads = max(1, int(threads))
        self.trees: OrderedDict[Key, Any] = OrderedDict()
        self.views: dict[Key, PonderView] = {}  # the latest snapshot of each kept tree
        self.rounds = 0  # search rounds (batches) run over every run: none while an AI thinks
        self._lock = threading.Lock()
        self._last: Task | None = None  # the last run: the next waits for it (one tree, one thread)
        self._evaluator: Any = None
        self._waited: Task | None = None  # the last run stop() waited for
        self._seq = 0  # snapshots published
        self._seen = 0

    @property
    def on(self) -> bool:
        """Whether the live view (``v``) is on."""
        return self.feed.show_thinking

    @property
    def running(self) -> bool:
        """Whether a run is searching now."""
        return self.workers.get("ponder") is not None

    def due(self, game: Game, key: Key) -> bool:
        """Whether a run should start on game (its position's key): on, none running, the net
        plays the board, and the position's tree not yet full."""
        if not self.on or self.running or self.winding_down():
            return False
        if game.over and game.end_reason not in ("passes", "resign"):
            return False  # the move cap: nothing to play on
        from gorilla.ai.puct.evaluator import supports

        if not supports(game):
            return False
        tree = self.trees.get(key)
        return tree is None or tree.root.visits < max_visits(game.size)

    def start(self, game: Game, key: Key) -> Task:
        """Search game's position on a worker thread until it is stopped or its tree is full."""
        snap = game.reopened().copy()  # after two passes or a resignation: as if play went on
        snap.redo_stack = []
        prev = self._last

        def run(cancel: threading.Event) -> int:
            if prev is not None:
                prev.done.wait()
            return self._run(snap, key, cancel)

        task = self.workers.task("ponder", run, background=True)
        self._last = task
        return self.workers.launch(task)

    def _tree(self, game: Game, key: Key) -> Any:
        """The position's tree (made, or brought to the front of the kept ones)."""
        from gorilla.ai.puct.evaluator import NetEvaluator
        from gorilla.ai.puct.search import Search

        with self._lock:
            if self._evaluator is None:
                self._evaluator = NetEvaluator()
            tree = self.trees.pop(key, None) or Search(self._evaluator)
            self.trees[key] = tree
            while len(self.trees) > KEPT_TREES:
                old, _ = self.trees.popitem(last=False)
                self.views.pop(old, None)
        tree.set_game(game)  # the same position: its root stays
        return tree

    def _run(self, game: Game, key: Key, cancel: threading.Event) -> int:
        search = self._tree(game, key)
        t0 = time.perf_counter()
        start = search.root.visits
        last = [t0]

        def publish() -> None:
            now = time.perf_counter()
            wr, lead, _ = search.root_value()
            added = search.root.visits - start
            self.views[key] = PonderView(
                key, game.to_move, candidates(search), search.root.visits, wr, lead,
                added / max(1e-6, now - t0),
            )  # fmt: skip
            self._seq += 1

        def on_round() -> None:
            self.rounds += 1
            now = time.perf_counter()
            if now - last[0] >= PUBLISH_EVERY:
                last[0] = now
                publish()

        added = search.run(
            visits=max_visits(game.size), cancel=cancel, threads=self.threads, on_round=on_round
        )
        publish()
        return added

    def stop(self, wait: float = 0.0) -> None:
        """Stop the run (an AI is about to think), and wait up to ``wait`` seconds for its last
        batch to return (so that the AI can start in the same frame; once a run)."""
        self.workers.cancel("ponder")
        t = self._last
        if wait > 0 and t is not None and t.alive() and t is not self._waited:
            self._waited = t  # once a run: a later frame does not block again
            t.thread.join(wait)

    def winding_down(self) -> bool:
        """Whether a stopped run has not returned yet (an AI waits for it: at most one batch)."""
        t = self._last
        return t is not None and t.cancel.is_set() and t.alive()

    def poll(self) -> None:
        """Every frame: a new snapshot redraws; a finished run frees its slot."""
        if self._seq != self._seen:
            self._seen = self._seq
            self.feed.touch()
        self.workers.finished("ponder")

    def shown(self, key: Key) -> PonderView | None:
        """The latest snapshot of the position with that key, while the view is on."""
        return self.views.get(key) if self.on else None
