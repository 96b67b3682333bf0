"""The tablebase file format and index (doushouqi.jungle.tablebase.file_format): round trip,
checksum, version, index, signatures."""

from __future__ import annotations

import random

import pytest

from doushouqi.jungle.squares import ELEPHANT, LION, RAT, TIGER
from doushouqi.jungle.tablebase.file_format import (
    DRAW,
    LOSS,
    WIN,
    TablebaseError,
    decode_table,
    encode_table,
    index_of,
    mirror_square,
    parse_signature,
    signature_name,
    squares_of,
    table_size,
)


def _sample_table(positions: int = 10) -> bytes:
    codes = [WIN, LOSS, DRAW, 0, WIN, WIN, LOSS, DRAW, WIN, LOSS][:positions]
    packed = bytearray((positions + 3) // 4)
    for i, code in enumerate(codes):
        packed[i >> 2] |= code << (2 * (i & 3))
    halves = [i if code in (WIN, LOSS) else 0 for i, code in enumerate(codes)]
    header = {"positions": positions, "dtm_bytes": 1, "signature": "LvR"}
    return encode_table(header, bytes(packed), bytes(halves))


@pytest.mark.parametrize("compression", ["lzma", "zlib"])
def test_round_trip(compression: str) -> None:
    data = _sample_table()
    if compression == "zlib":
        table = decode_table(data)
        data = encode_table(table.header, table.wdl, table.dtm, compression="zlib")
    table = decode_table(data)
    assert table.header["compression"] == compression
    assert [table.wdl_at(i) for i in range(10)] == [3, 1, 2, 0, 3, 3, 1, 2, 3, 1]
    # Wins are stored halved with odd parity, losses with even parity.
    assert table.dtm_at(0) == 1 and table.dtm_at(1) == 2 and table.dtm_at(4) == 9
    assert table.dtm_at(2) == 0


@pytest.mark.parametrize("where", ["payload", "header"])
def test_corruption_is_a_clear_error(where: str) -> None:
    data = bytearray(_sample_table())
    if where == "payload":
        data[-3] ^= 0x40
    else:
        data[len(b"DSQTB\n") + 2] = ord("#")
    with pytest.raises(TablebaseError, match="damaged"):
        decode_table(bytes(data), "LvR.dsqtb")


def test_truncated_file_is_damaged() -> None:
    data = _sample_table()
    with pytest.raises(TablebaseError, match="checksum"):
        decode_table(data[:-5])


def test_other_version_and_other_files_are_refused() -> None:
    data = _sample_table().replace(b'"format":1', b'"format":9')
    with pytest.raises(TablebaseError, match="format version 9"):
        decode_table(data)
    with pytest.raises(TablebaseError, match="not a doushouqi tablebase"):
        decode_table(b"PK\x03\x04 not a table")


def test_index_round_trip_and_mirror() -> None:
    rng = random.Random(3)
    kinds = [ELEPHANT, LION, RAT, TIGER]
    size = table_size(kinds)
    assert size == 28 * 49 * 61 * 49
    for _ in range(500):
        index = rng.randrange(size)
        squares = squares_of(kinds, index)
        assert index_of(kinds, squares) == index
        mirrored = [mirror_square(s) for s in squares]
        if squares[0] % 7 != 3:  # the mirror image is indexed as the original
            assert index_of(kinds, mirrored) == index
    # An elephant in the water or on a den has no entry.
    assert index_of([ELEPHANT, RAT], [22, 0]) is None
    assert index_of([ELEPHANT, RAT], [3, 0]) is None


def test_signatures() -> None:
    assert signature_name([RAT, ELEPHANT], [LION]) == "ERvL"
    assert parse_signature("ERvL") == ((ELEPHANT, RAT), (LION,))
    for bad in ("ER", "EEvL", "vL", "EXvL"):
        with pytest.raises(ValueError, match="signature"):
            parse_signature(bad)


def test_a_signature_without_v_says_so() -> None:
    # "ER" once read as an empty opponent side ("each side needs distinct animals").
    with pytest.raises(ValueError, match=r"expected e\.g\. 'ELvR'"):
        parse_signature("ER")
    with pytest.raises(ValueError, match="distinct animals"):
        parse_signature("ERv")
