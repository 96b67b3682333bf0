"""The actions and observation planes of the 老虎棋 environments (numpy only).

**Actions.** An action is one *segment* of a move: a step or a jump from one point to another
along the lines (``(from, to)`` pairs), or action 0, **stop**. For the named rule sets, which
have no multi-jumps, a move is one action: a step is (from, to) and a jump is (from, landing
point). Under ``multi_jump`` a chain of jumps is **one action per jump**: after a jump from
which the same tiger could jump again, the chain stays *open* and the tiger side acts again
(the turn does not pass): it plays the next jump of that tiger (from its landing point), or
*stop*, which ends the move there. Where the tiger cannot jump again the move ends by itself.
Every prefix of a chain is a move of the rules library, so stopping is always legal while a
chain is open and never otherwise (the rules have no pass a player chooses: the ``0000`` pass
is a timeout's).

The pairs are every step along a line and every jump along two lines in a row, of the rule
set's ``diagonals`` option: 576 under ``none``, 596 under ``nest``, 1056 under ``all``, so
the action space is ``Discrete(577)``, ``Discrete(597)`` or ``Discrete(1057)``
(:func:`num_actions`). The numbering is **nested**: the pairs of ``none`` come first, then
those ``nest`` adds, then those ``all`` adds, so an action means the same segment under every
option (a policy with the ``all`` head plays every rule set, masking the rest). Within each
group, pairs go by the from-point (a1 = 0 … f11 = 86), steps before jumps, in the board's
direction order. The seats do not change the numbering: the game is not symmetric (the men
start at the bottom, the tigers in the nest), so no side sees the board turned.

**Observation.** A float32 array of shape ``(16, 11, 9)``, ``obs[plane, row, file]``: row 0
is rank 1, row 10 rank 11; file 0 is file a. The 12 cells of ranks 10 and 11 beside the nest
(files a–c and g–i) are no points: **every plane is 0 there**, and plane 3 marks the points.
Both seats see the same planes (plane 2 says whose turn it is). Every value is in [0, 1]:

======  ====================  ===============================================================
plane   name                  value
======  ====================  ===============================================================
0       tigers                1 where a tiger stands (during an open chain: where the jumping
                              tiger has landed)
1       men                   1 where a man stands (men jumped in an open chain are gone)
2       men to move           constant 1 when the men's side is to move, 0 when the tiger side
3       points                1 on the 87 points (the board and the nest)
4       diagonal up-right     1 on each point from which a line runs to the point one file
                              right and one rank up (the ``diagonals`` option drawn)
5       diagonal up-left      the same, to the point one file left and one rank up
6       chain tiger           1 on the tiger in the middle of an open multi-jump chain (the
                              only piece that may move: jump on or stop); 0 otherwise
7       men in danger         1 on each man that a tiger could jump from where it stands (an
                              empty point behind him along a line), whoever is to move; during
                              an open chain, only the chain's tiger counts
8       captures to win       constant: the captures the tiger still needs to win, (men on the
                              board - ``tiger_wins_below`` + 1) / 18; 0 when the rule set has
                              no win by captures
9       round clock           constant: (move number - 1) / ``max_rounds``, at most 1; 0 when
                              the rule set has no round limit
10      repetition            constant: (times the position has stood - 1) / 2, at most 1
11      men retreat           constant 1 when ``men_retreat`` (men may step to a lower rank)
12      multi jump            constant 1 when ``multi_jump``
13      capture mandatory     constant 1 when ``capture_mandatory``
14      win by captures       constant 1 when ``tiger_wins_below`` > 0
15      round limit           constant 1 when the rule set has ``max_rounds``
======  ====================  ===============================================================

The number of tigers and men and the lines are seen on the board; planes 11–15 let one
policy learn several rule sets.

>>> from doushouqi.tiger.board import Board
>>> from doushouqi.tiger.points import parse_point
>>> pair_to_action(parse_point("e10"), parse_point("e9")), action_to_pair(1)
(555, (0, 1))
>>> num_actions(Board().rules), STOP_ACTION
(577, 0)
>>> obs = encode_observation(Board())
>>> obs.shape, int(obs[PLANE_NAMES.index("men")].sum()), int(obs[3].sum())
((16, 11, 9), 12, 87)

The sizes, for a network's input and output layers (the action space depends on the
``diagonals`` option; :data:`MAX_ACTIONS` fits every rule set):

>>> NUM_PLANES, OBSERVATION_SHAPE, MAX_ACTIONS
(16, (16, 11, 9), 1057)
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from doushouqi.tiger.board import Board
from doushouqi.tiger.fen import EMPTY, MAN, TIGER
from doushouqi.tiger.points import (
    JUMPS,
    NEIGHBOURS,
    NUM_POINTS,
    Diagonals,
    point_at,
    point_file,
    point_name,
    point_rank,
)
from doushouqi.tiger.rl.common import chain_pieces
from doushouqi.tiger.rules import MEN_SIDE, RuleSet

__all__ = [
    "MAX_ACTIONS",
    "NUM_PLANES",
    "OBSERVATION_SHAPE",
    "PLANE_NAMES",
    "STOP_ACTION",
    "action_name",
    "action_to_pair",
    "encode_observation",
    "num_actions",
    "pair_to_action",
]

ROWS, FILES = 11, 9
#: The action that ends an open multi-jump chain.
STOP_ACTION = 0
_STOP_NAME = "stop"

#: The name of every observation plane, in order (see the table above).
PLANE_NAMES: tuple[str, ...] = (
    "tigers",
    "men",
    "men to move",
    "points",
    "diagonal up-right",
    "diagonal up-left",
    "chain tiger",
    "men in danger",
    "captures to win",
    "round clock",
    "repetition",
    "men retreat",
    "multi jump",
    "capture mandatory",
    "win by captures",
    "round limit",
)
#: The number of observation planes (16), one per name of :data:`PLANE_NAMES`.
NUM_PLANES = len(PLANE_NAMES)
#: The shape of an observation: (planes, ranks, files) = (16, 11, 9), rank 1 at row 0.
OBSERVATION_SHAPE = (NUM_PLANES, ROWS, FILES)
_TIGERS, _MEN, _MEN_TO_MOVE, _POINTS, _UP_RIGHT, _UP_LEFT, _CHAIN, _DANGER = range(8)
_CAPTURES, _CLOCK, _REPETITION, _FIRST_RULE_PLANE = 8, 9, 10, 11
_MOST_MEN = 18  # the largest start: captures-to-win is scaled by it

#: The grid cell (``row * 9 + file``) of every point.
_CELL = np.array([(point_rank(p) - 1) * FILES + point_file(p) for p in range(NUM_POINTS)])
#: 1 on the cells that are points, 0 on the 12 beside the nest (read-only).
_ON_BOARD = np.zeros(ROWS * FILES, dtype=np.float32)
_ON_BOARD[_CELL] = 1.0
_ON_BOARD.setflags(write=False)


def _pairs_of(diagonals: Diagonals) -> list[tuple[int, int]]:
    """The (from, to) pairs of one option: by from-point, steps then jumps."""
    pairs = []
    for point in range(NUM_POINTS):
        pairs += [(point, to) for to in NEIGHBOURS[diagonals][point]]
        pairs += [(point, land) for _over, land in JUMPS[diagonals][point]]
    return pairs


def _build_pairs() -> tuple[list[tuple[int, int]], dict[Diagonals, int]]:
    """Every pair, nested by option (none's, then nest's extras, then all's), and the action
    count of each option (stop included)."""
    pairs: list[tuple[int, int]] = []
    counts = {}
    for diagonals in (Diagonals.NONE, Diagonals.NEST, Diagonals.ALL):
        known = set(pairs)
        pairs += [pair for pair in _pairs_of(diagonals) if pair not in known]
        counts[diagonals] = 1 + len(pairs)
    return pairs, counts


_PAIRS, _COUNTS = _build_pairs()
#: The largest action space (``diagonals = all``).
#: The largest action space, that of ``diagonals="all"`` (every other one is a prefix of it).
MAX_ACTIONS = _COUNTS[Diagonals.ALL]
_ACTION_OF = {pair: index + 1 for index, pair in enumerate(_PAIRS)}


def num_actions(rules: RuleSet | Diagonals) -> int:
    """The size of the action space under a rule set (only its ``diagonals`` option counts).

    >>> from doushouqi.tiger.rules import Diagonals
    >>> [num_actions(diagonals) for diagonals in Diagonals]  # none, nest, all
    [577, 597, 1057]
    """
    diagonals = rules if isinstance(rules, Diagonals) else rules.diagonals
    return _COUNTS[diagonals]


def pair_to_action(from_point: int, to_point: int) -> int:
    """The action of the segment ``from_point`` → ``to_point``; ValueError when it is no step
    or jump along lines under any option.

    >>> from doushouqi.tiger.points import parse_point
    >>> pair_to_action(parse_point("e10"), parse_point("e9"))
    555
    >>> pair_to_action(parse_point("e10"), parse_point("e7"))
    Traceback (most recent call last):
    ...
    ValueError: e10e7 is no step or jump along the lines: it has no action
    """
    try:
        return _ACTION_OF[from_point, to_point]
    except KeyError:
        raise ValueError(
            f"{point_name(from_point)}{point_name(to_point)} is no step or jump along the lines: "
            "it has no action"
        ) from None


def action_to_pair(action: int) -> tuple[int, int]:
    """The (from, to) segment of an action; ValueError for stop or an action outside
    0..MAX_ACTIONS-1.

    >>> from doushouqi.tiger.points import point_name
    >>> [point_name(point) for point in action_to_pair(555)]
    ['e10', 'e9']
    >>> action_to_pair(STOP_ACTION)
    Traceback (most recent call last):
    ...
    ValueError: action 0 is stop: it ends a jump chain and moves nothing
    """
    index = int(action)
    if index == STOP_ACTION:
        raise ValueError("action 0 is stop: it ends a jump chain and moves nothing")
    if not 0 < index < MAX_ACTIONS:
        raise ValueError(f"action {action} is outside 0..{MAX_ACTIONS - 1}")
    return _PAIRS[index - 1]


def action_name(action: int) -> str:
    """The action as text: its segment (``e10e9``, ``e5e7``) or ``stop``.

    >>> action_name(0), action_name(pair_to_action(40, 58))  # e5 (40) to e7 (58)
    ('stop', 'e5e7')
    """
    if int(action) == STOP_ACTION:
        return _STOP_NAME
    a, b = action_to_pair(action)
    return point_name(a) + point_name(b)


def _diagonal_planes(diagonals: Diagonals) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    up_right = np.zeros(ROWS * FILES, dtype=np.float32)
    up_left = np.zeros(ROWS * FILES, dtype=np.float32)
    for point in range(NUM_POINTS):
        file, rank = point_file(point), point_rank(point)
        for plane, step in ((up_right, 1), (up_left, -1)):
            other = point_at(file + step, rank + 1)
            if other is not None and other in NEIGHBOURS[diagonals][point]:
                plane[_CELL[point]] = 1.0
    return up_right, up_left


@functools.lru_cache(maxsize=64)
def _fixed_planes(rules: RuleSet) -> NDArray[np.float32]:
    """The planes that only the rule set decides, flattened to (planes, 99), read-only."""
    planes = np.zeros((NUM_PLANES, ROWS * FILES), dtype=np.float32)
    on_board = _ON_BOARD
    planes[_POINTS] = on_board
    planes[_UP_RIGHT], planes[_UP_LEFT] = _diagonal_planes(rules.diagonals)
    options = (
        rules.men_retreat,
        rules.multi_jump,
        rules.capture_mandatory,
        rules.tiger_wins_below > 0,
        rules.max_rounds is not None,
    )
    for offset, enabled in enumerate(options):
        planes[_FIRST_RULE_PLANE + offset] = on_board if enabled else 0.0
    planes.setflags(write=False)  # shared by every call: callers get copies
    return planes


def encode_observation(board: Board, chain: Sequence[int] = ()) -> NDArray[np.float32]:
    """The observation planes of ``board``, with an open multi-jump chain's jumps made (its
    points from the start; empty: none open).

    >>> from doushouqi.tiger.board import Board
    >>> from doushouqi.tiger.points import parse_point
    >>> board = Board("3/3/9/9/9/4M4/9/4M4/4T4/9/MMM6 t")
    >>> chain = (parse_point("e3"), parse_point("e5"))  # the tiger has jumped e4's man
    >>> men, chain_tiger = PLANE_NAMES.index("men"), PLANE_NAMES.index("chain tiger")
    >>> for planes in (encode_observation(board), encode_observation(board, chain)):
    ...     print(planes[men].sum(), planes[chain_tiger].sum())
    5.0 0.0
    4.0 1.0
    """
    rules = board.rules
    planes = _fixed_planes(rules).copy()
    pieces = chain_pieces(board, chain)
    codes = np.array(pieces, dtype=np.int8)
    tigers = np.flatnonzero(codes == TIGER)
    men_cells = _CELL[codes == MAN]
    planes[_TIGERS, _CELL[tigers]] = 1.0
    planes[_MEN, men_cells] = 1.0
    on_board = _ON_BOARD
    if board.turn == MEN_SIDE:
        planes[_MEN_TO_MOVE] = on_board
    jumpers = tigers.tolist()
    if len(chain) >= 2:
        planes[_CHAIN, _CELL[chain[-1]]] = 1.0
        jumpers = [chain[-1]]
    jumps = JUMPS[rules.diagonals]
    danger = [
        over
        for tiger in jumpers
        for over, land in jumps[tiger]
        if pieces[over] == MAN and pieces[land] == EMPTY
    ]
    planes[_DANGER, _CELL[danger]] = 1.0
    if rules.tiger_wins_below > 0:
        needed = len(men_cells) - rules.tiger_wins_below + 1
        planes[_CAPTURES] = on_board * (max(needed, 0) / _MOST_MEN)
    if rules.max_rounds is not None:
        planes[_CLOCK] = on_board * min((board.fullmove_number - 1) / rules.max_rounds, 1.0)
    repetition = min(board.repetition_count() - 1, 2) / 2
    if repetition:
        planes[_REPETITION] = on_board * repetition
    return planes.reshape(OBSERVATION_SHAPE)
