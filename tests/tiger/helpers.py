"""Small helpers for the Tiger's tests: positions written from lists of point names."""

from __future__ import annotations

from typing import Any

from tests.support.tiger_reference import FILES, write

from doushouqi.tiger.board import Board
from doushouqi.tiger.rules import RuleSet, rules_from_mapping


def place(
    tigers: str | list[str],
    men: str | list[str] = (),  # type: ignore[assignment]
    side: str = "t",
    halfmove: int = 0,
    number: int = 1,
) -> str:
    """A position string with tigers and men on the named points (a space-separated text or a
    list), written by the reference's own writer, not the library's."""
    placement = {}
    for kind, names in (("T", tigers), ("M", men)):
        for name in names.split() if isinstance(names, str) else names:
            placement[(FILES.index(name[0]), int(name[1:]))] = kind
    return write(placement, side, halfmove, number)


def rules(**options: Any) -> RuleSet:
    """The default rule set with some options changed (named "custom")."""
    return rules_from_mapping("custom", {"parent": "laohuqi", **options})


def board(tigers: str, men: str = "", side: str = "t", number: int = 1, **options: Any) -> Board:
    """A board with the pieces on the named points under the default rules with ``options``
    (``tigers=2`` when two tiger points are named)."""
    count = len(tigers.split())
    if count == 2:
        options.setdefault("tigers", 2)
    if len(men.split()) > 12:
        options.setdefault("men", 18)
    return Board(place(tigers, men, side, number=number), rules(**options))


def moves(board: Board) -> set[str]:
    return {str(move) for move in board.generate_legal_moves()}
