"""Tests for Board.is_den_threatened."""

from __future__ import annotations

import random

from doushouqi import BLUE, RED, Board, Move
from doushouqi.jungle.squares import DENS


def test_an_animal_next_to_the_den_threatens_it() -> None:
    board = Board("7/7/7/7/7/7/7/3l3/6R w")  # Blue lion d2, next to Red's den d1
    assert board.is_den_threatened()  # the side to move's (Red's) den
    assert board.is_den_threatened(RED)
    assert not board.is_den_threatened(BLUE)
    assert board.attackers(BLUE, DENS[RED]) == [board.square_of(BLUE, 7)]
    assert not Board().is_den_threatened() and not Board().is_den_threatened(BLUE)


def test_a_jump_cannot_reach_the_den_but_a_trap_square_can() -> None:
    # Blue rat in Red's trap c1 (weakened, but a den entry needs no strength).
    assert Board("7/7/7/7/7/7/7/7/2r3L w").is_den_threatened()
    # Blue cat on d3 is two steps away: no threat.
    assert not Board("7/7/7/7/7/7/3c3/7/6L w").is_den_threatened()


def test_threat_against_the_side_not_to_move_means_den_entry_is_legal() -> None:
    rng = random.Random(5)
    for rules in ("wango", "classic", "international"):
        for _ in range(15):
            board = Board(rules=rules)
            for _ in range(rng.randrange(80)):
                moves = list(board.legal_moves)
                if not moves:
                    break
                board.push(rng.choice(moves))
            enemy_den = DENS[1 - board.turn]
            can_enter = any(m.to_square == enemy_den for m in board.legal_moves)
            if not board.is_game_over_on_board():
                assert board.is_den_threatened(1 - board.turn) == can_enter
            # And for the side to move: the same test with the turn handed over by a pass.
            if board.legal_moves:
                own = board.is_den_threatened()
                board.push(Move.null())
                assert own == any(m.to_square == DENS[1 - board.turn] for m in board.legal_moves)
                board.pop()
