"""Observation planes and the action encoding of the Jungle environment (numpy only).

**Point of view.** Everything is seen from one side's seat, normally the side to move's, so
that an agent always "plays up" the board. A *view square* is ``view_row * 7 + view_file``:
for Red it is the board square itself (row 0 = rank 1, file 0 = file a); for Blue it is
``62 - square``, a half turn of the board. The half turn maps the lakes onto themselves and
one side's den and traps onto the other's (the start position is symmetric under it), so in
every view the viewer's den is on row 0, file 3, and the enemy den on row 8, file 3.

**Observation.** A float32 array of shape ``(31, 9, 7)``, ``obs[plane, view_row, view_file]``,
every value in [0, 1]:

======  ==========================  ==========================================================
plane   name                        value
======  ==========================  ==========================================================
0–7     own rat … own elephant      1 where the viewer's animal stands; one plane per animal in
                                    the order rat, cat, dog, wolf, leopard, tiger, lion,
                                    elephant (by kind, not rank: see plane 23)
8–15    enemy rat … enemy elephant  the same for the other side's animals
16      water                       1 on the 12 lake squares
17      own traps                   1 on the 3 traps around the viewer's den (an enemy animal
                                    standing there has rank 0)
18      enemy traps                 1 on the 3 traps around the enemy den
19      own den                     1 on the viewer's den (no own animal may enter it)
20      enemy den                   1 on the enemy den (entering it wins)
21      no-capture clock            constant: plies since the last capture divided by the
                                    rule set's limit in plies (2 × ``no_capture_draw_rounds``),
                                    at most 1; 0 everywhere when the rule set has no limit
22      repetition                  constant: (times the current position has stood − 1) / 2,
                                    at most 1 (0: first time, 0.5: second, 1: third or more)
23      dog outranks wolf           constant 1 when the rule set ranks dog 4 > wolf 3
24      own rat blocks jumps        constant 1 when ``own_rat_blocks_jump``
25      rat takes rat across edge   constant 1 when ``rat_captures_across_water``
26      trapped animals capture     constant 1 when ``trapped_can_capture``
27      initiator must vary         constant 1 when ``repetition = initiator_must_vary``
28      no-capture limit            constant 1 when the rule set has a no-capture draw limit
29      rule 7-3                    constant 1 when ``rule_7_3`` (无赖长杀) applies
30      rule 17-5                   constant 1 when ``rule_17_5`` (武松长杀) applies
======  ==========================  ==========================================================

Planes 23–30 let one policy learn several rule sets. The moves that the history-dependent
restrictions forbid (7-3, 17-5, must-vary repetition) are not drawn in any plane: the legal
action mask carries them.

**Actions.** ``Discrete(504)``: ``action = view_from_square * 8 + kind``, in the same view
coordinates as the observation. ``kind`` 0–3 is a one-square step up (towards the enemy den),
down, left (towards view file 0) or right; ``kind`` 4–7 is a lion or tiger jump across a lake
in the same four directions. The encoding is fixed geometry and needs no board: a rat's step
into the water is a step, a lion's or tiger's leap over it is a jump. Actions that leave the
board, and jumps from squares that border no lake, are never legal. There is no pass action: a
player never chooses to pass (the timeout pass of docs/rules.md 5.3 is not a player's move).

>>> from doushouqi import BLUE, RED, Board, Move
>>> move_to_action(Move.from_str("a3a4"), RED)  # Red's elephant one step up
112
>>> action_to_move(112, BLUE)  # the same action for Blue: one step up Blue's board
Move.from_str('g7g6')
>>> action_to_move(move_to_action(Move.from_str("a4d4"), RED), RED)  # a jump across a lake
Move.from_str('a4d4')
>>> obs = encode_observation(Board())
>>> obs.shape, obs.dtype, int(obs[PLANE_NAMES.index("own elephant")].sum())
((31, 9, 7), dtype('float32'), 1)
>>> int(legal_action_mask(Board(rules="international")).sum())
24

The sizes, for a network's input and output layers:

>>> NUM_ACTIONS == 63 * NUM_KINDS, NUM_KINDS, NUM_PLANES, OBSERVATION_SHAPE
(True, 8, 31, (31, 9, 7))
"""

from __future__ import annotations

import functools

import numpy as np
from numpy.typing import NDArray

from doushouqi.jungle.board import Board, Move
from doushouqi.jungle.rules import Ranks, Repetition, RuleSet
from doushouqi.jungle.squares import (
    ANIMAL_NAMES,
    DENS,
    JUMPS,
    NUM_SQUARES,
    RED,
    TRAPS,
    WATER,
    code_animal,
    code_color,
    iter_squares,
)

__all__ = [
    "NUM_ACTIONS",
    "NUM_KINDS",
    "NUM_PLANES",
    "OBSERVATION_SHAPE",
    "PLANE_NAMES",
    "action_to_move",
    "encode_observation",
    "legal_action_mask",
    "move_to_action",
    "view_square",
]

ROWS, FILES = 9, 7
#: Step kinds 0-3 and jump kinds 4-7, each in these (row, file) directions of the view.
DIRECTIONS = ((1, 0), (-1, 0), (0, -1), (0, 1))  # up, down, left, right
#: The kinds of action from a square: the four steps, then the four lake jumps (8).
NUM_KINDS = 2 * len(DIRECTIONS)
#: The size of the action space, ``Discrete(504)``: every view square times every kind.
NUM_ACTIONS = NUM_SQUARES * NUM_KINDS

_ANIMAL_PLANES = [f"own {name}" for name in ANIMAL_NAMES[1:]] + [
    f"enemy {name}" for name in ANIMAL_NAMES[1:]
]
#: The name of every observation plane, in order (see the table above).
PLANE_NAMES: tuple[str, ...] = (
    *_ANIMAL_PLANES,
    "water",
    "own traps",
    "enemy traps",
    "own den",
    "enemy den",
    "no-capture clock",
    "repetition",
    "dog outranks wolf",
    "own rat blocks jumps",
    "rat takes rat across edge",
    "trapped animals capture",
    "initiator must vary",
    "no-capture limit",
    "rule 7-3",
    "rule 17-5",
)
#: The number of observation planes (31), one per name of :data:`PLANE_NAMES`.
NUM_PLANES = len(PLANE_NAMES)
#: The shape of an observation: (planes, rows, files) = (31, 9, 7), rank 1 of the viewer's
#: side at row 0.
OBSERVATION_SHAPE = (NUM_PLANES, ROWS, FILES)

_ENEMY_OFFSET = 8
_WATER, _OWN_TRAPS, _ENEMY_TRAPS, _OWN_DEN, _ENEMY_DEN = range(16, 21)
_CLOCK, _REPETITION = 21, 22
_FIRST_RULE_PLANE = 23


def view_square(square: int, color: int) -> int:
    """The view square of a board square as ``color`` sees it (and back: it is its own inverse).

    >>> view_square(0, 0), view_square(0, 1)  # a1 for Red, then for Blue
    (0, 62)
    """
    return square if color == RED else NUM_SQUARES - 1 - square


def _sign(value: int) -> int:
    return (value > 0) - (value < 0)


def _build_targets() -> list[int]:
    """The view target square of every action, or -1 where the action is no move at all.

    The lakes are the same in every view (the half turn maps them onto themselves), so the
    board's own jump table serves as the jump geometry of the view.
    """
    targets = [-1] * NUM_ACTIONS
    for square in range(NUM_SQUARES):
        row, file = divmod(square, FILES)
        for kind, (drow, dfile) in enumerate(DIRECTIONS):
            if 0 <= row + drow < ROWS and 0 <= file + dfile < FILES:
                targets[square * NUM_KINDS + kind] = (row + drow) * FILES + file + dfile
        for landing, _path in JUMPS[square]:
            landing_row, landing_file = divmod(landing, FILES)
            direction = DIRECTIONS.index((_sign(landing_row - row), _sign(landing_file - file)))
            targets[square * NUM_KINDS + len(DIRECTIONS) + direction] = landing
    return targets


_TARGETS = _build_targets()
_ACTION_OF = {
    (action // NUM_KINDS, target): action for action, target in enumerate(_TARGETS) if target >= 0
}


def move_to_action(move: Move, color: int) -> int:
    """The action of ``move`` played by ``color``; ValueError for a pass or a non-move.

    The same step has different actions for the two sides, and mirrored steps the same one:

    >>> from doushouqi import BLUE, RED, Move
    >>> move_to_action(Move.from_str("g3g4"), RED), move_to_action(Move.from_str("a7a6"), BLUE)
    (160, 160)
    >>> move_to_action(Move.from_str("a3c5"), RED)
    Traceback (most recent call last):
    ...
    ValueError: a3c5 is neither a step nor a lake jump: it has no action
    """
    view_move = (view_square(move.from_square, color), view_square(move.to_square, color))
    try:
        return _ACTION_OF[view_move]
    except KeyError:
        raise ValueError(f"{move} is neither a step nor a lake jump: it has no action") from None


def action_to_move(action: int, color: int) -> Move:
    """The move that ``action`` stands for when ``color`` plays it (legal or not).

    ValueError when the action is outside 0..503 or is no move at all (off the board, or a jump
    from a square that borders no lake).

    >>> from doushouqi import RED
    >>> action_to_move(160, RED), action_to_move(160 + 2, RED)  # g3 up, then g3 left
    (Move.from_str('g3g4'), Move.from_str('g3f3'))
    >>> action_to_move(4, RED)  # a jump up from a1, which borders no lake
    Traceback (most recent call last):
    ...
    ValueError: action 4 is no move: it leaves the board or jumps no lake
    """
    index = int(action)
    if not 0 <= index < NUM_ACTIONS:
        raise ValueError(f"action {action} is outside 0..{NUM_ACTIONS - 1}")
    target = _TARGETS[index]
    if target < 0:
        raise ValueError(f"action {action} is no move: it leaves the board or jumps no lake")
    return Move(view_square(index // NUM_KINDS, color), view_square(target, color))


def legal_action_mask(board: Board) -> NDArray[np.bool_]:
    """True for every legal move of the side to move, in its own view; all False once the
    game is over (a repetition or no-capture draw leaves moves on the board but none legal).

    >>> from doushouqi import Board
    >>> mask = legal_action_mask(Board())
    >>> mask.shape, int(mask.sum())
    ((504,), 24)
    >>> sorted(str(action_to_move(a, 0)) for a in mask.nonzero()[0])[:3]
    ['a1a2', 'a1b1', 'a3a2']
    """
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    if board.outcome() is not None:
        return mask
    for move in board.generate_legal_moves():
        mask[move_to_action(move, board.turn)] = True
    return mask


def _mark(plane: NDArray[np.float32], squares: int, color: int) -> None:
    for square in iter_squares(squares):
        plane[view_square(square, color)] = 1.0


@functools.lru_cache(maxsize=64)
def _fixed_planes(rules: RuleSet, color: int) -> NDArray[np.float32]:
    """The planes that only the rule set and the viewer decide, flattened to (planes, 63)."""
    planes = np.zeros((NUM_PLANES, NUM_SQUARES), dtype=np.float32)
    _mark(planes[_WATER], WATER, color)
    _mark(planes[_OWN_TRAPS], TRAPS[color], color)
    _mark(planes[_ENEMY_TRAPS], TRAPS[1 - color], color)
    planes[_OWN_DEN, view_square(DENS[color], color)] = 1.0
    planes[_ENEMY_DEN, view_square(DENS[1 - color], color)] = 1.0
    options = (
        rules.ranks is Ranks.DOG_OVER_WOLF,
        rules.own_rat_blocks_jump,
        rules.rat_captures_across_water,
        rules.trapped_can_capture,
        rules.repetition is Repetition.INITIATOR_MUST_VARY,
        rules.no_capture_draw_rounds is not None,
        rules.rule_7_3,
        rules.rule_17_5,
    )
    for offset, enabled in enumerate(options):
        planes[_FIRST_RULE_PLANE + offset] = float(enabled)
    planes.setflags(write=False)  # shared by every call: callers get copies
    return planes


def encode_observation(board: Board, color: int | None = None) -> NDArray[np.float32]:
    """The observation planes of ``board`` seen by ``color`` (default: the side to move).

    Returns a float32 array of :data:`OBSERVATION_SHAPE`; each side sees its own pieces in
    the "own" planes, its home ranks at the low rows.

    >>> from doushouqi import BLUE, Board
    >>> planes = encode_observation(Board())
    >>> planes[PLANE_NAMES.index("own den")].nonzero()  # Red's den d1: row 0, file 3
    (array([0]), array([3]))
    >>> blue = encode_observation(Board(), BLUE)  # Blue's den d9, seen from Blue's seat
    >>> blue[PLANE_NAMES.index("own den")].nonzero()
    (array([0]), array([3]))
    """
    viewer = board.turn if color is None else color
    planes = _fixed_planes(board.rules, viewer).copy()
    for square, code in enumerate(board.piece_codes()):
        if code:
            plane = code_animal(code) - 1 + (0 if code_color(code) == viewer else _ENEMY_OFFSET)
            planes[plane, view_square(square, viewer)] = 1.0
    rounds = board.rules.no_capture_draw_rounds
    if rounds is not None:
        planes[_CLOCK] = min(board.halfmove_clock / (2 * rounds), 1.0)
    planes[_REPETITION] = min(board.repetition_count() - 1, 2) / 2
    return planes.reshape(OBSERVATION_SHAPE)
