"""Visitors of game records, python-chess's ``chess.pgn.BaseVisitor`` idea, for every game.

A record reader that takes a visitor (Jungle's
:func:`doushouqi.jungle.record.read_game`) calls its methods as it reads a game, in the order
of the record, and returns what :meth:`BaseVisitor.result` gives at the end. A visitor builds
whatever it wants (the game record, a move count, an index of the archive) and skips what it
does not need: :data:`SKIP` from :meth:`~BaseVisitor.begin_game` skips the whole game unread,
from :meth:`~BaseVisitor.end_headers` its moves (they are then not even parsed), from
:meth:`~BaseVisitor.begin_variation` one side line.

The calls for one game::

    begin_game()                          -> SKIP: nothing more but end_game() and result()
    begin_headers()
    visit_header(name, value)             each tag line, in the record's order
    end_headers()                         -> SKIP: the moves are skipped unread
    visit_board(board)                    the start position (rules and FEN applied)
    visit_comment(text)                   a comment before the first move
    visit_move(board, move)               the position before the move, then the move
    visit_comment(text) / visit_nag(nag)  after their move
    begin_variation()                     a side line replacing the last move (-> SKIP)
      ... its moves, comments, NAGs and side lines ...
    end_variation()
    visit_result(result)                  "1-0", "0-1", "1/2-1/2" or "*"
    end_game()
    result()                              what the reader returns

The board passed to :meth:`~BaseVisitor.visit_move` is the reader's own: copy it to keep it.
The reader checks the whole game before it visits the moves, so a visitor sees only legal
games; a bad game raises the reader's error (after the headers were visited).

Game-free and standard library only; :class:`HeadersBuilder` and :class:`SkipVisitor` work
for every game's records, a game's own ``GameBuilder`` builds its record.

>>> class MoveCounter(BaseVisitor[int]):
...     def begin_game(self) -> None:
...         self.moves = 0
...     def visit_move(self, board, move) -> None:
...         self.moves += 1
...     def begin_variation(self) -> Skip:
...         return SKIP  # the main line only
...     def result(self) -> int:
...         return self.moves
"""

from __future__ import annotations

import enum
from abc import ABC, abstractmethod
from typing import Any, Generic, TypeVar

__all__ = ["SKIP", "BaseVisitor", "HeadersBuilder", "Skip", "SkipVisitor"]

ResultT = TypeVar("ResultT")


class Skip(enum.Enum):
    """The type of :data:`SKIP`."""

    SKIP = "skip"


#: Returned by ``begin_game``, ``end_headers`` or ``begin_variation``: skip what follows.
SKIP = Skip.SKIP


class BaseVisitor(ABC, Generic[ResultT]):
    """What a record reader calls as it reads a game; every method but :meth:`result` does
    nothing by default. A reader makes a new visitor for each game."""

    def begin_game(self) -> Skip | None:
        """A game starts; :data:`SKIP` skips it unread (its tags are not even parsed)."""
        return None

    def begin_headers(self) -> None:
        """The tag lines start."""

    def visit_header(self, name: str, value: str) -> None:
        """A tag line, ``[name "value"]``, its value unescaped (every ``RuleOption`` too)."""

    def end_headers(self) -> Skip | None:
        """The tag lines are read; :data:`SKIP` skips the moves unread."""
        return None

    def visit_board(self, board: Any) -> None:
        """The start position, with the record's rules and FEN, before the first move."""

    def visit_move(self, board: Any, move: Any) -> None:
        """A move: ``board`` is the position before it (the reader's: copy it to keep it)."""

    def visit_comment(self, comment: str) -> None:
        """A comment on the move before it (before the first move of a line: on its start)."""

    def visit_nag(self, nag: int) -> None:
        """A numeric annotation glyph (0-255) of the move before it."""

    def begin_variation(self) -> Skip | None:
        """A side line that replaces the last move visited; :data:`SKIP` skips it."""
        return None

    def end_variation(self) -> None:
        """The side line ends; the moves go on from the move it replaced."""

    def visit_result(self, result: str) -> None:
        """The result at the end of the movetext."""

    def end_game(self) -> None:
        """The game ends (also when it was skipped)."""

    @abstractmethod
    def result(self) -> ResultT:
        """What the reader returns for this game."""


class HeadersBuilder(BaseVisitor[dict[str, str]]):
    """The tags of a game, its moves skipped unread: python-chess's ``HeadersBuilder``.
    ``RuleOption`` tags, which may repeat, come as one value, their texts joined by ``"; "``;
    any other tag keeps its first value."""

    def begin_game(self) -> None:
        self.headers: dict[str, str] = {}

    def visit_header(self, name: str, value: str) -> None:
        if name in self.headers and name == "RuleOption":
            self.headers[name] += "; " + value
        else:
            self.headers.setdefault(name, value)

    def end_headers(self) -> Skip:
        return SKIP

    def result(self) -> dict[str, str]:
        return self.headers


class SkipVisitor(BaseVisitor[bool]):
    """Skips a whole game unread (python-chess's ``SkipVisitor``); its result is True."""

    def begin_game(self) -> Skip:
        return SKIP

    def end_headers(self) -> Skip:
        return SKIP

    def begin_variation(self) -> Skip:
        return SKIP

    def result(self) -> bool:
        return True
