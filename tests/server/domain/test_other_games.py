"""The domain plays a game it has never heard of: a tiny race registered for these tests only.

The domain reaches games only through :mod:`doushouqi.core.game` (an import-linter contract
keeps Jungle out of it); these tests prove the other half, that nothing in it still assumes
Jungle's rules, words, pass move or endings. The race: each seat moves its counter one or two
steps; the first to reach the goal wins (a board ending of the race's own); a timeout loses
at once (the race has no pass).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from tests.support.helpers import BLUE_ID, RED_ID, T0, blue_player, ok, red_player

from doushouqi.core.clock import TimeControl
from doushouqi.core.game import (
    GAMES,
    IllegalMoveError,
    Lang,
    MoveError,
    PositionError,
    RulesError,
    TimeoutEffect,
    register,
)
from doushouqi.core.outcome import BoardEnding, Outcome, PlatformEnding
from doushouqi.server.domain import (
    Game,
    GameFinished,
    GameSpec,
    GameSpecError,
    GameStatus,
    Join,
    Mode,
    Move,
    MoveMade,
    Rejected,
    Tick,
    apply,
    game_state_dict,
    new_game,
    rematch_spec,
)
from doushouqi.server.domain.storage import game_from_storage, game_to_storage

KEY = "race-for-tests"


@dataclasses.dataclass(frozen=True)
class RaceRules:
    name: str
    goal: int
    first: int = 0


_RULE_SETS = {"short": RaceRules("short", 5), "long": RaceRules("long", 9)}


class RacePosition:
    """Counters of both seats and the seat to move; moves are "1" and "2" (steps)."""

    def __init__(self, rules: RaceRules, counters: list[int], turn: int) -> None:
        self.rules, self.counters, self._turn = rules, counters, turn
        self.stack: list[str] = []

    @property
    def turn(self) -> int:
        return self._turn

    def legal_moves(self) -> list[str]:
        return [] if self.outcome() is not None else ["1", "2"]

    def parse_move(self, text: str) -> str:
        if text not in ("1", "2", "3"):
            raise MoveError(f"not a step: {text!r}")
        if text not in self.legal_moves():
            raise IllegalMoveError(f"illegal move {text}: at most two steps")
        return text

    def legal_destinations(self) -> dict[str, list[str]]:
        here = self.counters[self._turn]
        return (
            {str(here): [str(here + int(m)) for m in self.legal_moves()]}
            if self.legal_moves()
            else {}
        )

    def push(self, move: str) -> None:
        self.counters[self._turn] += int(move)
        self.stack.append(move)
        self._turn = 1 - self._turn

    def push_pass(self) -> None:
        raise MoveError("the race has no pass")

    def pop(self) -> str:
        move = self.stack.pop()
        self._turn = 1 - self._turn
        self.counters[self._turn] -= int(move)
        return move

    def outcome(self) -> Outcome | None:
        for seat in (0, 1):
            if self.counters[seat] >= self.rules.goal:
                return Outcome(BoardEnding("finish_reached"), seat)
        return None

    def position_string(self) -> str:
        return f"{self.counters[0]} {self.counters[1]} {self._turn}"

    def position_hash(self) -> int:
        return hash(self.position_string())

    def move_text(self, move: str, lang: Lang) -> str:
        return f"+{move}" if lang == "en" else f"进{move}"

    def perft(self, depth: int) -> int:
        return 1 << depth

    def copy(self) -> RacePosition:
        other = RacePosition(self.rules, list(self.counters), self._turn)
        other.stack = list(self.stack)
        return other


class Race:
    key = KEY
    rule_set_names = ("short", "long")
    default_rule_set = "short"
    board_endings = ("finish_reached",)
    timeout_effect = TimeoutEffect.LOSS
    pass_move: str | None = None

    def name(self, lang: Lang) -> str:
        return "Race"

    def seat_name(self, seat: int, lang: Lang) -> str:
        return ("North", "South")[seat]

    def ending_name(self, key: str, lang: Lang) -> str:
        return "finish reached"

    def parse_rules(self, spec: str | Mapping[str, Any]) -> RaceRules:
        if isinstance(spec, str):
            if spec not in _RULE_SETS:
                raise RulesError(f"unknown rule set {spec!r}")
            return _RULE_SETS[spec]
        return RaceRules(str(spec["name"]), int(spec["goal"]), int(spec["first"]))

    def rules_to_mapping(self, rules: RaceRules) -> dict[str, Any]:
        return dataclasses.asdict(rules)

    def first_seat(self, rules: RaceRules) -> int:
        return rules.first

    def with_first_seat(self, rules: RaceRules, seat: int) -> RaceRules:
        if seat not in (0, 1):
            raise RulesError(f"no seat {seat!r}")
        return dataclasses.replace(rules, first=seat)

    def start_position(self, rules: RaceRules) -> str:
        return f"0 0 {rules.first}"

    def new_position(self, rules: RaceRules, position: str) -> RacePosition:
        try:
            a, b, turn = (int(part) for part in position.split())
        except ValueError:
            raise PositionError(f"not a race position: {position!r}") from None
        return RacePosition(rules, [a, b], turn)


@pytest.fixture(autouse=True)
def race() -> Iterator[None]:
    register(Race())
    try:
        yield
    finally:
        del GAMES[KEY]


def _race(**changes: Any) -> Game:
    spec = GameSpec(Mode.ONLINE, (red_player(), blue_player()), game_key=KEY, **changes)
    game = new_game(spec, game_id="race-1", now=T0)
    for actor in (RED_ID, BLUE_ID):
        game, _ = ok(game, Join(actor=actor), T0)
    return game


def test_a_game_of_another_game_is_played_to_its_own_board_ending() -> None:
    game = _race(tournament=True)  # tournament games score however short they are
    assert (game.game_key, game.rules_name, game.fen) == (KEY, "short", "0 0 0")
    for step, (actor, move) in enumerate([(RED_ID, "2"), (BLUE_ID, "1"), (RED_ID, "2")], 1):
        game, events = ok(game, Move(actor=actor, move=move), T0 + step)
    made = events[0]
    assert isinstance(made, MoveMade)
    assert (made.readable, made.readable_zh, made.fen) == ("+2", "进2", "4 1 1")
    assert made.dests == {"1": ["2", "3"]}
    game, events = ok(game, Move(actor=BLUE_ID, move="1"), T0 + 4)
    game, events = ok(game, Move(actor=RED_ID, move="1"), T0 + 5)
    finished = events[-1]
    assert isinstance(finished, GameFinished)
    assert finished.to_dict()["termination"] == "finish_reached"
    assert (finished.winner, finished.result) == (0, "1-0")
    assert game.status is GameStatus.ENDED_ON_BOARD and game.status.is_decided
    # Scored as a normal win, though the domain has never heard of this ending.
    assert game.score_change is not None and not game.score_change.voided
    assert game.score_change.deltas[0] > 0 > game.score_change.deltas[1]


def test_its_words_rules_and_refusals_are_the_games_own() -> None:
    game = _race()
    _, events = apply(game, Move(actor=BLUE_ID, move="1"), T0 + 1)
    assert isinstance(events[0], Rejected) and "North's turn" in events[0].reason
    _, events = apply(game, Move(actor=RED_ID, move="3"), T0 + 1)
    assert isinstance(events[0], Rejected) and events[0].code.value == "illegal_move"
    _, events = apply(game, Move(actor=RED_ID, move="x"), T0 + 1)
    assert isinstance(events[0], Rejected) and events[0].code.value == "invalid_move"
    state = game_state_dict(game)
    assert state["rules"] == {"name": "short", "goal": 5, "first": 0}
    assert (state["start_fen"], state["dests"]) == ("0 0 0", {"0": ["1", "2"]})
    with pytest.raises(GameSpecError, match="unknown rule set"):
        new_game(
            GameSpec(Mode.ONLINE, (red_player(), None), game_key=KEY, rules="x"),
            game_id="x",
            now=T0,
        )
    with pytest.raises(GameSpecError, match="unknown game"):
        new_game(GameSpec(Mode.ONLINE, (red_player(), None), game_key="nope"), game_id="x", now=T0)


def test_the_first_seat_is_chosen_through_the_game() -> None:
    game = _race(first_player=1, rules="long")
    assert (game.first_player, game.turn, game.rules) == (1, 1, RaceRules("long", 9, 1))
    assert rematch_spec(game).game_key == KEY


def test_a_timeout_loses_in_a_game_without_passes() -> None:
    game = _race(time_control=TimeControl.parse("/10s"))
    game, events = ok(game, Tick(), T0 + 11)
    finished = events[-1]
    assert isinstance(finished, GameFinished)
    assert (finished.termination, finished.winner) == (PlatformEnding.TIMEOUTS, 1)
    assert game.moves == ()  # no pass was recorded


def test_storage_keeps_the_game_key() -> None:
    game = _race()
    game, _ = ok(game, Move(actor=RED_ID, move="2"), T0 + 1)
    stored = json.loads(json.dumps(game_to_storage(game)))
    assert stored["game_key"] == KEY
    again = game_from_storage(stored)
    assert again == game and again.fen == "2 0 1"
    finished = dataclasses.replace(game, outcome=Outcome(BoardEnding("finish_reached"), 0))
    assert game_from_storage(json.loads(json.dumps(game_to_storage(finished)))) == finished
