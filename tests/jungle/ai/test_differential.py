"""Differential tests: the engine core and the rules library agree on the legal moves (and the
hash, game-over flag and repetition count) in thousands of random positions per rule set.

Positions come from random playouts, from the start and from random legal set-ups, with a
strong bias to moving the same animal back and forth and occasional passes, so that 7-3, 17-5
and must-vary repetition bite often; set-ups sometimes put an animal in a den or leave a side
without animals (game over on the board).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.jungle.ai.helpers import (
    INTERNATIONAL_RESTRICTED,
    ONLY_7_3,
    ONLY_17_5,
    ONLY_MUST_VARY,
    START,
    fen_from_codes,
)

from doushouqi.jungle.ai import Position
from doushouqi.jungle.board import Board, Move
from doushouqi.jungle.outcome import Termination
from doushouqi.jungle.restrictions import forbidden_by_restrictions
from doushouqi.jungle.rules import BUILTIN_RULE_SETS, Repetition, RuleSet
from doushouqi.jungle.squares import DENS, WATER

RULE_SETS = [
    *BUILTIN_RULE_SETS.values(),
    ONLY_7_3,
    ONLY_17_5,
    ONLY_MUST_VARY,
    INTERNATIONAL_RESTRICTED,
]
POSITIONS_PER_RULE_SET = 2000
DRAWS_BY_RULE = (Termination.REPETITION, Termination.NO_CAPTURE_LIMIT)


@dataclass
class Tally:
    positions: int = 0
    game_over: int = 0
    drawn: int = 0  # by repetition or by the no-capture limit
    restricted: int = 0  # positions where a restriction removed at least one move


def compare(board: Board, position: Position, tally: Tally) -> list[Move]:
    """Assert agreement in the current position; return the library's legal moves."""
    library = list(board.generate_legal_moves())
    expected = {(m.from_square, m.to_square) for m in library}
    context = (board.starting_fen, [str(m) for m in board.move_stack])
    assert set(position.legal_moves()) == expected, context
    assert position.legal_move_count() == len(expected), context
    assert position.zobrist_hash() == board.zobrist_hash(), context
    assert position.is_game_over_on_board() == board.is_game_over_on_board(), context
    assert position.repetition_count() == board.repetition_count(), context
    assert position.piece_codes() == board.piece_codes(), context
    assert (position.turn, position.halfmove_clock) == (board.turn, board.halfmove_clock)
    if not board.is_game_over_on_board():
        outcome = board.outcome()
        drawn = outcome is not None and outcome.termination in DRAWS_BY_RULE
        assert position.is_draw_by_rule() == drawn, context
        tally.drawn += drawn
    tally.positions += 1
    tally.game_over += board.is_game_over_on_board()
    forbidden = forbidden_by_restrictions(board)
    if forbidden and any(board.is_pseudo_legal(Move(*pair)) for pair in forbidden):
        tally.restricted += 1
    return library


def choose(board: Board, legal: list[Move], rng: random.Random, persistence: float) -> Move:
    """A random move; with probability ``persistence`` the animal the side moved last time
    moves again, mostly straight back to where it came from."""
    own_last = board.move_stack[-2] if len(board.move_stack) >= 2 else None
    if own_last and rng.random() < persistence:
        back = Move(own_last.to_square, own_last.from_square)
        if back in legal and rng.random() < 0.7:
            return back
        same_animal = [m for m in legal if m.from_square == own_last.to_square]
        if same_animal:
            return rng.choice(same_animal)
    return rng.choice(legal)


def playout(board: Board, tally: Tally, rng: random.Random, plies: int) -> None:
    position = Position.from_board(board)
    persistence = rng.choice((0.3, 0.6, 0.97))
    for _ in range(plies):
        legal = compare(board, position, tally)
        if not legal:
            return
        if rng.random() < 0.03:
            board.push_pass()
            position.push_pass()
            continue
        move = choose(board, legal, rng, persistence)
        board.push(move)
        position.push(move.from_square, move.to_square)
    compare(board, position, tally)
    # Taking moves back restores the same positions.
    for _ in range(min(6, board.ply())):
        board.pop()
        position.pop()
        compare(board, position, tally)


def random_setup(rng: random.Random) -> tuple[list[int], int]:
    """Random legal piece placement: each animal present with some chance, anywhere it may
    stand (rats also in the water; an enemy den is allowed: game over)."""
    codes = [0] * 63
    empty_side = rng.random() < 0.04
    for color in (0, 1):
        for animal in range(1, 9):
            if (empty_side and color == 1) or rng.random() > 0.6:
                continue
            squares = [
                s
                for s in range(63)
                if not codes[s] and s != DENS[color] and (animal == 1 or not WATER >> s & 1)
            ]
            codes[rng.choice(squares)] = color * 8 + animal
    enemy_den = DENS[rng.randrange(2)]
    if rng.random() < 0.04 and not codes[enemy_den]:
        # Move one animal of the den's enemy into it: the game is over on the board.
        color = 1 if enemy_den == DENS[0] else 0
        animals = [s for s in range(63) if codes[s] and (codes[s] - 1) // 8 == color]
        if animals:
            square = rng.choice(animals)
            codes[enemy_den], codes[square] = codes[square], 0
    return codes, rng.randrange(2)


@pytest.mark.parametrize("rules", RULE_SETS, ids=[r.name for r in RULE_SETS])
def test_engine_agrees_with_library_in_random_positions(rules: RuleSet) -> None:
    rng = random.Random(f"differential-{rules.name}")
    tally = Tally()
    while tally.positions < POSITIONS_PER_RULE_SET // 2:
        playout(Board(START, rules), tally, rng, plies=rng.randrange(20, 120))
    while tally.positions < POSITIONS_PER_RULE_SET:
        codes, turn = random_setup(rng)
        # Some set-ups start near the no-capture limit (100 rounds in classic/international).
        halfmove = rng.choice((0, rng.randrange(190, 200)))
        fen = f"{fen_from_codes(codes, turn)} {halfmove} 1"
        playout(Board(fen, rules), tally, rng, rng.randrange(1, 40))
    assert tally.game_over >= 5
    if rules.no_capture_draw_rounds or rules.repetition is Repetition.THREEFOLD_DRAW:
        assert tally.drawn >= 5
    if rules.rule_7_3 or rules.rule_17_5 or rules.repetition is Repetition.INITIATOR_MUST_VARY:
        assert tally.restricted >= 5, tally


@settings(max_examples=60, deadline=None)
@given(
    rules=st.sampled_from(RULE_SETS),
    seed=st.integers(0, 2**32 - 1),
    plies=st.integers(0, 60),
)
def test_engine_agrees_with_library_hypothesis(rules: RuleSet, seed: int, plies: int) -> None:
    rng = random.Random(seed)
    codes, turn = random_setup(rng)
    playout(Board(fen_from_codes(codes, turn), rules), Tally(), rng, plies)
