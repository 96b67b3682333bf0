"""The analysis board's position editor: is a set-up position one the rules accept?

``POST /api/positions/check`` takes the animals on their squares and the side to move (or a
position string) and answers with what is wrong as codes (the :class:`Status` flags of
doushouqi/jungle/status.py, lower case: ``duplicate_animal``, ``animal_in_water`` …) that the web
client translates, or, for a valid position, its position string, legal destinations and
outcome. A position the rules reject is an answer (``valid: false``), not an error; input
that is no position at all (an unknown square or letter) is a 422 with a code.
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter
from pydantic import BaseModel, Field

from doushouqi.jungle.board import Board
from doushouqi.jungle.fen import InvalidFenError, parse_fen, placement_fen
from doushouqi.jungle.game import legal_destinations
from doushouqi.jungle.squares import ANIMAL_LETTERS, parse_square, piece_code
from doushouqi.jungle.status import Status, position_status
from doushouqi.server.games.choices import chosen_rules
from doushouqi.server.infra.errors import Problem

router = APIRouter(prefix="/api", tags=["analysis"])


class PositionSetup(BaseModel):
    rules: str | dict[str, Any] = Field(default="wango")
    #: Square name → piece letter (upper case Red, lower case Blue: ``{"a1": "L"}``).
    pieces: dict[str, str] | None = Field(default=None, max_length=63)
    turn: Literal["red", "blue"] = "red"
    #: Instead of ``pieces`` and ``turn``: a position string.
    fen: str | None = Field(default=None, max_length=200)


def _codes(pieces: dict[str, str]) -> list[int]:
    codes = [0] * 63
    for name, letter in pieces.items():
        try:
            square = parse_square(name)
        except ValueError:
            raise Problem(422, "editor.bad_square", f"no square {name[:8]!r}") from None
        animal = ANIMAL_LETTERS.find(letter.upper()) if len(letter) == 1 else -1
        if animal < 1:
            raise Problem(422, "editor.bad_piece", f"no animal {letter[:8]!r}") from None
        codes[square] = piece_code(0 if letter.isupper() else 1, animal)
    return codes


def problem_codes(status: Status) -> list[str]:
    """The flags of ``status`` as codes, in the order status.py declares them."""
    return [flag.name.lower() for flag in Status if flag and flag in status and flag.name]


@router.post("/positions/check")
async def check_position(setup: PositionSetup) -> dict[str, Any]:
    """What is wrong with a set-up position, or what a board needs to play from it."""
    rules = chosen_rules(setup.rules)
    if setup.fen is not None:
        try:
            codes, turn, halfmove, fullmove = parse_fen(setup.fen)
        except InvalidFenError as exc:  # the editor sends ``pieces``: a string is checked whole
            raise Problem(422, "position.bad", str(exc)) from None
    else:
        codes, turn, halfmove, fullmove = (
            _codes(setup.pieces or {}),
            int(setup.turn == "blue"),
            0,
            1,
        )
    status = position_status(codes, turn, halfmove, fullmove)
    answer: dict[str, Any] = {"valid": status == Status.VALID, "problems": problem_codes(status)}
    if status != Status.VALID:
        return {**answer, "fen": None, "turn": turn, "dests": {}, "outcome": None}
    fen = f"{placement_fen(codes)} {'b' if turn else 'w'} {halfmove} {fullmove}"
    try:
        board = Board(fen, rules)
    except ValueError as exc:
        raise Problem(422, "position.bad", str(exc)) from None
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
