"""The board's methods that read and write moves as text: move strings (``parse_move``,
``push_uci`` …), SAN and LAN (``san``, ``lan``, ``variation_san``, ``push_san``) and
``find_move``. :class:`~doushouqi.jungle.board.Board` inherits them from
:class:`MoveTextMixin`, which keeps the board module to the position itself.

>>> from doushouqi.jungle.board import Board
>>> board = Board()
>>> board.variation_san([Move.from_uci("g3g4"), Move.from_uci("a7a6")])
'1. Rg4 Ra6'
>>> board.lan(Move.from_uci("g1g2"), lang="zh-Hant"), board.find_move(20, 27)
('獅g1-g2', Move.from_str('g3g4'))
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sized
from typing import TYPE_CHECKING, Self

from doushouqi.jungle.moves import IllegalMoveError, Move
from doushouqi.jungle.san import move_to_lan, move_to_san, parse_san
from doushouqi.jungle.squares import square_name
from doushouqi.jungle.terms import IllegalNotationMoveError

if TYPE_CHECKING:
    from doushouqi.jungle.outcome import Outcome
    from doushouqi.jungle.pieces import Piece
    from doushouqi.jungle.rules import RuleSet
    from doushouqi.jungle.terms import Lang

__all__ = ["MoveTextMixin"]


class MoveTextMixin:
    """Reading and writing moves as text, for :class:`~doushouqi.jungle.board.Board`."""

    if TYPE_CHECKING:  # what the methods use of the board
        turn: int
        rules: RuleSet
        fullmove_number: int
        move_stack: list[Move]

        def copy(self, *, stack: bool | int = True) -> Self: ...
        @property
        def legal_moves(self) -> Sized: ...
        def fen(self) -> str: ...
        def push(self, move: Move) -> None: ...
        def pop(self) -> Move: ...
        def piece_at(self, square: int) -> Piece | None: ...
        def piece_codes(self) -> list[int]: ...
        def square_of(self, color: int, animal: int) -> int | None: ...
        def generate_legal_moves(self) -> Iterator[Move]: ...
        def explain_illegal(self, move: Move, *, allow_pass: bool = False) -> str | None: ...
        def is_capture(self, move: Move) -> bool: ...
        def is_den_threatened(self, color: int | None = None) -> bool: ...
        def outcome(self) -> Outcome | None: ...

    def parse_move(self, text: str, *, allow_pass: bool = False) -> Move:
        """Parse a move string and check it is legal here: InvalidMoveError when malformed,
        IllegalMoveError (with the reason) when illegal. A pass ``0000`` is refused unless
        ``allow_pass`` (a move list that records timeouts), and then wherever no move could
        be played (see :meth:`explain_illegal`).

        >>> from doushouqi.jungle.board import Board
        >>> board = Board("7/3L3/7/7/7/7/7/7/e6 w")
        >>> board.parse_move("0000", allow_pass=True)
        Move.from_str('0000')
        >>> _ = board.push_move("d8d9")
        >>> board.parse_move("0000", allow_pass=True)
        Traceback (most recent call last):
        ...
        doushouqi.jungle.moves.IllegalMoveError: illegal move 0000: the game is over (den entered)
        """
        move = Move.from_str(text)
        reason = self.explain_illegal(move, allow_pass=allow_pass)
        if reason is not None:
            raise IllegalMoveError(f"illegal move {text.strip()}: {reason}")
        return move

    def push_move(self, text: str, *, allow_pass: bool = False) -> Move:
        """Check and play a move given as a string like ``"a3a4"``; raises IllegalMoveError
        (see :meth:`parse_move` for ``allow_pass``)."""
        move = self.parse_move(text, allow_pass=allow_pass)
        self.push(move)
        return move

    def parse_uci(self, uci: str, *, allow_pass: bool = False) -> Move:
        """:meth:`Move.from_uci` checked for legality: InvalidMoveError when malformed,
        IllegalMoveError (with the reason) when illegal; both are ValueErrors. A pass
        ``0000`` only with ``allow_pass``, as in :meth:`parse_move`."""
        move = Move.from_uci(uci)
        reason = self.explain_illegal(move, allow_pass=allow_pass)
        if reason is not None:
            raise IllegalMoveError(f"illegal move {uci}: {reason}")
        return move

    def push_uci(self, uci: str, *, allow_pass: bool = False) -> Move:
        """Check and play a move string like ``"a3a4"`` (see :meth:`parse_uci`); returns it.

        >>> from doushouqi.jungle.board import Board
        >>> board = Board()
        >>> board.push_uci("a3a4")
        Move.from_str('a3a4')
        >>> board.push_uci("a4a5")
        Traceback (most recent call last):
        ...
        doushouqi.jungle.moves.IllegalMoveError: illegal move a4a5: the red elephant on a4 is not
        ...
        """
        move = self.parse_uci(uci, allow_pass=allow_pass)
        self.push(move)
        return move

    def find_move(self, from_square: int, to_square: int) -> Move:
        """The legal move from ``from_square`` to ``to_square`` (python-chess's
        ``find_move``; Jungle has no promotion to choose); IllegalMoveError with the reason
        when there is none."""
        move = Move(from_square, to_square)
        reason = self.explain_illegal(move)
        if reason is not None:
            raise IllegalMoveError(
                f"no matching legal move for {square_name(from_square)}{square_name(to_square)}"
                f" in {self.fen()}: {reason}"
            )
        return move

    def san(self, move: Move, lang: Lang = "en") -> str:
        """The move in short algebraic notation (:mod:`doushouqi.jungle.san`): ``Rg4``,
        ``Lxd7``; ``lang="zh"`` (``"zh-Hant"``) for the Chinese form ``鼠g4``, ``狮吃d7``
        (``獅吃d7``).

        >>> from doushouqi.jungle.board import Board
        >>> Board().san(Move.from_uci("g3g4")), Board().san(Move.from_uci("g3g4"), lang="zh")
        ('Rg4', '鼠g4')
        """
        return move_to_san(self, move, lang)

    def lan(self, move: Move, lang: Lang = "en") -> str:
        """The move in long algebraic notation (python-chess's ``lan``): ``Rg3-g4``,
        ``Lc3xc7`` (:func:`doushouqi.jungle.san.move_to_lan`)."""
        return move_to_lan(self, move, lang)

    def variation_san(self, variation: Iterable[Move], lang: Lang = "en") -> str:
        """The moves, played from this position, in SAN with move numbers, as python-chess's
        ``variation_san``: ``1. Rg4 Ra6 2. Ea4``, ``1...Ra6`` when the second player begins.
        IllegalMoveError names the first move that is not legal; the board is left as it was.

        >>> from doushouqi.jungle.board import Board
        >>> board = Board()
        >>> _ = board.push_uci("g3g4")
        >>> board.variation_san([Move.from_uci("a7a6"), Move.from_uci("g4g5")], lang="zh")
        '1...鼠a6 2. 鼠g5'
        """
        board = self.copy()
        parts: list[str] = []
        for index, move in enumerate(variation):
            try:
                text = board.san(move, lang)
            except IllegalNotationMoveError as exc:
                raise IllegalMoveError(f"illegal move {move} in position {board.fen()}") from exc
            if board.turn == board.rules.first_player:
                parts.append(f"{board.fullmove_number}. {text}")
            elif index == 0:
                parts.append(f"{board.fullmove_number}...{text}")
            else:
                parts.append(text)
            board.push(move)
        return " ".join(parts)

    def parse_san(self, san: str, *, allow_pass: bool = False) -> Move:
        """The legal move that SAN text names (forgiving of case and spaces where that is
        unambiguous; see :func:`doushouqi.jungle.san.parse_san`)."""
        return parse_san(self, san, allow_pass=allow_pass)

    def push_san(self, san: str, *, allow_pass: bool = False) -> Move:
        """Parse SAN text (:meth:`parse_san`), play the move and return it.

        >>> from doushouqi.jungle.board import Board
        >>> board = Board()
        >>> board.push_san("Rg4"), board.push_san("rA6"), board.push_san("獅g2")
        (Move.from_str('g3g4'), Move.from_str('a7a6'), Move.from_str('g1g2'))
        """
        move = self.parse_san(san, allow_pass=allow_pass)
        self.push(move)
        return move
