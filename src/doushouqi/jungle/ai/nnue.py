"""The learned evaluation (NNUE-style): a small network over piece-square features, compiled.

The network (trained by ``tools/nnue/train.py``; the shipped weights are
``data/nnue.npz``, :data:`DEFAULT_NETWORK`):

* inputs, per *perspective* (Red's and Blue's): one feature per animal on the board, its
  index ``side * 504 + (animal - 1) * 63 + square`` (:data:`FEATURE`), where ``side`` is 0
  for the perspective's own animals and 1 for the enemy's and ``square`` is seen from the
  perspective's side (Blue's board turned by 180 degrees) — :data:`FEATURES` = 1,008 inputs;
* the first layer (``hidden`` units, the same weights for both perspectives): its sums, the
  *accumulator*, change by a few rows of weights per move, so the search updates them rather
  than recomputing them (below);
* clipped ReLU on both accumulators, concatenated side to move first; a second layer of
  ``layer2`` units with clipped ReLU; one output, in units of ``out_scale`` centipawns, for
  the side to move — the whole evaluation, or, for a *residual* network, a correction added
  to the hand-tuned one (:func:`adds_classic`).

Integers throughout (as the weight file stores them): first-layer weights and activations
are scaled by :data:`QA` (1.0 = 127, the clip), the second and third layers' weights by
:data:`QB`, their biases by ``QA * QB``.

In the search the weights travel in the ``params`` array (the evaluation's weights) after
the hand-tuned terms (:func:`with_network`): the search sees a longer array and evaluates
with the network; the hand-tuned material values in front still order the moves and prune
captures. The accumulators live in the ``work`` array, one pair per search ply, each tagged
with the hash of the position it belongs to: an evaluation at ply p takes the nearest ply
above it whose accumulator still belongs to the position on the path (the history rows say
which), and applies the moves played since — usually one. make/unmake stay as they are
(perft and the classic evaluation pay nothing), and a position evaluated twice (a re-search)
costs the second layer only.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numba import njit
from numpy.typing import NDArray

from doushouqi.compiled.jit import HOT_NOGIL
from doushouqi.jungle.ai.eval_params import NUM_PARAMS
from doushouqi.jungle.ai.state import (
    H_CAPTURED,
    H_CODE,
    H_FROM,
    H_TO,
    S_BOARD,
    S_HASH,
    S_PLY,
    S_TURN,
)
from doushouqi.jungle.ai.work import (
    A1,
    A2,
    ACC_SLOTS,
    ACC_STRIDE,
    C_ROOT_PLY,
    MAX_HIDDEN,
    MAX_PLY,
    W_ACC,
    W_ACC_ACTIVE,
    nearest_tagged_slot,
    path_key,
)

__all__ = [
    "ARRAYS",
    "DEFAULT_NETWORK",
    "FEATURE",
    "FEATURES",
    "HIDDEN",
    "LAYER2",
    "MAGIC",
    "QA",
    "QB",
    "NetworkFileError",
    "active_features",
    "adds_classic",
    "evaluate_network",
    "load_network",
    "network_evaluate",
    "network_from_arrays",
    "uses_network",
    "with_network",
]

#: Inputs per perspective: own and enemy animals (8 each) on 63 squares.
FEATURES = 2 * 8 * 63
#: Activation scale of the first layer (1.0 is 127: the clipped ReLU's top).
QA = 127
#: Weight scale of the second and third layers.
QB = 512
#: First word of the network's block in ``params`` (the letters NNUE).
MAGIC = 0x4E4E5545
#: The network's block: magic, hidden, layer2, out_scale, then the weights (:func:`_offsets`).
#: ``residual``: 1 when the network's output is a correction added to the hand-tuned
#: evaluation (trained on the search score minus it: ``train.py --residual``), 0 when it is
#: the whole evaluation.
N_MAGIC, N_HIDDEN, N_LAYER2, N_OUT_SCALE, N_RESIDUAL, N_WEIGHTS = 0, 1, 2, 3, 4, 5
#: The weights the engine ships (``tools/nnue/train.py --export``).
DEFAULT_NETWORK = Path(__file__).resolve().parent / "data" / "nnue.npz"
#: The network's shape: units of the first layer (a perspective's accumulator) and of the
#: second. Compile-time constants: loops of known length vectorise, four times faster than
#: the same loops over a size read from the weights (measured); another shape is a change
#: of these two numbers (and the trainer's ``--hidden``/``--layer2``).
HIDDEN = 64
LAYER2 = 16
assert HIDDEN <= MAX_HIDDEN and HIDDEN % 2 == 0
#: Largest weight or bias magnitude a weight file may hold.
WEIGHT_LIMIT = 1 << 20

#: FEATURE[perspective, code, square]: the input index of piece ``code`` (1-16) on ``square``
#: seen by ``perspective`` (0 Red, 1 Blue); row 63 (a captured animal) and code 0 unused.
FEATURE = np.zeros((2, 17, 64), dtype=np.int64)
for _p in (0, 1):
    for _code in range(1, 17):
        _colour, _animal = (_code - 1) // 8, (_code - 1) % 8 + 1
        for _s in range(63):
            _relative = _s if _p == 0 else 62 - _s
            FEATURE[_p, _code, _s] = (_colour != _p) * 504 + (_animal - 1) * 63 + _relative


class NetworkFileError(ValueError):
    """A weight file that is not a network this engine can evaluate (says what is wrong)."""


def active_features(codes: list[int] | NDArray[np.int64], perspective: int) -> list[int]:
    """The inputs that are on for ``perspective`` (0 Red, 1 Blue) given 63 piece codes
    (``Board.piece_codes()``): one per animal on the board."""
    return [int(FEATURE[perspective, code, s]) for s, code in enumerate(codes) if code]


# -------------------------------------------------------------------------- the block


def _offsets(hidden: int, layer2: int) -> tuple[int, int, int, int, int, int, int]:
    """Word offsets in the block of w1, b1, w2 (int32 pairs packed into int64 words: the
    compiled code reads them as int32 arrays, which vectorise), b2, w3, b3 (int64), and the
    block's length."""
    w1 = N_WEIGHTS
    b1 = w1 + FEATURES * hidden // 2
    w2 = b1 + hidden // 2
    b2 = w2 + layer2 * hidden
    w3 = b2 + layer2
    b3 = w3 + layer2
    return w1, b1, w2, b2, w3, b3, b3 + 1


def _packed(array: NDArray[np.integer]) -> NDArray[np.int64]:
    """An int32 array's values as int64 words, two a word (the compiled code's view)."""
    return np.ascontiguousarray(array, dtype=np.int32).ravel().view(np.int64)


#: The arrays of a weight file.
ARRAYS = ("w1", "b1", "w2", "b2", "w3", "b3")


def _shapes(first: int, second: int) -> dict[str, tuple[int, ...]]:
    """The arrays' shapes given the units of the first and second layers."""
    return {
        "w1": (FEATURES, first),
        "b1": (first,),
        "w2": (second, 2 * first),
        "b2": (second,),
        "w3": (second,),
        "b3": (1,),
    }


def network_from_arrays(
    arrays: dict[str, NDArray[np.integer]], out_scale: int, *, residual: bool = False
) -> NDArray[np.int64]:
    """The network's block (what :func:`with_network` appends) from its integer arrays
    ``w1`` (FEATURES x hidden), ``b1``, ``w2`` (layer2 x 2 hidden), ``b2``, ``w3``, ``b3``
    (``residual``: its output is added to the hand-tuned evaluation).
    :class:`NetworkFileError` when one is missing, of the wrong shape or not integers."""
    for name in ARRAYS:
        if name not in arrays:
            raise NetworkFileError(f"network has no array {name!r}")
        if not np.issubdtype(arrays[name].dtype, np.integer):
            raise NetworkFileError(f"network array {name!r} is not integers")
    hidden = int(arrays["b1"].shape[0]) if arrays["b1"].ndim == 1 else 0
    layer2 = int(arrays["b2"].shape[0]) if arrays["b2"].ndim == 1 else 0
    if hidden != HIDDEN or layer2 != LAYER2:
        raise NetworkFileError(
            f"network has {hidden} x {layer2} units; this engine evaluates {HIDDEN} x {LAYER2}"
        )
    for name, expected in _shapes(hidden, layer2).items():
        if tuple(arrays[name].shape) != expected:
            raise NetworkFileError(
                f"network array {name!r} has shape {tuple(arrays[name].shape)}, expected {expected}"
            )
    if not 1 <= out_scale <= 10_000:
        raise NetworkFileError(f"out_scale must be 1 to 10000 centipawns, not {out_scale}")
    for name in ARRAYS:  # int32 sums of at most 128 products stay far from overflowing
        if np.abs(arrays[name].astype(np.int64)).max(initial=0) > WEIGHT_LIMIT:
            raise NetworkFileError(f"network array {name!r} has weights beyond {WEIGHT_LIMIT}")
    w1, b1, w2, b2, w3, b3, size = _offsets(hidden, layer2)
    block = np.zeros(size, dtype=np.int64)
    block[N_MAGIC], block[N_HIDDEN], block[N_LAYER2] = MAGIC, hidden, layer2
    block[N_OUT_SCALE] = out_scale
    block[N_RESIDUAL] = int(residual)
    block[w1:b1] = _packed(arrays["w1"])
    block[b1:w2] = _packed(arrays["b1"])
    block[w2:b2] = _packed(arrays["w2"])
    block[b2:w3] = arrays["b2"]
    block[w3:b3] = arrays["w3"]
    block[b3] = arrays["b3"][0]
    return block


def load_network(path: str | Path = DEFAULT_NETWORK) -> NDArray[np.int64]:
    """The network's block from a weight file (``.npz``: the arrays of
    :func:`network_from_arrays`, ``out_scale`` and optionally ``residual``);
    :class:`NetworkFileError` when the file cannot be read or holds no such network."""
    try:
        with np.load(Path(path), allow_pickle=False) as data:
            arrays = {name: np.asarray(data[name]) for name in data.files}
    except FileNotFoundError as error:
        raise NetworkFileError(f"no network file {path}") from error
    except (OSError, ValueError) as error:  # not a zip, a damaged one, a pickled array
        raise NetworkFileError(f"{path} is not a network file: {error}") from error
    if "out_scale" not in arrays or arrays["out_scale"].size != 1:
        raise NetworkFileError(f"{path}: network has no out_scale")
    residual = arrays.get("residual", np.zeros(1, dtype=np.int64))
    if residual.size != 1 or int(residual.ravel()[0]) not in (0, 1):
        raise NetworkFileError(f"{path}: residual must be 0 or 1")
    try:
        return network_from_arrays(
            arrays, int(arrays["out_scale"].ravel()[0]), residual=bool(residual.ravel()[0])
        )
    except NetworkFileError as error:
        raise NetworkFileError(f"{path}: {error}") from error


def with_network(params: NDArray[np.int64], block: NDArray[np.int64]) -> NDArray[np.int64]:
    """The search's weights for the learned evaluation: the hand-tuned ``params`` (which
    still order moves) followed by the network's ``block``."""
    if len(params) != NUM_PARAMS:
        raise ValueError(f"expected {NUM_PARAMS} evaluation weights, got {len(params)}")
    return np.ascontiguousarray(np.concatenate([params, block]), dtype=np.int64)


# ------------------------------------------------------------------------ compiled part


@njit(f"boolean({A1})", **HOT_NOGIL)
def uses_network(params: NDArray[np.int64]) -> bool:
    """Whether ``params`` carries a network (:func:`with_network`)."""
    found: bool = params.shape[0] > NUM_PARAMS and params[NUM_PARAMS + N_MAGIC] == MAGIC
    return found


@njit(f"boolean({A1})", **HOT_NOGIL)
def adds_classic(params: NDArray[np.int64]) -> bool:
    """Whether the network of ``params`` is a correction to the hand-tuned evaluation."""
    residual: bool = params[NUM_PARAMS + N_RESIDUAL] != 0
    return residual


@njit(f"void({A1}, {A1}, {A1}, int64)", **HOT_NOGIL)
def _refresh(
    state: NDArray[np.int64], params: NDArray[np.int64], work: NDArray[np.int64], start: int
) -> None:
    """Both perspectives' accumulators from scratch into ``work[start:]`` (Red's, then
    Blue's, int32 pairs packed in words)."""
    base = NUM_PARAMS
    hidden = HIDDEN
    w1 = params[base + N_WEIGHTS : base + N_WEIGHTS + FEATURES * hidden // 2].view(np.int32)
    b1_at = base + N_WEIGHTS + FEATURES * hidden // 2
    b1 = params[b1_at : b1_at + hidden // 2].view(np.int32)
    acc = work[start : start + hidden].view(np.int32)
    for p in range(2):
        out = p * hidden
        for i in range(hidden):
            acc[out + i] = b1[i]
        for square in range(63):
            code = state[S_BOARD + square]
            if code != 0:
                row = FEATURE[p, code, square] * hidden
                for i in range(hidden):
                    acc[out + i] += w1[row + i]


@njit(f"void({A1}, {A1}, int64, int64, int64, int64, int64, int64)", **HOT_NOGIL)
def _apply_move(
    work: NDArray[np.int64],
    params: NDArray[np.int64],
    source: int,
    target: int,
    code: int,
    frm: int,
    to: int,
    captured: int,
) -> None:
    """The accumulators at ``work[source:]`` moved by one ply into ``work[target:]`` (a
    pass: copied)."""
    base = NUM_PARAMS
    hidden = HIDDEN
    w1 = params[base + N_WEIGHTS : base + N_WEIGHTS + FEATURES * hidden // 2].view(np.int32)
    before = work[source : source + hidden].view(np.int32)
    after = work[target : target + hidden].view(np.int32)
    for p in range(2):
        out = p * hidden
        if code == 0:
            for i in range(hidden):
                after[out + i] = before[out + i]
            continue
        gone = FEATURE[p, code, frm] * hidden
        come = FEATURE[p, code, to] * hidden
        if captured == 0:
            for i in range(hidden):
                after[out + i] = before[out + i] + w1[come + i] - w1[gone + i]
        else:
            taken = FEATURE[p, captured, to] * hidden
            for i in range(hidden):
                after[out + i] = before[out + i] + w1[come + i] - w1[gone + i] - w1[taken + i]


@njit(f"int64({A1}, {A1}, int64, int64, int64)", **HOT_NOGIL)
def _output(
    params: NDArray[np.int64], work: NDArray[np.int64], start: int, scratch: int, turn: int
) -> int:
    """The network's output in centipawns for the side ``turn`` given both accumulators at
    ``work[start:]`` (Red's, then Blue's); ``work[scratch:]`` (HIDDEN words) is its
    scratch."""
    base = NUM_PARAMS
    hidden = HIDDEN
    layer2 = LAYER2
    w2_at = base + N_WEIGHTS + FEATURES * hidden // 2 + hidden // 2
    w2 = params[w2_at : w2_at + layer2 * hidden].view(np.int32)
    b2 = w2_at + layer2 * hidden
    w3 = b2 + layer2
    b3 = w3 + layer2
    acc = work[start : start + hidden].view(np.int32)
    active = work[scratch : scratch + hidden].view(np.int32)
    us = turn * hidden
    them = (1 - turn) * hidden
    # The clipped activations once, side to move first: the products below then vectorise.
    for i in range(hidden):
        active[i] = min(max(acc[us + i], 0), QA)
        active[hidden + i] = min(max(acc[them + i], 0), QA)
    width = 2 * hidden
    out = params[b3]
    for j in range(layer2):
        row = j * width
        total = np.int32(0)
        for i in range(width):
            total += active[i] * w2[row + i]
        # Rounded, not floored: floors would bias every layer's output downward.
        out += min(max((params[b2 + j] + total + QB // 2) // QB, 0), QA) * params[w3 + j]
    scaled = out * params[base + N_OUT_SCALE]
    score: int = (scaled + QA * QB // 2) // (QA * QB)
    return score


@njit(f"int64({A1}, {A1})", cache=True, nogil=True)
def evaluate_network(state: NDArray[np.int64], params: NDArray[np.int64]) -> int:
    """The network's evaluation from scratch: centipawns for the side to move."""
    work = np.zeros(2 * HIDDEN, dtype=np.int64)
    _refresh(state, params, work, 0)
    return _output(params, work, 0, HIDDEN, state[S_TURN])


@njit(f"int64({A1}, {A2}, {A1}, {A1})", **HOT_NOGIL)
def network_evaluate(
    state: NDArray[np.int64],
    history: NDArray[np.int64],
    params: NDArray[np.int64],
    work: NDArray[np.int64],
) -> int:
    """The network's evaluation inside a search: the accumulators of this ply brought up to
    date from the nearest ply above whose accumulators belong to the path (see the module's
    notes), or computed from scratch when none does."""
    row = state[S_PLY]
    slot = row - work[C_ROOT_PLY]
    if slot < 0 or slot > MAX_PLY:
        # Not a search ply (a quiescence call outside a search): the spare slot, uncached.
        start = W_ACC + (ACC_SLOTS - 1) * ACC_STRIDE
        _refresh(state, params, work, start + 1)
        work[start] = 0
        return _output(params, work, start + 1, W_ACC_ACTIVE, state[S_TURN])
    back = nearest_tagged_slot(state, history, work, W_ACC, ACC_STRIDE)
    here = W_ACC + slot * ACC_STRIDE
    if back < 0:
        _refresh(state, params, work, here + 1)
        work[here] = state[S_HASH]
    else:
        while back > 0:
            ply = row - back  # the history row of the move from ply slot-back to the next
            source = W_ACC + (slot - back) * ACC_STRIDE
            target = source + ACC_STRIDE
            _apply_move(
                work,
                params,
                source + 1,
                target + 1,
                history[ply, H_CODE],
                history[ply, H_FROM],
                history[ply, H_TO],
                history[ply, H_CAPTURED],
            )
            back -= 1
            work[target] = path_key(state, history, back)
    return _output(params, work, here + 1, W_ACC_ACTIVE, state[S_TURN])
