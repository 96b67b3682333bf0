"""A game record's data: :class:`GameRecord` (tags, moves, comments, NAGs, side lines), its
checks, and the errors of the record format (:mod:`doushouqi.jungle.record`).

The reader (:mod:`~doushouqi.jungle.record.reader`) and the writer
(:mod:`~doushouqi.jungle.record.writer`) build on this module; it imports neither.

>>> from doushouqi.jungle.record import write_record
>>> record = GameRecord(tags={"Event": "Club night", "Annotator": "Li"}, result="1/2-1/2")
>>> print(write_record(record), end="")
[Event "Club night"]
[Result "1/2-1/2"]
[Rules "wango"]
[Annotator "Li"]
<BLANKLINE>
1/2-1/2
>>> ROSTER[:2], "Rules" in STRUCTURED_TAGS, RESULTS
(('Event', 'Site'), True, ('1-0', '0-1', '1/2-1/2', '*'))
>>> GameRecord(tags={"Rules": "classic"})  # a field of its own: GameRecord(rules=...)
Traceback (most recent call last):
...
ValueError: the Rules tag is written from the record's fields, not tags
>>> GameRecord(nags={1: {MAX_NAG + 1}}, moves=[Move.from_str("a3a4")])
Traceback (most recent call last):
...
ValueError: NAG 256 is not a number from 0 to 255
"""

from __future__ import annotations

import dataclasses
import datetime
import re
from collections.abc import Mapping
from typing import Protocol

from doushouqi.jungle.board import Board, Move
from doushouqi.jungle.outcome import Outcome, Termination
from doushouqi.jungle.record.tree import GameNode, Variation
from doushouqi.jungle.rules import BUILTIN_RULE_SETS, RuleSet

__all__ = [
    "MAX_NAG",
    "RESULTS",
    "ROSTER",
    "STRUCTURED_TAGS",
    "GameRecord",
    "LineSource",
    "RecordError",
    "date_problem",
    "format_date",
    "move_label",
    "play_move",
    "result_problem",
]

#: The results a record may end with: Red won, Blue won, a draw, unfinished (or aborted).
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
#: Tags written first and in this order (PGN's seven-tag roster, with Red and Blue).
ROSTER = ("Event", "Site", "Date", "Round", "Red", "Blue")
#: Tags that :class:`GameRecord` keeps in its own fields rather than in ``tags``.
STRUCTURED_TAGS = ("Result", "Rules", "RuleOption", "Termination", "FEN")

_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_DATE = re.compile(r"(\d{4}|\?{4})\.(\d{2}|\?{2})\.(\d{2}|\?{2})")
_DRAWS = frozenset({Termination.REPETITION, Termination.NO_CAPTURE_LIMIT, Termination.DRAW_AGREED})
#: The largest numeric annotation glyph (``$255``), as in PGN.
MAX_NAG = 255


class RecordError(ValueError):
    """A record cannot be read (or replayed).

    ``line`` is the 1-based line, ``name`` the file's name and ``game`` the game's 1-based
    number in the file, when known. The message starts with ``name:line:`` (``line N:``
    without a name).

    >>> from doushouqi.jungle.record import read_record
    >>> try:
    ...     read_record('[Red "Li"]\\n\\na3a4 a7a6 a4a6 *', name="club.jgn")
    ... except RecordError as error:
    ...     print(error)
    ...     print(error.name, error.line, error.game)
    club.jgn:3: illegal move a4a6: an animal moves one square forwards, backwards or sideways
    club.jgn 3 1
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
    ``readline`` (a line with its line end, ``""`` at the end), such as :class:`io.StringIO`.

    >>> import io
    >>> from doushouqi.jungle.record import read_game
    >>> read_game(io.StringIO("a3a4 a7a6 *")).moves
    [Move.from_str('a3a4'), Move.from_str('a7a6')]
    """

    def readline(self) -> str:
        """The next line with its line end, or ``""`` at the end of the text.

        >>> import io
        >>> source = io.StringIO("a3a4 a7a6 *")
        >>> source.readline(), source.readline()
        ('a3a4 a7a6 *', '')
        """
        ...


def format_date(date: datetime.date) -> str:
    """A date as the ``Date`` tag writes it.

    >>> format_date(datetime.date(2024, 3, 9))
    '2024.03.09'
    """
    return f"{date.year:04d}.{date.month:02d}.{date.day:02d}"


def date_problem(value: str) -> str | None:
    """Why ``value`` is no ``Date`` tag (``YYYY.MM.DD``, ``??`` for unknown parts, a real day
    when it is whole), or None when it is one.

    >>> date_problem("2024.03.09"), date_problem("2024.??.??")
    (None, None)
    >>> date_problem("2024.02.30")
    "Date '2024.02.30' is not a real date"
    >>> date_problem("24.3.9")
    "Date '24.3.9' is not YYYY.MM.DD (use ?? for unknown parts)"
    """
    match = _DATE.fullmatch(value)
    if match is None:
        return f"Date {value!r} is not YYYY.MM.DD (use ?? for unknown parts)"
    if "?" not in value:
        try:
            datetime.date(int(match[1]), int(match[2]), int(match[3]))
        except ValueError:
            return f"Date {value!r} is not a real date"
    return None


def result_problem(termination: Termination | None, result: str) -> str | None:
    """Why a Termination cannot go with a result (a draw ending needs 1/2-1/2, and so on).

    >>> result_problem(Termination.REPETITION, "1-0")
    'Termination repetition needs the result 1/2-1/2, not 1-0'
    >>> result_problem(Termination.DEN_ENTERED, "0-1"), result_problem(None, "*")
    (None, None)
    """
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


def play_move(board: Board, move: Move) -> str | None:
    """Play a move or pass with every check; the reason it is illegal, or None once played.

    >>> board = Board()
    >>> play_move(board, Move.from_str("a3a5"))
    'illegal move a3a5: an animal moves one square forwards, backwards or sideways'
    >>> play_move(board, Move.from_str("a3a4")), play_move(board, Move.null()), board.ply()
    (None, None, 2)
    """
    # A pass (timeout) is never in legal_moves, but may be made wherever a move could be.
    reason = board.explain_illegal(move, allow_pass=True)
    if reason is not None:
        return f"illegal move {move}: {reason}"
    board.push(move)
    return None


def move_label(number: int, ply: int, outer: str) -> str:
    """How errors name a side line: its number among those at its ply, and where it lies.

    >>> outer = move_label(2, 5, "")
    >>> outer, move_label(1, 7, outer)
    ('side line 2 at ply 5', 'side line 1 at ply 7 in side line 2 at ply 5')
    """
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
            if not isinstance(nag, int) or isinstance(nag, bool) or not 0 <= nag <= MAX_NAG:
                raise ValueError(f"{where}NAG {nag!r} is not a number from 0 to {MAX_NAG}")
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
            _check_line(side, move_label(number, ply, label), ply)


def _replay(board: Board, line: Variation, first_ply: int, label: str) -> None:
    """Play the line's moves on ``board`` with every check, each side line from its branch
    point (and taken back again); ``first_ply`` is the ply of the line's first move."""
    for k, move in enumerate(line.moves, 1):
        ply = first_ply + k - 1
        for number, side in enumerate(line.variations.get(k, ()), 1):
            _replay(board, side, ply, move_label(number, ply, label))
            for _ in side.moves:
                board.pop()
        reason = play_move(board, move)
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

    >>> record = GameRecord(tags={"Red": "Li"}, moves=[Move.from_str("a3a4")], comments={1: "up"})
    >>> record.start_fen, record.rules.name, record.result
    ('l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1', 'wango', '*')
    >>> record.moves.append(Move.from_str("a7a6"))  # plain data: edit it in place
    >>> record.board().fen()
    'l5t/1d3c1/2p1w1e/r6/7/E6/2W1P1R/1C3D1/T5L w 2 2'
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
        bad_date = date_problem(self.tags["Date"]) if "Date" in self.tags else None
        if problem := bad_date or result_problem(self.termination, self.result):
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
        record's ``moves``, ``comments``, ``nags`` and ``variations`` (changes go to both).

        >>> record = GameRecord(moves=[Move.from_str("a3a4")])
        >>> line = record.main_line()
        >>> line.moves.append(Move.from_str("a7a6"))
        >>> line.comments[2] = "the rat steps up"
        >>> len(record.moves), record.comments
        (2, {2: 'the rat steps up'})
        """
        return Variation(self.moves, self.comments, self.nags, self.variations)

    def root(self) -> GameNode:
        """The start of the move tree (:class:`~doushouqi.jungle.record.tree.GameNode`).

        >>> record = GameRecord(moves=[Move.from_str("a3a4"), Move.from_str("a7a6")])
        >>> root = record.root()
        >>> root, root.end(), root.board().fen() == record.start_fen
        (<GameNode root>, <GameNode ply 2 a7a6>, True)
        """
        return GameNode(self, self.main_line(), 0, None)

    def board(self) -> Board:
        """The final position of the main line, every move replayed and checked, and every
        side line from its own branch point (RecordError naming the ply when illegal).

        >>> GameRecord(moves=[Move.from_str("g3g4"), Move.from_str("a7a6")]).board().fen()
        'l5t/1d3c1/2p1w1e/r6/7/6R/E1W1P2/1C3D1/T5L w 2 2'
        >>> GameRecord(moves=[Move.from_str("g3g4"), Move.from_str("g4g5")]).board()
        Traceback (most recent call last):
        ...
        doushouqi.jungle.record.model.RecordError: ply 2: illegal move g4g5: the red rat ...
        """
        board = Board(self.start_fen, self.rules)
        _replay(board, self.main_line(), 1, "")
        return board

    def outcome(self) -> Outcome | None:
        """The recorded ending, when the record has a Termination.

        >>> resigned = GameRecord(result="0-1", termination=Termination.RESIGNATION)
        >>> resigned.outcome(), GameRecord().outcome()
        (Outcome(termination=<Termination.RESIGNATION: 'resignation'>, winner=1), None)
        """
        if self.termination is None:
            return None
        winner = {"1-0": 0, "0-1": 1}.get(self.result)
        return Outcome(self.termination, winner)


# --------------------------------------------------------------------------------- writing
