"""Background work of the controller: one computation on a daemon thread, with a cancel flag."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any


class Task:
    """One background computation with its cancel flag, generation and result."""

    def __init__(self, kind: str, gen: int, fn: Callable[[threading.Event], Any], **data: Any) -> None:
        self.kind = kind
        self.gen = gen
        self.data = data
        self.cancel = threading.Event()
        self.done = threading.Event()
        self.result: Any = None
        self.error: BaseException | None = None
        self.started = time.monotonic()
        self.thread = threading.Thread(target=self._run, args=(fn,), daemon=True, name=f"gorilla-{kind}")

    def _run(self, fn: Callable[[threading.Event], Any]) -> None:
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
