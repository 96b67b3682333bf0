"""Tables on disk as numpy arrays: value arrays <-> the file format of
:mod:`doushouqi.jungle.tablebase.file_format` (which the core library reads without numpy)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from doushouqi.jungle.ai.tablebase.kernels import BROKEN_VALUE
from doushouqi.jungle.tablebase.file_format import (
    DRAW,
    LOSS,
    SUFFIX,
    WIN,
    TableData,
    encode_table,
    read_table,
)

__all__ = ["encode_values", "is_complete", "load_values", "table_path", "write_values"]


def table_path(directory: Path, family: str, signature: str) -> Path:
    return Path(directory) / family / f"{signature}{SUFFIX}"


def wdl_codes(val: np.ndarray) -> np.ndarray:
    codes = np.full(val.shape, DRAW, np.uint8)
    codes[val > 0] = WIN
    codes[(val < 0) & (val != BROKEN_VALUE)] = LOSS
    codes[val == BROKEN_VALUE] = 0
    return codes


def encode_values(val: np.ndarray, header: Mapping[str, Any], compression: str = "lzma") -> bytes:
    """File bytes of a solved value array (:mod:`.kernels` encoding)."""
    n = val.shape[0]
    codes = wdl_codes(val)
    padded = np.zeros(((n + 3) // 4) * 4, np.uint8)
    padded[:n] = codes
    quads = padded.reshape(-1, 4)
    packed = quads[:, 0] | quads[:, 1] << 2 | quads[:, 2] << 4 | quads[:, 3] << 6
    dtm = np.where((val != 0) & (val != BROKEN_VALUE), np.abs(val.astype(np.int32)) - 1, 0)
    half = dtm // 2
    width = 1 if int(half.max(initial=0)) <= 255 else 2
    dtm_bytes = half.astype("<u1" if width == 1 else "<u2").tobytes()
    counts = {
        "win": int((codes == WIN).sum()),
        "draw": int((codes == DRAW).sum()),
        "loss": int((codes == LOSS).sum()),
    }
    full = {
        **header,
        "positions": n,
        "dtm_bytes": width,
        "max_dtm": int(dtm.max(initial=0)),
        "counts": counts,
    }
    return encode_table(full, packed.astype(np.uint8).tobytes(), dtm_bytes, compression=compression)


def values_of(table: TableData) -> np.ndarray:
    """The :mod:`.kernels` value array of a decoded table."""
    n = table.size
    raw = np.frombuffer(table.wdl, np.uint8)
    codes = ((raw[:, None] >> np.array([0, 2, 4, 6], np.uint8)) & 3).reshape(-1)[:n]
    width = table.dtm_bytes
    half = np.frombuffer(table.dtm, "<u1" if width == 1 else "<u2").astype(np.int32)
    val = np.zeros(n, np.int16)
    win = codes == WIN
    loss = codes == LOSS
    val[win] = (2 * half[win] + 1 + 1).astype(np.int16)
    val[loss] = (-(2 * half[loss] + 1)).astype(np.int16)
    val[codes == 0] = BROKEN_VALUE
    return val


def load_values(path: Path) -> np.ndarray:
    return values_of(read_table(path))


def write_values(path: Path, data: bytes) -> None:
    """Write atomically: a file that exists is always complete."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(path.suffix + ".part")
    temporary.write_bytes(data)
    os.replace(temporary, path)


def is_complete(path: Path, rules: Mapping[str, Any]) -> bool:
    """The file exists, is of this format and these rules, and its checksum holds."""
    if not path.is_file():
        return False
    try:
        table = read_table(path)
    except ValueError:
        return False
    return dict(table.header.get("rules", {})) == dict(rules)
