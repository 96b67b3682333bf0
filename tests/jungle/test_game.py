"""Tests for doushouqi.jungle.game: Jungle through the platform's game interface.

The checks every game must pass are in tests/games/test_conformance.py; these are Jungle's own:
how its outcomes map onto the platform's, its words, and that the wrapper adds no rule.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from doushouqi.core.game import GAMES, MoveError, PositionError, RulesError, TimeoutEffect
from doushouqi.core.outcome import BoardEnding, Outcome, PlatformEnding
from doushouqi.jungle.board import Board
from doushouqi.jungle.game import JUNGLE, JunglePosition, outcome_from_core, outcome_to_core
from doushouqi.jungle.outcome import Outcome as JungleOutcome
from doushouqi.jungle.outcome import Termination
from doushouqi.jungle.rules import BUILTIN_RULE_SETS, RuleSet


def test_registered_under_jungle() -> None:
    assert GAMES["jungle"] is JUNGLE


def test_off_board_terminations_are_exactly_the_platform_endings() -> None:
    # If either side gains an off-board ending, the other must gain it too, or a stored
    # Jungle ending could not be read back by the platform.
    off_board = {t.value for t in Termination if not t.is_on_board}
    assert off_board == {e.value for e in PlatformEnding}
    assert set(JUNGLE.board_endings) == {t.value for t in Termination if t.is_on_board}


@pytest.mark.parametrize("termination", list(Termination))
@pytest.mark.parametrize("winner", [0, 1, None])
def test_outcomes_map_both_ways(termination: Termination, winner: int | None) -> None:
    if winner is not None and termination in (Termination.DRAW_AGREED, Termination.ABORTED):
        return  # endings without a winner
    jungle = JungleOutcome(termination, winner)
    core = outcome_to_core(jungle)
    assert core.winner == winner
    assert core.is_on_board == termination.is_on_board
    assert core.key == termination.value
    assert core.result() == jungle.result()
    assert outcome_from_core(core) == jungle


def test_outcome_from_core_refuses_another_games_ending() -> None:
    with pytest.raises(ValueError, match="tiger_trapped"):
        outcome_from_core(Outcome(BoardEnding("tiger_trapped"), 1))


def test_the_position_reports_the_boards_outcome_with_seats() -> None:
    # Blue's lion next to Red's den, Blue to move: d2d1 enters the den; Blue is seat 1.
    position = JUNGLE.new_position(BUILTIN_RULE_SETS["wango"], "7/7/7/7/7/7/7/3l3/6R b")
    position.push(position.parse_move("d2d1"))
    assert position.outcome() == Outcome(BoardEnding("den_entered"), 1)
    assert position.legal_moves() == []


def test_words() -> None:
    assert [JUNGLE.name(lang) for lang in ("en", "zh", "zh-Hant")] == ["Jungle", "斗兽棋", "鬥獸棋"]
    assert [JUNGLE.seat_name(s, "zh-Hant") for s in (0, 1)] == ["紅方", "藍方"]
    assert [JUNGLE.seat_name(s, "en") for s in (0, 1)] == ["Red", "Blue"]
    assert JUNGLE.ending_name("no_legal_moves", "zh") == "困毙"
    assert JUNGLE.ending_name("no_legal_moves", "zh-Hant") == "困斃"
    assert JUNGLE.ending_name("repetition", "zh-Hant") == "循環反覆"
    assert JUNGLE.ending_name("den_entered", "en") == "den entered"
    with pytest.raises(ValueError, match="not a board ending"):
        JUNGLE.ending_name("resignation", "en")  # the platform's words, not Jungle's
    with pytest.raises(ValueError, match="unknown language"):
        JUNGLE.name("fr")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown language"):
        JUNGLE.seat_name(0, "fr")  # type: ignore[arg-type]


def test_move_text() -> None:
    position = JUNGLE.new_position(BUILTIN_RULE_SETS["wango"], "7/7/7/T2w3/7/7/7/7/7 w")
    assert position.move_text("a6d6", "en") == "Ta6xd6"
    assert position.move_text("a6d6", "zh") == "虎 a6×d6 吃 狼"
    assert position.move_text("a6d6", "zh-Hant") == "虎 a6×d6 吃 狼"
    start = JUNGLE.new_position(RuleSet(), JUNGLE.start_position(RuleSet()))
    assert start.move_text("g1g2", "zh") == "狮 g1-g2"
    assert start.move_text("g1g2", "zh-Hant") == "獅 g1-g2"
    assert start.move_text("0000", "zh-Hant") == "停棋一步"
    with pytest.raises(MoveError, match="illegal"):
        start.move_text("g1g5", "en")
    with pytest.raises(MoveError, match="invalid move"):
        start.move_text("lion", "en")


def test_traditional_text_keeps_no_simplified_character() -> None:
    # Every Chinese word the wrapper can produce, in Traditional: none of the characters that
    # the two scripts write differently may be left in Simplified form.
    simplified_only = set("猫狮毙违环复红蓝斗兽")
    texts = [JUNGLE.name("zh-Hant")]
    texts += [JUNGLE.seat_name(s, "zh-Hant") for s in (0, 1)]
    texts += [JUNGLE.ending_name(k, "zh-Hant") for k in JUNGLE.board_endings]
    board = Board("7/7/l3c2/7/7/7/2C4/7/T5L w")
    position = JunglePosition(board)
    texts += [position.move_text(m, "zh-Hant") for m in position.legal_moves()]
    assert not simplified_only & set("".join(texts))


def test_parse_rules() -> None:
    assert JUNGLE.rule_set_names == tuple(BUILTIN_RULE_SETS)
    assert JUNGLE.default_rule_set == "wango"
    assert JUNGLE.parse_rules(" Classic ") is BUILTIN_RULE_SETS["classic"]
    custom = JUNGLE.parse_rules({"name": "mine", "parent": "classic", "rule_17_5": False})
    assert (custom.name, custom.rule_7_3, custom.rule_17_5) == ("mine", True, False)
    with pytest.raises(RulesError, match="unknown rule set 'chess'"):
        JUNGLE.parse_rules("chess")
    with pytest.raises(RulesError, match="rule_7_3: expected true or false"):
        JUNGLE.parse_rules({"rule_7_3": "yes"})
    with pytest.raises(RulesError, match="a name or a mapping"):
        JUNGLE.parse_rules(7)  # type: ignore[arg-type]


def test_parse_rules_never_reads_a_file(tmp_path: Path) -> None:
    # find_rules would load this file; a name from a user or from storage must not.
    path = tmp_path / "mine.toml"
    path.write_text("rule_7_3 = true\n", "utf-8")
    with pytest.raises(RulesError, match="unknown rule set"):
        JUNGLE.parse_rules(str(path))


def test_start_position_follows_the_first_player() -> None:
    assert JUNGLE.start_position(RuleSet()).split()[1] == "w"
    assert JUNGLE.start_position(RuleSet(first_player=1)).split()[1] == "b"
    blue_first = JUNGLE.new_position(RuleSet(first_player=1), "7/7/7/7/7/7/7/3l3/6R b")
    assert blue_first.turn == 1


def test_errors() -> None:
    with pytest.raises(PositionError, match="invalid position string"):
        JUNGLE.new_position(RuleSet(), "8/7/7/7/7/7/7/7/7 w")
    with pytest.raises(PositionError, match="text"):
        JUNGLE.new_position(RuleSet(), None)  # type: ignore[arg-type]
    position = JUNGLE.new_position(RuleSet(), JUNGLE.start_position(RuleSet()))
    for text, reason in [
        ("a3a5", "illegal move a3a5"),
        ("z9", "invalid move"),
        ("0000", "a pass is only made"),
    ]:
        with pytest.raises(MoveError, match=reason):
            position.parse_move(text)
    with pytest.raises(MoveError, match="text"):
        position.parse_move(None)  # type: ignore[arg-type]
    assert issubclass(MoveError, ValueError)


def test_timeouts_pass_the_turn() -> None:
    assert JUNGLE.timeout_effect is TimeoutEffect.PASS_TURN
    assert JUNGLE.pass_move == "0000"
    position = JUNGLE.new_position(RuleSet(), JUNGLE.start_position(RuleSet()))
    position.push_pass()
    assert position.turn == 1
    assert position.pop() == JUNGLE.pass_move
    over = JUNGLE.new_position(RuleSet(), "3L3/7/7/7/7/7/7/7/4t2 b")
    with pytest.raises(MoveError, match="game is over"):
        over.push_pass()


def test_the_wrapper_shares_the_board() -> None:
    board = Board()
    position = JunglePosition(board)
    position.push("a3a4")
    assert board.fen() == position.position_string()
    assert position.board is board
    assert position.copy().board is not board
    assert position.position_hash() == board.zobrist_hash()
