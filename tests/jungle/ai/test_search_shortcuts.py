"""Issue 31's third speed round (docs/engine-research.md, "Speed, third round"): each shortcut
of the search equals what it replaces — the table move's legality found without the move list,
quiescence's moves generated without the others, a leaf entered in quiescence without a call
through negamax, the history rewound to score a list made late — so the tree stays the same.

Positions come from random playouts that often move the same animal back and forth, so that
7-3, 17-5 and must-vary repetition bite.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
import pytest
from tests.jungle.ai.helpers import INTERNATIONAL_RESTRICTED, ONLY_7_3, START

from doushouqi.jungle.ai import Position, Searcher
from doushouqi.jungle.ai.eval_params import default_params
from doushouqi.jungle.ai.movegen import (
    MAX_MOVES,
    compute_restrictions,
    generate_legal_moves,
    generate_moves_given_restrictions,
    generate_moves_onto,
    is_game_over_on_board,
    is_legal_given_restrictions,
    piece_targets,
)
from doushouqi.jungle.ai.quiescence import INFINITE, LEAF, qsearch
from doushouqi.jungle.ai.search import negamax
from doushouqi.jungle.ai.state import S_OCCUPANCY, S_PLY, S_TURN, S_WHERE
from doushouqi.jungle.ai.tables import CAPTURED, TRAP_BB
from doushouqi.jungle.ai.tbprobe import empty_tables
from doushouqi.jungle.ai.ttable import new_tt
from doushouqi.jungle.ai.tuning import DEFAULT_TUNING
from doushouqi.jungle.ai.work import (
    C_CONTEMPT,
    C_HISTORY_WRITES,
    C_NODES,
    C_QCHECKS,
    C_REPEAT_FROM,
    C_ROOT_PLY,
    C_SELDEPTH,
    JOURNAL_ENTRIES,
    W_HISTORY,
    new_work,
    replay_history,
    reward_quiet,
    rewind_history,
)
from doushouqi.jungle.analysis import Limit
from doushouqi.jungle.board import Board
from doushouqi.jungle.rules import RuleSet, find_rules

RULE_SETS = [find_rules("wango"), find_rules("classic"), ONLY_7_3, INTERNATIONAL_RESTRICTED]
IDS = [rules.name for rules in RULE_SETS]
#: bench/search.py's positions 1, 3 and 8 (an opening, a middlegame, a den fight).
SEARCH_POSITIONS = [
    "1l3t1/2d1c2/2p1w1e/1r5/7/5R1/E1WP3/1C2D2/1T3L1 w 12 7",
    "4tc1/1ldwL2/2p4/7/3eR2/1r5/2EP3/1C1WD2/1T5 w 50 26",
    "7/2d1c2/2we3/L3R2/T6/1r5/W1l4/1EC2t1/4D2 w 20 36",
]


def positions(rules: RuleSet, seed: str, count: int) -> Iterator[Position]:
    """``count`` positions of random playouts from the start (each also over the board)."""
    rng = random.Random(f"{seed}-{rules.name}")
    made = 0
    while made < count:
        board = Board(START, rules)
        persistence = rng.choice((0.3, 0.97))
        for _ in range(rng.randrange(10, 140)):
            legal = list(board.generate_legal_moves())
            if not legal or board.is_game_over_on_board():
                break
            move = rng.choice(legal)
            last = board.move_stack[-2] if len(board.move_stack) >= 2 else None
            if last and rng.random() < persistence:
                # Mostly the animal moved last time, straight back where it came from.
                same = [m for m in legal if m.from_square == last.to_square]
                back = [m for m in same if m.to_square == last.from_square]
                move = rng.choice(back if back and rng.random() < 0.9 else same or legal)
            board.push(move)
            if rng.random() < 0.15:
                yield Position.from_board(board)
                made += 1


def full_list(position: Position) -> list[int]:
    moves = np.zeros(MAX_MOVES, dtype=np.int64)
    count = generate_legal_moves(position.state, position.history, position.compiled_rules, moves)
    return [int(m) for m in moves[:count]]


@pytest.mark.parametrize("rules", RULE_SETS, ids=IDS)
def test_the_table_moves_legality_is_membership_of_the_list(rules: RuleSet) -> None:
    rng = random.Random(f"legality-{rules.name}")
    forbidden = 0  # moves the animal could make but a restriction forbids: the hard cases
    for position in positions(rules, "legality", 150):
        state, history, compiled = position.state, position.history, position.compiled_rules
        if is_game_over_on_board(state):
            continue
        restricted = bool(compute_restrictions(state, history, compiled))
        moves = np.zeros(MAX_MOVES, dtype=np.int64)
        count = generate_moves_given_restrictions(state, history, compiled, moves, restricted)
        listed = {int(m) for m in moves[:count]}
        # Every move of every animal before restrictions (both sides), and codes at random,
        # some with square 63 (off the board) at either end.
        candidates = {rng.randrange(4096) for _ in range(40)} | {63, 63 << 6, 4095}
        for code in range(1, 17):
            square = int(state[S_WHERE + code])
            if square == CAPTURED:
                continue
            targets = int(piece_targets(state, compiled, code, square))
            own = (code - 1) // 8 == state[S_TURN]
            for to in range(63):
                if (targets >> to) & 1:
                    move = square | to << 6
                    candidates.add(move)
                    forbidden += own and move not in listed
        for move in candidates:
            legal = is_legal_given_restrictions(state, history, compiled, move, restricted)
            assert legal == (move in listed), (move & 63, move >> 6, position.starting_fen)
    if rules.rule_7_3 or rules.rule_17_5:
        assert forbidden >= 10


@pytest.mark.parametrize("rules", RULE_SETS, ids=IDS)
def test_quiescence_generates_the_full_list_filtered(rules: RuleSet) -> None:
    rng = random.Random(f"onto-{rules.name}")
    every_square = (1 << 63) - 1
    for position in positions(rules, "onto", 150):
        state, history, compiled = position.state, position.history, position.compiled_rules
        if is_game_over_on_board(state):
            continue
        full = full_list(position)
        enemy = int(state[S_OCCUPANCY + 1 - state[S_TURN]])
        masks = [every_square, 0, enemy, enemy | int(TRAP_BB[1 - state[S_TURN]])]
        masks += [rng.getrandbits(63) for _ in range(3)]
        for mask in masks:
            moves = np.zeros(MAX_MOVES, dtype=np.int64)
            count = generate_moves_onto(state, history, compiled, moves, mask)
            if not full:
                assert count == -1
            else:
                kept = [move for move in full if (mask >> (move >> 6)) & 1]
                assert [int(m) for m in moves[: max(0, count)]] == kept


def leaf_work(position: Position) -> np.ndarray:
    work = new_work()
    work[C_QCHECKS] = DEFAULT_TUNING["quiescence_threats"]
    work[C_CONTEMPT] = 50
    work[C_ROOT_PLY] = work[C_REPEAT_FROM] = max(0, int(position.state[S_PLY]) - 3)
    return work


@pytest.mark.parametrize("rules", RULE_SETS, ids=IDS)
def test_a_leaf_entered_in_quiescence_is_negamax_at_depth_zero(rules: RuleSet) -> None:
    tables = empty_tables()
    tt = new_tt(1)
    params = default_params()
    for position in positions(rules, "leaf", 120):
        state, history, compiled = position.state, position.history, position.compiled_rules
        for alpha, beta in ((-INFINITE, INFINITE), (-30, -29), (100, 101)):
            work = leaf_work(position)
            via_negamax = negamax(state, history, compiled, tt, work, params, *tables,
                                  0, alpha, beta, 3, 0)  # fmt: skip
            direct = leaf_work(position)
            entered = qsearch(state, history, compiled, direct, params, *tables,
                              alpha, beta, 3, LEAF)  # fmt: skip
            assert entered == via_negamax, position.starting_fen
            for word in (C_NODES, C_SELDEPTH):
                assert direct[word] == work[word]


def test_the_history_rewinds_to_a_mark_and_replays() -> None:
    rng = random.Random("journal")
    work = new_work()

    def play(writes: int) -> None:
        for _ in range(writes):
            reward_quiet(
                work, rng.randrange(2), 3, rng.randrange(64) | 7 << 6, rng.randrange(-400, 400)
            )

    play(50)
    mark = int(work[C_HISTORY_WRITES])
    before = work[W_HISTORY : W_HISTORY + 8192].copy()
    play(300)
    after = work[W_HISTORY : W_HISTORY + 8192].copy()
    assert not np.array_equal(before, after)
    assert rewind_history(work, mark)
    assert np.array_equal(work[W_HISTORY : W_HISTORY + 8192], before)
    replay_history(work, mark)
    assert np.array_equal(work[W_HISTORY : W_HISTORY + 8192], after)
    # More writes than the journal holds: nothing to rewind to, and nothing changes.
    mark = int(work[C_HISTORY_WRITES])
    play(JOURNAL_ENTRIES + 1)
    after = work[W_HISTORY : W_HISTORY + 8192].copy()
    assert not rewind_history(work, mark)
    assert np.array_equal(work[W_HISTORY : W_HISTORY + 8192], after)


@pytest.mark.parametrize("rules", RULE_SETS, ids=IDS)
def test_searching_the_table_move_first_keeps_the_tree(rules: RuleSet) -> None:
    """The same nodes and answers whether nodes search their table move before generating
    their list (``staged_depth``) or not; without the history's rewind they differ."""
    for fen in SEARCH_POSITIONS:
        results = []
        for staged_depth in (0, DEFAULT_TUNING["staged_depth"]):
            engine = Searcher(rules, hash_mb=8)
            engine.tuning["staged_depth"] = staged_depth
            result = engine.search(Board(fen, rules), Limit(depth=7))
            results.append((result.info["nodes"], str(result.move), result.info["score"]))
        assert results[0] == results[1], fen
