"""What the Gymnasium, PettingZoo and OpenSpiel versions of 老虎棋 share (standard library only).

- :data:`AGENT_NAMES` — the seats as agents: ``"tiger"`` (seat 0) and ``"men"`` (seat 1);
- :data:`DEFAULT_MAX_PLIES` — the default move limit of every environment;
- :func:`find_rules` — a rule set from a name or a :class:`~doushouqi.tiger.rules.RuleSet`;
- :func:`outcome_info` — an :class:`~doushouqi.core.outcome.Outcome` as plain, JSON-able data;
- :func:`reward_by_seat` / :func:`rewards_by_name` — each side's final reward;
- :func:`chain_pieces` — the pieces with an open multi-jump chain's jumps made;
- :func:`board_text` — the ``ansi`` rendering of a position (with an open jump chain).

>>> from doushouqi.core.outcome import BoardEnding, Outcome
>>> outcome_info(Outcome(BoardEnding("tiger_trapped"), 1))
{'termination': 'tiger_trapped', 'winner': 'men', 'result': '0-1'}
>>> rewards_by_name(Outcome(BoardEnding("men_captured"), 0))
{'tiger': 1.0, 'men': -1.0}
>>> rewards_by_name(None)
{'tiger': 0.0, 'men': 0.0}
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from doushouqi.core.outcome import Outcome
from doushouqi.tiger.board import Board
from doushouqi.tiger.fen import EMPTY, TIGER
from doushouqi.tiger.moves import Move
from doushouqi.tiger.points import BETWEEN, FILE_NAMES, point_at
from doushouqi.tiger.rules import TIGER_SIDE, RuleSet, rules_by_name

__all__ = [
    "AGENT_NAMES",
    "DEFAULT_MAX_PLIES",
    "OutcomeInfo",
    "board_text",
    "chain_pieces",
    "find_rules",
    "outcome_info",
    "reward_by_seat",
    "rewards_by_name",
]

#: The default move limit, in plies (whole moves), of the three environments. Uniformly random
#: games of the named rule sets last 260-740 plies (the median of 60 games of each), and
#: 75-100 % of them end on the board within 1000, all 240 within 1800: the limit only makes
#: sure that every episode ends. Pass ``max_plies=None`` for no limit (Gymnasium, PettingZoo).
DEFAULT_MAX_PLIES = 2000

#: The agents (players) by seat: 0 = the tiger side, 1 = the men's side.
AGENT_NAMES: tuple[str, str] = ("tiger", "men")

#: ``outcome_info``'s result: ``termination`` (a board ending's key), ``winner`` ("tiger",
#: "men" or None for a draw) and ``result`` ("1-0", "0-1", "1/2-1/2").
OutcomeInfo = dict[str, str | None]


def find_rules(rules: str | RuleSet) -> RuleSet:
    """A named rule set (:func:`~doushouqi.tiger.rules.rules_by_name`) or the one given."""
    return rules if isinstance(rules, RuleSet) else rules_by_name(rules)


def outcome_info(outcome: Outcome) -> OutcomeInfo:
    """The outcome as plain data (strings and None): safe to log, compare or ``json.dumps``."""
    return {
        "termination": outcome.key,
        "winner": None if outcome.winner is None else AGENT_NAMES[outcome.winner],
        "result": outcome.result(),
    }


def reward_by_seat(outcome: Outcome | None) -> tuple[float, float]:
    """The tiger side's and the men's final reward: +1 to the winner, -1 to the loser, 0 each
    in a draw (or while there is no outcome: a truncated game)."""
    if outcome is None or outcome.winner is None:
        return (0.0, 0.0)
    return (1.0, -1.0) if outcome.winner == TIGER_SIDE else (-1.0, 1.0)


def rewards_by_name(outcome: Outcome | None) -> dict[str, float]:
    """:func:`reward_by_seat` keyed by agent name: ``{"tiger": …, "men": …}``."""
    tiger, men = reward_by_seat(outcome)
    return {AGENT_NAMES[0]: tiger, AGENT_NAMES[1]: men}


def chain_pieces(board: Board, chain: Sequence[int]) -> list[int]:
    """What stands on each point once the jumps of an open chain (its points from the start;
    empty: none open) are made: the tiger on its last landing point, the men it jumped gone."""
    pieces = board.pieces()
    if len(chain) >= 2:
        pieces[chain[0]] = EMPTY
        for segment in pairwise(chain):
            pieces[BETWEEN[segment]] = EMPTY
        pieces[chain[-1]] = TIGER
    return pieces


def board_text(board: Board, outcome: Outcome | None = None, chain: Sequence[int] = ()) -> str:
    """The board as text (rank 11 at the top, ``T`` tigers, ``M`` men, ``.`` empty points),
    with an open jump chain's jumps made, then how the game stands and the last move.

    >>> print(board_text(Board()))
    11       . . .
    10       . T .
     9 . . . . . . . . .
     8 . . . . . . . . .
     7 . . . . . . . . .
     6 . . . . . . . . .
     5 . . . . . . . . .
     4 . . . . . . . . .
     3 . . . . . . . . .
     2 . . . M M M . . .
     1 M M M M M M M M M
       a b c d e f g h i
    tiger to move, ply 0
    <BLANKLINE>
    """
    shown = chain_pieces(board, chain)
    lines = []
    for rank in range(11, 0, -1):
        cells = []
        for file in range(len(FILE_NAMES)):
            point = point_at(file, rank)
            cells.append(" " if point is None else ".TM"[shown[point]])
        lines.append(f"{rank:>2} " + " ".join(cells).rstrip())
    lines.append("   " + " ".join(FILE_NAMES))
    if outcome is not None:
        lines.append(f"game over: {outcome.result()} ({outcome.key})")
    else:
        lines.append(f"{AGENT_NAMES[board.turn]} to move, ply {board.ply()}")
    if chain:
        lines.append(f"jump chain open: {Move(tuple(chain))} (jump on or stop)")
    if board.move_stack:
        lines.append(f"last move: {board.peek()}")
    return "\n".join(lines) + "\n"
