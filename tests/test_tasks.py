"""The controllers' background tasks: the analysis of the position shown (a background task)
runs at a lower priority than the window and the AI, which keep theirs."""

from __future__ import annotations

import os
import sys
import threading

import pytest

from gorilla.app.tasks import BACKGROUND_NICE, Workers

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="one thread's nice value is Linux's")


def nice_inside(background: bool) -> tuple[int, int]:
    """The nice value a task's thread and a thread it starts run at."""
    seen: list[int] = []

    def job(cancel: threading.Event) -> None:
        seen.append(os.getpriority(os.PRIO_PROCESS, threading.get_native_id()))
        child = threading.Thread(
            target=lambda: seen.append(os.getpriority(os.PRIO_PROCESS, threading.get_native_id()))
        )
        child.start()
        child.join()

    w = Workers()
    task = w.launch(w.task("ponder" if background else "ai", job, background=background))
    assert task.done.wait(10) and task.error is None
    return seen[0], seen[1]


def test_a_background_task_and_its_threads_yield_the_cpu_and_others_keep_their_priority() -> None:
    here = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    assert nice_inside(background=False) == (here, here)
    expected = min(19, here + BACKGROUND_NICE)
    assert nice_inside(background=True) == (expected, expected)
    # and the caller (the window's thread) is untouched
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == here
