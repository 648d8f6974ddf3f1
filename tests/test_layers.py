"""The import structure: every import points down a layer (or stays in its package), no circles.

The layers are the ones docs/ARCHITECTURE.md draws. The test reads every
module's imports (module-level, inside functions and under TYPE_CHECKING
alike) with ``ast``; a new package must be given a layer here and there.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "gorilla"

# lowest first; packages on one floor never import each other
LAYERS: dict[str, int] = {
    "gorilla.numba_cache": 0,  # where numba keeps compiled kernels (set before numba loads)
    "gorilla": 1,  # the package itself: version; configures the numba cache
    "gorilla.rules": 2,
    "gorilla.ai": 3,
    "gorilla.gtp": 4,
    "gorilla.littlego": 4,
    "gorilla.gomoku": 4,  # five in a row: its own rules, engine and the Gomocup protocol
    "gorilla.match": 5,
    "gorilla.app": 6,
    "gorilla.gui": 7,
    "gorilla.launcher": 8,
    "gorilla.cli": 9,  # the ``gorilla`` command: picks a subcommand
    "gorilla.__main__": 10,
}


def module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def room(module: str) -> str:
    """The layer key a module belongs to (its longest prefix in LAYERS)."""
    parts = module.split(".")
    for k in range(len(parts), 0, -1):
        key = ".".join(parts[:k])
        if key in LAYERS:
            return key
    raise KeyError(module)


def imports_of(path: Path, name: str, known: set[str]) -> set[str]:
    """The gorilla modules that the file imports, resolved to modules that exist."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    is_pkg = path.name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".")
                base = base if is_pkg else base[:-1]
                base = base[: len(base) - (node.level - 1)]
                mod = ".".join([*base, node.module] if node.module else base)
            else:
                mod = node.module or ""
            # ``from pkg import mod`` names the module mod; ``from pkg import name`` names pkg
            targets = [f"{mod}.{a.name}" if f"{mod}.{a.name}" in known else mod for a in node.names]
        for t in targets:
            if not t.startswith("gorilla"):
                continue
            # the deepest existing module named by the import (``from pkg import mod`` names mod)
            while t and t not in known:
                t = t.rpartition(".")[0]
            if t and t != name:
                found.add(t)
    return found


def graph() -> dict[str, set[str]]:
    mods = modules()
    known = set(mods)
    return {name: imports_of(path, name, known) for name, path in mods.items()}


def test_every_module_has_a_layer() -> None:
    missing = []
    for name in modules():
        try:
            room(name)
        except KeyError:
            missing.append(name)
    assert not missing, f"give these a layer in tests/test_layers.py and docs/ARCHITECTURE.md: {missing}"


def test_imports_point_down() -> None:
    bad = []
    for src, targets in graph().items():
        a = room(src)
        for dst in targets:
            b = room(dst)
            if LAYERS[b] > LAYERS[a] or (LAYERS[b] == LAYERS[a] and a != b):
                bad.append(f"{src} (layer {LAYERS[a]}) imports {dst} (layer {LAYERS[b]})")
    assert not bad, "imports that run up or sideways:\n" + "\n".join(bad)


def cycles(g: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in g.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return out


def test_no_import_circles() -> None:
    found = cycles(graph())
    assert not found, f"modules that import each other in a circle: {found}"


@pytest.mark.parametrize(
    ("g", "expected"),
    [
        ({"a": {"b"}, "b": {"a"}}, [["a", "b"]]),
        ({"a": {"b"}, "b": {"c"}, "c": set()}, []),
        ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, [["a", "b", "c"]]),
    ],
)
def test_the_circle_finder_finds_circles(g: dict[str, set[str]], expected: list[list[str]]) -> None:
    assert cycles(g) == expected


def test_the_reader_sees_lazy_and_relative_imports(tmp_path: Path) -> None:
    src = tmp_path / "m.py"
    src.write_text(
        "from gorilla.rules import board\n"
        "def f():\n"
        "    from gorilla.ai.agent import Agent\n"
        "from . import game\n"
    )
    known = {"gorilla.rules.board", "gorilla.ai.agent", "gorilla.rules.game", "gorilla.rules"}
    assert imports_of(src, "gorilla.rules.m", known) == {
        "gorilla.rules.board",
        "gorilla.ai.agent",
        "gorilla.rules.game",
    }
