"""The container of an endgame table file, whatever the game (standard library only).

A table is one byte an entry, its **value** for the side to move: ``0`` a draw, ``d + 1`` a
game decided in ``d`` plies (the winner making the last move, a win's ``d`` is odd and a
loss's even: the parity says which), :data:`NO_POSITION` (255) an entry no position has.

The file stores the values in **blocks** of ``block_entries`` entries, each compressed on
its own (raw LZMA2, or zlib), so that a reader decompresses only the blocks its probes touch
and keeps a few of them (:data:`CACHE_BLOCKS`, least recently used first out): the tiger
against four men is 208 M entries, 200 MB as values, and 2 MB in a reader's memory. One
blob compresses better (the blocks cost a fifth more on disk) but must be held whole.

    magic                 the game's format, one line
    header                one line of JSON: the game's fields, positions, block_entries,
                          blocks, compression, payload_bytes, sha256
    block index           blocks + 1 offsets into the payload, 8 bytes each, little endian
    payload               the compressed blocks, one after the other

The header's ``sha256`` is that of the block index and the payload as stored; reading checks
it and the sizes before anything is used, so a damaged file is a :class:`TablebaseError`
that says so (a block that still will not decompress says so when it is first read).

What the entries are (the index) is the game's own: :mod:`doushouqi.tiger.tablebase`.

>>> values = bytes([4, 3, 0])  # a win in 3 plies, a loss in 2, a draw
>>> data = encode_file(b"GAMETB\\n", {"format": 1, "positions": 3}, values, block_entries=2)
>>> table = decode_file(data, b"GAMETB\\n", 1)
>>> [table.wdl_at(i) for i in range(3)] == [WIN, LOSS, DRAW], table.dtm_at(0), table.dtm_at(1)
(True, 3, 2)
>>> table.header["blocks"], [NONE, LOSS, DRAW, WIN]  # two blocks; the WDL codes
(2, [0, 1, 2, 3])
>>> NO_POSITION, BLOCK_ENTRIES, CACHE_BLOCKS  # by default 256 K entries a block, 16 kept
(255, 262144, 16)
>>> decode_file(data[:-1], b"GAMETB\\n", 1, "cut.tb")
Traceback (most recent call last):
...
doushouqi.core.tablebase_file.TablebaseError: cut.tb: damaged (checksum mismatch: ...)
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import lzma
import sys
import zlib
from array import array
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

__all__ = [
    "BLOCK_ENTRIES",
    "CACHE_BLOCKS",
    "DRAW",
    "LOSS",
    "NONE",
    "NO_POSITION",
    "WIN",
    "TableFile",
    "TablebaseError",
    "decode_file",
    "encode_file",
    "read_file",
]

#: WDL codes, for the side to move: no position, loss, draw, win (:meth:`TableFile.wdl_at`).
NONE, LOSS, DRAW, WIN = 0, 1, 2, 3
#: The value byte of an entry no position has.
NO_POSITION = 255
#: Entries a block, by default: 256 KB of values, 0.2-1 ms to decompress (measured in
#: bench/tiger_tablebase_probe.py; smaller blocks cost more on disk, larger more time).
BLOCK_ENTRIES = 1 << 18
#: Decompressed blocks a reader keeps (16 of 256 KB: 4 MB at most a table).
CACHE_BLOCKS = 16

_OFFSET = "Q"  # the block index's item: unsigned 8 bytes


class TablebaseError(ValueError):
    """A table file that cannot be used: not one, another version, or damaged. The message
    names the file and says what is wrong.

    >>> decode_file(b"PK\\x03\\x04", b"GAMETB\\n", 1, "TvM4.tb")
    Traceback (most recent call last):
    ...
    doushouqi.core.tablebase_file.TablebaseError: TvM4.tb: not a table file of this format
    """


def _compressor(compression: str, block_bytes: int) -> tuple[Any, Any]:
    """(compress, decompress) of one block."""
    if compression == "lzma":
        # A dictionary the size of a block: no block reaches further back, and the reader
        # allocates no more than that.
        filters = [{"id": lzma.FILTER_LZMA2, "preset": 6, "dict_size": max(4096, block_bytes)}]
        return (
            functools.partial(lzma.compress, format=lzma.FORMAT_RAW, filters=filters),
            functools.partial(lzma.decompress, format=lzma.FORMAT_RAW, filters=filters),
        )
    if compression == "zlib":
        return functools.partial(zlib.compress, level=9), zlib.decompress
    raise ValueError(f"unknown compression {compression!r} (lzma or zlib)")


class TableFile:
    """A table read from its file: the header, and each entry's value, decompressed a block
    at a time when a probe first needs it; the last :data:`CACHE_BLOCKS` blocks used are
    kept (``cache_blocks`` another bound).

    >>> data = encode_file(b"T\\n", {"format": 1, "positions": 5}, bytes([2, 0, 1, 6, 255]))
    >>> table = decode_file(data, b"T\\n", 1)
    >>> table.size, table.value_at(3), table.wdl_at(3) == WIN, table.dtm_at(3)
    (5, 6, True, 5)
    >>> table.wdl_at(4) == NONE
    True
    """

    def __init__(
        self,
        header: dict[str, Any],
        offsets: array[int],
        payload: bytes,
        where: str = "table file",
        cache_blocks: int = CACHE_BLOCKS,
    ) -> None:
        self.header = header
        self._offsets = offsets
        self._payload = memoryview(payload)
        self._where = where
        self._per_block = int(header["block_entries"])
        self._decompress = _compressor(str(header["compression"]), self._per_block)[1]
        self._cached_block = functools.lru_cache(maxsize=cache_blocks)(self._decode)

    @property
    def size(self) -> int:
        """The number of entries (the header's ``positions``).

        >>> data = encode_file(b"T\\n", {"format": 1, "positions": 5}, bytes(5))
        >>> decode_file(data, b"T\\n", 1).size
        5
        """
        return int(self.header["positions"])

    def _decode(self, block: int) -> bytes:
        start, end = self._offsets[block], self._offsets[block + 1]
        expected = min(self._per_block, self.size - block * self._per_block)
        try:
            values = self._decompress(self._payload[start:end])
        except (lzma.LZMAError, zlib.error):
            values = b""
        if len(values) != expected:
            raise TablebaseError(f"{self._where}: damaged (block {block} does not decompress)")
        return bytes(values)

    def value_at(self, index: int) -> int:
        """The value byte of entry ``index`` (see the module docstring); IndexError outside
        the table.

        >>> data = encode_file(b"T\\n", {"format": 1, "positions": 2}, b"\\x00\\x04")
        >>> table = decode_file(data, b"T\\n", 1)
        >>> table.value_at(1)
        4
        >>> table.value_at(2)
        Traceback (most recent call last):
        ...
        IndexError: entry 2 is outside the table (2 entries)
        """
        if not 0 <= index < self.size:
            raise IndexError(f"entry {index} is outside the table ({self.size} entries)")
        block, offset = divmod(index, self._per_block)
        return self._cached_block(block)[offset]

    def wdl_at(self, index: int) -> int:
        """The result of entry ``index`` for the side to move: :data:`WIN`, :data:`DRAW`,
        :data:`LOSS`, or :data:`NONE` (no position).

        >>> data = encode_file(b"T\\n", {"format": 1, "positions": 3}, b"\\x00\\x02\\x01")
        >>> table = decode_file(data, b"T\\n", 1)
        >>> [table.wdl_at(i) for i in range(3)] == [DRAW, WIN, LOSS]
        True
        """
        value = self.value_at(index)
        if value == 0:
            return DRAW
        if value == NO_POSITION:
            return NONE
        return WIN if value % 2 == 0 else LOSS

    def dtm_at(self, index: int) -> int:
        """The distance in plies of a won or lost entry (0 for a draw): odd for a win.

        >>> data = encode_file(b"T\\n", {"format": 1, "positions": 2}, b"\\x10\\x00")
        >>> table = decode_file(data, b"T\\n", 1)
        >>> table.dtm_at(0), table.dtm_at(1)  # a win in 15 plies, a draw
        (15, 0)
        """
        value = self.value_at(index)
        return 0 if value in (0, NO_POSITION) else value - 1

    def blocks(self) -> Iterator[tuple[int, bytes]]:
        """Each block's first entry and values, in order, decompressed one at a time and not
        kept: a scan of the whole table that holds one block.

        >>> values, header = b"\\x00\\x02\\x01", {"format": 1, "positions": 3}
        >>> table = decode_file(encode_file(b"T\\n", header, values, block_entries=2), b"T\\n", 1)
        >>> list(table.blocks())
        [(0, b'\\x00\\x02'), (2, b'\\x01')]
        """
        for block in range(len(self._offsets) - 1):
            yield block * self._per_block, self._decode(block)

    def cache_info(self) -> Any:
        """The block cache's hits, misses and size (``functools.lru_cache``'s figures).

        >>> data = encode_file(b"T\\n", {"format": 1, "positions": 2}, bytes(2))
        >>> table = decode_file(data, b"T\\n", 1)
        >>> table.value_at(0), table.value_at(1), table.cache_info().hits, table.cache_info().misses
        (0, 0, 1, 1)
        """
        return self._cached_block.cache_info()


def encode_file(
    magic: bytes,
    header: Mapping[str, Any],
    values: bytes,
    *,
    block_entries: int = BLOCK_ENTRIES,
    compression: str = "lzma",
) -> bytes:
    """The file's bytes: ``magic``, the header (with ``positions``; the blocks, the
    compression and the checksum are added here), the block index, the compressed blocks.
    ValueError if the values do not fit ``positions`` or the compression is unknown.

    >>> encode_file(b"GAMETB\\n", {"positions": 5}, bytes(4))
    Traceback (most recent call last):
    ...
    ValueError: 4 values for 5 positions
    """
    positions = int(header["positions"])
    if len(values) != positions:
        raise ValueError(f"{len(values)} values for {positions} positions")
    if block_entries < 1:
        raise ValueError("a block holds at least one entry")
    compress = _compressor(compression, block_entries)[0]
    offsets = array(_OFFSET, [0])
    parts = []
    for start in range(0, positions, block_entries):
        parts.append(compress(values[start : start + block_entries]))
        offsets.append(offsets[-1] + len(parts[-1]))
    payload = b"".join(parts)
    index = _little_endian(offsets).tobytes()
    full = {
        **header,
        "compression": compression,
        "block_entries": block_entries,
        "blocks": len(parts),
        "payload_bytes": len(payload),
        "sha256": hashlib.sha256(index + payload).hexdigest(),
    }
    line = json.dumps(full, sort_keys=True, separators=(",", ":")).encode()
    return magic + line + b"\n" + index + payload


def _little_endian(offsets: array[int]) -> array[int]:
    if sys.byteorder == "big":
        offsets = array(offsets.typecode, offsets)
        offsets.byteswap()
    return offsets


def decode_file(data: bytes, magic: bytes, version: int, where: str = "table file") -> TableFile:
    """Check a file's bytes and read its header and block index (the blocks are
    decompressed when used): TablebaseError (naming the file as ``where``) on a bad magic, a
    header ``format`` other than ``version``, or a bad checksum or size.

    >>> header = {"format": 2, "positions": 1}
    >>> decode_file(encode_file(b"GAMETB\\n", header, b"\\x00"), b"GAMETB\\n", 1)
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
    try:
        positions = int(header["positions"])
        per_block = int(header["block_entries"])
        blocks = int(header["blocks"])
        payload_bytes = int(header["payload_bytes"])
        expected = str(header["sha256"])
        _compressor(str(header["compression"]), per_block)
    except (KeyError, TypeError, ValueError):
        raise TablebaseError(f"{where}: damaged (the header lacks a field)") from None
    index_bytes = (blocks + 1) * array(_OFFSET).itemsize
    rest = data[end + 1 :]
    if (
        per_block < 1
        or blocks != -(-positions // per_block)
        or len(rest) != index_bytes + payload_bytes
        or hashlib.sha256(rest).hexdigest() != expected
    ):
        raise TablebaseError(f"{where}: damaged (checksum mismatch: sha256 of the data differs)")
    offsets = array(_OFFSET)
    offsets.frombytes(rest[:index_bytes])
    offsets = _little_endian(offsets)
    if (
        offsets[0] != 0
        or offsets[-1] != payload_bytes
        or any(a > b for a, b in itertools.pairwise(offsets))
    ):
        raise TablebaseError(f"{where}: damaged (the block index is out of order)")
    return TableFile(header, offsets, rest[index_bytes:], where)


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
