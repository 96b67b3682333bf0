"""Move ids: a move a client names is applied at most once. Sent again (after a connection
drop, when its answer was lost), it is answered as applied and changes nothing, even though the
version it was sent for is old by then; an id used for another move is refused; the ids are
stored with the game, so a node that loads it knows them too."""

from __future__ import annotations

import json

import pytest
from tests.support.helpers import BLUE_ID, RED_ID, T0, ok, online_game, quiet_moves, refused

from doushouqi.server.domain import AlreadyApplied, Move, MoveMade, RejectCode, apply
from doushouqi.server.domain.model import MOVE_IDS_KEPT
from doushouqi.server.domain.storage import game_from_storage, game_to_storage


def test_a_move_sent_again_under_its_id_is_answered_as_applied() -> None:
    game = online_game()
    seen = game.version
    move = Move(actor=RED_ID, move="a3a4", move_id="m-1", expected_version=seen)
    game, events = ok(game, move, T0 + 1)
    assert isinstance(events[0], MoveMade) and events[0].move_id == "m-1"
    game, _ = ok(game, Move(actor=BLUE_ID, move="a7a6"), T0 + 2)
    # The same message again, for the version it was first sent for (stale by now).
    again, answer = apply(game, move, T0 + 3)
    assert again is game
    assert answer == [AlreadyApplied(move_id="m-1", game_id=game.id, version=game.version)]
    assert [m.move for m in again.moves] == ["a3a4", "a7a6"]


def test_an_id_used_for_another_move_is_refused() -> None:
    game = online_game()
    game, _ = ok(game, Move(actor=RED_ID, move="a3a4", move_id="same"), T0 + 1)
    rejected = refused(game, Move(actor=BLUE_ID, move="a7a6", move_id="same"), T0 + 2)
    assert rejected.code is RejectCode.MOVE_ID_USED
    assert "a3a4" in rejected.reason


def test_a_refused_move_leaves_no_id_behind() -> None:
    game = online_game()
    refused(game, Move(actor=RED_ID, move="a3a6", move_id="bad"), T0 + 1)
    game, events = ok(game, Move(actor=RED_ID, move="a3a4", move_id="bad"), T0 + 2)
    assert isinstance(events[0], MoveMade)


@pytest.mark.parametrize("move_id", ["", "x" * 65, 7, ["m"]])
def test_a_malformed_id_is_refused(move_id: object) -> None:
    game = online_game()
    rejected = refused(game, Move(actor=RED_ID, move="a3a4", move_id=move_id), T0 + 1)  # type: ignore[arg-type]
    assert rejected.code is RejectCode.BAD_COMMAND


def test_moves_without_an_id_remember_none() -> None:
    game = online_game()
    game, _ = ok(game, Move(actor=RED_ID, move="a3a4"), T0 + 1)
    assert game.move_ids == ()
    assert "move_ids" not in game_to_storage(game)


def test_the_last_ids_are_kept_and_stored_with_the_game() -> None:
    game = online_game()
    now = T0
    moves = quiet_moves(MOVE_IDS_KEPT + 4)
    for ply, text in enumerate(moves):
        now += 1
        actor = (RED_ID, BLUE_ID)[ply % 2]
        game, _ = ok(game, Move(actor=actor, move=text, move_id=f"m{ply}"), now)
    assert len(game.move_ids) == MOVE_IDS_KEPT
    assert game.move_ids[-1] == (f"m{len(moves) - 1}", moves[-1])
    loaded = game_from_storage(json.loads(json.dumps(game_to_storage(game))))
    assert loaded.move_ids == game.move_ids
    last = Move(actor=BLUE_ID, move=moves[-1], move_id=f"m{len(moves) - 1}")
    assert isinstance(apply(loaded, last, now + 1)[1][0], AlreadyApplied)
