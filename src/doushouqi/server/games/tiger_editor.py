"""The Tiger's (老虎棋) position editor on the site: is a set-up position one the rules accept?

The analysis board sends the pieces on their points (``{"e10": "T", "d2": "M"}``) and the side
to move; the answer names what is wrong as codes the web client translates, or, for a valid
position, its position string, legal destinations and outcome (the shape of
:class:`~doushouqi.server.games.capabilities.PositionEditor`). What the rules refuse of a
set-up is what :meth:`doushouqi.tiger.board.Board.set_position` refuses: another number of
tigers than the rule set plays with (tigers are never taken, so a position without the set's
tigers never arises), or more men than it starts with. Both are answers (``valid: false``); an
unknown point or letter is no position at all, refused with a code.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from doushouqi.core.game import PositionError
from doushouqi.server.games.capabilities import PositionEditor
from doushouqi.server.infra.refused import Refused
from doushouqi.tiger.board import Board
from doushouqi.tiger.fen import EMPTY, MAN, TIGER, parse_position, write_position
from doushouqi.tiger.game import legal_destinations
from doushouqi.tiger.points import NUM_POINTS, parse_point
from doushouqi.tiger.rules import RuleSet

__all__ = ["EDITOR", "check_setup", "problems_of"]

_CODES = {"T": TIGER, "M": MAN}


def _pieces(pieces: Mapping[str, str]) -> list[int]:
    codes = [EMPTY] * NUM_POINTS
    for name, letter in pieces.items():
        try:
            point = parse_point(name)
        except ValueError:
            raise Refused("editor.bad_square", f"no point {name[:8]!r}") from None
        code = _CODES.get(letter)
        if code is None:
            raise Refused("editor.bad_piece", f"no piece {letter[:8]!r} (T a tiger, M a man)")
        codes[point] = code
    return codes


def problems_of(rules: RuleSet, pieces: list[int]) -> list[str]:
    """What the rule set refuses of the pieces, as codes: ``tiger_count`` (not the set's number
    of tigers) and ``too_many_men`` (more men than it starts with).

    >>> from doushouqi.tiger.rules import rules_by_name
    >>> problems_of(rules_by_name("laohuqi"), [EMPTY] * 87)
    ['tiger_count']
    >>> problems_of(rules_by_name("laohuqi"), [TIGER] + [MAN] * 13 + [EMPTY] * 73)
    ['too_many_men']
    """
    problems = []
    if pieces.count(TIGER) != rules.tigers:
        problems.append("tiger_count")
    if pieces.count(MAN) > rules.men:
        problems.append("too_many_men")
    return problems


def check_setup(
    rules: RuleSet, pieces: Mapping[str, str], seat: int, fen: str | None
) -> dict[str, Any]:
    """What is wrong with a set-up position (point name → ``T`` or ``M``; ``seat`` to move: 0
    the tiger side, 1 the men), or with the position string ``fen`` when given, or what a board
    needs to play from it."""
    if fen is not None:
        try:
            codes, turn, halfmove, number = parse_position(fen)
        except PositionError as exc:
            raise Refused("position.bad", str(exc)) from None
    else:
        codes, turn, halfmove, number = _pieces(pieces), seat, 0, 1
    problems = problems_of(rules, codes)
    answer: dict[str, Any] = {"valid": not problems, "problems": problems}
    if problems:
        return {**answer, "fen": None, "turn": turn, "dests": {}, "outcome": None}
    try:
        board = Board(write_position(codes, turn, halfmove, number), rules)
    except PositionError as exc:  # what problems_of missed: still the input's fault
        raise Refused("position.bad", str(exc)) from None
    outcome = board.outcome()
    return {
        **answer,
        "fen": board.position_string(),
        "turn": board.turn,
        "dests": {} if outcome is not None else legal_destinations(board),
        "outcome": None
        if outcome is None
        else {"result": outcome.result(), "termination": outcome.key},
    }


#: The Tiger's position editor, as the registry lists it.
EDITOR = PositionEditor(check=check_setup)
