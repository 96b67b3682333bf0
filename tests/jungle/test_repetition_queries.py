"""Tests for Board.is_repetition and Board.can_claim_draw."""

from __future__ import annotations

import pytest

from doushouqi import BUILTIN_RULE_SETS, Board

SHUTTLE = ["a3a4", "a7a6", "a4a3", "a6a7"]


def _shuttled(times: int, rules: str = "wango") -> Board:
    board = Board(rules=rules)
    for text in SHUTTLE * times:
        board.push_uci(text)
    return board


def test_is_repetition_counts_the_current_position() -> None:
    board = Board()
    assert board.is_repetition(1) and not board.is_repetition(2)
    assert _shuttled(1).is_repetition(2) and not _shuttled(1).is_repetition()
    assert _shuttled(2).is_repetition() and _shuttled(2).is_repetition(3)
    assert not _shuttled(2).is_repetition(4)
    assert _shuttled(3).is_repetition(4)
    half = _shuttled(2)
    half.pop()  # after a4a3, for the second time
    assert half.is_repetition(2) and not half.is_repetition(3)


def test_is_repetition_follows_the_history_kept_by_copies() -> None:
    board = _shuttled(2)
    assert board.copy().is_repetition()
    assert not board.copy(stack=False).is_repetition(2)
    assert board.copy(stack=4).is_repetition(2) and not board.copy(stack=4).is_repetition()


@pytest.mark.parametrize("rules", sorted(BUILTIN_RULE_SETS))
def test_no_rule_set_lets_a_player_claim_a_draw(rules: str) -> None:
    assert not Board(rules=rules).can_claim_draw()
    if rules in ("wango", "international"):  # threefold_draw: the draw happens by itself
        board = _shuttled(2, rules)
        assert board.is_game_over() and not board.can_claim_draw()
