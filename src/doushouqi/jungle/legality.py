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

from doushouqi.jungle.moves import IllegalReason, Move
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


def explain_illegal(
    board: LegalityBoard, move: Move, *, allow_pass: bool = False
) -> IllegalReason | None:
    """Why ``move`` is illegal on ``board``, in words with a code (:class:`IllegalReason`), or
    None when it is legal (see :meth:`doushouqi.jungle.board.Board.explain_illegal` for the
    pass and ``allow_pass``). Details name squares and animals (``piece``, ``target``: an
    animal's English name; ``from``, ``to``: squares)."""
    if move and board.is_legal(move):
        return None
    if not move and allow_pass and any(True for _ in board.generate_legal_moves()):
        return None
    outcome = board.outcome()
    if outcome is not None:
        ending = outcome.termination.value
        return IllegalReason("game_over", f"the game is over ({ending.replace('_', ' ')})")
    if not move:
        if allow_pass:
            return None
        return IllegalReason("pass", "a pass is only made for a player whose move time ran out")
    frm, to = move.from_square, move.to_square
    code = board._sq[frm]
    where = {"from": square_name(frm), "to": square_name(to)}
    if not code:
        return IllegalReason("empty", f"there is no animal on {where['from']}", **where)
    animal = code_animal(code)
    where["piece"] = ANIMAL_NAMES[animal]
    name = f"{COLOR_NAMES[code_color(code)]} {ANIMAL_NAMES[animal]}"
    if code_color(code) != board.turn:
        text = f"the {name} on {where['from']} is not yours: {COLOR_NAMES[board.turn]} to move"
        return IllegalReason("not_yours", text, **where)
    if board.is_pseudo_legal(move):
        text = f"the {name} may not go to {where['to']} again now (move restriction 违例)"
        return IllegalReason("restricted", text, **where)
    target = board._sq[to]
    if target:
        where["target"] = ANIMAL_NAMES[code_animal(target)]
    if to == DENS[board.turn]:
        return IllegalReason("own_den", "no animal may enter its own den", **where)
    if target and code_color(target) == board.turn:
        text = f"{where['to']} is occupied by your own {where['target']}"
        return IllegalReason("own_piece", text, **where)
    if WATER >> to & 1 and animal != RAT:
        text = f"only the rat may enter the water; the {name} cannot"
        return IllegalReason("water", text, **where)
    if not (STEPS[frm] >> to & 1 or any(land == to for land, _ in JUMPS[frm])):
        if animal in (LION, TIGER):
            text = f"{where['from']}{where['to']} is neither a step nor a lake jump"
            return IllegalReason("not_step_or_jump", text, **where)
        text = "an animal moves one square forwards, backwards or sideways"
        return IllegalReason("one_step", text, **where)
    blocked = IllegalReason("rat_blocks", "a rat in the water blocks the jump", **where)
    if not STEPS[frm] >> to & 1:
        if animal not in (LION, TIGER):
            text = "only the lion and the tiger may jump across the water"
            return IllegalReason("jump_lion_tiger", text, **where)
        if not target:
            return blocked
    if target:
        too_weak = IllegalReason(
            "too_weak", f"the {name} cannot take the {where['target']}", **where
        )
        if not board.rules.trapped_can_capture and TRAPS[1 - board.turn] >> frm & 1:
            text = f"the {name} stands in an enemy trap and cannot capture"
            return IllegalReason("trapped", text, **where)
        if any(land == to for land, _ in JUMPS[frm]) and not board._targets(frm, code) >> to & 1:
            return too_weak if not board._can_capture(code, frm, target, to) else blocked
        return too_weak
    return IllegalReason("illegal", "the move is not legal here", **where)
