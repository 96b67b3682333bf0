"""Check the Tiger's tables against the rules library, independently of the generator
(standard library only: slow, for a few thousand positions).

The generator (:mod:`doushouqi.tiger.ai.tablebase.kernels`) has its own move generation, its
own un-moves and its own index; nothing of it is used here. Two checks per position, both
with :class:`~doushouqi.tiger.board.Board`'s legal moves and endings:

* **one ply**: the value the table gives the position is the best of the values its legal
  moves lead to (the file read through :func:`~doushouqi.tiger.tablebase.probe.probe_moves`,
  the pure-Python index): the fastest win, else a draw, else the longest defence;
* **search**: a forward proof search to ``depth`` plies finds a win or loss exactly when the
  table has one within that horizon, at the same distance, and none when the table says draw
  or a longer distance.

>>> from doushouqi.tiger.board import Board
>>> report = CheckReport()
>>> check_position(Board("3/3/9/9/9/9/9/9/M8/1M7/TMM6 m"), 3, report)
>>> report.positions, report.disagreements
(1, [])
"""

from __future__ import annotations

import dataclasses
import random
import re
from array import array
from collections.abc import Iterable, Sequence
from pathlib import Path

from doushouqi.core.tablebase_file import NO_POSITION
from doushouqi.tiger.board import Board
from doushouqi.tiger.fen import write_position
from doushouqi.tiger.points import NUM_POINTS
from doushouqi.tiger.rules import RuleSet
from doushouqi.tiger.tablebase.file_format import family_name, half_size, position_of
from doushouqi.tiger.tablebase.probe import Probe, load_table, probe, probe_moves

__all__ = ["CheckReport", "check_position", "check_positions", "loses_within", "wins_within"]

TIGER, MAN = 1, 2


@dataclasses.dataclass
class CheckReport:
    """What :func:`check_positions` found: the positions, the results of the table for the
    side to move, how many the search decided, and every disagreement (a line each).

    >>> CheckReport().positions, CheckReport().disagreements
    (0, [])
    """

    positions: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    search_decided: int = 0
    disagreements: list[str] = dataclasses.field(default_factory=list)


def _ends(board: Board) -> bool:
    """Whether the side to move has lost on the board: too few men, or no move."""
    return board.is_game_over_on_board() or not board.has_legal_move()


def wins_within(board: Board, plies: int) -> bool:
    """Whether the side to move can force the end of the game, won, within ``plies``.

    >>> board = Board("3/3/9/9/9/9/9/9/M8/1M7/TMM6 m")  # b2a2 hems the tiger in
    >>> wins_within(board, 1), wins_within(board, 0)
    (True, False)
    """
    if plies <= 0 or _ends(board):
        return False
    for move in list(board.generate_legal_moves()):
        board.push(move)
        try:
            if loses_within(board, plies - 1):
                return True
        finally:
            board.pop()
    return False


def loses_within(board: Board, plies: int) -> bool:
    """Whether the side to move loses within ``plies`` against the best defence... of the
    other side: every move it has leads to a win of the other within ``plies - 1``.

    >>> board = Board("3/3/9/9/9/9/9/9/M8/1M7/TMM6 m")
    >>> board.push(board.parse_move("b2a2"))  # the tiger hemmed in: lost now
    >>> loses_within(board, 0), loses_within(Board("3/1T1/9/9/9/9/9/9/9/9/MMMM5 t"), 4)
    (True, False)
    """
    if _ends(board):
        return True
    if plies <= 0:
        return False
    for move in list(board.generate_legal_moves()):
        board.push(move)
        try:
            if not wins_within(board, plies - 1):
                return False
        finally:
            board.pop()
    return True


def _searched(board: Board, depth: int) -> Probe | None:
    """The exact value when decided within ``depth`` plies, else None."""
    for plies in range(depth + 1):
        if plies % 2 == 1 and wins_within(board, plies):
            return Probe(1, plies)
        if plies % 2 == 0 and loses_within(board, plies):
            return Probe(-1, plies)
    return None


def check_position(
    board: Board, depth: int, report: CheckReport, directories: Sequence[Path] | None = None
) -> None:
    """Check one covered position (both checks of the module docstring) into ``report``;
    tables from ``directories`` (by default the reader's).

    >>> report = CheckReport()
    >>> check_position(Board("3/1T1/9/9/9/9/9/9/9/9/MMMM5 t"), 2, report)
    >>> report.draws, report.disagreements
    (1, [])
    """
    entry = probe(board, directories)
    if entry is None:
        report.disagreements.append(f"{board.position_string()}: not covered")
        return
    report.positions += 1
    if entry.wdl > 0:
        report.wins += 1
    elif entry.wdl < 0:
        report.losses += 1
    else:
        report.draws += 1
    text = board.position_string()
    values = probe_moves(board, directories)
    if values is None:
        report.disagreements.append(f"{text}: a move leads out of the tables")
        return
    best = values[0].value if values else Probe(-1, 0)
    if best != entry:
        report.disagreements.append(f"{text}: table {entry}, its moves say {best}")
    searched = _searched(board, depth)
    within = entry.dtm is not None and entry.dtm <= depth
    expected = entry if within else None
    if searched is not None:
        report.search_decided += 1
    if searched != expected:
        report.disagreements.append(
            f"{text}: table {entry}, a search to {depth} plies says {searched}"
        )


def check_positions(
    boards: Iterable[Board],
    depth: int,
    report: CheckReport,
    directories: Sequence[Path] | None = None,
) -> CheckReport:
    """Check every board into ``report``; returns it.

    >>> boards = [Board("3/3/9/9/9/9/9/9/M8/1M7/TMM6 m"), Board("3/1T1/9/9/9/9/9/9/9/9/MMMM5 t")]
    >>> found = check_positions(boards, 2, CheckReport())
    >>> found.wins, found.draws, found.disagreements
    (1, 1, [])
    """
    for board in boards:
        check_position(board, depth, report, directories)
    return report


def board_at(rules: RuleSet, side: int, tiger: int, men: Iterable[int]) -> Board:
    """The board with the tiger on ``tiger``, men on ``men``, ``side`` to move."""
    pieces = [0] * NUM_POINTS
    pieces[tiger] = TIGER
    for point in men:
        pieces[point] = MAN
    return Board(write_position(pieces, side, 0, 1), rules)


def random_board(rng: random.Random, rules: RuleSet, men: int) -> Board:
    """A uniformly random position of the tiger against ``men`` men (either side to move, the
    tiger anywhere: the mirror is the reader's to fold)."""
    points = rng.sample(range(NUM_POINTS), men + 1)
    return board_at(rules, rng.randrange(2), points[0], points[1:])


def decided_boards(
    rng: random.Random,
    rules: RuleSet,
    men: int,
    count: int,
    shortest: int = 2,
    directories: Sequence[Path] | None = None,
) -> list[Board]:
    """Positions a uniform draw seldom meets: every position the men to move win (few), then
    up to ``count`` random ones won or lost at a distance of at least ``shortest`` plies."""
    table = load_table(family_name(rules), men, directories)
    if table is None:
        return []
    half = half_size(men)
    # Value bytes (see doushouqi.core.tablebase_file), found a block at a time at C speed: a
    # win is an even byte from 2 up, a distance of at least ``shortest`` a byte above it.
    win = re.compile(b"[" + re.escape(bytes(range(2, NO_POSITION, 2))) + b"]")
    far = re.compile(b"[" + re.escape(bytes(range(shortest + 1, NO_POSITION))) + b"]")
    men_wins: list[int] = []
    found = array("q")  # millions of entries: 8 bytes each, not a list's 36
    for start, values in table.blocks():
        skip = max(0, half - start)
        men_wins += [start + match.start() for match in win.finditer(values, skip)]
        found.extend(start + match.start() for match in far.finditer(values))
    chosen = rng.sample(found, min(count, len(found)))
    return [board_at(rules, *position_of(men, i)) for i in men_wins + chosen]
