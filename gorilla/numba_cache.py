"""Where numba keeps Gorilla's compiled kernels: a folder per version of the source.

numba's on-disk cache checks only the source file of each function. A kernel
that calls a kernel in another file keeps the old callee's machine code when
only the callee's file changes; a changed signature then crashes at run time
(an unresolved symbol, or a call through a null pointer). So the cache lives in
a folder named by a hash of every source file of the package: any change to
the package starts a fresh cache, and the old folders are removed (the newest
few are kept, for switching between checkouts). An explicit NUMBA_CACHE_DIR
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


def source_key(package_dir: Path) -> str:
    """A hash of every .py file below package_dir (path and content)."""
    h = hashlib.sha256()
    for f in sorted(package_dir.rglob("*.py")):
        h.update(str(f.relative_to(package_dir)).encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:16]


def cache_root() -> Path:
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
