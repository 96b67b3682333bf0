"""Moves as values: :class:`Move`, from one square to another or the pass ``0000``, and
:class:`InvalidMoveError` for a move string that cannot be read. Whether a move is legal
depends on the position: :class:`doushouqi.jungle.board.Board` decides
(:class:`~doushouqi.jungle.moves.IllegalMoveError`).

>>> move = Move.from_str("a3a4")
>>> move == Move.from_uci("a3a4"), move.from_square, move.to_square
(True, 14, 21)
"""

from __future__ import annotations

from doushouqi.jungle.squares import parse_square, square_name

__all__ = ["IllegalMoveError", "IllegalReason", "InvalidMoveError", "Move"]


class IllegalMoveError(ValueError):
    """A move is well formed but not legal in the position; the message says why."""


class IllegalReason(str):
    """Why the rules refuse a move (:meth:`doushouqi.jungle.board.Board.explain_illegal`): the
    English words (the string itself), ``code`` naming the reason for programs (``"water"``)
    and ``details`` the squares and animals it is about (``{"piece": "lion", "to": "c5"}``),
    so that a client can say it in its reader's language.

    A ``str``, so that callers reading the words keep working. The game interface's
    :class:`doushouqi.core.game.IllegalReason` is the same idea; this library keeps its own, as
    it keeps its own errors, to stay on the standard library alone.
    """

    code: str
    details: dict[str, str]

    def __new__(cls, code: str, text: str, **details: str) -> IllegalReason:
        reason = super().__new__(cls, text)
        reason.code = code
        reason.details = details
        return reason


class InvalidMoveError(ValueError):
    """A move string cannot be parsed."""


class Move:
    """A move from one square to another (steps and jumps alike), or the pass ``0000``.

    >>> str(Move.from_str("a4d4"))
    'a4d4'
    >>> Move.null()
    Move.from_str('0000')
    >>> bool(Move.null())
    False
    """

    __slots__ = ("from_square", "to_square")

    def __init__(self, from_square: int, to_square: int) -> None:
        self.from_square = from_square
        self.to_square = to_square

    @classmethod
    def from_str(cls, text: str) -> Move:
        text = text.strip()
        if text == "0000":
            return cls.null()
        if len(text) != 4:
            raise InvalidMoveError(
                f"invalid move {text!r}: expected from- and to-square "
                f"like 'a3a4', or '0000' for a pass"
            )
        try:
            return cls(parse_square(text[:2]), parse_square(text[2:]))
        except ValueError as exc:
            raise InvalidMoveError(f"invalid move {text!r}: {exc}") from None

    @classmethod
    def from_uci(cls, uci: str) -> Move:
        """Parse the move string of docs/rules.md 7a exactly: from- and to-square in lower case
        (``"a3a4"``, a jump ``"a4d4"``) or ``"0000"`` for a pass; InvalidMoveError otherwise
        (unlike :meth:`from_str`, no surrounding space and no move from a square to itself).

        >>> Move.from_uci("g3g4"), Move.from_uci("0000")
        (Move.from_str('g3g4'), Move.from_str('0000'))
        >>> Move.from_uci("g3g3")
        Traceback (most recent call last):
        ...
        doushouqi.jungle.moves.InvalidMoveError: invalid move 'g3g3': from- and to-square are the
        same"""
        if not isinstance(uci, str):
            raise InvalidMoveError(f"a move string must be text, got {type(uci).__name__}")
        if uci != "0000" and uci[:2] == uci[2:] and len(uci) == 4:
            raise InvalidMoveError(f"invalid move {uci!r}: from- and to-square are the same")
        if uci != uci.strip():
            raise InvalidMoveError(f"invalid move {uci!r}: unexpected white space")
        return cls.from_str(uci)

    def uci(self) -> str:
        """The move string: ``"a3a4"``, or ``"0000"`` for a pass (same as ``str(move)``)."""
        return str(self)

    @classmethod
    def null(cls) -> Move:
        """The pass made for a player whose per-move time ran out (docs/rules.md 5.3)."""
        return cls(0, 0)

    def __bool__(self) -> bool:
        return self.from_square != self.to_square

    def __str__(self) -> str:
        if not self:
            return "0000"
        return square_name(self.from_square) + square_name(self.to_square)

    def __repr__(self) -> str:
        return f"Move.from_str({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Move)
            and self.from_square == other.from_square
            and self.to_square == other.to_square
        )

    def __hash__(self) -> int:
        return self.from_square * 64 + self.to_square

    # A total order, by from-square then to-square (the pass 0000 = a1a1 first), consistent
    # with ==, so that sorted(board.legal_moves) gives a stable list.
    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return (self.from_square, self.to_square) < (other.from_square, other.to_square)

    def __le__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return (self.from_square, self.to_square) <= (other.from_square, other.to_square)

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return (self.from_square, self.to_square) > (other.from_square, other.to_square)

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return (self.from_square, self.to_square) >= (other.from_square, other.to_square)
