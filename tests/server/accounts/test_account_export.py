"""The data export: one JSON file (an attachment) with everything the site keeps of an
account — its settings, score and results per game with its ratings per speed, games with
their records in the game's own notation, uploaded records, puzzle history, sessions' and
tokens' metadata — and never a password hash or a token."""

from __future__ import annotations

import json

from tests.server.api.test_record_uploads import RECORD
from tests.server.puzzles.test_puzzles_api import next_puzzle, solve
from tests.support.live import DEN_GAME, LiveServer, move, start_online

from doushouqi.jungle.record import read_record
from doushouqi.server.db import repo


def test_the_export_holds_the_accounts_data_and_no_secret(server: LiveServer) -> None:
    red = server.player().register("exported", display_name="导出", avatar="cat")
    blue = server.player().register("opponent")
    game_id, red_ws, blue_ws = start_online(server, red, blue, rated=True, time_control="10+0")
    red_ws.send({"type": "chat", "text": "好运", "id": "c1"})
    blue_ws.send({"type": "chat", "text": "not mine", "id": "c2"})
    red_ws.send({"type": "chat", "phrase": "good_game", "id": "c3"})
    red_ws.wait_for("ack", lambda m: m.get("id") == "c3")
    for ply, text in enumerate(DEN_GAME):
        move(red_ws if ply % 2 == 0 else blue_ws, text)
    red_ws.wait_for("game_finished")
    red_ws.close()
    blue_ws.close()
    uploaded = red.post("/api/records", content=RECORD.encode())
    assert uploaded.status_code == 201, uploaded.text
    puzzle = next_puzzle(red)["puzzle"]
    solve(red, puzzle["id"])
    token = red.api_token("bot:play", label="engine")

    response = red.get("/api/account/export")
    assert response.status_code == 200, response.text
    disposition = response.headers["content-disposition"]
    assert disposition.startswith('attachment; filename="doushouqi-exported-')
    assert disposition.endswith('.json"')
    data = response.json()
    text = response.text
    stored = server.app.state.ctx.db.run_sync(lambda s: repo.account_by_username(s, "exported"))
    stored_hash = stored.password_hash
    assert stored_hash not in text and "password" not in text and token not in text

    assert data["account"]["username"] == "exported" and data["account"]["is_bot"] is False
    assert data["settings"] == {"display_name": "导出", "avatar": "cat"}
    jungle = data["ratings"]["jungle"]
    assert jungle["games"] == 1 and jungle["wins"] == 1
    [(speed, rapid)] = jungle["speeds"].items()  # the one speed played, rated
    assert speed == "rapid" and rapid["games"] == 1 and rapid["rating"] > 1500
    [game] = data["games"]
    assert (game["id"], game["game"], game["result"]) == (game_id, "jungle", "1-0")
    record = read_record(game["record"])  # Jungle's own notation, as the download gives it
    assert [str(m) for m in record.moves] == DEN_GAME and record.tags["GameId"] == game_id
    [kept] = data["records"]
    assert kept["text"] == RECORD and kept["id"] == uploaded.json()["id"]
    attempts = data["puzzles"]["attempts"]
    assert [a["puzzle"] for a in attempts] == [puzzle["id"]] and attempts[0]["solved"]
    assert data["puzzles"]["rating"] > 1500
    said = [(m["game"], m["room"], m["text"], m["phrase"]) for m in data["chat"]]
    assert said == [(game_id, "players", "好运", None), (game_id, "players", None, "good_game")]
    assert data["export"]["version"] == 3
    [listed] = data["api_tokens"]
    assert listed["label"] == "engine" and listed["scopes"] == ["bot:play"]
    assert len(data["sessions"]) == 1 and "current" not in data["sessions"][0]
    assert json.loads(text) == data


def test_a_guest_has_nothing_to_export(server: LiveServer) -> None:
    guest = server.player().guest()
    refused = guest.get("/api/account/export")
    assert (refused.status_code, refused.json()["code"]) == (403, "auth.account")
    assert server.player().get("/api/account/export").status_code == 401
