"""The Tiger's endgame tables: which positions a table holds, how they are numbered, and the
file (standard library only).

A table holds every position of one tiger against ``k`` men under rules in which any capture
wins for the tiger (``tiger_wins_below`` is ``k``): both sides to move, the tiger to move
first. The table ``TvM4`` is one tiger against four men, the least material with which the
men can still win under ``laohuqi`` (three men hem the tiger in nowhere).

**Index.** ``side * half + digit * C(86, k) + rank``: ``side`` 0 with the tiger to move, 1
with the men to move; ``half`` the entries of one side; ``digit`` the tiger's place among
:data:`TIGER_DOMAIN`, the 49 points of files a-e (a position whose tiger stands on files f-i
is mirrored left to right first, which changes no value); ``rank`` the men's set in the
colex order of the 86 other points (each point above the tiger's moved down by one). Every
entry is a position: no two pieces share a point. A position with the tiger on file e is
stored as it stands (its mirror image, the tiger on e too, is another entry of equal value).

**Values** for the side to move: win, draw or loss, with the distance to the end (DTM): the
plies until the game is over on the board (a capture, or a side to move without a move), the
winner playing the fastest win and the loser the longest defence. A draw is a position from
which neither side can force a win: play goes on until a position repeats.

**File** ``TvM4.tigertb``: the container of :mod:`doushouqi.core.tablebase_file` with
:data:`MAGIC`: a JSON header (format, signature, rules, counts, checksum), then the values,
one byte an entry, in independently compressed blocks (a reader decompresses the blocks its
probes touch and keeps a few: 2 MB in memory where version 1, one compressed blob, kept
260 MB). A file of another version is refused with a message that says so.

>>> table_size(4), TIGER_DOMAIN_SIZE, table_name(4)
(208108390, 49, 'TvM4')
>>> from doushouqi.tiger.points import parse_point, point_name
>>> e10, men = parse_point("e10"), [parse_point(p) for p in ("a1", "b1", "c1", "d1")]
>>> index = index_of(TIGER_TO_MOVE, e10, men)
>>> side, tiger, found = position_of(4, index)
>>> side, point_name(tiger), [point_name(p) for p in found]
(0, 'e10', ['a1', 'b1', 'c1', 'd1'])

Mirror images share an entry when the tiger is off file e:

>>> len(TIGER_DOMAIN), point_name(MIRROR[parse_point("b3")])
(49, 'h3')
>>> def at(tiger, *men):
...     return index_of(MEN_TO_MOVE, parse_point(tiger), [parse_point(p) for p in men])
>>> at("b3", "a1", "b1", "c1") == at("h3", "i1", "h1", "g1")
True

The file's magic, suffix and version:

>>> MAGIC, SUFFIX, FORMAT_VERSION
(b'DSQTIGERTB\\n', '.tigertb', 2)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from doushouqi.core.tablebase_file import TablebaseError, TableFile, read_file
from doushouqi.tiger.points import NUM_POINTS, point_at, point_file, point_rank
from doushouqi.tiger.rules import RuleSet

__all__ = [
    "FORMAT_VERSION",
    "MAGIC",
    "MEN_TO_MOVE",
    "MIRROR",
    "SUFFIX",
    "TIGER_DOMAIN",
    "TIGER_DOMAIN_SIZE",
    "TIGER_TO_MOVE",
    "TableFile",
    "TablebaseError",
    "family_name",
    "half_size",
    "index_of",
    "out_of_scope_reason",
    "parse_table_name",
    "position_of",
    "read_table",
    "table_name",
    "table_size",
]

#: The first bytes of every Tiger table file.
MAGIC = b"DSQTIGERTB\n"
#: The version written and read here (another is refused: generate the tables again).
FORMAT_VERSION = 2
#: The file name's suffix: ``TvM4.tigertb``.
SUFFIX = ".tigertb"
#: The ``side`` of an entry (:func:`index_of`): the tiger to move, or the men.
TIGER_TO_MOVE, MEN_TO_MOVE = 0, 1

#: The points a table's tiger stands on: files a-e (the mirror symmetry folds the rest).
TIGER_DOMAIN: tuple[int, ...] = tuple(p for p in range(NUM_POINTS) if point_file(p) <= 4)
#: Their number, 49 (45 on the board and d10 e10 d11 e11 in the nest).
TIGER_DOMAIN_SIZE = len(TIGER_DOMAIN)
_DIGIT = {point: digit for digit, point in enumerate(TIGER_DOMAIN)}
#: Each point's mirror image (file a <-> i, b <-> h, ...; file e stays).
MIRROR: tuple[int, ...] = tuple(
    point_at(8 - point_file(p), point_rank(p)) or 0 for p in range(NUM_POINTS)
)


def half_size(men: int) -> int:
    """The entries of one side to move: 49 tiger points times the men's sets.

    >>> half_size(4) == 49 * 2_123_555
    True
    """
    return TIGER_DOMAIN_SIZE * math.comb(NUM_POINTS - 1, men)


def table_size(men: int) -> int:
    """The entries of the table of the tiger against ``men`` men, both sides to move.

    >>> table_size(3), table_size(4)
    (10029320, 208108390)
    """
    return 2 * half_size(men)


def table_name(men: int) -> str:
    """``TvM4`` for four men (the file is ``TvM4.tigertb``).

    >>> table_name(4) + SUFFIX
    'TvM4.tigertb'
    """
    return f"TvM{men}"


def parse_table_name(name: str) -> int:
    """The men's count of a table's name; ValueError if it is none.

    >>> parse_table_name("TvM4"), parse_table_name("tvm3")
    (4, 3)
    >>> parse_table_name("TvM")
    Traceback (most recent call last):
    ...
    ValueError: bad table name 'TvM': expected TvM followed by the men's count, e.g. TvM4
    """
    head, count = name[:3], name[3:]
    if head.lower() != "tvm" or not count.isdigit() or not 1 <= int(count) <= 8:
        raise ValueError(
            f"bad table name {name!r}: expected TvM followed by the men's count, e.g. TvM4"
        )
    return int(count)


def _colex_rank(points: Sequence[int], tiger: int) -> int:
    squeezed = sorted(p - 1 if p > tiger else p for p in points)
    return sum(math.comb(q, i + 1) for i, q in enumerate(squeezed))


def index_of(side: int, tiger: int, men: Sequence[int]) -> int:
    """The entry of the position (``side`` to move, :data:`TIGER_TO_MOVE` or
    :data:`MEN_TO_MOVE`), mirrored first when the tiger is on files f-i. ValueError when
    pieces share a point.

    >>> from doushouqi.tiger.points import parse_point
    >>> index_of(TIGER_TO_MOVE, parse_point("a1"), [1, 2, 3, 4]), half_size(4)
    (0, 104054195)
    >>> index_of(MEN_TO_MOVE, parse_point("a1"), [1, 2, 3, 4])  # the men's half follows
    104054195
    """
    if len(set(men)) != len(men) or tiger in men:
        raise ValueError("two pieces on one point")
    if point_file(tiger) > 4:
        tiger, men = MIRROR[tiger], [MIRROR[p] for p in men]
    entry = _DIGIT[tiger] * math.comb(NUM_POINTS - 1, len(men)) + _colex_rank(men, tiger)
    return side * half_size(len(men)) + entry


def position_of(men: int, index: int) -> tuple[int, int, list[int]]:
    """(side to move, the tiger's point, the men's points ascending) of entry ``index`` of
    the table of ``men`` men: the inverse of :func:`index_of`.

    >>> from doushouqi.tiger.points import point_name
    >>> side, tiger, men = position_of(4, 104054195)
    >>> side == MEN_TO_MOVE, point_name(tiger), [point_name(p) for p in men]
    (True, 'a1', ['b1', 'c1', 'd1', 'e1'])
    """
    side, entry = divmod(index, half_size(men))
    digit, rank = divmod(entry, math.comb(NUM_POINTS - 1, men))
    tiger = TIGER_DOMAIN[digit]
    squeezed = []
    for i in range(men, 0, -1):
        q = i - 1
        while math.comb(q + 1, i) <= rank:
            q += 1
        rank -= math.comb(q, i)
        squeezed.append(q)
    return side, tiger, sorted(q + 1 if q >= tiger else q for q in squeezed)


def family_name(rules: RuleSet) -> str:
    """The folder of the tables for ``rules``: named after the options that change their
    values, ``diagonals`` and (when men may not step back) ``forward``. The others change no
    value (see :func:`out_of_scope_reason`).

    >>> from doushouqi.tiger.rules import BUILTIN_RULE_SETS, RuleSet, Diagonals
    >>> family_name(BUILTIN_RULE_SETS["laohuqi"]), family_name(RuleSet(diagonals=Diagonals.ALL))
    ('none', 'all')
    >>> family_name(RuleSet(men_retreat=False))
    'none-forward'
    """
    return rules.diagonals.value + ("" if rules.men_retreat else "-forward")


def out_of_scope_reason(rules: RuleSet, men: int) -> str | None:
    """Why no table answers for a position of one tiger and ``men`` men under ``rules``, or
    None when the table ``TvM<men>`` of :func:`family_name` does.

    The table is the game's when every capture ends it: ``tiger_wins_below`` equals the men's
    count. Then ``multi_jump`` and ``capture_mandatory`` change no value (a jump wins at once,
    the fastest win there is), nor do ``men`` and ``first`` (the start), and ``max_rounds`` is
    the probe's to weigh against the distance.

    >>> from doushouqi.tiger.rules import BUILTIN_RULE_SETS
    >>> out_of_scope_reason(BUILTIN_RULE_SETS["laohuqi"], 4) is None
    True
    >>> print(out_of_scope_reason(BUILTIN_RULE_SETS["laohuqi"], 5))
    the tables hold the men's count at which a capture wins (tiger_wins_below 4), not 5
    >>> out_of_scope_reason(BUILTIN_RULE_SETS["laohuqi-south"], 4)
    'the tables hold one tiger'
    """
    if rules.tigers != 1:
        return "the tables hold one tiger"
    if men != rules.tiger_wins_below:
        return (
            f"the tables hold the men's count at which a capture wins "
            f"(tiger_wins_below {rules.tiger_wins_below}), not {men}"
        )
    return None


def table_header(rules: RuleSet, men: int) -> dict[str, Any]:
    """The header fields that say what a table is (the generator adds its counts)."""
    return {
        "format": FORMAT_VERSION,
        "game": "tiger",
        "signature": table_name(men),
        "men": men,
        "family": family_name(rules),
        "diagonals": rules.diagonals.value,
        "men_retreat": rules.men_retreat,
        "positions": table_size(men),
    }


def read_table(path: Any) -> TableFile:
    """Read and check one Tiger table file; TablebaseError (naming it) when it is none.

    >>> from doushouqi.tiger.tablebase.probe import shipped_directory
    >>> table = read_table(shipped_directory() / "none" / "TvM4.tigertb")
    >>> table.header["signature"], table.size == table_size(4), table.header["max_dtm"]
    ('TvM4', True, 15)
    """
    return read_file(path, MAGIC, FORMAT_VERSION)
