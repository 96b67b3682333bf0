"""Short notation for 老虎棋 moves (SAN-like), in English and Chinese (docs/tiger.md).

**Writing** (:func:`move_to_san`). The piece's letter (``T`` tiger, ``M`` man; in Chinese 虎
and 人), the from-point, then each point the piece lands on, joined by ``-`` for a step and
``x`` (Chinese: 吃, "takes") before each landing of a jump: ``Te10-e9``, ``Ma1-a2``,
``Te5xe7``, ``Te5xe7xe9`` (a multi-jump); ``虎e5吃e7``, ``人a1-a2``. ``#`` follows a move that
wins on the board at once (the tiger hemmed in, the men too few or left without a move). A
pass (a per-move timeout) is ``--``, in Chinese 停棋一步. The from-point is always written:
the men are alike, so a destination alone rarely names a man's move, and one fixed shape is
easier to read in a record. Simplified and Traditional Chinese write the same characters.

**Reading** (:func:`parse_san`) takes either language and is forgiving where that is
unambiguous: spaces anywhere, any case, ``x``, ``×``, ``:`` or 吃 for a jump, ``-`` for a
step, the piece letter left out, the plain move string (``e5e7``), or the destination alone
(``Te9``, ``Txe7``: the one legal move of that piece ending there). ``!``/``?`` annotations
and ``+`` are ignored. What is written must fit the move: a piece letter that is not the
piece on the from-point, ``x`` on a step, ``-`` on a jump or ``#`` on a move that does not
win is an :class:`~doushouqi.core.game.IllegalMoveError`; text that names no move at all a
:class:`~doushouqi.core.game.MoveError`; a destination that several legal moves reach an
:class:`AmbiguousMoveError` listing them.

>>> from doushouqi.tiger.board import Board
>>> board = Board("3/3/9/9/4M4/3M1M3/3MT4/4M4/2M3M2/9/M7M t")
>>> move = parse_san(board, "Txc5")
>>> move, move_to_san(board, move), move_to_san(board, move, "zh")
(Move.from_str('e5c5'), 'Te5xc5', '虎e5吃c5')
>>> parse_san(board, "虎 e5 - e6"), parse_san(board, "e5e3")
(Move.from_str('e5e6'), Move.from_str('e5e3'))
"""

from __future__ import annotations

import re

from doushouqi.core.game import IllegalMoveError, Lang, MoveError
from doushouqi.tiger.board import Board
from doushouqi.tiger.fen import EMPTY, MAN, TIGER
from doushouqi.tiger.moves import Move
from doushouqi.tiger.points import parse_point, point_name
from doushouqi.tiger.terms import PASS_WORDS, piece_letter

__all__ = ["AmbiguousMoveError", "move_to_san", "parse_san"]


class AmbiguousMoveError(MoveError):
    """The text fits more than one legal move; the message lists them. A
    :class:`~doushouqi.core.game.MoveError`, so that callers catching that see it too.

    >>> board = Board("3/1T1/9/9/9/9/9/9/9/M8/1M5MM m")  # men on a2 and b1 both reach b2
    >>> parse_san(board, "Mb2")
    Traceback (most recent call last):
    ...
    doushouqi.tiger.san.AmbiguousMoveError: ambiguous move 'Mb2': b1b2, a2b2 end on b2; give the ...
    >>> parse_san(board, "Mb1-b2")
    Move.from_str('b1b2')
    """


_CAPTURE_WORDS = {"en": "x", "zh": "吃", "zh-Hant": "吃"}
_PIECE_PREFIXES = (("老虎", TIGER), ("虎", TIGER), ("t", TIGER), ("人", MAN), ("m", MAN))
_SEPARATORS = re.compile(r"([-x×:吃])")
_POINT = re.compile(r"[a-i][0-9]+")
_PASSES = {"--", "0000", PASS_WORDS["zh"]}


def _wins(board: Board, move: Move) -> bool:
    mover = board.turn
    board.push(move)
    try:
        outcome = board.outcome()
    finally:
        board.pop()
    return outcome is not None and outcome.winner == mover


def move_to_san(board: Board, move: Move, lang: Lang = "en") -> str:
    """The move in short notation; IllegalMoveError when it is not legal here (a pass is
    written wherever one could be played).

    >>> board = Board("3/3/9/9/9/9/9/9/M8/M8/TM1M5 m")
    >>> move_to_san(board, Move.from_str("d1c1")), move_to_san(board, Move.from_str("d1c1"), "zh")
    ('Md1-c1#', '人d1-c1#')
    >>> move_to_san(board, Move.null()), move_to_san(board, Move.null(), "zh")
    ('--', '停棋一步')
    """
    reason = board.explain_illegal(move, allow_pass=True)
    if reason is not None:
        raise IllegalMoveError(f"illegal move {move}: {reason}")
    if not move:
        return PASS_WORDS[lang]
    path = move.path
    text = piece_letter(board.piece_at(path[0]) - 1, lang) + point_name(path[0])
    joint = _CAPTURE_WORDS[lang] if move.is_jump else "-"
    text += "".join(joint + point_name(p) for p in path[1:])
    return text + ("#" if _wins(board, move) else "")


def parse_san(board: Board, text: str, *, allow_pass: bool = False) -> Move:
    """The legal move that short notation (or a move string) names; see the module docstring.

    >>> board = Board()
    >>> parse_san(board, "Me2-e3")
    Traceback (most recent call last):
    ...
    doushouqi.core.game.IllegalMoveError: illegal move e2e3: the man on e2 is not to move: ...
    """
    if not isinstance(text, str):
        raise MoveError(f"a move must be text, got {type(text).__name__}")
    clean = re.sub(r"\s+", "", text).lower()
    clean = clean.rstrip("!?+")
    if clean in _PASSES:
        return board.parse_move("0000", allow_pass=allow_pass)
    wins = clean.endswith("#")
    clean = clean.rstrip("#").rstrip("!?+")
    kind = None
    for prefix, code in _PIECE_PREFIXES:
        if clean.startswith(prefix):
            kind, clean = code, clean[len(prefix) :]
            break
    # A jump mark before a lone destination: "Txe7".
    lead = clean[:1] if clean[:1] in ("x", "×", ":", "吃") else ""
    parts = _SEPARATORS.split(clean[len(lead) :])
    names, joints = parts[0::2], parts[1::2]
    if len(names) == 1 and _POINT.fullmatch(names[0]) is None:
        names = _POINT.findall(names[0]) if re.fullmatch(r"(?:[a-i][0-9]+)+", names[0]) else []
        joints = [""] * (len(names) - 1)
    try:
        points = [parse_point(name) for name in names]
    except ValueError:
        points = []
    if not points or (lead and len(points) > 1):
        raise MoveError(
            f"not a move: {text[:80]!r} (write a piece letter, the from-point and the points "
            f"it lands on, such as Te10-e9, Te5xe7 or 虎e5吃e7)"
        )
    if len(points) == 1:
        move = _by_destination(board, text, kind, points[0], jump=bool(lead))
    else:
        move = board.parse_move("".join(point_name(p) for p in points))
        if kind is not None and board.piece_at(move.from_point) != kind:
            letter = "T" if kind == TIGER else "M"
            raise IllegalMoveError(
                f"illegal move {text.strip()!r}: {letter} names a "
                f"{'tiger' if kind == TIGER else 'man'}, and {point_name(move.from_point)} "
                f"holds a {'tiger' if kind == MAN else 'man'}"
            )
    marks = {"x" if joint in "x×:吃" else "-" for joint in joints if joint}
    if marks and marks != {"x" if move.is_jump else "-"}:
        what = "a jump" if move.is_jump else "a step"
        raise IllegalMoveError(f"illegal move {text.strip()!r}: {move} is {what}")
    if wins and not _wins(board, move):
        raise IllegalMoveError(f"illegal move {text.strip()!r}: {move} does not win ('#')")
    return move


def _by_destination(board: Board, text: str, kind: int | None, to: int, *, jump: bool) -> Move:
    """The one legal move ending on ``to`` (of the piece ``kind``; a jump if marked so)."""
    found = [
        move
        for move in board.generate_legal_moves()
        if move.to_point == to
        and (kind is None or board.piece_at(move.from_point) == kind)
        and (not jump or move.is_jump)
    ]
    if len(found) == 1:
        return found[0]
    if not found:
        occupied = board.piece_at(to) != EMPTY
        raise IllegalMoveError(
            f"illegal move {text.strip()!r}: no legal move ends on {point_name(to)}"
            + (" (it is occupied)" if occupied else "")
        )
    listed = ", ".join(str(move) for move in found)
    raise AmbiguousMoveError(
        f"ambiguous move {text.strip()!r}: {listed} end on {point_name(to)}; give the from-point"
    )
