"""The terminal game's logic, free of input and output, so that tests can drive it line by line.

A :class:`Session` holds one game at a time (board, mode, whose side the player has, the
computer's level, orientation, language). :meth:`Session.handle` takes one line the player
typed — a move like ``g3g4`` / ``g3 g4`` or a command — and answers with a :class:`Reply`: notes
to show and whether the board changed. When the computer is to move, :meth:`Session.engine_to_move`
is true and :meth:`Session.play_engine_move` asks the :class:`Opponent` for its move.

>>> from doushouqi.jungle.board import Board
>>> class FirstMove:
...     def choose_move(self, board: Board) -> Move:
...         return min(board.legal_moves, key=str)
>>> session = Session(opponent=FirstMove())
>>> session.handle("g3 g4").redraw
True
>>> session.engine_to_move()
True
>>> print(session.play_engine_move().notes[0].text)
Computer: Ra7-a6
>>> print(session.handle("undo").notes[0].text)
Took back 2 moves.
>>> session.board.ply()
0
"""

from __future__ import annotations

import dataclasses
import datetime
import enum
import re
from collections.abc import Callable
from pathlib import Path
from typing import Protocol, runtime_checkable

from doushouqi.jungle.board import Board, Move
from doushouqi.jungle.notation import (
    Lang,
    NotationError,
    animal_name,
    color_name,
    move_to_readable,
    outcome_label,
    parse_readable,
)
from doushouqi.jungle.outcome import Outcome, Termination
from doushouqi.jungle.record import GameRecord, format_date, read_record, write_record
from doushouqi.jungle.rules import RuleSet
from doushouqi.jungle.squares import RED, square_name
from doushouqi.jungle.tui.engine import EngineUnavailableError
from doushouqi.jungle.tui.text import HELP, parse_lang, say

__all__ = [
    "MAX_LEVEL",
    "MIN_LEVEL",
    "Mode",
    "Note",
    "NoteKind",
    "Opponent",
    "Reply",
    "Session",
]

MIN_LEVEL, MAX_LEVEL = 1, 10


class Mode(enum.Enum):
    """Against the computer, or two players taking turns at one screen (hot seat)."""

    AI = "ai"
    HOTSEAT = "hotseat"


class Opponent(Protocol):
    """Anything that picks a move: the engine adapter, or a scripted player in tests."""

    def choose_move(self, board: Board) -> Move: ...


@runtime_checkable
class _HasLevel(Protocol):
    level: int


class NoteKind(enum.Enum):
    INFO = "info"
    ERROR = "error"
    MOVE = "move"
    RESULT = "result"
    HELP = "help"


@dataclasses.dataclass(frozen=True)
class Note:
    """One message for the player."""

    text: str
    kind: NoteKind = NoteKind.INFO


@dataclasses.dataclass
class Reply:
    """What a line of input did: notes to show, and whether the board must be drawn again."""

    notes: list[Note] = dataclasses.field(default_factory=list)
    redraw: bool = False

    @property
    def text(self) -> str:
        """All notes as one string (handy in tests and doctests)."""
        return "\n".join(note.text for note in self.notes)


_COORDINATES = re.compile(r"([a-g][1-9])\s*[-\s]?\s*([a-g][1-9])", re.IGNORECASE)
_HAS_SQUARE = re.compile(r"[a-g][1-9]", re.IGNORECASE)
_YES = frozenset({"y", "yes", "是", "好", "再来"})
_NO = frozenset({"n", "no", "否", "不"})

#: Every word a player may type for a command (English and Chinese) → the command's name.
_ALIASES: dict[str, str] = {
    "undo": "undo",
    "u": "undo",
    "takeback": "undo",
    "悔棋": "undo",
    "hint": "hint",
    "提示": "hint",
    "level": "level",
    "等级": "level",
    "flip": "flip",
    "翻转": "flip",
    "save": "save",
    "保存": "save",
    "load": "load",
    "读取": "load",
    "moves": "moves",
    "走法": "moves",
    "new": "new",
    "新局": "new",
    "lang": "lang",
    "language": "lang",
    "语言": "lang",
    "resign": "resign",
    "认输": "resign",
    "quit": "quit",
    "exit": "quit",
    "q": "quit",
    "退出": "quit",
    "help": "help",
    "h": "help",
    "?": "help",
    "帮助": "help",
    "board": "board",
    "棋盘": "board",
}


class Session:
    """One player's (or two players') terminal game."""

    def __init__(
        self,
        board: Board | None = None,
        *,
        rules: RuleSet | str = "wango",
        lang: Lang = "en",
        mode: Mode = Mode.AI,
        human: int = RED,
        level: int = 3,
        opponent: Opponent | None = None,
        flipped: bool | None = None,
    ) -> None:
        self.board = board if board is not None else Board(rules=rules)
        self.lang: Lang = lang
        self.mode = mode
        #: The side the player has against the computer (0 Red, 1 Blue).
        self.human = human
        self.level = level
        self.opponent = opponent
        self._set_opponent_level()
        #: Draw the board with Blue at the bottom.
        self.flipped = (mode is Mode.AI and human != RED) if flipped is None else flipped
        #: An ending off the board (a resignation, or one read from a record): the board itself
        #: cannot know it.
        self.ending: Outcome | None = None
        self.quit_requested = False
        self._start_notes: list[Note] = []
        if mode is Mode.AI and opponent is None:
            self.mode = Mode.HOTSEAT
            self._start_notes.append(Note(say("engine_missing", lang), NoteKind.ERROR))
        self._commands: dict[str, Callable[[str], Reply]] = {
            "undo": self._undo,
            "hint": self._hint,
            "level": self._level,
            "flip": self._flip,
            "save": self._save,
            "load": self._load,
            "moves": self._moves,
            "new": self._new,
            "lang": self._lang,
            "resign": self._resign,
            "quit": self._quit,
            "help": self._help,
            "board": lambda _: Reply(redraw=True),
        }

    # ------------------------------------------------------------------------ state

    @property
    def rules(self) -> RuleSet:
        return self.board.rules

    def outcome(self) -> Outcome | None:
        """How the game ended (off the board, or the board's own outcome), or None."""
        return self.ending or self.board.outcome()

    def is_over(self) -> bool:
        return self.outcome() is not None

    def engine_to_move(self) -> bool:
        """Whether the computer should move now (the loop then calls :meth:`play_engine_move`)."""
        return (
            self.mode is Mode.AI
            and self.opponent is not None
            and self.board.turn != self.human
            and not self.is_over()
        )

    def prompt(self) -> str:
        if self.is_over():
            return say("prompt_over", self.lang)
        return say("prompt", self.lang, side=color_name(self.board.turn, self.lang))

    def start(self) -> Reply:
        """The first thing to show: the board, and any note about how the game starts."""
        notes, self._start_notes = self._start_notes, []
        notes.append(Note(say("help_hint", self.lang)))
        return Reply(notes + self._end_notes(), redraw=True)

    # ------------------------------------------------------------------------ input

    def handle(self, line: str) -> Reply:
        """Act on one line the player typed: a move or a command. Never raises for bad input."""
        text = line.strip()
        if not text:
            return Reply(redraw=True)
        word, _, rest = text.partition(" ")
        word = word.lower()
        if self.is_over() and word in _YES:
            return self._new("")
        if self.is_over() and word in _NO:
            return self._quit("")
        command = _ALIASES.get(word)
        if command is not None:
            return self._commands[command](rest.strip())
        return self._move(text)

    def asks_engine(self, line: str) -> bool:
        """Whether ``line`` makes the engine think (a hint), so the loop can show it is busy."""
        word = line.strip().partition(" ")[0].lower()
        return _ALIASES.get(word) == "hint" and self.opponent is not None and not self.is_over()

    def _move(self, text: str) -> Reply:
        match = _COORDINATES.fullmatch(text)
        if match is None and not _HAS_SQUARE.search(text):
            return self._error(say("unreadable", self.lang, text=text))
        if self.is_over():
            return self._error(say("game_is_over", self.lang))
        if match is not None:
            move = Move.from_str((match[1] + match[2]).lower())
            reason = self.board.explain_illegal(move)
            if reason is not None:
                return self._error(say("illegal", self.lang, move=str(move), reason=reason))
        else:
            # Readable notation (Lg1-g2, 狮 g1-g2) is accepted too; its errors say what is wrong.
            try:
                move = parse_readable(self.board, text)
            except NotationError as exc:
                return self._error(str(exc))
            if not move:
                why = self.board.explain_illegal(move) or ""
                return self._error(say("illegal", self.lang, move=text, reason=why))
        side = color_name(self.board.turn, self.lang)
        readable = move_to_readable(self.board, move, self.lang)
        self.board.push(move)
        notes = [Note(say("played", self.lang, side=side, move=readable), NoteKind.MOVE)]
        return Reply(notes + self._end_notes(), redraw=True)

    def play_engine_move(self) -> Reply:
        """Let the computer move. If the engine fails, the game goes on with two players."""
        assert self.opponent is not None
        try:
            move = self.opponent.choose_move(self.board.copy())
            reason = self.board.explain_illegal(move)
            if reason is not None:
                raise ValueError(say("engine_illegal", self.lang, move=move) + f": {reason}")
        except Exception as exc:  # the engine is another package: any failure ends its turn
            self.mode = Mode.HOTSEAT
            return Reply([Note(say("engine_failed", self.lang, error=exc), NoteKind.ERROR)])
        readable = move_to_readable(self.board, move, self.lang)
        self.board.push(move)
        notes = [Note(say("computer_played", self.lang, move=readable), NoteKind.MOVE)]
        return Reply(notes + self._end_notes(), redraw=True)

    # ----------------------------------------------------------------------- commands

    def _undo(self, _: str) -> Reply:
        if self.ending is not None:
            self.ending = None
            return Reply([Note(say("ending_undone", self.lang))], redraw=True)
        count = self._plies_to_undo()
        if count == 0:
            return self._error(say("nothing_to_undo", self.lang))
        for _ply in range(count):
            self.board.pop()
        return Reply([Note(say("undone", self.lang, count=count))], redraw=True)

    def _plies_to_undo(self) -> int:
        """Plies to take back: one with two players; vs the computer, back to the player's
        last move (the computer's reply, if it made one, and that move)."""
        plies = self.board.ply()
        if self.mode is Mode.HOTSEAT or self.opponent is None:
            return min(plies, 1)
        # Every ply (a pass too) hands the turn over, so the last ply's mover is the other side.
        if plies >= 1 and 1 - self.board.turn == self.human:
            return 1
        if plies >= 2 and self.board.turn == self.human:
            return 2
        return 0

    def _hint(self, _: str) -> Reply:
        if self.is_over():
            return self._error(say("game_is_over", self.lang))
        if self.opponent is None:
            return self._error(say("hint_unavailable", self.lang))
        try:
            move = self.opponent.choose_move(self.board.copy())
        except EngineUnavailableError:
            return self._error(say("hint_unavailable", self.lang))
        except Exception as exc:  # the engine is another package: report, keep playing
            return self._error(f"{say('hint_unavailable', self.lang)} ({exc})")
        reason = self.board.explain_illegal(move)
        if reason is not None:
            return self._error(say("engine_illegal", self.lang, move=move) + f": {reason}")
        readable = move_to_readable(self.board, move, self.lang)
        return Reply([Note(say("hint", self.lang, move=f"{move}  ({readable})"), NoteKind.MOVE)])

    def _level(self, argument: str) -> Reply:
        try:
            level = int(argument)
        except ValueError:
            level = 0
        if not MIN_LEVEL <= level <= MAX_LEVEL:
            return self._error(say("level_usage", self.lang))
        self.level = level
        self._set_opponent_level()
        return Reply([Note(say("level_set", self.lang, level=level))], redraw=True)

    def _set_opponent_level(self) -> None:
        if isinstance(self.opponent, _HasLevel):
            self.opponent.level = self.level

    def _flip(self, _: str) -> Reply:
        self.flipped = not self.flipped
        return Reply([Note(say("flipped", self.lang))], redraw=True)

    def _save(self, argument: str) -> Reply:
        if not argument:
            return self._error(say("save_usage", self.lang))
        path = Path(argument).expanduser()
        try:
            save_game(self, path)
        except (OSError, ValueError) as exc:
            return self._error(say("cannot_save", self.lang, path=path, error=_reason(exc)))
        return Reply([Note(say("saved", self.lang, path=path))])

    def _load(self, argument: str) -> Reply:
        if not argument:
            return self._error(say("load_usage", self.lang))
        path = Path(argument).expanduser()
        try:
            self.load(path)
        except (OSError, ValueError) as exc:
            return self._error(say("cannot_load", self.lang, path=path, error=_reason(exc)))
        note = Note(say("loaded", self.lang, path=path, count=self.board.ply()))
        return Reply([note, *self._end_notes()], redraw=True)

    def load(self, path: Path) -> None:
        """Continue the game recorded in ``path`` (raises OSError or ValueError)."""
        board, ending = load_game(path)
        self.board = board
        self.ending = ending

    def _moves(self, _: str) -> Reply:
        moves = sorted(self.board.legal_moves, key=lambda m: (m.from_square, m.to_square))
        if not moves:
            return Reply([Note(say("no_legal_moves", self.lang))])
        lines = [say("legal_moves", self.lang, count=len(moves))]
        by_square: dict[int, list[Move]] = {}
        for move in moves:
            by_square.setdefault(move.from_square, []).append(move)
        for square, group in by_square.items():
            piece = self.board.piece_at(square)
            assert piece is not None
            name = animal_name(piece.animal, self.lang, self.rules)
            targets = " ".join(square_name(m.to_square) for m in group)
            lines.append(f"  {name} {square_name(square)} → {targets}")
        return Reply([Note("\n".join(lines), NoteKind.HELP)])

    def _new(self, _: str) -> Reply:
        self.board = Board(rules=self.rules)
        self.ending = None
        return Reply([Note(say("new_game", self.lang))], redraw=True)

    def _lang(self, argument: str) -> Reply:
        lang = parse_lang(argument)
        if lang is None:
            return self._error(say("lang_usage", self.lang))
        self.lang = lang
        return Reply([Note(say("lang_set", lang))], redraw=True)

    def _resign(self, _: str) -> Reply:
        if self.is_over():
            return self._error(say("game_is_over", self.lang))
        loser = self.human if self.mode is Mode.AI else self.board.turn
        self.ending = Outcome(Termination.RESIGNATION, 1 - loser)
        note = Note(say("resigns", self.lang, side=color_name(loser, self.lang)))
        return Reply([note, *self._end_notes()], redraw=True)

    def _quit(self, _: str) -> Reply:
        self.quit_requested = True
        return Reply([Note(say("bye", self.lang))])

    def _help(self, _: str) -> Reply:
        return Reply([Note(HELP[self.lang], NoteKind.HELP)])

    # ------------------------------------------------------------------------ helpers

    def _end_notes(self) -> list[Note]:
        """How the game ended and the offer of a new one, once it has ended."""
        outcome = self.outcome()
        if outcome is None:
            return []
        notes = [Note(say("game_over", self.lang, result=outcome_label(outcome, self.lang)))]
        if self.mode is Mode.AI and outcome.winner is not None:
            notes.append(
                Note(say("you_win" if outcome.winner == self.human else "you_lose", self.lang))
            )
        notes.append(Note(say("offer_new", self.lang)))
        return [dataclasses.replace(note, kind=NoteKind.RESULT) for note in notes]

    def _error(self, text: str) -> Reply:
        return Reply([Note(text, NoteKind.ERROR)])


def _reason(exc: Exception) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc)


def save_game(session: Session, path: Path) -> None:
    """Write the session's game to ``path`` as a game record
    (:mod:`doushouqi.jungle.record`)."""
    tags = {"Event": "doushouqi play", "Date": format_date(datetime.date.today())}
    if session.mode is Mode.AI:
        computer = f"doushouqi level {session.level}"
        tags["Red"], tags["Blue"] = (
            ("Player", computer) if session.human == RED else (computer, "Player")
        )
    ending = session.ending
    record = GameRecord.from_board(
        session.board,
        result=ending.result() if ending else None,
        termination=ending.termination if ending else None,
    )
    record.tags.update(tags)
    path.write_text(write_record(record), encoding="utf-8")


def load_game(path: Path) -> tuple[Board, Outcome | None]:
    """The final position of the record in ``path`` and its ending off the board, if any."""
    record = read_record(path.read_text(encoding="utf-8"))
    board = record.board()
    ending = record.outcome()
    if ending is not None and ending.termination.is_on_board:
        ending = None  # the board shows it by itself
    return board, ending
