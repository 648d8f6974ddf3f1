"""Gorilla: a Go-playing program."""

from gorilla.numba_cache import configure as _configure_numba_cache

_configure_numba_cache()  # before any kernel module imports numba

__version__ = "0.1.0"
