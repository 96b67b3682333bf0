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
>>> import io
>>> from doushouqi.jungle.record import read_game
>>> text = '[Rules "classic"]\\n\\n1. a3a4 (1. g3g4 g7g6) 1... a7a6 2. a4a5 *\\n'
>>> read_game(io.StringIO(text), Visitor=MoveCounter)
3
"""

from __future__ import annotations

import enum
from abc import ABC, abstractmethod
from typing import Any, Generic, TypeVar

__all__ = ["SKIP", "BaseVisitor", "HeadersBuilder", "Skip", "SkipVisitor"]

ResultT = TypeVar("ResultT")


class Skip(enum.Enum):
    """The type of :data:`SKIP`, the one value a visitor returns to skip part of a game (an
    enum of one member, so that a type checker knows the value, as with ``None``).

    >>> SKIP is Skip.SKIP, SkipVisitor().begin_game() is SKIP
    (True, True)
    """

    SKIP = "skip"


#: Returned by ``begin_game``, ``end_headers`` or ``begin_variation``: skip what follows.
SKIP = Skip.SKIP


class BaseVisitor(ABC, Generic[ResultT]):
    """What a record reader calls as it reads a game; every method but :meth:`result` does
    nothing by default. A reader makes a new visitor for each game.

    A visitor that prints what it is told shows the calls and their order:

    >>> import io; from doushouqi.jungle.record import read_game
    >>> class Trace(BaseVisitor[None]):
    ...     def visit_header(self, name, value): print("tag", name, value)
    ...     def visit_move(self, board, move): print("move", move)
    ...     def visit_comment(self, comment): print("comment", comment)
    ...     def visit_nag(self, nag): print("nag", nag)
    ...     def begin_variation(self): print("(")
    ...     def end_variation(self): print(")")
    ...     def visit_result(self, result): print("result", result)
    ...     def result(self): return None
    >>> text = '[Rules "classic"]\\n\\n1. a3a4 {solid} (1. g3g4 $2) 1... a7a6 1-0\\n'
    >>> read_game(io.StringIO(text), Visitor=Trace)
    tag Rules classic
    move a3a4
    comment solid
    (
    move g3g4
    nag 2
    )
    move a7a6
    result 1-0
    """

    def begin_game(self) -> Skip | None:
        """A game starts; :data:`SKIP` skips it unread (its tags are not even parsed). The
        place to set up what the visitor collects for this game.

        >>> import io; from doushouqi.jungle.record import read_game
        >>> text = '[Red "Li"]\\n[Rules "classic"]\\n\\n1. a3a4 {ok} (1. g3g4 $2) 1... a7a6 1-0\\n'
        >>> class Moves(BaseVisitor[list[str]]):
        ...     def begin_game(self): self.moves = []
        ...     def visit_move(self, board, move): self.moves.append(str(move))
        ...     def begin_variation(self): return SKIP
        ...     def result(self): return self.moves
        >>> read_game(io.StringIO(text), Visitor=Moves)
        ['a3a4', 'a7a6']
        """
        return None

    def begin_headers(self) -> None:
        """The tag lines start (called also for a game without tags).

        >>> class Checked(BaseVisitor[bool]):
        ...     def begin_headers(self): self.seen = False
        ...     def visit_header(self, name, value): self.seen = True
        ...     def result(self): return self.seen
        >>> import io; from doushouqi.jungle.record import read_game
        >>> read_game(io.StringIO("1. a3a4 *\\n"), Visitor=Checked)
        False
        """

    def visit_header(self, name: str, value: str) -> None:
        """A tag line, ``[name "value"]``, its value unescaped (every ``RuleOption`` too).

        >>> import io; from doushouqi.jungle.record import read_game
        >>> text = '[Red "Li"]\\n[Rules "classic"]\\n\\n1. a3a4 {ok} (1. g3g4 $2) 1... a7a6 1-0\\n'
        >>> class Players(BaseVisitor[str]):
        ...     def begin_game(self): self.red = "?"
        ...     def visit_header(self, name, value):
        ...         if name == "Red": self.red = value
        ...     def end_headers(self): return SKIP
        ...     def result(self): return self.red
        >>> read_game(io.StringIO(text), Visitor=Players)
        'Li'
        """

    def end_headers(self) -> Skip | None:
        """The tag lines are read; :data:`SKIP` skips the moves unread.

        A visitor that wants only some games decides here, from their tags:

        >>> import io; from doushouqi.jungle.record import read_game
        >>> text = '[Red "Li"]\\n[Rules "classic"]\\n\\n1. a3a4 {ok} (1. g3g4 $2) 1... a7a6 1-0\\n'
        >>> class ClassicMoves(BaseVisitor[int | None]):
        ...     def begin_game(self): self.moves, self.classic = 0, False
        ...     def visit_header(self, name, value): self.classic |= value == "classic"
        ...     def end_headers(self): return None if self.classic else SKIP
        ...     def visit_move(self, board, move): self.moves += 1
        ...     def result(self): return self.moves if self.classic else None
        >>> read_game(io.StringIO(text), Visitor=ClassicMoves)
        3
        """
        return None

    def visit_board(self, board: Any) -> None:
        """The start position, with the record's rules and FEN, before the first move.

        >>> class Start(BaseVisitor[str]):
        ...     def visit_board(self, board): self.fen = board.fen()
        ...     def result(self): return self.fen
        >>> import io; from doushouqi.jungle.record import read_game
        >>> read_game(io.StringIO('[FEN "7/7/7/3e3/3L3/7/7/7/7 b"]\\n\\n*\\n'), Visitor=Start)
        '7/7/7/3e3/3L3/7/7/7/7 b 0 1'
        """

    def visit_move(self, board: Any, move: Any) -> None:
        """A move: ``board`` is the position before it (the reader's: copy it to keep it).

        >>> import io; from doushouqi.jungle.record import read_game
        >>> text = '[Red "Li"]\\n[Rules "classic"]\\n\\n1. a3a4 {ok} (1. g3g4 $2) 1... a7a6 1-0\\n'
        >>> class Plies(BaseVisitor[list[int]]):
        ...     def begin_game(self): self.plies = []
        ...     def visit_move(self, board, move): self.plies.append(board.ply())
        ...     def result(self): return self.plies
        >>> read_game(io.StringIO(text), Visitor=Plies)  # a3a4, then g3g4 in its place
        [0, 0, 1]
        """

    def visit_comment(self, comment: str) -> None:
        """A comment on the move before it (before the first move of a line: on its start).

        >>> class Comments(BaseVisitor[list[str]]):
        ...     def begin_game(self): self.comments = []
        ...     def visit_comment(self, comment): self.comments.append(comment)
        ...     def result(self): return self.comments
        >>> import io; from doushouqi.jungle.record import read_game
        >>> read_game(io.StringIO("{Even.} 1. a3a4 {Safe.} a7a6 *\\n"), Visitor=Comments)
        ['Even.', 'Safe.']
        """

    def visit_nag(self, nag: int) -> None:
        """A numeric annotation glyph (0-255) of the move before it.

        >>> class Blunders(BaseVisitor[list[str]]):
        ...     def begin_game(self): self.last, self.blunders = None, []
        ...     def visit_move(self, board, move): self.last = str(move)
        ...     def visit_nag(self, nag):
        ...         if nag == 4: self.blunders.append(self.last)  # $4, "??"
        ...     def result(self): return self.blunders
        >>> import io; from doushouqi.jungle.record import read_game
        >>> read_game(io.StringIO("1. a3a4 $1 a7a6 $4 2. g3g4 *\\n"), Visitor=Blunders)
        ['a7a6']
        """

    def begin_variation(self) -> Skip | None:
        """A side line that replaces the last move visited; :data:`SKIP` skips it.

        >>> import io; from doushouqi.jungle.record import read_game
        >>> text = '[Red "Li"]\\n[Rules "classic"]\\n\\n1. a3a4 {ok} (1. g3g4 $2) 1... a7a6 1-0\\n'
        >>> class Depth(BaseVisitor[int]):
        ...     def begin_game(self): self.depth = self.deepest = 0
        ...     def begin_variation(self):
        ...         self.depth += 1
        ...         self.deepest = max(self.deepest, self.depth)
        ...     def end_variation(self): self.depth -= 1
        ...     def result(self): return self.deepest
        >>> read_game(io.StringIO(text), Visitor=Depth)
        1
        """
        return None

    def end_variation(self) -> None:
        """The side line ends; the moves go on from the move it replaced.

        >>> class Lines(BaseVisitor[list[list[str]]]):
        ...     def begin_game(self): self.lines = [[]]; self.done = []
        ...     def visit_move(self, board, move): self.lines[-1].append(str(move))
        ...     def begin_variation(self): self.lines.append([])
        ...     def end_variation(self): self.done.append(self.lines.pop())
        ...     def result(self): return [self.lines[0], *self.done]
        >>> import io; from doushouqi.jungle.record import read_game
        >>> read_game(io.StringIO("1. a3a4 (1. g3g4 g7g6) 1... a7a6 *\\n"), Visitor=Lines)
        [['a3a4', 'a7a6'], ['g3g4', 'g7g6']]
        """

    def visit_result(self, result: str) -> None:
        """The result at the end of the movetext.

        >>> import io; from doushouqi.jungle.record import read_game
        >>> text = '[Red "Li"]\\n[Rules "classic"]\\n\\n1. a3a4 {ok} (1. g3g4 $2) 1... a7a6 1-0\\n'
        >>> class Result(BaseVisitor[str]):
        ...     def visit_result(self, result): self.text = result
        ...     def result(self): return self.text
        >>> read_game(io.StringIO(text), Visitor=Result)
        '1-0'
        """

    def end_game(self) -> None:
        """The game ends (also when it was skipped).

        >>> class Count(BaseVisitor[int]):
        ...     games = 0  # on the class: the reader makes a new visitor for each game
        ...     def begin_game(self): return SKIP
        ...     def end_game(self): Count.games += 1
        ...     def result(self): return Count.games
        >>> import io; from doushouqi.jungle.record import read_game
        >>> handle = io.StringIO('[Red "Li"]\\n\\n1. a3a4 *\\n\\n[Red "Wang"]\\n\\n1. g3g4 *\\n')
        >>> read_game(handle, Visitor=Count), read_game(handle, Visitor=Count)
        (1, 2)
        """

    @abstractmethod
    def result(self) -> ResultT:
        """What the reader returns for this game (the one method a visitor must write).

        >>> import io; from doushouqi.jungle.record import read_game
        >>> text = '[Red "Li"]\\n[Rules "classic"]\\n\\n1. a3a4 {ok} (1. g3g4 $2) 1... a7a6 1-0\\n'
        >>> class Tags(BaseVisitor[int]):
        ...     def begin_game(self): self.count = 0
        ...     def visit_header(self, name, value): self.count += 1
        ...     def result(self): return self.count
        >>> read_game(io.StringIO(text), Visitor=Tags)
        2
        """


class HeadersBuilder(BaseVisitor[dict[str, str]]):
    """The tags of a game, its moves skipped unread: python-chess's ``HeadersBuilder``.
    ``RuleOption`` tags, which may repeat, come as one value, their texts joined by ``"; "``;
    any other tag keeps its first value.

    >>> import io; from doushouqi.jungle.record import read_game
    >>> text = '[Red "Li"]\\n[Blue "Wang"]\\n[Rules "classic"]\\n\\n1. a3a4 a7a6 1-0\\n'
    >>> read_game(io.StringIO(text), Visitor=HeadersBuilder)
    {'Red': 'Li', 'Blue': 'Wang', 'Rules': 'classic'}
    """

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
    """Skips a whole game unread (python-chess's ``SkipVisitor``); its result is True, and
    the reader's None at the end of the file: a fast count of the games in a file.

    >>> import io; from doushouqi.jungle.record import read_game
    >>> handle = io.StringIO('[Red "Li"]\\n\\n1. a3a4 *\\n\\n[Red "Wang"]\\n\\n1. g3g4 *\\n')
    >>> games = 0
    >>> while read_game(handle, Visitor=SkipVisitor):
    ...     games += 1
    >>> games
    2
    """

    def begin_game(self) -> Skip:
        return SKIP

    def end_headers(self) -> Skip:
        return SKIP

    def begin_variation(self) -> Skip:
        return SKIP

    def result(self) -> bool:
        return True
