"""Keep numba's on-disk cache of this package consistent with its sources and tables.

numba drops a cached function only when the function's *own* source file changes. Compiled code
here calls into other modules (``perft`` inlines ``movegen`` and ``state``) and bakes in
constant tables built from the rules library (``doushouqi.jungle.squares``,
``doushouqi.jungle.zobrist``), so
after an edit elsewhere numba would happily reuse stale machine code. To rule that out, one
fingerprint of every source file of this package and of every table is kept next to the cache;
when it changes, the package's whole cache is dropped and rebuilt on first use.

Runs once, when :mod:`.tables` is imported, which every compiled module does before any of its
functions can be called (numba loads and compiles lazily, on the first call).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path

import numpy as np
from numba import njit

__all__ = ["cache_directory", "discard_stale_cache"]

_STAMP_NAME = "doushouqi-ai.fingerprint"


@njit(cache=True)
def _probe() -> int:  # never called: only asked where numba keeps this package's cache
    return 0


def cache_directory() -> Path:
    """Where numba keeps the compiled code of this package (``__pycache__`` or
    ``$NUMBA_CACHE_DIR/...``)."""
    path = _probe.stats.cache_path
    if path is None:  # only a function compiled without cache=True has none
        raise RuntimeError("numba keeps no cache for this package")
    return Path(path)


#: Pure-Python modules that no compiled function reads (drivers, protocol): editing them
#: cannot make machine code stale, so they stay out of the fingerprint. Any other module —
#: a new one too — counts, since compiled code may bake in its constants.
_NOT_COMPILED = frozenset(
    {"go_command.py", "levels.py", "protocol.py", "search_driver.py", "timeman.py"}
)


def _fingerprint(tables: Iterable[np.ndarray | np.generic]) -> str:
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parent.glob("*.py")):
        if path.name in _NOT_COMPILED:
            continue
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    for table in tables:
        digest.update(np.ascontiguousarray(table).tobytes())
    return digest.hexdigest()


def discard_stale_cache(tables: Iterable[np.ndarray | np.generic]) -> bool:
    """Delete the package's cached machine code if it was built from other sources or tables.

    Returns whether anything was discarded. A cache directory that cannot be written is left
    alone (numba then recompiles in memory as needed).
    """
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
