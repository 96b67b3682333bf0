"""Short algebraic notation (SAN) for Jungle moves, in English and Chinese.

**English.** The animal's letter, upper case for both sides as in chess (``R C D W P T L E``:
rat, cat, dog, wolf, leopard, tiger, lion, elephant; ``F`` for the wolf under a rule set that
calls it the fox), ``x`` for a capture, then the destination square: ``Rg4``, ``Lxd7``. A jump
across the water is written like a step (``Ld4``): the destination says it all.

**Suffixes.** ``#`` marks a move that wins on the board at once: it enters the enemy den
(入穴), takes the last enemy animal, or leaves the opponent without a legal move. ``+`` marks a
move after which the mover could enter the enemy den with its next move
(:meth:`~doushouqi.jungle.board.Board.is_den_threatened`), the Jungle counterpart of check. A move
that ends the game in a draw gets no suffix. A pass (timeout, docs/rules.md 5.3) is ``--``.

**Disambiguation.** Each side has one animal of each kind, so the letter names the animal and
letter plus destination names the move: unlike chess (two knights, two rooks), a valid Jungle
position never needs more. Only an edited board with two of one animal (not valid,
:attr:`~doushouqi.jungle.board.Status.DUPLICATE_ANIMAL`) can; then, as in chess, the from-file is
added if it tells the moves apart, else the from-rank, else both (``Lgg4``, ``L3g4``,
``Lg3g4``).

**Chinese** (``lang="zh"``). The animal's character (鼠猫狗狼豹虎狮象, 狐 for the fox), 吃
("takes") for a capture, then the destination: ``鼠g4``, ``狮吃d7`` (the lion takes on d7); the
same ``+``/``#`` suffixes and disambiguation; a pass is ``停棋一步``. ``lang="zh-Hant"`` writes
the Traditional characters (貓, 獅: ``獅吃d7``); reading takes both.

**Long notation** (:func:`move_to_lan`, python-chess's LAN): the from-square too, and ``-`` for
a move: ``Rg3-g4``, ``Lc3xc7``; in Chinese ``鼠g3-g4``, ``狮c3吃c7``.

**Reading** (:func:`parse_san`) takes either language, and is forgiving where that is
unambiguous: spaces anywhere, any case (``rg4``, ``RG4``), ``x``, ``×``, ``:`` or ``吃`` for
a capture, ``-`` for a move, 犬 for the dog, a from-square or part of one (``Lg1-g2``, the
readable notation of :mod:`doushouqi.jungle.notation`, or the move string ``g1g2``), no animal at
all (``g4``: the one legal move to g4). ``!``/``?`` annotations are ignored, and so is ``+``. What
is written must fit the move: a capture mark on a quiet move, ``-`` on a capture or ``#`` on a
move that does not win is an error. Text written in the canonical case is read as written;
otherwise, when the readings of a lower-case letter (``d``: dog or file d) name different
legal moves, :class:`AmbiguousMoveError` lists them.

>>> from doushouqi.jungle.board import Board
>>> board = Board("7/7/7/T2w3/7/7/7/7/7 w")  # Red's tiger a6 can jump onto Blue's wolf d6
>>> move = parse_san(board, "Txd6")
>>> move, move_to_san(board, move), move_to_san(board, move, "zh")
(Move.from_str('a6d6'), 'Txd6#', '虎吃d6#')
>>> parse_san(board, " t x D6 "), parse_san(board, "虎吃d6")
(Move.from_str('a6d6'), Move.from_str('a6d6'))
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sized
from typing import NamedTuple, Protocol

from doushouqi.jungle.moves import InvalidMoveError, Move
from doushouqi.jungle.outcome import Outcome
from doushouqi.jungle.pieces import Piece
from doushouqi.jungle.rules import RuleSet
from doushouqi.jungle.squares import (
    ANIMAL_LETTERS,
    ANIMALS,
    DOG,
    FILE_NAMES,
    WOLF,
    parse_square,
    square_name,
)
from doushouqi.jungle.terms import (
    LANGUAGES,
    IllegalNotationMoveError,
    Lang,
    NotationError,
    animal_letter,
    animal_name,
    color_name,
    to_hant,
)

__all__ = ["AmbiguousMoveError", "InvalidSanError", "move_to_lan", "move_to_san", "parse_san"]


class SanBoard(Protocol):
    """What SAN needs of a position: :class:`doushouqi.jungle.board.Board` is one.

    The board offers ``board.san(move)``, so this module sits beneath it and may not import
    it; it names the few methods it uses instead."""

    @property
    def turn(self) -> int: ...
    @property
    def rules(self) -> RuleSet: ...
    @property
    def legal_moves(self) -> Sized: ...
    def piece_at(self, square: int) -> Piece | None: ...
    def piece_codes(self) -> list[int]: ...
    def square_of(self, color: int, animal: int) -> int | None: ...
    def generate_legal_moves(self) -> Iterator[Move]: ...
    def explain_illegal(self, move: Move, *, allow_pass: bool = False) -> str | None: ...
    def is_capture(self, move: Move) -> bool: ...
    def is_den_threatened(self, color: int | None = None) -> bool: ...
    def outcome(self) -> Outcome | None: ...
    def push(self, move: Move) -> None: ...
    def pop(self) -> Move: ...


class InvalidSanError(NotationError, InvalidMoveError):
    """SAN text cannot be read at all (a NotationError and an InvalidMoveError)."""


class AmbiguousMoveError(IllegalNotationMoveError):
    """SAN text fits more than one legal move; ``candidates`` holds them, sorted."""

    def __init__(self, message: str, candidates: list[Move]) -> None:
        super().__init__(message)
        self.candidates = candidates


_PASS_TEXT = {"en": "--", "zh": "停棋一步"}
_PASS_INPUTS = frozenset({"--", "0000", "pass", "z0", "停棋一步", "停一步", "停棋"})
_CAPTURE_MARKS = "x×:吃"
_ANIMAL_BY_CHAR: dict[str, int] = (
    {ANIMAL_LETTERS[a].lower(): a for a in ANIMALS}
    | {animal_name(a, "zh"): a for a in ANIMALS}
    | {animal_name(a, "zh-Hant"): a for a in ANIMALS}
    | {"f": WOLF, "狐": WOLF, "犬": DOG}
)
_CANONICAL = re.compile(
    "(?P<animal>[RCDWPTLEF鼠猫貓狗犬狼狐豹虎狮獅象])(?P<file>[a-g])?(?P<rank>[1-9])?"
    "(?P<sep>[-x×:吃])?(?P<dest>[a-g][1-9])"
)
_SQUARE = re.compile("[a-g][1-9]")


class _Reading(NamedTuple):
    """One way to read the part before the destination: animal, from-file, from-rank."""

    animal: int | None
    file: int | None
    rank: int | None

    def fits(self, board: SanBoard, move: Move) -> bool:
        row, column = divmod(move.from_square, 7)
        piece = board.piece_at(move.from_square)
        return (
            (self.animal is None or (piece is not None and piece.animal == self.animal))
            and (self.file is None or self.file == column)
            and (self.rank is None or self.rank == row)
        )


def _readings(prefix: str) -> list[_Reading]:
    """Every reading of ``prefix`` (lower case) as [animal][file][rank]."""
    readings = []
    for has_animal in (True, False):
        for has_file in (True, False):
            for has_rank in (True, False):
                if has_animal + has_file + has_rank != len(prefix):
                    continue
                rest = prefix
                animal = file = rank = None
                if has_animal:
                    animal = _ANIMAL_BY_CHAR.get(rest[0])
                    if animal is None:
                        continue
                    rest = rest[1:]
                if has_file:
                    if rest[0] not in FILE_NAMES:
                        continue
                    file, rest = FILE_NAMES.index(rest[0]), rest[1:]
                if has_rank:
                    if rest[0] not in "123456789":
                        continue
                    rank = int(rest[0]) - 1
                readings.append(_Reading(animal, file, rank))
    return readings


def _suffix(board: SanBoard, move: Move) -> str:
    """``#`` when the move wins at once, ``+`` when it threatens the enemy den, else ``""``."""
    mover = board.turn
    board.push(move)
    try:
        outcome = board.outcome()
        if outcome is not None:
            return "#" if outcome.winner == mover else ""
        return "+" if board.is_den_threatened() else ""
    finally:
        board.pop()


def _disambiguation(board: SanBoard, move: Move) -> str:
    codes = board.piece_codes()
    code = codes[move.from_square]
    if codes.count(code) == 1:  # always so on a valid board: no need to look further
        return ""
    others = [
        m.from_square
        for m in board.generate_legal_moves()
        if m.to_square == move.to_square
        and m.from_square != move.from_square
        and codes[m.from_square] == code
    ]
    if not others:
        return ""
    name = square_name(move.from_square)
    if all(other % 7 != move.from_square % 7 for other in others):
        return name[0]
    if all(other // 7 != move.from_square // 7 for other in others):
        return name[1]
    return name


def move_to_san(board: SanBoard, move: Move, lang: Lang = "en") -> str:
    """The move in SAN (see the module docstring); ``board`` is the position before it.
    IllegalNotationMoveError when the move is not legal there (a pass is accepted where a
    move could be played, as in :func:`doushouqi.jungle.notation.move_to_readable`).

    >>> from doushouqi.jungle.board import Board
    >>> board = Board()
    >>> move_to_san(board, Move.from_uci("a3a4")), move_to_san(board, Move.null(), "zh")
    ('Ea4', '停棋一步')
    >>> move_to_san(Board("7/3L3/7/7/7/7/7/7/r6 w"), Move.from_uci("d8d9"))
    'Ld9#'
    >>> move_to_san(Board("7/7/3L3/7/7/7/7/7/r6 w"), Move.from_uci("d7d8"))  # den threatened
    'Ld8+'
    """
    return _notation(board, move, lang, long=False)


def move_to_lan(board: SanBoard, move: Move, lang: Lang = "en") -> str:
    """The move in long algebraic notation (python-chess's ``Board.lan``): the animal, the
    from-square, ``-`` or the capture mark, the destination and the suffix; errors as in
    :func:`move_to_san`.

    >>> from doushouqi.jungle.board import Board
    >>> board = Board("7/7/7/T2w3/7/7/7/7/7 w")
    >>> move_to_lan(board, Move.from_uci("a6d6")), move_to_lan(board, Move.from_uci("a6a7"))
    ('Ta6xd6#', 'Ta6-a7')
    >>> move_to_lan(board, Move.from_uci("a6d6"), "zh"), move_to_lan(board, Move.null())
    ('虎a6吃d6#', '--')
    """
    return _notation(board, move, lang, long=True)


def _notation(board: SanBoard, move: Move, lang: Lang, *, long: bool) -> str:
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r} (expected 'en', 'zh' or 'zh-Hant')")
    if lang == "zh-Hant":
        return to_hant(_notation(board, move, "zh", long=long))
    reason = board.explain_illegal(move, allow_pass=True)
    if reason is not None:
        raise IllegalNotationMoveError(f"illegal move {move}: {reason}")
    if not move:
        return _PASS_TEXT[lang]
    piece = board.piece_at(move.from_square)
    assert piece is not None  # a legal move starts on the mover's animal
    capture = board.is_capture(move)
    if lang == "en":
        animal, mark = animal_letter(piece.animal, board.rules), "x" if capture else ""
    else:
        animal, mark = animal_name(piece.animal, "zh", board.rules), "吃" if capture else ""
    if long:
        where, mark = square_name(move.from_square), mark or "-"
    else:
        where = _disambiguation(board, move)
    return f"{animal}{where}{mark}{square_name(move.to_square)}{_suffix(board, move)}"


def _no_move(board: SanBoard, text: str, readings: list[_Reading], dest: int) -> str:
    """Why no legal move fits, in words."""
    to = square_name(dest)
    if len(readings) == 1 and readings[0].animal is not None:
        animal = readings[0].animal
        name = animal_name(animal, rules=board.rules)
        square = board.square_of(board.turn, animal)
        if square is None:
            return f"{text!r}: {color_name(board.turn)} has no {name}"
        if square == dest:
            return f"{text!r}: the {name} already stands on {to}"
        if not readings[0].fits(board, Move(square, dest)):
            return f"{text!r}: the {name} stands on {square_name(square)}"
        reason = board.explain_illegal(Move(square, dest))
        return f"{text!r}: the {name} on {square_name(square)} cannot go to {to}: {reason}"
    outcome = board.outcome()
    if outcome is not None and not board.legal_moves:
        return f"{text!r}: the game is over ({outcome.termination.value.replace('_', ' ')})"
    return f"{text!r}: no legal move of {color_name(board.turn)} fits (to {to})"


def parse_san(board: SanBoard, text: str, *, allow_pass: bool = False) -> Move:
    """The legal move that SAN text names (see the module docstring for what is accepted).

    InvalidSanError when the text cannot be read, IllegalNotationMoveError (an
    IllegalMoveError) when no legal move fits, AmbiguousMoveError when several do. A pass
    (``--``, ``0000``, ``停棋一步``) only with ``allow_pass``, as in
    :meth:`doushouqi.jungle.board.Board.parse_move`.

    >>> from doushouqi.jungle.board import Board
    >>> board = Board()
    >>> parse_san(board, "Ea4"), parse_san(board, "g1g2"), parse_san(board, "a4")
    (Move.from_str('a3a4'), Move.from_str('g1g2'), Move.from_str('a3a4'))
    >>> parse_san(board, "Ta4")
    Traceback (most recent call last):
    ...
    doushouqi.jungle.terms.IllegalNotationMoveError: 'Ta4': the tiger on a1 cannot go to a4: ...
    >>> parse_san(board, "b3")
    Traceback (most recent call last):
    ...
    doushouqi.jungle.san.AmbiguousMoveError: 'b3' fits several legal moves: Cb3, Eb3, Wb3
    """
    if not isinstance(text, str):
        raise InvalidSanError(f"SAN must be text, got {type(text).__name__}")
    shown = text.strip()
    body = "".join(text.split()).rstrip("!?")
    if body.lower() in _PASS_INPUTS:
        move = Move.null()
        reason = board.explain_illegal(move, allow_pass=allow_pass)
        if reason is not None:
            raise IllegalNotationMoveError(f"{shown!r}: {reason}")
        return move
    wins = body.endswith("#")
    body = body.removesuffix("#") if wins else body.removesuffix("+")
    match = _CANONICAL.fullmatch(body)
    if match is not None:
        sep, dest_name = match["sep"], match["dest"]
        readings = [
            _Reading(
                _ANIMAL_BY_CHAR[match["animal"].lower()],
                None if match["file"] is None else FILE_NAMES.index(match["file"]),
                None if match["rank"] is None else int(match["rank"]) - 1,
            )
        ]
    else:
        low = body.lower()
        dest_name, prefix, sep = low[-2:], low[:-2], None
        if prefix[-1:] and prefix[-1] in "-" + _CAPTURE_MARKS:
            prefix, sep = prefix[:-1], prefix[-1]
        readings = _readings(prefix) if _SQUARE.fullmatch(dest_name) else []
        if not readings:
            raise InvalidSanError(
                f"cannot read move {shown!r}: expected SAN like 'Rg4', 'Lxd7', '狮吃d7', "
                f"or '--' for a pass"
            )
    dest = parse_square(dest_name)
    candidates = sorted(
        {
            move
            for move in board.generate_legal_moves()
            if move.to_square == dest and any(r.fits(board, move) for r in readings)
        }
    )
    if not candidates:
        raise IllegalNotationMoveError(_no_move(board, shown, readings, dest))
    if len(candidates) > 1:
        names = ", ".join(move_to_san(board, m).rstrip("+#") for m in candidates)
        raise AmbiguousMoveError(f"{shown!r} fits several legal moves: {names}", candidates)
    move = candidates[0]
    capture = board.is_capture(move)
    if sep is not None and sep != "-" and not capture:
        raise IllegalNotationMoveError(f"{shown!r}: marked as a capture, but {dest_name} is empty")
    if sep == "-" and capture:
        raise IllegalNotationMoveError(f"{shown!r}: the move captures on {dest_name}: write 'x'")
    if wins and not _suffix(board, move) == "#":
        raise IllegalNotationMoveError(f"{shown!r}: marked '#', but the move does not win at once")
    return move
