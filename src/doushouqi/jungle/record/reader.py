"""The reader of game records (:mod:`doushouqi.jungle.record.model`): line by line, from a text or
an open file, with side lines, NAGs, comments and moves in move strings or SAN.

Use it through :mod:`doushouqi.jungle.record.model` (``read_record``, ``read_game``, ...), which
documents the format.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import os
import re
import weakref
from collections.abc import Callable, Iterator
from typing import Any

from doushouqi.core.record_visitor import SKIP, BaseVisitor, HeadersBuilder, SkipVisitor
from doushouqi.jungle.board import Board, IllegalMoveError, InvalidFenError, InvalidMoveError, Move
from doushouqi.jungle.outcome import Termination
from doushouqi.jungle.record.model import (
    MAX_NAG,
    RESULTS,
    GameRecord,
    LineSource,
    RecordError,
    date_problem,
    move_label,
    play_move,
    result_problem,
)
from doushouqi.jungle.record.tree import GLYPHS, Variation
from doushouqi.jungle.record.visitor import GameBuilder, visit_moves
from doushouqi.jungle.rules import BUILTIN_RULE_SETS, InvalidRulesError, RuleSet, rules_from_mapping
from doushouqi.jungle.san import AmbiguousMoveError, parse_san

__all__ = [
    "iter_games",
    "load_record",
    "load_records",
    "read_game",
    "read_record",
    "read_records",
]

_TAG_LINE = re.compile(r'\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\s*\]')
# Move numbers ("12." before the first player's move, "12..." before the second's) may be
# glued to the move ("1.a3a4"), so they are matched before the catch-all word; so may
# parentheses and NAGs ("(1.a3a4$1)").
_TOKEN = re.compile(
    r"\s*(?:(?P<comment>\{)|(?P<open>\()|(?P<close>\))|(?P<nag>\$[0-9]*)"
    r"|(?P<number>\d+\.(?:\.\.)?)|(?P<word>[^\s{}()$]+)|(?P<stray>\}))"
)
# A word in the move-string form (checked as one); any other word is read as SAN.
_COORDINATES = re.compile(r"[a-z][0-9][a-z][0-9]|0000")
_SUFFIX = re.compile(r"(.*?)([!?]+)")
_OPTION_TYPES = {f.name: str(f.type) for f in dataclasses.fields(RuleSet)}
_NEEDS_RESULT = "a game must end with a result (1-0, 0-1, 1/2-1/2 or *)"


def _option_value(key: str, text: str) -> Any:
    """A RuleOption value as the rule file would hold it, by the option's declared type."""
    kind = _OPTION_TYPES.get(key, "str")
    if kind == "bool" and text in ("true", "false"):
        return text == "true"
    if kind.startswith("int") and text.isdigit():
        return int(text)
    return text  # anything else is passed on as text, for the rules library to judge


class _Lines:
    """The lines of a text or an open file, taken one at a time and counted; one can be looked
    at before it is taken. Also counts the games begun, for error messages."""

    def __init__(self, readline: Callable[[], Any], name: str | None) -> None:
        self._readline = readline
        self.name = name
        self.number = 0  # lines taken
        self.last_text = 0  # the number of the last line taken that is not blank
        self.games = 0  # games begun
        self.ended = False  # the end was reached (or the text cannot be decoded)
        self._next: str | None = None
        self._peeked = False

    def peek(self) -> str | None:
        """The next line, without its line end (None at the end); not taken yet."""
        if not self._peeked:
            self._next = None if self.ended else self._read()
            self._peeked = True
        return self._next

    def _read(self) -> str | None:
        try:
            raw = self._readline()
        except UnicodeDecodeError as exc:
            self.ended = True
            raise RecordError(f"not UTF-8 text: {exc.reason}", self.number + 1) from None
        if not isinstance(raw, str):
            raise TypeError(f"records are text: open the file in text mode (got {type(raw)})")
        if not raw:
            self.ended = True
            return None
        if self.number == 0:
            raw = raw.removeprefix("\ufeff")
        return raw.removesuffix("\n").rstrip("\r")

    def take(self) -> str | None:
        line = self.peek()
        self._peeked = False
        if line is not None:
            self.number += 1
            if line.strip():
                self.last_text = self.number
        return line

    def skip_blank(self) -> str | None:
        """Take blank lines; the first other line (not taken), or None at the end."""
        while (line := self.peek()) is not None and not line.strip():
            self.take()
        return line


@dataclasses.dataclass
class _Frame:
    """A line being read: the main line, or a side line with what it needs to close."""

    line: Variation
    first_ply: int  # the ply of the line's first move
    label: str  # "" for the main line
    siblings: list[Variation]  # the side lines this one is among (empty for the main line)
    outer: str  # the label of the line this one branches from
    taken_back: Move | None = None  # the move it replaces, played again at ")"
    opened: int = 0  # the line of its "("

    def where(self, ply: int | None = None) -> str:
        """The prefix of an error inside this line: which side line and which ply."""
        if not self.label:
            return ""
        if ply is None:
            ply = self.first_ply + len(self.line.moves)
        return f"{self.label}, ply {ply}: "


class _Reader:
    """Reads one record from the lines, so that every error knows its line."""

    def __init__(self, lines: _Lines) -> None:
        self.lines = lines
        # Set when an error is found at a tag line that was not taken: it starts the next game.
        self.at_next_game = False

    def game(self) -> GameRecord | None:
        if self.lines.skip_blank() is None:
            return None
        self.lines.games += 1
        return self._record()

    def skip_rest(self, start: int) -> None:
        """After an error: go on to the next game, a tag line after a blank line (or the tag
        line where the error was found); ``start`` is where the bad game's lines began."""
        if self.at_next_game:
            return
        if self.lines.number == start:
            self.lines.take()  # always get on (not reached: every error takes a line first)
        blank = False
        try:
            while (line := self.lines.peek()) is not None:
                if blank and line.lstrip().startswith("["):
                    return
                blank = not line.strip()
                self.lines.take()
        except RecordError:
            return  # undecodable: the reading ends there

    def _tags(self) -> list[tuple[int, str, str]]:
        tags = []
        while (line := self.lines.peek()) is not None:
            text = line.strip()
            if text and not text.startswith("["):
                break
            self.lines.take()
            if text:
                match = _TAG_LINE.fullmatch(text)
                if match is None:
                    raise RecordError(
                        f'garbled tag line {text!r}: expected [Name "value"]', self.lines.number
                    )
                value = re.sub(r"\\(.)", r"\1", match[2])
                tags.append((self.lines.number, match[1], value))
        return tags

    def _record(self, tag_lines: list[tuple[int, str, str]] | None = None) -> GameRecord:
        """The game, from its tag lines (read here unless given) to its result."""
        tags: dict[str, str] = {}
        where: dict[str, int] = {}
        options: list[tuple[int, str]] = []
        for line, name, value in self._tags() if tag_lines is None else tag_lines:
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
        if "Date" in tags and (problem := date_problem(tags["Date"])):
            raise RecordError(problem, where["Date"])
        main, result, result_line = self._movetext(board)
        if tag_result is not None and result != tag_result:
            reason = f"result {result} disagrees with the Result tag {tag_result}"
            raise RecordError(f"{reason} (line {where['Result']})", result_line)
        if problem := result_problem(termination, result):
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
        return GameRecord(
            tags,
            board.starting_fen,
            rules,
            main.moves,
            main.comments,
            result,
            termination,
            main.nags,
            main.variations,
        )

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

    def _movetext(self, board: Board) -> tuple[Variation, str, int]:
        """The main line (``board`` left at its end), the result and the result's line."""
        main = Variation()
        stack = [_Frame(main, 1, "", [], "")]
        first = board.rules.first_player
        lines = self.lines
        while (line := lines.peek()) is not None:
            if line.lstrip().startswith("["):
                self.at_next_game = True
                raise RecordError(
                    f"tag line inside the movetext: {_NEEDS_RESULT}", lines.number + 1
                )
            lines.take()
            # From here on lines.number is the current line's number, also after a comment
            # that spans lines has moved on to a later line.
            pos = 0
            while (match := _TOKEN.match(line, pos)) is not None:
                pos = match.end()
                frame = stack[-1]
                current = frame.line
                if match["comment"]:
                    text, line, pos = self._comment(line, pos)
                    ply = len(current.moves)
                    comments = current.comments
                    comments[ply] = f"{comments[ply]} {text}" if ply in comments else text
                elif match["number"]:
                    token = match["number"]
                    dots = "." if board.turn == first else "..."
                    expected = f"{board.fullmove_number}{dots}"
                    if token != expected:
                        reason = f"move number {token} out of place: expected {expected}"
                        raise RecordError(frame.where() + reason, lines.number)
                elif match["word"]:
                    word = match["word"]
                    if word in RESULTS:
                        if len(stack) > 1:
                            reason = f"result {word} inside a side line: no ')' for its '('"
                            raise RecordError(f"{reason} (line {frame.opened})", lines.number)
                        if line[pos:].strip():
                            raise RecordError(f"text after the result {word}", lines.number)
                        return main, word, lines.number
                    self._word(board, frame, word)
                elif match["nag"]:
                    self._nag(frame, match["nag"])
                elif match["open"]:
                    stack.append(self._open(board, frame))
                elif match["close"]:
                    if len(stack) == 1:
                        raise RecordError("')' without an opening '('", lines.number)
                    if not current.moves:
                        raise RecordError("empty side line '()'", lines.number)
                    for _ in current.moves:
                        board.pop()
                    assert frame.taken_back is not None
                    board.push(frame.taken_back)
                    stack.pop()
                else:
                    raise RecordError("'}' without an opening '{'", lines.number)
        raise RecordError(
            f"the game has no result at the end: {_NEEDS_RESULT}", lines.last_text or 1
        )

    def _word(self, board: Board, frame: _Frame, word: str) -> None:
        """A move, perhaps with a suffix annotation (``Ea4!?``), or a suffix alone (``!?``)."""
        line_no = self.lines.number
        glyph = None
        if suffix := _SUFFIX.fullmatch(word):
            word, glyph = suffix[1], suffix[2]
            if glyph not in GLYPHS:
                known = " ".join(GLYPHS)
                raise RecordError(f"unknown annotation {glyph!r} (known: {known})", line_no)
        if word:
            frame.line.moves.append(self._move(board, frame, word, line_no))
        if glyph is not None:
            self._add_nag(frame, GLYPHS[glyph], glyph)

    def _nag(self, frame: _Frame, token: str) -> None:
        digits = token[1:]
        if not digits or int(digits) > MAX_NAG:
            reason = f"bad NAG {token!r}: expected $ and a number from 0 to {MAX_NAG}"
            raise RecordError(reason, self.lines.number)
        self._add_nag(frame, int(digits), token)

    def _add_nag(self, frame: _Frame, nag: int, token: str) -> None:
        ply = len(frame.line.moves)
        if ply == 0:
            raise RecordError(f"{token} before any move: a NAG follows its move", self.lines.number)
        frame.line.nags.setdefault(ply, set()).add(nag)

    def _open(self, board: Board, frame: _Frame) -> _Frame:
        """A side line opens: it replaces the last move of the line being read."""
        count = len(frame.line.moves)
        if count == 0:
            reason = "'(' before any move: a side line replaces the move before it"
            raise RecordError(frame.where() + reason, self.lines.number)
        ply = frame.first_ply + count - 1
        side = Variation()
        if frame.label and count == 1:
            # It replaces this side line's first move, so it branches where this line does.
            siblings, outer = frame.siblings, frame.outer
        else:
            siblings, outer = frame.line.variations.setdefault(count, []), frame.label
        siblings.append(side)
        label = move_label(len(siblings), ply, outer)
        return _Frame(side, ply, label, siblings, outer, board.pop(), self.lines.number)

    def _move(self, board: Board, frame: _Frame, word: str, line_no: int) -> Move:
        """Read and play a move string or SAN."""
        where = frame.where()
        if not _COORDINATES.fullmatch(word):
            try:
                move = parse_san(board, word, allow_pass=True)
            except AmbiguousMoveError as exc:
                raise RecordError(f"{where}ambiguous move {exc}", line_no) from None
            except IllegalMoveError as exc:
                raise RecordError(f"{where}illegal move {exc}", line_no) from None
            except ValueError:
                reason = f"bad move {word!r}: expected a move string (a3a4) or SAN (Ea4, 象a4)"
                raise RecordError(where + reason, line_no) from None
            board.push(move)
            return move
        try:
            move = Move.from_str(word)
        except InvalidMoveError as exc:
            raise RecordError(f"{where}bad move string: {exc}", line_no) from None
        if not move and word != "0000":
            # "a3a3" parses as from == to, which Move treats as the pass: only 0000 means one.
            reason = f"bad move string {word!r}: from- and to-square are the same"
            raise RecordError(where + reason, line_no)
        illegal = play_move(board, move)
        if illegal is not None:
            raise RecordError(where + illegal, line_no)
        return move

    def _comment(self, line: str, pos: int) -> tuple[str, str, int]:
        """The comment opened just before ``pos``: its text, and the line and position after."""
        opened = self.lines.number
        parts = []
        while (end := line.find("}", pos)) < 0:
            parts.append(line[pos:])
            following = self.lines.take()
            if following is None:
                raise RecordError("unterminated comment: no closing '}'", opened)
            line, pos = following, 0
        parts.append(line[pos:end])
        return "\n".join(parts), line, end + 1


def _next_game(lines: _Lines, *, recover: bool = True) -> GameRecord | None:
    """The next game of the lines, or None at their end; a RecordError names the file, the
    line and the game, and (with ``recover``) leaves the lines at the next game."""
    reader = _Reader(lines)
    start = lines.number
    try:
        return reader.game()
    except RecordError as exc:
        error = RecordError(exc.reason, exc.line, name=lines.name, game=lines.games or None)
        if recover:
            reader.skip_rest(start)
        raise error from None


def _text_lines(text: str, name: str | None) -> _Lines:
    if not isinstance(text, str):
        raise TypeError(f"a record is text, got {type(text).__name__}")
    # newline="\n": lines end at "\n" only (a "\r" before it is dropped), as in a file.
    return _Lines(io.StringIO(text, newline="\n").readline, name)


def read_records(text: str, *, name: str | None = None) -> list[GameRecord]:
    """See :func:`doushouqi.jungle.record.model.read_records`."""
    lines = _text_lines(text, name)
    found = []
    while (record := _next_game(lines, recover=False)) is not None:
        found.append(record)
    return found


def read_record(text: str, *, name: str | None = None) -> GameRecord:
    """See :func:`doushouqi.jungle.record.model.read_record`."""
    lines = _text_lines(text, name)
    record = _next_game(lines, recover=False)
    if record is None:
        raise RecordError("no game in the text", 1, name=name)
    if lines.skip_blank() is not None:
        reason = "expected one game, but a second one starts here"
        raise RecordError(reason, lines.number + 1, name=name)
    return record


# Where read_game stands in each open file: the lines taken and the games read so far.
_STREAMS: weakref.WeakKeyDictionary[Any, _Lines] = weakref.WeakKeyDictionary()


def _rewound(handle: Any) -> bool:
    try:
        return bool(handle.tell() == 0)
    except (AttributeError, OSError, ValueError):
        return False


def _stream(handle: LineSource, name: str | None) -> _Lines:
    if isinstance(handle, (str, bytes)) or not callable(getattr(handle, "readline", None)):
        raise TypeError(
            "read_game reads an open text file (use read_record or io.StringIO for text)"
        )
    try:
        lines = _STREAMS.get(handle)
    except TypeError:  # cannot be weakly referenced: counted afresh at each call
        lines = None
    if lines is None or _rewound(handle):
        if name is None:
            given = getattr(handle, "name", None)
            name = given if isinstance(given, str) else None
        lines = _Lines(handle.readline, name)
        with contextlib.suppress(TypeError):  # then it is counted afresh at each call
            _STREAMS[handle] = lines
    elif name is not None:
        lines.name = name
    return lines


def read_game(
    handle: LineSource,
    *,
    name: str | None = None,
    Visitor: Callable[[], BaseVisitor[Any]] = GameBuilder,
) -> Any:
    """See :func:`doushouqi.jungle.record.model.read_game`; with ``Visitor``, what a new
    visitor of that class returns for the next game
    (:mod:`doushouqi.core.record_visitor`), or None at the end of the file."""
    lines = _stream(handle, name)
    if Visitor is GameBuilder:
        # The reader builds the record itself as it checks the game: the same record that
        # GameBuilder builds from the visits (the tests compare them), without the walk.
        return _next_game(lines)
    return _visit_next_game(lines, Visitor())


def _visit_next_game(lines: _Lines, visitor: BaseVisitor[Any]) -> Any:
    """The next game of the lines through ``visitor`` (its result), or None at their end; a
    RecordError names the file, the line and the game, and leaves the lines at the next."""
    if lines.skip_blank() is None:
        return None
    lines.games += 1
    if visitor.begin_game() is SKIP:
        while (line := lines.peek()) is not None and line.lstrip().startswith("["):
            lines.take()  # unparsed: a garbled tag line is skipped with the rest
        _skip_movetext(lines)
        visitor.end_game()
        return visitor.result()
    reader = _Reader(lines)
    start = lines.number
    try:
        tags = reader._tags()
        visitor.begin_headers()
        for _, tag, value in tags:
            visitor.visit_header(tag, value)
        if visitor.end_headers() is SKIP:
            _skip_movetext(lines)
            visitor.end_game()
            return visitor.result()
        record = reader._record(tags)
    except RecordError as exc:
        reader.skip_rest(start)
        raise RecordError(exc.reason, exc.line, name=lines.name, game=lines.games) from None
    visit_moves(record, visitor)
    visitor.visit_result(record.result)
    visitor.end_game()
    return visitor.result()


def read_headers(handle: LineSource, *, name: str | None = None) -> dict[str, str] | None:
    """The tags of the next game of an open file, its moves skipped unread (python-chess's
    ``read_headers``: scanning a large archive for the games worth reading); None at the end.
    ``read_game`` with :class:`~doushouqi.core.record_visitor.HeadersBuilder`: ``RuleOption``
    tags, which may repeat, come as one value, their texts joined by ``"; "``. A garbled tag
    line raises RecordError and leaves the file at the next game.

    >>> import io
    >>> games = io.StringIO('[Red "Li"]\\n\\na3a4 *\\n\\n[Red "Wang"]\\n\\ng3g4 *\\n')
    >>> read_headers(games)["Red"], skip_game(games), read_headers(games)
    ('Li', True, None)
    """
    headers: dict[str, str] | None = read_game(handle, name=name, Visitor=HeadersBuilder)
    return headers


def skip_game(handle: LineSource) -> bool:
    """Skip the next game of an open file unread (python-chess's ``skip_game``, ``read_game``
    with :class:`~doushouqi.core.record_visitor.SkipVisitor`): True when there was one, False
    at the end."""
    return read_game(handle, Visitor=SkipVisitor) is not None


def _skip_movetext(lines: _Lines) -> None:
    """Take the lines up to the next game: a tag line after a blank line, or the end."""
    blank = False
    while (line := lines.peek()) is not None:
        if blank and line.lstrip().startswith("["):
            return
        blank = not line.strip()
        lines.take()


def iter_games(
    handle: LineSource, *, errors: list[RecordError] | None = None
) -> Iterator[GameRecord]:
    """See :func:`doushouqi.jungle.record.model.iter_games`."""
    while True:
        try:
            record = read_game(handle)
        except RecordError as exc:
            if errors is None:
                raise
            errors.append(exc)
            continue
        if record is None:
            return
        yield record


def load_records(
    path: str | os.PathLike[str], *, errors: list[RecordError] | None = None
) -> list[GameRecord]:
    """See :func:`doushouqi.jungle.record.model.load_records`."""
    with open(path, encoding="utf-8", newline="\n") as handle:
        return list(iter_games(handle, errors=errors))


def load_record(path: str | os.PathLike[str]) -> GameRecord:
    """See :func:`doushouqi.jungle.record.model.load_record`."""
    with open(path, encoding="utf-8", newline="\n") as handle:
        lines = _Lines(handle.readline, os.fspath(path))
        record = _next_game(lines, recover=False)
        if record is None:
            raise RecordError("no game in the file", 1, name=lines.name)
        if lines.skip_blank() is not None:
            reason = "expected one game, but a second one starts here"
            raise RecordError(reason, lines.number + 1, name=lines.name)
        return record
