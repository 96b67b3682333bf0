"""Jungle's analysis board on the site: the position editor's check of a set-up position, and
the threat view of a position.

The editor answers what is wrong with a set-up as codes (the :class:`Status` flags of
doushouqi/jungle/status.py, lower case: ``duplicate_animal``, ``animal_in_water`` …) that the
web client translates, or, for a valid position, its position string, legal destinations and
outcome. A position the rules reject is an answer (``valid: false``), not an error; input that
is no position at all (an unknown square or letter) is refused with a code.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from doushouqi.core.game import Position
from doushouqi.jungle.board import Board
from doushouqi.jungle.fen import InvalidFenError, parse_fen, placement_fen
from doushouqi.jungle.game import legal_destinations
from doushouqi.jungle.rules import RuleSet
from doushouqi.jungle.squares import ANIMAL_LETTERS, DENS, parse_square, piece_code, square_name
from doushouqi.jungle.status import Status, position_status
from doushouqi.server.games.capabilities import PositionEditor
from doushouqi.server.games.jungle import board_of
from doushouqi.server.infra.refused import Refused

__all__ = ["EDITOR", "check_setup", "problem_codes", "threats"]


def _codes(pieces: Mapping[str, str]) -> list[int]:
    codes = [0] * 63
    for name, letter in pieces.items():
        try:
            square = parse_square(name)
        except ValueError:
            raise Refused("editor.bad_square", f"no square {name[:8]!r}") from None
        animal = ANIMAL_LETTERS.find(letter.upper()) if len(letter) == 1 else -1
        if animal < 1:
            raise Refused("editor.bad_piece", f"no animal {letter[:8]!r}") from None
        codes[square] = piece_code(0 if letter.isupper() else 1, animal)
    return codes


def problem_codes(status: Status) -> list[str]:
    """The flags of ``status`` as codes, in the order status.py declares them."""
    return [flag.name.lower() for flag in Status if flag and flag in status and flag.name]


def check_setup(
    rules: RuleSet, pieces: Mapping[str, str], seat: int, fen: str | None
) -> dict[str, Any]:
    """What is wrong with a set-up position (square name → piece letter, upper case Red,
    lower case Blue: ``{"a1": "L"}``; ``seat`` to move), or with the position string ``fen``
    when given, or what a board needs to play from it."""
    if fen is not None:
        try:
            codes, turn, halfmove, fullmove = parse_fen(fen)
        except InvalidFenError as exc:  # the editor sends ``pieces``: a string is checked whole
            raise Refused("position.bad", str(exc)) from None
    else:
        codes, turn, halfmove, fullmove = _codes(pieces), seat, 0, 1
    status = position_status(codes, turn, halfmove, fullmove)
    answer: dict[str, Any] = {"valid": status == Status.VALID, "problems": problem_codes(status)}
    if status != Status.VALID:
        return {**answer, "fen": None, "turn": turn, "dests": {}, "outcome": None}
    text = f"{placement_fen(codes)} {'b' if turn else 'w'} {halfmove} {fullmove}"
    try:
        board = Board(text, rules)
    except ValueError as exc:
        raise Refused("position.bad", str(exc)) from None
    outcome = board.outcome()
    return {
        **answer,
        "fen": board.fen(),
        "turn": board.turn,
        "dests": {} if outcome is not None else legal_destinations(board),
        "outcome": None
        if outcome is None
        else {"result": outcome.result(), "termination": outcome.termination.value},
    }


def threats(position: Position) -> dict[str, list[str]]:
    """For the side to move: its animals the opponent could capture (were it the opponent's
    move), and the opponent's animals one move from its den."""
    board = board_of(position)
    us, them = board.turn, 1 - board.turn
    attacked = [
        square_name(square)
        for square in range(63)
        if board.occupied_co[us] >> square & 1 and board.attackers(them, square)
    ]
    den = [square_name(square) for square in board.attackers(them, DENS[us])]
    return {"attacked": attacked, "den": den}


#: Jungle's position editor, as the registry lists it.
EDITOR = PositionEditor(check=check_setup)
