"""The endgame tables in memory, for the compiled search (:mod:`doushouqi.jungle.ai.tbprobe`).

Every table of a rule family found in the table directories (first match by signature wins,
as for the reader) is decoded into one int8 array, one byte an entry (the encoding of
:mod:`..tbprobe`), beside a small int64 array that maps a material key to the table's offset.

Loading is lazy and done once per process and set of directories: the all <= 3-animal tables
decode in about a second into 33 MB. The decoded bytes are also written to a cache file
(``$DOUSHOUQI_TABLEBASE_CACHE``, by default ``~/.cache/doushouqi/tablebases``; ``off``: none)
and memory-mapped from it (copy on write, never written), so that later processes start at
once and the engine processes of one machine share the pages. The file's name carries a
digest of the tables it was built from (signature, checksum and size of each), so a new or
regenerated table leads to a new file; the family's :data:`KEEP_CACHE_FILES` most recently
used files are kept, older ones removed.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import os
import threading
import time
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from doushouqi.jungle.ai.tbprobe import BROKEN_BYTE, M_KEYS, M_MAX_ANIMALS, empty_tables
from doushouqi.jungle.tablebase.file_format import (
    DRAW,
    LOSS,
    SUFFIX,
    WIN,
    TablebaseError,
    decode_header,
    parse_signature,
    read_table,
)

__all__ = [
    "CACHE_ENV_VAR",
    "LoadedTables",
    "TableFile",
    "cache_directory",
    "find_tables",
    "loaded_tables",
    "material_key",
    "most_animals",
]

CACHE_ENV_VAR = "DOUSHOUQI_TABLEBASE_CACHE"
#: Longest DTM one byte holds (a win in 2b - 1 for b <= 127, a loss in 2(b - 1) plies).
MAX_BYTE_DTM = 252
#: Bumped when the cache file's layout changes.
_CACHE_VERSION = 1


@dataclasses.dataclass(frozen=True)
class TableFile:
    """One table file as its header describes it."""

    signature: str
    path: Path
    sha256: str
    positions: int
    max_dtm: int
    key: int  # the material key of :mod:`..tbprobe`
    animals: int


@dataclasses.dataclass(frozen=True)
class LoadedTables:
    """The tables of one family in the search's form."""

    values: NDArray[np.int8]  # every table's entries in turn
    meta: NDArray[np.int64]  # :mod:`..tbprobe` layout
    tables: tuple[TableFile, ...]
    source: str  # the cache file mapped, or "memory"

    @property
    def max_animals(self) -> int:
        return int(self.meta[M_MAX_ANIMALS])

    @property
    def entries(self) -> int:
        return int(self.values.shape[0])


def material_key(mover: Iterable[int], opponent: Iterable[int]) -> int:
    """The key :func:`doushouqi.jungle.ai.tbprobe.tb_probe` computes: the mover's animals in bits
    0-7 (rat .. elephant), the opponent's in bits 8-15."""
    key = 0
    for animal in mover:
        key |= 1 << (animal - 1)
    for animal in opponent:
        key |= 1 << (animal + 7)
    return key


def cache_directory() -> Path | None:
    """Where decoded tables are cached, or None (``$DOUSHOUQI_TABLEBASE_CACHE=off``)."""
    setting = os.environ.get(CACHE_ENV_VAR)
    if setting is not None:
        if setting.strip().lower() in ("", "off", "0", "none"):
            return None
        return Path(setting)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "doushouqi" / "tablebases"


def _family_files(directories: Sequence[Path], family: str) -> dict[str, Path]:
    found: dict[str, Path] = {}
    for directory in directories:
        try:
            names = os.listdir(Path(directory) / family)
        except OSError:
            continue
        for name in names:
            if name.endswith(SUFFIX):
                found.setdefault(name[: -len(SUFFIX)], Path(directory) / family / name)
    return found


#: Seconds :func:`most_animals` keeps its answer (tables may be generated meanwhile).
_MOST_SECONDS = 30.0
_MOST: dict[tuple[str, tuple[Path, ...]], tuple[float, int]] = {}


def most_animals(directories: Sequence[Path], family: str) -> int:
    """The most animals of a table of ``family`` in ``directories``, by file name only (the
    answer is kept for half a minute: every search asks)."""
    key = (family, tuple(Path(d) for d in directories))
    now = time.monotonic()
    kept = _MOST.get(key)
    if kept is not None and now - kept[0] < _MOST_SECONDS:
        return kept[1]
    most = _count_most(directories, family)
    _MOST[key] = (now, most)
    return most


def _count_most(directories: Sequence[Path], family: str) -> int:
    most = 0
    for signature in _family_files(directories, family):
        try:
            mover, opponent = parse_signature(signature)
        except ValueError:
            continue
        most = max(most, len(mover) + len(opponent))
    return most


def _read_header(path: Path) -> dict[str, object]:
    with path.open("rb") as handle:
        head = handle.read(1 << 16)
    header, _ = decode_header(head, str(path))
    return header


def find_tables(directories: Sequence[Path], family: str) -> list[TableFile]:
    """The usable tables of ``family`` (headers read, not the data), by signature. A table
    whose DTM does not fit a byte, or whose header is damaged, is left out."""
    tables = []
    for signature, path in sorted(_family_files(directories, family).items()):
        try:
            mover, opponent = parse_signature(signature)
            header = _read_header(path)
            positions = int(header["positions"])  # type: ignore[call-overload]
            max_dtm = int(header["max_dtm"])  # type: ignore[call-overload]
            sha = str(header["sha256"])
        except (OSError, ValueError, KeyError, TypeError):
            continue
        if max_dtm > MAX_BYTE_DTM:
            continue
        key = material_key(mover, opponent)
        tables.append(
            TableFile(signature, path, sha, positions, max_dtm, key, len(mover) + len(opponent))
        )
    return tables


def _digest(family: str, tables: Sequence[TableFile]) -> str:
    digest = hashlib.sha256(f"v{_CACHE_VERSION} {family}".encode())
    for table in tables:
        digest.update(f"|{table.signature}:{table.sha256}:{table.positions}".encode())
    return digest.hexdigest()[:20]


def _meta(tables: Sequence[TableFile]) -> np.ndarray:
    meta = empty_tables()[1]
    offset = 0
    for table in tables:
        meta[M_KEYS + table.key] = offset
        offset += table.positions
    meta[M_MAX_ANIMALS] = max((t.animals for t in tables), default=0)
    return meta


def _table_bytes(table: TableFile) -> np.ndarray:
    """One table's entries as :mod:`..tbprobe` bytes."""
    data = read_table(table.path)
    if data.size != table.positions:
        raise TablebaseError(f"{table.path}: changed while it was read")
    raw = np.frombuffer(data.wdl, np.uint8)
    codes = ((raw[:, None] >> np.array([0, 2, 4, 6], np.uint8)) & 3).reshape(-1)[: data.size]
    half = np.frombuffer(data.dtm, "<u1" if data.dtm_bytes == 1 else "<u2").astype(np.int16)
    out = np.full(data.size, BROKEN_BYTE, np.int8)
    out[codes == DRAW] = 0
    win = codes == WIN
    loss = codes == LOSS
    out[win] = (half[win] + 1).astype(np.int8)
    out[loss] = (-half[loss] - 1).astype(np.int8)
    return out


def _decode_all(tables: Sequence[TableFile]) -> tuple[np.ndarray, list[TableFile]]:
    """Every table's bytes in turn, and the tables decoded: a damaged file is left out (the
    search goes on with the others; the reader reports the damage when it reads it)."""
    parts = []
    good = []
    for table in tables:
        try:
            parts.append(_table_bytes(table))
        except (TablebaseError, OSError):
            continue
        good.append(table)
    values = np.concatenate(parts) if parts else np.zeros(1, np.int8)
    return values, good


#: Cache files kept per family (sets of other directories, older table sets): the most recently
#: used ones.
KEEP_CACHE_FILES = 3


def _prune(directory: Path, family: str) -> None:
    """Remove all but the most recently used cache files of ``family`` (a process that maps
    a removed one keeps its pages)."""
    files = []
    for path in directory.glob(f"{family}-*.int8.npy"):
        with contextlib.suppress(OSError):
            files.append((path.stat().st_mtime, path))
    files.sort(reverse=True)
    for _, path in files[KEEP_CACHE_FILES:]:
        path.unlink(missing_ok=True)


def _cached_values(
    family: str, tables: Sequence[TableFile]
) -> tuple[np.ndarray, list[TableFile], str]:
    """The values of ``tables`` (those decoded), mapped from the cache file (written first
    if missing), or decoded in this process; and where they came from."""
    directory = cache_directory()
    if directory is None:
        return (*_decode_all(tables), "memory")
    total = sum(t.positions for t in tables)
    path = directory / f"{family}-{_digest(family, tables)}.int8.npy"
    try:
        mapped = np.load(path, mmap_mode="c")
        if mapped.dtype == np.int8 and mapped.shape == (total,):
            with contextlib.suppress(OSError):
                os.utime(path)  # in use: kept by _prune
            return np.asarray(mapped), list(tables), str(path)
    except (OSError, ValueError):
        pass
    values, good = _decode_all(tables)
    if len(good) != len(tables):
        return values, good, "memory"  # not cached: the file names a set it does not hold
    try:
        directory.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f"{path.name}.{os.getpid()}.part")
        with temporary.open("wb") as handle:
            np.save(handle, values)
        os.replace(temporary, path)
        _prune(directory, family)
        mapped = np.load(path, mmap_mode="c")  # shared pages instead of a private copy
        return np.asarray(mapped), good, str(path)
    except (OSError, ValueError):
        return values, good, "memory"  # a read-only cache: this process keeps its own copy


_LOCK = threading.Lock()
_LOADED: dict[tuple[str, tuple[Path, ...]], LoadedTables] = {}
_LOADING: dict[tuple[str, tuple[Path, ...]], threading.Thread] = {}


def _load(family: str, directories: tuple[Path, ...]) -> LoadedTables:
    tables = find_tables(directories, family)
    if not tables:
        values, meta = empty_tables()
        return LoadedTables(values, meta, (), "memory")
    values, good, source = _cached_values(family, tables)
    return LoadedTables(values, _meta(good), tuple(good), source)


def loaded_tables(
    directories: Sequence[Path], family: str, *, wait: bool = True
) -> LoadedTables | None:
    """The tables of ``family`` in ``directories``, loaded once per process (a table
    generated later is used by the next process). One thread loads them however many
    searches ask at once; with ``wait`` False a set not yet loaded gives None meanwhile (a
    timed search must not wait seconds for it)."""
    key = (family, tuple(Path(d) for d in directories))
    with _LOCK:
        loaded = _LOADED.get(key)
        if loaded is not None:
            return loaded
        worker = _LOADING.get(key)
        if worker is None:
            worker = threading.Thread(target=_build, args=key, name="tablebase-loader", daemon=True)
            _LOADING[key] = worker
            worker.start()
    if not wait:
        return None
    worker.join()
    with _LOCK:
        return _LOADED.get(key)


def _build(family: str, directories: tuple[Path, ...]) -> None:
    try:
        result = _load(family, directories)
    except Exception:  # never retried in a loop: this process searches without tables
        values, meta = empty_tables()
        result = LoadedTables(values, meta, (), "failed")
    with _LOCK:
        _LOADED[(family, directories)] = result
        _LOADING.pop((family, directories), None)


def forget_loaded() -> None:
    """Drop the loaded tables of this process (tests)."""
    with _LOCK:
        _LOADED.clear()
        _MOST.clear()
