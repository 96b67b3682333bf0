"""Correspondence games on a real server with an injected clock: days per move, the your-turn
list, notifications, leaving without losing, and a restart that keeps the deadline."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from tests.support.live import (
    LiveServer,
    ManualTime,
    Player,
    make_settings,
    move,
    running,
    start_online,
)

from doushouqi.core.clock import DAY
from doushouqi.server.db import outages


def _my_turn(player: Player) -> list[dict]:  # type: ignore[type-arg]
    response = player.get("/api/games/my-turn")
    assert response.status_code == 200, response.text
    return response.json()["games"]  # type: ignore[no-any-return]


def _notified(player: Player, kind: str, timeout: float = 5.0) -> list[dict]:  # type: ignore[type-arg]
    deadline = time.monotonic() + timeout
    while True:
        items = player.get("/api/notifications").json()["notifications"]
        found = [n for n in items if n["kind"] == kind]
        if found or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


def test_a_move_within_the_day_is_fine_and_running_out_loses(
    server: LiveServer, clock: ManualTime
) -> None:
    red, blue = server.player().register("corr_red"), server.player().register("corr_blue")
    game_id, red_ws, blue_ws = start_online(server, red, blue, time_control="1d")
    assert red_ws.seen[0]["game"]["time_control"] == "1d"
    clock.advance(DAY - 60)  # Red answers with a minute to spare
    made = move(red_ws, "a3a4")
    assert made["clocks"]["remaining"] == [DAY, DAY]
    clock.advance(DAY - 1)
    blue_ws.drain(0.1)
    assert red.get(f"/api/games/{game_id}").json()["game"]["status"] == "started"
    clock.advance(2)  # Blue let its day run out
    finished = red_ws.wait_for("game_finished")
    assert (finished["termination"], finished["winner"]) == ("time_forfeit", 0)


def test_the_your_turn_list_and_the_notification(server: LiveServer, clock: ManualTime) -> None:
    red, blue = server.player().register("turn_red"), server.player().register("turn_blue")
    first, red_ws, _blue = start_online(server, red, blue, time_control="3d")
    second, _red2, _blue2 = start_online(server, red, blue, time_control="1d")
    # Red is to move in both: the one-day game is the more urgent.
    assert [g["id"] for g in _my_turn(red)] == [second, first]
    assert _my_turn(blue) == []
    clock.advance(3600)
    move(red_ws, "a3a4")
    mine = _my_turn(blue)
    assert [g["id"] for g in mine] == [first]
    waiting = red.get("/api/games/my-turn").json()["waiting"]
    assert [g["id"] for g in waiting] == [first]  # Red waits for Blue there
    assert (waiting[0]["color"], waiting[0]["to_move"]) == (0, 1)
    assert waiting[0]["opponent"]["name"] == "turn_blue"
    assert mine[0]["correspondence"] and mine[0]["deadline"] == clock.now() + 3 * DAY
    assert mine[0]["opponent"]["name"] == "turn_red"
    assert server.player().get("/api/games/my-turn").status_code == 401


def test_the_your_turn_list_names_each_entrys_game(server: LiveServer) -> None:
    """The list shows each game's sides in its words (虎方 and 人方 in 老虎棋): it says which."""
    tiger, men = server.player().register("turn_tiger"), server.player().register("turn_men")
    start_online(server, tiger, men, time_control="3d", game="tiger")
    start_online(server, tiger, men, time_control="3d")
    assert sorted(g["game_key"] for g in _my_turn(tiger)) == ["jungle", "tiger"]


def test_the_player_to_move_is_notified_and_both_of_the_end(
    server: LiveServer, clock: ManualTime
) -> None:
    pytest.importorskip("doushouqi.server.notifications.service")  # the bell (another module)
    red, blue = server.player().register("note_red"), server.player().register("note_blue")
    game_id, red_ws, _blue = start_online(server, red, blue, time_control="2d")
    move(red_ws, "a3a4")
    (note,) = _notified(blue, "corr.your_turn")
    assert note["params"]["game_id"] == game_id and note["link"] == f"#/game/{game_id}"
    assert note["params"]["opponent"] == "note_red"
    clock.advance(2 * DAY + 1)  # Blue never answers
    red_ws.wait_for("game_finished")
    (won,) = _notified(red, "corr.won")
    (lost,) = _notified(blue, "corr.lost")
    assert won["params"] == {"game_id": game_id, "opponent": "note_blue"}
    assert lost["params"]["opponent"] == "note_red"


def test_leaving_a_correspondence_game_does_not_lose(server: LiveServer, clock: ManualTime) -> None:
    red, blue = server.player().guest(), server.player().guest()
    game_id, red_ws, blue_ws = start_online(server, red, blue, time_control="2d")
    move(red_ws, "a3a4")
    blue_ws.close()
    gone = red_ws.wait_for("player_disconnected")
    assert gone["deadline"] is None
    clock.advance(12 * 3600)  # far past any grace period
    red_ws.drain(0.2)
    with blue.socket(game_id) as back:
        state = back.wait_for("state")
        assert state["game"]["status"] == "started"
        move(back, "a7a6")


def test_a_restart_keeps_the_deadline(tmp_path: Path, clock: ManualTime) -> None:
    settings = make_settings(tmp_path)
    with running(settings, clock) as first:
        red, blue = first.player().guest(), first.player().guest()
        game_id, red_ws, blue_ws = start_online(first, red, blue, time_control="1d")
        move(red_ws, "a3a4")
        due = clock.now() + DAY
        red_ws.close()
        blue_ws.close()
    clock.advance(6 * 3600)  # six hours down: the day runs on
    with running(settings, clock) as second:
        red.server = second
        red.http = second.player().http
        blue.server, blue.http = second, red.http
        game = red.get(f"/api/games/{game_id}").json()["game"]
        assert game["status"] == "started"
        assert game["clocks"]["remaining"][1] == DAY - 6 * 3600
        with red.socket(game_id) as ws:
            ws.wait_for("state")
            clock.advance(due - clock.now() + 1)
            finished = ws.wait_for("game_finished")
            assert (finished["termination"], finished["winner"]) == ("time_forfeit", 0)
            assert finished["at"] == due


def test_an_open_correspondence_game_waits_a_week(server: LiveServer, clock: ManualTime) -> None:
    creator = server.player().guest()
    created = creator.create(mode="online", time_control="3d")
    live = creator.create(mode="online", time_control="10+5")
    lobby = {g["id"]: g for g in server.player().get("/api/lobby").json()["games"]}
    assert lobby[created["id"]]["expires_at"] == clock.now() + 7 * DAY
    assert lobby[live["id"]]["expires_at"] == clock.now() + 1800


def test_a_deadline_that_fell_while_the_server_was_down_is_not_a_loss(
    tmp_path: Path, clock: ManualTime
) -> None:
    settings = make_settings(tmp_path)
    with running(settings, clock) as first:
        red, blue = first.player().guest(), first.player().guest()
        game_id, red_ws, blue_ws = start_online(first, red, blue, time_control="1d")
        move(red_ws, "a3a4")
        clock.advance(DAY - 1800)  # Blue has half an hour left when the server goes down
        red_ws.close()
        blue_ws.close()
    clock.advance(DAY)  # down a whole day: Blue's deadline fell meanwhile
    with running(settings, clock) as second:
        blue.server = second
        blue.http = second.player().http
        game = blue.get(f"/api/games/{game_id}").json()["game"]
        assert game["status"] == "started"
        # Blue gets back the half hour it had, from the restart on.
        assert game["next_deadline"] == pytest.approx(clock.now() + 1800, abs=1.0)


def test_restarts_during_the_deadline_never_lose_it_and_give_the_time_left_once(
    tmp_path: Path, clock: ManualTime
) -> None:
    """The deadline falls while the server is down, twice: each time the side to move gets
    back what it had left when the server went down (at most an hour), not more, and plays
    on. Each downtime is recorded once, from the last heartbeat to the restart."""
    settings = make_settings(tmp_path)
    with running(settings, clock) as first:
        red, blue = first.player().guest(), first.player().guest()
        game_id, red_ws, blue_ws = start_online(first, red, blue, time_control="1d")
        move(red_ws, "a3a4")
        clock.advance(DAY - 1800)  # Blue has half an hour left when the server goes down
        red_ws.close()
        blue_ws.close()
    first_down = clock.now()
    clock.advance(DAY)  # Blue's deadline falls meanwhile
    with running(settings, clock) as second:
        blue.server, blue.http = second, second.player().http
        game = blue.get(f"/api/games/{game_id}").json()["game"]
        assert game["status"] == "started"
        assert game["next_deadline"] == pytest.approx(clock.now() + 1800, abs=1.0)
        clock.advance(600)  # Blue thinks ten minutes, then the server goes down again
    second_down = clock.now()
    clock.advance(3600)  # Blue's new deadline falls meanwhile too
    with running(settings, clock) as third:
        blue.server, blue.http = third, third.player().http
        red.server, red.http = third, blue.http
        game = blue.get(f"/api/games/{game_id}").json()["game"]
        assert game["status"] == "started"
        # What Blue had left when the server went down: 20 minutes (not the half hour again).
        assert game["next_deadline"] == pytest.approx(clock.now() + 1200, abs=1.0)
        with blue.socket(game_id) as ws:
            ws.wait_for("state")
            clock.advance(1100)
            made = move(ws, "a7a6")
            assert made["clocks"]["remaining"] == [DAY, DAY]  # Red's fresh day
        ctx = third.app.state.ctx
        recorded = ctx.db.run_sync(lambda s: outages.since(s, 0.0))
    assert [(o.start, o.end) for o in recorded] == [
        pytest.approx((first_down, first_down + DAY), abs=0.5),
        pytest.approx((second_down, second_down + 3600), abs=0.5),
    ]
