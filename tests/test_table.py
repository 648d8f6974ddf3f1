"""The window's one interface to a game, :class:`gorilla.app.table.Table`: Go's controller,
Gomoku's and the stand-in shown while Gomoku's engine compiles all satisfy it; what a game
lacks answers neutrally; and the window reads nothing else (no probes, no private names)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from helpers import game_from_diagram

from gorilla.app.compiler import Compiler
from gorilla.app.game_kinds import GomokuLoading, GomokuStart, controller_for
from gorilla.app.go.controller import Controller
from gorilla.app.gomoku.controller import gomoku_controller
from gorilla.app.table import LACKING, Board, Table
from gorilla.rules.board import WHITE
from gorilla.rules.game import Game

GUI = Path(__file__).resolve().parent.parent / "gorilla" / "gui"
# Black walls off the lower left corner, White the upper right
WALLS = """
. . . . . O . . .
. . . . . O . . .
. . . . . O . . .
. . . . . O O O O
X X X X . . . . .
. . . X . . . . .
. . . X . . . . .
. . . X . . . . .
. . . X . . . . .
"""


def _members(proto: type) -> list[str]:
    names = set(getattr(proto, "__annotations__", {}))
    names |= {
        n for n, v in vars(proto).items() if not n.startswith("_") and callable(v) or isinstance(v, property)
    }
    return sorted(n for n in names if not n.startswith("_"))


@pytest.fixture
def tables(tmp_path):
    go = Controller(Game.new(9), autosave=str(tmp_path / "a.sgf"))
    gomoku = gomoku_controller(15)
    start = GomokuStart(size=13, rules="gomoku renju", black="human", white="threat1")
    loading = GomokuLoading(start, Compiler(["gomoku"], start=False))
    yield {"go": go, "gomoku": gomoku, "loading": loading}
    for t in (go, gomoku, loading):
        t.close()


def test_go_gomoku_and_the_loading_stand_in_are_tables(tables):
    for kind, t in tables.items():
        assert isinstance(t, Table), kind
        missing = [n for n in _members(Table) if not hasattr(t, n)]
        assert not missing, f"{kind} lacks {missing}"
        missing = [n for n in _members(Board) if not hasattr(t.game, n)]
        assert not missing, f"{kind}'s board lacks {missing}"
        for name in ("toggle_control", "undo", "go_back", "status_lines", "new_game_choices"):
            assert callable(getattr(t, name))
        assert isinstance(t.status_lines(), list) and all(isinstance(ln, str) for ln in t.status_lines())
        choices = t.new_game_choices()
        assert choices["size"] == t.game.size and {"black", "white", "clock", "rules"} <= set(choices)


def test_the_loading_stand_in_is_no_go_game_in_disguise(tables):
    loading = tables["loading"]
    assert not isinstance(loading, Controller)
    assert loading.game.size == 13 and loading.game.moves == [] and not loading.shows_captures
    assert loading.click(loading.game.position.points()[0]) is False and "starts when" in loading.message
    assert loading.new_game_choices()["rules"] == "gomoku renju"
    assert loading.control_map().shape == (13, 13) and not loading.kernels_ready("rules")
    assert loading.names() is None  # no record yet: Ctrl+I says so


def test_what_gomoku_lacks_answers_neutrally(tables):
    g = tables["gomoku"]
    assert not g.shows_captures and g.tree is None and g.review is None and g.clock_views() is None
    assert not g.show_ownership and not g.show_policy and g.eval_progress is None and not g.editing
    browsing = {"go_back", "go_forward", "go_start", "go_end", "goto_move"}  # Gomoku has those
    browsing |= {
        "toggle_analysis",
        "next_mistake",
        "cycle_mistake_threshold",
        "toggle_mistake_dots",
    }  # g, n, Alt+n, d
    browsing |= {"set_comment", "set_game_info"}  # Enter, Ctrl+I: the record's comments and names
    for name in set(LACKING) - browsing:
        version = g.version
        args = {"go_back": (1,), "go_forward": (1,), "goto_move": (1,), "switch_variation": (1,)}
        args |= {"set_comment": ("x",), "setup_click": (0, 1), "next_mistake": (1,)}
        assert getattr(g, name)(*args.get(name, ())) is False
        assert g.message.startswith("Go only") and g.version > version
    go = tables["go"]
    assert go.shows_captures and go.tree is not None and go.review is not None
    assert g.ownership_map().size == 0  # Gomoku: nobody owns anything
    # Go's: the net's estimate of the position on the board, -1 Black .. +1 White, row 0 on top
    walls = Controller(game_from_diagram(WALLS, WHITE))
    try:
        own = walls.ownership_map()
        assert own.shape == (9, 9) and own[7, 1] < -0.5 and own[1, 7] > 0.5  # B2 Black's, H8 White's
    finally:
        walls.close()


def test_a_go_game_from_the_loading_stand_in_is_a_new_go_controller(tables):
    from gorilla.app.newgame import NewGame

    loading = tables["loading"]
    c = controller_for(loading, NewGame(size=9, rules="chinese", komi=7.5))
    try:
        assert isinstance(c, Controller) and c is not loading
    finally:
        c.close()


def test_the_stand_in_hands_its_compile_to_the_game_and_the_ai_waits_for_it(tmp_path, monkeypatch):
    # the rules are in the cache, the AI's parts (the MCTS) compile in a child (a stand-in
    # that takes 3 s): the game starts from the stand-in at once and keeps the same compile,
    # running; a human plays; the AI's first move waits for its parts, then comes
    import time

    from test_window_panel import fake_compiler_python

    from gorilla.ai import warmup
    from gorilla.app.game_kinds import rules_ready, start_game
    from gorilla.app.gomoku.controller import GomokuController
    from gorilla.rules.coords import to_index

    monkeypatch.setattr(warmup, "is_warm", lambda group: group != "gomoku-mcts")
    fake = fake_compiler_python(tmp_path, 3.0, "gomoku-mcts")
    compiler = Compiler(["gomoku-basic", "gomoku-mcts"], python=fake)
    start = GomokuStart(size=9, rules="gomoku freestyle", black="human", white="mcts:0.2")
    loading = GomokuLoading(start, compiler)
    end = time.monotonic() + 30
    while not rules_ready(compiler):
        assert time.monotonic() < end
        time.sleep(0.02)
    assert compiler.compiling  # the rules are loaded; the MCTS is not
    c, ok = start_game(loading, start, compiler)
    try:
        assert ok and isinstance(c, GomokuController) and c.compiler is compiler
        assert loading.compiler is None and compiler.compiling  # handed over, not stopped
        assert c.play(to_index(4, 4, 9)), c.message
        assert len(c.gomoku.moves) == 1
        c.poll()
        assert not c.thinking and not c.kernels_ready("gomoku-mcts")
        assert any(line.startswith("Compiling the engine (gomoku-mcts)") for line in c.status_lines())
        end = time.monotonic() + 60
        while len(c.gomoku.moves) < 2:
            assert time.monotonic() < end, c.message
            c.poll()
            time.sleep(0.02)
        assert c.kernels_ready("gomoku-mcts") and not compiler.compiling
    finally:
        c.close()


def _name(node: ast.Name | ast.Attribute) -> str:
    return node.attr if isinstance(node, ast.Attribute) else node.id


def _probes(path: Path) -> list[str]:
    """getattr/hasattr calls and private names read off the game in a module of the window."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "hasattr")
        ):
            out.append(f"{path.name}:{node.lineno} {node.func.id}")
        if (
            isinstance(node, ast.Attribute)
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
            and isinstance(node.value, ast.Name | ast.Attribute)
            and _name(node.value) in ("c", "controller")
        ):
            out.append(f"{path.name}:{node.lineno} .{node.attr}")
    return out


def test_the_window_reads_only_the_table():
    probes = [p for f in sorted(GUI.glob("*.py")) for p in _probes(f)]
    assert probes == []
    # and knows no rules-engine layout: points become places through gorilla.rules.coords only
    for f in GUI.glob("*.py"):
        assert "size + 2" not in f.read_text(encoding="utf-8"), f.name


def test_the_probe_finder_finds_probes(tmp_path):
    f = tmp_path / "m.py"
    f.write_text("def f(controller, c):\n    getattr(controller, 'x', None)\n    return c._specs\n")
    assert len(_probes(f)) == 2


def _read_off_the_game(path: Path) -> set[str]:
    """Names the module reads off the game: ``c.X``, ``controller.X``, ``self.controller.X``, ``c().X``."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Attribute):
            continue
        v = node.value
        on_game = (isinstance(v, ast.Name) and v.id in ("c", "controller")) or (
            isinstance(v, ast.Attribute) and v.attr == "controller"
        )
        on_game = on_game or (isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id == "c")
        if on_game:
            names.add(node.attr)
    return names


def test_everything_the_window_reads_of_the_game_is_in_the_table():
    members = set(_members(Table))
    for f in sorted(GUI.glob("*.py")):
        if f.name == "overlay.py":  # arrays and candidates in, markers out: it gets no game
            continue
        extra = _read_off_the_game(f) - members
        assert not extra, f"{f.name} reads {sorted(extra)}, which the Table does not declare"
