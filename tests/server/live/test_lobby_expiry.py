"""Live: an online game nobody joins leaves the lobby when its wait ends, its creator is told,
and a restart settles a wait that ended while the server was down."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from tests.support.live import LiveServer, ManualTime, make_settings, move, running

from doushouqi.server.infra.settings import Settings
from doushouqi.server.infra.timesource import Cancellable

WAIT = 300.0


class StoppedTimers(ManualTime):
    """Time moves when told, but no actor's timer ever fires: deadlines stay unsettled, as in
    the moment between a deadline and the tick that applies it."""

    async def sleep_until(self, deadline: float) -> None:
        await asyncio.get_running_loop().create_future()  # until cancelled at shutdown

    def call_at(self, deadline: float, callback: Callable[[], None]) -> Cancellable:
        return asyncio.get_running_loop().call_later(86400 * 365, callback)  # never, here


@pytest.fixture
def lobby_settings(tmp_path: Path) -> Settings:
    return make_settings(tmp_path, lobby_wait=WAIT)


@pytest.fixture
def waiting_server(lobby_settings: Settings, clock: ManualTime) -> Iterator[LiveServer]:
    with running(lobby_settings, clock) as live:
        yield live


def _listed(server: LiveServer) -> dict[str, dict[str, object]]:
    return {g["id"]: g for g in server.player().get("/api/lobby").json()["games"]}


def test_an_unjoined_game_expires_and_its_creator_sees_it(
    waiting_server: LiveServer, clock: ManualTime
) -> None:
    server = waiting_server
    creator = server.player().register("patient")
    created = creator.create(mode="online", color="red", time_control="5+0")
    game_id, game = created["id"], created["game"]
    deadline = game["created_at"] + WAIT
    assert game["lobby_deadline"] == deadline and game["abort_reason"] is None
    with creator.socket(game_id) as ws:
        ws.wait_for("state")
        ws.wait_for("player_joined")  # the creator is at the board
        assert _listed(server)[game_id]["expires_at"] == deadline
        clock.advance(WAIT - 1)
        # Nothing happens to the game (the chat history and spectator count come on opening).
        assert not [m for m in ws.drain() if m["type"] not in ("chat_history", "spectators")]
        assert game_id in _listed(server)
        clock.advance(1)
        finished = ws.wait_for("game_finished")
        assert finished["termination"] == "aborted" and finished["result"] == "*"
        assert finished["abort_reason"] == "lobby_expired" and finished["at"] == deadline
    assert game_id not in _listed(server)
    state = creator.get(f"/api/games/{game_id}").json()["game"]
    assert (state["status"], state["abort_reason"], state["finished_at"]) == (
        "aborted",
        "lobby_expired",
        deadline,
    )
    late = server.player().guest().post(f"/api/games/{game_id}/join")
    assert late.status_code == 400 and late.json()["events"][0]["code"] == "game_over"
    logged = creator.get(f"/api/games/{game_id}/events").json()["events"]
    assert [e["type"] for e in logged][-1] == "game_finished"
    history = server.player().get("/api/players/patient/games").json()["games"]
    assert [(g["id"], g["abort_reason"]) for g in history] == [(game_id, "lobby_expired")]
    # An aborted game counts for nobody.
    assert server.player().get("/api/players/patient").json()["stats"]["games"] == 0


def test_a_game_joined_in_time_plays_on_past_the_wait(
    waiting_server: LiveServer, clock: ManualTime
) -> None:
    server = waiting_server
    creator, joiner = server.player().guest(), server.player().guest()
    game_id = creator.create(mode="online", color="red")["id"]
    with creator.socket(game_id) as red_ws, joiner.socket(game_id) as blue_ws:
        red_ws.wait_for("state")
        blue_ws.wait_for("state")
        clock.advance(WAIT - 10)
        blue_ws.send({"type": "join"})
        red_ws.wait_for("game_started")
        # Both make their first moves (a game without them is aborted: test_no_show_aborts.py)
        move(red_ws, "a3a4")
        move(blue_ws, "a7a6")
        clock.advance(WAIT * 3)
        red_ws.send({"type": "move", "move": "a4a5"})
        assert red_ws.wait_for("move_made", lambda m: m["ply"] == 3)["move"] == "a4a5"
        assert not [m for m in red_ws.seen if m["type"] == "game_finished"]
    assert creator.get(f"/api/games/{game_id}").json()["game"]["status"] == "started"


def test_the_lobby_never_lists_a_game_past_its_wait(lobby_settings: Settings) -> None:
    time = StoppedTimers()
    with running(lobby_settings, time) as server:
        creator = server.player().guest()
        game_id = creator.create(mode="online")["id"]
        assert game_id in _listed(server)
        time.advance(WAIT)
        # No tick has run, so the stored game is still open; the lobby leaves it out anyway,
        # and the domain refuses a late join, settling the deadline first.
        assert creator.get(f"/api/games/{game_id}").json()["game"]["status"] == "created"
        assert game_id not in _listed(server)
        late = server.player().guest().post(f"/api/games/{game_id}/join")
        assert late.status_code == 400 and late.json()["events"][0]["code"] == "game_over"


def test_a_restart_settles_waits_that_ended_meanwhile(
    lobby_settings: Settings, clock: ManualTime
) -> None:
    with running(lobby_settings, clock) as first:
        creator = first.player().guest()
        expiring = creator.create(mode="online")["game"]
        clock.advance(WAIT / 2)
        waiting = creator.create(mode="online")["game"]
    clock.advance(WAIT / 2 + 10)  # down past the first game's deadline, not the second's
    with running(lobby_settings, clock) as second:
        again = second.player()
        again.cookies = dict(creator.cookies)
        ended = again.get(f"/api/games/{expiring['id']}").json()["game"]
        assert (ended["status"], ended["abort_reason"]) == ("aborted", "lobby_expired")
        assert ended["finished_at"] == expiring["created_at"] + WAIT  # at its own deadline
        assert list(_listed(second)) == [waiting["id"]]
        # Recovery armed the waiting game's timer again: it expires on time, and says so.
        with again.socket(waiting["id"]) as ws:
            assert ws.wait_for("state")["game"]["status"] == "created"
            clock.advance(WAIT / 2 - 10)
            finished = ws.wait_for("game_finished")
            assert finished["abort_reason"] == "lobby_expired"
            assert finished["at"] == waiting["created_at"] + WAIT
        assert _listed(second) == {}


def test_the_wait_is_configured_by_the_environment() -> None:
    assert Settings().lobby_wait == 1800.0
    assert Settings.from_env({"DOUSHOUQI_LOBBY_WAIT": "90"}).lobby_wait == 90.0
