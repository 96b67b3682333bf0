"""Tests for SquareSet and Board.attackers, which returns one."""

from __future__ import annotations

import collections.abc
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from doushouqi import B1, C1, D1, D2, D3, E1, G9, Board, Move, SquareSet
from doushouqi.jungle.squares import NUM_SQUARES, TRAPS, TRAPS_ALL

square_lists = st.lists(st.integers(0, NUM_SQUARES - 1), max_size=20)


@given(square_lists, square_lists)
def test_behaves_like_a_set_of_ints(a: list[int], b: list[int]) -> None:
    sa, sb = SquareSet(a), SquareSet(b)
    assert list(sa) == sorted(set(a))
    assert list(reversed(sa)) == sorted(set(a), reverse=True)
    assert len(sa) == len(set(a))
    assert bool(sa) == bool(a)
    assert set(sa | sb) == set(a) | set(b)
    assert set(sa & sb) == set(a) & set(b)
    assert set(sa - sb) == set(a) - set(b)
    assert set(sa ^ sb) == set(a) ^ set(b)
    assert set(sa | b) == set(b | sa) == set(a) | set(b)  # with plain iterables, both sides
    assert set(b - sa) == set(b) - set(a)
    assert (sa <= sb) == (set(a) <= set(b))
    assert (sa < sb) == (set(a) < set(b))
    assert (sa >= sb) == (set(a) >= set(b))
    assert sa.isdisjoint(sb) == set(a).isdisjoint(b)
    assert all(s in sa for s in a)
    assert sa == set(a) and sa == sorted(set(a)) and sa == SquareSet(int(sa))
    assert (sa == sb) == (set(a) == set(b))


def test_mutation_and_errors() -> None:
    squares = SquareSet()
    squares.add(D3)
    squares |= [C1]
    squares.add(D3)
    assert squares == [C1, D3]
    squares.discard(G9)
    squares.remove(C1)
    with pytest.raises(KeyError):
        squares.remove(C1)
    assert squares.pop() == D3
    with pytest.raises(KeyError):
        squares.pop()
    copy = SquareSet([B1])
    other = copy.copy()
    other.add(C1)
    assert copy == [B1]
    copy.clear()
    assert not copy
    with pytest.raises(ValueError):
        SquareSet([63])
    with pytest.raises(ValueError):
        SquareSet(1 << 63)
    with pytest.raises(TypeError):
        hash(SquareSet())
    assert 63 not in SquareSet(TRAPS_ALL) and "c1" not in SquareSet(TRAPS_ALL)
    assert isinstance(SquareSet(), collections.abc.MutableSet)
    assert SquareSet(TRAPS[0]) == [C1, E1, D2] == SquareSet.from_square(C1) | [E1, D2]
    assert repr(SquareSet([C1, D2])) == "SquareSet([C1, D2])"
    assert str(SquareSet([D1])).splitlines()[-1] == ". . . 1 . . ."
    assert SquareSet([D1]) != "d1"


def test_attackers_returns_a_square_set_that_still_reads_like_the_old_list() -> None:
    board = Board("7/7/7/7/7/7/3e3/3L3/1t5 w")
    attackers = board.attackers(1, D2)
    assert isinstance(attackers, SquareSet)
    assert attackers == [D3]  # the list the method used to return
    assert list(attackers) == [D3]
    assert board.attackers(0, D3) == [] and not board.attackers(0, D3)
    assert board.attackers(1, C1) == SquareSet([B1])
    assert board.attackers_mask(1, C1) == 1 << B1


def test_attackers_agree_with_the_moves_of_the_side_to_move() -> None:
    rng = random.Random(11)
    for rules in ("wango", "international", "classic"):
        board = Board(rules=rules)
        for _ in range(60):
            moves = list(board.legal_moves)
            if not moves:
                break
            pseudo = {
                (f, t)
                for f in range(NUM_SQUARES)
                for t in range(NUM_SQUARES)
                if f != t and board.is_pseudo_legal(Move(f, t))
            }
            for square in range(NUM_SQUARES):
                expected = {f for f, t in pseudo if t == square}
                assert set(board.attackers(board.turn, square)) == expected
            board.push(rng.choice(moves))


# python-chess's SquareSet operations and line functions ------------------------------------


def _chess_square(square: int) -> int:
    """The chess square of the same file and rank (Jungle's ranks 1-8 only)."""
    return (square // 7) * 8 + square % 7


@given(st.integers(0, 55), st.integers(0, 55))
def test_between_and_ray_agree_with_python_chess(a: int, b: int) -> None:
    # Both boards hold files a-g of ranks 1-8: on those squares the lines are the same.
    chess = pytest.importorskip("chess")
    common = {s for s in range(56)}
    theirs_between = {s for s in common if chess.between(_chess_square(a), _chess_square(b))
                      >> _chess_square(s) & 1}  # fmt: skip
    theirs_ray = {s for s in common if chess.ray(_chess_square(a), _chess_square(b))
                  >> _chess_square(s) & 1}  # fmt: skip
    from doushouqi import between, ray

    assert set(SquareSet(between(a, b))) == theirs_between
    assert set(SquareSet(ray(a, b))) & common == theirs_ray
    assert SquareSet.between(a, b) == between(a, b) and SquareSet.ray(b, a) == ray(a, b)


@given(square_lists)
def test_complement_mirror_and_tolist(squares: list[int]) -> None:
    s = SquareSet(squares)
    assert ~s == set(range(NUM_SQUARES)) - set(squares) and ~~s == s
    assert s.mirror().mirror() == s and len(s.mirror()) == len(s)
    assert all((8 - q // 7) * 7 + q % 7 in s.mirror() for q in squares)
    assert s.tolist() == [q in s for q in range(NUM_SQUARES)]


def test_a_jump_crosses_the_squares_between() -> None:
    from doushouqi.jungle.squares import JUMPS

    for square, jumps in enumerate(JUMPS):
        for landing, path in jumps:
            assert SquareSet.between(square, landing) == path
