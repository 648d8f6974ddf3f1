"""Gorilla: a Go-playing program."""

from pathlib import Path

from gorilla.numba_cache import configure as _configure_numba_cache

_configure_numba_cache()  # before any kernel module imports numba

__version__ = "0.1.0"

_HERE = Path(__file__).resolve().parent
# where assets/ lies: the source checkout's top-level folder, then the installed wheel's gorilla/assets
ASSET_ROOTS = (_HERE.parent / "assets", _HERE / "assets")


def asset_dirs(name: str) -> tuple[Path, ...]:
    """The folders where ``assets/NAME`` may be, the source checkout's first."""
    return tuple(root / name for root in ASSET_ROOTS)


def asset_file(*parts: str) -> Path:
    """``assets/PARTS...`` from the first asset root holding it (the checkout's path when none does)."""
    for root in ASSET_ROOTS:
        f = root.joinpath(*parts)
        if f.exists():
            return f
    return ASSET_ROOTS[0].joinpath(*parts)
