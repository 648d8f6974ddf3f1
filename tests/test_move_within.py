"""match.players.move_within, the one place a built-in player's move is waited for (Go's and
Gomoku's): the answer, a crash and a hang each become what the referee expects."""

from __future__ import annotations

import threading

import pytest

from gorilla.match.players import Forfeit, move_within


def test_the_answer_comes_back() -> None:
    assert move_within(lambda: 42, 5.0, "t") == 42


def test_an_agent_that_raises_forfeits_by_crash() -> None:
    def boom() -> int:
        raise RuntimeError("no tables")

    with pytest.raises(Forfeit) as e:
        move_within(boom, 5.0, "t")
    assert e.value.kind == "crash" and "RuntimeError: no tables" in str(e.value)


def test_a_hang_forfeits_on_time_after_stuck_cancels_it() -> None:
    release = threading.Event()
    seen: list[threading.Thread] = []

    def stuck(t: threading.Thread) -> None:
        seen.append(t)
        release.set()  # the cancel
        t.join(5.0)

    with pytest.raises(Forfeit) as e:
        move_within(lambda: release.wait(), 0.05, "hang", stuck)
    assert e.value.kind == "timeout" and "within 0.05 s" in str(e.value)
    assert len(seen) == 1 and not seen[0].is_alive() and seen[0].name == "hang"
