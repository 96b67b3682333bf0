"""``doushouqi engine --game tiger``: the 老虎棋 engine over stdin/stdout, in the UCI-like
protocol of Jungle's engine (docs/engine.md) with this game's moves and rules.

Commands (one a line; every answer line is flushed at once):

* ``uci`` → ``id name``, ``id author``, one ``option`` line per option, ``uciok``;
* ``isready`` → ``readyok`` once the compiled code is loaded (imported in a background thread
  started at launch, so ``uci`` is answered at once);
* ``setoption name <name> [value <value>]``: ``Rules`` (a named rule set), ``Level`` (1-10),
  ``Hash`` (MB), ``Contempt`` (centipawns), ``MultiPV`` (1-64), ``Ponder`` (accepted), and one
  option per rule field (``multi_jump``, ``diagonals`` …, on top of the rule set in use);
* ``ucinewgame``; ``position startpos|fen <position string> [moves m1 m2 …]`` (``0000`` is a
  timeout's pass), checked with the rules library: a bad position or move leaves the old
  one in place;
* ``go [depth N] [nodes N] [movetime MS] [wtime MS] [btime MS] [winc MS] [binc MS]
  [movestogo N] [mate N] [searchmoves M …] [infinite] [ponder]`` (``wtime`` is seat 0's
  clock, the tiger side's; ``btime`` the men's), read and checked as Jungle's engine reads it
  (:mod:`doushouqi.core.go_command`: a ``go`` with an error in it starts nothing; ``depth 0``
  and ``nodes 0`` are the one-ply search; ``mate N`` stops once a win in N own moves is
  proven; ``searchmoves`` searches only those legal moves) → ``info …`` after each depth
  (``multipv`` 1 … N with MultiPV N, best score first), a last ``info`` for the move played,
  and ``bestmove <move> [ponder <reply>]`` (``bestmove 0000`` when the game is over); ``stop``,
  ``ponderhit``, ``isready`` and ``quit`` are answered while it thinks;
* ``perft N [divide]`` (the compiled move generator's counts), ``d`` (board and position
  string), ``quit``. The end of the input is a ``quit`` that first lets a running search
  finish when it ends by itself (``printf 'position startpos\\ngo depth 8\\n' | doushouqi
  engine --game tiger`` prints the whole search), as Jungle's engine does; an infinite or
  pondering one is stopped.

Scores are ``cp N`` or ``mate N`` (moves of the side to move to a win; negative: to a loss).
Anything malformed is answered with ``info string error …`` (repeating at most 80 characters
of any word it got) and the engine carries on.

The loop, the loader thread and the commands every engine has are
:class:`doushouqi.compiled.protocol_loop.EngineLoop`'s (Jungle's engine runs on it too); this
module adds the 老虎棋 board, rules and rule options, and its ``perft``.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, TextIO

from doushouqi.compiled.protocol_loop import EngineLoop
from doushouqi.core.analysis import Score
from doushouqi.core.go_command import check_root_moves, read_go
from doushouqi.tiger.ai.levels import MAX_LEVEL, MIN_LEVEL, settings_for
from doushouqi.tiger.analysis import Limit
from doushouqi.tiger.board import Board
from doushouqi.tiger.engine.protocol import RULE_OPTIONS, rule_option_line, with_rule_option
from doushouqi.tiger.moves import Move, MoveError
from doushouqi.tiger.rules import BUILTIN_RULE_SETS, RuleSet, rules_by_name

if TYPE_CHECKING:  # imported in the loader thread: importing it loads the compiled code
    from doushouqi.tiger.ai.search_driver import Searcher

__all__ = ["EngineProtocol", "parse_go", "run_protocol"]

#: ``search_driver.DEFAULT_TUNING["contempt"]``, repeated here so that the handshake needs no
#: compiled module (a test checks that they agree).
DEFAULT_CONTEMPT = 40
#: Deepest ``perft`` (counted at once, not in a thread: 12 plies take seconds).
MAX_PERFT_DEPTH = 12


class EngineProtocol(EngineLoop[Board, RuleSet, "Searcher"]):
    """One protocol session: reads command lines, writes answers to ``out``."""

    ENGINE_NAME = "doushouqi-tiger"
    MIN_LEVEL = MIN_LEVEL
    MAX_LEVEL = MAX_LEVEL
    DEFAULT_CONTEMPT = DEFAULT_CONTEMPT
    INFO_COUNTS = ("nodes", "nps", "hashfull")

    def __init__(self, out: TextIO | None = None, engine: Searcher | None = None) -> None:
        super().__init__(out, engine, rules_by_name("laohuqi"))

    def _new_engine(self) -> Searcher:
        from doushouqi.tiger.ai.search_driver import Searcher

        return Searcher(self.rules, hash_mb=self.hash_mb)

    def _new_board(self, fen: str | None) -> Board:
        return Board(fen, self.rules)

    def _rules_named(self, name: str) -> RuleSet:
        return rules_by_name(name)

    def _rule_set_names(self) -> Iterable[str]:
        return BUILTIN_RULE_SETS

    def _rule_option_lines(self) -> Iterable[str]:
        return (rule_option_line(field, self.rules) for field in RULE_OPTIONS)

    def _set_own_option(self, key: str, value: str) -> bool:
        if key not in RULE_OPTIONS:
            return False
        self._set_rules(with_rule_option(self.rules, key, value))
        return True

    def _read_go(
        self, args: list[str], board: Board
    ) -> tuple[Limit, bool, tuple[Move, ...] | None]:
        return parse_go(args, board)

    def _time_share(self, level: int) -> float:
        return settings_for(level).time_share

    def _score_text(self, score: Score) -> str:
        return str(score)

    def _position_text(self, board: Board) -> str:
        return board.position_string()

    def _perft(self, args: list[str]) -> None:
        depth, divide = self._perft_request(args, MAX_PERFT_DEPTH)
        self._wait_warm()
        from doushouqi.tiger.ai.core import Position

        position = Position.from_board(self._position_board())
        if divide:
            counts = position.perft_divide(depth)
            for move, count in counts.items():
                self.send(f"{move}: {count}")
            self.send(str(sum(counts.values())))
        else:
            self.send(str(position.perft(depth)))


def parse_go(args: list[str], board: Board) -> tuple[Limit, bool, tuple[Move, ...] | None]:
    """The search ``go`` with the words ``args`` asks for in ``board``: its limit, whether it
    ponders, and the only root moves it may play (None: all); ValueError when anything in it
    is wrong (:func:`doushouqi.core.go_command.read_go`) or a ``searchmoves`` move is not
    legal in ``board``.

    >>> limit, ponder, moves = parse_go("depth 3 searchmoves e10e9 e10d10".split(), Board())
    >>> limit.depth, ponder, [str(move) for move in moves or ()]
    (3, False, ['e10e9', 'e10d10'])
    >>> parse_go("mate 2 searchmoves e10e8".split(), Board())
    Traceback (most recent call last):
    ValueError: searchmoves: not legal in this position: e10e8
    """
    command = read_go(args)
    root_moves = None
    if command.searchmoves is not None:
        root_moves = check_root_moves(command.searchmoves, lambda text: _legal_move(board, text))
    return command.limit(Limit), command.ponder, root_moves


def _legal_move(board: Board, text: str) -> Move | None:
    """The move ``text`` if it is legal in ``board`` (a pass is no root move)."""
    try:
        move = Move.from_str(text)
    except MoveError:
        return None
    return move if move and board.outcome() is None and board.is_legal(move) else None


def run_protocol(stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Run a session on stdin/stdout (``doushouqi engine --game tiger``)."""
    source = stdin if stdin is not None else sys.stdin
    return EngineProtocol(stdout).run(iter(source.readline, ""))
