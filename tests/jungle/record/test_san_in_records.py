"""Tests for moves written in readable notation (SAN, doushouqi.jungle.san) in game records: read
move by move next to move strings, written on request, with errors naming the line."""

from __future__ import annotations

import pytest

from doushouqi.jungle.board import Board, Move
from doushouqi.jungle.outcome import Termination
from doushouqi.jungle.record import (
    GameRecord,
    RecordError,
    Variation,
    read_record,
    write_record,
)
from doushouqi.jungle.rules import rules_from_mapping

DEN_READY = "7/3L3/7/7/7/7/7/7/r6 w"  # Red lion d8 next to Blue's den d9
OPENING = ["a3a4", "g7g6", "g3g4", "a7a6", "a4a5", "a6a5"]  # the last one: the rat takes


def _movetext(text: str) -> str:
    return text.split("\n\n", 1)[1]


def _opening() -> GameRecord:
    board = Board()
    board.replay(OPENING)
    return GameRecord.from_board(board)


def test_moves_may_be_written_in_san_english_or_chinese_or_mixed() -> None:
    expected = _opening().moves
    for movetext in [
        "1. Ea4 Eg6 2. Rg4 Ra6 3. Ea5 Rxa5 *",
        "1. 象a4 象g6 2. 鼠g4 鼠a6 3. 象a5 鼠吃a5 *",
        "1. a3a4 Eg6 2. 鼠g4 a7a6 3. Ea4-a5 Ra6xa5 *",
        "1. Ea3-a4 Eg7-g6 2. Rg3g4 *",
    ]:
        record = read_record(movetext)
        assert record.moves == expected[: len(record.moves)], movetext
    # Forgiving where that is unambiguous: case, x, a from-square, no animal at all.
    assert read_record("1. ea4 EG6 2. g4 rA6 3. ea5 r:a5 *").moves == expected


def test_passes_and_wins_in_san() -> None:
    record = read_record(f'[FEN "{DEN_READY}"]\n\n1. -- 停棋一步 2. Ld9# 1-0')
    assert record.moves == [Move.null(), Move.null(), Move.from_str("d8d9")]
    assert record.termination is None and record.board().outcome() is not None
    assert _movetext(write_record(record, san=True)) == "1. -- -- 2. Ld9# 1-0\n"
    assert (
        _movetext(write_record(record, san=True, lang="zh"))
        == "1. 停棋一步 停棋一步 2. 狮d9# 1-0\n"
    )
    den = read_record(f'[Termination "den_entered"]\n[FEN "{DEN_READY}"]\n\n1. Ld9#! 1-0')
    assert den.termination is Termination.DEN_ENTERED and den.nags == {1: {1}}


def test_writing_keeps_move_strings_unless_asked() -> None:
    record = read_record("1. Ea4! Eg6 (1... Ra6 $14) 2. Rg4 Ra6 3. Ea5 Rxa5 *")
    assert _movetext(write_record(record)) == (
        "1. a3a4 $1 g7g6 (1... a7a6 $14) 2. g3g4 a7a6 3. a4a5 a6a5 *\n"
    )
    assert _movetext(write_record(record, san=True)) == (
        "1. Ea4 $1 Eg6 (1... Ra6 $14) 2. Rg4 Ra6 3. Ea5 Rxa5 *\n"
    )
    assert _movetext(write_record(record, san=True, lang="zh")) == (
        "1. 象a4 $1 象g6 (1... 鼠a6 $14) 2. 鼠g4 鼠a6 3. 象a5 鼠吃a5 *\n"
    )
    for options in ({}, {"san": True}, {"san": True, "lang": "zh"}):
        assert read_record(write_record(record, **options)) == record


def test_san_uses_the_rule_sets_animal_names() -> None:
    fox = rules_from_mapping("fox", {"parent": "classic", "wolf_name": "fox"})
    board = Board(rules=fox)
    board.replay(["c3c2"])
    record = GameRecord.from_board(board)
    assert _movetext(write_record(record, san=True)) == "1. Fc2 *\n"
    assert _movetext(write_record(record, san=True, lang="zh")) == "1. 狐c2 *\n"
    assert read_record(write_record(record, san=True)) == record


def test_writing_san_replays_the_moves() -> None:
    record = GameRecord(moves=[Move.from_str("a3a4"), Move.from_str("a4a6")])
    assert write_record(record).endswith("1. a3a4 a4a6 *\n")  # not replayed
    with pytest.raises(RecordError, match="ply 2: illegal move a4a6"):
        write_record(record, san=True)
    record.moves.pop()
    record.variations[1] = [Variation([Move.from_str("a7a6")])]
    with pytest.raises(RecordError, match="side line 1 at ply 1, ply 1: illegal move a7a6"):
        write_record(record, san=True)


HEAD = '[Event "x"]\n[Rules "wango"]\n\n'


@pytest.mark.parametrize(
    ("movetext", "line", "reason"),
    [
        ("1. Ea4\nTa4 *", 5, "illegal move 'Ta4': the tiger on g9 cannot go to a4"),
        ("1. Ea4 Ea4 *", 4, "illegal move 'Ea4': the elephant on g7 cannot go to a4"),
        ("1. b3 *", 4, "ambiguous move 'b3' fits several legal moves: Cb3, Eb3, Wb3"),
        ("1. Exa4 *", 4, "illegal move 'Exa4': marked as a capture, but a4 is empty"),
        ("1. Ea4#\n*", 4, "illegal move 'Ea4#': marked '#', but the move does not win"),
        ("1. Qa4 *", 4, "bad move 'Qa4': expected a move string (a3a4) or SAN (Ea4, 象a4)"),
        ("1. Ea4 (1. Ra4) *", 4, "side line 1 at ply 1, ply 1: illegal move 'Ra4': the rat"),
        ("1. Ea4 (1. z9 g1g2) *", 4, "side line 1 at ply 1, ply 1: bad move 'z9'"),
    ],
)
def test_bad_san_is_reported_with_its_line(movetext: str, line: int, reason: str) -> None:
    with pytest.raises(RecordError) as info:
        read_record(HEAD + movetext, name="games.jgn")
    assert info.value.line == line
    assert info.value.reason.startswith(reason), str(info.value)
    assert str(info.value) == f"games.jgn:{line}: {info.value.reason}"


def test_move_strings_are_still_checked_as_move_strings() -> None:
    # A word shaped like a move string is read as one (not as SAN), as before.
    with pytest.raises(RecordError, match="bad move string: invalid move 'h7h6'"):
        read_record("1. a3a4 h7h6 *")
    with pytest.raises(RecordError, match="bad move string 'a3a3'"):
        read_record("1. a3a4 a3a3 *")
    with pytest.raises(RecordError, match="illegal move 0000: the game is over"):
        read_record(f'[FEN "{DEN_READY}"]\n\n1. d8d9 0000 1-0')
    with pytest.raises(RecordError, match="illegal move '--': the game is over"):
        read_record(f'[FEN "{DEN_READY}"]\n\n1. d8d9 -- 1-0')
