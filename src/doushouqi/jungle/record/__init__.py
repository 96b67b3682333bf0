"""Game records in a PGN-like text format.

A record is a block of tag lines ``[Name "value"]`` (``\\`` and ``"`` escaped with ``\\``),
a blank line, and the movetext: numbered moves, comments, NAGs and side lines, and the result
(``1-0``, ``0-1``, ``1/2-1/2`` or ``*``) at the end. Several records in one text are separated
by blank lines.

The movetext, as in PGN:

- A move is a move string (``a3a4``, ``0000`` for a pass) or short algebraic notation
  (:mod:`doushouqi.jungle.san`: ``Ea4``, ``象a4``, ``Lxd7``, ``Lg1-g2``, ``--`` for a pass); reading
  takes either, move by move (a move is one word: ``象a4``, not the spaced ``象 a3-a4``; a
  word shaped like a move string is read as one). Writing uses move strings, or SAN with
  ``san=True``. Move numbers (``12.`` before the first player's move, ``12...`` before the
  second's) may be left out; those given must be right.
- ``{comment}`` is the comment on the move before it (before the first move: on the start).
- ``$n`` (0-255) after a move is a numeric annotation glyph (NAG). The suffixes ``!``, ``?``,
  ``!!``, ``??``, ``!?`` and ``?!`` (on the move or alone) are read as NAGs 1 to 6; NAGs are
  written as ``$n``.
- ``( ... )`` after a move is a side line (variation) that replaces it, played from the
  position before it. Side lines nest, and every move in them is checked from their own
  branch point: ``1. a3a4 (1. g3g4 g7g6 (1... a7a6)) 1... a7a6``. The tree is kept in
  :class:`GameRecord`'s ``variations`` and walked with :meth:`GameRecord.root` (see
  :mod:`doushouqi.jungle.record.tree`).

Tags, in the order they are written:

- ``Event Site Date Round Red Blue``: as in PGN; ``Date`` is ``YYYY.MM.DD`` (``??`` unknown).
- ``Result``: agrees with the result token at the end of the movetext.
- ``Rules``: the rule set's name. A rule set that is not exactly a named one adds one
  ``RuleOption`` tag per option, ``"key value"`` as in a rule file: ``parent`` (the named
  rule set it starts from) and every option that differs from it.
- ``Termination``: an :class:`~doushouqi.jungle.outcome.Termination` value such as ``den_entered``.
- ``FEN``: the start position, only when it is not the rule set's standard start.
- ``TimeControl``, then any other tags in the order they were given.

Reading replays every move with the rules library, so a record that reads is a legal game.
Errors are :class:`RecordError`\\ s naming the line (and the file, when known:
``games.jgn:12: illegal move …``).

**Files.** :func:`read_game` reads the next game of an open text file, line by line (the file
is never read whole), and returns None at its end, as python-chess's ``read_game``. A bad game
raises a RecordError with the file name, the line and the game's number in the file
(``error.game``); the file is then left at the start of the next game (the next tag line after
a blank line), so that reading can go on. :func:`iter_games` yields every game, and with
``errors=[]`` collects the errors of bad games and skips them. :func:`load_records` reads a
file by its path. :func:`read_headers` reads only the next game's tags and :func:`skip_game`
skips a game, for scanning large archives, as python-chess's.

**Visitors.** ``read_game(handle, Visitor=…)`` reads the next game through a visitor
(python-chess's ``BaseVisitor`` idea, :mod:`doushouqi.core.record_visitor`): it is told the
tags, the start position, each move with the board before it, the comments, NAGs and side
lines, and the result, and it may skip the game, its moves or a side line (``SKIP``);
``read_game`` returns what the visitor's ``result()`` gives. :class:`GameBuilder` (the
default) builds the :class:`GameRecord`; ``read_headers`` is ``read_game`` with
``HeadersBuilder`` and ``skip_game`` with ``SkipVisitor``.

Comments may hold python-chess's ``[%clk 0:01:30]`` and ``[%eval 0.35]`` commands: a node's
``clock()`` and ``eval()`` read them, ``set_clock`` and ``set_eval`` write them into the
comment (so they are written back with it).

>>> from doushouqi.jungle.board import Board
>>> board = Board(rules="classic")
>>> board.replay(["a3a4", "a7a6"])
>>> record = GameRecord.from_board(board, Event="Club night", Red="Li", Blue="Wang")
>>> record.comments[1] = "the elephant walks up the bridge"
>>> text = write_record(record)
>>> print(text, end="")
[Event "Club night"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[Red "Li"]
[Blue "Wang"]
[Result "*"]
[Rules "classic"]
<BLANKLINE>
1. a3a4 {the elephant walks up the bridge} 1... a7a6 *
>>> read_record(text) == record
True
>>> annotated = read_record('[Rules "classic"]\\n\\n1. Ea4! (1. Rg4?! Ra6) 1... Ra6 $10 *')
>>> annotated.nags, annotated.variations
({1: {1}, 2: {10}}, {1: [Variation(moves=[Move.from_str('g3g4'), Move.from_str('a7a6')],
comments={}, nags={1: {6}}, variations={})]})
>>> print(write_record(annotated).split("\\n\\n")[1], end="")
1. a3a4 $1 (1. g3g4 $6 a7a6) 1... a7a6 $10 *
"""

from __future__ import annotations

from doushouqi.jungle.record.model import (
    RESULTS,
    ROSTER,
    STRUCTURED_TAGS,
    GameRecord,
    LineSource,
    RecordError,
    format_date,
)
from doushouqi.jungle.record.reader import (
    iter_games,
    load_record,
    load_records,
    read_game,
    read_headers,
    read_record,
    read_records,
    skip_game,
)
from doushouqi.jungle.record.tree import GLYPHS, GameNode, Variation
from doushouqi.jungle.record.visitor import (
    SKIP,
    BaseVisitor,
    GameBuilder,
    HeadersBuilder,
    Skip,
    SkipVisitor,
    visit_moves,
)
from doushouqi.jungle.record.writer import write_record, write_records

__all__ = [
    "GLYPHS",
    "RESULTS",
    "ROSTER",
    "SKIP",
    "STRUCTURED_TAGS",
    "BaseVisitor",
    "GameBuilder",
    "GameNode",
    "GameRecord",
    "HeadersBuilder",
    "LineSource",
    "RecordError",
    "Skip",
    "SkipVisitor",
    "Variation",
    "format_date",
    "iter_games",
    "load_record",
    "load_records",
    "read_game",
    "read_headers",
    "read_record",
    "read_records",
    "skip_game",
    "visit_moves",
    "write_record",
    "write_records",
]
