"""External GTP engines: where they are installed and how they are started in GTP mode."""

from __future__ import annotations

import os
import shutil

# Debian installs games (GNU Go among them) into /usr/games, which is not always on PATH
EXTRA_DIRS = ("/usr/games", "/usr/local/games")

# name -> arguments that start the engine in GTP mode
GTP_ARGS: dict[str, list[str]] = {
    "gnugo": ["--mode", "gtp"],
    "pachi": [],
    "katago": ["gtp"],
    "leelaz": ["--gtp"],
}


def find_program(name: str) -> str | None:
    """The path of an executable found on PATH or in the games folders, else None."""
    found = shutil.which(name)
    if found:
        return found
    for d in EXTRA_DIRS:
        path = os.path.join(d, name)
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return None


def find_gnugo() -> str | None:
    """The path of GNU Go (``gnugo``), or None where it is not installed."""
    return find_program("gnugo")


def installed_engines() -> dict[str, list[str]]:
    """The known GTP engines installed here: name -> argv that starts it in GTP mode."""
    found = {}
    for name, args in GTP_ARGS.items():
        path = find_program(name)
        if path:
            found[name] = [path, *args]
    return found
