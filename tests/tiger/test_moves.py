"""Move strings of 老虎棋: the from-point then every landing point; ``0000`` the pass."""

from __future__ import annotations

import pytest

from doushouqi.core.game import MoveError
from doushouqi.tiger.moves import MAX_MOVE_POINTS, Move
from doushouqi.tiger.points import parse_point


def _path(*names: str) -> tuple[int, ...]:
    return tuple(parse_point(n) for n in names)


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ("e10e9", ("e10", "e9")),
        ("e9e10", ("e9", "e10")),
        ("d11e11", ("d11", "e11")),
        ("e5e7e9e11", ("e5", "e7", "e9", "e11")),
        ("a1a2", ("a1", "a2")),
        (" E10E9 ", ("e10", "e9")),
    ],
)
def test_move_strings(text: str, path: tuple[str, ...]) -> None:
    move = Move.from_str(text)
    assert move.path == _path(*path)
    assert str(move) == text.strip().lower()
    assert Move.from_str(str(move)) == move


def test_the_pass() -> None:
    assert Move.from_str("0000") == Move.null() and not Move.null()
    assert str(Move.null()) == "0000"


def test_jumps_and_the_men_they_take() -> None:
    assert not Move.from_str("e5e6").is_jump and Move.from_str("e5e6").captured == ()
    assert Move.from_str("e5e7").is_jump
    assert Move.from_str("e5g7e9").captured == _path("f6", "f8")
    assert Move.from_str("e9e11").captured == _path("e10")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "not a move string"),
        ("e10", "not a move string: 'e10' .a move is a from-point"),
        ("not a move", "not a move string"),
        ("\x00", "not a move string"),
        ("e10-e9", "not a move string"),
        ("e10 e9", "not a move string"),
        ("Te10e9", "not a move string"),
        ("e10z9", "no point 'z9' on the board"),
        ("a10a9", "no point 'a10' on the board"),
        ("e0e1", "no point 'e0'"),
        ("e1" * (MAX_MOVE_POINTS + 1), "a move names 2 to 19 points, got 20"),
        ("e10" * 100, "not a move string"),
        ("00000", "not a move string"),
    ],
)
def test_malformed_move_strings(text: str, message: str) -> None:
    with pytest.raises(MoveError, match=message):
        Move.from_str(text)


def test_paths_are_checked() -> None:
    with pytest.raises(MoveError, match="a move names 2 to"):
        Move((1,))
    with pytest.raises(MoveError, match="tuple of points"):
        Move((1, 87))
    with pytest.raises(MoveError, match="must be text"):
        Move.from_str(12)  # type: ignore[arg-type]
