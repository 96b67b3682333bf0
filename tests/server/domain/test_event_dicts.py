"""Events as plain data: what ``to_dict`` and ``plain`` give for every kind of value an event
holds, along the fast path for the built-in types and the long one for the rest."""

from __future__ import annotations

import json
import math
from enum import IntEnum, StrEnum

from tests.support.helpers import RED_ID, T0, ok, online_game

from doushouqi.core.clock import TimeControl
from doushouqi.server.domain import GameStatus, Move, MoveMade
from doushouqi.server.domain.events import ClockView, plain


class Shade(StrEnum):
    DARK = "dark"


class Size(IntEnum):
    BIG = 3


def test_built_in_values_come_through_as_json_holds_them() -> None:
    assert plain({"a": ["b", 1, 2.5, None, True]}) == {"a": ["b", 1, 2.5, None, True]}
    assert plain((1, ("x", "y"))) == [1, ["x", "y"]]
    assert plain({3: "three"}) == {"3": "three"}  # JSON keys are strings
    assert plain([math.inf, -math.inf, math.nan]) == [None, None, None]
    assert plain({"t": math.inf}) == {"t": None}


def test_subclasses_of_built_ins_take_the_long_way() -> None:
    # An enum is a str or an int too, but what is sent is its value, as a plain str or int.
    assert plain([Shade.DARK, Size.BIG]) == ["dark", 3]
    assert type(plain(Size.BIG)) is int
    assert plain({"status": GameStatus.STARTED}) == {"status": GameStatus.STARTED.label}
    assert plain(TimeControl.parse("5+2")) == "5+2"


def test_nested_dataclasses_and_to_dict() -> None:
    clocks = ClockView((60.0, None), math.inf, 1, True, (0, 2))
    assert plain(clocks) == {
        "remaining": [60.0, None],
        "move_time_left": None,
        "to_move": 1,
        "running": True,
        "timeouts": [0, 2],
    }


def test_a_move_made_is_json_that_reads_back_equal() -> None:
    game = online_game(time_control="5+2")
    _, events = ok(game, Move(actor=RED_ID, move="a3a4", move_id="m1"), T0 + 3)
    (made,) = events
    assert isinstance(made, MoveMade)
    data = made.to_dict()
    assert list(data)[:3] == ["type", "game_id", "version"]
    assert data["type"] == "move_made" and data["readable_zh"] == "象 a3-a4"
    assert data["dests"] == made.dests and data["dests"] is not made.dests  # a copy
    assert all(type(v) is list for v in data["dests"].values())
    assert data["clocks"]["remaining"] == [299.0, 300.0]
    assert json.loads(json.dumps(data)) == data


def test_a_move_mades_own_dict_is_the_generic_one_for_every_move() -> None:
    """``MoveMade.to_dict`` writes its fields out one by one: the same dict, in the same
    order, as the loop over the fields of every other event, for the moves of whole games
    (with and without a clock), its destinations copies that share no list."""
    from doushouqi.server.domain import Event

    for time_control in ("5+2", None):
        game = online_game(time_control=time_control)
        for ply in range(40):
            position = game.position()
            legal = sorted(position.legal_moves())
            if not legal or game.status is not GameStatus.STARTED:
                break
            actor = game.players[game.turn].identity  # type: ignore[union-attr]
            move = Move(actor=actor, move=legal[ply % len(legal)], move_id=f"m{ply}")
            game, events = ok(game, move, T0 + 3 + ply)
            made = events[0]
            assert isinstance(made, MoveMade)
            own, generic = made.to_dict(), Event.to_dict(made)
            assert own == generic and list(own) == list(generic)
            assert json.dumps(own) == json.dumps(generic)
            assert all(own["dests"][k] is not v for k, v in made.dests.items())
        assert len(game.moves) >= 10  # the games were played, not refused at once


def test_a_move_made_made_at_once_is_the_one_its_dataclass_makes() -> None:
    clocks = ClockView(
        remaining=(10.0, 20.0), move_time_left=None, to_move=1, running=True, timeouts=(0, 0)
    )
    fields = dict(
        color=0, move="g3g4", readable="g3-g4", readable_zh="象g3-g4", ply=1, at=T0,
        fen="x", to_move=1, dests={"a1": ["a2"]}, clocks=clocks,
    )  # fmt: skip
    for move_id in ({}, {"move_id": "m1"}):
        fast, made = MoveMade.made(**fields, **move_id), MoveMade(**fields, **move_id)
        assert fast == made and fast.__dict__ == made.__dict__  # every field, defaults too
        assert fast.stamped("g", 3).to_dict() == made.stamped("g", 3).to_dict()
