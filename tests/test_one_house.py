"""One house for two games: Go's and Gomoku's controllers are facades over the same part classes
for every job both games have, each made for its game's kind (:class:`gorilla.app.kind.GameKind`),
and what only one game has is that game's own part."""

from __future__ import annotations

import inspect

import pytest

from gorilla.app.facade import Facade
from gorilla.app.go.controller import Controller
from gorilla.app.gomoku.controller import GomokuController
from gorilla.app.kind import Book, GameKind, Opening, PlayedGame, Reviewer, Valuer
from gorilla.gomoku.game import GomokuGame
from gorilla.rules.game import Game

# the jobs both games have, by the attribute that holds each one's part
SHARED_JOBS = ("record", "moves", "turn", "referee", "clocks", "files", "analysis", "values")
SHARED_JOBS += ("seats", "feed", "workers")


@pytest.fixture
def both():
    go = Controller(Game.new(9))
    gomoku = GomokuController(GomokuGame(15))
    yield go, gomoku
    go.close()
    gomoku.close()


def _members(proto: type) -> list[str]:
    """The names a protocol declares: its annotations, methods and properties."""
    names = set(getattr(proto, "__annotations__", {}))
    names |= {n for n, v in vars(proto).items() if callable(v) or isinstance(v, property)}
    return sorted(n for n in names if not n.startswith("_"))


def test_both_controllers_are_made_of_the_same_part_classes(both):
    go, gomoku = both
    for job in SHARED_JOBS:
        a, b = getattr(go, job), getattr(gomoku, job)
        assert type(a) is type(b), f"{job}: Go's {type(a).__name__}, Gomoku's {type(b).__name__}"
        # a shared part is game-agnostic: a module of gorilla/app/ itself, not of app/go/ or app/gomoku/
        module = type(a).__module__
        assert module.startswith("gorilla.app.") and module.count(".") == 2, f"{job}: {module}"
    assert isinstance(go, Facade) and isinstance(gomoku, Facade)
    # the parts are each controller's own, not one shared object
    assert all(getattr(go, job) is not getattr(gomoku, job) for job in SHARED_JOBS)


def test_the_requests_both_games_have_are_the_same_parts_methods(both):
    go, gomoku = both
    for name in ("undo", "redo", "go_back", "goto_move", "advance", "resign", "save", "toggle_pause"):
        a, b = getattr(go, name), getattr(gomoku, name)
        assert a.__func__ is b.__func__, name  # the same function of the same part class
        assert a.__self__ is not b.__self__


def test_each_games_own_behaviour_is_its_own_part(both):
    go, gomoku = both
    assert type(go.opening).__name__ == "FreeOpening" and type(gomoku.opening).__name__ == "Swap2"
    for part in ("variations", "setup", "handicap", "dead", "overlays", "teacher", "ponder"):
        assert getattr(go, part) is not None and not hasattr(gomoku, part), part
    assert type(gomoku.threats).__name__ == "Threats" and not hasattr(go, "threats")
    # and the shared parts ask the kind what the game brings
    assert go.record.book.LINE == "this line" and gomoku.record.book.LINE == "the game"
    assert go.kind.name == "go" and gomoku.kind.name == "gomoku"
    # and a part's folder says which game it serves: app/go/ for Go's, app/gomoku/ for Gomoku's
    go_own = (go, go.kind, go.record.book, go.values.valuer, go.analysis.reviewer)
    go_own += tuple(
        getattr(go, p) for p in ("variations", "setup", "handicap", "dead", "overlays", "teacher")
    )
    gomoku_own = (gomoku, gomoku.kind, gomoku.record.book, gomoku.values.valuer, gomoku.analysis.reviewer)
    gomoku_own += (gomoku.opening, gomoku.threats, gomoku.game)
    for game, own in (("go", go_own), ("gomoku", gomoku_own)):
        for thing in own:
            assert type(thing).__module__.startswith(f"gorilla.app.{game}."), type(thing)


@pytest.mark.parametrize("which", [0, 1])
def test_each_kind_brings_all_the_interface_asks(both, which):
    c = both[which]
    kind = c.kind
    for proto, thing in (
        (GameKind, kind),
        (PlayedGame, c.game),
        (Book, c.record.book),
        (Valuer, c.values.valuer),
        (Reviewer, c.analysis.reviewer),
        (Opening, c.opening),
    ):
        missing = [n for n in _members(proto) if not hasattr(thing, n)]
        assert not missing, f"{type(thing).__name__} lacks {missing} of {proto.__name__}"


def test_the_interface_is_written_down():
    for proto in (GameKind, PlayedGame, Book, Valuer, Reviewer, Opening):
        assert inspect.getdoc(proto), proto.__name__
        for name, value in vars(proto).items():
            if callable(value) and not name.startswith("_"):
                assert inspect.getdoc(value), f"{proto.__name__}.{name} has no docstring"


def _folder(module: str) -> str:
    """Which game a module of gorilla/app/ serves by its folder: 'go', 'gomoku' or 'shared'."""
    parts = module.split(".")
    return parts[2] if len(parts) > 3 else "shared"


def test_a_modules_folder_says_which_game_it_serves():
    from test_layers import graph

    choosers = {"gorilla.app.game_kinds", "gorilla.app.analyze_cli"}  # they pick a game's own
    crossing = []
    for src, targets in graph().items():
        if not src.startswith("gorilla.app.") or src in choosers:
            continue
        for dst in targets:
            if dst.startswith("gorilla.app.") and _folder(dst) not in ("shared", _folder(src)):
                crossing.append(f"{src} imports {dst}")
    # the shared parts import neither game's folder, and neither game's folder the other's
    assert crossing == []
    assert {_folder(m) for m in graph() if m.startswith("gorilla.app.")} == {"shared", "go", "gomoku"}
