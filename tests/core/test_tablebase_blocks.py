"""The table file's blocks (doushouqi.core.tablebase_file): each decompressed on its own when
a probe needs it, a bounded few kept, a damaged one named, every value as written."""

from __future__ import annotations

import random

import pytest

from doushouqi.core.tablebase_file import (
    DRAW,
    LOSS,
    NO_POSITION,
    NONE,
    WIN,
    TablebaseError,
    decode_file,
    encode_file,
)

MAGIC = b"TEST\n"


def _values(count: int, seed: int = 1) -> bytes:
    rng = random.Random(seed)
    return bytes(rng.choice([0, 0, 0, 1, 2, 3, 4, 16, NO_POSITION]) for _ in range(count))


@pytest.mark.parametrize("compression", ["lzma", "zlib"])
@pytest.mark.parametrize("block_entries", [1, 7, 64, 1000])
def test_every_value_reads_back(compression: str, block_entries: int) -> None:
    values = _values(1000)
    header = {"format": 3, "positions": len(values)}
    data = encode_file(MAGIC, header, values, block_entries=block_entries, compression=compression)
    table = decode_file(data, MAGIC, 3)
    assert table.header["blocks"] == -(-1000 // block_entries)
    assert bytes(table.value_at(i) for i in range(1000)) == values
    assert b"".join(part for _, part in table.blocks()) == values
    assert [start for start, _ in table.blocks()] == list(range(0, 1000, block_entries))


def test_results_and_distances_follow_the_value_byte() -> None:
    values = bytes([0, 1, 2, 3, 16, 31, 254, NO_POSITION])
    table = decode_file(encode_file(MAGIC, {"format": 1, "positions": 8}, values), MAGIC, 1)
    assert [table.wdl_at(i) for i in range(8)] == [DRAW, LOSS, WIN, LOSS, WIN, LOSS, WIN, NONE]
    assert [table.dtm_at(i) for i in range(8)] == [0, 0, 1, 2, 15, 30, 253, 0]


def test_only_the_blocks_probed_are_decompressed_and_few_are_kept() -> None:
    values = _values(10_000)
    data = encode_file(MAGIC, {"format": 1, "positions": 10_000}, values, block_entries=100)
    table = decode_file(data, MAGIC, 1)
    assert table.cache_info().currsize == 0  # reading decompresses nothing
    table.value_at(5)
    table.value_at(50)  # the same block
    assert (table.cache_info().hits, table.cache_info().misses) == (1, 1)
    for index in range(0, 10_000, 37):
        assert table.value_at(index) == values[index]
    assert table.cache_info().currsize == table.cache_info().maxsize == 16


def test_an_entry_outside_the_table_is_an_index_error() -> None:
    table = decode_file(encode_file(MAGIC, {"format": 1, "positions": 3}, bytes(3)), MAGIC, 1)
    for outside in (-1, 3):
        with pytest.raises(IndexError, match="outside the table"):
            table.value_at(outside)


def test_a_damaged_file_is_refused_before_use() -> None:
    data = encode_file(MAGIC, {"format": 1, "positions": 500}, _values(500), block_entries=50)
    flipped = bytearray(data)
    flipped[-20] ^= 0xFF
    with pytest.raises(TablebaseError, match="checksum mismatch"):
        decode_file(bytes(flipped), MAGIC, 1, "T.tb")
    with pytest.raises(TablebaseError, match=r"T\.tb: damaged"):
        decode_file(data + b"\0", MAGIC, 1, "T.tb")
    with pytest.raises(TablebaseError, match="format version 1, this library reads version 2"):
        decode_file(data, MAGIC, 2, "T.tb")


def test_a_block_that_does_not_decompress_is_named_when_read() -> None:
    # A file whose checksum was made to fit a broken block (a writer's bug, not the disk's):
    # the reader says which block when a probe reaches it.
    import hashlib
    import json

    data = encode_file(MAGIC, {"format": 1, "positions": 100}, _values(100), block_entries=50)
    end = data.index(b"\n", len(MAGIC))
    header = json.loads(data[len(MAGIC) : end])
    rest = bytearray(data[end + 1 :])
    second = int.from_bytes(rest[8:16], "little") + 24  # after the index's three offsets
    rest[second:] = b"\xff" * (len(rest) - second)  # the last block, garbled
    header["sha256"] = hashlib.sha256(rest).hexdigest()
    line = json.dumps(header).encode()
    table = decode_file(MAGIC + line + b"\n" + bytes(rest), MAGIC, 1, "T.tb")
    assert table.value_at(0) is not None  # the first block is sound
    with pytest.raises(TablebaseError, match=r"T\.tb: damaged \(block 1 does not decompress\)"):
        table.value_at(99)


def test_values_that_do_not_fit_the_positions_are_refused() -> None:
    with pytest.raises(ValueError, match="3 values for 4 positions"):
        encode_file(MAGIC, {"positions": 4}, bytes(3))
    with pytest.raises(ValueError, match="unknown compression"):
        encode_file(MAGIC, {"positions": 1}, bytes(1), compression="bz2")
