"""Why a move is illegal, in words: :meth:`doushouqi.jungle.board.Board.explain_illegal`.

The reasons follow the rules in the order a player meets them: the game is over, the pass,
whose animal, the move restrictions (违例), one's own den, the water, steps and jumps, captures.
The board is anything with :class:`doushouqi.jungle.board.Board`'s move generation
(:class:`LegalityBoard`); this module does not import the board, which calls it.

>>> from doushouqi.jungle.board import Board
>>> explain_illegal(Board(), Move.from_str("a3a5"))
'an animal moves one square forwards, backwards or sideways'
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Protocol

from doushouqi.jungle.moves import Move
from doushouqi.jungle.squares import (
    ANIMAL_NAMES,
    COLOR_NAMES,
    DENS,
    JUMPS,
    LION,
    RAT,
    STEPS,
    TIGER,
    TRAPS,
    WATER,
    code_animal,
    code_color,
    square_name,
)

if TYPE_CHECKING:
    from doushouqi.jungle.outcome import Outcome
    from doushouqi.jungle.rules import RuleSet

__all__ = ["explain_illegal"]


class LegalityBoard(Protocol):
    """What :func:`explain_illegal` reads of a
    board (:class:`doushouqi.jungle.board.Board` has it)."""

    rules: RuleSet
    turn: int
    _sq: list[int]

    def is_legal(self, move: Move) -> bool: ...
    def is_pseudo_legal(self, move: Move) -> bool: ...
    def generate_legal_moves(self) -> Iterator[Move]: ...
    def outcome(self) -> Outcome | None: ...
    def _targets(self, square: int, code: int) -> int: ...
    def _can_capture(
        self, attacker: int, from_square: int, defender: int, to_square: int
    ) -> bool: ...


def explain_illegal(board: LegalityBoard, move: Move, *, allow_pass: bool = False) -> str | None:
    """Why ``move`` is illegal on ``board``, in words, or None when it is legal (see
    :meth:`doushouqi.jungle.board.Board.explain_illegal` for the pass and ``allow_pass``)."""
    if move and board.is_legal(move):
        return None
    if not move and allow_pass and any(True for _ in board.generate_legal_moves()):
        return None
    outcome = board.outcome()
    if outcome is not None:
        return f"the game is over ({outcome.termination.value.replace('_', ' ')})"
    if not move:
        if allow_pass:
            return None
        return "a pass is only made for a player whose move time ran out"
    frm, to = move.from_square, move.to_square
    code = board._sq[frm]
    if not code:
        return f"there is no animal on {square_name(frm)}"
    name = f"{COLOR_NAMES[code_color(code)]} {ANIMAL_NAMES[code_animal(code)]}"
    if code_color(code) != board.turn:
        return f"the {name} on {square_name(frm)} is not yours: {COLOR_NAMES[board.turn]} to move"
    if board.is_pseudo_legal(move):
        return f"the {name} may not go to {square_name(to)} again now (move restriction 违例)"
    target = board._sq[to]
    animal = code_animal(code)
    if to == DENS[board.turn]:
        return "no animal may enter its own den"
    if target and code_color(target) == board.turn:
        return f"{square_name(to)} is occupied by your own {ANIMAL_NAMES[code_animal(target)]}"
    if WATER >> to & 1 and animal != RAT:
        return f"only the rat may enter the water; the {name} cannot"
    if not (STEPS[frm] >> to & 1 or any(land == to for land, _ in JUMPS[frm])):
        if animal in (LION, TIGER):
            return f"{square_name(frm)}{square_name(to)} is neither a step nor a lake jump"
        return "an animal moves one square forwards, backwards or sideways"
    if not STEPS[frm] >> to & 1:
        if animal not in (LION, TIGER):
            return "only the lion and the tiger may jump across the water"
        if not target:
            return "a rat in the water blocks the jump"
    if target:
        if not board.rules.trapped_can_capture and TRAPS[1 - board.turn] >> frm & 1:
            return f"the {name} stands in an enemy trap and cannot capture"
        if any(land == to for land, _ in JUMPS[frm]) and not board._targets(frm, code) >> to & 1:
            if not board._can_capture(code, frm, target, to):
                return f"the {name} cannot take the {ANIMAL_NAMES[code_animal(target)]}"
            return "a rat in the water blocks the jump"
        return f"the {name} cannot take the {ANIMAL_NAMES[code_animal(target)]}"
    return "the move is not legal here"
