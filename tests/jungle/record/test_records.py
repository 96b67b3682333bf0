"""Tests for doushouqi.jungle.record: writing, reading and validating game records."""

from __future__ import annotations

import dataclasses
import datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from doushouqi.jungle.board import Board, Move
from doushouqi.jungle.outcome import Outcome, Termination
from doushouqi.jungle.record import (
    GameRecord,
    RecordError,
    format_date,
    read_record,
    read_records,
    write_record,
    write_records,
)
from doushouqi.jungle.rules import BUILTIN_RULE_SETS, RuleSet, rules_from_mapping
from doushouqi.jungle.squares import BLUE, RED

DEN_READY = "7/3L3/7/7/7/7/7/7/r6 w"  # Red lion d8 next to Blue's den d9
# The lions step out and back twice: the start position stands for the third time.
LION_SHUFFLE = ["g1g2", "a9a8", "g2g1", "a8a9", "g1g2", "a9a8", "g2g1", "a8a9"]


def _round_trip(record: GameRecord) -> GameRecord:
    text = write_record(record)
    again = read_record(text)
    assert again == record
    assert write_record(again) == text
    return again


# --- writing ---------------------------------------------------------------------------------


def test_written_layout() -> None:
    board = Board()
    board.replay(["a3a4", "a7a6", "g3g4"])
    record = GameRecord.from_board(
        board,
        comments={0: "opening", 2: "rat forward"},
        Event="Spring cup",
        Site="Beijing",
        Date=format_date(datetime.date(2024, 4, 1)),
        Round="3",
        Red="Li Lei",
        Blue='Han "Meimei"',
        TimeControl="600+5",
        Annotator="me",
        Board="2",
    )
    assert write_record(record) == (
        '[Event "Spring cup"]\n'
        '[Site "Beijing"]\n'
        '[Date "2024.04.01"]\n'
        '[Round "3"]\n'
        '[Red "Li Lei"]\n'
        '[Blue "Han \\"Meimei\\""]\n'
        '[Result "*"]\n'
        '[Rules "wango"]\n'
        '[TimeControl "600+5"]\n'
        '[Annotator "me"]\n'
        '[Board "2"]\n'
        "\n"
        "{opening} 1. a3a4 a7a6 {rat forward} 2. g3g4 *\n"
    )
    again = _round_trip(record)
    assert list(again.tags) == [
        "Event", "Site", "Date", "Round", "Red", "Blue", "TimeControl", "Annotator", "Board",
    ]  # fmt: skip
    assert again.tags["Blue"] == 'Han "Meimei"'


def test_long_movetext_wraps_between_tokens() -> None:
    board = Board()
    board.replay(LION_SHUFFLE[:4] * 5)
    record = GameRecord.from_board(board)
    movetext = write_record(record).split("\n\n", 1)[1]
    assert all(len(line) <= 80 for line in movetext.splitlines())
    assert len(movetext.splitlines()) > 1
    # A move number stays on the line of its move.
    assert not any(line.endswith(".") for line in movetext.splitlines())
    _round_trip(record)


def test_from_board_takes_the_outcome() -> None:
    board = Board(DEN_READY)
    board.push_move("d8d9")
    record = GameRecord.from_board(board)
    assert (record.result, record.termination) == ("1-0", Termination.DEN_ENTERED)
    assert record.outcome() == Outcome(Termination.DEN_ENTERED, RED)
    assert record.start_fen == "7/3L3/7/7/7/7/7/7/r6 w 0 1"
    assert '[FEN "7/3L3/7/7/7/7/7/7/r6 w 0 1"]' in write_record(record)
    assert '[Termination "den_entered"]' in write_record(record)
    _round_trip(record)


def test_from_board_off_the_board_endings() -> None:
    board = Board()
    board.push_move("a3a4")
    resigned = GameRecord.from_board(board, result="1-0", termination=Termination.RESIGNATION)
    assert _round_trip(resigned).outcome() == Outcome(Termination.RESIGNATION, RED)
    agreed = GameRecord.from_board(board, termination=Termination.DRAW_AGREED)
    assert agreed.result == "1/2-1/2"
    assert GameRecord.from_board(board, termination=Termination.ABORTED).result == "*"
    with pytest.raises(ValueError, match="give result= for a game ended by time_forfeit"):
        GameRecord.from_board(board, termination=Termination.TIME_FORFEIT)


def test_repetition_draw_round_trips() -> None:
    board = Board()
    board.replay(LION_SHUFFLE)
    record = GameRecord.from_board(board)
    assert (record.result, record.termination) == ("1/2-1/2", Termination.REPETITION)
    assert _round_trip(record).board().outcome() == Outcome(Termination.REPETITION, None)


def test_blue_first_game_with_passes_and_comments() -> None:
    rules = rules_from_mapping("blue-first", {"parent": "classic", "first_player": "blue"})
    board = Board(rules=rules)
    board.push_move("a7a6")
    board.push_pass()
    board.push_pass()
    board.push_move("a3a4")
    record = GameRecord.from_board(
        board, comments={1: "Red's time ran out", 2: "so did Blue's\n[a second line]"}
    )
    text = write_record(record)
    assert "1. a7a6 {Red's time ran out} 1... 0000 {so did Blue's\n[a second line]} 2. 0000" in text
    assert "[RuleOption" in text
    again = _round_trip(record)
    passes = [Move.null(), Move.null()]
    assert again.board().move_stack == [Move.from_str("a7a6"), *passes, Move.from_str("a3a4")]


def test_start_position_with_the_second_player_to_move() -> None:
    board = Board("l5t/1d3c1/r1p1w1e/7/7/E6/2W1P1R/1C3D1/T5L b 1 37")
    board.replay(["a7a6", "a4a5"])
    record = GameRecord.from_board(board)
    assert write_record(record).endswith("\n37... a7a6 38. a4a5 *\n")
    _round_trip(record)


@pytest.mark.parametrize(
    "rules",
    [
        rules_from_mapping("house", {"parent": "classic", "rule_17_5": False, "wolf_name": "fox"}),
        rules_from_mapping("dogs", {"parent": "international", "ranks": "dog>wolf"}),
        dataclasses.replace(BUILTIN_RULE_SETS["classic"], name="wango"),
        RuleSet(),
        RuleSet(name="quiet", no_capture_draw_rounds=7, description='with "quotes" \\ too'),
        dataclasses.replace(BUILTIN_RULE_SETS["international"], description=""),
    ],
)
def test_custom_rule_sets_round_trip(rules: RuleSet) -> None:
    board = Board(rules=rules)
    board.replay(["a3a4", "a7a6"])
    again = _round_trip(GameRecord.from_board(board))
    assert again.rules == rules
    assert again.rules.name == rules.name


def test_named_rule_sets_need_no_options() -> None:
    for name, rules in BUILTIN_RULE_SETS.items():
        text = write_record(GameRecord(rules=rules))
        assert f'[Rules "{name}"]' in text and "RuleOption" not in text
        assert read_record(text).rules is rules


def test_custom_rules_are_written_as_the_closest_parent_and_differences() -> None:
    rules = rules_from_mapping("mine", {"parent": "classic-dog", "rule_7_3": False})
    text = write_record(GameRecord(rules=rules))
    assert text.count("[RuleOption") == 2
    assert '[RuleOption "parent classic-dog"]' in text
    assert '[RuleOption "rule_7_3 false"]' in text
    # A custom set's description starts empty, as the parent alone rebuilds it: no line.
    assert "description" not in text


def test_record_board_replays_and_checks() -> None:
    board = Board(rules="international")
    board.replay(["a3a4", "a7a6", "a4a5"])
    record = GameRecord.from_board(board)
    assert record.board() == board
    assert record.board().move_stack == board.move_stack
    record.moves.append(Move.from_str("a5a7"))
    with pytest.raises(RecordError, match="ply 4: illegal move a5a7") as info:
        record.board()
    assert info.value.line is None


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"tags": {"Result": "1-0"}}, "written from the record's fields"),
        ({"tags": {"bad name": "x"}}, "bad tag name"),
        ({"tags": {"Event": "two\nlines"}}, "line break"),
        ({"tags": {"Date": "2024-01-01"}}, "not YYYY.MM.DD"),
        ({"tags": {"Date": "2023.02.30"}}, "not a real date"),
        ({"result": "2-0"}, "not one of"),
        ({"result": "1-0", "termination": Termination.REPETITION}, "needs the result 1/2-1/2"),
        ({"result": "*", "termination": Termination.RESIGNATION}, "needs the result 1-0 or 0-1"),
        ({"comments": {1: "x"}}, "comment after ply 1, but the game has 0"),
        ({"comments": {0: "a } b"}}, "contains '}'"),
        ({"comments": {0: "a\r\nb"}}, "carriage return"),
    ],
)
def test_bad_records_cannot_be_built(changes: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        GameRecord(**changes)  # type: ignore[arg-type]


def test_write_checks_a_record_changed_after_it_was_built() -> None:
    record = GameRecord()
    record.tags["FEN"] = "x"
    with pytest.raises(ValueError, match="written from the record's fields"):
        write_record(record)


# --- reading ---------------------------------------------------------------------------------


def test_several_records() -> None:
    first = GameRecord.from_board(Board(), Event="one")
    board = Board(rules="classic")
    board.replay(["g3g4"])
    second = GameRecord.from_board(board, Event="two", comments={1: "x"})
    text = write_records([first, second])
    assert read_records(text) == [first, second]
    assert read_records("") == [] and read_records("\n \n") == []
    # Extra blank lines, Windows line ends and a byte-order mark change nothing.
    assert read_records("\ufeff\n\n" + text.replace("\n", "\r\n") + "\n\n") == [first, second]


def test_reading_is_lenient_about_layout() -> None:
    record = read_record("1.a3a4 a7a6\n2. a4a5\n{a comment} {and another} *")
    assert [str(m) for m in record.moves] == ["a3a4", "a7a6", "a4a5"]
    assert record.comments == {3: "a comment and another"}
    assert record.rules is BUILTIN_RULE_SETS["wango"]
    assert read_record('[Rules "Classic"]\n*').rules is BUILTIN_RULE_SETS["classic"]
    assert read_record("a3a4 a7a6 *").moves == [Move.from_str("a3a4"), Move.from_str("a7a6")]


def test_read_record_wants_exactly_one_game() -> None:
    with pytest.raises(RecordError, match="no game") as info:
        read_record("\n\n")
    assert info.value.line == 1
    with pytest.raises(RecordError, match="second one starts here") as info:
        read_record('[Event "a"]\n\n*\n\n[Event "b"]\n\n*\n')
    assert info.value.line == 5


# The start of a valid record: the movetext is on line 7.
TAGS = '[Event "test"]\n[Date "2024.01.02"]\n[Result "*"]\n[Rules "wango"]\n[Round "1"]\n'
TAGS_1_0 = TAGS.replace('"*"', '"1-0"')
TAGS_0_1 = TAGS.replace('"*"', '"0-1"')
HEAD = TAGS + "\n"
HEAD_1_0 = TAGS_1_0 + "\n"


@pytest.mark.parametrize(
    ("text", "line", "reason"),
    [
        (HEAD + "1. a3a4 a7a6 2. a3a5 *", 7, "illegal move a3a5: there is no animal on a3"),
        (HEAD + "1. a3a4 a7a6\n2. a4a6 *", 8, "illegal move a4a6: an animal moves one square"),
        (HEAD + "1. a3a4 a3a3 *", 7, "bad move string 'a3a3'"),
        (HEAD + "1. a3a4 h7h6 *", 7, "bad move string: invalid move 'h7h6'"),
        (HEAD + "1. a3a4 a7a6 3. g3g4 *", 7, "move number 3. out of place: expected 2."),
        (HEAD + "1. a3a4 1. a7a6 *", 7, "move number 1. out of place: expected 1..."),
        (HEAD + "1. a3a4 {a comment\nover\nlines *", 7, "unterminated comment"),
        (HEAD + "1. a3a4\n} *", 8, "'}' without an opening '{'"),
        (HEAD + "1. a3a4 a7a6\n1-0", 8, "result 1-0 disagrees with the Result tag * (line 3)"),
        (HEAD_1_0 + "1. a3a4 {\n\n} a7a6\n*", 10, "result * disagrees with the Result tag 1-0"),
        (HEAD + "1. a3a4 a7a6", 7, "the game has no result at the end"),
        (HEAD + "1. a3a4 * a7a6", 7, "text after the result *"),
        (HEAD + '1. a3a4\n[Event "next"]\n*', 8, "tag line inside the movetext"),
        (HEAD.replace('[Round "1"]', "[Round 1]"), 5, "garbled tag line '[Round 1]'"),
        (HEAD.replace('[Round "1"]', '[Round "1"'), 5, "garbled tag line"),
        (HEAD.replace('[Round "1"]', '[Round "1" "2"]'), 5, "garbled tag line"),
        (
            HEAD.replace('[Round "1"]', '[Event "again"]') + "*",
            5,
            "duplicate tag Event (first on line 1)",
        ),
        (HEAD.replace("wango", "chess") + "*", 4, "unknown rule set 'chess'"),
        (HEAD.replace("2024.01.02", "2024.13.02") + "*", 2, "not a real date"),
        (HEAD.replace("2024.01.02", "yesterday") + "*", 2, "not YYYY.MM.DD"),
        (HEAD.replace('"*"', '"win"') + "*", 3, "bad Result 'win'"),
        (TAGS + '[FEN "7/7/7 w"]\n\n*', 6, "bad FEN tag: invalid position string"),
        (TAGS + '[Termination "checkmate"]\n\n*', 6, "'checkmate' is not a valid Termination"),
        (TAGS + '[Termination "resignation"]\n\n*', 6, "needs the result 1-0 or 0-1, not *"),
        (TAGS + '[RuleOption "rule_7_3 yes"]\n\n*', 6, "bad RuleOption 'rule_7_3 yes'"),
        (TAGS + '[RuleOption "colour red"]\n\n*', 6, "unknown option 'colour'"),
        (TAGS + '[RuleOption "parent chess"]\n\n*', 6, "parent: unknown rule set 'chess'"),
        (TAGS + '[RuleOption "name x"]\n\n*', 6, "the Rules tag names the rule set"),
        (
            TAGS + '[RuleOption "rule_7_3 true"]\n[RuleOption "rule_7_3 false"]\n\n*',
            7,
            "RuleOption rule_7_3 given twice",
        ),
        ('[Event "x"]\n[RuleOption "rule_7_3 true"]\n\n*', 2, "RuleOption tag without a Rules"),
        (
            TAGS_1_0 + '[Termination "den_entered"]\n\n1. a3a4 1-0',
            6,
            "Termination den_entered, but the game goes on",
        ),
        (
            TAGS.replace('"*"', '"1/2-1/2"') + '[Termination "repetition"]\n\n'
            "1. g1g2 a9a8 2. g2g1 a8a9 3. g1g2 a9a8 4. g2g1 a7a6 1/2-1/2",
            6,
            "but the game goes on",
        ),
        (
            TAGS_1_0 + f'[FEN "{DEN_READY}"]\n[Termination "all_captured"]\n\n1. d8d9 1-0',
            7,
            "Termination all_captured, but the final position shows den_entered",
        ),
        (
            TAGS_0_1 + f'[FEN "{DEN_READY}"]\n\n1. d8d9\n\n0-1',
            10,
            "disagrees with the final position",
        ),
        (TAGS + f'[FEN "{DEN_READY}"]\n\n1. d8d9 a1a2 1-0', 8, "the game is over (den entered)"),
        (
            TAGS + f'[FEN "{DEN_READY}"]\n\n1. d8d9 0000 1-0',
            8,
            "illegal move 0000: the game is over (den entered)",
        ),
    ],
)
def test_corrupt_records_are_rejected(text: str, line: int, reason: str) -> None:
    with pytest.raises(RecordError) as info:
        read_record(text)
    error = info.value
    assert isinstance(error, ValueError)
    assert error.line == line, str(error)
    assert reason in error.reason, str(error)
    assert str(error) == f"line {line}: {error.reason}"


def test_an_error_in_a_later_record_names_its_line() -> None:
    good = write_record(GameRecord.from_board(Board(), Event="fine"))
    assert good.count("\n") == 10
    with pytest.raises(RecordError, match="line 18: illegal move a3a5") as info:
        read_records(good + "\n" + HEAD + "1. a3a5 *\n")
    assert info.value.line == 18


# --- property test ---------------------------------------------------------------------------

_comment = st.text(st.characters(blacklist_characters="}\r"), max_size=12)
_tag_value = st.text(st.characters(blacklist_characters="\r\n"), max_size=12)


@pytest.mark.parametrize("name", list(BUILTIN_RULE_SETS))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_games_round_trip(name: str, data: st.DataObject) -> None:
    rules = BUILTIN_RULE_SETS[name]
    if data.draw(st.booleans(), label="blue first"):
        rules = dataclasses.replace(rules, name=f"{name}-blue", first_player=BLUE)
    board = Board(rules=rules)
    comments: dict[int, str] = {}
    if data.draw(st.booleans(), label="opening comment"):
        comments[0] = data.draw(_comment)
    for ply in range(1, data.draw(st.integers(0, 60), label="plies") + 1):
        if board.outcome() is not None:
            break
        # The pass (timeout) is a possible ply whenever the game goes on.
        board.push(data.draw(st.sampled_from([*board.legal_moves, Move.null()])))
        if data.draw(st.integers(0, 5)) == 0:
            comments[ply] = data.draw(_comment)
    record = GameRecord.from_board(board, comments=comments, Event=data.draw(_tag_value))
    text = write_record(record)
    again = read_record(text)
    assert again == record
    assert write_record(again) == text
    replayed = again.board()
    assert replayed.fen() == board.fen()
    assert replayed.move_stack == board.move_stack
    assert read_records(text + "\n" + text) == [record, record]
