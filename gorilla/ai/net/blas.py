"""The number of threads of numpy's BLAS, set at run time.

The net's matrix products are small (a few hundred rows): a BLAS that spreads each over
several threads gains little and, on a machine whose cores are busy, loses a lot (its
threads spin while waiting for each other). The net runs them on one BLAS thread; callers
that want parallel evaluations run several threads of their own (the kernels and BLAS
release the GIL).

threadpoolctl does this where it is installed; otherwise the OpenBLAS that numpy loaded is
found among the process's mapped libraries and told directly (its ``*set_num_threads*``
function). Anything else (another BLAS, another system) is left as it is.
"""

from __future__ import annotations

import ctypes
import re
from pathlib import Path

_SETTERS = (
    "openblas_set_num_threads",
    "scipy_openblas_set_num_threads64_",
    "openblas_set_num_threads64_",
    "scipy_openblas_set_num_threads",
)
_GETTERS = (
    "openblas_get_num_threads",
    "scipy_openblas_get_num_threads64_",
    "openblas_get_num_threads64_",
    "scipy_openblas_get_num_threads",
)


def _openblas_libraries() -> list[ctypes.CDLL]:
    import numpy  # noqa: F401  (its BLAS must be loaded to be found)

    try:
        maps = Path("/proc/self/maps").read_text()
    except OSError:
        return []
    paths = sorted({m for m in re.findall(r"(/\S+\.so[.\d]*)", maps) if "openblas" in m.lower()})
    libs = []
    for p in paths:
        try:
            libs.append(ctypes.CDLL(p))
        except OSError:
            continue
    return libs


def set_blas_threads(n: int) -> bool:
    """Make numpy's BLAS use n threads; returns whether it could."""
    try:
        from threadpoolctl import threadpool_limits  # type: ignore[import-not-found]

        threadpool_limits(limits=n, user_api="blas")
        return True
    except ImportError:
        pass
    done = False
    for lib in _openblas_libraries():
        for name in _SETTERS:
            fn = getattr(lib, name, None)
            if fn is not None:
                fn(ctypes.c_int(n))
                done = True
                break
    return done


def blas_threads() -> int | None:
    """The number of threads numpy's OpenBLAS uses (None where that cannot be read)."""
    for lib in _openblas_libraries():
        for name in _GETTERS:
            fn = getattr(lib, name, None)
            if fn is not None:
                fn.restype = ctypes.c_int
                return int(fn())
    return None
