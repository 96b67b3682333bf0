"""Jungle's record visitors: :class:`GameBuilder`, the default visitor of
:func:`~doushouqi.jungle.record.read_game` (it builds the :class:`GameRecord`), and
:func:`visit_moves`, which walks a record's moves, comments, NAGs and side lines into any
visitor (:mod:`doushouqi.core.record_visitor` documents the calls and their order).

>>> import io
>>> from doushouqi.jungle.record import read_game
>>> text = '[Red "Li"]\\n[Rules "classic"]\\n\\n1. a3a4 (1. g3g4 {bold}) 1... a7a6 *\\n'
>>> read_game(io.StringIO(text), Visitor=GameBuilder) == read_game(io.StringIO(text))
True
"""

from __future__ import annotations

from doushouqi.core.record_visitor import SKIP, BaseVisitor, HeadersBuilder, Skip, SkipVisitor
from doushouqi.jungle.board import Board, Move
from doushouqi.jungle.outcome import Termination
from doushouqi.jungle.record.model import STRUCTURED_TAGS, GameRecord
from doushouqi.jungle.record.tree import Variation

__all__ = [
    "SKIP",
    "BaseVisitor",
    "GameBuilder",
    "HeadersBuilder",
    "Skip",
    "SkipVisitor",
    "visit_moves",
]


class GameBuilder(BaseVisitor[GameRecord]):
    """Builds the :class:`~doushouqi.jungle.record.model.GameRecord` of a game, as
    :func:`~doushouqi.jungle.record.read_game` returns it (python-chess's ``GameBuilder``).
    Subclass it to build a record and look at the moves on the way.

    >>> import io
    >>> from doushouqi.jungle.record import read_game
    >>> class CaptureCounter(GameBuilder):
    ...     captures = 0
    ...     def visit_move(self, board, move):
    ...         self.captures += board.is_capture(move)
    ...         super().visit_move(board, move)
    >>> counter = CaptureCounter()
    >>> text = "7/7/7/7/7/7/7/r6/L6 w"
    >>> record = read_game(io.StringIO(f'[FEN "{text}"]\\n\\na1a2 1-0\\n'), Visitor=lambda: counter)
    >>> counter.captures, record.result, record.moves
    (1, '1-0', [Move.from_str('a1a2')])
    """

    def begin_game(self) -> None:
        """Start a new record: no tags, the standard start, no moves.

        >>> builder = GameBuilder()
        >>> builder.begin_game()
        >>> record = builder.result()
        >>> record.tags, record.moves, record.result
        ({}, [], '*')
        """
        self.tags: dict[str, str] = {}
        self.termination: Termination | None = None
        self.start = Board()
        self.lines: list[Variation] = [Variation()]  # the main line, and the side lines open
        self.game_result = "*"

    def visit_header(self, name: str, value: str) -> None:
        """Keep a tag; ``Termination`` sets the ending, and the tags the record keeps as fields
        (Rules, FEN …) come back through :meth:`visit_board` and :meth:`visit_result`.

        >>> builder = GameBuilder()
        >>> builder.begin_game()
        >>> builder.visit_header("Red", "Li")
        >>> builder.visit_header("Termination", "resignation")
        >>> builder.visit_result("0-1")
        >>> builder.result().tags, builder.result().termination
        ({'Red': 'Li'}, <Termination.RESIGNATION: 'resignation'>)
        """
        # Rules, RuleOption and FEN come back as the start board; the result at the end.
        if name == "Termination":
            self.termination = Termination(value)
        elif name not in STRUCTURED_TAGS:
            self.tags.setdefault(name, value)

    def visit_board(self, board: Board) -> None:
        """Take the start position and the rule set from ``board`` (a copy without history).

        >>> builder = GameBuilder()
        >>> builder.begin_game()
        >>> builder.visit_board(Board("7/3L3/7/7/7/7/7/7/r6 w", rules="classic"))
        >>> record = builder.result()
        >>> record.start_fen, record.rules.name
        ('7/3L3/7/7/7/7/7/7/r6 w 0 1', 'classic')
        """
        self.start = board.copy(stack=False)  # the rules and the start position

    def visit_move(self, board: Board, move: Move) -> None:
        """Add ``move`` (played from ``board``) to the line being built.

        >>> builder = GameBuilder()
        >>> builder.begin_game()
        >>> builder.visit_move(Board(), Move.from_str("a3a4"))
        >>> builder.result().moves
        [Move.from_str('a3a4')]
        """
        self.lines[-1].moves.append(move)

    def visit_comment(self, comment: str) -> None:
        """Comment the last move of the line being built (before its first move: the start);
        a second comment there is joined to the first with a space.

        >>> builder = GameBuilder()
        >>> builder.begin_game()
        >>> builder.visit_comment("a quiet game")
        >>> builder.visit_move(Board(), Move.from_str("a3a4"))
        >>> builder.visit_comment("up the bridge")
        >>> builder.visit_comment("as usual")
        >>> builder.result().comments
        {0: 'a quiet game', 1: 'up the bridge as usual'}
        """
        line = self.lines[-1]
        ply = len(line.moves)
        line.comments[ply] = f"{line.comments[ply]} {comment}" if ply in line.comments else comment

    def visit_nag(self, nag: int) -> None:
        """Add a NAG to the last move of the line being built.

        >>> builder = GameBuilder()
        >>> builder.begin_game()
        >>> builder.visit_move(Board(), Move.from_str("a3a4"))
        >>> builder.visit_nag(1)
        >>> builder.visit_nag(10)
        >>> builder.result().nags
        {1: {1, 10}}
        """
        line = self.lines[-1]
        line.nags.setdefault(len(line.moves), set()).add(nag)

    def begin_variation(self) -> None:
        """Open a side line replacing the last move; the next moves go into it.

        >>> builder = GameBuilder()
        >>> builder.begin_game()
        >>> builder.visit_move(Board(), Move.from_str("a3a4"))
        >>> builder.begin_variation()
        >>> builder.visit_move(Board(), Move.from_str("g3g4"))
        >>> builder.end_variation()
        >>> builder.result().variations
        {1: [Variation(moves=[Move.from_str('g3g4')], comments={}, nags={}, variations={})]}
        """
        parent = self.lines[-1]
        side = Variation()
        parent.variations.setdefault(len(parent.moves), []).append(side)
        self.lines.append(side)

    def end_variation(self) -> None:
        """Close the side line: the next moves go on the line it branched from.

        >>> builder = GameBuilder()
        >>> builder.begin_game()
        >>> builder.visit_move(Board(), Move.from_str("a3a4"))
        >>> builder.begin_variation()
        >>> builder.visit_move(Board(), Move.from_str("g3g4"))
        >>> builder.end_variation()
        >>> builder.visit_move(Board(), Move.from_str("a7a6"))  # the main line again
        >>> builder.result().moves
        [Move.from_str('a3a4'), Move.from_str('a7a6')]
        """
        self.lines.pop()

    def visit_result(self, result: str) -> None:
        """Keep the result token (``1-0``, ``0-1``, ``1/2-1/2`` or ``*``).

        >>> builder = GameBuilder()
        >>> builder.begin_game()
        >>> builder.visit_result("1/2-1/2")
        >>> builder.result().result
        '1/2-1/2'
        """
        self.game_result = result

    def result(self) -> GameRecord:
        """The :class:`~doushouqi.jungle.record.model.GameRecord` built from the visits.

        >>> builder = GameBuilder()
        >>> builder.begin_game()
        >>> builder.visit_header("Event", "Club night")
        >>> builder.visit_move(Board(), Move.from_str("a3a4"))
        >>> record = builder.result()
        >>> record.tags, record.moves, record.board().ply()
        ({'Event': 'Club night'}, [Move.from_str('a3a4')], 1)
        """
        main = self.lines[0]
        return GameRecord(
            self.tags,
            self.start.fen(),
            self.start.rules,
            main.moves,
            main.comments,
            self.game_result,
            self.termination,
            main.nags,
            main.variations,
        )


def visit_moves(record: GameRecord, visitor: BaseVisitor[object]) -> None:
    """Walk the record's start position, moves, comments, NAGs and side lines (in the order
    they are written) into ``visitor``; the result is for the caller to visit.

    >>> from doushouqi.core.record_visitor import BaseVisitor
    >>> from doushouqi.jungle.record import read_record
    >>> class Printer(BaseVisitor[None]):
    ...     def visit_move(self, board, move):
    ...         print(board.san(move), end=" ")
    ...     def begin_variation(self):
    ...         print("(", end=" ")
    ...     def end_variation(self):
    ...         print(")", end=" ")
    ...     def result(self):
    ...         return None
    >>> visit_moves(read_record("a3a4 (g3g4 a7a6) a7a6 *"), Printer())
    Ea4 ( Rg4 Ra6 ) Ra6
    """
    board = Board(record.start_fen, record.rules)
    visitor.visit_board(board)
    _visit_line(record.main_line(), board, visitor)


def _visit_line(line: Variation, board: Board, visitor: BaseVisitor[object]) -> None:
    if 0 in line.comments:
        visitor.visit_comment(line.comments[0])
    for ply, move in enumerate(line.moves, 1):
        visitor.visit_move(board, move)
        board.push(move)
        for nag in sorted(line.nags.get(ply, ())):
            visitor.visit_nag(nag)
        if ply in line.comments:
            visitor.visit_comment(line.comments[ply])
        for side in line.variations.get(ply, ()):
            if visitor.begin_variation() is SKIP:
                continue
            board.pop()  # a side line replaces the move just played
            _visit_line(side, board, visitor)
            for _ in side.moves:
                board.pop()
            board.push(move)
            visitor.end_variation()
