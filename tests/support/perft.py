"""Perft data files: python-chess's ``.perft`` format, shared by every game's tests.

Blocks of ``id <name>``, ``epd <position string>`` and ``perft <depth> <count>`` lines separated
by blank lines; ``#`` starts a comment line. A game keeps its files in ``tests/<game key>/data/``,
one per rule set, named after it (``classic-dog.perft``): tests/jungle/test_perft.py checks them
in depth, tests/games/test_conformance.py runs the shallow ones over every registered game.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

__all__ = ["PerftPosition", "parse_perft", "read_perft_file"]


@dataclasses.dataclass(frozen=True)
class PerftPosition:
    """One block of a .perft file."""

    id: str
    epd: str
    counts: tuple[tuple[int, int], ...]  # (depth, leaf count), in file order


def parse_perft(text: str, source: str = "<string>") -> list[PerftPosition]:
    """The positions of a .perft file's text; raises ValueError naming a bad line."""
    positions: list[PerftPosition] = []
    current: dict[str, object] | None = None

    def finish() -> None:
        if current is None:
            return
        if "epd" not in current:
            raise ValueError(f"{source}: position {current['id']!r} has no epd line")
        counts = current["counts"]
        assert isinstance(counts, list)
        positions.append(PerftPosition(str(current["id"]), str(current["epd"]), tuple(counts)))

    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, _, value = line.partition(" ")
        value = value.strip()
        if key == "id":
            finish()
            current = {"id": value, "counts": []}
        elif current is None:
            raise ValueError(f"{source}:{number}: {key!r} line before the first id line")
        elif key == "epd":
            current["epd"] = value
        elif key == "perft":
            fields = value.split()
            if len(fields) != 2 or not all(f.isdigit() for f in fields):
                raise ValueError(
                    f"{source}:{number}: expected 'perft <depth> <count>', got {line!r}"
                )
            counts = current["counts"]
            assert isinstance(counts, list)
            counts.append((int(fields[0]), int(fields[1])))
        else:
            raise ValueError(f"{source}:{number}: unknown line {line!r}")
    finish()
    return positions


def read_perft_file(path: Path) -> list[PerftPosition]:
    return parse_perft(path.read_text("utf-8"), path.name)
