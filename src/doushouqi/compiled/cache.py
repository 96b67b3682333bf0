"""Keep numba's on-disk cache of an engine package consistent with its sources and tables.

numba drops a cached function only when the function's *own* source file changes, while an
engine's compiled code calls into other modules of its package (inlined helpers) and bakes in
constant tables built from its rules library. After an edit elsewhere numba would happily reuse
stale machine code. To rule that out, one fingerprint of every compiled source file of the
package and of every table is kept next to the cache; when it changes, the package's whole
cache is dropped and rebuilt on first use.

A package calls :func:`discard_stale_cache` once, from the module every compiled module imports
first (its tables), before any function is compiled or loaded.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["cache_directory", "discard_stale_cache", "fingerprint"]


def cache_directory(probe: Callable[..., Any]) -> Path:
    """Where numba keeps the compiled code of ``probe``'s package (``__pycache__`` beside it,
    or under ``$NUMBA_CACHE_DIR``): ``probe`` is any ``cache=True`` function of the package
    (never called)."""
    path = probe.stats.cache_path  # type: ignore[attr-defined]
    if path is None:  # only a function compiled without cache=True has none
        raise RuntimeError("numba keeps no cache for this package")
    return Path(path)


def fingerprint(
    package: Path, not_compiled: frozenset[str], tables: Iterable[np.ndarray | np.generic]
) -> str:
    """A digest of the package's compiled sources (every ``*.py`` but ``not_compiled``: pure
    Python modules no compiled function reads; a new module counts), of the numba options
    they are compiled with (:mod:`.jit`, shared by the engines) and of ``tables``."""
    digest = hashlib.sha256()
    digest.update(Path(__file__).with_name("jit.py").read_bytes())
    for path in sorted(package.glob("*.py")):
        if path.name not in not_compiled:
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    for table in tables:
        digest.update(np.ascontiguousarray(table).tobytes())
    return digest.hexdigest()


def discard_stale_cache(directory: Path, stamp_name: str, current: str) -> bool:
    """Delete the cached machine code in ``directory`` if the stamp ``stamp_name`` there does
    not hold ``current`` (a :func:`fingerprint`), and write it; whether anything was discarded.
    A cache directory that cannot be written is left alone (numba then compiles in memory)."""
    stamp = directory / stamp_name
    try:
        if stamp.read_text("ascii") == current:
            return False
    except OSError:
        pass
    try:
        directory.mkdir(parents=True, exist_ok=True)
        for path in directory.glob("*.nb[ci]"):  # numba's index and data files
            path.unlink(missing_ok=True)
        stamp.write_text(current, "ascii")
    except OSError:
        return False
    return True
