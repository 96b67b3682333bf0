"""A position of 老虎棋 under a rule set, with its moves: :class:`Board`.

Shaped like python-chess's ``chess.Board`` and Jungle's :class:`doushouqi.jungle.board.Board`:
the pieces and the side to move, the halfmove clock (plies since the last capture) and the
move number, a move stack with :meth:`Board.push` (fast, unchecked) and :meth:`Board.pop`,
:meth:`Board.push_move` (checked), a lazy :attr:`Board.legal_moves` view,
:meth:`Board.outcome` and :meth:`Board.perft`. Tables of lines and jumps come from
:mod:`doushouqi.tiger.points`, built once at import.

Rules that the specification (TIGER_RULES.md) leaves open are decided here once, and
documented in docs/tiger.md:

- a man a tiger jumps leaves the board at once: in a multi-jump his point is empty for the
  rest of the move, and the tiger's own start point too;
- ``capture_mandatory`` makes the tiger side jump when any tiger can; under ``multi_jump`` it
  may still stop after any jump;
- the moves stay legal after a draw by rule (threefold repetition, ``max_rounds``), as in
  python-chess: :meth:`Board.outcome` says the game is drawn, and whoever runs the game
  stops it. Only the tiger's win by captures ends move generation
  (:meth:`Board.is_game_over_on_board`);
- the endings are checked in this order: too few men, no legal move, repetition, move limit
  (a move that wins on the board wins, even when it also completes the last round).

>>> board = Board()
>>> board.position_string()
'3/1T1/9/9/9/9/9/9/9/3MMM3/MMMMMMMMM t 0 1'
>>> len(board.legal_moves), board.push_move("e10e9"), board.turn
(4, Move.from_str('e10e9'), 1)
>>> board.parse_move("d1d2")
Traceback (most recent call last):
...
doushouqi.core.game.IllegalMoveError: illegal move d1d2: d2 is occupied
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from itertools import pairwise

from doushouqi.core.game import IllegalMoveError, IllegalReason, MoveError, PositionError
from doushouqi.core.outcome import BoardEnding, Outcome
from doushouqi.tiger.fen import (
    EMPTY,
    MAN,
    MAX_HALFMOVE_CLOCK,
    MAX_MOVE_NUMBER,
    TIGER,
    parse_position,
    write_position,
)
from doushouqi.tiger.legality import explain_illegal
from doushouqi.tiger.moves import Move
from doushouqi.tiger.points import (
    BETWEEN,
    JUMPS,
    NEIGHBOURS,
    NUM_POINTS,
    parse_point,
    point_rank,
)
from doushouqi.tiger.rules import MEN_SIDE, TIGER_SIDE, RuleSet, rules_by_name
from doushouqi.tiger.terms import Termination
from doushouqi.tiger.zobrist import MEN_TO_MOVE_KEY, PIECE_POINT_KEYS, zobrist_hash

__all__ = [
    "Board",
    "IllegalMoveError",
    "LegalMoveGenerator",
    "Move",
    "MoveError",
    "PositionError",
    "start_position",
]

_TIGER_STARTS = {1: ("e10",), 2: ("d10", "f10")}
_MAN_STARTS = {
    12: (*(f"{f}1" for f in "abcdefghi"), "d2", "e2", "f2"),
    18: tuple(f"{f}{r}" for r in (1, 2) for f in "abcdefghi"),
}


def start_position(rules: RuleSet) -> str:
    """The position string a game under ``rules`` starts from.

    >>> start_position(rules_by_name("laohuqi-south"))
    '3/T1T/9/9/9/9/9/9/9/3MMM3/MMMMMMMMM t 0 1'
    """
    pieces = [EMPTY] * NUM_POINTS
    for name in _TIGER_STARTS[rules.tigers]:
        pieces[parse_point(name)] = TIGER
    for name in _MAN_STARTS[rules.men]:
        pieces[parse_point(name)] = MAN
    return write_position(pieces, rules.first, 0, 1)


class LegalMoveGenerator:
    """The legal moves of a board, generated when asked (python-chess's ``legal_moves``):
    ``move in board.legal_moves`` checks one move without generating the others.

    >>> board = Board("3/3/9/9/9/9/3MT4/9/9/9/MMMMMM3 t")
    >>> board.legal_moves
    <LegalMoveGenerator (e5e4, e5f5, e5e6, e5c5)>
    >>> len(board.legal_moves), Move.from_str("e5c5") in board.legal_moves
    (4, True)
    >>> [str(move) for move in board.legal_moves if move.is_jump]
    ['e5c5']
    """

    __slots__ = ("board",)

    def __init__(self, board: Board) -> None:
        self.board = board

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and bool(move) and self.board.is_legal(move)

    def __iter__(self) -> Iterator[Move]:
        return self.board.generate_legal_moves()

    def __len__(self) -> int:
        return self.board.count_legal_moves()

    def __bool__(self) -> bool:
        return any(True for _ in self)

    def __repr__(self) -> str:
        return f"<LegalMoveGenerator ({', '.join(str(m) for m in self)})>"


# One undo record per ply: (path, points of the men taken, previous halfmove clock, previous
# move number, previous hash).
_Undo = tuple[tuple[int, ...], tuple[int, ...], int, int, int]


def _trusted(path: tuple[int, ...]) -> Move:
    """A Move for a path the generator built (skipping the checks of Move's constructor)."""
    move = object.__new__(Move)
    object.__setattr__(move, "path", path)
    return move


class Board:
    """A 老虎棋 position under a rule set, with its move history.

    ``Board()`` is the start position of ``laohuqi``; ``Board(text, rules)`` reads a position
    string (:mod:`doushouqi.tiger.fen`) and checks that it fits the rule set: as many tigers
    as the rule set has (tigers are never taken), no more men than it starts with.

    >>> board = Board(rules="laohuqi-18")
    >>> print(board)
          . . .
          . T .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    M M M M M M M M M
    M M M M M M M M M
    >>> board.men_count, board.turn, board
    (18, 0, Board('3/1T1/9/9/9/9/9/9/9/MMMMMMMMM/MMMMMMMMM t 0 1', rules='laohuqi-18'))
    >>> Board("3/1T1/9/9/9/9/9/9/9/MMMMMMMMM/MMMMMMMMM t")
    Traceback (most recent call last):
    ...
    doushouqi.core.game.PositionError: the position has 18 men, more than the rule set 'laohuqi' ...
    """

    def __init__(self, position: str | None = None, rules: RuleSet | str = "laohuqi") -> None:
        self.rules = rules if isinstance(rules, RuleSet) else rules_by_name(rules)
        self._neighbours = NEIGHBOURS[self.rules.diagonals]
        self._jumps = JUMPS[self.rules.diagonals]
        self.set_position(start_position(self.rules) if position is None else position)

    # ------------------------------------------------------------------ set-up, copies

    def set_position(self, text: str) -> None:
        """Set the position from a position string and clear the history; PositionError
        saying what is wrong (also when it does not fit the rule set).

        >>> board = Board()
        >>> board.push_move("e10e9")
        Move.from_str('e10e9')
        >>> board.set_position("3/3/9/9/9/9/3MT4/9/9/9/MMMMMM3 t")
        >>> board.ply(), board.men_count
        (0, 7)
        >>> board.set_position("3/3/9/9/9/9/3MTT3/9/9/9/MMMMMM3 t")
        Traceback (most recent call last):
        ...
        doushouqi.core.game.PositionError: the position has 2 tigers, the rule set 'laohuqi' ...
        """
        pieces, turn, halfmove, number = parse_position(text)
        tigers, men = pieces.count(TIGER), pieces.count(MAN)
        rules = self.rules
        if tigers != rules.tigers:
            raise PositionError(
                f"the position has {tigers} tiger{'s' * (tigers != 1)}, the rule set "
                f"{rules.name!r} has {rules.tigers} (tigers are never taken)"
            )
        if men > rules.men:
            raise PositionError(
                f"the position has {men} men, more than the rule set {rules.name!r} starts "
                f"with ({rules.men})"
            )
        self._pieces = pieces
        self._men = men
        self.turn = turn
        self.halfmove_clock = halfmove
        self.fullmove_number = number
        self._hash = zobrist_hash(pieces, turn)
        self.clear_stack()

    def clear_stack(self) -> None:
        """Forget the move history: the position stands once, for repetitions.

        >>> board = Board()
        >>> for move in ("e10e9", "e2e3", "e9e10", "e3e2"):
        ...     board.push(board.parse_move(move))
        >>> board.repetition_count()
        2
        >>> board.clear_stack()
        >>> board.ply(), board.repetition_count(), board.move_stack
        (0, 1, [])
        """
        self.move_stack: list[Move] = []
        self._undo: list[_Undo] = []
        self._history: list[int] = []  # the hash before each ply

    def copy(self) -> Board:
        """An independent copy, with the move history.

        >>> board = Board()
        >>> board.push_move("e10e9")
        Move.from_str('e10e9')
        >>> trial = board.copy()
        >>> trial.push_move("a1a2")
        Move.from_str('a1a2')
        >>> trial.ply(), board.ply(), trial.move_stack[0] == board.peek()
        (2, 1, True)
        """
        board = Board.__new__(Board)
        board.rules = self.rules
        board._neighbours = self._neighbours
        board._jumps = self._jumps
        board._pieces = self._pieces.copy()
        board._men = self._men
        board.turn = self.turn
        board.halfmove_clock = self.halfmove_clock
        board.fullmove_number = self.fullmove_number
        board._hash = self._hash
        board.move_stack = self.move_stack.copy()
        board._undo = self._undo.copy()
        board._history = self._history.copy()
        return board

    # ------------------------------------------------------------------------ queries

    def piece_at(self, point: int) -> int:
        """What stands on ``point``: EMPTY (0), TIGER (1) or MAN (2).

        >>> from doushouqi.tiger.points import parse_point
        >>> board = Board()
        >>> [board.piece_at(parse_point(name)) for name in ("e10", "e1", "e5")]
        [1, 2, 0]
        """
        return self._pieces[point]

    def pieces(self) -> list[int]:
        """What stands on each of the 87 points (a copy): EMPTY (0), TIGER (1) or MAN (2), point by
        point (a1, b1 … i1, a2 …).

        >>> pieces = Board().pieces()
        >>> len(pieces), pieces[:12], pieces.count(2)
        (87, [2, 2, 2, 2, 2, 2, 2, 2, 2, 0, 0, 0], 12)
        """
        return self._pieces.copy()

    def tiger_points(self) -> list[int]:
        """The points the tigers stand on, in point order.

        >>> from doushouqi.tiger.points import point_name
        >>> [point_name(point) for point in Board(rules="laohuqi-south").tiger_points()]
        ['d10', 'f10']
        """
        return [p for p, code in enumerate(self._pieces) if code == TIGER]

    def man_points(self) -> list[int]:
        """The points the men stand on, in point order.

        >>> from doushouqi.tiger.points import point_name
        >>> [point_name(point) for point in Board().man_points()][-4:]
        ['i1', 'd2', 'e2', 'f2']
        """
        return [p for p, code in enumerate(self._pieces) if code == MAN]

    @property
    def men_count(self) -> int:
        """How many men are on the board.

        >>> board = Board("3/3/9/9/9/9/3MT4/9/9/9/MMMMMM3 t")
        >>> board.men_count
        7
        >>> board.push_move("e5c5"); board.men_count
        Move.from_str('e5c5')
        6
        """
        return self._men

    @property
    def men_taken(self) -> int:
        """How many men are off the board, against the rule set's start.

        >>> board = Board("3/3/9/9/9/9/3MT4/9/9/9/MMMMMM3 t")
        >>> board.men_taken, board.rules.men
        (5, 12)
        """
        return self.rules.men - self._men

    def ply(self) -> int:
        """Plies (moves and passes) pushed since the position was set (a method, as
        python-chess's ``Board.ply()``).

        >>> board = Board()
        >>> board.push_move("e10e9"); board.push_pass(); board.ply()
        Move.from_str('e10e9')
        Move.from_str('0000')
        2
        """
        return len(self._undo)

    def zobrist_hash(self) -> int:
        """A hash of the pieces and the side to move (what makes positions the same), the
        same in every process.

        >>> board = Board()
        >>> start = board.zobrist_hash()
        >>> for move in ("e10e9", "e2e3", "e9e10", "e3e2"):
        ...     board.push(board.parse_move(move))
        >>> board.zobrist_hash() == start, board.ply()
        (True, 4)
        """
        return self._hash

    def position_string(self) -> str:
        """The position string: placement, side to move, halfmove clock, move number
        (:mod:`doushouqi.tiger.fen`; also :meth:`fen`, python-chess's name).

        >>> board = Board()
        >>> board.push_move("e10e9"); board.position_string()
        Move.from_str('e10e9')
        '3/3/4T4/9/9/9/9/9/9/3MMM3/MMMMMMMMM m 1 1'
        >>> board.fen() == board.position_string()
        True
        """
        return write_position(self._pieces, self.turn, self.halfmove_clock, self.fullmove_number)

    fen = position_string

    def __str__(self) -> str:
        rows = []
        for rank in range(11, 0, -1):
            cells = []
            for file in "abcdefghi":
                name = f"{file}{rank}"
                if rank >= 10 and file not in "def":
                    cells.append(" ")
                else:
                    cells.append(".TM"[self._pieces[parse_point(name)]])
            rows.append(" ".join(cells).rstrip())
        return "\n".join(rows)

    def __repr__(self) -> str:
        return f"Board({self.position_string()!r}, rules={self.rules.name!r})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Board)
            and self._pieces == other._pieces
            and self.turn == other.turn
            and self.rules == other.rules
        )

    __hash__ = None  # type: ignore[assignment]  # mutable, as python-chess's Board

    # ------------------------------------------------------------------ move generation

    def is_game_over_on_board(self) -> bool:
        """Whether too few men are left (the tiger has won): then no side has a move.

        >>> board = Board("3/1T1/9/9/9/9/9/9/9/9/MMM6 m")
        >>> board.is_game_over_on_board(), board.count_legal_moves()
        (True, 0)
        >>> Board().is_game_over_on_board()
        False
        """
        return self._men < self.rules.tiger_wins_below

    def _jump_paths(self, start: int) -> list[tuple[int, ...]]:
        """Every jump path of the tiger on ``start``: single jumps, and under ``multi_jump``
        every continuation (each prefix a move of its own)."""
        pieces, jumps = self._pieces, self._jumps
        multi = self.rules.multi_jump
        paths: list[tuple[int, ...]] = []

        def extend(path: tuple[int, ...], at: int, taken: int) -> None:
            for over, land in jumps[at]:
                if pieces[over] != MAN or taken >> over & 1:
                    continue
                if pieces[land] != EMPTY and land != start and not taken >> land & 1:
                    continue
                longer = (*path, land)
                paths.append(longer)
                if multi:
                    extend(longer, land, taken | 1 << over)

        extend((start,), start, 0)
        return paths

    def _has_jump(self) -> bool:
        """Whether a tiger of the side to move (the tiger side) can jump."""
        pieces, jumps = self._pieces, self._jumps
        for point, code in enumerate(pieces):
            if code == TIGER:
                for over, land in jumps[point]:
                    if pieces[over] == MAN and pieces[land] == EMPTY:
                        return True
        return False

    def generate_legal_moves(self) -> Iterator[Move]:
        """The legal moves, in a stable order: by the point moved from, then steps (down,
        left, right, up, the diagonals) before jumps.

        >>> board = Board("3/3/9/9/9/9/3MT4/9/9/9/MMMMMM3 t")
        >>> [str(move) for move in board.generate_legal_moves()]
        ['e5e4', 'e5f5', 'e5e6', 'e5c5']
        """
        if self.is_game_over_on_board():
            return
        pieces, neighbours = self._pieces, self._neighbours
        if self.turn == TIGER_SIDE:
            steps = not (self.rules.capture_mandatory and self._has_jump())
            for point, code in enumerate(pieces):
                if code != TIGER:
                    continue
                if steps:
                    for to in neighbours[point]:
                        if pieces[to] == EMPTY:
                            yield _trusted((point, to))
                for path in self._jump_paths(point):
                    yield _trusted(path)
            return
        retreat = self.rules.men_retreat
        for point, code in enumerate(pieces):
            if code != MAN:
                continue
            rank = point_rank(point)
            for to in neighbours[point]:
                if pieces[to] == EMPTY and (retreat or point_rank(to) >= rank):
                    yield _trusted((point, to))

    @property
    def legal_moves(self) -> LegalMoveGenerator:
        """The legal moves as a :class:`LegalMoveGenerator`: iterate it, take its ``len``, or
        ask whether a move is ``in`` it.

        >>> board = Board()
        >>> len(board.legal_moves), Move.from_str("e10e9") in board.legal_moves
        (4, True)
        >>> Move.from_str("e10e8") in board.legal_moves
        False
        """
        return LegalMoveGenerator(self)

    def count_legal_moves(self) -> int:
        """The number of legal moves (generated, not kept).

        >>> Board().count_legal_moves(), Board(rules="laohuqi-south").count_legal_moves()
        (4, 6)
        """
        return sum(1 for _ in self.generate_legal_moves())

    def has_legal_move(self) -> bool:
        """Whether the side to move has any legal move (stops at the first).

        >>> Board().has_legal_move()
        True
        >>> Board("3/3/9/9/9/9/9/9/MMM6/MMM6/TMM6 t").has_legal_move()
        False
        """
        return any(True for _ in self.generate_legal_moves())

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` (not a pass) is legal here.

        >>> board = Board()
        >>> board.is_legal(Move.from_str("e10e9")), board.is_legal(Move.from_str("e10e8"))
        (True, False)
        >>> board.is_legal(Move.null())
        False
        """
        return bool(move) and self.explain_illegal(move) is None

    def explain_illegal(self, move: Move, *, allow_pass: bool = False) -> IllegalReason | None:
        """Why ``move`` is illegal here, in words, or None when it is legal. The words are an
        :class:`~doushouqi.core.game.IllegalReason`: a ``str`` with a code and details beside
        them (``from``, ``to``, ``over``: points; ``piece``: ``tiger`` or ``man``).

        A pass (``0000``) is never a legal move; with ``allow_pass`` (a timeout's pass) it is
        accepted where a move could be played instead, and refused where none could.

        >>> board = Board("3/1T1/9/9/9/9/9/4M4/4M4/9/MM6M t")
        >>> board.explain_illegal(Move.from_str("e10e7"))
        'e10 and e7 are not joined by a line, nor two points apart along one'
        >>> board.explain_illegal(Move.from_str("e10e9e8"))
        'a step ends the move: only jumps follow one another'
        """
        return explain_illegal(self, move, allow_pass=allow_pass)

    # -------------------------------------------------------------------- making moves

    def push(self, move: Move) -> None:
        """Play a move (or a pass) without checking it; :meth:`push_move` checks.

        >>> board = Board("3/3/9/9/9/9/3MT4/9/9/9/MMMMMM3 t")
        >>> board.push(Move.from_str("e5c5"))
        >>> board.position_string(), board.men_count
        ('3/3/9/9/9/9/2T6/9/9/9/MMMMMM3 m 0 1', 6)
        """
        self.move_stack.append(move)
        self._make(move.path)

    def _make(self, path: tuple[int, ...]) -> None:
        pieces = self._pieces
        before = h = self._hash
        taken: tuple[int, ...] = ()
        if path:
            start, end = path[0], path[-1]
            if len(path) > 2 or (start, end) in BETWEEN:
                taken = tuple(BETWEEN[s] for s in pairwise(path))
            code = pieces[start]
            keys = PIECE_POINT_KEYS[code]
            pieces[start] = EMPTY
            h ^= keys[start]
            men = PIECE_POINT_KEYS[MAN]
            for over in taken:
                pieces[over] = EMPTY
                h ^= men[over]
            self._men -= len(taken)
            pieces[end] = code
            h ^= keys[end]
        self._undo.append((path, taken, self.halfmove_clock, self.fullmove_number, before))
        self._history.append(before)
        # The counters stop at the most a position string may hold, so that every position
        # can be written and read back (no real game comes near).
        self.halfmove_clock = 0 if taken else min(self.halfmove_clock + 1, MAX_HALFMOVE_CLOCK)
        if self.turn != self.rules.first:
            self.fullmove_number = min(self.fullmove_number + 1, MAX_MOVE_NUMBER)
        self.turn = 1 - self.turn
        self._hash = h ^ MEN_TO_MOVE_KEY

    def _unmake(self) -> None:
        path, taken, halfmove, number, h = self._undo.pop()
        self._history.pop()
        self.turn = 1 - self.turn
        if path:
            pieces = self._pieces
            code = pieces[path[-1]]
            pieces[path[-1]] = EMPTY
            pieces[path[0]] = code
            for over in taken:
                pieces[over] = MAN
            self._men += len(taken)
        self.halfmove_clock = halfmove
        self.fullmove_number = number
        self._hash = h

    def pop(self) -> Move:
        """Take back the last move or pass; returns it (IndexError when there is none).

        >>> board = Board("3/3/9/9/9/9/3MT4/9/9/9/MMMMMM3 t")
        >>> board.push_move("e5c5")
        Move.from_str('e5c5')
        >>> board.pop(), board.men_count, board.position_string()
        (Move.from_str('e5c5'), 7, '3/3/9/9/9/9/3MT4/9/9/9/MMMMMM3 t 0 1')
        """
        self._unmake()
        return self.move_stack.pop()

    def peek(self) -> Move:
        """The last move or pass played (IndexError when there is none).

        >>> board = Board()
        >>> board.push_move("e10e9"); board.push_pass(); board.peek()
        Move.from_str('e10e9')
        Move.from_str('0000')
        Move.from_str('0000')
        """
        return self.move_stack[-1]

    def parse_move(self, text: str, *, allow_pass: bool = False) -> Move:
        """The move a move string names, checked: MoveError when it is no move string,
        IllegalMoveError (with the reason) when the rules refuse it. A pass ``0000`` only
        with ``allow_pass`` (see :meth:`explain_illegal`).

        >>> board = Board()
        >>> board.parse_move("E10E9"), board.parse_move("0000", allow_pass=True)
        (Move.from_str('e10e9'), Move.from_str('0000'))
        >>> board.parse_move("e10-e9")
        Traceback (most recent call last):
        ...
        doushouqi.core.game.MoveError: not a move string: 'e10-e9' (a move is a from-point and ...
        """
        move = Move.from_str(text)
        reason = self.explain_illegal(move, allow_pass=allow_pass)
        if reason is not None:
            raise reason.error(move)
        return move

    def push_move(self, text: str, *, allow_pass: bool = False) -> Move:
        """Check and play a move string; returns the move (:meth:`parse_move`'s errors when it
        is not legal, and then the board is unchanged).

        >>> board = Board()
        >>> board.push_move("e10e9"), board.turn
        (Move.from_str('e10e9'), 1)
        >>> board.push_move("e9e8")
        Traceback (most recent call last):
        ...
        doushouqi.core.game.IllegalMoveError: illegal move e9e8: the tiger on e9 is not to move: ...
        """
        move = self.parse_move(text, allow_pass=allow_pass)
        self.push(move)
        return move

    def push_pass(self) -> Move:
        """The side to move loses its turn (a per-move timeout, docs/rules.md 5.3); checked:
        IllegalMoveError where no move could be played. Returns the pass, ``Move.null()``.

        >>> board = Board()
        >>> board.push_pass(), board.turn, board.halfmove_clock
        (Move.from_str('0000'), 1, 1)
        >>> Board("3/3/9/9/9/9/9/9/MMM6/MMM6/TMM6 t").push_pass()
        Traceback (most recent call last):
        ...
        doushouqi.core.game.IllegalMoveError: illegal move 0000: ...
        """
        return self.push_move("0000", allow_pass=True)

    def is_capture(self, move: Move) -> bool:
        """Whether ``move`` takes men: a tiger's jump.

        >>> board = Board("3/3/9/9/9/9/3MT4/9/9/9/MMMMMM3 t")
        >>> [(str(move), board.is_capture(move)) for move in board.legal_moves][-2:]
        [('e5e6', False), ('e5c5', True)]
        """
        return move.is_jump

    # ------------------------------------------------------------------------ outcome

    def repetition_count(self) -> int:
        """How many times the position (pieces and side to move) has stood since it was set.

        >>> board = Board()
        >>> for move in ("e10e9", "e2e3", "e9e10", "e3e2"):
        ...     board.push(board.parse_move(move))
        >>> board.repetition_count()
        2
        """
        return self._history.count(self._hash) + 1

    def is_repetition(self, count: int = 3) -> bool:
        """Whether the position has stood at least ``count`` times (a threefold repetition by
        default, which draws the game: :meth:`termination`).

        >>> board = Board()
        >>> for move in ("e10e9", "e2e3", "e9e10", "e3e2") * 2:
        ...     board.push(board.parse_move(move))
        >>> board.is_repetition(), board.is_repetition(4)
        (True, False)
        """
        return self.repetition_count() >= count

    def position_counts(self) -> Counter[int]:
        """Hash → the times that position has stood, the current one included.

        >>> board = Board()
        >>> for move in ("e10e9", "e2e3", "e9e10", "e3e2"):
        ...     board.push(board.parse_move(move))
        >>> counts = board.position_counts()
        >>> counts[board.zobrist_hash()], sum(counts.values()), len(counts)
        (2, 5, 4)
        """
        counts = Counter(self._history)
        counts[self._hash] += 1
        return counts

    def termination(self) -> Termination | None:
        """How the position has ended the game, or None (checked in the order of the module
        docstring).

        >>> board = Board()
        >>> print(board.termination())
        None
        >>> for move in ("e10e9", "e2e3", "e9e10", "e3e2") * 2:
        ...     board.push(board.parse_move(move))
        >>> board.termination()
        <Termination.REPETITION: 'repetition'>
        """
        if self.is_game_over_on_board():
            return Termination.MEN_CAPTURED
        if not self.has_legal_move():
            return Termination.TIGER_TRAPPED if self.turn == TIGER_SIDE else Termination.MEN_BLOCKED
        if self.repetition_count() >= 3:
            return Termination.REPETITION
        rounds = self.rules.max_rounds
        if rounds is not None and self.fullmove_number > rounds:
            return Termination.MAX_ROUNDS
        return None

    def outcome(self) -> Outcome | None:
        """How the position has ended the game (seat 0 the tiger side, 1 the men), or None.

        >>> Board("3/1T1/9/9/9/9/9/9/9/9/MMM6 m").outcome()
        Outcome(ending=BoardEnding(key='men_captured'), winner=0)
        >>> Board("MTM/1M1/4M4/9/9/9/9/9/9/9/9 t").outcome()
        Outcome(ending=BoardEnding(key='tiger_trapped'), winner=1)
        """
        termination = self.termination()
        if termination is None:
            return None
        winner: int | None
        if termination is Termination.TIGER_TRAPPED:
            winner = MEN_SIDE
        elif termination in (Termination.MEN_CAPTURED, Termination.MEN_BLOCKED):
            winner = TIGER_SIDE
        else:
            winner = None
        return Outcome(BoardEnding(termination.value), winner)

    def is_game_over(self) -> bool:
        """Whether the position has ended the game (:meth:`termination` is not None), a draw
        by rule included, after which the moves stay legal (see the module docstring).

        >>> board = Board()
        >>> for move in ("e10e9", "e2e3", "e9e10", "e3e2") * 2:
        ...     board.push(board.parse_move(move))
        >>> board.is_game_over(), board.is_game_over_on_board(), board.has_legal_move()
        (True, False, True)
        """
        return self.termination() is not None

    # -------------------------------------------------------------------------- perft

    def perft(self, depth: int) -> int:
        """The number of move sequences ``depth`` plies long from here.

        >>> [Board().perft(depth) for depth in range(5)]  # tests/tiger/data/laohuqi.perft
        [1, 4, 44, 143, 2093]
        """
        if depth < 1:
            return 1
        if depth == 1:
            return self.count_legal_moves()
        total = 0
        for move in list(self.generate_legal_moves()):
            self._make(move.path)
            total += self.perft(depth - 1)
            self._unmake()
        return total
