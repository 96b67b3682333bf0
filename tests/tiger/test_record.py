"""Game records of 老虎棋: written and read back, the Game tag that tells them from Jungle's,
custom rule sets, start positions, comments, NAGs, passes, and errors naming the line."""

from __future__ import annotations

import random

import pytest
from tests.tiger.helpers import rules

from doushouqi.jungle.record import RecordError as JungleRecordError
from doushouqi.jungle.record import read_record as read_jungle_record
from doushouqi.tiger.board import Board
from doushouqi.tiger.moves import Move
from doushouqi.tiger.record import (
    RecordError,
    TigerRecord,
    read_record,
    read_records,
    write_record,
    write_records,
)


def _random_game(rule_set: object, seed: int, plies: int = 80) -> Board:
    rng = random.Random(seed)
    board = Board(rules=rule_set)  # type: ignore[arg-type]
    for _ in range(plies):
        if board.outcome() is not None:
            break
        if rng.random() < 0.05:
            board.push_pass()
        else:
            board.push(rng.choice(list(board.generate_legal_moves())))
    return board


@pytest.mark.parametrize("rule_set", ["laohuqi", "laohuqi-18", "laohuqi-strict", "laohuqi-south"])
@pytest.mark.parametrize("san", [False, True])
@pytest.mark.parametrize("lang", ["en", "zh", "zh-Hant"])
def test_games_read_back_as_written(rule_set: str, san: bool, lang: str) -> None:
    for seed in range(3):
        board = _random_game(rule_set, seed)
        record = TigerRecord.from_board(board, Event="test", Tiger="A", Men="B")
        text = write_record(record, san=san, lang=lang)  # type: ignore[arg-type]
        assert '[Game "tiger"]' in text
        again = read_record(text)
        assert again == record
        assert again.board().position_string() == board.position_string()


def test_a_finished_game_carries_its_result_and_ending() -> None:
    board = Board("3/3/8M/9/9/9/4M4/4T4/9/9/M2M5 t")
    board.push_move("e4e6")
    record = TigerRecord.from_board(board)
    assert (record.result, record.termination) == ("1-0", "men_captured")
    text = write_record(record)
    assert '[Termination "men_captured"]' in text and '[FEN "' in text
    assert text.endswith("1. e4e6 1-0\n")
    assert read_record(text) == record


def test_custom_rules_are_written_as_rule_options() -> None:
    custom = rules(diagonals="nest", multi_jump=True, description="club rules")
    board = Board(rules=custom)
    board.push_move("e10f11")
    text = write_record(TigerRecord.from_board(board))
    assert '[Rules "custom"]' in text
    assert '[RuleOption "parent laohuqi"]' in text
    assert '[RuleOption "diagonals nest"]' in text and '[RuleOption "multi_jump true"]' in text
    assert '[RuleOption "description club rules"]' in text
    assert read_record(text).rules == custom


def test_a_named_set_under_its_name_writes_no_options() -> None:
    text = write_record(TigerRecord(rules=Board(rules="laohuqi-south").rules))
    assert '[Rules "laohuqi-south"]' in text and "RuleOption" not in text


def test_comments_nags_and_numbers() -> None:
    text = (
        '[Game "tiger"]\n[Rules "laohuqi"]\n\n'
        "{before} 1. e10e9 {down} 1... d2d3 $1 2. Te9-e8!? 人d3-d4 *\n"
    )
    record = read_record(text)
    assert [str(m) for m in record.moves] == ["e10e9", "d2d3", "e9e8", "d3d4"]
    assert record.comments == {0: "before", 1: "down"}
    assert record.nags == {2: {1}, 3: {5}}
    written = write_record(record)
    assert "{before} 1. e10e9 {down} 1... d2d3 $1 2. e9e8 $5 d3d4 *" in written
    assert read_record(written) == record


def test_the_men_first_numbers_their_moves() -> None:
    board = Board(rules=rules(first="men"))
    for move in ("d2d3", "e10e9", "d3d4"):
        board.push_move(move)
    text = write_record(TigerRecord.from_board(board))
    assert text.endswith("1. d2d3 e10e9 2. d3d4 *\n")
    assert read_record(text).moves == board.move_stack


def test_several_records() -> None:
    records = [TigerRecord.from_board(_random_game("laohuqi", seed, 10)) for seed in range(3)]
    assert read_records(write_records(records)) == records


def test_jungle_and_tiger_records_are_told_apart() -> None:
    tiger_text = write_record(TigerRecord.from_board(_random_game("laohuqi", 1, 6)))
    with pytest.raises(JungleRecordError):
        read_jungle_record(tiger_text)
    jungle_text = '[Rules "wango"]\n\n1. a3a4 *\n'
    with pytest.raises(RecordError, match="unknown rule set 'wango'"):
        read_record(jungle_text)
    with pytest.raises(RecordError, match="line 1: a record of the game 'jungle', not of 老虎棋"):
        read_record('[Game "jungle"]\n[Rules "wango"]\n\n1. a3a4 *\n')


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1. e10e9 *", None),
        ("1. e10e8 *", "line 1: ply 1: illegal move e10e8"),
        ('[Rules "laohuqi"]\n\n1. e10e9\n2. e9e8 *', "line 4: move number 2. where 1... is due"),
        ("1. e10e9 d2d3", "a game must end with a result"),
        ("1. e10e9 * d2d3", "text after the result"),
        ("1. e10e9 (1. e10d10) *", "side lines"),
        ("1. e10e9 {open *", "not closed"),
        ('[Result "1-0"]\n\n1. e10e9 *', r"the Result tag \(1-0\) and the movetext \(\*\)"),
        ('[Termination "draw_agreed"]\n\n1. e10e9 1-0', "draw_agreed needs a drawn result"),
        ("1. e10e9 1-0", None),  # a resignation: the position need not have ended
        ('[Termination "tiger_trapped"]\n\n1. e10e9 0-1', "Termination tiger_trapped: the final"),
        ('[Termination "den_entered"]\n\n*', "Termination: unknown ending 'den_entered'"),
        ('[RuleOption "men 13"]\n\n*', "Rules: men: expected 12 or 18, got 13"),
        ('[FEN "nonsense"]\n\n*', "FEN: invalid position string"),
        ('[Rules "laohuqi"\n\n*', "not a tag line"),
        ("1. e10e9 $300 *", "bad NAG"),
    ],
)
def test_errors_name_the_line(text: str, message: str | None) -> None:
    if message is None:
        assert read_record(text).moves == [Move.from_str("e10e9")]
        return
    with pytest.raises(RecordError, match=message):
        read_record(text)


def test_no_move_after_the_end() -> None:
    text = '[FEN "3/3/8M/9/9/9/4M4/4T4/9/9/M2M5 t"]\n\n1. e4e6 1... a1a2 1-0'
    with pytest.raises(RecordError, match=r"ply 2 \(a1a2\): the game is already over"):
        read_record(text)


def test_passes_in_a_record() -> None:
    board = Board()
    board.push_pass()
    board.push_move("d2d3")
    text = write_record(TigerRecord.from_board(board), san=True, lang="zh")
    assert "1. 停棋一步 人d2-d3" in text
    assert read_record(text).moves == [Move.null(), Move.from_str("d2d3")]
