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
    Subclass it to build a record and look at the moves on the way."""

    def begin_game(self) -> None:
        self.tags: dict[str, str] = {}
        self.termination: Termination | None = None
        self.start = Board()
        self.lines: list[Variation] = [Variation()]  # the main line, and the side lines open
        self.game_result = "*"

    def visit_header(self, name: str, value: str) -> None:
        # Rules, RuleOption and FEN come back as the start board; the result at the end.
        if name == "Termination":
            self.termination = Termination(value)
        elif name not in STRUCTURED_TAGS:
            self.tags.setdefault(name, value)

    def visit_board(self, board: Board) -> None:
        self.start = board.copy(stack=False)  # the rules and the start position

    def visit_move(self, board: Board, move: Move) -> None:
        self.lines[-1].moves.append(move)

    def visit_comment(self, comment: str) -> None:
        line = self.lines[-1]
        ply = len(line.moves)
        line.comments[ply] = f"{line.comments[ply]} {comment}" if ply in line.comments else comment

    def visit_nag(self, nag: int) -> None:
        line = self.lines[-1]
        line.nags.setdefault(len(line.moves), set()).add(nag)

    def begin_variation(self) -> None:
        parent = self.lines[-1]
        side = Variation()
        parent.variations.setdefault(len(parent.moves), []).append(side)
        self.lines.append(side)

    def end_variation(self) -> None:
        self.lines.pop()

    def visit_result(self, result: str) -> None:
        self.game_result = result

    def result(self) -> GameRecord:
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
    they are written) into ``visitor``; the result is for the caller to visit."""
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
