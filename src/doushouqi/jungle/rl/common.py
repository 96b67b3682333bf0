"""What the Gymnasium, PettingZoo and OpenSpiel versions of Jungle share (standard library only).

- :data:`DEFAULT_MAX_PLIES` — the default move limit of every environment;
- :func:`outcome_info` — an :class:`~doushouqi.Outcome` as plain, JSON-able data;
- :func:`rewards_by_name` — each side's final reward, keyed ``"red"`` / ``"blue"``;
- :func:`board_text` — the ``ansi`` rendering of a position.

>>> from doushouqi import Outcome, Termination
>>> outcome_info(Outcome(Termination.DEN_ENTERED, 1))
{'termination': 'den_entered', 'winner': 'blue', 'result': '0-1'}
>>> rewards_by_name(Outcome(Termination.DEN_ENTERED, 1))
{'red': -1.0, 'blue': 1.0}
>>> rewards_by_name(None)
{'red': 0.0, 'blue': 0.0}
"""

from __future__ import annotations

from doushouqi.jungle.board import Board
from doushouqi.jungle.outcome import Outcome
from doushouqi.jungle.squares import COLOR_NAMES, FILE_NAMES, RED

__all__ = [
    "AGENT_NAMES",
    "DEFAULT_MAX_PLIES",
    "OutcomeInfo",
    "board_text",
    "outcome_info",
    "reward_by_color",
    "rewards_by_name",
]

#: The default move limit, in plies, of the three environments. Uniformly random games of the
#: built-in rule sets last about 350 plies (the median of 60 games of each), and 97–100 % of
#: them end on the board within 1000; real games end far sooner. The limit only makes sure that
#: every episode ends. Pass ``max_plies=None`` for no limit.
DEFAULT_MAX_PLIES = 1000

#: The agents (players) by colour index: 0 = Red, 1 = Blue.
AGENT_NAMES: tuple[str, str] = (COLOR_NAMES[0], COLOR_NAMES[1])

#: ``outcome_info``'s result: ``termination`` (a :class:`~doushouqi.Termination` value),
#: ``winner`` ("red", "blue" or None for a draw) and ``result`` ("1-0", "0-1", "1/2-1/2").
OutcomeInfo = dict[str, str | None]


def outcome_info(outcome: Outcome) -> OutcomeInfo:
    """The outcome as plain data (strings and None): safe to log, compare or ``json.dumps``."""
    return {
        "termination": outcome.termination.value,
        "winner": None if outcome.winner is None else COLOR_NAMES[outcome.winner],
        "result": outcome.result(),
    }


def reward_by_color(outcome: Outcome | None) -> tuple[float, float]:
    """Red's and Blue's final reward: +1 to the winner, -1 to the loser, 0 each in a draw (or
    while there is no outcome: a truncated game)."""
    if outcome is None or outcome.winner is None:
        return (0.0, 0.0)
    return (1.0, -1.0) if outcome.winner == RED else (-1.0, 1.0)


def rewards_by_name(outcome: Outcome | None) -> dict[str, float]:
    """:func:`reward_by_color` keyed by agent name: ``{"red": …, "blue": …}``."""
    red, blue = reward_by_color(outcome)
    return {AGENT_NAMES[0]: red, AGENT_NAMES[1]: blue}


def board_text(board: Board, outcome: Outcome | None = None) -> str:
    """The board as text (rank 9 at the top, ``~`` water), then whose turn it is or how the
    game ended, and the last move."""
    rows = str(board).splitlines()
    lines = [f"{9 - index} {row}" for index, row in enumerate(rows)]
    lines.append("  " + " ".join(FILE_NAMES))
    if outcome is not None:
        lines.append(f"game over: {outcome.result()} ({outcome.termination.value})")
    else:
        lines.append(f"{COLOR_NAMES[board.turn]} to move, ply {board.ply()}")
    if board.move_stack:
        lines.append(f"last move: {board.peek()}")
    return "\n".join(lines) + "\n"
