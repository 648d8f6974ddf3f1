"""Background work of the controllers: one computation on a daemon thread with a cancel flag
(:class:`Task`), and the part that schedules them (:class:`Workers`)."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from typing import Any

BACKGROUND_NICE = 10  # how much lower a background task's thread runs (Linux's nice steps)


def yield_the_cpu() -> None:
    """Lower the calling thread's scheduling priority (Linux: one thread's nice value; its own
    threads inherit it), so that a background search takes only the CPU time the window's drawing
    (and the software renderer's threads) leaves; elsewhere nothing changes."""
    native = getattr(threading, "get_native_id", None)
    if native is None or not hasattr(os, "setpriority"):
        return
    try:
        tid = native()
        os.setpriority(os.PRIO_PROCESS, tid, os.getpriority(os.PRIO_PROCESS, tid) + BACKGROUND_NICE)
    except OSError:
        pass


class Task:
    """One background computation with its cancel flag, generation and result."""

    def __init__(self, kind: str, gen: int, fn: Callable[[threading.Event], Any], **data: Any) -> None:
        self.kind = kind
        self.gen = gen
        self.data = data
        # lasting: a change of the game does not cancel it (its result is keyed by positions, not
        # by the generation: the teacher's judgement); background: wait() does not wait for it
        # (the analysis of the position shown, which runs until it is stopped)
        self.lasting = bool(data.pop("lasting", False))
        self.background = bool(data.pop("background", False))
        self.cancel = threading.Event()
        self.done = threading.Event()
        self.result: Any = None
        self.error: BaseException | None = None
        self.started = time.monotonic()
        self.thread = threading.Thread(target=self._run, args=(fn,), daemon=True, name=f"gorilla-{kind}")

    def _run(self, fn: Callable[[threading.Event], Any]) -> None:
        if self.background:
            yield_the_cpu()
        try:
            self.result = fn(self.cancel)
        except BaseException as e:  # reported on the GUI thread
            self.error = e
        finally:
            self.done.set()

    def start(self) -> Task:
        """Start the thread; returns self."""
        self.thread.start()
        return self

    def alive(self) -> bool:
        """Whether the computation is still running (also after a cancel, until it returns)."""
        return self.thread.is_alive()


class Workers:
    """A controller's background tasks as a part: one slot per kind ('ai', 'eval', 'dead'), the
    generation of the game they were started on (it bumps whenever the game changes, and a
    result of an older generation is never applied), and the cancelled tasks still winding down.

    Results are taken on the GUI thread only: :meth:`finished` hands over the tasks that are
    done, and :meth:`fresh` says whether one still belongs to the game on the board.
    """

    def __init__(self) -> None:
        self.slots: dict[str, Task] = {}
        self.retired: list[Task] = []  # cancelled tasks still returning
        self.gen = 0

    def get(self, kind: str) -> Task | None:
        """The task of kind running now (or done and not yet handed over), if any."""
        return self.slots.get(kind)

    @property
    def thinking(self) -> bool:
        """Whether an AI searches its move now."""
        return "ai" in self.slots

    @property
    def evaluating(self) -> bool:
        """Whether the evaluator (``e``) runs."""
        return "eval" in self.slots

    @property
    def current_ai_task(self) -> Task | None:
        """The AI move being searched now, if any."""
        return self.slots.get("ai")

    def task(self, kind: str, fn: Callable[[threading.Event], Any], **data: Any) -> Task:
        """A task of kind for the game of now (start it with :meth:`launch`)."""
        return Task(kind, self.gen, fn, **data)

    def launch(self, task: Task) -> Task:
        """Put task in its slot and start it; returns it. A task of the kind still running there
        goes among the retired (it returns on its own)."""
        old = self.slots.get(task.kind)
        if old is not None and old.alive():
            self.retired.append(old)
        self.slots[task.kind] = task
        return task.start()

    def current(self, task: Task) -> bool:
        """Whether task is still its slot's task and not cancelled (its progress may show)."""
        return self.slots.get(task.kind) is task and not task.cancel.is_set()

    def fresh(self, task: Task) -> bool:
        """Whether a finished task's result belongs to the game on the board."""
        return task.gen == self.gen and not task.cancel.is_set()

    def cancel(self, kind: str) -> None:
        """Cancel the task of kind (it winds down among the retired)."""
        task = self.slots.pop(kind, None)
        if task is not None:
            task.cancel.set()
            if task.alive():
                self.retired.append(task)

    def cancel_all(self) -> None:
        """Cancel every task."""
        for kind in list(self.slots):
            self.cancel(kind)

    def changed(self) -> None:
        """The game changed: a new generation, and every task cancelled but the lasting ones."""
        self.gen += 1
        for kind in [k for k, t in self.slots.items() if not t.lasting]:
            self.cancel(kind)

    def finished(self, kind: str) -> Task | None:
        """The task of kind if it is done (taken out of its slot), else None."""
        task = self.slots.get(kind)
        if task is None or not task.done.is_set():
            return None
        del self.slots[kind]
        return task

    def prune(self) -> None:
        """Forget the retired tasks that have returned."""
        self.retired = [t for t in self.retired if t.alive()]

    def winding_down(self, agent: Any) -> bool:
        """Whether a cancelled search of agent has not returned yet."""
        return any(t.data.get("agent") is agent for t in self.retired)

    def wait(self, poll: Callable[[], None], timeout: float | None = None) -> bool:
        """Block until the tasks running now (or started by a poll() now) finish, then poll();
        False on timeout."""
        deadline = None if timeout is None else time.monotonic() + timeout
        if not self.slots:
            poll()
        for t in [t for t in self.slots.values() if not t.background]:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            if not t.done.wait(left):
                return False
        poll()
        return True

    def close(self) -> None:
        """Cancel every task and give each half a second to return."""
        tasks = [*self.slots.values(), *self.retired]
        self.gen += 1
        self.slots = {}
        for t in tasks:
            t.cancel.set()
        for t in tasks:
            t.thread.join(0.5)
        self.retired = []
