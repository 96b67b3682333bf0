"""Two real websocket clients play online games through to each ending (docs/rules.md 5)."""

from __future__ import annotations

from tests.support.live import DEN_GAME, LiveServer, ManualTime, move, start_online


def _profile(server: LiveServer, username: str) -> dict:  # type: ignore[type-arg]
    return server.player().get(f"/api/players/{username}").json()  # type: ignore[no-any-return]


def test_den_entry_wins_and_scores(server: LiveServer) -> None:
    red = server.player().register("red_den")
    blue = server.player().register("blue_den")
    game_id, red_ws, blue_ws = start_online(server, red, blue, rated=True, time_control="10+0")
    version = 0
    for ply, text in enumerate(DEN_GAME):
        event = move(red_ws if ply % 2 == 0 else blue_ws, text)
        assert event["ply"] == ply + 1 and event["version"] > version
        version = event["version"]
    finished = blue_ws.wait_for("game_finished")
    assert (finished["termination"], finished["winner"], finished["result"]) == (
        "den_entered",
        0,
        "1-0",
    )
    # 17 rounds: the game scores (docs/rules.md 5.4) and is rated (Glicko-2).
    assert finished["score_change"]["deltas"] == [4, -2]
    assert finished["rating_change"]["after"][0]["rating"] > 1500
    winner, loser = _profile(server, "red_den"), _profile(server, "blue_den")
    assert (winner["score"], winner["stats"]["wins"], winner["stats"]["games"]) == (4, 1, 1)
    assert (loser["score"], loser["stats"]["losses"]) == (-2, 1)
    # At the game's speed (10+0: rapid) only.
    assert winner["ratings"]["rapid"]["rating"] > 1500 > loser["ratings"]["rapid"]["rating"]
    assert winner["ratings"]["rapid"]["games"] == 1 and winner["ratings"]["rapid"]["provisional"]
    assert winner["ratings"]["blitz"] == loser["ratings"]["blitz"]  # untouched: a new player's
    state = red.get(f"/api/games/{game_id}").json()
    assert state["game"]["status"] == "den_entered" and state["game"]["ply"] == len(DEN_GAME)


def test_resignation(server: LiveServer) -> None:
    red, blue = server.player().guest(), server.player().guest()
    _, red_ws, blue_ws = start_online(server, red, blue)
    move(red_ws, "a3a4")
    blue_ws.send({"type": "resign"})
    finished = red_ws.wait_for("game_finished")
    assert (finished["termination"], finished["winner"]) == ("resignation", 0)


def test_draw_by_agreement(server: LiveServer) -> None:
    red = server.player().register("red_draw")
    blue = server.player().register("blue_draw")
    _, red_ws, blue_ws = start_online(server, red, blue)
    move(red_ws, "a3a4")
    red_ws.send({"type": "offer_draw"})
    assert blue_ws.wait_for("draw_offered")["color"] == 0
    blue_ws.send({"type": "accept_draw"})
    finished = red_ws.wait_for("game_finished")
    assert (finished["termination"], finished["winner"], finished["result"]) == (
        "draw_agreed",
        None,
        "1/2-1/2",
    )
    assert _profile(server, "blue_draw")["stats"]["draws"] == 1
    assert _profile(server, "red_draw")["score"] == 0


def test_draw_offer_declined_then_play_goes_on(server: LiveServer) -> None:
    red, blue = server.player().guest(), server.player().guest()
    _, red_ws, blue_ws = start_online(server, red, blue)
    red_ws.send({"type": "offer_draw"})
    blue_ws.wait_for("draw_offered")
    blue_ws.send({"type": "decline_draw"})
    assert red_ws.wait_for("draw_declined")["color"] == 1
    move(red_ws, "a3a4")


def test_flag_fall(server: LiveServer, clock: ManualTime) -> None:
    red, blue = server.player().guest(), server.player().guest()
    _, red_ws, blue_ws = start_online(server, red, blue, time_control="1+0")
    clock.advance(5)
    assert move(red_ws, "a3a4")["clocks"]["remaining"][0] == 55.0
    # Blue answers at once (a game without both first moves is aborted instead of lost:
    # tests/server/pairing/test_no_show_aborts.py).
    made = move(blue_ws, "a7a6")
    clock.advance(55.5)  # Red's 55 seconds run out; the server's timer notices by itself
    finished = red_ws.wait_for("game_finished")
    assert (finished["termination"], finished["winner"]) == ("time_forfeit", 1)
    assert finished["at"] == made["at"] + 55  # it ended at the deadline, not when noticed
    blue_ws.wait_for("game_finished")


def test_fourth_timeout_loses(server: LiveServer, clock: ManualTime) -> None:
    red = server.player().register("red_slow")
    blue = server.player().register("blue_slow")
    _, red_ws, blue_ws = start_online(server, red, blue, time_control="/10s")
    # Blue moves between Red's timeouts (passes alone would repeat the position: a draw).
    for count, reply in enumerate(["a7a6", "a6a5", "a5a4"], 1):
        clock.advance(10)
        passed = blue_ws.wait_for("timeout_passed")
        assert (passed["color"], passed["timeouts"], passed["to_move"]) == (0, count, 1)
        move(blue_ws, reply)
    clock.advance(9.5)
    assert "game_finished" not in [m["type"] for m in red_ws.drain(0.1)]  # not due yet
    clock.advance(0.5)
    finished = blue_ws.wait_for("game_finished")
    assert (finished["termination"], finished["winner"]) == ("timeouts", 1)
    assert finished["clocks"]["timeouts"] == [4, 0]
    assert _profile(server, "red_slow")["stats"]["timeouts"] == 4
    assert _profile(server, "blue_slow")["stats"]["wins"] == 1


def test_abandonment_after_grace_period(server: LiveServer, clock: ManualTime) -> None:
    red = server.player().register("red_stays")
    blue = server.player().register("blue_leaves")
    _, red_ws, blue_ws = start_online(server, red, blue)
    move(red_ws, "a3a4")
    move(blue_ws, "a7a6")  # leaving before one's first move aborts the game instead
    blue_ws.close()
    left = red_ws.wait_for("player_disconnected")
    assert left["color"] == 1 and left["deadline"] == left["at"] + 60
    red_ws.send({"type": "claim_victory"})
    assert red_ws.wait_for("rejected")["code"] == "grace_not_over"
    clock.advance(60)
    finished = red_ws.wait_for("game_finished")
    assert (finished["termination"], finished["winner"], finished["leaver"]) == (
        "abandonment",
        0,
        1,
    )
    leaver = _profile(server, "blue_leaves")
    assert leaver["stats"]["disconnects"] == 1 and leaver["stats"]["losses"] == 1
    assert leaver["score"] == -10  # a short game scores nothing, but leaving still costs


def test_returning_within_grace_keeps_the_game(server: LiveServer, clock: ManualTime) -> None:
    red, blue = server.player().guest(), server.player().guest()
    game_id, red_ws, blue_ws = start_online(server, red, blue)
    move(red_ws, "a3a4")
    move(blue_ws, "a7a6")  # both first moves made: no wait for them runs out meanwhile
    blue_ws.close()
    red_ws.wait_for("player_disconnected")
    clock.advance(59)
    blue_ws = blue.socket(game_id, since=red_ws.version)
    assert red_ws.wait_for("player_reconnected")["color"] == 1
    clock.advance(30)
    move(red_ws, "a4a5")
    assert blue_ws.wait_for("move_made", lambda m: m["ply"] == 3)["move"] == "a4a5"
    assert not any(m["type"] == "game_finished" for m in red_ws.seen)
