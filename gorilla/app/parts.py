"""How a controller (a facade) hands a name to one of its parts: :class:`Part`.

``go_back = Part("record")`` in a controller's class body makes ``controller.go_back`` the
record part's own ``go_back`` (the bound method, with its signature and docstring), and
``message = Part("feed")`` makes ``controller.message`` read and write the feed part's
``message``. So the facade lists, one line a name, which part answers what the window asks
(:class:`gorilla.app.table.Table`), and each part keeps its state to itself.
"""

from __future__ import annotations

from typing import Any


class Part:
    """A name of the facade that is a part's attribute (see the module docstring).

    ``part`` is the facade's attribute holding the part; ``attr`` the part's name for it (the
    same name by default).
    """

    def __init__(self, part: str, attr: str | None = None) -> None:
        self.part = part
        self.attr = attr
        self.name = attr or ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = self.attr or name

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        if obj is None:
            return self
        return getattr(obj.__dict__[self.part], self.name)

    def __set__(self, obj: Any, value: Any) -> None:
        setattr(obj.__dict__[self.part], self.name, value)


class Shared:
    """The names every controller (Go's, Gomoku's, the stand-in while Gomoku compiles) hands to
    the three parts they all hold: ``feed`` (:class:`gorilla.app.feed.Feed`), ``seats``
    (:class:`gorilla.app.players.Players`) and ``workers`` (:class:`gorilla.app.tasks.Workers`).
    It holds no state: each controller makes its parts in its ``__init__``."""

    version = Part("feed")
    message = Part("feed")
    message_time = Part("feed")
    events = Part("feed")
    show_control = Part("feed")
    show_thinking = Part("feed")
    say = Part("feed")
    emit = Part("feed")
    drain_events = Part("feed")
    toggle_control = Part("feed")
    toggle_thinking = Part("feed")
    agents = Part("seats")
    players = Part("seats", "labels")
    is_human = Part("seats")
    ai_vs_ai = Part("seats")
    thinking = Part("workers")
    evaluating = Part("workers")
    current_ai_task = Part("workers")
