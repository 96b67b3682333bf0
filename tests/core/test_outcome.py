"""Tests for doushouqi.core.outcome: endings of every game, the winner as a seat."""

from __future__ import annotations

import pytest

from doushouqi.core.outcome import (
    BoardEnding,
    Outcome,
    PlatformEnding,
    ending_from_key,
)


def test_platform_endings_are_the_off_board_ones() -> None:
    assert {e.value for e in PlatformEnding} == {
        "resignation",
        "draw_agreed",
        "time_forfeit",
        "timeouts",
        "abandonment",
        "aborted",
    }
    assert {e for e in PlatformEnding if e.is_draw} == {
        PlatformEnding.DRAW_AGREED,
        PlatformEnding.ABORTED,
    }


@pytest.mark.parametrize(
    ("outcome", "result"),
    [
        (Outcome(BoardEnding("den_entered"), 0), "1-0"),
        (Outcome(BoardEnding("tiger_trapped"), 1), "0-1"),
        (Outcome(BoardEnding("repetition"), None), "1/2-1/2"),
        (Outcome(PlatformEnding.RESIGNATION, 1), "0-1"),
        (Outcome(PlatformEnding.TIME_FORFEIT, 0), "1-0"),
        (Outcome(PlatformEnding.TIME_FORFEIT, None), "1/2-1/2"),  # no material to win with
        (Outcome(PlatformEnding.DRAW_AGREED, None), "1/2-1/2"),
        (Outcome(PlatformEnding.ABORTED, None), "*"),
    ],
)
def test_result_is_by_seat(outcome: Outcome, result: str) -> None:
    assert outcome.result() == result


def test_key_and_on_board() -> None:
    board = Outcome(BoardEnding("den_entered"), 0)
    platform = Outcome(PlatformEnding.ABANDONMENT, 1)
    assert (board.key, board.is_on_board) == ("den_entered", True)
    assert (platform.key, platform.is_on_board) == ("abandonment", False)


@pytest.mark.parametrize("winner", [2, -1, True, False, "0", 0.0])
def test_winner_must_be_a_seat(winner: object) -> None:
    with pytest.raises(ValueError, match="seat 0, seat 1 or None"):
        Outcome(PlatformEnding.RESIGNATION, winner)  # type: ignore[arg-type]


@pytest.mark.parametrize("ending", [PlatformEnding.DRAW_AGREED, PlatformEnding.ABORTED])
def test_draw_endings_have_no_winner(ending: PlatformEnding) -> None:
    with pytest.raises(ValueError, match="has no winner"):
        Outcome(ending, 1)


def test_ending_must_be_an_ending() -> None:
    with pytest.raises(ValueError, match="PlatformEnding or a BoardEnding"):
        Outcome("resignation", 0)  # type: ignore[arg-type]


@pytest.mark.parametrize("key", [e.value for e in PlatformEnding])
def test_a_board_ending_cannot_take_a_platform_key(key: str) -> None:
    # A stored key must say by itself who ended the game.
    with pytest.raises(ValueError, match="platform ending"):
        BoardEnding(key)


@pytest.mark.parametrize("key", ["", None, 3])
def test_a_board_ending_needs_a_key(key: object) -> None:
    with pytest.raises(ValueError, match="non-empty key"):
        BoardEnding(key)  # type: ignore[arg-type]


def test_ending_from_key_round_trips() -> None:
    board_endings = ("den_entered", "all_captured")
    for ending in [*PlatformEnding, BoardEnding("den_entered"), BoardEnding("all_captured")]:
        key = Outcome(ending, None).key
        assert ending_from_key(key, board_endings) == ending


def test_ending_from_key_refuses_another_games_ending() -> None:
    with pytest.raises(ValueError, match="unknown ending 'tiger_trapped'"):
        ending_from_key("tiger_trapped", ("den_entered",))
