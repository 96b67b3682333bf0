"""Endgame tablebase files: the position index and the file format (standard library only).

A **table** holds every position of one material signature with one side to move, always seen
from the side to move (the *mover*): a position with Blue to move is turned by a half turn with
the colours swapped first (docs/rules.md 1.4), so that the mover's den is d1 and the enemy den
d9. The table ``ELvR`` is "the mover has an elephant and a lion, the opponent a rat", whichever
colour moves. This is the colour symmetry: one table serves both colours.

**Index.** The animals are ordered the mover's first, each side strongest first (by animal:
elephant, lion, tiger, leopard, wolf, dog, cat, rat). Each animal has a domain of squares: the
rat 61 (every square but the two dens), the others the 49 land squares that are not a den (an
animal never stands on its own den, and one on the enemy den has ended the game). The first
animal's domain is cut to files a-d (the left-right mirror symmetry): a position whose first
animal stands on files e-g is mirrored before it is indexed. Positions with the first animal
on file d are stored as they stand (their mirror images, with the first animal on d too, are
other entries of the same table, of equal value). The index is mixed radix, first animal most
significant. Entries whose animals share a square are *broken* (never probed).

**Values.** Each entry is win, draw or loss for the mover, with the distance to mate (DTM):
the number of plies until the game is over on the board (a den entered, the last animal
captured, or a side to move without a legal move), the winner playing the fastest win and the
loser the longest defence. A win has an odd DTM (the winner makes the last move), a loss an
even one (0: the mover has no legal move).

**File** (``<signature>.dsqtb``)::

    b"DSQTB\\n"                            magic
    one line of JSON, then b"\\n"           header (format, signature, rules, counts, sha256 ...)
    payload                                 lzma (or zlib) of: WDL bytes, then DTM bytes

WDL is bit-packed, two bits an entry, four entries a byte (entry i in bits 2*(i % 4)):
0 broken, 1 loss, 2 draw, 3 win. DTM follows in ``dtm_bytes`` (1 or 2, little endian) per
entry, stored halved (``dtm // 2``: the parity follows from WDL); 0 for draws and broken
entries. The header's ``sha256`` is that of the payload as stored; reading checks it, and the
sizes, before anything is used: a damaged file is a :class:`TablebaseError` that says so.

A table that comes with the package, read by hand (what
:func:`doushouqi.jungle.tablebase.probe.probe` does for a board): Blue's rat on a6 against Red's
lion on d4, Blue to move, is the mover's rat on g4 against the lion on d6 in the mover's frame
(the half turn), and the rat on a4 after the mirror.

>>> from doushouqi.jungle.squares import LION, RAT, parse_square
>>> from doushouqi.jungle.tablebase.probe import shipped_directory
>>> name = signature_name([RAT], [LION])
>>> table = read_table(shipped_directory() / "wango" / f"{name}{SUFFIX}")
>>> name, table.header["format"] == FORMAT_VERSION, table.size
('RvL', True, 1666)
>>> index = index_of([RAT, LION], [parse_square("g4"), parse_square("d6")])
>>> table.wdl_at(index) == LOSS, table.dtm_at(index)  # the rat is caught in 12 plies
(True, 12)

The two-bit codes, the magic and the file name's suffix:

>>> [BROKEN, LOSS, DRAW, WIN]
[0, 1, 2, 3]
>>> MAGIC, SUFFIX, FORMAT_VERSION
(b'DSQTB\\n', '.dsqtb', 1)
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import lzma
import zlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from doushouqi.jungle.rules import Ranks, Repetition, RuleSet
from doushouqi.jungle.squares import ANIMAL_LETTERS, DENS, ELEPHANT, RAT, WATER

__all__ = [
    "BROKEN",
    "DRAW",
    "FORMAT_VERSION",
    "LAND_DOMAIN",
    "LOSS",
    "MAGIC",
    "RAT_DOMAIN",
    "SUFFIX",
    "WIN",
    "TableData",
    "TablebaseError",
    "decode_table",
    "encode_table",
    "index_of",
    "mirror_square",
    "out_of_scope_reason",
    "parse_signature",
    "radices",
    "read_table",
    "rules_key",
    "signature_name",
    "squares_of",
    "table_size",
    "value_key",
]

#: The first bytes of every table file (a file without them is no table).
MAGIC = b"DSQTB\n"
#: The version of the format written and read here; a file of another version is refused
#: (:class:`TablebaseError`: generate the tables again).
FORMAT_VERSION = 1
#: The file name's suffix: the table ``ELvR`` is ``ELvR.dsqtb``.
SUFFIX = ".dsqtb"

#: Two-bit WDL codes, for the side to move: broken (never probed), loss, draw, win.
BROKEN, LOSS, DRAW, WIN = 0, 1, 2, 3


class TablebaseError(ValueError):
    """A tablebase file that cannot be used: not one, another version, or damaged. The message
    names the file and says what is wrong; it is a ValueError.

    >>> try:
    ...     decode_table(b"PK\\x03\\x04", "ELvR.dsqtb")  # a zip file by that name
    ... except TablebaseError as error:
    ...     print(error, isinstance(error, ValueError))
    ELvR.dsqtb: not a doushouqi tablebase file True
    """


# --------------------------------------------------------------------------- index


def _file(square: int) -> int:
    return square % 7


def mirror_square(square: int) -> int:
    """The square mirrored left to right (file a <-> g, b <-> f, c <-> e; file d stays).

    >>> from doushouqi.jungle.squares import parse_square, square_name
    >>> [square_name(mirror_square(parse_square(name))) for name in ("a1", "c4", "d9")]
    ['g1', 'e4', 'd9']
    """
    return square - _file(square) + 6 - _file(square)


#: The squares a rat may stand on in a table position: every square but the two dens, the
#: lake included (see the module docstring).
RAT_DOMAIN: tuple[int, ...] = tuple(s for s in range(63) if s not in DENS)
#: The squares any other animal may stand on: :data:`RAT_DOMAIN` without the lake.
LAND_DOMAIN: tuple[int, ...] = tuple(s for s in RAT_DOMAIN if not WATER >> s & 1)
_HALF = {
    True: tuple(s for s in RAT_DOMAIN if _file(s) <= 3),
    False: tuple(s for s in LAND_DOMAIN if _file(s) <= 3),
}
_FULL = {True: RAT_DOMAIN, False: LAND_DOMAIN}
_HALF_POS = {rat: {s: i for i, s in enumerate(d)} for rat, d in _HALF.items()}
_FULL_POS = {rat: {s: i for i, s in enumerate(d)} for rat, d in _FULL.items()}


def radices(kinds: Sequence[int]) -> list[int]:
    """The domain size of each slot of a table whose animals are ``kinds`` (slot order): the
    rat's :data:`RAT_DOMAIN`, the others' :data:`LAND_DOMAIN`, the first slot's cut to files
    a-d (the mirror symmetry).

    >>> from doushouqi.jungle.squares import LION, RAT
    >>> len(RAT_DOMAIN), len(LAND_DOMAIN)  # 63 squares less the dens, and less the lake
    (61, 49)
    >>> radices([RAT, LION]), radices([LION, RAT])
    ([34, 49], [28, 61])
    """
    return [len((_HALF if i == 0 else _FULL)[kind == RAT]) for i, kind in enumerate(kinds)]


def table_size(kinds: Sequence[int]) -> int:
    """The number of entries of a table whose animals are ``kinds`` (slot order): the product
    of its :func:`radices`, broken entries included.

    >>> from doushouqi.jungle.squares import ELEPHANT, LION, RAT
    >>> table_size([RAT, LION]), table_size([ELEPHANT, LION, RAT])  # RvL: 34 * 49
    (1666, 83692)
    """
    size = 1
    for radix in radices(kinds):
        size *= radix
    return size


def index_of(kinds: Sequence[int], squares: Sequence[int]) -> int | None:
    """The entry of the animals ``kinds`` on ``squares`` (mover's frame, slot order), after
    the mirror that puts the first animal on files a-d; None if a square is outside its
    animal's domain (a den, or the lake for an animal that is not a rat).

    >>> from doushouqi.jungle.squares import LION, RAT, parse_square
    >>> def entry(*names):  # the mover's rat against the opponent's lion (table RvL)
    ...     return index_of([RAT, LION], [parse_square(name) for name in names])
    >>> entry("g4", "d6"), entry("a4", "d6")  # mirror images: one entry
    (566, 566)
    >>> entry("a4", "b5"), entry("a4", "d9")  # a lion in the lake, on the enemy den
    (None, None)
    """
    if _file(squares[0]) > 3:
        squares = [mirror_square(s) for s in squares]
    index = 0
    for slot, (kind, square) in enumerate(zip(kinds, squares, strict=True)):
        positions = (_HALF_POS if slot == 0 else _FULL_POS)[kind == RAT]
        digit = positions.get(square)
        if digit is None:
            return None
        index = index * len(positions) + digit
    return index


def squares_of(kinds: Sequence[int], index: int) -> list[int]:
    """The squares of the animals ``kinds`` in entry ``index``: the inverse of
    :func:`index_of` (the first animal on files a-d).

    >>> from doushouqi.jungle.squares import LION, RAT, square_name
    >>> [square_name(square) for square in squares_of([RAT, LION], 566)]
    ['a4', 'd6']
    >>> [square_name(square) for square in squares_of([RAT, LION], 0)]  # a broken entry
    ['a1', 'a1']
    """
    squares = []
    for slot in range(len(kinds) - 1, -1, -1):
        domain = (_HALF if slot == 0 else _FULL)[kinds[slot] == RAT]
        index, digit = divmod(index, len(domain))
        squares.append(domain[digit])
    return squares[::-1]


# ----------------------------------------------------------------------- signatures


def signature_name(mover: Sequence[int], opponent: Sequence[int]) -> str:
    """The table's name for the animals of the ``mover`` and the ``opponent`` (any order):
    the mover's animal letters strongest first, ``v``, the opponent's.

    >>> from doushouqi.jungle.squares import ELEPHANT, LION, RAT
    >>> signature_name([LION, ELEPHANT], [RAT]), signature_name([RAT], [ELEPHANT])
    ('ELvR', 'RvE')
    """

    def letters(animals: Sequence[int]) -> str:
        return "".join(ANIMAL_LETTERS[a] for a in sorted(animals, reverse=True))

    return f"{letters(mover)}v{letters(opponent)}"


def parse_signature(name: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(mover animals, opponent animals), each strongest first, of a table's name (any case,
    any order); ValueError if malformed. The inverse of :func:`signature_name`.

    >>> from doushouqi.jungle.squares import ELEPHANT, LION, RAT
    >>> parse_signature("ELvR") == ((ELEPHANT, LION), (RAT,))
    True
    >>> parse_signature("LEvR") == parse_signature("elvr")  # any order, any case
    True
    >>> parse_signature("ELR")
    Traceback (most recent call last):
    ...
    ValueError: bad tablebase signature 'ELR': expected e.g. 'ELvR'
    """
    left, sep, right = name.upper().partition("V")
    # Without a "v" the opponent's side is empty: say what is missing, not that it is empty.
    if not sep:
        raise ValueError(f"bad tablebase signature {name!r}: expected e.g. 'ELvR'")
    sides = []
    for text in (left, right):
        animals = []
        for letter in text:
            animal = ANIMAL_LETTERS.find(letter)
            if animal < RAT or animal > ELEPHANT:
                raise ValueError(f"bad tablebase signature {name!r}: unknown animal {letter!r}")
            animals.append(animal)
        if not animals or len(set(animals)) != len(animals):
            raise ValueError(f"bad tablebase signature {name!r}: each side needs distinct animals")
        sides.append(tuple(sorted(animals, reverse=True)))
    return sides[0], sides[1]


# ------------------------------------------------------------------------- rules


def out_of_scope_reason(rules: RuleSet) -> str | None:
    """Why the tables cannot answer under ``rules`` (rules whose moves depend on the game's
    history, which a table of positions cannot know), or None when they can.

    >>> from doushouqi.jungle.rules import BUILTIN_RULE_SETS
    >>> out_of_scope_reason(BUILTIN_RULE_SETS["wango"]) is None
    True
    >>> out_of_scope_reason(BUILTIN_RULE_SETS["classic"])
    "repetition 'initiator_must_vary' restricts moves by the game's history"
    """
    if rules.repetition is not Repetition.THREEFOLD_DRAW:
        return "repetition 'initiator_must_vary' restricts moves by the game's history"
    if rules.rule_7_3 or rules.rule_17_5:
        return "the 7-3 and 17-5 move restrictions depend on the game's history"
    return None


def rules_key(rules: RuleSet) -> dict[str, Any]:
    """The options of ``rules`` that decide the moves, as the generator takes them (a table
    file's header keeps them as ``move_rules``).

    >>> from doushouqi.jungle.rules import BUILTIN_RULE_SETS
    >>> rules_key(BUILTIN_RULE_SETS["wango"])
    {'ranks': 'wolf>dog', 'own_rat_blocks_jump': True, 'rat_captures_across_water': False,
     'trapped_can_capture': False}
    """
    return {
        "ranks": rules.ranks.value,
        "own_rat_blocks_jump": rules.own_rat_blocks_jump,
        "rat_captures_across_water": rules.rat_captures_across_water,
        "trapped_can_capture": rules.trapped_can_capture,
    }


def value_key(rules: RuleSet) -> dict[str, Any]:
    """The options a table's values depend on: :func:`rules_key` without
    ``trapped_can_capture`` (and the no-capture limit aside, see
    :mod:`doushouqi.jungle.tablebase.probe`).

    ``trapped_can_capture`` changes no value: it only adds captures by an animal of the side
    to move that stands on an enemy trap, and such an animal can always enter the enemy den
    next to it instead (every trap touches the den, and nothing can stand on it), which wins
    in 1, the fastest win there is. Elsewhere the moves are the same under both values, so
    the tables of ``wango`` and ``international`` are one set (their move lists differ, which
    :func:`doushouqi.jungle.tablebase.probe.probe_moves` reads from the rules library).

    >>> from doushouqi.jungle.rules import BUILTIN_RULE_SETS
    >>> wango, international = BUILTIN_RULE_SETS["wango"], BUILTIN_RULE_SETS["international"]
    >>> rules_key(wango) == rules_key(international), value_key(wango) == value_key(international)
    (False, True)
    >>> value_key(wango)
    {'ranks': 'wolf>dog', 'own_rat_blocks_jump': True, 'rat_captures_across_water': False}
    """
    key = rules_key(rules)
    del key["trapped_can_capture"]
    return key


def ranks_of(rules_options: Mapping[str, Any]) -> list[int]:
    """Rank of each animal (index 0 unused) under the ``ranks`` option."""
    ranks = list(range(9))
    if rules_options["ranks"] == Ranks.DOG_OVER_WOLF.value:
        ranks[3], ranks[4] = ranks[4], ranks[3]
    return ranks


# ---------------------------------------------------------------------- the file


@dataclasses.dataclass(frozen=True)
class TableData:
    """A decoded table: its header and the raw WDL (bit-packed) and DTM bytes, as
    :func:`decode_table` and :func:`read_table` give it; entries are read by index
    (:func:`index_of`).

    >>> wdl = bytes([WIN | LOSS << 2 | DRAW << 4 | BROKEN << 6])  # four entries in one byte
    >>> table = TableData({"positions": 4, "dtm_bytes": 1}, wdl, bytes([3, 5, 0, 0]))
    >>> [table.wdl_at(index) for index in range(table.size)] == [WIN, LOSS, DRAW, BROKEN]
    True
    >>> table.dtm_at(0), table.dtm_at(1)  # stored halved: a win in 7, a loss in 10
    (7, 10)
    """

    header: dict[str, Any]
    wdl: bytes
    dtm: bytes

    @property
    def size(self) -> int:
        """The number of entries (the header's ``positions``): the :func:`table_size` of the
        signature's animals, broken entries included.

        >>> from doushouqi.jungle.squares import LION, RAT
        >>> from doushouqi.jungle.tablebase.probe import shipped_directory
        >>> table = read_table(shipped_directory() / "wango" / "RvL.dsqtb")
        >>> table.size, table.size == table_size([RAT, LION]), len(table.wdl)  # 4 a byte
        (1666, True, 417)
        """
        return int(self.header["positions"])

    @property
    def dtm_bytes(self) -> int:
        """Bytes per DTM entry (little endian): 1, or 2 for a table whose longest DTM does not
        fit a byte once halved (over 511 plies).

        >>> from doushouqi.jungle.tablebase.probe import shipped_directory
        >>> table = read_table(shipped_directory() / "wango" / "RvL.dsqtb")
        >>> table.dtm_bytes, len(table.dtm) == table.size * table.dtm_bytes
        (1, True)
        """
        return int(self.header["dtm_bytes"])

    def wdl_at(self, index: int) -> int:
        """The two-bit code of entry ``index`` for the mover: :data:`WIN`, :data:`DRAW`,
        :data:`LOSS`, or :data:`BROKEN` (animals sharing a square: never probed).

        >>> from collections import Counter
        >>> from doushouqi.jungle.tablebase.probe import shipped_directory
        >>> table = read_table(shipped_directory() / "wango" / "RvL.dsqtb")
        >>> codes = Counter(table.wdl_at(index) for index in range(table.size))
        >>> codes[WIN], codes[DRAW], codes[LOSS], codes[BROKEN]  # the rat's 28 land squares
        (493, 115, 1030, 28)
        """
        return self.wdl[index >> 2] >> (2 * (index & 3)) & 3

    def dtm_at(self, index: int) -> int:
        """DTM in plies of a win or loss entry (0 for draws): odd for a win, even for a loss.

        >>> from doushouqi.jungle.tablebase.probe import shipped_directory
        >>> table = read_table(shipped_directory() / "wango" / "RvL.dsqtb")
        >>> max(table.dtm_at(index) for index in range(table.size)) == table.header["max_dtm"]
        True
        >>> table.wdl_at(566), table.dtm_at(566)  # the rat on a4, the lion on d6: lost in 12
        (1, 12)
        """
        width = self.dtm_bytes
        half = int.from_bytes(self.dtm[index * width : index * width + width], "little")
        return 2 * half + (1 if self.wdl_at(index) == WIN else 0)


def encode_table(
    header: Mapping[str, Any], wdl: bytes, dtm: bytes, *, compression: str = "lzma"
) -> bytes:
    """The file's bytes for the packed ``wdl`` and the halved ``dtm`` entries, compressed
    with ``compression`` (``"lzma"`` or ``"zlib"``). ``header`` needs ``positions`` and
    ``dtm_bytes``; the format, the sizes, the compression and the checksum are added here.
    ValueError if the bytes do not fit ``positions`` or the compression is unknown.

    >>> wdl = bytes([WIN | LOSS << 2 | DRAW << 4 | BROKEN << 6])
    >>> data = encode_table({"positions": 4, "dtm_bytes": 1, "signature": "LvR"}, wdl, bytes(4))
    >>> data.startswith(MAGIC), decode_table(data).header["compression"]
    (True, 'lzma')
    >>> encode_table({"positions": 5, "dtm_bytes": 1}, wdl, bytes(4))
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
        "format": FORMAT_VERSION,
        "compression": compression,
        "raw_bytes": len(raw),
        "payload_bytes": len(payload),
        "sha256": hashlib.sha256(payload).hexdigest(),
    }
    line = json.dumps(full, sort_keys=True, separators=(",", ":")).encode()
    return MAGIC + line + b"\n" + payload


def decode_header(data: bytes, where: str = "tablebase file") -> tuple[dict[str, Any], int]:
    """(header, offset of the payload); TablebaseError unless it is a table of this format."""
    if not data.startswith(MAGIC):
        raise TablebaseError(f"{where}: not a doushouqi tablebase file")
    end = data.find(b"\n", len(MAGIC))
    if end < 0:
        raise TablebaseError(f"{where}: damaged (the header is cut off)")
    try:
        header = json.loads(data[len(MAGIC) : end])
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise TablebaseError(f"{where}: damaged (the header is not readable)") from None
    if not isinstance(header, dict):
        raise TablebaseError(f"{where}: damaged (the header is not readable)")
    if header.get("format") != FORMAT_VERSION:
        raise TablebaseError(
            f"{where}: format version {header.get('format')!r}, this library reads "
            f"version {FORMAT_VERSION} (generate the tables again)"
        )
    return header, end + 1


def decode_table(data: bytes, where: str = "tablebase file") -> TableData:
    """Check and decode a file's bytes: TablebaseError on a bad magic, version, checksum or
    size (the message names the file as ``where`` and says it is damaged).

    >>> wdl = bytes([WIN | LOSS << 2 | DRAW << 4 | BROKEN << 6])
    >>> data = encode_table({"positions": 4, "dtm_bytes": 1}, wdl, bytes([3, 5, 0, 0]))
    >>> table = decode_table(data)
    >>> table.header["format"] == FORMAT_VERSION, table.wdl_at(0) == WIN, table.dtm_at(0)
    (True, True, 7)
    >>> decode_table(data[:-1], "LvR.dsqtb")  # a file cut short
    Traceback (most recent call last):
    ...
    doushouqi.jungle.tablebase.file_format.TablebaseError: LvR.dsqtb: damaged (checksum ...)
    """
    header, offset = decode_header(data, where)
    payload = data[offset:]
    try:
        expected = str(header["sha256"])
        positions = int(header["positions"])
        width = int(header["dtm_bytes"])
        compression = str(header["compression"])
        raw_bytes = int(header["raw_bytes"])
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
    return TableData(header, raw[:wdl_bytes], raw[wdl_bytes:])


def read_table(path: str | Path) -> TableData:
    """Read and check one table file (:func:`decode_table`); TablebaseError, naming the
    file, when it cannot be read or is no table of this format.

    >>> from doushouqi.jungle.tablebase.probe import shipped_directory
    >>> table = read_table(shipped_directory() / "wango" / f"ELvR{SUFFIX}")
    >>> table.header["signature"], table.header["family"], table.size
    ('ELvR', 'wango', 83692)
    >>> read_table("/no/such/ELvR.dsqtb")
    Traceback (most recent call last):
    ...
    doushouqi.jungle.tablebase.file_format.TablebaseError: /no/such/ELvR.dsqtb: cannot read: ...
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise TablebaseError(f"{path}: cannot read: {exc.strerror or exc}") from None
    return decode_table(data, str(path))
