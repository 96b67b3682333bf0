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
file by its path.

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

import dataclasses
import datetime
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Protocol

from doushouqi.jungle.board import Board, IllegalMoveError, Move
from doushouqi.jungle.notation import Lang
from doushouqi.jungle.outcome import Outcome, Termination
from doushouqi.jungle.record.tree import GLYPHS, GameNode, Variation
from doushouqi.jungle.rules import BUILTIN_RULE_SETS, RuleSet, rules_from_mapping
from doushouqi.jungle.san import move_to_san

__all__ = [
    "GLYPHS",
    "RESULTS",
    "ROSTER",
    "STRUCTURED_TAGS",
    "GameNode",
    "GameRecord",
    "LineSource",
    "RecordError",
    "Variation",
    "format_date",
    "iter_games",
    "load_record",
    "load_records",
    "read_game",
    "read_record",
    "read_records",
    "write_record",
    "write_records",
]

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
#: Tags written first and in this order (PGN's seven-tag roster, with Red and Blue).
ROSTER = ("Event", "Site", "Date", "Round", "Red", "Blue")
#: Tags that :class:`GameRecord` keeps in its own fields rather than in ``tags``.
STRUCTURED_TAGS = ("Result", "Rules", "RuleOption", "Termination", "FEN")

_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_DATE = re.compile(r"(\d{4}|\?{4})\.(\d{2}|\?{2})\.(\d{2}|\?{2})")
_DRAWS = frozenset({Termination.REPETITION, Termination.NO_CAPTURE_LIMIT, Termination.DRAW_AGREED})
_WIDTH = 80
_MAX_NAG = 255


class RecordError(ValueError):
    """A record cannot be read (or replayed).

    ``line`` is the 1-based line, ``name`` the file's name and ``game`` the game's 1-based
    number in the file, when known. The message starts with ``name:line:`` (``line N:``
    without a name).
    """

    def __init__(
        self,
        reason: str,
        line: int | None = None,
        *,
        name: str | None = None,
        game: int | None = None,
    ) -> None:
        self.reason = reason
        self.line = line
        self.name = name
        self.game = game
        if name is not None:
            where = f"{name}:{line}: " if line is not None else f"{name}: "
        else:
            where = f"line {line}: " if line is not None else ""
        super().__init__(where + reason)


class LineSource(Protocol):
    """What :func:`read_game` reads from: an open text file, or anything with its
    ``readline`` (a line with its line end, ``""`` at the end)."""

    def readline(self) -> str: ...


def format_date(date: datetime.date) -> str:
    """A date as the ``Date`` tag writes it.

    >>> format_date(datetime.date(2024, 3, 9))
    '2024.03.09'
    """
    return f"{date.year:04d}.{date.month:02d}.{date.day:02d}"


def _date_problem(value: str) -> str | None:
    match = _DATE.fullmatch(value)
    if match is None:
        return f"Date {value!r} is not YYYY.MM.DD (use ?? for unknown parts)"
    if "?" not in value:
        try:
            datetime.date(int(match[1]), int(match[2]), int(match[3]))
        except ValueError:
            return f"Date {value!r} is not a real date"
    return None


def _result_problem(termination: Termination | None, result: str) -> str | None:
    """Why a Termination cannot go with a result (a draw ending needs 1/2-1/2, and so on)."""
    if termination is None:
        return None
    if termination is Termination.ABORTED:
        expected: tuple[str, ...] = ("*",)
    elif termination in _DRAWS:
        expected = ("1/2-1/2",)
    else:
        expected = ("1-0", "0-1")
    if result in expected:
        return None
    return f"Termination {termination.value} needs the result {' or '.join(expected)}, not {result}"


def _play(board: Board, move: Move) -> str | None:
    """Play a move or pass with every check; the reason it is illegal, or None once played."""
    # A pass (timeout) is never in legal_moves, but may be made wherever a move could be.
    reason = board.explain_illegal(move, allow_pass=True)
    if reason is not None:
        return f"illegal move {move}: {reason}"
    board.push(move)
    return None


def _label(number: int, ply: int, outer: str) -> str:
    """How errors name a side line: its number among those at its ply, and where it lies."""
    return f"side line {number} at ply {ply}" + (f" in {outer}" if outer else "")


def _check_line(line: Variation, label: str, first_ply: int = 1) -> None:
    """GameRecord._check for a line and every side line in it (``first_ply``: the ply of
    the line's first move)."""
    count = len(line.moves)
    where, whole = (f"{label}: ", "line") if label else ("", "game")
    if label and not count:
        raise ValueError(f"{where}a side line needs at least one move")
    for ply, text in line.comments.items():
        if not 0 <= ply <= count:
            raise ValueError(f"{where}comment after ply {ply}, but the {whole} has {count}")
        if "\r" in text:
            # Readers split lines on "\r\n" too, so a carriage return could not survive.
            raise ValueError(f"{where}comment {text!r} holds a carriage return")
        if "}" in text:
            raise ValueError(f"{where}comment {text!r} contains '}}', which would end it early")
    for ply, nags in line.nags.items():
        if not 1 <= ply <= count:
            raise ValueError(f"{where}NAGs of ply {ply}, but the {whole} has {count}")
        for nag in nags:
            if not isinstance(nag, int) or isinstance(nag, bool) or not 0 <= nag <= _MAX_NAG:
                raise ValueError(f"{where}NAG {nag!r} is not a number from 0 to {_MAX_NAG}")
    for ply in line.variations:
        if not 1 <= ply <= count:
            raise ValueError(f"{where}side lines at ply {ply}, but the {whole} has {count}")
        if label and ply == 1:
            # Such a line branches from the same position as this one: it is a sibling.
            raise ValueError(
                f"{where}side lines replacing a side line's first move belong to the line "
                "it branches from"
            )
    for k, sides in line.variations.items():
        ply = first_ply + k - 1
        for number, side in enumerate(sides, 1):
            _check_line(side, _label(number, ply, label), ply)


def _replay(board: Board, line: Variation, first_ply: int, label: str) -> None:
    """Play the line's moves on ``board`` with every check, each side line from its branch
    point (and taken back again); ``first_ply`` is the ply of the line's first move."""
    for k, move in enumerate(line.moves, 1):
        ply = first_ply + k - 1
        for number, side in enumerate(line.variations.get(k, ()), 1):
            _replay(board, side, ply, _label(number, ply, label))
            for _ in side.moves:
                board.pop()
        reason = _play(board, move)
        if reason is not None:
            raise RecordError(f"{label}, ply {ply}: {reason}" if label else f"ply {ply}: {reason}")


@dataclasses.dataclass
class GameRecord:
    """One game: free tags, start position, rules, moves, comments, NAGs, side lines and
    result.

    ``tags`` holds every tag but the :data:`STRUCTURED_TAGS`, which are fields here.
    ``start_fen`` is always a full position string (the rule set's standard start when
    built without one). ``moves`` is the main line; ``comments[k]`` is the comment after the
    k-th ply (``comments[0]`` stands before the first move), ``nags[k]`` the k-th ply's NAGs
    and ``variations[k]`` the side lines (:class:`~doushouqi.jungle.record.tree.Variation`) that
    replace the k-th ply. :meth:`root` walks the same data as a tree of nodes.
    """

    tags: dict[str, str] = dataclasses.field(default_factory=dict)
    start_fen: str | None = None
    rules: RuleSet = BUILTIN_RULE_SETS["wango"]
    moves: list[Move] = dataclasses.field(default_factory=list)
    comments: dict[int, str] = dataclasses.field(default_factory=dict)
    result: str = "*"
    termination: Termination | None = None
    nags: dict[int, set[int]] = dataclasses.field(default_factory=dict)
    variations: dict[int, list[Variation]] = dataclasses.field(default_factory=dict)

    def __post_init__(self) -> None:
        # Normalise the start so that records compare equal however they were built.
        self.start_fen = Board(self.start_fen, self.rules).starting_fen
        self.main_line().normalize()
        self._check()

    def _check(self) -> None:
        for name, value in self.tags.items():
            if not _TAG_NAME.fullmatch(name):
                raise ValueError(f"bad tag name {name!r}: letters, digits and _ only")
            if name in STRUCTURED_TAGS:
                raise ValueError(f"the {name} tag is written from the record's fields, not tags")
            if "\n" in value or "\r" in value:
                raise ValueError(f"tag {name} holds a line break")
        if self.result not in RESULTS:
            raise ValueError(f"result {self.result!r} is not one of {', '.join(RESULTS)}")
        date_problem = _date_problem(self.tags["Date"]) if "Date" in self.tags else None
        if problem := date_problem or _result_problem(self.termination, self.result):
            raise ValueError(problem)
        _check_line(self.main_line(), "")

    @classmethod
    def from_board(
        cls,
        board: Board,
        *,
        result: str | None = None,
        termination: Termination | None = None,
        comments: Mapping[int, str] | None = None,
        **tags: str,
    ) -> GameRecord:
        """The game played on ``board`` since its starting position.

        ``result`` and ``termination`` default to the board's own outcome (an unfinished game
        is ``*``); give them for an ending off the board, such as a resignation. The roster tags
        default to ``?`` as in PGN.

        >>> from doushouqi.jungle.board import Board
        >>> resigned = Termination.RESIGNATION
        >>> record = GameRecord.from_board(Board(), result="0-1", termination=resigned)
        >>> record.result, record.termination.value, record.tags["Date"]
        ('0-1', 'resignation', '????.??.??')
        """
        outcome = board.outcome()
        if result is None:
            if outcome is not None and termination in (None, outcome.termination):
                result, termination = outcome.result(), outcome.termination
            elif termination is not None and termination not in (Termination.ABORTED, *_DRAWS):
                # Who won a resignation or a time forfeit is not in the position.
                raise ValueError(f"give result= for a game ended by {termination.value}")
            else:
                result = "1/2-1/2" if termination in _DRAWS else "*"
        roster = {name: "????.??.??" if name == "Date" else "?" for name in ROSTER}
        return cls(
            tags=roster | tags,
            start_fen=board.starting_fen,
            rules=board.rules,
            moves=list(board.move_stack),
            comments=dict(comments or {}),
            result=result,
            termination=termination,
        )

    def main_line(self) -> Variation:
        """The main line as a :class:`~doushouqi.jungle.record.tree.Variation` that shares this
        record's ``moves``, ``comments``, ``nags`` and ``variations`` (changes go to both)."""
        return Variation(self.moves, self.comments, self.nags, self.variations)

    def root(self) -> GameNode:
        """The start of the move tree (:class:`~doushouqi.jungle.record.tree.GameNode`)."""
        return GameNode(self, self.main_line(), 0, None)

    def board(self) -> Board:
        """The final position of the main line, every move replayed and checked, and every
        side line from its own branch point (RecordError naming the ply when illegal)."""
        board = Board(self.start_fen, self.rules)
        _replay(board, self.main_line(), 1, "")
        return board

    def outcome(self) -> Outcome | None:
        """The recorded ending, when the record has a Termination."""
        if self.termination is None:
            return None
        winner = {"1-0": 0, "0-1": 1}.get(self.result)
        return Outcome(self.termination, winner)


# --------------------------------------------------------------------------------- writing


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _option_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _rule_options(rules: RuleSet) -> list[tuple[str, str]]:
    """RuleOption pairs that rebuild ``rules``: none for a named rule set, else parent + diffs."""
    if BUILTIN_RULE_SETS.get(rules.name) == rules:
        return []
    wanted = rules.to_mapping()
    candidates = []
    for order, parent in enumerate(BUILTIN_RULE_SETS):
        # Diff against what the parent alone rebuilds (a child's description starts empty).
        base = rules_from_mapping(rules.name, {"parent": parent}).to_mapping()
        diffs = [(key, v) for key, v in wanted.items() if key != "name" and base[key] != v]
        # Fewest lines first; on a tie keep the rule set's own name as parent, then file order.
        candidates.append((len(diffs), parent != rules.name, order, parent, diffs))
    *_, parent, diffs = min(candidates)
    table = {"parent": parent, **dict(diffs)}
    if rules_from_mapping(rules.name, table) != rules:
        raise ValueError(f"rule set {rules.name!r} cannot be written as rule options")
    return [(key, _option_text(value)) for key, value in table.items()]


@dataclasses.dataclass
class _Writer:
    """Movetext tokens of a line and its side lines; ``board`` only when writing SAN."""

    first: int
    board: Board | None
    lang: Lang

    def tokens(
        self, line: Variation, turn: int, number: int, first_ply: int, label: str
    ) -> list[str]:
        tokens: list[str] = []
        if 0 in line.comments:
            tokens.append(f"{{{line.comments[0]}}}")
        # The second player's move needs "N..." when nothing before it shows the move number.
        needs_number = True
        for k, move in enumerate(line.moves, 1):
            ply = first_ply + k - 1
            text = str(move) if self.board is None else self._san(move, ply, label)
            # A move number is one token with its move, so that a line never ends on a number.
            if turn == self.first:
                tokens.append(f"{number}. {text}")
            elif needs_number:
                tokens.append(f"{number}... {text}")
            else:
                tokens.append(text)
            needs_number = False
            tokens += [f"${nag}" for nag in sorted(line.nags.get(k, ()))]
            if k in line.comments:
                tokens.append(f"{{{line.comments[k]}}}")
                needs_number = True
            for n, side in enumerate(line.variations.get(k, ()), 1):
                inner = self.tokens(side, turn, number, ply, _label(n, ply, label))
                inner[0] = "(" + inner[0]
                inner[-1] += ")"
                tokens += inner
                needs_number = True
            if self.board is not None:
                self.board.push(move)
            if turn != self.first:
                number += 1
            turn = 1 - turn
        if self.board is not None:
            for _ in line.moves:
                self.board.pop()
        return tokens

    def _san(self, move: Move, ply: int, label: str) -> str:
        assert self.board is not None
        try:
            return move_to_san(self.board, move, self.lang)
        except IllegalMoveError as exc:
            raise RecordError(
                f"{label}, ply {ply}: {exc}" if label else f"ply {ply}: {exc}"
            ) from None


def _movetext(record: GameRecord, san: bool, lang: Lang) -> list[str]:
    start = Board(record.start_fen, record.rules)
    writer = _Writer(record.rules.first_player, start if san else None, lang)
    tokens = writer.tokens(record.main_line(), start.turn, start.fullmove_number, 1, "")
    tokens.append(record.result)
    lines: list[str] = []
    for token in tokens:
        if lines and len(lines[-1]) + 1 + len(token) <= _WIDTH:
            lines[-1] += " " + token
        else:
            lines.append(token)
    return lines


def write_record(record: GameRecord, *, san: bool = False, lang: Lang = "en") -> str:
    """The record as text: tag lines, a blank line, the movetext, a final newline.

    Moves are written as move strings (``a3a4``), or in SAN with ``san=True`` (``Ea4``;
    ``lang="zh"`` for ``象a4``), which replays the moves: RecordError naming the ply when
    one is illegal.

    >>> from doushouqi.jungle.board import Board
    >>> board = Board()
    >>> board.replay(["a3a4", "g7g6"])
    >>> write_record(GameRecord.from_board(board), san=True).split("\\n\\n")[1]
    '1. Ea4 Eg6 *\\n'
    """
    record._check()
    tags: list[tuple[str, str]] = [(n, record.tags[n]) for n in ROSTER if n in record.tags]
    tags.append(("Result", record.result))
    tags.append(("Rules", record.rules.name))
    tags += [("RuleOption", f"{key} {value}") for key, value in _rule_options(record.rules)]
    if record.termination is not None:
        tags.append(("Termination", record.termination.value))
    assert record.start_fen is not None  # set by __post_init__
    if record.start_fen != Board(rules=record.rules).starting_fen:
        tags.append(("FEN", record.start_fen))
    if "TimeControl" in record.tags:
        tags.append(("TimeControl", record.tags["TimeControl"]))
    tags += [(n, v) for n, v in record.tags.items() if n not in ROSTER and n != "TimeControl"]
    lines = [f'[{name} "{_escape(value)}"]' for name, value in tags]
    return "\n".join([*lines, "", *_movetext(record, san, lang)]) + "\n"


def write_records(records: Iterable[GameRecord], *, san: bool = False, lang: Lang = "en") -> str:
    """Several records, separated by blank lines."""
    return "\n".join(write_record(record, san=san, lang=lang) for record in records)


# --------------------------------------------------------------------------------- reading
# The reader is doushouqi.jungle.record.reader, which builds on the model above: these import it
# when first called.


def read_records(text: str, *, name: str | None = None) -> list[GameRecord]:
    """Every record in the text (none for an empty text); RecordError on the first bad one.
    ``name`` (a file name) goes into the errors."""
    from doushouqi.jungle.record import reader as record_reader

    return record_reader.read_records(text, name=name)


def read_record(text: str, *, name: str | None = None) -> GameRecord:
    """The one record in the text; RecordError when there is none or more than one.
    ``name`` (a file name) goes into the errors.

    >>> read_record('[Rules "wango"]\\n\\n1. a3a5 *')  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    doushouqi.jungle.record.model.RecordError: line 3: illegal move a3a5: an animal moves one
    square ...
    >>> read_record('[Rules "wango"]\\n\\n1. a3a4 a7a6 2. Ea6 *', name="club.jgn")
    Traceback (most recent call last):
    ...
    doushouqi.jungle.record.model.RecordError: club.jgn:3: illegal move 'Ea6': the elephant on a4
    cannot ...
    """
    from doushouqi.jungle.record import reader as record_reader

    return record_reader.read_record(text, name=name)


def read_game(handle: LineSource, *, name: str | None = None) -> GameRecord | None:
    """The next game in an open text file, or None at the end of the file.

    The file is read line by line, up to the end of the game. ``name`` names the file in
    errors; it defaults to the handle's ``name`` (as :func:`open` sets it). A bad game raises
    a :class:`RecordError` with the file name, the line, and ``game``, the game's number in the
    file; the file is left at the next game (the next tag line after a blank line), so that
    the next call reads on. Lines and games are counted across calls on the same handle
    (afresh when it is back at its start), so read the file with read_game alone.

    >>> import io
    >>> handle = io.StringIO('1. a3a4 *\\n\\n[Event "2"]\\n\\n1. a3a5 *\\n\\n[Event "3"]\\n\\n*\\n')
    >>> [str(move) for move in read_game(handle).moves]
    ['a3a4']
    >>> read_game(handle)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    doushouqi.jungle.record.model.RecordError: line 5: illegal move a3a5: an animal moves one
    square ...
    >>> read_game(handle).tags, read_game(handle)
    ({'Event': '3'}, None)
    """
    from doushouqi.jungle.record import reader as record_reader

    return record_reader.read_game(handle, name=name)


def iter_games(
    handle: LineSource, *, errors: list[RecordError] | None = None
) -> Iterator[GameRecord]:
    """Every game in an open text file, read one at a time (see :func:`read_game`).

    A bad game raises its RecordError, or, when ``errors`` is a list, goes into it and is
    skipped.
    """
    from doushouqi.jungle.record import reader as record_reader

    return record_reader.iter_games(handle, errors=errors)


def load_records(
    path: str | os.PathLike[str], *, errors: list[RecordError] | None = None
) -> list[GameRecord]:
    """Every game in a UTF-8 file, by its path, read one at a time; errors name the file
    (``games.jgn:12: …``). With ``errors`` a list, bad games go into it and are skipped."""
    from doushouqi.jungle.record import reader as record_reader

    return record_reader.load_records(path, errors=errors)


def load_record(path: str | os.PathLike[str]) -> GameRecord:
    """The one game in a UTF-8 file, by its path; errors name the file."""
    from doushouqi.jungle.record import reader as record_reader

    return record_reader.load_record(path)
