"""Versions and rejections: every accepted command raises the version by one, every event
carries the game id and version, a refused command changes nothing, bad input never raises,
and every event serialises to plain JSON-ready data."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import ClassVar

import pytest
from tests.support.helpers import BLUE_ID, DEN_FEN, RED_ID, T0, ok, online_game, play, refused

from doushouqi.server.domain import (
    HANDLERS,
    AcceptDraw,
    Command,
    Disconnected,
    Event,
    Move,
    OfferDraw,
    Reconnected,
    RejectCode,
    Rejected,
    Resign,
    Tick,
    apply,
)


def test_versions_count_accepted_commands() -> None:
    game = online_game(start=False)
    assert game.version == 0
    game = online_game()
    assert game.version == 2  # two joins
    game, _ = play(game, ["a3a4", "a7a6"])
    assert game.version == 4
    refused(game, Move(actor=RED_ID, move="a4a6"), T0 + 10)
    game, events = ok(game, OfferDraw(actor=RED_ID), T0 + 11)
    assert game.version == 5 and events[0].version == 5 and events[0].game_id == game.id


def test_all_events_of_one_command_share_its_version() -> None:
    game = online_game(fen=DEN_FEN)
    game, events = ok(game, Move(actor=RED_ID, move="d8d9"), T0 + 1)
    assert len(events) == 2
    assert {(e.game_id, e.version) for e in events} == {(game.id, game.version)}


def test_a_rejection_carries_the_unchanged_version() -> None:
    game = online_game()
    rejected = refused(game, Move(actor=BLUE_ID, move="a7a6"), T0 + 1)
    assert (rejected.game_id, rejected.version, rejected.command) == (game.id, 2, "move")
    assert rejected.to_dict() == {
        "type": "rejected",
        "game_id": game.id,
        "version": 2,
        "reason": "it is Red's turn",
        "code": "not_your_turn",
        "command": "move",
    }


def test_an_idle_tick_is_not_a_version() -> None:
    game = online_game(time_control="1+0")
    assert apply(game, Tick(), T0 + 1) == (game, [])


def test_expected_version_guards_against_stale_commands() -> None:
    game = online_game()
    rejected = refused(game, Move(actor=RED_ID, move="a3a4", expected_version=1), T0 + 1)
    assert rejected.code is RejectCode.STALE_VERSION
    game, _ = ok(game, Move(actor=RED_ID, move="a3a4", expected_version=2), T0 + 1)


def test_presence_never_makes_a_command_stale() -> None:
    """A player's connection coming and going raises the version, but a command sent for the
    version before it still applies: nothing it acts on changed (the churn of two reconnecting
    clients must not refuse every move). A move or an offer in between does make it stale."""
    game = online_game()
    seen = game.version
    for at, presence in enumerate([Disconnected(color=1), Reconnected(color=1)] * 3):
        game, _ = ok(game, presence, T0 + 1 + at)
    assert game.version == seen + 6
    game, _ = ok(game, Move(actor=RED_ID, move="a3a4", expected_version=seen), T0 + 10)
    after_move = game.version
    game, _ = ok(game, Disconnected(color=0), T0 + 11)
    game, _ = ok(game, OfferDraw(actor=BLUE_ID, expected_version=after_move), T0 + 12)
    # The offer changed the game: a command for the version before it is stale again.
    rejected = refused(game, Move(actor=BLUE_ID, move="a7a6", expected_version=after_move), T0 + 13)
    assert rejected.code is RejectCode.STALE_VERSION
    refused(game, Move(actor=BLUE_ID, move="a7a6", expected_version=game.version + 1), T0 + 13)
    ok(game, Move(actor=BLUE_ID, move="a7a6", expected_version=game.version), T0 + 13)


def test_the_fresh_range_survives_storage() -> None:
    from doushouqi.server.domain.storage import game_from_storage, game_to_storage

    game = online_game()
    seen = game.version
    game, _ = ok(game, Disconnected(color=1), T0 + 1)
    assert game.state_version == seen
    stored = game_from_storage(json.loads(json.dumps(game_to_storage(game))))
    assert stored == game
    ok(stored, Move(actor=RED_ID, move="a3a4", expected_version=seen), T0 + 2)


@dataclass(frozen=True, kw_only=True)
class Dance(Command):
    command_type: ClassVar[str] = "dance"


def test_unknown_commands_and_objects_are_refused() -> None:
    game = online_game()
    assert Dance not in HANDLERS
    assert refused(game, Dance(actor=RED_ID), T0 + 1).code is RejectCode.BAD_COMMAND
    rejected = refused(game, "resign", T0 + 1)  # type: ignore[arg-type]
    assert (rejected.code, rejected.command) == (RejectCode.BAD_COMMAND, "str")


@pytest.mark.parametrize(
    "command",
    [
        Resign(actor=RED_ID, color=2),
        Resign(actor=RED_ID, color=True),
        Resign(actor=RED_ID, color=0.0),  # type: ignore[arg-type]
        Resign(actor=RED_ID, expected_version="2"),  # type: ignore[arg-type]
        Move(actor=RED_ID, move="a3a4" + " " * 100),
        Resign(actor="Li"),  # type: ignore[arg-type]
        Resign(actor=None),  # type: ignore[arg-type]
        Disconnected(color=-1),
        Disconnected(color=0, at="soon"),  # type: ignore[arg-type]
        Disconnected(color=0, at=float("nan")),
    ],
)
def test_malformed_commands_are_refused_not_raised(command: Command) -> None:
    rejected = refused(online_game(), command, T0 + 1)
    assert rejected.code in (
        RejectCode.BAD_COMMAND,
        RejectCode.BAD_TIME,
        RejectCode.STALE_VERSION,
        RejectCode.INVALID_MOVE,
    )


@pytest.mark.parametrize("now", [T0 - 1, float("inf"), float("nan"), "now", True])
def test_bad_times_are_refused(now: object) -> None:
    assert refused(online_game(), Tick(), now).code is RejectCode.BAD_TIME  # type: ignore[arg-type]


def test_every_event_serialises_to_json() -> None:
    game, events = ok(online_game(time_control="/10s"), Tick(), T0 + 10)
    game, more = ok(game, OfferDraw(actor=BLUE_ID), T0 + 11)
    events += more
    game, more = ok(game, AcceptDraw(actor=RED_ID), T0 + 12)
    events += more
    for event in events:
        data = event.to_dict()
        assert data["type"] == event.type and data["version"] == event.version
        assert json.loads(json.dumps(data)) == data
    finished = events[-1].to_dict()
    assert finished["termination"] == "draw_agreed" and finished["result"] == "1/2-1/2"
    assert finished["clocks"]["remaining"] == [None, None]  # no main clock
    assert finished["score_change"] == {"deltas": [0, 0], "new_scores": [0, 0], "voided": True}


def test_events_are_values() -> None:
    assert isinstance(Rejected(reason="r", code=RejectCode.GAME_OVER, command="move"), Event)
