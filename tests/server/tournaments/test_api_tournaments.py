"""The tournaments' REST API: who may create, what is checked (each refusal a code), joining
and withdrawing, and hostile input that gets a clear 4xx, never a 5xx."""

from __future__ import annotations

import time
from typing import Any

import pytest
from tests.support.live import LiveServer, ManualTime

SWISS = {"kind": "swiss", "name": "Cup", "time_control": "5+3", "rounds": 3, "starts_in": 60}


def _code(response: Any) -> str:
    body = response.json()
    return str(body["code"])


def test_only_accounts_create_tournaments(server: LiveServer) -> None:
    assert server.player().post("/api/tournaments", json=SWISS).status_code == 401
    guest = server.player().guest()
    assert guest.post("/api/tournaments", json=SWISS).status_code == 403
    assert guest.post("/api/tournaments/abc/join").status_code == 403


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"name": "   "}, "tournament.name_empty"),
        ({"name": "x" * 61}, "tournament.name_too_long"),
        ({"name": "a\x00b"}, "tournament.name_bad_characters"),
        ({"time_control": "fast"}, "time.bad"),
        ({"time_control": "3d"}, "tournament.time_control_too_long"),
        ({"time_control": "90+0"}, "tournament.time_control_too_long"),
        ({"rules": "chess"}, "tournament.bad_rules"),
        ({"rules": {"rule_7_3": "yes"}}, "tournament.bad_rules"),
        ({"rounds": 0}, "tournament.bad_rounds"),
        ({"rounds": 16}, "tournament.bad_rounds"),
        ({"kind": "arena"}, "tournament.bad_duration"),
        ({"kind": "arena", "duration_minutes": 1000}, "tournament.bad_duration"),
        ({"max_players": 1}, "tournament.bad_max_players"),
        ({"max_players": 10_000}, "tournament.bad_max_players"),
        ({"max_players": 65}, "tournament.bad_max_players"),  # a Swiss: 64 at most
        ({"min_rating": -5}, "tournament.bad_min_rating"),
        ({"starts_in": 365 * 86400}, "tournament.bad_start"),
        ({"starts_at": 5.0}, "tournament.bad_start"),
        ({"kind": "knockout"}, "invalid"),
        ({"name": 7}, "invalid"),
    ],
)
def test_bad_settings_are_refused_with_a_code(
    server: LiveServer, change: dict[str, Any], code: str
) -> None:
    player = server.player().register("maker")
    response = player.post("/api/tournaments", json={**SWISS, **change})
    assert response.status_code == 422, response.text
    assert _code(response) == code


def test_hostile_requests_get_clear_refusals(server: LiveServer) -> None:
    player = server.player().register("mallory")
    for path in (
        "/api/tournaments/../../etc",
        "/api/tournaments/" + "x" * 40,
        "/api/tournaments/nope",
    ):
        response = player.get(path)
        assert response.status_code == 404, (path, response.text)
    assert _code(player.get("/api/tournaments/nope")) == "tournament.not_found"
    assert _code(player.post("/api/tournaments/nope/join")) == "tournament.not_found"
    broken = player.post(
        "/api/tournaments", content=b"{not json", headers={"Content-Type": "application/json"}
    )
    assert broken.status_code == 422
    binary = player.post(
        "/api/tournaments", content=bytes(range(256)), headers={"Content-Type": "application/json"}
    )
    assert binary.status_code == 422
    assert player.get("/api/tournaments").status_code == 200


def test_joining_withdrawing_and_the_limits(server: LiveServer, clock: ManualTime) -> None:
    host = server.player().register("host")
    made = host.post("/api/tournaments", json={**SWISS, "max_players": 2, "min_rating": 1400})
    assert made.status_code == 201, made.text
    tid = made.json()["id"]
    assert made.json()["me"]["state"] == "joined"  # the creator joins it
    second = server.player().register("second")
    assert second.post(f"/api/tournaments/{tid}/join").json()["players"] == 2
    third = server.player().register("third")
    assert _code(third.post(f"/api/tournaments/{tid}/join")) == "tournament.full"
    assert _code(third.post(f"/api/tournaments/{tid}/withdraw")) == "tournament.not_joined"
    # Before the start, withdrawing leaves the list: the place is free again.
    assert second.post(f"/api/tournaments/{tid}/withdraw").json()["players"] == 1
    assert third.post(f"/api/tournaments/{tid}/join").status_code == 200
    listed = host.get("/api/tournaments").json()
    assert [t["id"] for t in listed["upcoming"]] == [tid]
    # A Swiss cannot be joined once it has started.
    clock.advance(61)
    view = None
    for _ in range(100):
        view = host.get(f"/api/tournaments/{tid}").json()
        if view["status"] == "started":
            break
        time.sleep(0.1)
    assert view is not None and view["status"] == "started"
    assert _code(second.post(f"/api/tournaments/{tid}/join")) == "tournament.already_started"
    assert host.get("/api/tournaments").json()["running"][0]["id"] == tid


def test_a_rating_floor_keeps_lower_rated_players_out(server: LiveServer) -> None:
    host = server.player().register("strong")
    tid = host.post("/api/tournaments", json={**SWISS, "min_rating": 1600}).json()["id"]
    weak = server.player().register("weak")
    assert _code(weak.post(f"/api/tournaments/{tid}/join")) == "tournament.rating_too_low"
