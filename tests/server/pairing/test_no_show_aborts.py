"""Games that quick pairing or a challenge made and that nobody plays are aborted by the
server by itself (domain/timing.py): a minute after the pairing when a player never came to
the board, a minute after the turn came when the first move was not made. On a live server
whose clock the test moves (the game's own actor sends the tick)."""

from __future__ import annotations

import time
from typing import Any

from tests.support.live import LiveServer, ManualTime, Player, move

from doushouqi.server.domain import DEFAULT_START_WAIT


def _accepted_challenge(server: LiveServer) -> tuple[Player, Player, str]:
    alice, bob = server.player().register("ns_alice"), server.player().register("ns_bob")
    body = {"to": "ns_bob", "color": "red", "rated": True, "time_control": "10+0"}
    sent = alice.post("/api/challenges", json=body)
    assert sent.status_code == 201, sent.text
    accepted = bob.post(f"/api/challenges/{sent.json()['id']}/accept")
    assert accepted.status_code == 200, accepted.text
    return alice, bob, str(accepted.json()["game_id"])


def _state(player: Player, game_id: str) -> dict[str, Any]:
    answer = player.get(f"/api/games/{game_id}")
    assert answer.status_code == 200, answer.text
    return answer.json()["game"]  # type: ignore[no-any-return]


def _until_over(player: Player, game_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + 20
    while (game := _state(player, game_id))["status"] in ("created", "started"):
        assert time.monotonic() < deadline, game["status"]
        time.sleep(0.05)
    return game


def test_a_challenge_nobody_comes_to_is_aborted_after_a_minute(
    server: LiveServer, clock: ManualTime
) -> None:
    alice, _, game_id = _accepted_challenge(server)
    assert _state(alice, game_id)["status"] == "created"
    clock.advance(DEFAULT_START_WAIT - 1)
    time.sleep(0.3)  # the actor had its chance: too early, nothing happens
    assert _state(alice, game_id)["status"] == "created"
    clock.advance(2)
    game = _until_over(alice, game_id)
    assert (game["status"], game["abort_reason"]) == ("aborted", "no_show")
    assert game["rating_change"] is None  # a rated game nobody played changes no rating


def test_a_game_whose_first_move_does_not_come_is_aborted(
    server: LiveServer, clock: ManualTime
) -> None:
    alice, bob, game_id = _accepted_challenge(server)
    with alice.socket(game_id) as red, bob.socket(game_id) as blue:
        red.wait_for("state")
        red.send({"type": "join"})
        blue.wait_for("state")
        blue.send({"type": "join"})
        red.wait_for("game_started")
        move(red, "a3a4")  # Red moved; Blue never does
        clock.advance(DEFAULT_START_WAIT + 1)
        finished = blue.wait_for("game_finished")
    assert finished["termination"] == "aborted" and finished["abort_reason"] == "no_first_move"
    assert _state(alice, game_id)["status"] == "aborted"
