"""Quick pairing: compatible seeks become one game; others wait; seeks go with their tabs."""

from __future__ import annotations

import time
from typing import Any

import pytest
from tests.support.live import LiveServer, ManualTime, Player
from tests.support.site_helpers import site_socket

JSON = {"Content-Type": "application/json"}


def seek(player: Player, **body: Any) -> dict[str, Any]:
    response = player.post("/api/seeks", json={"time_control": "10+0/30s", **body})
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


def test_two_players_seeking_the_same_game_are_paired_into_one(server: LiveServer) -> None:
    alice, bob = server.player().guest(), server.player().guest()
    with site_socket(alice) as alice_tab, site_socket(bob) as bob_tab:
        alice_tab.wait_for("hello")
        bob_tab.wait_for("hello")
        first = seek(alice)
        assert first["game_id"] is None
        second = seek(bob)
        game_id = second["game_id"]
        assert game_id is not None
        assert alice_tab.wait_for("paired")["game_id"] == game_id
        assert bob_tab.wait_for("paired")["game_id"] == game_id
    game = alice.get(f"/api/games/{game_id}").json()["game"]
    seated = {p["identity"]["id"] for p in game["players"]}
    assert seated == {alice.me["id"], bob.me["id"]}
    assert game["time_control"] == "10+0/30s"
    assert game["mode"] == "online"
    # Nobody waits any more; for a minute each seek names its game (a tab that missed the
    # push while reconnecting finds it there), then it is forgotten.
    listed = alice.get("/api/seeks").json()
    assert listed["seeks"] == []
    assert [m["game_id"] for m in listed["mine"]] == [game_id]
    # Both at the board: the game starts.
    with alice.socket(game_id) as a_ws, bob.socket(game_id) as b_ws:
        a_ws.wait_for("game_started")
        b_ws.wait_for("game_started")


@pytest.mark.parametrize(
    ("mine", "theirs"),
    [
        ({"time_control": "10+0/30s"}, {"time_control": "5+3"}),
        ({"rules": "wango"}, {"rules": "classic"}),
        ({"rating_range": 100}, {}),  # both rated 1500 by default: inside ±100 …
        ({"rated": False}, {}),  # an account's seek is rated unless it says otherwise
    ],
)
def test_incompatible_seeks_wait(
    server: LiveServer, mine: dict[str, Any], theirs: dict[str, Any]
) -> None:
    alice, bob = server.player().register("alice"), server.player().register("bob")
    if "rating_range" in mine:  # … so make Bob's rating far away at the seeks' speed
        server_ctx = server.app.state.ctx

        def set_rating(session: Any) -> None:
            from doushouqi.core.speed import Speed
            from doushouqi.server.db.repo import DEFAULT_GAME
            from doushouqi.server.db.speed_ratings import fresh_speed_rating

            rapid = fresh_speed_rating(bob.me["id"], DEFAULT_GAME, Speed.RAPID)  # 10+0/30s
            rapid.rating = 1900.0
            session.add(rapid)

        server_ctx.db.run_sync(set_rating)
    assert seek(alice, **mine)["game_id"] is None
    assert seek(bob, **theirs)["game_id"] is None
    counts = alice.get("/api/seeks").json()
    assert sum(s["count"] for s in counts["seeks"]) == 2
    assert len(counts["mine"]) == 1


def test_a_player_is_never_paired_with_themselves(server: LiveServer) -> None:
    alice = server.player().guest()
    alice_again = server.player()
    alice_again.cookies = dict(alice.cookies)
    seek(alice)
    assert seek(alice)["game_id"] is None  # the same wishes: the same seek
    assert seek(alice_again, rated=False)["game_id"] is None
    assert len(alice.get("/api/seeks").json()["mine"]) == 1


def test_rated_seeks_pair_accounts_into_a_rated_game(server: LiveServer) -> None:
    alice, bob = server.player().register("alice"), server.player().register("bob")
    seek(alice, rated=True, time_control="3+2")
    assert seek(bob, rated=False, time_control="3+2")["game_id"] is None
    game_id = seek(bob, rated=True, time_control="3+2")["game_id"]
    assert game_id is not None
    assert alice.get(f"/api/games/{game_id}").json()["game"]["rated"] is True
    # Bob's casual seek went with the pairing (he is in a game now).
    assert [m["game_id"] for m in bob.get("/api/seeks").json()["mine"]] == [game_id]


def test_an_accounts_seek_is_rated_by_default_and_a_guests_casual(server: LiveServer) -> None:
    alice, bob = server.player().register("alice"), server.player().register("bob")
    guest = server.player().guest()
    mine = seek(alice, time_control="3+2")
    assert (mine["rated"], mine["speed"], mine["rating"]) == (True, "blitz", 1500)
    assert seek(guest, time_control="3+2")["rated"] is False  # casual: a guest has no rating
    assert seek(guest, time_control="3+2", rated=False)["game_id"] is None  # the same seek
    game_id = seek(bob, time_control="3+2")["game_id"]
    assert game_id is not None  # with Alice's rated seek, not the guest's casual one
    game = alice.get(f"/api/games/{game_id}").json()["game"]
    assert (game["rated"], game["speed"]) == (True, "blitz")
    seated = {p["username"]: p["rating"] for p in game["players"]}
    assert set(seated) == {"alice", "bob"}
    assert seated["alice"]["provisional"] and seated["alice"]["rating"] == 1500


def test_a_cancelled_seek_is_not_paired(server: LiveServer) -> None:
    alice, bob = server.player().guest(), server.player().guest()
    mine = seek(alice)
    assert bob.request("DELETE", f"/api/seeks/{mine['id']}").status_code == 404  # not Bob's
    assert alice.request("DELETE", f"/api/seeks/{mine['id']}").status_code == 200
    assert alice.request("DELETE", f"/api/seeks/{mine['id']}").status_code == 404
    assert seek(bob)["game_id"] is None


def test_a_seek_lapses_when_its_players_last_tab_closes(
    server: LiveServer, clock: ManualTime
) -> None:
    alice, bob = server.player().guest(), server.player().guest()
    with site_socket(alice) as tab:
        tab.wait_for("hello")
        seek(alice)
        clock.advance(30)  # the open tab keeps it alive
        time.sleep(2.5)  # two matcher rounds renew it
        assert len(alice.get("/api/seeks").json()["mine"]) == 1
    time.sleep(1.5)
    clock.advance(11)  # past the grace with no tab
    time.sleep(1.5)
    assert alice.get("/api/seeks").json()["mine"] == []
    assert seek(bob)["game_id"] is None


def test_bad_seeks_are_refused_with_codes(server: LiveServer) -> None:
    guest = server.player().guest()

    def code(body: Any, status: int) -> Any:
        response = guest.post("/api/seeks", json=body)
        assert response.status_code == status, response.text
        answer = response.json()
        if isinstance(answer["detail"], list):  # FastAPI's field checks: a list of field errors
            return answer["code"]  # "invalid"
        assert isinstance(answer["detail"], str) and answer["detail"]  # English, for API users
        return answer["code"]

    assert code({"time_control": "ten minutes"}, 422) == "time.bad"
    assert code({"time_control": "3d"}, 422) == "pairing.bad_time_control"
    assert code({"time_control": "500+0"}, 422) == "time.too_long"
    assert code({"time_control": "5+3", "rules": "chess"}, 422) == "pairing.unknown_rules"
    assert code({"time_control": "5+3", "rated": True}, 403) == "pairing.rated_needs_account"
    assert code({"time_control": "5+3", "rating_range": 5}, 422) == "pairing.bad_rating_range"
    assert code({"time_control": "5+3", "colour": "red"}, 422) == "invalid"  # unknown field
    lone_surrogate = b'{"time_control": "\\ud800"}'
    assert guest.post("/api/seeks", content=lone_surrogate, headers=JSON).status_code == 422
    assert (
        guest.post(
            "/api/seeks", content=b"\xff\xfe", headers={"Content-Type": "application/json"}
        ).status_code
        == 422
    )
    for tc in ("1+0", "3+2", "5+3"):
        seek(guest, time_control=tc)
    assert code({"time_control": "10+5"}, 409) == "pairing.too_many_seeks"
    assert server.player().post("/api/seeks", json={"time_control": "5+3"}).status_code == 401
    assert server.player().get("/api/seeks").json()["mine"] == []


def test_a_paired_seek_is_forgotten_after_a_minute(server: LiveServer, clock: ManualTime) -> None:
    alice, bob = server.player().guest(), server.player().guest()
    with site_socket(alice) as tab:
        tab.wait_for("hello")
        first = seek(alice)
        game_id = seek(bob)["game_id"]
        assert alice.request("DELETE", f"/api/seeks/{first['id']}").status_code == 404
        clock.advance(61)  # the open tab does not keep a paired seek
        time.sleep(1.5)
        assert alice.get("/api/seeks").json()["mine"] == []
    assert game_id is not None


def test_a_claimed_seek_names_its_game_only_once_the_game_is_stored(server: LiveServer) -> None:
    """The matcher claims a pair of seeks a moment before it stores their game: a tab reading
    its seeks in between must not be sent to a game that is not there (404)."""
    from sqlalchemy import update

    from doushouqi.server.pairing.models import SeekRow

    alice = server.player().guest()
    mine = seek(alice)

    def point_at(game_id: str) -> None:
        server.app.state.ctx.db.run_sync(
            lambda session: session.execute(
                update(SeekRow).where(SeekRow.id == mine["id"]).values(game_id=game_id)
            )
        )

    point_at("NotYet42")  # claimed, its game still being started
    assert [m["game_id"] for m in alice.get("/api/seeks").json()["mine"]] == [None]
    stored = alice.create(mode="online", color="red")["id"]
    point_at(stored)
    assert [m["game_id"] for m in alice.get("/api/seeks").json()["mine"]] == [stored]
