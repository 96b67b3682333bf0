"""Reading and writing the tactical test suite (``tests/jungle/ai/data/tactics.epd``).

One position per line, EPD-like: the position string (placement and side to move), then
``;``-separated operations, each an opcode and its operands::

    <placement> <w|b> ; rules <name> ; id "<category>-<n>" ; bm <move>... ; dm <N> ; ...
    <placement> <w|b> ; rules <name> ; id "<category>-<n>" ; sm <move>... ; threat <N> ; ...

Lines starting with ``#`` and blank lines are comments. Quoted operands may contain ``;``.
See the header of the data file for the meaning of every opcode.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from pathlib import Path

__all__ = [
    "CATEGORIES",
    "Entry",
    "SuiteFormatError",
    "format_entry",
    "parse_line",
    "read_suite",
]

#: Categories in report order: the prefix of each ``id``.
CATEGORIES = ("den1", "den2", "den3", "defence", "trap", "rat", "rule")

_OPERATION = re.compile(r'\s*([A-Za-z][A-Za-z0-9_]*)((?:\s+(?:"[^"]*"|[^";\s]+))*)\s*(?:;|$)')
_OPERAND = re.compile(r'"([^"]*)"|([^";\s]+)')


class SuiteFormatError(ValueError):
    """A suite line cannot be parsed; the message names the line."""


@dataclasses.dataclass(frozen=True)
class Entry:
    """One test position and its proven answer.

    ``kind`` is ``"win"`` (``moves`` = every first move of the fastest forced win, ``depth`` =
    its length in own moves) or ``"defence"`` (``moves`` = every move after which the opponent
    cannot force a win within ``depth`` of its moves, while every other move allows it).
    """

    fen: str
    rules: str
    id: str
    kind: str
    moves: tuple[str, ...]
    depth: int
    operations: dict[str, tuple[str, ...]]

    @property
    def category(self) -> str:
        return self.id.rsplit("-", 1)[0]

    def get(self, opcode: str) -> str | None:
        """The first operand of an optional opcode (``c0``, ``src``, ``differs``, …)."""
        values = self.operations.get(opcode)
        return values[0] if values else None


def parse_line(line: str, where: str = "line") -> Entry | None:
    """The entry on one line, or None for a comment or blank line."""
    text = line.strip()
    if not text or text.startswith("#"):
        return None
    head, sep, rest = text.partition(";")
    fields = head.split()
    if not sep or len(fields) != 2:
        raise SuiteFormatError(f"{where}: expected '<placement> <side> ; ...', got {text!r}")
    operations: dict[str, tuple[str, ...]] = {}
    position = 0
    while position < len(rest):
        match = _OPERATION.match(rest, position)
        if not match or match.end() == position:
            raise SuiteFormatError(f"{where}: cannot parse operations at {rest[position:]!r}")
        opcode = match.group(1)
        if opcode in operations:
            raise SuiteFormatError(f"{where}: opcode {opcode!r} given twice")
        operands = tuple(
            m.group(1) if m.group(1) is not None else m.group(2)
            for m in _OPERAND.finditer(match.group(2))
        )
        operations[opcode] = operands
        position = match.end()
    for required in ("rules", "id"):
        if len(operations.get(required, ())) != 1:
            raise SuiteFormatError(f"{where}: needs exactly one '{required}' operand")
    if ("bm" in operations) == ("sm" in operations):
        raise SuiteFormatError(f"{where}: needs exactly one of 'bm' (a win) or 'sm' (a defence)")
    kind, moves_op, depth_op = (
        ("win", "bm", "dm") if "bm" in operations else ("defence", "sm", "threat")
    )
    moves = operations[moves_op]
    depth_values = operations.get(depth_op, ())
    if not moves:
        raise SuiteFormatError(f"{where}: '{moves_op}' needs at least one move")
    if len(depth_values) != 1 or not depth_values[0].isdigit() or int(depth_values[0]) < 1:
        raise SuiteFormatError(f"{where}: needs '{depth_op} <N>' with N >= 1")
    return Entry(
        fen=" ".join(fields),
        rules=operations["rules"][0],
        id=operations["id"][0],
        kind=kind,
        moves=moves,
        depth=int(depth_values[0]),
        operations=operations,
    )


def read_suite(path: str | Path) -> list[Entry]:
    """Every entry of a suite file, in file order."""
    path = Path(path)
    entries = []
    for number, line in enumerate(path.read_text("utf-8").splitlines(), start=1):
        entry = parse_line(line, f"{path.name}:{number}")
        if entry is not None:
            entries.append(entry)
    return entries


def _quote(value: str) -> str:
    if '"' in value:
        raise ValueError(f"operand may not contain a double quote: {value!r}")
    return f'"{value}"'


def format_entry(
    fen: str,
    rules: str,
    ident: str,
    kind: str,
    moves: Iterable[str],
    depth: int,
    extra: Iterable[tuple[str, str]] = (),
) -> str:
    """One suite line; ``extra`` operations with free text are quoted."""
    moves_op, depth_op = ("bm", "dm") if kind == "win" else ("sm", "threat")
    parts = [
        " ".join(fen.split()[:2]),
        f"rules {rules}",
        f"id {_quote(ident)}",
        f"{moves_op} {' '.join(sorted(moves))}",
        f"{depth_op} {depth}",
    ]
    for opcode, value in extra:
        parts.append(f"{opcode} {_quote(value)}")
    return " ; ".join(parts)
