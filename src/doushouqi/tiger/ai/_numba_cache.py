"""Keep numba's on-disk cache of this package consistent with its sources and tables.

numba drops a cached function only when the function's *own* source file changes, while the
compiled code here calls into other modules of the package and bakes in tables built from the
rules library (:mod:`.tables`). So one fingerprint of every compiled module's source and of
every table is kept next to the cache; when it changes, the package's cache is dropped and
rebuilt on first use. (Jungle's engine does the same for its package; games share no code.)

Runs once, when :mod:`.tables` is imported, which every compiled module does first.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path

import numpy as np
from numba import njit

__all__ = ["cache_directory", "discard_stale_cache"]

_STAMP_NAME = "doushouqi-tiger-ai.fingerprint"
#: Modules no compiled function reads (drivers, protocol, levels): left out of the fingerprint.
_NOT_COMPILED = frozenset(
    {"__init__.py", "levels.py", "protocol.py", "search_driver.py", "timeman.py", "core.py"}
)


@njit(cache=True)
def _probe() -> int:  # never called: only asked where numba keeps this package's cache
    return 0


def cache_directory() -> Path:
    """Where numba keeps this package's compiled code."""
    path = _probe.stats.cache_path
    if path is None:
        raise RuntimeError("numba keeps no cache for this package")
    return Path(path)


def _fingerprint(tables: Iterable[np.ndarray | np.generic]) -> str:
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parent.glob("*.py")):
        if path.name not in _NOT_COMPILED:
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    for table in tables:
        digest.update(np.ascontiguousarray(table).tobytes())
    return digest.hexdigest()


def discard_stale_cache(tables: Iterable[np.ndarray | np.generic]) -> bool:
    """Delete the package's cached machine code if it was built from other sources or tables;
    whether anything was discarded. A cache directory that cannot be written is left alone."""
    directory = cache_directory()
    stamp = directory / _STAMP_NAME
    current = _fingerprint(tables)
    try:
        if stamp.read_text("ascii") == current:
            return False
    except OSError:
        pass
    try:
        directory.mkdir(parents=True, exist_ok=True)
        for path in directory.glob("*.nb[ci]"):
            path.unlink(missing_ok=True)
        stamp.write_text(current, "ascii")
    except OSError:
        return False
    return True
