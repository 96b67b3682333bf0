"""The evaluation's weights, all in one place: one int64 array with named indices.

Every number the compiled evaluation (:mod:`.evaluate`) reads lives in ``params``; the
``P_*`` constants are the index of a single weight or the start of a table, and
:data:`PARAM_NAMES` names each entry (``"margin[3]"``, ``"mobility[0]"``), the keys of the JSON
files :func:`save_params` writes and :func:`load_params` reads (any subset: the rest keep
their defaults), so that a tuner can change them all and ship only what it changed.

Values are centipawns, a man about 100. Each term's sign is fixed by the side it helps: the
evaluation adds the tiger side's terms and subtracts the men's, then turns the sum to the
side to move.

>>> params = default_params()
>>> int(params[P_MOBILITY + 0]) < int(params[P_MOBILITY + 4])  # hemmed in is bad for a tiger
True
>>> PARAM_NAMES[P_MARGIN + 3]
'margin[3]'
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "AWARENESS_BLOCKS",
    "NUM_PARAMS",
    "PARAM_NAMES",
    "P_GUARDED",
    "P_MAN_RANK",
    "P_MARGIN",
    "P_MOBILITY",
    "P_NEST_MAN",
    "P_OPEN",
    "P_REACH",
    "P_SPACE",
    "P_SPACE_NEAR",
    "P_SPACE_NEAR_POINTS",
    "P_TEMPO",
    "P_THREAT_MEN_TO_MOVE",
    "P_THREAT_TIGER_TO_MOVE",
    "P_TIGER_IN_NEST",
    "default_params",
    "load_params",
    "save_params",
    "with_awareness",
]

# ------------------------------------------------------------------------------- layout
# (name, size, default values): the order is the array's.
_BLOCKS: list[tuple[str, int, list[int]]] = [
    # The men's side: what its men are worth by how many more it has than the tiger's winning
    # threshold (men - tiger_wins_below, 0 to 18). Each man nearer the threshold is worth more:
    # the last one before it decides the game.
    (
        "margin",
        19,
        [
            0,
            300,
            550,
            780,
            990,
            1190,
            1380,
            1560,
            1730,
            1890,
            2040,
            2180,
            2310,
            2430,
            2540,
            2640,
            2730,
            2810,
            2880,
        ],
    ),
    # The tiger side, per tiger: by its freedom (empty neighbours plus jumps, 0-8). Zero is
    # hemmed in: with the tiger side to move that is a lost game (the search sees it); with
    # the men to move they need only keep the cage shut.
    ("mobility", 9, [-420, -170, -75, -25, 0, 14, 24, 30, 34]),
    # The tiger side: empty points its tigers reach by steps (its room: the men win by
    # shrinking it to nothing); each counts ``space``, and the last ``space_near_points``
    # ``space_near`` more.
    ("space", 1, [12]),
    ("space_near", 1, [10]),
    ("space_near_points", 1, [14]),
    # The tiger side: each empty point its tigers reach, by its distance in steps (1-15, 15
    # for farther; index 0 unused). Room counts every reached point alike, so a wall with a
    # gap scores no better than no wall; by distance, the points a wall puts behind a long
    # detour weigh less, which shows the men a cage half built.
    ("reach", 16, [0] * 16),
    # The tiger side: men a tiger can jump right now (distinct men, 0-3+), by who is to move.
    # The tiger to move takes one (quiescence searches it; this is what stands behind a
    # refusal); the men to move can save one man, seldom two (a fork).
    ("threat_tiger_to_move", 4, [0, 45, 90, 110]),
    ("threat_men_to_move", 4, [0, 20, 150, 230]),
    # The tiger side: each way a man could be jumped (the point on one side of him empty to
    # land on, the other empty to jump from), by the tigers' distance in steps to the point
    # to jump from (1-7, 8 for farther or out of their reach). Two men in a row guard each other
    # ("两两结队"): a man with a man or the board's edge beyond him has no such way.
    ("open", 9, [0, 60, 30, 15, 8, 4, 2, 1, 0]),
    # The men's side, per man that cannot be jumped from any side.
    ("guarded", 1, [4]),
    # The men's side, per man on each rank (1-11; index 0 unused), counted up to the highest
    # tiger's rank: advancing toward the tiger and the nest, not past the tiger.
    ("man_rank", 12, [0] * 12),
    # The men's side, per man on a point of the nest (d9-f11).
    ("nest_man", 1, [0]),
    # The tiger side, per tiger inside the nest (ranks 10-11): few lines lead out.
    ("tiger_in_nest", 1, [-15]),
    # The side to move.
    ("tempo", 1, [12]),
]

PARAM_NAMES: list[str] = []
_OFFSETS: dict[str, int] = {}
_DEFAULTS: list[int] = []
for _name, _size, _values in _BLOCKS:
    if len(_values) != _size:
        raise AssertionError(f"{_name}: {len(_values)} defaults for {_size} entries")
    _OFFSETS[_name] = len(PARAM_NAMES)
    PARAM_NAMES += [f"{_name}[{i}]" if _size > 1 else _name for i in range(_size)]
    _DEFAULTS += _values
NUM_PARAMS = len(PARAM_NAMES)

P_MARGIN = _OFFSETS["margin"]
P_MOBILITY = _OFFSETS["mobility"]
P_SPACE = _OFFSETS["space"]
P_SPACE_NEAR = _OFFSETS["space_near"]
P_SPACE_NEAR_POINTS = _OFFSETS["space_near_points"]
P_REACH = _OFFSETS["reach"]
P_THREAT_TIGER_TO_MOVE = _OFFSETS["threat_tiger_to_move"]
P_THREAT_MEN_TO_MOVE = _OFFSETS["threat_men_to_move"]
P_OPEN = _OFFSETS["open"]
P_GUARDED = _OFFSETS["guarded"]
P_MAN_RANK = _OFFSETS["man_rank"]
P_NEST_MAN = _OFFSETS["nest_man"]
P_TIGER_IN_NEST = _OFFSETS["tiger_in_nest"]
P_TEMPO = _OFFSETS["tempo"]


#: The terms that take foresight, which the weaker levels see only in part
#: (:func:`with_awareness`): men about to be jumped, ways a man can be jumped, a tiger's
#: freedom (the cage closing). Counting men and room is plain to every level.
AWARENESS_BLOCKS = ("threat_tiger_to_move", "threat_men_to_move", "open", "mobility")


def default_params() -> NDArray[np.int64]:
    """The engine's weights (a fresh array)."""
    return np.array(_DEFAULTS, dtype=np.int64)


def with_awareness(params: NDArray[np.int64], awareness: float) -> NDArray[np.int64]:
    """A copy of ``params`` with the foresight terms (:data:`AWARENESS_BLOCKS`) scaled by
    ``awareness`` (0-1): how a weaker level judges — it does not see a fork or a cage coming
    as clearly, which is what a beginner misses, rather than moves picked at random.

    >>> weak = with_awareness(default_params(), 0.5)
    >>> int(weak[P_MOBILITY]) * 2 == int(default_params()[P_MOBILITY])
    True
    """
    scaled = np.array(params, dtype=np.int64)
    for name in AWARENESS_BLOCKS:
        start = _OFFSETS[name]
        size = next(size for block, size, _ in _BLOCKS if block == name)
        scaled[start : start + size] = np.round(scaled[start : start + size] * awareness)
    return scaled


def save_params(params: NDArray[np.int64], path: str | Path) -> None:
    """Write every weight as ``{name: value}`` JSON."""
    values = {name: int(value) for name, value in zip(PARAM_NAMES, params, strict=True)}
    Path(path).write_text(json.dumps(values, indent=1) + "\n", encoding="utf-8")


def load_params(path: str | Path) -> NDArray[np.int64]:
    """The defaults with the weights a JSON file names replaced; ValueError for an unknown
    name or a value that is not a whole number."""
    values = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(values, dict):
        raise ValueError(f"{path}: expected a JSON object of weights")
    params = default_params()
    index = {name: i for i, name in enumerate(PARAM_NAMES)}
    for name, value in values.items():
        if name not in index:
            raise ValueError(f"{path}: unknown weight {name!r}")
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"{path}: {name} must be a whole number, got {value!r}")
        params[index[name]] = value
    return params
