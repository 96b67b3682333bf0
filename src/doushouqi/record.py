"""Game records in a PGN-like text format.

A record is a block of tag lines ``[Name "value"]`` (``\\`` and ``"`` escaped with ``\\``),
a blank line, and the movetext: numbered plain move strings (``0000`` for a pass),
``{comments}`` after moves, and the result (``1-0``, ``0-1``, ``1/2-1/2`` or ``*``) at the
end. Several records in one text are separated by blank lines.

Tags, in the order they are written:

- ``Event Site Date Round Red Blue``: as in PGN; ``Date`` is ``YYYY.MM.DD`` (``??`` unknown).
- ``Result``: agrees with the result token at the end of the movetext.
- ``Rules``: the rule set's name. A rule set that is not exactly a named one adds one
  ``RuleOption`` tag per option, ``"key value"`` as in a rule file: ``parent`` (the named
  rule set it starts from) and every option that differs from it.
- ``Termination``: an :class:`~doushouqi.outcome.Termination` value such as ``den_entered``.
- ``FEN``: the start position, only when it is not the rule set's standard start.
- ``TimeControl``, then any other tags in the order they were given.

Reading replays every move with the rules library, so a record that reads is a legal game.

>>> from doushouqi.board import Board
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
"""

from __future__ import annotations

import dataclasses
import datetime
import re
from collections.abc import Iterable, Mapping
from typing import Any

from .board import Board, InvalidFenError, InvalidMoveError, Move
from .outcome import Outcome, Termination
from .rules import BUILTIN_RULE_SETS, InvalidRulesError, RuleSet, rules_from_mapping

__all__ = [
    "RESULTS",
    "ROSTER",
    "STRUCTURED_TAGS",
    "GameRecord",
    "RecordError",
    "format_date",
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
_TAG_LINE = re.compile(r'\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_DATE = re.compile(r"(\d{4}|\?{4})\.(\d{2}|\?{2})\.(\d{2}|\?{2})")
# Move numbers ("12." before the first player's move, "12..." before the second's) may be
# glued to the move ("1.a3a4"), so they are matched before the catch-all word.
_TOKEN = re.compile(r"\s*(?:(?P<comment>\{)|(?P<number>\d+\.(?:\.\.)?)|(?P<word>[^\s{}]+)|(\}))")
_DRAWS = frozenset({Termination.REPETITION, Termination.NO_CAPTURE_LIMIT, Termination.DRAW_AGREED})
_OPTION_TYPES = {f.name: str(f.type) for f in dataclasses.fields(RuleSet)}
_WIDTH = 80
_NEEDS_RESULT = "a game must end with a result (1-0, 0-1, 1/2-1/2 or *)"


class RecordError(ValueError):
    """A record cannot be read (or replayed); ``line`` is the 1-based line, when known."""

    def __init__(self, reason: str, line: int | None = None) -> None:
        self.reason = reason
        self.line = line
        super().__init__(f"line {line}: {reason}" if line is not None else reason)


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


@dataclasses.dataclass
class GameRecord:
    """One game: free tags, start position, rules, moves, comments and result.

    ``tags`` holds every tag but the :data:`STRUCTURED_TAGS`, which are fields here.
    ``start_fen`` is always a full position string (the rule set's standard start when
    built without one). ``comments[k]`` is the comment after the k-th ply; ``comments[0]``
    stands before the first move.
    """

    tags: dict[str, str] = dataclasses.field(default_factory=dict)
    start_fen: str | None = None
    rules: RuleSet = BUILTIN_RULE_SETS["wango"]
    moves: list[Move] = dataclasses.field(default_factory=list)
    comments: dict[int, str] = dataclasses.field(default_factory=dict)
    result: str = "*"
    termination: Termination | None = None

    def __post_init__(self) -> None:
        # Normalise the start so that records compare equal however they were built.
        self.start_fen = Board(self.start_fen, self.rules).starting_fen
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
        for ply, text in self.comments.items():
            if not 0 <= ply <= len(self.moves):
                raise ValueError(f"comment after ply {ply}, but the game has {len(self.moves)}")
            if "\r" in text:
                # Readers split lines on "\r\n" too, so a carriage return could not survive.
                raise ValueError(f"comment {text!r} holds a carriage return")
            if "}" in text:
                raise ValueError(f"comment {text!r} contains '}}', which would end it early")

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

        >>> from doushouqi.board import Board
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

    def board(self) -> Board:
        """The final position, every move replayed and checked (RecordError when illegal)."""
        board = Board(self.start_fen, self.rules)
        for ply, move in enumerate(self.moves, 1):
            reason = _play(board, move)
            if reason is not None:
                raise RecordError(f"ply {ply}: {reason}")
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


def _movetext(record: GameRecord) -> list[str]:
    start = Board(record.start_fen, record.rules)
    first = record.rules.first_player
    turn, number = start.turn, start.fullmove_number
    tokens: list[str] = []
    if 0 in record.comments:
        tokens.append(f"{{{record.comments[0]}}}")
    # The second player's move needs "N..." when nothing before it shows the move number.
    needs_number = True
    for ply, move in enumerate(record.moves, 1):
        # A move number is one token with its move, so that a line never ends on a number.
        if turn == first:
            tokens.append(f"{number}. {move}")
        elif needs_number:
            tokens.append(f"{number}... {move}")
        else:
            tokens.append(str(move))
        needs_number = False
        if turn != first:
            number += 1
        turn = 1 - turn
        if ply in record.comments:
            tokens.append(f"{{{record.comments[ply]}}}")
            needs_number = True
    tokens.append(record.result)
    lines: list[str] = []
    for token in tokens:
        if lines and len(lines[-1]) + 1 + len(token) <= _WIDTH:
            lines[-1] += " " + token
        else:
            lines.append(token)
    return lines


def write_record(record: GameRecord) -> str:
    """The record as text: tag lines, a blank line, the movetext, a final newline."""
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
    return "\n".join([*lines, "", *_movetext(record)]) + "\n"


def write_records(records: Iterable[GameRecord]) -> str:
    """Several records, separated by blank lines."""
    return "\n".join(write_record(record) for record in records)


# --------------------------------------------------------------------------------- reading


def _option_value(key: str, text: str) -> Any:
    """A RuleOption value as the rule file would hold it, by the option's declared type."""
    kind = _OPTION_TYPES.get(key, "str")
    if kind == "bool" and text in ("true", "false"):
        return text == "true"
    if kind.startswith("int") and text.isdigit():
        return int(text)
    return text  # anything else is passed on as text, for the rules library to judge


class _Reader:
    """Reads records line by line, so that every error knows its line."""

    def __init__(self, text: str) -> None:
        self.lines = [line.rstrip("\r") for line in text.removeprefix("\ufeff").split("\n")]
        self.index = 0  # the next line to read, 0-based

    def records(self) -> list[tuple[int, GameRecord]]:
        found: list[tuple[int, GameRecord]] = []
        while True:
            while self.index < len(self.lines) and not self.lines[self.index].strip():
                self.index += 1
            if self.index >= len(self.lines):
                return found
            start = self.index + 1
            found.append((start, self._record()))

    def _tags(self) -> list[tuple[int, str, str]]:
        tags = []
        while self.index < len(self.lines):
            text = self.lines[self.index].strip()
            if text and not text.startswith("["):
                break
            if text:
                match = _TAG_LINE.fullmatch(text)
                if match is None:
                    raise RecordError(
                        f'garbled tag line {text!r}: expected [Name "value"]', self.index + 1
                    )
                value = re.sub(r"\\(.)", r"\1", match[2])
                tags.append((self.index + 1, match[1], value))
            self.index += 1
        return tags

    def _record(self) -> GameRecord:
        tags: dict[str, str] = {}
        where: dict[str, int] = {}
        options: list[tuple[int, str]] = []
        for line, name, value in self._tags():
            if name == "RuleOption":
                options.append((line, value))
            elif name in where:
                raise RecordError(f"duplicate tag {name} (first on line {where[name]})", line)
            else:
                tags[name], where[name] = value, line
        rules = self._rules(tags.pop("Rules", None), where.get("Rules"), options)
        fen = tags.pop("FEN", None)
        try:
            board = Board(fen, rules)
        except InvalidFenError as exc:
            raise RecordError(f"bad FEN tag: {exc}", where["FEN"]) from None
        tag_result = tags.pop("Result", None)
        if tag_result is not None and tag_result not in RESULTS:
            raise RecordError(
                f"bad Result {tag_result!r} (not {', '.join(RESULTS)})", where["Result"]
            )
        termination = None
        if "Termination" in tags:
            try:
                termination = Termination(tags.pop("Termination"))
            except ValueError as exc:
                known = ", ".join(t.value for t in Termination)
                raise RecordError(f"{exc} (known: {known})", where["Termination"]) from None
        if "Date" in tags and (problem := _date_problem(tags["Date"])):
            raise RecordError(problem, where["Date"])
        moves, comments, result, result_line = self._movetext(board)
        if tag_result is not None and result != tag_result:
            reason = f"result {result} disagrees with the Result tag {tag_result}"
            raise RecordError(f"{reason} (line {where['Result']})", result_line)
        if problem := _result_problem(termination, result):
            raise RecordError(problem, where["Termination"])
        # The final position must not contradict the recorded result and ending.
        outcome = board.outcome()
        if outcome is not None and outcome.result() != result:
            end = f"{outcome.termination.value}: {outcome.result()}"
            reason = f"result {result} disagrees with the final position ({end})"
            raise RecordError(reason, result_line)
        ended = outcome.termination if outcome else None
        if termination is not None and termination.is_on_board and ended is not termination:
            shows = f"the final position shows {ended.value}" if ended else "the game goes on"
            raise RecordError(f"Termination {termination.value}, but {shows}", where["Termination"])
        return GameRecord(tags, board.starting_fen, rules, moves, comments, result, termination)

    @staticmethod
    def _rules(name: str | None, line: int | None, options: list[tuple[int, str]]) -> RuleSet:
        if not options:
            if name is None:
                return BUILTIN_RULE_SETS["wango"]
            if name.strip().lower() not in BUILTIN_RULE_SETS:
                known = f"known: {', '.join(BUILTIN_RULE_SETS)}, or RuleOption tags for others"
                raise RecordError(f"unknown rule set {name!r} ({known})", line)
            return BUILTIN_RULE_SETS[name.strip().lower()]
        if name is None:
            raise RecordError("RuleOption tag without a Rules tag to name the set", options[0][0])
        table: dict[str, Any] = {}
        for option_line, text in options:
            key, _, raw = text.partition(" ")
            if key == "name":
                raise RecordError("RuleOption name: the Rules tag names the rule set", option_line)
            if key in table:
                raise RecordError(f"RuleOption {key} given twice", option_line)
            table[key] = _option_value(key, raw)
            try:
                # One option at a time, so that the error points at the option's own line.
                rules_from_mapping(name, {key: table[key]})
            except InvalidRulesError as exc:
                raise RecordError(f"bad RuleOption {text!r}: {exc}", option_line) from None
        return rules_from_mapping(name, table)

    def _movetext(self, board: Board) -> tuple[list[Move], dict[int, str], str, int]:
        moves: list[Move] = []
        comments: dict[int, str] = {}
        first = board.rules.first_player
        while self.index < len(self.lines):
            line = self.lines[self.index]
            if line.lstrip().startswith("["):
                raise RecordError(f"tag line inside the movetext: {_NEEDS_RESULT}", self.index + 1)
            self.index += 1
            # From here on self.index is the current line's 1-based number, also after a
            # comment that spans lines has moved on to a later line.
            pos = 0
            while (match := _TOKEN.match(line, pos)) is not None:
                pos = match.end()
                if match["comment"]:
                    text, line, pos = self._comment(line, pos)
                    ply = len(moves)
                    comments[ply] = f"{comments[ply]} {text}" if ply in comments else text
                elif match["number"]:
                    token = match["number"]
                    dots = "." if board.turn == first else "..."
                    expected = f"{board.fullmove_number}{dots}"
                    if token != expected:
                        reason = f"move number {token} out of place: expected {expected}"
                        raise RecordError(reason, self.index)
                elif match["word"]:
                    word = match["word"]
                    if word in RESULTS:
                        if line[pos:].strip():
                            raise RecordError(f"text after the result {word}", self.index)
                        return moves, comments, word, self.index
                    move = self._move(word, self.index)
                    illegal = _play(board, move)
                    if illegal is not None:
                        raise RecordError(illegal, self.index)
                    moves.append(move)
                else:
                    raise RecordError("'}' without an opening '{'", self.index)
        last = max((n + 1 for n, text in enumerate(self.lines) if text.strip()), default=1)
        raise RecordError(f"the game has no result at the end: {_NEEDS_RESULT}", last)

    def _comment(self, line: str, pos: int) -> tuple[str, str, int]:
        """The comment opened just before ``pos``: its text, and the line and position after."""
        opened = self.index
        parts = []
        while (end := line.find("}", pos)) < 0:
            parts.append(line[pos:])
            if self.index >= len(self.lines):
                raise RecordError("unterminated comment: no closing '}'", opened)
            line, pos = self.lines[self.index], 0
            self.index += 1
        parts.append(line[pos:end])
        return "\n".join(parts), line, end + 1

    @staticmethod
    def _move(word: str, line_no: int) -> Move:
        try:
            move = Move.from_str(word)
        except InvalidMoveError as exc:
            raise RecordError(f"bad move string: {exc}", line_no) from None
        if not move and word != "0000":
            # "a3a3" parses as from == to, which Move treats as the pass: only 0000 means one.
            reason = f"bad move string {word!r}: from- and to-square are the same"
            raise RecordError(reason, line_no)
        return move


def read_records(text: str) -> list[GameRecord]:
    """Every record in the text (none for an empty text); RecordError on the first bad one."""
    return [record for _, record in _Reader(text).records()]


def read_record(text: str) -> GameRecord:
    """The one record in the text; RecordError when there is none or more than one.

    >>> read_record('[Rules "wango"]\\n\\n1. a3a5 *')  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    doushouqi.record.RecordError: line 3: illegal move a3a5: an animal moves one square ...
    """
    found = _Reader(text).records()
    if not found:
        raise RecordError("no game in the text", 1)
    if len(found) > 1:
        raise RecordError("expected one game, but a second one starts here", found[1][0])
    return found[0][1]
