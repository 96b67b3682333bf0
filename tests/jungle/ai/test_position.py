"""The Position wrapper and make/unmake: history import, passes, take-backs, the incremental
Zobrist hash, and the history growing on demand."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.jungle.ai.helpers import MIDGAME, START, fen_of, play

from doushouqi.jungle.ai import (
    MAX_MOVES,
    Position,
    compute_hash,
    generate_legal_moves,
    make_move,
    unmake_move,
)
from doushouqi.jungle.ai.state import S_FORBID, S_HASH
from doushouqi.jungle.board import Board, Move


def test_start_position_matches_the_library() -> None:
    board = Board(rules="wango")
    position = Position(rules="wango")
    assert position.piece_codes() == board.piece_codes()
    assert position.turn == 0
    assert position.zobrist_hash() == board.zobrist_hash()
    assert position.ply == 0


def test_blue_first_rule_sets_start_with_blue() -> None:
    from doushouqi.jungle.rules import RuleSet

    assert Position(rules=RuleSet(name="blue-first", first_player=1)).turn == 1


def test_from_board_imports_the_history() -> None:
    board = play(Board(START, "classic"), "a3a4 g7g6 0000 g6g5 a4a5")
    position = Position.from_board(board)
    assert position.ply == 5
    assert position.history_moves() == board.history_codes()
    assert position.zobrist_hash() == board.zobrist_hash()
    assert position.halfmove_clock == board.halfmove_clock == 5
    assert position.to_board().fen() == board.fen()


def test_capture_resets_the_halfmove_clock_and_pop_restores_it() -> None:
    position = Position(fen_of("Ea3 ra4 Lg1 la9") + " 7", "wango")
    assert position.halfmove_clock == 7
    position.push_pass()  # Red passes
    assert (position.turn, position.halfmove_clock) == (1, 8)
    position.push(21, 14)  # Blue's rat takes the elephant: a4xa3
    assert position.halfmove_clock == 0
    assert position.piece_codes()[14] == 9
    assert position.pop() == (21, 14)
    assert position.pop() is None
    assert (position.turn, position.halfmove_clock) == (0, 7)


def test_push_rejects_illegal_moves_and_pop_needs_a_move() -> None:
    position = Position(START, "wango")
    with pytest.raises(ValueError, match="illegal move a3a5"):
        position.push(14, 28)
    with pytest.raises(IndexError):
        position.pop()


def test_history_grows_beyond_its_initial_size() -> None:
    position = Position(START, "international", search_plies=1)
    for text in ["a3a4", "g7g6", "a4a3", "g6g7", "a3a4", "g7g6"]:
        move = Move.from_str(text)
        position.push(move.from_square, move.to_square)
    assert position.ply == 6
    assert position.perft(3) == position.to_board().perft(3)


def test_copy_is_independent() -> None:
    position = Position(MIDGAME, "wango")
    copy = position.copy()
    copy.push(*copy.legal_moves()[0])
    assert position.ply == 0 and copy.ply == 1
    assert position.zobrist_hash() != copy.zobrist_hash()


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(1, 80))
def test_make_unmake_restores_everything_and_hash_stays_exact(seed: int, plies: int) -> None:
    rng = random.Random(seed)
    position = Position(START, rng.choice(["wango", "classic", "international"]))
    state, history, rules = position.state, position.history, position.compiled_rules
    snapshots = []
    moves = np.empty(MAX_MOVES, dtype=np.int64)
    for _ in range(min(plies, len(history))):
        count = generate_legal_moves(state, history, rules, moves)
        if count == 0:
            break
        snapshots.append(state[:S_FORBID].copy())
        make_move(state, history, moves[rng.randrange(count)])
        assert state[S_HASH] == compute_hash(state)
    while snapshots:
        unmake_move(state, history)
        assert np.array_equal(state[:S_FORBID], snapshots.pop())
