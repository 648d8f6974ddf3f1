"""How a controller (a facade) hands a name to one of its parts: :class:`Part`.

``go_back = Part("record")`` in a controller's class body makes ``controller.go_back`` the
record part's own ``go_back`` (the bound method, with its signature and docstring), and
``message = Part("feed")`` makes ``controller.message`` read and write the feed part's
``message``. :func:`hands` writes many at once, a part a line: so the facade lists in one
place which part answers what the window asks (:class:`gorilla.app.table.Table`), and each
part keeps its state to itself.
"""

from __future__ import annotations

from collections.abc import Callable
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


def hands(**parts: str) -> Callable[[type], type]:
    """A class decorator writing down which part answers which names: ``@hands(record="game
    go_back", clocks="clock clock_started=started")`` makes each name a :class:`Part` of that
    part (``name=attr`` where the part calls it otherwise)."""

    def decorate(cls: type) -> type:
        for part, names in parts.items():
            for word in names.split():
                name, _, attr = word.partition("=")
                if name in cls.__dict__:
                    raise TypeError(f"{cls.__name__}.{name} is its own and a part's")
                handed = Part(part, attr or None)
                handed.__set_name__(cls, name)
                setattr(cls, name, handed)
        return cls

    return decorate


@hands(
    feed="version message message_time events show_control show_thinking say emit drain_events"
    " toggle_control toggle_thinking",
    seats="agents players=labels is_human ai_vs_ai",
    workers="thinking evaluating current_ai_task",
)
class Shared:
    """The names every controller (Go's, Gomoku's, the stand-in while Gomoku compiles) hands to
    the three parts they all hold: ``feed`` (:class:`gorilla.app.feed.Feed`), ``seats``
    (:class:`gorilla.app.players.Players`) and ``workers`` (:class:`gorilla.app.tasks.Workers`).
    It holds no state: each controller makes its parts in its ``__init__``. It also gives the
    answers of a game without Swap2's seats, forbidden points or a winning line (Go's, the
    stand-in's); Gomoku's controller overrides them."""

    @property
    def acting(self) -> int:
        """The seat (the colour of the player's row) whose player acts now: the side to move."""
        return self.game.to_move  # type: ignore[attr-defined]

    def forbidden_points(self) -> list[int]:
        """The empty points the side to move may not play, marked on the board: none (a game
        with such points, renju, says which)."""
        return []

    def winning_line(self) -> list[int]:
        """The stones that won the game, marked on the board: none (Gomoku's five says which)."""
        return []
