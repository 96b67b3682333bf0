"""Game records of 老虎棋 in the PGN-like format of Jungle's (:mod:`doushouqi.jungle.record`).

A record is a block of tag lines ``[Name "value"]`` (``\\`` and ``"`` escaped with ``\\``), a
blank line, and the movetext: numbered moves, comments, NAGs, and the result (``1-0`` the
tiger side won, ``0-1`` the men won, ``1/2-1/2``, ``*``) at the end. Several records in one
text are separated by blank lines. The shape is Jungle's; what tells the games apart is the
``Game`` tag, which holds the game's registry key, ``tiger``: Jungle's reader knows no such
tag and no Tiger rule set, so it refuses these records, and this reader refuses a record
whose ``Game`` tag names another game.

Tags, in the order they are written: ``Event Site Date Round Tiger Men`` (the seven-tag
roster with the sides' players), ``Result``, ``Game``, ``Rules`` (the rule set's name; a rule
set that is not exactly a named one adds a ``RuleOption`` tag per option, ``"key value"``:
``parent`` and each option that differs from it), ``Termination`` (a board ending such as
``tiger_trapped``, or a platform ending such as ``resignation``), ``FEN`` (the start position,
only when it is not the rule set's start), then any other tags in the order given.

The movetext: a move is a move string (``e10e9``, ``0000`` for a timeout's pass) or short
notation (:mod:`doushouqi.tiger.san`: ``Te10-e9``, ``虎e5吃e7``, ``--``), one word each. Move
numbers (``3.`` before the first side's move, ``3...`` before the second's) may be left out;
those given must be right. ``{comment}`` comments the move before it (before the first move:
the start); a comment holds no blank line. ``$n`` and the suffixes ``! ? !! ?? !? ?!`` are
NAGs. Side lines are not part of this format (yet): ``(`` is an error. Reading replays every
move, so a record that reads is a legal game, with no move after the game ended.

>>> from doushouqi.tiger.board import Board
>>> board = Board()
>>> for text in ("e10e9", "d2d3", "e9e8"):
...     _ = board.push_move(text)
>>> record = TigerRecord.from_board(board, Event="Club night", Tiger="Li", Men="Wang")
>>> record.comments[2] = "the men start up the middle"
>>> text = write_record(record, san=True, lang="zh")
>>> print(text, end="")
[Event "Club night"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[Tiger "Li"]
[Men "Wang"]
[Result "*"]
[Game "tiger"]
[Rules "laohuqi"]
<BLANKLINE>
1. 虎e10-e9 人d2-d3 {the men start up the middle} 2. 虎e9-e8 *
>>> read_record(text) == record
True
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from typing import Any

from doushouqi.core.game import Lang, MoveError
from doushouqi.core.outcome import BoardEnding, PlatformEnding, ending_from_key
from doushouqi.tiger.board import Board, start_position
from doushouqi.tiger.moves import Move
from doushouqi.tiger.rules import BUILTIN_RULE_SETS, RulesError, RuleSet, rules_from_mapping
from doushouqi.tiger.san import move_to_san, parse_san
from doushouqi.tiger.terms import Termination

__all__ = [
    "GAME_KEY",
    "RESULTS",
    "ROSTER",
    "RecordError",
    "TigerRecord",
    "read_record",
    "read_records",
    "write_record",
    "write_records",
]

#: The value of the ``Game`` tag: the game's registry key.
GAME_KEY = "tiger"
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
#: Tags written first and in this order: PGN's roster with the two sides' players.
ROSTER = ("Event", "Site", "Date", "Round", "Tiger", "Men")
_STRUCTURED = ("Result", "Game", "Rules", "RuleOption", "Termination", "FEN")
_BOARD_ENDINGS = tuple(t.value for t in Termination)
_NAG_SUFFIXES = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}
_WIDTH = 80

_TAG_LINE = re.compile(r'\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_TOKEN = re.compile(
    r"\s*(?:(?P<comment>\{[^}]*\}?)|(?P<open>\()|(?P<nag>\$[0-9]*)"
    r"|(?P<number>[0-9]+\.(?:\.\.)?)|(?P<word>[^\s{}()$]+))"
)
_SUFFIX = re.compile(r"(.*?)([!?]+)")


class RecordError(ValueError):
    """A record cannot be read or replayed; ``line`` is the 1-based line where known."""

    def __init__(self, reason: str, line: int | None = None) -> None:
        self.reason = reason
        self.line = line
        super().__init__(f"line {line}: {reason}" if line is not None else reason)


@dataclasses.dataclass
class TigerRecord:
    """One game: its tags, rule set, start, moves (a pass is ``Move.null()``), comments and
    NAGs by ply (0: before the first move), result and termination (an ending key)."""

    rules: RuleSet = dataclasses.field(default_factory=RuleSet)
    moves: list[Move] = dataclasses.field(default_factory=list)
    tags: dict[str, str] = dataclasses.field(default_factory=dict)
    start: str | None = None
    comments: dict[int, str] = dataclasses.field(default_factory=dict)
    nags: dict[int, set[int]] = dataclasses.field(default_factory=dict)
    result: str = "*"
    termination: str | None = None

    def __post_init__(self) -> None:
        if self.start is None:
            self.start = start_position(self.rules)
        for name in ROSTER:  # the roster is always written: "?" where unknown
            self.tags.setdefault(name, "????.??.??" if name == "Date" else "?")

    @classmethod
    def from_board(cls, board: Board, **tags: str) -> TigerRecord:
        """The game a board has played since its position was set; the result and the
        termination from its outcome, when it has one."""
        start = board.copy()
        for _ in range(start.ply()):
            start.pop()
        outcome = board.outcome()
        return cls(
            rules=board.rules,
            moves=list(board.move_stack),
            tags=dict(tags),
            start=start.position_string(),
            result="*" if outcome is None else outcome.result(),
            termination=None if outcome is None else outcome.key,
        )

    def board(self) -> Board:
        """The final position, every move replayed and checked; RecordError naming the ply."""
        assert self.start is not None
        try:
            board = Board(self.start, self.rules)
        except ValueError as exc:
            raise RecordError(f"FEN: {exc}") from None
        for ply, move in enumerate(self.moves, 1):
            reason = _play(board, move)
            if reason is not None:
                raise RecordError(f"ply {ply} ({move}): {reason}")
        return board

    def check(self) -> Board:
        """Every check of a record that reads: the moves, the result against the ending and
        against the final position; returns the final board."""
        board = self.board()
        if self.result not in RESULTS:
            raise RecordError(f"result {self.result!r} is none of {', '.join(RESULTS)}")
        outcome = board.outcome()
        if outcome is not None and self.result != outcome.result():
            raise RecordError(
                f"the game ended on the board ({outcome.key}, {outcome.result()}), yet the "
                f"result is {self.result}"
            )
        if self.termination is not None:
            try:
                ending = ending_from_key(self.termination, _BOARD_ENDINGS)
            except ValueError as exc:
                raise RecordError(f"Termination: {exc}") from None
            if isinstance(ending, BoardEnding) and (outcome is None or outcome.key != ending.key):
                raise RecordError(
                    f"Termination {ending.key}: the final position does not end that way"
                )
            draw = isinstance(ending, PlatformEnding) and ending.is_draw
            if draw and self.result not in ("1/2-1/2", "*"):
                raise RecordError(f"Termination {self.termination} needs a drawn result")
        return board


def _play(board: Board, move: Move) -> str | None:
    outcome = board.outcome()
    if outcome is not None:
        return f"the game is already over ({outcome.key})"
    reason = board.explain_illegal(move, allow_pass=True)
    if reason is None:
        board.push(move)
    return reason


# ----------------------------------------------------------------------------- writing


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _rule_options(rules: RuleSet) -> list[tuple[str, str]]:
    """RuleOption pairs that rebuild ``rules``: none for a named set, else parent + changes."""
    if BUILTIN_RULE_SETS.get(rules.name) == rules:
        return []
    wanted = rules.to_mapping()
    best: tuple[int, bool, int, str, list[tuple[str, Any]]] | None = None
    for order, parent in enumerate(BUILTIN_RULE_SETS):
        base = rules_from_mapping(rules.name, {"parent": parent}).to_mapping()
        diffs = [(key, v) for key, v in wanted.items() if key != "name" and base[key] != v]
        candidate = (len(diffs), parent != rules.name, order, parent, diffs)
        best = candidate if best is None or candidate < best else best
    assert best is not None
    *_, parent, diffs = best
    pairs = [("parent", parent), *diffs]
    return [
        (key, ("true" if v else "false") if isinstance(v, bool) else str(v)) for key, v in pairs
    ]


def write_record(record: TigerRecord, *, san: bool = False, lang: Lang = "en") -> str:
    """The record as text: tag lines, a blank line, the movetext wrapped at 80 columns.

    Moves are move strings, or short notation with ``san=True`` in ``lang``. The record is
    checked first (RecordError when it would not read back).
    """
    board = record.check()
    tags = [(name, record.tags[name]) for name in ROSTER]
    tags += [("Result", record.result), ("Game", GAME_KEY), ("Rules", record.rules.name)]
    tags += [("RuleOption", f"{key} {value}") for key, value in _rule_options(record.rules)]
    if record.termination is not None:
        tags.append(("Termination", record.termination))
    if record.start != start_position(record.rules):
        assert record.start is not None
        tags.append(("FEN", record.start))
    tags += [(n, v) for n, v in record.tags.items() if n not in ROSTER and n not in _STRUCTURED]
    lines = [f'[{name} "{_escape(value)}"]' for name, value in tags]
    for _ in record.moves:
        board.pop()
    return "\n".join([*lines, "", *_movetext(record, board, san, lang)]) + "\n"


def _movetext(record: TigerRecord, board: Board, san: bool, lang: Lang) -> list[str]:
    tokens: list[str] = []
    if 0 in record.comments:
        tokens.append(f"{{{record.comments[0]}}}")
    first = board.rules.first
    needs_number = True
    for ply, move in enumerate(record.moves, 1):
        text = move_to_san(board, move, lang) if san else str(move)
        number = board.fullmove_number
        if board.turn == first:
            tokens.append(f"{number}. {text}")
        elif needs_number:
            tokens.append(f"{number}... {text}")
        else:
            tokens.append(text)
        tokens += [f"${nag}" for nag in sorted(record.nags.get(ply, ()))]
        needs_number = ply in record.comments
        if needs_number:
            tokens.append(f"{{{record.comments[ply]}}}")
        board.push(move)
    tokens.append(record.result)
    lines: list[str] = []
    for token in tokens:
        if lines and len(lines[-1]) + 1 + len(token) <= _WIDTH:
            lines[-1] += " " + token
        else:
            lines.append(token)
    return lines


def write_records(records: list[TigerRecord], *, san: bool = False, lang: Lang = "en") -> str:
    """Several records, separated by blank lines."""
    return "\n".join(write_record(record, san=san, lang=lang) for record in records)


# ----------------------------------------------------------------------------- reading


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def _blocks(text: str) -> Iterator[tuple[list[tuple[int, str]], list[tuple[int, str]]]]:
    """(tag lines, movetext lines) of each record, with their line numbers."""
    lines = list(enumerate(text.removeprefix("\ufeff").splitlines(), 1))
    i = 0
    while i < len(lines):
        if not lines[i][1].strip():
            i += 1
            continue
        tags: list[tuple[int, str]] = []
        while i < len(lines) and lines[i][1].lstrip().startswith("["):
            tags.append(lines[i])
            i += 1
        while i < len(lines) and not lines[i][1].strip():
            i += 1
        movetext: list[tuple[int, str]] = []
        while i < len(lines) and lines[i][1].strip() and not lines[i][1].lstrip().startswith("["):
            movetext.append(lines[i])
            i += 1
        yield tags, movetext


def _rules(tags: dict[str, str], options: list[tuple[int, str]], line: int) -> RuleSet:
    name = tags.get("Rules", "laohuqi")
    try:
        if not options:
            rules = BUILTIN_RULE_SETS.get(name)
            if rules is None:
                known = ", ".join(BUILTIN_RULE_SETS)
                raise RulesError(f"unknown rule set {name!r} (known: {known})")
            return rules
        table: dict[str, Any] = {}
        for option_line, text in options:
            key, _, value = text.partition(" ")
            if key in table:
                raise RecordError(f"RuleOption {key} given twice", option_line)
            table[key] = _option_value(value.strip())
        return rules_from_mapping(name, table)
    except RulesError as exc:
        raise RecordError(f"Rules: {exc}", line) from None


def _option_value(text: str) -> Any:
    if text in ("true", "false"):
        return text == "true"
    if text.isascii() and text.isdigit():
        return int(text)
    return text  # for the rule set to judge


def _read_one(tag_lines: list[tuple[int, str]], movetext: list[tuple[int, str]]) -> TigerRecord:
    tags: dict[str, str] = {}
    where: dict[str, int] = {}
    options: list[tuple[int, str]] = []
    for number, line in tag_lines:
        match = _TAG_LINE.fullmatch(line.strip())
        if match is None:
            raise RecordError(f"not a tag line: {line.strip()[:60]!r}", number)
        name, value = match[1], _unescape(match[2])
        if name == "RuleOption":
            options.append((number, value))
            continue
        if name in tags:
            raise RecordError(f"tag {name} given twice", number)
        tags[name], where[name] = value, number
    first_line = tag_lines[0][0] if tag_lines else (movetext[0][0] if movetext else 1)
    game = tags.pop("Game", GAME_KEY)
    if game != GAME_KEY:
        raise RecordError(
            f"a record of the game {game!r}, not of 老虎棋 ({GAME_KEY!r})", where["Game"]
        )
    rules = _rules(tags, options, where.get("Rules", first_line))
    tags.pop("Rules", None)
    record = TigerRecord(rules=rules, start=tags.pop("FEN", None))
    try:
        board = Board(record.start, rules)
    except ValueError as exc:
        raise RecordError(f"FEN: {exc}", where.get("FEN", first_line)) from None
    record.termination = tags.pop("Termination", None)
    tag_result = tags.pop("Result", None)
    record.tags.update(tags)
    if not movetext:
        raise RecordError("a game must end with a result (1-0, 0-1, 1/2-1/2 or *)", first_line)
    record.result = _read_moves(record, board, movetext)
    if tag_result is not None and tag_result != record.result:
        raise RecordError(
            f"the Result tag ({tag_result}) and the movetext ({record.result}) disagree",
            where["Result"],
        )
    try:
        record.check()
    except RecordError as exc:
        raise RecordError(exc.reason, movetext[-1][0]) from None
    return record


def _read_moves(record: TigerRecord, board: Board, movetext: list[tuple[int, str]]) -> str:
    """Reads the moves into ``record`` (replaying them on ``board``); returns the result."""
    text = "\n".join(line for _, line in movetext)
    first_line = movetext[0][0]
    position = 0
    result: str | None = None
    while True:
        match = _TOKEN.match(text, position)
        if match is None or match.end() == position:
            break
        line = first_line + text.count("\n", 0, match.start(match.lastgroup or 0))
        position = match.end()
        if result is not None:
            raise RecordError(f"text after the result {result}", line)
        ply = len(record.moves)
        kind, token = match.lastgroup, match[match.lastgroup or 0]
        if kind == "comment":
            if not token.endswith("}"):
                raise RecordError("a comment is not closed with '}'", line)
            record.comments[ply] = token[1:-1].strip()
        elif kind == "open":
            raise RecordError("side lines ( ... ) are not part of 老虎棋 records", line)
        elif kind == "nag":
            _add_nag(record, ply, token, line)
        elif kind == "number":
            _check_number(board, token, line)
        elif token in RESULTS:
            result = token
        else:
            suffix = _SUFFIX.fullmatch(token)
            if suffix and suffix[2] in _NAG_SUFFIXES and suffix[1]:
                token = suffix[1]
            _read_move(record, board, token, line)
            if suffix and suffix[2] in _NAG_SUFFIXES and suffix[1]:
                record.nags.setdefault(ply + 1, set()).add(_NAG_SUFFIXES[suffix[2]])
    if text[position:].strip():
        raise RecordError(f"unreadable text {text[position:].strip()[:30]!r}", movetext[-1][0])
    if result is None:
        raise RecordError("a game must end with a result (1-0, 0-1, 1/2-1/2 or *)", first_line)
    return result


def _add_nag(record: TigerRecord, ply: int, token: str, line: int) -> None:
    digits = token[1:]
    if not ply or not digits.isdigit() or not 0 <= int(digits) <= 255:
        raise RecordError(f"bad NAG {token!r} (a number 0-255 after a move)", line)
    record.nags.setdefault(ply, set()).add(int(digits))


def _check_number(board: Board, token: str, line: int) -> None:
    second = token.endswith("...")
    number = int(token.rstrip("."))
    first_side = board.turn == board.rules.first
    if number != board.fullmove_number or second == first_side:
        expected = f"{board.fullmove_number}{'.' if first_side else '...'}"
        raise RecordError(f"move number {token} where {expected} is due", line)


def _read_move(record: TigerRecord, board: Board, word: str, line: int) -> None:
    ply = len(record.moves) + 1
    outcome = board.outcome()
    if outcome is not None:
        raise RecordError(f"ply {ply} ({word}): the game is already over ({outcome.key})", line)
    try:
        move = parse_san(board, word, allow_pass=True)
    except MoveError as exc:
        raise RecordError(f"ply {ply}: {exc}", line) from None
    board.push(move)
    record.moves.append(move)


def read_records(text: str) -> list[TigerRecord]:
    """Every record of a text; RecordError (naming the line) at the first bad one."""
    return [_read_one(tags, movetext) for tags, movetext in _blocks(text)]


def read_record(text: str) -> TigerRecord:
    """The one record of a text."""
    records = read_records(text)
    if len(records) != 1:
        raise RecordError(f"expected one record, found {len(records)}")
    return records[0]
