"""Monte-Carlo pattern playouts in GNU Go 3.8's pattern database format.

* :mod:`~gorilla.ai.playout.database` parses the text format;
* :mod:`~gorilla.ai.playout.tables` turns a database into lookup tables;
* :mod:`~gorilla.ai.playout.pattern` is the numba playout kernel.

This module finds databases: the shipped ones live in ``assets/patterns/NAME.db``
at the top of the source checkout, which an installed package holds as
``gorilla/assets/patterns`` (pyproject.toml maps the folder into the package;
the GUI's shaders are looked up the same two ways), and a file can be loaded
by path. Compiled tables are cached per name / file, so agents share them.
"""

from __future__ import annotations

import argparse
import functools
from collections.abc import Callable
from pathlib import Path

from gorilla import asset_dirs
from gorilla.ai.playout.database import Database, PatternError, load_database, parse_database
from gorilla.ai.playout.tables import CompiledPatterns, compile_database

PATTERN_DIRS = asset_dirs("patterns")
# GNU Go's names for its built-in databases, accepted as aliases of ours
ALIASES = {
    "mc_uniform": "uniform",
    "mogo_classic": "mogo",
    "mc_mogo_classic": "mogo",
    "montegnu_classic": "montegnu",
    "mc_montegnu_classic": "montegnu",
}


def _builtin_files() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for d in PATTERN_DIRS:
        if d.is_dir():
            for f in sorted(d.glob("*.db")):
                found.setdefault(f.stem, f)
    return found


def available() -> list[str]:
    """Names of the shipped databases, sorted."""
    return sorted(_builtin_files())


def builtin_path(name: str) -> Path:
    """The file of a shipped database; PatternError (one line) for an unknown name."""
    files = _builtin_files()
    key = ALIASES.get(name.strip().lower(), name.strip().lower())
    if key not in files:
        known = ", ".join(sorted(files)) or "none found"
        raise PatternError(f"unknown pattern database '{name}' (known: {known})")
    return files[key]


@functools.lru_cache(maxsize=32)
def _compiled_file(path: str, mtime_ns: int) -> CompiledPatterns:
    return compile_database(load_database(path))


def compiled(name: str | None = None, file: str | Path | None = None) -> CompiledPatterns:
    """Compiled tables of a shipped database (by name) or of a database file.

    Raises PatternError with a one-line reason (``FILE:LINE: reason`` for files
    that do not parse); nothing half-loaded is ever returned.
    """
    if (name is None) == (file is None):
        raise ValueError("give exactly one of name and file")
    p = Path(file) if file is not None else builtin_path(str(name))
    try:
        mtime = p.stat().st_mtime_ns
    except OSError as e:
        raise PatternError(f"{p}:0: cannot read: {e.strerror or e}") from None
    return _compiled_file(str(p.resolve()), mtime)


def resolve(spec: str) -> CompiledPatterns:
    """A shipped database by name, or else an existing database file by path."""
    s = str(spec).strip()
    key = ALIASES.get(s.lower(), s.lower())
    if key in _builtin_files():
        return compiled(name=key)
    if Path(s).is_file():
        return compiled(file=s)
    return compiled(name=s)  # raises the "unknown pattern database" error


def option_value(name: str | None, file: str | None) -> str | None:
    """Check ``--mc-patterns NAME`` / ``--mc-load-patterns FILE`` and return the agent setting.

    A name must be shipped; a file must parse (it is compiled now, so a broken
    file is refused before anything plays). Files become absolute paths, which
    cannot be mistaken for names. Raises PatternError with one line.
    """
    if name is not None and file is not None:
        raise PatternError("--mc-patterns and --mc-load-patterns cannot be used together")
    if name is not None:
        builtin_path(name)
        return ALIASES.get(name.strip().lower(), name.strip().lower())
    if file is not None:
        path = str(Path(file).expanduser().resolve())
        if "," in path:
            raise PatternError(f"{file}: a pattern file path cannot contain ','")
        compiled(file=path)
        return path
    return None


def with_patterns(spec: str, value: str) -> str:
    """An ``mcts`` agent spec with ``patterns=value`` added (kept as is if it names patterns)."""
    name, sep, rest = spec.strip().partition(":")
    if "patterns=" in rest.replace(" ", ""):
        return spec
    return f"{name}:{rest},patterns={value}" if rest.strip() else f"{name}:patterns={value}"


def add_options(parser: argparse.ArgumentParser, who: str = "mcts") -> None:
    """Add ``--mc-patterns NAME | --mc-load-patterns FILE`` and ``--mc-list-patterns`` to parser."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument(
        "--mc-patterns", metavar="NAME", default=None, help=f"{who}: pattern playouts from a shipped database"
    )
    group.add_argument(
        "--mc-load-patterns",
        metavar="FILE",
        default=None,
        help=f"{who}: pattern playouts from a GNU Go Monte-Carlo pattern database file",
    )
    parser.add_argument("--mc-list-patterns", action="store_true", help="list the shipped pattern databases")


def apply_options(
    specs: list[str], name: str | None, file: str | None, eligible: Callable[[str], bool] | None = None
) -> list[str]:
    """The agent specs with ``patterns=...`` added to the mcts ones, for ``--mc-patterns NAME`` /
    ``--mc-load-patterns FILE`` (unchanged when neither is given).

    ``eligible`` picks the specs that take patterns (default: every ``mcts`` spec).
    Raises PatternError with one line for a bad database or when no spec takes it.
    """
    if name is None and file is None:
        return list(specs)
    from gorilla.ai.agent import parse_spec

    value = option_value(name, file)
    assert value is not None
    takes = [eligible(s) if eligible else parse_spec(s)[0] == "mcts" for s in specs]
    if not any(takes):
        raise PatternError("--mc-patterns/--mc-load-patterns apply to mcts only (no mcts player given)")
    return [with_patterns(s, value) if t else s for s, t in zip(specs, takes, strict=True)]


def list_text() -> str:
    """What ``--mc-list-patterns`` prints."""
    lines = ["Available built-in Monte-Carlo pattern databases:", ""]
    for n in available():
        lines.append(f"* {n}")
    lines += ["", 'Use "--mc-patterns NAME" to choose one, or "--mc-load-patterns FILE" to load a file.']
    return "\n".join(lines)


__all__ = [
    "CompiledPatterns",
    "Database",
    "PatternError",
    "available",
    "builtin_path",
    "compile_database",
    "compiled",
    "list_text",
    "load_database",
    "option_value",
    "parse_database",
    "resolve",
    "with_patterns",
]
