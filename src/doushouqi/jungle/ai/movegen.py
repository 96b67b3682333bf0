"""Legal move generation and counting on the ``state``/``history`` arrays of :mod:`.state`.

Semantics follow docs/rules.md and the rules library (``doushouqi.jungle.board``) exactly; a
differential
test keeps the two in agreement. Legal moves are the movement/capture moves (section 3/4) minus
the move restrictions of section 6 (7-3, 17-5, must-vary repetition); a position in which the
game is over on the board (a den entered, a side without animals) has none. Draws by repetition
or by the no-capture limit do not remove moves.

Speed (docs/engine-research.md, "Perft speed"): the functions that run at every node take
their arrays without reference counting (:data:`.jit.HOT`), and the per-piece helpers are
inlined into them (:data:`.jit.INLINE`).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from doushouqi.compiled.jit import hot, inline
from doushouqi.jungle.ai.bitops import lowest_square, popcount, square_bit
from doushouqi.jungle.ai.state import (
    H_CAPTURED,
    H_CODE,
    H_FROM,
    H_HASH,
    H_TO,
    S_BOARD,
    S_FORBID,
    S_HALFMOVE,
    S_HASH,
    S_OCCUPANCY,
    S_PLY,
    S_TURN,
    S_WHERE,
    S_WINDOW,
)
from doushouqi.jungle.ai.tables import (
    ALL_TRAPS,
    CAPTURED,
    DEN_BB,
    JUMP_COUNT,
    JUMP_LANDING,
    JUMP_PATH,
    LAND,
    NEIGHBOURS,
    RULE_7_3,
    RULE_17_5,
    RULE_NO_CAPTURE_PLIES,
    RULE_OWN_RAT_BLOCKS_JUMP,
    RULE_RANK,
    RULE_RAT_CAPTURES_ACROSS_WATER,
    RULE_REPETITION_MUST_VARY,
    RULE_TRAPPED_CAN_CAPTURE,
    TRAP_BB,
    WATER_BB,
    ZOBRIST_PIECE,
    ZOBRIST_TURN,
)
from doushouqi.jungle.squares import ELEPHANT, LION, RAT, TIGER

__all__ = [
    "MAX_MOVES",
    "can_capture",
    "compute_restrictions",
    "count_legal_moves",
    "generate_legal_moves",
    "generate_moves_given_restrictions",
    "generate_moves_onto",
    "is_draw_by_rule",
    "is_game_over_on_board",
    "is_legal_given_restrictions",
    "is_square_attacked",
    "piece_targets",
    "position_count",
    "repetition_count",
]

#: Size of a move list: 8 animals with at most one destination in each of 4 directions.
MAX_MOVES = 32

# Fewest own moves in which 7-3 can bite (enter, leave, enter, leave, enter) and its window.
_MIN_MOVES_7_3 = 5
_WINDOW_7_3 = 7
_WINDOW_17_5 = 17


@inline
def is_game_over_on_board(state: NDArray[np.int64]) -> bool:
    """A den is entered or a side has no animals: then no move can be played."""
    red: int = state[S_OCCUPANCY]
    blue: int = state[S_OCCUPANCY + 1]
    return red == 0 or blue == 0 or (red & DEN_BB[1]) != 0 or (blue & DEN_BB[0]) != 0


@inline
def can_capture(
    rules: NDArray[np.int64], attacker: int, from_square: int, defender: int, to_square: int
) -> bool:
    """docs/rules.md section 4 for one attacker/defender pair (the trapped-attacker rule aside)."""
    color = (attacker - 1) >> 3
    attacker_animal = attacker - 8 * color
    defender_animal = ((defender - 1) & 7) + 1
    # A defender in a trap around the attacker's own den has effective rank 0.
    in_attackers_trap = (TRAP_BB[color] >> to_square) & 1
    if attacker_animal == RAT:
        from_water = (WATER_BB >> from_square) & 1
        if defender_animal == RAT:
            allowed: bool = (
                from_water == ((WATER_BB >> to_square) & 1)
                or rules[RULE_RAT_CAPTURES_ACROSS_WATER] != 0
            )
        else:
            allowed = from_water == 0 and (defender_animal == ELEPHANT or in_attackers_trap != 0)
    else:
        allowed = in_attackers_trap != 0 or (
            not (attacker_animal == ELEPHANT and defender_animal == RAT)
            and rules[RULE_RANK + attacker] >= rules[RULE_RANK + defender]
        )
    return allowed


@inline
def _piece_targets(
    state: NDArray[np.int64], rules: NDArray[np.int64], code: int, square: int
) -> int:
    """:func:`piece_targets`, inlined into the generators."""
    color = (code - 1) >> 3
    animal = code - 8 * color
    if animal == RAT:
        targets: int = NEIGHBOURS[square]
    else:
        targets = NEIGHBOURS[square] & LAND
        if animal in (LION, TIGER):
            jumps = JUMP_COUNT[square]
            if jumps != 0:
                # A captured rat "stands" on square 63, which no path contains.
                blockers = square_bit(state[S_WHERE + 8 * (1 - color) + RAT])
                if rules[RULE_OWN_RAT_BLOCKS_JUMP] != 0:
                    blockers |= square_bit(state[S_WHERE + 8 * color + RAT])
                for i in range(jumps):
                    if (JUMP_PATH[square, i] & blockers) == 0:
                        targets |= square_bit(JUMP_LANDING[square, i])
    targets &= ~(state[S_OCCUPANCY + color] | DEN_BB[color])
    enemies = targets & state[S_OCCUPANCY + 1 - color]
    if enemies != 0:
        if rules[RULE_TRAPPED_CAN_CAPTURE] == 0 and ((TRAP_BB[1 - color] >> square) & 1) != 0:
            targets &= ~enemies  # an attacker in an enemy trap captures nothing
        else:
            while enemies != 0:
                target = lowest_square(enemies)
                enemies &= enemies - 1
                if not can_capture(rules, code, square, state[S_BOARD + target], target):
                    targets ^= square_bit(target)
    return targets


@hot
def piece_targets(
    state: NDArray[np.int64], rules: NDArray[np.int64], code: int, square: int
) -> int:
    """Bitboard of the squares the animal ``code`` on ``square`` may move to (steps, jumps and
    captures), before the move restrictions."""
    return _piece_targets(state, rules, code, square)


@hot
def is_square_attacked(state: NDArray[np.int64], rules: NDArray[np.int64], square: int) -> bool:
    """Whether the animal on ``square`` could be captured by the other side right now."""
    attacked = False
    code = state[S_BOARD + square]
    if code != 0:
        enemy = 1 - ((code - 1) >> 3)
        for attacker in range(8 * enemy + 1, 8 * enemy + 9):
            where = state[S_WHERE + attacker]
            if where != CAPTURED and (_piece_targets(state, rules, attacker, where) >> square) & 1:
                attacked = True
                break
    return attacked


@inline
def compute_restrictions(
    state: NDArray[np.int64], history: NDArray[np.int64], rules: NDArray[np.int64]
) -> bool:
    """Fill ``state[S_FORBID + code]`` for the side to move's animals with the squares that
    rule 7-3 and rule 17-5 forbid them now; False (and nothing to read) when none are.

    Inlined: without 7-3 and 17-5 it is two reads of ``rules``."""
    restricted = False
    if rules[RULE_7_3] != 0 or rules[RULE_17_5] != 0:
        restricted = _compute_restrictions(state, history, rules)
    return restricted


@hot
def _compute_restrictions(
    state: NDArray[np.int64], history: NDArray[np.int64], rules: NDArray[np.int64]
) -> bool:
    """:func:`compute_restrictions` under a rule set with 7-3 or 17-5."""
    check_7_3 = rules[RULE_7_3] != 0
    check_17_5 = rules[RULE_17_5] != 0
    turn = state[S_TURN]
    limit = _WINDOW_17_5 if check_17_5 else _WINDOW_7_3
    # The side's own recent moves, newest first; passes (code 0) are skipped.
    count = 0
    ply = state[S_PLY] - 1
    while ply >= 0 and count < limit:
        code = history[ply, H_CODE]
        if code != 0 and ((code - 1) >> 3) == turn:
            state[S_WINDOW + count] = ply
            count += 1
        ply -= 1
    if count < _MIN_MOVES_7_3:
        return False
    for code in range(8 * turn + 1, 8 * turn + 9):
        state[S_FORBID + code] = 0
    restricted = False

    if check_7_3:
        window = min(count, _WINDOW_7_3)
        for i in range(window):
            row = state[S_WINDOW + i]
            code = history[row, H_CODE]
            target = history[row, H_TO]
            entries = 0
            entered_trap = False
            for j in range(window):
                other = state[S_WINDOW + j]
                if history[other, H_CODE] == code:
                    if history[other, H_TO] == target:
                        entries += 1
                    if (ALL_TRAPS >> history[other, H_TO]) & 1:
                        entered_trap = True
            if entries < 3 or entered_trap:
                continue
            if (state[S_FORBID + code] >> target) & 1:
                continue  # already forbidden (the same entry seen again)
            where = state[S_WHERE + code]
            # An animal that is being chased (stands attacked) is exempt.
            if where == CAPTURED or is_square_attacked(state, rules, where):
                continue
            state[S_FORBID + code] |= square_bit(target)
            restricted = True

    if check_17_5 and count >= _WINDOW_17_5:
        code = history[state[S_WINDOW], H_CODE]
        oldest = state[S_WINDOW + _WINDOW_17_5 - 1]
        squares = square_bit(history[oldest, H_FROM])
        same_animal = True
        entered_trap = False
        for i in range(_WINDOW_17_5):
            row = state[S_WINDOW + i]
            if history[row, H_CODE] != code:
                same_animal = False
                break
            squares |= square_bit(history[row, H_TO])
            if (ALL_TRAPS >> history[row, H_TO]) & 1:
                entered_trap = True
        if same_animal and not entered_trap and popcount(squares) <= 5:
            state[S_FORBID + code] |= squares
            restricted = True
    return restricted


@hot
def position_count(state: NDArray[np.int64], history: NDArray[np.int64], position_hash: int) -> int:
    """How many times the position with this hash has stood, the current one included.

    Only positions since the last capture are looked at: earlier ones had more animals.
    """
    count = 1 if state[S_HASH] == position_hash else 0
    ply = state[S_PLY] - 1
    while ply >= 0 and history[ply, H_CAPTURED] == 0:
        if history[ply, H_HASH] == position_hash:
            count += 1
        ply -= 1
    return count


@hot
def repetition_count(state: NDArray[np.int64], history: NDArray[np.int64]) -> int:
    """How many times the current position (board and side to move) has stood."""
    return position_count(state, history, state[S_HASH])


@hot
def is_draw_by_rule(
    state: NDArray[np.int64], history: NDArray[np.int64], rules: NDArray[np.int64]
) -> bool:
    """Drawn by the no-capture limit or, under ``threefold_draw``, by a third repetition.

    Only meaningful when the game is not already over on the board (checked first, as in
    ``Board.outcome``). Such a draw does not remove legal moves; it is for scoring.
    """
    limit = rules[RULE_NO_CAPTURE_PLIES]
    if limit != 0 and state[S_HALFMOVE] >= limit:
        return True
    return rules[RULE_REPETITION_MUST_VARY] == 0 and repetition_count(state, history) >= 3


@inline
def _must_vary(
    state: NDArray[np.int64], history: NDArray[np.int64], rules: NDArray[np.int64]
) -> bool:
    """Repetition rule ``initiator_must_vary`` is in force: the position stands a third time."""
    return rules[RULE_REPETITION_MUST_VARY] != 0 and repetition_count(state, history) >= 3


@inline
def _repeats(
    state: NDArray[np.int64], history: NDArray[np.int64], code: int, frm: int, to: int
) -> bool:
    """Whether moving ``code`` from ``frm`` to ``to`` leads into a position that has already
    stood twice (which must-vary forbids)."""
    after = (
        state[S_HASH]
        ^ ZOBRIST_TURN
        ^ ZOBRIST_PIECE[code, frm]
        ^ ZOBRIST_PIECE[code, to]
        ^ ZOBRIST_PIECE[state[S_BOARD + to], to]
    )
    return position_count(state, history, after) >= 2


@hot
def _drop_repeating_moves(
    state: NDArray[np.int64], history: NDArray[np.int64], moves: NDArray[np.int64], count: int
) -> int:
    """Remove the moves into a position that has already stood twice; returns the new count."""
    kept = 0
    for i in range(count):
        move = moves[i]
        frm = move & 63
        if not _repeats(state, history, state[S_BOARD + frm], frm, move >> 6):
            moves[kept] = move
            kept += 1
    return kept


@inline
def _allowed_targets(
    state: NDArray[np.int64], rules: NDArray[np.int64], code: int, square: int, restricted: bool
) -> int:
    """The animal's targets less the squares rule 7-3 / 17-5 forbid it now (``restricted``:
    what :func:`compute_restrictions` returned for this position)."""
    targets = _piece_targets(state, rules, code, square)
    if restricted:
        targets &= ~state[S_FORBID + code]
    return targets


@hot
def generate_legal_moves(
    state: NDArray[np.int64],
    history: NDArray[np.int64],
    rules: NDArray[np.int64],
    moves: NDArray[np.int64],
) -> int:
    """Write the legal moves (``from | to << 6``) into ``moves`` (at least MAX_MOVES long) and
    return how many there are. Order: by piece code (rat first), then by target square."""
    count = 0
    if not is_game_over_on_board(state):
        restricted = compute_restrictions(state, history, rules)
        count = generate_moves_given_restrictions(state, history, rules, moves, restricted)
    return count


@hot
def generate_moves_given_restrictions(
    state: NDArray[np.int64],
    history: NDArray[np.int64],
    rules: NDArray[np.int64],
    moves: NDArray[np.int64],
    restricted: bool,
) -> int:
    """:func:`generate_legal_moves` for a caller that has just called :func:`compute_restrictions`
    itself (``restricted`` is what it returned) and changed nothing since, so that they are not
    computed twice (the search also needs them for its table key). The position must not be
    over on the board."""
    turn = state[S_TURN]
    count = 0
    for code in range(8 * turn + 1, 8 * turn + 9):
        square = state[S_WHERE + code]
        if square != CAPTURED:
            targets = _allowed_targets(state, rules, code, square, restricted)
            while targets != 0:
                to = lowest_square(targets)
                targets &= targets - 1
                moves[count] = square | (to << 6)
                count += 1
    if count != 0 and _must_vary(state, history, rules):
        count = _drop_repeating_moves(state, history, moves, count)
    return count


@hot
def generate_moves_onto(
    state: NDArray[np.int64],
    history: NDArray[np.int64],
    rules: NDArray[np.int64],
    moves: NDArray[np.int64],
    squares: int,
) -> int:
    """The legal moves onto the bitboard ``squares``: :func:`generate_legal_moves`' list with
    the others left out, in its order; -1 when the position has no legal move at all (not 0,
    which says only that none goes onto ``squares``). The position must not be over on the
    board. For quiescence, which searches captures and a few threats: writing out every move
    only to drop most of them cost more than finding them."""
    restricted = compute_restrictions(state, history, rules)
    turn = state[S_TURN]
    count = 0
    movable = False
    for code in range(8 * turn + 1, 8 * turn + 9):
        square = state[S_WHERE + code]
        if square != CAPTURED:
            targets = _allowed_targets(state, rules, code, square, restricted)
            if targets != 0:
                movable = True
                targets &= squares
                while targets != 0:
                    to = lowest_square(targets)
                    targets &= targets - 1
                    moves[count] = square | (to << 6)
                    count += 1
    if movable and _must_vary(state, history, rules):
        if count != 0:
            count = _drop_repeating_moves(state, history, moves, count)
        if count == 0:
            # Every move onto ``squares`` repeats: is any other move left? (The list is
            # scratch: the caller reads none of it when the answer is 0 or -1.)
            movable = (
                generate_moves_given_restrictions(state, history, rules, moves, restricted) > 0
            )
    return count if movable else -1


@hot
def is_legal_given_restrictions(
    state: NDArray[np.int64],
    history: NDArray[np.int64],
    rules: NDArray[np.int64],
    move: int,
    restricted: bool,
) -> bool:
    """Whether :func:`generate_moves_given_restrictions` (same preconditions) would list
    ``move``, found without generating the list: the targets of the one animal on its
    from-square only. For the search's table move, which a colliding key (or, under
    must-vary, the same board reached by another path) can make anything."""
    frm = move & 63
    to = move >> 6
    legal = False
    # Square 63 is not on the board (``state[S_BOARD + 63]`` is another field).
    if frm < 63 and to < 63:
        code = state[S_BOARD + frm]
        if code != 0 and ((code - 1) >> 3) == state[S_TURN]:
            targets = _allowed_targets(state, rules, code, frm, restricted)
            legal = ((targets >> to) & 1) != 0 and not (
                _must_vary(state, history, rules) and _repeats(state, history, code, frm, to)
            )
    return legal


@hot
def count_legal_moves(
    state: NDArray[np.int64], history: NDArray[np.int64], rules: NDArray[np.int64]
) -> int:
    """The number of legal moves, counted without building them (perft's last ply)."""
    total = 0
    if not is_game_over_on_board(state):
        restricted = compute_restrictions(state, history, rules)
        must_vary = _must_vary(state, history, rules)
        turn = state[S_TURN]
        for code in range(8 * turn + 1, 8 * turn + 9):
            square = state[S_WHERE + code]
            if square != CAPTURED:
                targets = _allowed_targets(state, rules, code, square, restricted)
                if must_vary:
                    # Only the moves into a position that has stood twice are dropped.
                    while targets != 0:
                        to = lowest_square(targets)
                        targets &= targets - 1
                        if not _repeats(state, history, code, square, to):
                            total += 1
                else:
                    total += popcount(targets)
    return total
