"""The container of an endgame table file, whatever the game (standard library only).

A file is a magic line naming the game's format, one line of JSON (the header), then the
payload: the values, compressed (lzma or zlib). The values are two parts, as every game's
tables keep them: WDL bit-packed, two bits an entry (entry ``i`` in bits ``2 * (i % 4)`` of
byte ``i // 4``; the codes :data:`LOSS`, :data:`DRAW`, :data:`WIN`, and 0 for an entry no
position has), then the distance to the end, ``dtm_bytes`` per entry (little endian), stored
halved (the parity follows from the result: a win's distance is odd, a loss's even). The
header's ``sha256`` is that of the payload as stored; reading checks it and the sizes before
anything is used, so a damaged file is a :class:`TablebaseError` that says so.

What the entries are (the index) is the game's own: :mod:`doushouqi.tiger.tablebase`.

>>> wdl = bytes([WIN | LOSS << 2 | DRAW << 4])  # three entries in one byte
>>> header = {"format": 1, "positions": 3, "dtm_bytes": 1}
>>> data = encode_file(b"GAMETB\\n", header, wdl, bytes([3, 5, 0]))
>>> table = decode_file(data, b"GAMETB\\n", 1)
>>> [table.wdl_at(i) for i in range(3)] == [WIN, LOSS, DRAW], table.dtm_at(0), table.dtm_at(1)
(True, 7, 10)
>>> [NONE, LOSS, DRAW, WIN]  # the two-bit codes
[0, 1, 2, 3]
>>> decode_file(data[:-1], b"GAMETB\\n", 1, "cut.tb")
Traceback (most recent call last):
...
doushouqi.core.tablebase_file.TablebaseError: cut.tb: damaged (checksum mismatch: ...)
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import lzma
import zlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

__all__ = [
    "DRAW",
    "LOSS",
    "NONE",
    "WIN",
    "TableFile",
    "TablebaseError",
    "decode_file",
    "encode_file",
    "read_file",
]

#: Two-bit WDL codes, for the side to move: no position, loss, draw, win.
NONE, LOSS, DRAW, WIN = 0, 1, 2, 3


class TablebaseError(ValueError):
    """A table file that cannot be used: not one, another version, or damaged. The message
    names the file and says what is wrong.

    >>> decode_file(b"PK\\x03\\x04", b"GAMETB\\n", 1, "TvM4.tb")
    Traceback (most recent call last):
    ...
    doushouqi.core.tablebase_file.TablebaseError: TvM4.tb: not a table file of this format
    """


@dataclasses.dataclass(frozen=True)
class TableFile:
    """A decoded table: its header, the packed WDL and the halved DTM bytes.

    >>> table = TableFile({"positions": 2, "dtm_bytes": 1}, bytes([WIN | LOSS << 2]), b"\\x00\\x02")
    >>> table.size, table.wdl_at(1), table.dtm_at(1)
    (2, 1, 4)
    """

    header: dict[str, Any]
    wdl: bytes
    dtm: bytes

    @property
    def size(self) -> int:
        """The number of entries (the header's ``positions``).

        >>> TableFile({"positions": 5, "dtm_bytes": 1}, bytes(2), bytes(5)).size
        5
        """
        return int(self.header["positions"])

    def wdl_at(self, index: int) -> int:
        """The two-bit code of entry ``index``: :data:`WIN`, :data:`DRAW`, :data:`LOSS`, or
        :data:`NONE`.

        >>> table = TableFile({"positions": 2, "dtm_bytes": 1}, bytes([DRAW | WIN << 2]), bytes(2))
        >>> table.wdl_at(0) == DRAW, table.wdl_at(1) == WIN
        (True, True)
        """
        return self.wdl[index >> 2] >> (2 * (index & 3)) & 3

    def dtm_at(self, index: int) -> int:
        """The distance in plies of a won or lost entry (0 for a draw): odd for a win.

        >>> header = {"positions": 2, "dtm_bytes": 1}
        >>> table = TableFile(header, bytes([WIN | DRAW << 2]), b"\\x07\\x00")
        >>> table.dtm_at(0), table.dtm_at(1)  # a win in 15 plies, a draw
        (15, 0)
        """
        width = int(self.header["dtm_bytes"])
        half = int.from_bytes(self.dtm[index * width : index * width + width], "little")
        return 2 * half + (1 if self.wdl_at(index) == WIN else 0)


def encode_file(
    magic: bytes,
    header: Mapping[str, Any],
    wdl: bytes,
    dtm: bytes,
    *,
    compression: str = "lzma",
) -> bytes:
    """The file's bytes: ``magic``, the header (with ``positions`` and ``dtm_bytes``; the
    sizes, the compression and the checksum are added here), the compressed payload.
    ValueError if the bytes do not fit ``positions`` or the compression is unknown.

    >>> encode_file(b"GAMETB\\n", {"positions": 5, "dtm_bytes": 1}, b"\\x00", bytes(4))
    Traceback (most recent call last):
    ...
    ValueError: WDL or DTM bytes do not fit the number of positions
    """
    positions = int(header["positions"])
    width = int(header["dtm_bytes"])
    if len(wdl) != (positions + 3) // 4 or len(dtm) != positions * width:
        raise ValueError("WDL or DTM bytes do not fit the number of positions")
    raw = wdl + dtm
    if compression == "lzma":
        payload = lzma.compress(raw, preset=6)
    elif compression == "zlib":
        payload = zlib.compress(raw, 9)
    else:
        raise ValueError(f"unknown compression {compression!r} (lzma or zlib)")
    full = {
        **header,
        "compression": compression,
        "raw_bytes": len(raw),
        "payload_bytes": len(payload),
        "sha256": hashlib.sha256(payload).hexdigest(),
    }
    line = json.dumps(full, sort_keys=True, separators=(",", ":")).encode()
    return magic + line + b"\n" + payload


def decode_file(data: bytes, magic: bytes, version: int, where: str = "table file") -> TableFile:
    """Check and decode a file's bytes: TablebaseError (naming the file as ``where``) on a
    bad magic, a header ``format`` other than ``version``, or a bad checksum or size.

    >>> header = {"format": 2, "positions": 1, "dtm_bytes": 1}
    >>> decode_file(encode_file(b"GAMETB\\n", header, b"\\x02", b"\\x00"), b"GAMETB\\n", 1)
    Traceback (most recent call last):
    ...
    doushouqi.core.tablebase_file.TablebaseError: table file: format version 2, this library ...
    """
    if not data.startswith(magic):
        raise TablebaseError(f"{where}: not a table file of this format")
    end = data.find(b"\n", len(magic))
    try:
        header = json.loads(data[len(magic) : end]) if end >= 0 else None
    except (json.JSONDecodeError, UnicodeDecodeError):
        header = None
    if not isinstance(header, dict):
        raise TablebaseError(f"{where}: damaged (the header is not readable)")
    if header.get("format") != version:
        raise TablebaseError(
            f"{where}: format version {header.get('format')!r}, this library reads "
            f"version {version} (generate the tables again)"
        )
    payload = data[end + 1 :]
    try:
        positions = int(header["positions"])
        width = int(header["dtm_bytes"])
        compression = str(header["compression"])
        raw_bytes = int(header["raw_bytes"])
        expected = str(header["sha256"])
    except (KeyError, TypeError, ValueError):
        raise TablebaseError(f"{where}: damaged (the header lacks a field)") from None
    if (
        len(payload) != header.get("payload_bytes")
        or hashlib.sha256(payload).hexdigest() != expected
    ):
        raise TablebaseError(f"{where}: damaged (checksum mismatch: sha256 of the data differs)")
    try:
        if compression == "lzma":
            raw = lzma.decompress(payload)
        elif compression == "zlib":
            raw = zlib.decompress(payload)
        else:
            raise TablebaseError(f"{where}: unknown compression {compression!r}")
    except (lzma.LZMAError, zlib.error):
        raise TablebaseError(f"{where}: damaged (the data does not decompress)") from None
    wdl_bytes = (positions + 3) // 4
    if len(raw) != raw_bytes or raw_bytes != wdl_bytes + positions * width:
        raise TablebaseError(f"{where}: damaged (the data has the wrong size)")
    return TableFile(header, raw[:wdl_bytes], raw[wdl_bytes:])


def read_file(path: str | Path, magic: bytes, version: int) -> TableFile:
    """Read and check one table file (:func:`decode_file`); TablebaseError, naming the file,
    when it cannot be read.

    >>> read_file("/no/such/TvM4.tb", b"GAMETB\\n", 1)
    Traceback (most recent call last):
    ...
    doushouqi.core.tablebase_file.TablebaseError: /no/such/TvM4.tb: cannot read: ...
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise TablebaseError(f"{path}: cannot read: {exc.strerror or exc}") from None
    return decode_file(data, magic, version, str(path))
