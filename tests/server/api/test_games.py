"""Games over REST: creation, the lobby, joining, state, history, records, the leaderboard."""

from __future__ import annotations

from tests.support.live import DEN_GAME, LiveServer, move, start_online

from doushouqi.jungle.record import read_record


def test_create_checks_its_input(server: LiveServer) -> None:
    player = server.player().guest()
    for body in (
        {"rules": "chess"},
        {"rules": "../../etc/passwd"},
        {"time_control": "forever"},
        {"time_control": "1000+0"},
        {"mode": "vs_ai", "ai_level": 11},
        {"mode": "tournament"},
        {"rated": True},  # guests play unrated games
        {"mode": "vs_ai", "rated": True},
        {"color": "green"},
    ):
        assert player.post("/api/games", json=body).status_code == 422, body
    assert server.player().post("/api/games", json={}).status_code == 401


def test_online_game_lobby_and_invite(server: LiveServer) -> None:
    creator = server.player().register("host")
    created = creator.create(mode="online", rules="classic", time_control="5+3", color="blue")
    game_id = created["id"]
    assert created["invite_url"].endswith(f"/game/{game_id}?join=1")
    assert created["game"]["status"] == "created" and created["you"]["seats"] == [1]
    private = creator.create(mode="online", public=False)
    lobby = server.player().get("/api/lobby").json()["games"]
    listed = {g["id"]: g for g in lobby}
    assert game_id in listed and private["id"] not in listed
    entry = listed[game_id]
    assert (entry["rules"], entry["time_control"], entry["open_color"]) == ("classic", "5+3", 0)
    assert entry["creator"]["rating"] == 1500 and entry["creator"]["name"] == "host"
    # At the game's speed (5+3: blitz), provisional for a new player: shown "1500?".
    assert entry["speed"] == "blitz" and entry["creator"]["provisional"] is True
    # Ratings are per speed: an account's rated online game needs a clock.
    untimed = creator.post("/api/games", json={"mode": "online", "rated": True})
    assert untimed.status_code == 422 and untimed.json()["code"] == "game.rated_needs_clock"

    joiner = server.player().guest()
    joined = joiner.post(f"/api/games/{game_id}/join")
    assert joined.status_code == 200
    assert [e["type"] for e in joined.json()["events"]] == ["player_joined"]
    assert game_id not in {g["id"] for g in server.player().get("/api/lobby").json()["games"]}
    third = server.player().guest().post(f"/api/games/{game_id}/join")
    assert third.status_code == 400 and third.json()["events"][0]["code"] == "game_full"
    state = joiner.get(f"/api/games/{game_id}").json()
    assert state["you"]["seats"] == [0] and state["game"]["players"][0]["name"].startswith("Guest")
    # The creator is not at the board yet: the game starts when they connect.
    assert state["game"]["status"] == "created"
    with creator.socket(game_id) as ws:
        assert ws.wait_for("game_started")["to_move"] == 0
    assert server.player().get("/api/games/nosuch").status_code == 404


def test_same_screen_game_plays_both_sides(server: LiveServer) -> None:
    owner = server.player().guest()
    game = owner.create(mode="same_screen")
    with owner.socket(game["id"]) as ws:
        ws.wait_for("game_started")
        move(ws, "a3a4")
        move(ws, "a7a6")
        ws.send({"type": "takeback"})
        taken = ws.wait_for("takeback_applied")
        assert taken["removed"] == ["a7a6"] and taken["to_move"] == 1


def test_history_record_and_leaderboard(server: LiveServer) -> None:
    red, blue = server.player().register("hist_red"), server.player().register("hist_blue")
    game_id, red_ws, blue_ws = start_online(server, red, blue, rated=True, time_control="10+0")
    for ply, text in enumerate(DEN_GAME):
        move(red_ws if ply % 2 == 0 else blue_ws, text)
    red_ws.wait_for("game_finished")
    history = red.get("/api/players/hist_blue/games").json()
    assert history["total"] == 1
    assert history["games"][0]["id"] == game_id and history["games"][0]["result"] == "1-0"

    download = red.get(f"/api/games/{game_id}/record")
    assert download.status_code == 200 and "attachment" in download.headers["content-disposition"]
    record = read_record(download.text)
    assert [str(m) for m in record.moves] == DEN_GAME and record.result == "1-0"
    assert record.tags["Red"] == "hist_red" and record.termination.value == "den_entered"

    board = red.get("/api/leaderboard?by=score").json()["players"]
    assert [p["username"] for p in board][:2] == ["hist_red", "hist_blue"]
    by_rating = red.get("/api/leaderboard?by=rating&speed=rapid").json()["players"]
    # One game each: provisional ratings, listed after any settled one, without a rank.
    assert [p["username"] for p in by_rating][:2] == ["hist_red", "hist_blue"]
    assert by_rating[0]["rating"]["provisional"] and by_rating[0]["rank"] is None
    # The history says what the game did to each rating.
    change = history["games"][0]["rating_change"]
    assert change["after"][0]["rating"] > change["before"][0]["rating"] == 1500

    events = red.get(f"/api/games/{game_id}/events?since=0").json()
    versions = [e["version"] for e in events["events"]]
    assert versions == sorted(versions) and versions[-1] == events["version"]
    assert sum(e["type"] == "move_made" for e in events["events"]) == len(DEN_GAME)


def test_record_upload_replays_it(server: LiveServer) -> None:
    text = '[Red "Li"]\n[Blue "Wang"]\n[Rules "classic"]\n\n1. a3a4 {bold} 1... a7a6 *\n'
    uploaded = server.player().post("/api/records", content=text.encode())
    assert uploaded.status_code == 201
    replay = uploaded.json()
    assert [p["move"] for p in replay["plies"]] == ["a3a4", "a7a6"]
    assert replay["plies"][0]["comment"] == "bold" and replay["rules"]["name"] == "classic"
    fetched = server.player().get(f"/api/records/{replay['id']}").json()
    assert fetched["plies"] == replay["plies"] and fetched["text"] == text
    illegal = server.player().post("/api/records", content=b"1. a3a9 *\n")
    assert illegal.status_code == 422 and "not a valid record" in illegal.json()["detail"]
    assert server.player().post("/api/records", content=b"\xff").status_code == 422
    assert server.player().get("/api/records/nothing").status_code == 404
