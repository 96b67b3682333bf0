"""Evaluation weights: one int64 array with named indices, so that a tuner can change them all.

Every weight the compiled evaluation (:mod:`.evaluate`) reads lives in one flat numpy array
(``params``). The ``P_*`` constants are the indices of single weights or the start of a block;
:data:`PARAM_NAMES` gives each entry a readable name (``"material[5]"``, ``"pst.lion[59]"``),
which is also the key in the JSON files that :func:`save_params` writes and
:func:`load_params` reads. A JSON file may hold any subset of the names: the rest keep their
hand-set values (:func:`hand_set_params`), so a tuner ships only what it changed. The engine's
defaults (:func:`default_params`) are the hand-set weights amended by the tuned ones,
``data/tuned_params.json`` (:data:`TUNED_PARAMS`, from ``tools/tuning/texel.py``).

Values are centipawns (a cat is about 200). Piece-square tables are written from Red's side
(square 0 = a1, den d9 = 59 is the enemy den); Blue reads them turned by 180 degrees.

>>> params = default_params()
>>> int(params[P_MATERIAL + 8]) > int(params[P_MATERIAL + 7])  # elephant above lion
True
>>> PARAM_NAMES[P_PST + 7 * 63 + 59]
'pst.lion[59]'
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterable
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from doushouqi.jungle.squares import DENS, JUMPS, STEPS, WATER, iter_squares

__all__ = [
    "ANIMAL_KEYS",
    "ATTACK_TABLE_SIZE",
    "DEN_DISTANCE",
    "NUM_PARAMS",
    "PARAM_NAMES",
    "P_ATTACK_TABLE",
    "P_ATTACK_WEIGHT",
    "P_GUARD_WEIGHT",
    "P_HANGING_SECOND",
    "P_HANGING_SINGLE",
    "P_HOME_GUARD",
    "P_HOME_MARGIN",
    "P_HUNT",
    "P_MATERIAL",
    "P_MOBILITY",
    "P_PRESS",
    "P_PRESS_LEAD",
    "P_PST",
    "P_PST_LEAD",
    "P_RACE",
    "P_RAT_BLOCKS_JUMP",
    "P_RAT_VS_ELEPHANT",
    "P_TEMPO",
    "P_THREAT_ON_MOVE",
    "P_TRADE_DOWN",
    "P_TRAP_OPEN",
    "P_TRAP_OPEN_ADJACENT",
    "RACE_TABLE_SIZE",
    "TUNED_PARAMS",
    "default_params",
    "hand_set_params",
    "load_params",
    "save_params",
]

ANIMAL_KEYS = ("", "rat", "cat", "dog", "wolf", "leopard", "tiger", "lion", "elephant")

# ------------------------------------------------------------------------------- layout
#: 9 entries by *rank* (index 0 unused): the dog/wolf swap of ``classic-dog`` swaps values too.
P_MATERIAL = 0
#: Added to a rat while the enemy elephant lives (the only animal that can take it).
P_RAT_VS_ELEPHANT = 9
#: For the side to move.
P_TEMPO = 10
#: 9 entries by animal: centipawns per square the animal could move to.
P_MOBILITY = 11
#: Side to move with exactly one animal attacked: this many 64ths of its value (it may be lost
#: if the animal cannot both flee and keep its job).
P_HANGING_SINGLE = 20
#: Side to move with two or more animals attacked: 64ths of the second most valuable one,
#: which it cannot save with its one move.
P_HANGING_SECOND = 21
#: Side to move: 64ths of the most valuable enemy animal it attacks (a capture it keeps).
P_THREAT_ON_MOVE = 22
#: 5 entries by distance to the enemy den (0..4): "attack units" an animal there brings.
P_ATTACK_WEIGHT = 23
#: 4 entries by distance to the own den (0..3): units one defender there takes away.
P_GUARD_WEIGHT = 28
#: An own trap with no own animal next to it to capture an intruder.
P_TRAP_OPEN = 32
#: ... and with an enemy animal next to it (one step from a den threat).
P_TRAP_OPEN_ADJACENT = 33
#: Per enemy lion/tiger jump that our rat in the water blocks.
P_RAT_BLOCKS_JUMP = 34
ATTACK_TABLE_SIZE = 16
#: Bonus by net attack units (attack units minus enemy guard units, clamped to 0..15).
P_ATTACK_TABLE = 35
#: 9 blocks of 63 (animal 0 unused): piece-square values from Red's side.
P_PST = P_ATTACK_TABLE + ATTACK_TABLE_SIZE
#: Pressing a lead home: a side ahead in material by at least ``press_lead`` centipawns gets
#: this many cp per step its animals stand within 8 steps of the enemy den (summed over its
#: animals), scaled by its lead up to 1000 cp: with a won game, several attackers go to the den
#: instead of shuffling where they are.
P_PRESS = P_PST + 9 * 63
P_PRESS_LEAD = P_PRESS + 1
RACE_TABLE_SIZE = 8
#: Den races, by the runner's moves to the trap (0..7): an enemy animal that reaches one of
#: our traps before any of our animals can stand on it or next to it enters the den next.
#: Charged to the side that loses the race (the nearest such runner counts).
P_RACE = P_PRESS_LEAD + 1
#: Hunting, for the same side ahead: cp per step (within 8) that the nearest own animal able
#: to capture an enemy animal stands closer to it, summed over the enemy's animals and scaled
#: like the press: a lead is turned into captures, and captures into the endgame tables.
P_HUNT = P_RACE + RACE_TABLE_SIZE
#: Trading down: the side ahead gets this many percent of its lead times the share of the
#: enemy's starting material that is gone — equal trades help it, as in chess.
P_TRADE_DOWN = P_HUNT + 1
#: 9 blocks of 63: the piece-square values the search uses in place of P_PST when the side to
#: move at the root is ahead (``Searcher.tuning["lead_tables"]``). Hand-set, smooth "moves to
#: the enemy den" tables, never tuned: the tuned P_PST tables are fitted on balanced
#: self-play and are rough (neighbouring squares differ by up to 333 cp), and their ridges
#: hold a winning side's animals where they stand — a wolf on a2 does not cross a3 (219 cp
#: less) on its way to the den.
P_PST_LEAD = P_TRADE_DOWN + 1
#: The home guard (issue 31, conversion's third round), for the side ahead in material by
#: ``press_lead`` or more: its den races (``race``) count as lost ``home_margin`` moves
#: earlier — a guard that would arrive just in time on an empty board is no guard against a
#: runner a deeper search steers past it — and cost ``home_guard`` percent more at a lead of
#: 1000 cp (scaled by the lead below that), so that a side that can afford it keeps
#: defenders by its traps. Set from ``Searcher.tuning`` (the knobs of the same names); both
#: 0, the evaluation is the one before. After the lead tables, so that the layout before
#: stays as it was.
P_HOME_GUARD = P_PST_LEAD + 9 * 63
P_HOME_MARGIN = P_HOME_GUARD + 1
NUM_PARAMS = P_HOME_MARGIN + 1


def _names() -> list[str]:
    names = [""] * NUM_PARAMS
    for rank in range(9):
        names[P_MATERIAL + rank] = f"material[{rank}]"
    for animal in range(9):
        names[P_MOBILITY + animal] = f"mobility.{ANIMAL_KEYS[animal] or 'none'}"
    singles = {
        P_RAT_VS_ELEPHANT: "rat_vs_elephant",
        P_TEMPO: "tempo",
        P_HANGING_SINGLE: "hanging_single",
        P_HANGING_SECOND: "hanging_second",
        P_THREAT_ON_MOVE: "threat_on_move",
        P_TRAP_OPEN: "trap_open",
        P_TRAP_OPEN_ADJACENT: "trap_open_adjacent",
        P_RAT_BLOCKS_JUMP: "rat_blocks_jump",
        P_PRESS: "press",
        P_PRESS_LEAD: "press_lead",
        P_HUNT: "hunt",
        P_TRADE_DOWN: "trade_down",
        P_HOME_GUARD: "home_guard",
        P_HOME_MARGIN: "home_margin",
    }
    for index, name in singles.items():
        names[index] = name
    for d in range(5):
        names[P_ATTACK_WEIGHT + d] = f"attack_weight[{d}]"
    for d in range(4):
        names[P_GUARD_WEIGHT + d] = f"guard_weight[{d}]"
    for steps in range(RACE_TABLE_SIZE):
        names[P_RACE + steps] = f"race[{steps}]"
    for units in range(ATTACK_TABLE_SIZE):
        names[P_ATTACK_TABLE + units] = f"attack_table[{units}]"
    for animal in range(9):
        for square in range(63):
            key = ANIMAL_KEYS[animal] or "none"
            names[P_PST + animal * 63 + square] = f"pst.{key}[{square}]"
            names[P_PST_LEAD + animal * 63 + square] = f"pst_lead.{key}[{square}]"
    assert all(names), "every parameter has a name"
    return names


PARAM_NAMES: tuple[str, ...] = tuple(_names())
_INDEX = {name: index for index, name in enumerate(PARAM_NAMES)}


# ------------------------------------------------------------------- distances to the den


def steps_to(
    targets: Iterable[int], *, swims: bool, jumps: bool, closed: Iterable[int] = ()
) -> list[int]:
    """Moves an animal needs from each square to the nearest of ``targets`` on an empty board
    (breadth-first from the targets; water is closed to all but the rat, lakes are jumped by
    lion and tiger, and the ``closed`` squares — a den the animal may not enter — to all)."""
    far = 99
    distance = [far] * 63
    queue = deque(targets)
    for target in queue:
        distance[target] = 0
    blocked = set(closed)
    while queue:
        square = queue.popleft()
        neighbours = list(iter_squares(STEPS[square]))
        if jumps:
            neighbours += [landing for landing, _ in JUMPS[square]]
        for other in neighbours:
            if distance[other] != far or other in blocked or (not swims and WATER >> other & 1):
                continue
            distance[other] = distance[square] + 1
            queue.append(other)
    return distance


def _den_distance_table() -> NDArray[np.int64]:
    """DEN_DISTANCE[animal, s]: moves from s to the enemy den d9 for a Red animal."""
    table = np.full((9, 64), 99, dtype=np.int64)
    for animal in range(1, 9):
        swims, jumps = animal == 1, animal in (6, 7)
        table[animal, :63] = steps_to([DENS[1]], swims=swims, jumps=jumps)
    return table


#: Shared with :mod:`.evaluate` (it reads the Blue side through the 180-degree turn).
DEN_DISTANCE = _den_distance_table()

# ------------------------------------------------------------------------------ defaults

#: The tuned weights (``tools/tuning/texel.py``), applied over the hand-set ones.
TUNED_PARAMS = Path(__file__).with_name("data") / "tuned_params.json"

_MATERIAL = (0, 250, 200, 300, 350, 500, 800, 900, 1000)
# Off by default: in self-play, mobility gained nothing at equal nodes (+12 ± 34 Elo without
# it) and costs three quarters of the evaluation's time (moves must be generated); +21 ± 49
# Elo without it at equal time. A tuner may turn it back on (the evaluation then pays).
_MOBILITY = (0, 0, 0, 0, 0, 0, 0, 0, 0)
# Centipawns per move closer to the enemy den, and an extra bonus for the last three moves.
_ADVANCE = (0, 3, 3, 4, 5, 6, 7, 7, 6)
_CLOSE = (0, 10, 10, 12, 14, 16, 18, 18, 16)
# A race lost at one move is a den entry in three plies unless the runner is caught on the
# way; further away the search still sees it coming, so the weight falls off.
_RACE = (0, 400, 250, 150, 80, 40, 20, 0)


def _default_pst(animal: int) -> NDArray[np.int64]:
    pst = np.zeros(63, dtype=np.int64)
    for square in range(63):
        d = int(DEN_DISTANCE[animal, square])
        if d >= 99:
            continue  # unreachable (water for a land animal): never read
        value = _ADVANCE[animal] * max(0, 14 - d) + _CLOSE[animal] * max(0, 3 - d) ** 2 // 3
        if animal == 1 and WATER >> square & 1:
            value += 15  # a rat in the water is out of reach of every land animal
        pst[square] = value
    return pst


def hand_set_params() -> NDArray[np.int64]:
    """The hand-set weights: what the tuner starts from and what weight files amend."""
    params = np.zeros(NUM_PARAMS, dtype=np.int64)
    params[P_MATERIAL : P_MATERIAL + 9] = _MATERIAL
    params[P_RAT_VS_ELEPHANT] = 150
    params[P_TEMPO] = 15
    params[P_MOBILITY : P_MOBILITY + 9] = _MOBILITY
    # Self-play: these cost about 70 Elo at 4k nodes a move — quiescence already resolves the
    # captures they guess at. Kept (at zero) for a tuner to revisit.
    params[P_HANGING_SINGLE] = 0
    params[P_HANGING_SECOND] = 0
    params[P_THREAT_ON_MOVE] = 0
    params[P_ATTACK_WEIGHT : P_ATTACK_WEIGHT + 5] = (0, 4, 3, 2, 1)
    params[P_GUARD_WEIGHT : P_GUARD_WEIGHT + 4] = (0, 3, 2, 1)
    params[P_TRAP_OPEN] = 10
    params[P_TRAP_OPEN_ADJACENT] = 60
    params[P_RAT_BLOCKS_JUMP] = 10
    params[P_ATTACK_TABLE : P_ATTACK_TABLE + ATTACK_TABLE_SIZE] = [
        0, 5, 12, 22, 36, 54, 76, 100, 126, 154, 184, 214, 244, 274, 304, 334,
    ]  # fmt: skip
    for animal in range(1, 9):
        params[P_PST + animal * 63 : P_PST + (animal + 1) * 63] = _default_pst(animal)
        params[P_PST_LEAD + animal * 63 : P_PST_LEAD + (animal + 1) * 63] = _default_pst(animal)
    params[P_PRESS] = 4
    params[P_PRESS_LEAD] = 300
    params[P_RACE : P_RACE + RACE_TABLE_SIZE] = _RACE
    params[P_HUNT] = 6
    params[P_TRADE_DOWN] = 30
    return params


def default_params() -> NDArray[np.int64]:
    """The engine's weights: the hand-set ones amended by the tuned ones, :data:`TUNED_PARAMS`
    (written by ``tools/tuning/texel.py``; see docs/engine-research.md)."""
    params = hand_set_params()
    if TUNED_PARAMS.exists():
        _amend(params, _read_json(TUNED_PARAMS), TUNED_PARAMS)
    return params


# ------------------------------------------------------------------------------ files


def save_params(params: NDArray[np.int64], path: str | Path) -> None:
    """Write every weight as ``{"name": value}`` JSON."""
    if len(params) != NUM_PARAMS:
        raise ValueError(f"expected {NUM_PARAMS} parameters, got {len(params)}")
    data = {name: int(value) for name, value in zip(PARAM_NAMES, params, strict=True)}
    Path(path).write_text(json.dumps(data, indent=0) + "\n", "utf-8")


def _read_json(path: str | Path) -> dict[str, object]:
    data = json.loads(Path(path).read_text("utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"{path}: expected a JSON object of name: value")
    return data


def _amend(params: NDArray[np.int64], data: dict[str, object], path: str | Path) -> None:
    unknown = [name for name in data if name not in _INDEX]
    if unknown:
        raise ValueError(f"{path}: unknown parameter(s) {', '.join(sorted(unknown)[:5])}")
    for name, value in data.items():
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"{path}: {name} must be an integer, got {value!r}")
        params[_INDEX[name]] = value


def load_params(path: str | Path) -> NDArray[np.int64]:
    """The hand-set weights amended by those a JSON file names; unknown names are an error.

    A weight file lists changes from the hand-set weights, as the tuner writes them: the
    engine's defaults are ``load_params(TUNED_PARAMS)``, and ``{}`` gives the hand-set ones.
    """
    params = hand_set_params()
    _amend(params, _read_json(path), path)
    return params
