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

import random
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
from doushouqi.tiger.moves import Move
from doushouqi.tiger.points import (
    BETWEEN,
    JUMPS,
    NEIGHBOURS,
    NUM_POINTS,
    Diagonals,
    parse_point,
    point_file,
    point_name,
    point_rank,
)
from doushouqi.tiger.rules import MEN_SIDE, TIGER_SIDE, RuleSet, rules_by_name
from doushouqi.tiger.terms import Termination

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
_SIDE_WORDS = ("the tiger side", "the men's side")
_PIECE_WORDS = {TIGER: "tiger", MAN: "man"}

# Zobrist keys: one per piece kind and point, one for the men's side to move. A fixed seed, so
# that hashes are the same in every process (a server compares them across nodes).
_RANDOM = random.Random("doushouqi.tiger zobrist 1")
_KEYS: tuple[tuple[int, ...], ...] = (
    (),
    tuple(_RANDOM.getrandbits(64) for _ in range(NUM_POINTS)),
    tuple(_RANDOM.getrandbits(64) for _ in range(NUM_POINTS)),
)
_MEN_TO_MOVE = _RANDOM.getrandbits(64)


def _zobrist(pieces: list[int], turn: int) -> int:
    h = _MEN_TO_MOVE if turn == MEN_SIDE else 0
    for point, code in enumerate(pieces):
        if code:
            h ^= _KEYS[code][point]
    return h


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
    ``move in board.legal_moves`` checks one move without generating the others."""

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
    """

    def __init__(self, position: str | None = None, rules: RuleSet | str = "laohuqi") -> None:
        self.rules = rules if isinstance(rules, RuleSet) else rules_by_name(rules)
        self._neighbours = NEIGHBOURS[self.rules.diagonals]
        self._jumps = JUMPS[self.rules.diagonals]
        self.set_position(start_position(self.rules) if position is None else position)

    # ------------------------------------------------------------------ set-up, copies

    def set_position(self, text: str) -> None:
        """Set the position from a position string and clear the history; PositionError
        saying what is wrong (also when it does not fit the rule set)."""
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
        self._hash = _zobrist(pieces, turn)
        self.clear_stack()

    def clear_stack(self) -> None:
        """Forget the move history: the position stands once, for repetitions."""
        self.move_stack: list[Move] = []
        self._undo: list[_Undo] = []
        self._history: list[int] = []  # the hash before each ply

    def copy(self) -> Board:
        """An independent copy, with the move history."""
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
        """What stands on ``point``: EMPTY (0), TIGER (1) or MAN (2)."""
        return self._pieces[point]

    def pieces(self) -> list[int]:
        """What stands on each of the 87 points (a copy)."""
        return self._pieces.copy()

    def tiger_points(self) -> list[int]:
        return [p for p, code in enumerate(self._pieces) if code == TIGER]

    def man_points(self) -> list[int]:
        return [p for p, code in enumerate(self._pieces) if code == MAN]

    @property
    def men_count(self) -> int:
        return self._men

    @property
    def men_taken(self) -> int:
        """How many men are off the board, against the rule set's start."""
        return self.rules.men - self._men

    def ply(self) -> int:
        """Plies (moves and passes) pushed since the position was set (a method, as
        python-chess's ``Board.ply()``)."""
        return len(self._undo)

    def zobrist_hash(self) -> int:
        """A hash of the pieces and the side to move (what makes positions the same)."""
        return self._hash

    def position_string(self) -> str:
        """The position string: placement, side to move, halfmove clock, move number."""
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
        """Whether too few men are left (the tiger has won): then no side has a move."""
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
        left, right, up, the diagonals) before jumps."""
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
        return LegalMoveGenerator(self)

    def count_legal_moves(self) -> int:
        return sum(1 for _ in self.generate_legal_moves())

    def has_legal_move(self) -> bool:
        return any(True for _ in self.generate_legal_moves())

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` (not a pass) is legal here."""
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
        if self.is_game_over_on_board():
            below = self.rules.tiger_wins_below
            text = f"the game is over: {self._men} men are left, fewer than {below}"
            return IllegalReason("game_over", text, men=str(self._men), below=str(below))
        if not move:
            if not allow_pass:
                text = "a pass is no move a player may choose (a timeout makes it)"
                return IllegalReason("pass", text)
            if not self.has_legal_move():
                text = f"{_SIDE_WORDS[self.turn]} has no legal move: the game is over"
                return IllegalReason("no_move", text)
            return None
        path = move.path
        start = path[0]
        code = self._pieces[start]
        where = {"from": point_name(start), "to": point_name(path[1])}
        if code == EMPTY:
            return IllegalReason("empty", f"there is no piece on {where['from']}", **where)
        where["piece"] = _PIECE_WORDS[code]
        if code - 1 != self.turn:
            text = (
                f"the {_PIECE_WORDS[code]} on {where['from']} is not to move: it is "
                f"{_SIDE_WORDS[self.turn]}'s turn"
            )
            return IllegalReason("not_yours", text, **where)
        for a, b in pairwise(path):
            if a == b:
                text = f"a move cannot stay on {point_name(a)}"
                return IllegalReason("stay", text, **where)
        if code == MAN:
            return self._explain_man(start, path, where)
        return self._explain_tiger(start, path, where)

    def _no_line(self, a: int, b: int, where: dict[str, str]) -> IllegalReason:
        """Why a and b are no step: not neighbours on a line (naming the option when they are
        diagonal neighbours that another ``diagonals`` would join)."""
        words = f"{point_name(a)} and {point_name(b)} are not joined by a line"
        if b in NEIGHBOURS[Diagonals.ALL][a]:  # a diagonal that "all" would draw
            words += f" (diagonals: {self.rules.diagonals.value})"
        return IllegalReason(
            "no_line", words, **{**where, "from": point_name(a), "to": point_name(b)}
        )

    def _explain_man(
        self, start: int, path: tuple[int, ...], where: dict[str, str]
    ) -> IllegalReason | None:
        to = path[1]
        if len(path) > 2 or (to not in self._neighbours[start] and (start, to) in BETWEEN):
            text = "men never capture: only a tiger jumps, and a man moves one step"
            return IllegalReason("man_jumps", text, **where)
        if to not in self._neighbours[start]:
            return self._no_line(start, to, where)
        if self._pieces[to] != EMPTY:
            return IllegalReason("occupied", f"{point_name(to)} is occupied", **where)
        if not self.rules.men_retreat and point_rank(to) < point_rank(start):
            text = (
                f"men may not retreat (men_retreat is off): {point_name(to)} is below "
                f"{point_name(start)}"
            )
            return IllegalReason("retreat", text, **where)
        return None

    def _explain_tiger(
        self, start: int, path: tuple[int, ...], where: dict[str, str]
    ) -> IllegalReason | None:
        to = path[1]
        step_ends = "a step ends the move: only jumps follow one another"
        if to in self._neighbours[start]:
            if len(path) > 2:
                return IllegalReason("step_ends", step_ends, **where)
            if self._pieces[to] != EMPTY:
                return IllegalReason("occupied", f"{point_name(to)} is occupied", **where)
            if self.rules.capture_mandatory and self._has_jump():
                text = "a capture is mandatory (capture_mandatory is on) and a tiger can jump"
                return IllegalReason("must_capture", text, **where)
            return None
        if len(path) > 2 and not self.rules.multi_jump:
            return IllegalReason("one_jump", "one jump per move (multi_jump is off)", **where)
        pieces = self._pieces.copy()
        pieces[start] = EMPTY
        for a, b in pairwise(path):
            over = BETWEEN.get((a, b))
            jump = {**where, "from": point_name(a), "to": point_name(b)}
            if b in self._neighbours[a]:
                return IllegalReason("step_ends", step_ends, **jump)
            if over is None:
                if abs(point_file(a) - point_file(b)) == 1 == abs(point_rank(a) - point_rank(b)):
                    return self._no_line(a, b, where)  # diagonal neighbours, no line between
                text = (
                    f"{point_name(a)} and {point_name(b)} are not joined by a line, nor two "
                    f"points apart along one"
                )
                return IllegalReason("too_far", text, **jump)
            jump["over"] = point_name(over)
            if over not in self._neighbours[a] or b not in self._neighbours[over]:
                text = (
                    f"no line runs from {point_name(a)} over {point_name(over)} to "
                    f"{point_name(b)} (diagonals: {self.rules.diagonals.value})"
                )
                return IllegalReason("no_jump_line", text, **jump)
            if pieces[over] == TIGER:
                text = f"a tiger never jumps a tiger (on {point_name(over)})"
                return IllegalReason("jumps_tiger", text, **jump)
            if pieces[over] != MAN:
                text = f"no man on {point_name(over)} to jump" + (
                    " (he is taken earlier in this move)" if self._pieces[over] == MAN else ""
                )
                return IllegalReason("no_man", text, **jump)
            if pieces[b] != EMPTY:
                text = f"the landing point {point_name(b)} is taken"
                return IllegalReason("landing_taken", text, **jump)
            pieces[over] = EMPTY
        return None

    # -------------------------------------------------------------------- making moves

    def push(self, move: Move) -> None:
        """Play a move (or a pass) without checking it; :meth:`push_move` checks."""
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
            keys = _KEYS[code]
            pieces[start] = EMPTY
            h ^= keys[start]
            men = _KEYS[MAN]
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
        self._hash = h ^ _MEN_TO_MOVE

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
        """Take back the last move or pass."""
        self._unmake()
        return self.move_stack.pop()

    def peek(self) -> Move:
        return self.move_stack[-1]

    def parse_move(self, text: str, *, allow_pass: bool = False) -> Move:
        """The move a move string names, checked: MoveError when it is no move string,
        IllegalMoveError (with the reason) when the rules refuse it. A pass ``0000`` only
        with ``allow_pass`` (see :meth:`explain_illegal`)."""
        move = Move.from_str(text)
        reason = self.explain_illegal(move, allow_pass=allow_pass)
        if reason is not None:
            raise reason.error(move)
        return move

    def push_move(self, text: str, *, allow_pass: bool = False) -> Move:
        """Check and play a move string; returns the move."""
        move = self.parse_move(text, allow_pass=allow_pass)
        self.push(move)
        return move

    def push_pass(self) -> Move:
        """The side to move loses its turn (a per-move timeout, docs/rules.md 5.3); checked:
        IllegalMoveError where no move could be played."""
        return self.push_move("0000", allow_pass=True)

    def is_capture(self, move: Move) -> bool:
        return move.is_jump

    # ------------------------------------------------------------------------ outcome

    def repetition_count(self) -> int:
        """How many times the position (pieces and side to move) has stood since it was set."""
        return self._history.count(self._hash) + 1

    def is_repetition(self, count: int = 3) -> bool:
        return self.repetition_count() >= count

    def position_counts(self) -> Counter[int]:
        """Hash → the times that position has stood, the current one included."""
        counts = Counter(self._history)
        counts[self._hash] += 1
        return counts

    def termination(self) -> Termination | None:
        """How the position has ended the game, or None (checked in the order of the module
        docstring)."""
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
        return self.termination() is not None

    # -------------------------------------------------------------------------- perft

    def perft(self, depth: int) -> int:
        """The number of move sequences ``depth`` plies long from here."""
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
