"""The Jungle board: position, legal moves, push/pop, position strings and game outcome.

Modelled on python-chess: :meth:`Board.push` is fast and unchecked, :meth:`Board.push_move`
checks, ``board.legal_moves`` is a lazy view. Rule differences are :class:`RuleSet` fields.

>>> board = Board(rules="international")
>>> board.legal_moves.count()
24
>>> board.push_move("a3a4")
Move.from_str('a3a4')
>>> board.fen()
'l5t/1d3c1/r1p1w1e/7/7/E6/2W1P1R/1C3D1/T5L b 1 1'
>>> board.pop()
Move.from_str('a3a4')
>>> board.fen() == STARTING_FEN
True
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from doushouqi.jungle.board_editing import PositionEditingMixin
from doushouqi.jungle.board_notation import MoveTextMixin
from doushouqi.jungle.board_outcome import OutcomeMixin
from doushouqi.jungle.board_queries import PositionQueriesMixin
from doushouqi.jungle.board_symmetry import SymmetryMixin
from doushouqi.jungle.board_text import PositionTextMixin
from doushouqi.jungle.fen import (
    MAX_HALFMOVE_CLOCK,
    MAX_MOVE_NUMBER,
    STARTING_BOARD_FEN,
    InvalidFenError,
    parse_fen,
)
from doushouqi.jungle.legality import explain_illegal
from doushouqi.jungle.moves import IllegalMoveError, IllegalReason, InvalidMoveError, Move
from doushouqi.jungle.pieces import Piece
from doushouqi.jungle.restrictions import forbidden_by_restrictions
from doushouqi.jungle.rules import Ranks, RuleSet, find_rules
from doushouqi.jungle.squares import (
    ALL_SQUARES,
    BLUE,
    CAPTURED,
    DEN,
    DENS,
    DOG,
    ELEPHANT,
    JUMPS,
    LION,
    RAT,
    RED,
    STEPS,
    TIGER,
    TRAPS,
    WATER,
    WOLF,
    SquareSet,
    code_animal,
    code_color,
    iter_squares,
)
from doushouqi.jungle.status import Status
from doushouqi.jungle.zobrist import PIECE_SQUARE_KEYS, TURN_KEY, zobrist_hash

__all__ = [
    "MAX_HALFMOVE_CLOCK",
    "MAX_MOVE_NUMBER",
    "STARTING_FEN",
    "Board",
    "IllegalMoveError",
    "IllegalReason",
    "InvalidFenError",
    "InvalidMoveError",
    "LegalMoveGenerator",
    "Move",
    "Piece",
    "PseudoLegalMoveGenerator",
    "Status",
]

#: The start position's string, Red to move (``Board().fen()`` under a rule set where Red
#: moves first).
STARTING_FEN = STARTING_BOARD_FEN + " w 0 1"


class LegalMoveGenerator:
    """A lazy view of the legal moves: ``move in board.legal_moves`` is cheap. It follows
    the board: moves pushed after it was taken change what it holds.

    >>> board = Board("7/3L3/7/7/7/7/7/7/r6 w")
    >>> moves = board.legal_moves
    >>> moves
    <LegalMoveGenerator (d8d7, d8c8, d8e8, d8d9)>
    >>> len(moves), bool(moves), Move.from_uci("d8d9") in moves, Move.from_uci("a1a2") in moves
    (4, True, True, False)
    >>> board.push_move("d8d9")  # the den is entered: no move is left
    Move.from_str('d8d9')
    >>> list(moves), bool(moves)
    ([], False)
    """

    def __init__(self, board: Board) -> None:
        self.board = board

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and self.board.is_legal(move)

    def __iter__(self) -> Iterator[Move]:
        return self.board.generate_legal_moves()

    def __len__(self) -> int:
        return self.count()

    def __bool__(self) -> bool:
        return any(True for _ in self)

    def count(self) -> int:
        """How many moves there are (as ``len``; python-chess's ``count()``).

        >>> Board().legal_moves.count(), Board(rules="international").legal_moves.count()
        (24, 24)
        """
        return sum(1 for _ in self)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} ({', '.join(str(m) for m in self)})>"


class PseudoLegalMoveGenerator(LegalMoveGenerator):
    """A lazy view of the moves the movement and capture rules allow, the move restrictions
    (7-3, 17-5, must-vary) not applied: python-chess's ``board.pseudo_legal_moves``.

    >>> board = Board(rules="classic")  # the 7-3 restriction
    >>> board.replay(["g3g4", "a7a6", "g4g3", "a6a7"] * 2)
    >>> board.legal_moves.count(), board.pseudo_legal_moves.count()
    (23, 24)
    >>> [move.uci() for move in board.pseudo_legal_moves if move not in board.legal_moves]
    ['g3g4']
    """

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and self.board.is_pseudo_legal(move)

    def __iter__(self) -> Iterator[Move]:
        return self.board.generate_pseudo_legal_moves()


# Each piece code's steps from each square (``_STEPS_OF[code][square]``): into the water for
# a rat only, never into its own den; and whether the code's animal jumps the water.
_STEPS_OF: list[list[int]] = [[0] * 63] + [
    [
        (STEPS[square] if code_animal(code) == RAT else STEPS[square] & ~WATER)
        & ~DEN[code_color(code)]
        for square in range(63)
    ]
    for code in range(1, 17)
]
_JUMPS_WATER: list[bool] = [False] + [code_animal(code) in (LION, TIGER) for code in range(1, 17)]

# One undo record per ply: (from, to, moved code (0 for a pass), captured code,
# previous halfmove clock, previous fullmove number, previous hash).
UndoRecord = tuple[int, int, int, int, int, int, int]


class Board(
    PositionQueriesMixin,
    PositionEditingMixin,
    OutcomeMixin,
    PositionTextMixin,
    MoveTextMixin,
    SymmetryMixin,
):
    """A Jungle position under a rule set, with its move history.

    ``Board()`` is the start position with the rule set's first player to move. This class
    holds the position, its moves and their generation; its other parts come from mixins: the
    queries (``piece_at`` …) from :class:`~doushouqi.jungle.board_queries.PositionQueriesMixin`,
    position editing from :class:`~doushouqi.jungle.board_editing.PositionEditingMixin`, the
    endings (``outcome`` …) from :class:`~doushouqi.jungle.board_outcome.OutcomeMixin`, the
    position string from :class:`~doushouqi.jungle.board_text.PositionTextMixin`, the methods
    that read and write moves as text from
    :class:`~doushouqi.jungle.board_notation.MoveTextMixin`, the symmetries (``mirror`` …) from
    :class:`~doushouqi.jungle.board_symmetry.SymmetryMixin`.

    >>> board = Board(rules="classic")
    >>> board.turn, board.rules.name, board.legal_moves.count()
    (0, 'classic', 24)
    >>> board.push_move("g3g4")  # Red's rat steps forward
    Move.from_str('g3g4')
    >>> from doushouqi.jungle.squares import G4
    >>> board.piece_at(G4), board.turn, board.ply()
    (Piece.from_symbol('R'), 1, 1)
    >>> Board("7/3L3/7/7/7/7/7/7/r6 w")
    Board('7/3L3/7/7/7/7/7/7/r6 w 0 1', rules='wango')
    """

    def __init__(self, fen: str | None = None, rules: RuleSet | str = "wango") -> None:
        self.rules = find_rules(rules)
        ranks = list(range(9))
        if self.rules.ranks is Ranks.DOG_OVER_WOLF:
            ranks[DOG], ranks[WOLF] = ranks[WOLF], ranks[DOG]
        #: Rank of each piece code (index 0 unused).
        self._rank = [0] + ranks[1:] * 2
        if fen is None:
            self.set_fen(f"{STARTING_BOARD_FEN} {'b' if self.rules.first_player else 'w'} 0 1")
        else:
            self.set_fen(fen)

    # ----------------------------------------------------------------- position set-up

    def set_fen(self, fen: str) -> None:
        """Set the position from a position string (docs/rules.md 7a) and clear the history.

        The fields: placement, side to move (``w``/``r`` Red, ``b`` Blue), then optionally
        the halfmove clock (plies since the last capture, 0 to :data:`MAX_HALFMOVE_CLOCK`)
        and the move number (1 to :data:`MAX_MOVE_NUMBER`), each in ASCII digits only.
        InvalidFenError says what is wrong and where.

        >>> board = Board()
        >>> board.set_fen("7/3L3/7/7/7/7/7/7/r6 b 12 30")
        >>> board.turn, board.halfmove_clock, board.fullmove_number, board.ply()
        (1, 12, 30, 0)
        >>> board.set_fen("7/3L3/7 w")
        Traceback (most recent call last):
        ...
        doushouqi.jungle.fen.InvalidFenError: invalid position string '7/3L3/7 w': expected 9 ...
        """
        codes, turn, halfmove, fullmove = parse_fen(fen)
        self.halfmove_clock = halfmove
        self.fullmove_number = fullmove
        self._set_position(codes, turn)

    def _set_position(self, codes: list[int], turn: int) -> None:
        """Set the animals and the side to move, rebuild the indexes and clear the history."""
        self._sq = codes
        self._where = [CAPTURED] * 17
        self._occ = [0, 0]
        # On an edited board with two of one animal, _where holds the higher square: moves
        # are still generated for both, but only that one blocks a jump as a rat.
        for square, code in enumerate(codes):
            if code:
                self._where[code] = square
                self._occ[code_color(code)] |= 1 << square
        self.turn = turn
        self._hash = zobrist_hash(codes, turn)
        self.clear_stack()

    def clear_stack(self) -> None:
        """Forget the move history; the current position becomes the starting position.

        The position and its counters stay; what depends on the history starts afresh: the
        repetition count (the position has stood once), the windows of the move restrictions
        7-3 and 17-5, and the must-vary repetition rule.

        >>> board = Board()
        >>> board.replay(["g3g4", "a7a6"])
        >>> board.clear_stack()
        >>> board.ply(), board.move_stack, board.starting_fen == board.fen(), board.fullmove_number
        (0, [], True, 2)
        """
        self.move_stack: list[Move] = []
        self._undo: list[UndoRecord] = []
        self._history: list[int] = []  # hash of the position before each ply
        self._start_fen = self.fen()

    def copy(self, *, stack: bool | int = True) -> Board:
        """An independent copy with the same rules and position.

        ``stack=True`` (the default) copies the whole history. ``stack=False`` drops it, like
        :meth:`clear_stack` (the same as ``Board(board.fen(), board.rules)``): the halfmove
        clock and move number stay, so the no-capture limit still counts, but repetitions and
        the move restrictions only see moves played from now on. ``stack=n`` keeps the last
        ``n`` plies (and so their part in repetitions and restrictions).

        >>> board = Board()
        >>> for text in ["a3a4", "a7a6", "a4a3", "a6a7"]:
        ...     _ = board.push_move(text)
        >>> board.repetition_count(), board.copy().repetition_count()
        (2, 2)
        >>> board.copy(stack=False).repetition_count(), len(board.copy(stack=2).move_stack)
        (1, 2)
        >>> board.copy(stack=False).starting_fen == board.fen()
        True
        """
        if stack is not True:
            keep = 0 if stack is False else int(stack)
            if keep < 0:
                raise ValueError(f"stack must be True, False or a number of plies >= 0: {stack}")
            if keep < len(self._undo):
                board = self.copy()
                board._trim_stack(keep)
                return board
        board = Board.__new__(Board)
        board.rules = self.rules
        board._rank = self._rank
        board._sq = self._sq.copy()
        board._where = self._where.copy()
        board._occ = self._occ.copy()
        board.turn = self.turn
        board.halfmove_clock = self.halfmove_clock
        board.fullmove_number = self.fullmove_number
        board._hash = self._hash
        board.move_stack = self.move_stack.copy()
        board._undo = self._undo.copy()
        board._history = self._history.copy()
        board._start_fen = self._start_fen
        return board

    def _trim_stack(self, keep: int) -> None:
        """Keep only the last ``keep`` plies of the history (fewer than there are)."""
        drop = len(self._undo) - keep
        start = self.copy()
        for _ in range(keep):
            start._unmake()
        self._start_fen = start.fen()
        del self.move_stack[:drop], self._undo[:drop], self._history[:drop]

    @property
    def starting_fen(self) -> str:
        """The position string the history starts from.

        >>> board = Board()
        >>> board.push_move("g3g4")
        Move.from_str('g3g4')
        >>> board.starting_fen == STARTING_FEN, Board("7/3L3/7/7/7/7/7/7/r6 b").starting_fen
        (True, '7/3L3/7/7/7/7/7/7/r6 b 0 1')
        """
        return self._start_fen

    def ply(self) -> int:
        """Number of plies (moves and passes) pushed since the starting position (a method,
        as python-chess's ``Board.ply()``).

        >>> board = Board("7/3L3/7/7/7/7/7/7/r6 w 0 40")  # move 40, but no history
        >>> board.ply()
        0
        >>> board.replay(["d8d7", "a1a2"])
        >>> board.ply(), board.fullmove_number
        (2, 41)
        """
        return len(self._undo)

    # ------------------------------------------------------------------ move generation

    def _targets(self, square: int, code: int) -> int:
        """Squares the animal on ``square`` may move to, before the move restrictions."""
        # Asked for every animal of the side to move after every move on the server: the
        # steps come from a table per piece code (water and the own den already left out).
        color = (code - 1) >> 3
        targets = _STEPS_OF[code][square]
        if _JUMPS_WATER[code]:
            blockers = 1 << self._where[RAT + 8 - 8 * color]  # the other side's rat
            if self.rules.own_rat_blocks_jump:
                blockers |= 1 << self._where[RAT + 8 * color]
            for landing, path in JUMPS[square]:
                if not path & blockers:
                    targets |= 1 << landing
            targets &= ~DEN[color]
        occ = self._occ
        targets &= ~occ[color]
        enemies = targets & occ[1 - color]
        if enemies:
            if (not self.rules.trapped_can_capture) and TRAPS[1 - color] >> square & 1:
                return targets & ~enemies
            sq = self._sq
            while enemies:
                low = enemies & -enemies
                enemies ^= low
                target = low.bit_length() - 1
                if not self._can_capture(code, square, sq[target], target):
                    targets ^= low
        return targets

    def _can_capture(self, attacker: int, from_square: int, defender: int, to_square: int) -> bool:
        """Capture rules of docs/rules.md section 4, the attacker's own trap restriction aside."""
        attacker_color = code_color(attacker)
        trapped = TRAPS[attacker_color] >> to_square & 1
        attacker_animal = attacker - 8 * attacker_color
        defender_animal = code_animal(defender)
        if attacker_animal == RAT:
            from_water = WATER >> from_square & 1
            if defender_animal == RAT:
                return (
                    from_water == WATER >> to_square & 1
                ) or self.rules.rat_captures_across_water
            if from_water:
                return False
            return defender_animal == ELEPHANT or bool(trapped)
        if trapped:
            return True
        if attacker_animal == ELEPHANT and defender_animal == RAT:
            return False
        return self._rank[attacker] >= self._rank[defender]

    def is_game_over_on_board(self) -> bool:
        """A den is entered or a side has no animals: no move can be played.

        >>> board = Board("7/3L3/7/7/7/7/7/7/r6 w")
        >>> board.is_game_over_on_board()
        False
        >>> board.push(Move.from_uci("d8d9"))
        >>> board.is_game_over_on_board(), Board("7/7/7/7/7/7/7/7/6L b").is_game_over_on_board()
        (True, True)
        """
        occ = self._occ
        return not (occ[RED] and occ[BLUE]) or bool(occ[RED] & DEN[BLUE] or occ[BLUE] & DEN[RED])

    def _generate_basic(
        self, from_mask: int = ALL_SQUARES, to_mask: int = ALL_SQUARES
    ) -> Iterator[tuple[int, int]]:
        if self.is_game_over_on_board():
            return
        sq = self._sq
        for square in iter_squares(self._occ[self.turn] & from_mask):
            for target in iter_squares(self._targets(square, sq[square]) & to_mask):
                yield square, target

    def _forbidden(self) -> set[tuple[int, int]] | None:
        """Moves that the move restrictions forbid now, or None when no restriction applies."""
        return forbidden_by_restrictions(self)

    def generate_legal_moves(
        self, from_mask: int = ALL_SQUARES, to_mask: int = ALL_SQUARES
    ) -> Iterator[Move]:
        """The legal moves, those from a square of ``from_mask`` to one of ``to_mask`` (int
        bitboards or SquareSets, as python-chess's masks).

        >>> from doushouqi.jungle.squares import A1, A3, SquareSet
        >>> [move.uci() for move in Board().generate_legal_moves(from_mask=SquareSet([A1, A3]))]
        ['a1b1', 'a1a2', 'a3a2', 'a3b3', 'a3a4']
        """
        forbidden = self._forbidden()
        for frm, to in self._generate_basic(int(from_mask), int(to_mask)):
            if forbidden is None or (frm, to) not in forbidden:
                yield Move(frm, to)

    def legal_targets(self) -> Iterator[tuple[int, int]]:
        """(from-square, bitboard of where it may legally go) for each animal of the side to
        move that has a legal move, lowest square first: the legal moves grouped by where they
        start, without a :class:`Move` made for each (the game server tells every player this
        after every move).

        >>> from doushouqi.jungle.squares import square_name, iter_squares
        >>> [(square_name(frm), [square_name(to) for to in iter_squares(targets)])
        ...  for frm, targets in Board("r6/3L3/7/7/7/7/7/7/7 w").legal_targets()]
        [('d8', ['d7', 'c8', 'e8', 'd9'])]
        """
        if self.is_game_over_on_board():
            return
        forbidden = self._forbidden()
        sq = self._sq
        own = self._occ[self.turn]
        while own:  # iter_squares inlined: a generator's resumption per animal costs
            low = own & -own
            own ^= low
            square = low.bit_length() - 1
            targets = self._targets(square, sq[square])
            if forbidden is not None:
                for frm, to in forbidden:
                    if frm == square:
                        targets &= ~(1 << to)
            if targets:
                yield square, targets

    def generate_pseudo_legal_moves(
        self, from_mask: int = ALL_SQUARES, to_mask: int = ALL_SQUARES
    ) -> Iterator[Move]:
        """The moves before the move restrictions (:meth:`is_pseudo_legal`), masked as in
        :meth:`generate_legal_moves`.

        >>> from doushouqi.jungle.squares import G3, bit
        >>> board = Board(rules="classic")  # the 7-3 restriction
        >>> board.replay(["g3g4", "a7a6", "g4g3", "a6a7"] * 2)
        >>> [move.uci() for move in board.generate_pseudo_legal_moves(from_mask=bit(G3))]
        ['g3g2', 'g3f3', 'g3g4']
        >>> [move.uci() for move in board.generate_legal_moves(from_mask=bit(G3))]
        ['g3g2', 'g3f3']
        """
        for frm, to in self._generate_basic(int(from_mask), int(to_mask)):
            yield Move(frm, to)

    @property
    def legal_moves(self) -> LegalMoveGenerator:
        """The legal moves, generated lazily: ``move in board.legal_moves`` tests one move
        without generating the others; iterate, ``count()`` or ``list()`` for all.

        >>> board = Board()
        >>> board.legal_moves.count(), Move.from_uci("g3g4") in board.legal_moves
        (24, True)
        >>> [str(move) for move in Board("7/3L3/7/7/7/7/7/7/r6 w").legal_moves]
        ['d8d7', 'd8c8', 'd8e8', 'd8d9']
        """
        return LegalMoveGenerator(self)

    @property
    def pseudo_legal_moves(self) -> PseudoLegalMoveGenerator:
        """The moves the movement and capture rules allow, before the move restrictions
        (7-3, 17-5, must-vary) that depend on the game's history; lazy like ``legal_moves``.

        >>> Board().pseudo_legal_moves.count()
        24
        """
        return PseudoLegalMoveGenerator(self)

    def is_pseudo_legal(self, move: Move) -> bool:
        """Legal by the movement and capture rules, ignoring the move restrictions.

        >>> board = Board(rules="classic")  # the 7-3 restriction
        >>> board.replay(["g3g4", "a7a6", "g4g3", "a6a7"] * 2)
        >>> board.is_pseudo_legal(Move.from_uci("g3g4")), board.is_legal(Move.from_uci("g3g4"))
        (True, False)
        >>> board.is_pseudo_legal(Move.from_uci("g3g5"))
        False
        """
        if not move or self.is_game_over_on_board():
            return False
        code = self._sq[move.from_square]
        if not code or code_color(code) != self.turn:
            return False
        return bool(self._targets(move.from_square, code) >> move.to_square & 1)

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` may be played now, the move restrictions included
        (:meth:`explain_illegal` says why not).

        >>> Board().is_legal(Move.from_uci("g3g4")), Board().is_legal(Move.from_uci("a3a5"))
        (True, False)
        """
        if not self.is_pseudo_legal(move):
            return False
        forbidden = self._forbidden()
        return forbidden is None or (move.from_square, move.to_square) not in forbidden

    def is_attacked(self, square: int) -> bool:
        """Whether the animal on ``square`` could be captured by the other side right now.

        >>> from doushouqi.jungle.squares import D2, D3
        >>> board = Board("7/7/7/7/7/7/3e3/3L3/1t5 w")
        >>> board.is_attacked(D2), board.is_attacked(D3)  # the elephant may take the lion
        (True, False)
        """
        code = self._sq[square]
        return bool(code) and bool(self.attackers_mask(1 - code_color(code), square))

    def attackers_mask(self, color: int, square: int) -> int:
        """:meth:`attackers` as a bitboard.

        >>> from doushouqi.jungle.squares import D2, D3, bit
        >>> Board("7/7/7/7/7/7/3e3/3L3/1t5 w").attackers_mask(BLUE, D2) == bit(D3)
        True
        """
        sq, targets = self._sq, self._targets
        mask = 0
        for s in iter_squares(self._occ[color]):
            if targets(s, sq[s]) >> square & 1:
                mask |= 1 << s
        return mask

    def attackers(self, color: int, square: int) -> SquareSet:
        """Squares of ``color``'s animals that could move onto ``square`` (capturing what
        stands there) if it were their turn, before the 7-3/17-5 move restrictions.

        A :class:`~doushouqi.jungle.squares.SquareSet`; it iterates lowest square first and equals a
        list of the same squares, as the list this method returned before did.

        >>> from doushouqi.jungle.squares import parse_square, square_name
        >>> board = Board("7/7/7/7/7/7/3e3/3L3/1t5 w")
        >>> [square_name(s) for s in board.attackers(1, parse_square("d2"))]  # elephant > lion
        ['d3']
        >>> board.attackers(0, parse_square("d3"))  # the lion cannot take the elephant
        SquareSet([])
        >>> board.attackers(1, parse_square("c1")) == [parse_square("b1")]  # Red's trap
        True
        """
        return SquareSet(self.attackers_mask(color, square))

    def is_den_threatened(self, color: int | None = None) -> bool:
        """Whether an enemy animal could enter ``color``'s den (default: the side to move's)
        with one move, were it the enemy's turn. No move restriction can forbid a den entry
        (the den square was never entered before: that would have ended the game), so for
        the side not to move this is "the side to move can win by entering the den now".
        ``board.attackers(enemy, DENS[color])`` names the animals.

        >>> board = Board("7/7/7/7/7/7/7/3l3/6R w")  # Blue's lion on d2, next to Red's den d1
        >>> board.is_den_threatened(), board.is_den_threatened(BLUE)
        (True, False)
        """
        if color is None:
            color = self.turn
        return bool(self.attackers_mask(1 - color, DENS[color]))

    def explain_illegal(self, move: Move, *, allow_pass: bool = False) -> IllegalReason | None:
        """Why ``move`` is illegal here, in words, or None when it is legal. The words are an
        :class:`IllegalReason`: a ``str`` with a code and details beside them.

        A pass (``0000``) is never among the legal moves. With ``allow_pass`` it is accepted
        where a move could be played instead (a pass stands in for the move of a player whose
        time ran out, docs/rules.md 5.3): refused once the game is over on the board or when the
        side to move has no legal move, accepted after a draw by rule, as moves are.

        >>> board = Board()
        >>> board.explain_illegal(Move.from_uci("g3g4")) is None
        True
        >>> reason = board.explain_illegal(Move.from_uci("a3a5"))
        >>> reason, reason.code
        ('an animal moves one square forwards, backwards or sideways', 'one_step')
        >>> board.explain_illegal(Move.null())
        'a pass is only made for a player whose move time ran out'
        >>> board.explain_illegal(Move.null(), allow_pass=True) is None
        True
        """
        return explain_illegal(self, move, allow_pass=allow_pass)

    # ------------------------------------------------------------------ making moves

    def _make(self, frm: int, to: int) -> None:
        """Play a pseudo-legal move (or a pass when frm == to) without any check."""
        sq = self._sq
        turn = self.turn
        code = sq[frm] if frm != to else 0
        captured = sq[to] if code else 0
        self._undo.append(
            (frm, to, code, captured, self.halfmove_clock, self.fullmove_number, self._hash)
        )
        self._history.append(self._hash)
        h = self._hash ^ TURN_KEY
        if code:
            keys = PIECE_SQUARE_KEYS[code]
            h ^= keys[frm] ^ keys[to]
            sq[frm] = 0
            sq[to] = code
            self._where[code] = to
            self._occ[turn] ^= (1 << frm) | (1 << to)
        if captured:
            h ^= PIECE_SQUARE_KEYS[captured][to]
            self._where[captured] = CAPTURED
            self._occ[1 - turn] ^= 1 << to
            self.halfmove_clock = 0
        else:
            self.halfmove_clock += 1
        if turn != self.rules.first_player:
            self.fullmove_number += 1
        self._hash = h
        self.turn = 1 - turn

    def _unmake(self) -> None:
        frm, to, code, captured, halfmove, fullmove, h = self._undo.pop()
        self._history.pop()
        turn = self.turn = 1 - self.turn
        if code:
            sq = self._sq
            sq[frm] = code
            sq[to] = captured
            self._where[code] = frm
            self._occ[turn] ^= (1 << frm) | (1 << to)
            if captured:
                self._where[captured] = to
                self._occ[1 - turn] ^= 1 << to
        self.halfmove_clock = halfmove
        self.fullmove_number = fullmove
        self._hash = h

    def push(self, move: Move) -> None:
        """Play a move without checking it (use :meth:`push_move` for untrusted input).

        >>> board = Board()
        >>> board.push(Move.from_uci("g3g4"))
        >>> board.peek(), board.turn, board.fen()
        (Move.from_str('g3g4'), 1, 'l5t/1d3c1/r1p1w1e/7/7/6R/E1W1P2/1C3D1/T5L b 1 1')
        """
        self.move_stack.append(move)
        self._make(move.from_square, move.to_square)

    def pop(self) -> Move:
        """Take back the last move (or pass); IndexError when none was pushed.

        >>> board = Board()
        >>> board.push_move("g3g4")
        Move.from_str('g3g4')
        >>> board.pop(), board.fen() == STARTING_FEN
        (Move.from_str('g3g4'), True)
        >>> board.pop()
        Traceback (most recent call last):
        ...
        IndexError: pop from empty move stack
        """
        if not self._undo:
            raise IndexError("pop from empty move stack")
        self._unmake()
        return self.move_stack.pop()

    def peek(self) -> Move:
        """The last move played (``IndexError`` before the first).

        >>> board = Board()
        >>> board.push_move("g3g4")
        Move.from_str('g3g4')
        >>> board.peek()
        Move.from_str('g3g4')
        """
        return self.move_stack[-1]

    def push_pass(self) -> Move:
        """The side to move loses its turn (per-move timeout, docs/rules.md 5.3). Checked like a
        move: IllegalMoveError where no move could be played, such as once a den is entered
        (``push(Move.null())`` does not check).

        >>> board = Board()
        >>> board.push_pass(), board.turn, board.ply()
        (Move.from_str('0000'), 1, 1)
        >>> Board("7/7/7/7/7/7/7/7/6L b").push_pass()  # Blue has no animal left
        Traceback (most recent call last):
        ...
        doushouqi.jungle.moves.IllegalMoveError: illegal move 0000: the game is over (all captured)
        """
        return self.push_move("0000", allow_pass=True)

    def is_capture(self, move: Move) -> bool:
        """Whether ``move`` lands on an animal (a legal such move captures it).

        >>> board = Board("7/7/7/7/7/7/7/r6/L6 w")  # Red's lion a1, Blue's rat a2
        >>> board.is_capture(Move.from_uci("a1a2")), board.is_capture(Move.from_uci("a1b1"))
        (True, False)
        """
        return bool(move) and bool(self._sq[move.to_square])

    def is_jump(self, move: Move) -> bool:
        """Whether ``move`` is a lion's or tiger's jump across the water (not a step).

        >>> board = Board("6e/7/7/7/L6/7/7/7/7 w")  # Red's lion a5
        >>> board.is_jump(Move.from_uci("a5d5")), board.is_jump(Move.from_uci("a5a6"))
        (True, False)
        """
        return bool(move) and not STEPS[move.from_square] >> move.to_square & 1

    def gives_den_entry(self, move: Move) -> bool:
        """Whether ``move`` enters the enemy den (and so wins the game).

        >>> Board("7/3L3/7/7/7/7/7/7/r6 w").gives_den_entry(Move.from_uci("d8d9"))
        True
        """
        return bool(move) and move.to_square == DENS[1 - self.turn]

    # ----------------------------------------------------------------------- perft

    def perft(self, depth: int) -> int:
        """Number of leaf positions ``depth`` plies ahead (counting at the last ply).

        >>> board = Board()
        >>> board.perft(1), board.perft(2)
        (24, 576)
        """
        if depth < 1:
            return 1
        if depth == 1 and self._forbidden() is None:
            return self._count_basic()
        moves = [(m.from_square, m.to_square) for m in self.generate_legal_moves()]
        if depth == 1:
            return len(moves)
        total = 0
        for frm, to in moves:
            self._make(frm, to)
            total += self.perft(depth - 1)
            self._unmake()
        return total

    def _count_basic(self) -> int:
        """Number of moves before restrictions, without building them (bulk counting)."""
        if self.is_game_over_on_board():
            return 0
        sq = self._sq
        targets = self._targets
        return sum(targets(s, sq[s]).bit_count() for s in iter_squares(self._occ[self.turn]))

    # ------------------------------------------------------ display, comparison, replay

    def _repr_svg_(self) -> str:
        # Imported on first use: drawing is for notebooks, and a plain ``import doushouqi``
        # should not pay for it.
        from doushouqi.jungle.svg import board_svg

        return board_svg(self)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Board)
            and self._sq == other._sq
            and self.turn == other.turn
            and self.rules == other.rules
        )

    def transposition_key(self) -> tuple[int, ...]:
        """An exact, hashable key of the position: the 63 piece codes and the side to move
        (python-chess's ``_transposition_key``; :meth:`zobrist_hash` is its fast hash).

        >>> len(Board().transposition_key()), Board().transposition_key()[-1]
        (64, 0)
        """
        return (*self._sq, self.turn)

    def replay(self, moves: Iterable[str]) -> None:
        """Push each move string in turn, checked.

        >>> board = Board()
        >>> board.replay(["g3g4", "a7a6", "g4g5"])
        >>> [move.uci() for move in board.move_stack]
        ['g3g4', 'a7a6', 'g4g5']
        >>> board.replay(["a6a8"])
        Traceback (most recent call last):
        ...
        doushouqi.jungle.moves.IllegalMoveError: illegal move a6a8: an animal moves one square ...
        """
        for text in moves:
            self.push_move(text)
