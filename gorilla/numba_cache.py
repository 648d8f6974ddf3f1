"""Where numba keeps Gorilla's compiled kernels: a folder per version of the source.

numba's on-disk cache checks only the source file of each function. A kernel
that calls a kernel in another file keeps the old callee's machine code when
only the callee's file changes; a changed signature then crashes at run time
(an unresolved symbol, or a call through a null pointer). So the cache lives in
a folder named by a hash of the source that kernels can depend on: any change
there starts a fresh cache, and the old folders are removed (the newest few are
kept, for switching between checkouts). Kernels live in ``rules/``, ``ai/`` and
``gomoku/``, and those layers import nothing above them (``tests/test_layers.py``),
so the hash covers the package's top-level files and those folders: a change to the
GUI, GTP, the app or the match runner keeps the compiled kernels. The package's location is
hashed too: numba files kernels under their source file's full path, so two checkouts or
installs of one version compile separately and must not share the warm markers. An explicit NUMBA_CACHE_DIR
wins; if no cache folder can be written, numba's default (__pycache__) is used.

This module must run before numba is imported: gorilla/__init__.py calls
:func:`configure` first thing.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

KEEP = 3  # cache folders kept besides the current one
KERNEL_FOLDERS = ("rules", "ai", "gomoku")  # the layers that hold numba kernels and all they import


def source_key(package_dir: Path) -> str:
    """A hash of where the package lives and of the .py files kernels can depend on (path and
    content): the package's top-level files and everything below its KERNEL_FOLDERS.

    The package's own folder counts because numba files a kernel under its source file's full
    path: a second checkout or install of the same source compiles its own kernels, so it
    must not share the folder whose ``warm-GROUP`` markers say the first one's are there."""
    h = hashlib.sha256()
    h.update(str(package_dir.resolve()).encode())
    files = list(package_dir.glob("*.py"))
    for folder in KERNEL_FOLDERS:
        files += (package_dir / folder).rglob("*.py")
    for f in sorted(files):
        h.update(str(f.relative_to(package_dir)).encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:16]


def cache_root() -> Path:
    """The folder of the cache folders: $XDG_CACHE_HOME/gorilla/numba (default ~/.cache/gorilla/numba)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "gorilla" / "numba"


def _prune(root: Path, current: Path) -> None:
    olds = sorted((d for d in root.iterdir() if d.is_dir() and d != current), key=lambda d: d.stat().st_mtime)
    for d in olds[: max(0, len(olds) - KEEP)]:
        shutil.rmtree(d, ignore_errors=True)


def configure(package_dir: Path | None = None) -> str | None:
    """Point NUMBA_CACHE_DIR at this source version's folder; returns it (None: left alone)."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return None
    try:
        root = cache_root()
        folder = root / source_key(package_dir or Path(__file__).resolve().parent)
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / ".write-test"
        probe.write_bytes(b"")
        probe.unlink()
        os.utime(folder)  # the newest used folder is kept longest
        _prune(root, folder)
    except (OSError, RuntimeError):  # no home, read-only file system: numba's default
        return None
    os.environ["NUMBA_CACHE_DIR"] = str(folder)
    try:  # numba already imported (by the embedding program): tell its config too
        import sys

        config = sys.modules.get("numba.core.config")
        if config is not None:
            config.CACHE_DIR = str(folder)
    except AttributeError:
        pass
    return str(folder)
