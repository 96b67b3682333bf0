"""Tests for doushouqi.tiger.game: 老虎棋 through the platform's game interface.

The checks every game passes are in tests/games/test_conformance.py; these are the Tiger's
own: its registration, words, seats, rule sets, destinations and timeouts."""

from __future__ import annotations

import json

import pytest
from tests.tiger.helpers import place, rules

from doushouqi.core.game import (
    GAMES,
    LANGUAGES,
    IllegalMoveError,
    MoveError,
    PositionError,
    RulesError,
    TimeoutEffect,
    get_game,
)
from doushouqi.core.outcome import BoardEnding, Outcome
from doushouqi.games import INSTALLED
from doushouqi.tiger.game import TIGER, TigerPosition
from doushouqi.tiger.rules import BUILTIN_RULE_SETS


def test_installed_after_jungle_and_registered() -> None:
    assert [game.key for game in INSTALLED] == ["jungle", "tiger"]
    assert GAMES["tiger"] is TIGER and get_game("tiger") is TIGER


def test_words() -> None:
    assert [TIGER.name(lang) for lang in LANGUAGES] == ["Tiger chess", "老虎棋", "老虎棋"]
    assert [TIGER.seat_name(0, lang) for lang in LANGUAGES] == ["Tiger", "虎方", "虎方"]
    assert [TIGER.seat_name(1, lang) for lang in LANGUAGES] == ["Men", "人方", "人方"]
    assert TIGER.ending_name("men_captured", "zh-Hant") == "人數不足"
    assert TIGER.ending_name("tiger_trapped", "en") == "tiger trapped"
    with pytest.raises(ValueError, match="not a board ending"):
        TIGER.ending_name("den_entered", "en")
    with pytest.raises(ValueError, match="unknown language"):
        TIGER.name("fr")  # type: ignore[arg-type]


def test_rule_sets() -> None:
    assert TIGER.rule_set_names == tuple(BUILTIN_RULE_SETS)
    assert TIGER.default_rule_set == "laohuqi"
    assert TIGER.parse_rules("laohuqi-south").tigers == 2
    custom = rules(multi_jump=True)
    stored = json.loads(json.dumps(TIGER.rules_to_mapping(custom)))
    assert TIGER.parse_rules(stored) == custom
    with pytest.raises(RulesError):
        TIGER.parse_rules(["laohuqi"])  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="unknown option"):
        TIGER.parse_rules({"name": "x", "parent": "laohuqi", "ranks": "wolf>dog"})


def test_the_men_may_be_chosen_to_move_first() -> None:
    men_first = TIGER.with_first_seat(TIGER.parse_rules("laohuqi"), 1)
    assert TIGER.first_seat(men_first) == 1
    assert TIGER.start_position(men_first).endswith(" m 0 1")
    with pytest.raises(RulesError):
        TIGER.with_first_seat(men_first, 2)


def test_positions_and_moves() -> None:
    rules_ = TIGER.parse_rules("laohuqi")
    position = TIGER.new_position(rules_, TIGER.start_position(rules_))
    assert isinstance(position, TigerPosition)
    assert position.parse_move(" E10E9") == "e10e9"
    with pytest.raises(IllegalMoveError, match="no man on e9 to jump"):
        position.parse_move("e10e8")
    with pytest.raises(MoveError):
        position.parse_move("Te10-e9")  # move strings only; notation is the library's
    with pytest.raises(PositionError):
        TIGER.new_position(rules_, 42)  # type: ignore[arg-type]
    assert position.move_text("e10e9", "en") == "Te10-e9"
    assert position.move_text("0000", "zh") == "停棋一步"


def test_outcomes_are_the_platforms() -> None:
    text = place("e5", "e6 a1 b1 c1")
    position = TIGER.new_position(TIGER.parse_rules("laohuqi"), text)
    position.push(position.parse_move("e5e7"))
    assert position.outcome() == Outcome(BoardEnding("men_captured"), 0)
    assert position.legal_moves() == [] and position.legal_destinations() == {}
    assert set(TIGER.board_endings) >= {"men_captured", "tiger_trapped", "repetition"}


def test_destinations_group_moves_by_point() -> None:
    position = TIGER.new_position(TIGER.parse_rules("laohuqi"), place("e5", "e6 a1 b1 c1"))
    assert position.legal_destinations() == {"e5": ["e4", "d5", "f5", "e7"]}


def test_a_multi_jump_is_a_destination_once() -> None:
    # Two routes from e5 to g7 (over e6 then f7, or over f5 then g6).
    loop = rules(multi_jump=True)
    position = TIGER.new_position(loop, place("e5", "e6 f7 f5 g6 a1 b1"))
    moves = position.legal_moves()
    assert "e5e7g7" in moves and "e5g5g7" in moves
    destinations = position.legal_destinations()["e5"]
    assert destinations.count("g7") == 1


def test_a_timeout_passes_the_turn() -> None:
    assert TIGER.timeout_effect is TimeoutEffect.PASS_TURN and TIGER.pass_move == "0000"
    rules_ = TIGER.parse_rules("laohuqi")
    position = TIGER.new_position(rules_, TIGER.start_position(rules_))
    position.push_pass()
    assert position.turn == 1 and position.pop() == "0000"
    trapped = TIGER.new_position(rules_, place("e11", "d11 f11 e10 e9 a1"))
    with pytest.raises(MoveError):
        trapped.push_pass()
