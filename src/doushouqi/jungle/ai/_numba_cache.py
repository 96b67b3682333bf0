"""This package's part in keeping numba's on-disk cache in step with its sources and tables
(:mod:`doushouqi.compiled.cache` says why): its stamp, its pure-Python modules, and a probe
that tells where numba keeps the package's cache.

Runs once, when :mod:`.tables` is imported, which every compiled module does first.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import numpy as np
from numba import njit

from doushouqi.compiled import cache

__all__ = ["cache_directory", "discard_stale_cache"]

_STAMP_NAME = "doushouqi-ai.fingerprint"
## Pure-Python modules that no compiled function reads (drivers, protocol): editing them cannot
#: make machine code stale, so they stay out of the fingerprint.
_NOT_COMPILED = frozenset(
    {
        "go_command.py",
        "levels.py",
        "protocol.py",
        "search_driver.py",
        "shared_engines.py",
        "timeman.py",
        "tuning.py",
    }
)


@njit(cache=True)
def _probe() -> int:  # never called: only asked where numba keeps this package's cache
    return 0


def cache_directory() -> Path:
    """Where numba keeps the compiled code of this package."""
    return cache.cache_directory(_probe)


def discard_stale_cache(tables: Iterable[np.ndarray | np.generic]) -> bool:
    """Delete the package's cached machine code if it was built from other sources or
    tables; whether anything was discarded."""
    current = cache.fingerprint(Path(__file__).parent, _NOT_COMPILED, tables)
    return cache.discard_stale_cache(cache_directory(), _STAMP_NAME, current)
