"""Copies of games and events (``Game.evolve``, ``Game.with_position``, ``Event.stamped``):
made from the instance's dict rather than by ``dataclasses.replace`` (faster on every move), so
these check that they are the same values replace would give, that a field's name is checked,
and that a cached position goes where the moves change."""

from __future__ import annotations

import dataclasses
import json

import pytest
from tests.support.helpers import RED_ID, T0, online_game, play

from doushouqi.server.domain import DrawDeclined, Game, Move, MoveMade, apply
from doushouqi.server.domain.events import Event
from doushouqi.server.domain.model import TimedMove
from doushouqi.server.domain.storage import game_from_storage, game_to_storage, stored_moves


def _played() -> Game:
    game, _ = play(online_game(), ["a3a4", "a7a6"])
    return game


def test_evolve_equals_replace() -> None:
    game = _played()
    changes = {"version": 9, "draw_offer": 1, "finished_at": T0 + 50}
    evolved = game.evolve(**changes)
    assert evolved == dataclasses.replace(game, **changes)
    assert type(evolved) is Game and evolved is not game
    assert game.version != 9 and game.draw_offer is None  # the original is untouched


def test_evolve_refuses_a_name_that_is_no_field() -> None:
    with pytest.raises(TypeError, match="no field 'versoin'"):
        _played().evolve(versoin=3)
    with pytest.raises(TypeError):
        _played().with_position(_played().position(), _position=None)


def test_evolved_game_is_still_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        _played().evolve(version=3).version = 4  # type: ignore[misc]


def test_the_cached_position_follows_the_moves() -> None:
    game = _played()
    fen = game.fen  # caches the position
    assert game.evolve(version=10).fen == fen  # kept: the moves are the same
    shorter = game.evolve(moves=game.moves[:1])
    assert "_position" not in shorter.__dict__  # dropped: replayed from the moves when asked
    assert shorter.fen != fen and shorter.turn == 1 - game.turn


def test_with_position_takes_the_position_given() -> None:
    game = _played()
    position = game.position()
    position.push("a4a5")
    moved = game.with_position(position, version=game.version + 1)
    assert moved.fen == position.position_string()
    assert moved.version == game.version + 1


def test_stamped_equals_replace() -> None:
    event = DrawDeclined(color=1, implicit=True)
    stamped = event.stamped("g1", 7)
    assert stamped == dataclasses.replace(event, game_id="g1", version=7)
    assert type(stamped) is DrawDeclined and event.version == 0
    assert isinstance(stamped, Event)
    with pytest.raises(dataclasses.FrozenInstanceError):
        stamped.version = 8  # type: ignore[misc]


def test_stamped_move_keeps_every_field() -> None:
    game = online_game()
    _, events = apply(game, Move(actor=RED_ID, move="a3a4"), T0 + 5)
    made = events[0]
    assert isinstance(made, MoveMade)
    again = made.stamped("other", 99)
    assert again.to_dict() == {**made.to_dict(), "game_id": "other", "version": 99}


def test_what_is_kept_follows_the_set_up() -> None:
    game = _played()
    made: list[Game] = []

    def make(g: Game) -> tuple[object, ...]:
        made.append(g)
        return tuple(g.players)

    assert game.kept("seats", make) == tuple(game.players)
    moved = game.evolve(version=10, draw_offer=1)
    assert moved.kept("seats", make) == tuple(game.players) and len(made) == 1  # carried over
    seated = game.evolve(players=(game.players[0], None))
    assert seated.kept("seats", make) == (game.players[0], None) and len(made) == 2  # made anew
    assert game.kept("seats", make) == tuple(game.players)  # the original keeps its own


def test_the_stored_game_follows_a_change_of_seat() -> None:
    game = _played()
    game_to_storage(game)  # its set-up's parts kept
    emptied = game.evolve(players=(game.players[0], None), version=game.version + 1)
    assert game_to_storage(emptied)["players"][1] is None
    assert game_from_storage(game_to_storage(emptied)) == emptied
    assert game_to_storage(game)["players"][1] is not None


def _encode(data: object) -> bytes:
    return json.dumps(data, separators=(",", ":")).encode()


def test_the_stored_moves_text_follows_the_moves_through_copies() -> None:
    """``stored_moves`` keeps its text with the game and appends a copy's new moves to it: the
    text must be that of the copy's own moves, whatever was kept (more moves, a takeback)."""
    game = online_game()
    texts = []
    for move in ["a3a4", "a7a6", "g3g4", "g7g6"]:
        game, _ = play(game, [move])
        texts.append(stored_moves(game, _encode))
        assert texts[-1] == _encode(game_to_storage(game)["moves"])
    assert "_stored_moves" in game.__dict__  # kept: the next copy appends to it
    taken_back = game.evolve(moves=game.moves[:2])  # shorter: encoded again, not appended to
    assert stored_moves(taken_back, _encode) == _encode(game_to_storage(taken_back)["moves"])
    replayed = taken_back.evolve(moves=(*taken_back.moves, TimedMove("b3b4", T0 + 9.5)))
    assert stored_moves(replayed, _encode) == _encode(game_to_storage(replayed)["moves"])
    assert json.loads(stored_moves(replayed, _encode))[-1] == ["b3b4", T0 + 9.5]
