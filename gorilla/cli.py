"""The ``gorilla`` command: dispatches to the GTP engine, matches or the desktop app.

``gorilla gtp ...``   -> :func:`gorilla.gtp.main.main`
``gorilla match ...`` -> :func:`gorilla.match.cli.main`
``gorilla little-go-agent ...`` -> :func:`gorilla.littlego.cli.main`
``gorilla analyze ...`` -> :func:`gorilla.app.analyze_cli.main`
``gorilla analysis ...`` -> :func:`gorilla.gtp.analysis_engine.main` (KataGo's JSON analysis engine)
``gorilla learn ...`` / ``gorilla predict ...`` -> :mod:`gorilla.ai.policy.cli` (the move model)
anything else         -> :func:`gorilla.launcher.cli.main` (GUI / terminal play)

Sub-commands are imported lazily so that ``gorilla gtp`` never imports pyglet.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Sequence

SUBCOMMANDS: dict[str, str] = {
    "gtp": "gorilla.gtp.main:main",
    "match": "gorilla.match.cli:main",
    "little-go-agent": "gorilla.littlego.cli:main",
    "selfplay": "gorilla.match.selfplay_cli:main",
    "tune": "gorilla.match.tune:main",
    "pbrain": "gorilla.gomoku.pbrain:main",
    "analyze": "gorilla.app.analyze_cli:main",
    "analysis": "gorilla.gtp.analysis_engine:main",
    "learn": "gorilla.ai.policy.cli:learn_main",
    "predict": "gorilla.ai.policy.cli:predict_main",
}
DEFAULT = "gorilla.launcher.cli:main"


def _load(target: str) -> Callable[[list[str]], int] | None:
    module, _, func = target.partition(":")
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as e:
        # only a missing sub-command module is "not available"; a broken import inside it is a bug
        if e.name is not None and (module == e.name or module.startswith(e.name + ".")):
            return None
        raise
    return getattr(mod, func, None)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the gorilla command line; returns the process exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in SUBCOMMANDS:
        target, rest = SUBCOMMANDS[args[0]], args[1:]
    else:
        target, rest = DEFAULT, args
    entry = _load(target)
    if entry is None:
        what = f"'{args[0]}'" if args and args[0] in SUBCOMMANDS else "the desktop app"
        print(f"gorilla: {what} is not available in this installation ({target})", file=sys.stderr)
        return 2
    result = entry(rest)
    return int(result or 0)


if __name__ == "__main__":
    raise SystemExit(main())
