"""老虎棋 on the site, end to end over HTTP and the websocket: created from its game key,
played to each of its endings on one screen and online, recorded, paired only with its own
seeks, challenged, rated in its own ratings, played against the computer; and refused clearly
where the input is bad or the site has nothing for it (no multi-jumps; a game without a
computer player)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from tests.support.live import GameSocket, LiveServer, Player, move, start_online
from tests.support.site_helpers import site_socket
from tests.support.tiger_moves import CAPTURE, ONE_CAPTURE_WINS, TRAP

from doushouqi.server.games.registry import SITE_GAMES
from doushouqi.tiger.board import Board
from doushouqi.tiger.record import read_record


def tiger_game(player: Player, **body: Any) -> dict[str, Any]:
    return player.create(game="tiger", **body)


def play_one_screen(ws: GameSocket, moves: list[str]) -> dict[str, Any]:
    for text in moves:
        made = move(ws, text)
        assert made["move"] == text
    return ws.wait_for("game_finished")


def test_the_site_lists_the_tiger_with_its_computer_player(server: LiveServer) -> None:
    player = server.player().guest()
    games = {g["key"]: g for g in player.get("/api/site-games").json()["games"]}
    tiger = games["tiger"]
    assert tiger["names"] == {"en": "Tiger chess", "zh": "老虎棋", "zh-Hant": "老虎棋"}
    assert (tiger["engine"], tiger["records"], tiger["lessons"]) == (True, True, True)
    assert tiger["rule_sets"] == ["laohuqi", "laohuqi-18", "laohuqi-strict", "laohuqi-south"]
    assert games["jungle"]["engine"] is True
    sets = player.get("/api/rules", params={"game": "tiger"}).json()["rule_sets"]
    assert [s["name"] for s in sets] == tiger["rule_sets"] and sets[1]["men"] == 18
    assert player.get("/api/rules/laohuqi-south", params={"game": "tiger"}).json()["tigers"] == 2


def test_the_computer_plays_the_tiger_against_the_men(server: LiveServer) -> None:
    player = server.player().guest()
    game = tiger_game(player, mode="vs_ai", ai_level=2, color="blue")  # seat 1: the men
    with player.socket(game["id"]) as ws:
        ws.wait_for("game_started")
        first = ws.wait_for("move_made")  # the computer's tiger moves first
        assert first["ply"] == 1 and first["readable"].startswith("T")
        assert move(ws, "d2d3")["ply"] == 2
        assert ws.wait_for("move_made", lambda m: m["ply"] == 3)["readable"].startswith("T")
    hint = player.post("/api/analysis", json={"game": "tiger", "moves": ["e10e9"]})
    assert hint.status_code == 200, hint.text
    after = Board()
    after.push_move("e10e9")
    assert after.parse_move(hint.json()["bestmove"]) in after.legal_moves  # a man's move


def test_a_game_without_a_computer_player_refuses_play_and_hints_against_it(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(SITE_GAMES, "tiger", dataclasses.replace(SITE_GAMES["tiger"], engine=None))
    player = server.player().guest()
    games = {g["key"]: g for g in player.get("/api/site-games").json()["games"]}
    assert games["tiger"]["engine"] is False
    refused = player.post("/api/games", json={"game": "tiger", "mode": "vs_ai"})
    assert refused.status_code == 422 and refused.json()["code"] == "game.no_engine"
    hint = player.post("/api/analysis", json={"game": "tiger", "moves": ["e10e9"]})
    assert hint.status_code == 404 and hint.json()["code"] == "engine.none"


def test_one_screen_the_men_trap_the_tiger(server: LiveServer) -> None:
    owner = server.player().guest()
    game = tiger_game(owner, mode="same_screen")
    state = game["game"]
    assert (state["game_key"], state["rules"]["name"]) == ("tiger", "laohuqi")
    assert state["fen"] == "3/1T1/9/9/9/9/9/9/9/3MMM3/MMMMMMMMM t 0 1"
    with owner.socket(game["id"]) as ws:
        started = ws.wait_for("game_started")
        assert started["to_move"] == 0
        first = move(ws, TRAP[0])
        assert first["readable"] == "Te10-d10" and first["readable_zh"] == "虎e10-d10"
        assert first["dests"]["d2"] == ["c2", "d3"]  # the men's moves, for the board
        finished = play_one_screen(ws, TRAP[1:])
    assert (finished["termination"], finished["winner"], finished["result"]) == (
        "tiger_trapped",
        1,
        "0-1",
    )
    record = owner.get(f"/api/games/{game['id']}/record")
    assert record.status_code == 200
    assert f'filename="tiger-{game["id"]}.txt"' in record.headers["content-disposition"]
    read = read_record(record.text)
    assert [str(m) for m in read.moves] == TRAP and read.termination == "tiger_trapped"
    assert '[Game "tiger"]' in record.text and read.tags["Mode"] == "same_screen"
    replay = owner.get(f"/api/games/{game['id']}/replay").json()
    assert replay["game"] == "tiger" and len(replay["plies"]) == len(TRAP)
    assert replay["plies"][-1]["readable"] == "Me10-d10#"  # the winning move


def test_one_screen_custom_rules_the_tiger_wins_by_a_capture(server: LiveServer) -> None:
    owner = server.player().guest()
    game = tiger_game(owner, mode="same_screen", rules=ONE_CAPTURE_WINS)
    rules = game["game"]["rules"]
    assert (rules["name"], rules["tiger_wins_below"]) == ("laohuqi (custom)", 12)
    with owner.socket(game["id"]) as ws:
        ws.wait_for("game_started")
        *steps, capture = CAPTURE
        for text in steps:
            move(ws, text)
        ws.send({"type": "move", "move": capture})
        made = ws.wait_for("move_made")
        assert made["readable"] == "Te6xe4#" and made["fen"].split()[0].count("M") == 11
        finished = ws.wait_for("game_finished")
    assert (finished["termination"], finished["winner"]) == ("men_captured", 0)
    listed = owner.get(f"/api/games/{game['id']}").json()["game"]
    assert listed["status"] == "ended_on_board"


def test_online_tiger_game_between_two_accounts_is_rated_in_the_tigers_ratings(
    server: LiveServer,
) -> None:
    tiger, men = server.player().register("tiger_side"), server.player().register("men_side")
    game_id, tiger_ws, men_ws = start_online(
        server, tiger, men, game="tiger", rated=True, time_control="10+0"
    )
    for ply, text in enumerate(TRAP):  # long enough to count (a game of 10 rounds or more)
        move(tiger_ws if ply % 2 == 0 else men_ws, text)
    finished = tiger_ws.wait_for("game_finished")
    assert (finished["termination"], finished["winner"]) == ("tiger_trapped", 1)
    for name, won in (("tiger_side", False), ("men_side", True)):
        in_tiger = tiger.get(f"/api/players/{name}", params={"game": "tiger"}).json()
        in_jungle = tiger.get(f"/api/players/{name}").json()
        rapid = in_tiger["ratings"]["rapid"]
        assert in_tiger["stats"]["games"] == 1 and (rapid["rating"] > 1500) is won
        assert in_jungle["stats"]["games"] == 0 and in_jungle["ratings"]["rapid"]["rating"] == 1500
    history = tiger.get("/api/players/men_side/games").json()["games"]
    assert [(g["id"], g["game_key"]) for g in history] == [(game_id, "tiger")]


def test_bad_tiger_input_is_refused_clearly(server: LiveServer) -> None:
    player = server.player().guest()
    for body, code in (
        ({"rules": "wango"}, "rules.unknown"),
        ({"rules": {"parent": "laohuqi", "men": 13}}, "rules.bad"),
        ({"rules": {"parent": "classic"}}, "rules.bad"),
        ({"rules": {"multi_jump": True}}, "rules.multi_jump"),
        ({"game": "chess"}, "game.unknown"),
    ):
        response = player.post("/api/games", json={"game": "tiger", "mode": "same_screen", **body})
        assert response.status_code == 422, (body, response.text)
        assert response.json()["code"] == code, (body, response.json())
    game = tiger_game(player, mode="same_screen")
    with player.socket(game["id"]) as ws:
        ws.wait_for("game_started")
        for text, code in (
            ("e10z9", "invalid_move"),
            ("hello", "invalid_move"),
            ("e10e7", "illegal_move"),
            ("d2d3", "illegal_move"),  # the tiger's side is to move
            ("a3a4", "illegal_move"),  # Jungle's opening move: no piece there
        ):
            ws.send({"type": "move", "move": text, "id": text})
            refused = ws.wait_for("rejected", lambda m, t=text: m.get("id") == t)
            assert refused["code"] == code, (text, refused)
            assert refused["reason"], refused
        assert move(ws, "e10e9")["ply"] == 1  # the game goes on
    for query in (
        {"game": "tiger", "fen": "3/1T1/9 t"},
        {"game": "tiger", "fen": "3/1T1/9/9/9/9/9/9/9/3MMM3/MMMMMMMMX t 0 1"},
        {"game": "tiger", "moves": ["e10e7"]},
        {"game": "tiger", "rules": "classic"},
    ):
        response = player.post("/api/position", json=query)
        assert response.status_code == 422, (query, response.text)
    position = player.post("/api/position", json={"game": "tiger", "moves": ["e10e9", "d2d3"]})
    assert position.json()["dests"] == {"e9": ["e8", "d9", "f9", "e10"]}
    bad_record = b'[Game "tiger"]\n\n1. e10e7'
    upload = player.post("/api/records", params={"game": "tiger"}, content=bad_record)
    assert upload.status_code == 422 and upload.json()["code"] == "record.invalid"


def test_a_tiger_record_is_uploaded_and_read_in_its_game(server: LiveServer) -> None:
    player = server.player().guest()
    text = '[Game "tiger"]\n[Rules "laohuqi"]\n\n1. e10e9 d2d3 2. e9e8 *\n'
    uploaded = player.post("/api/records", params={"game": "tiger"}, content=text.encode())
    assert uploaded.status_code == 201, uploaded.text
    record_id = uploaded.json()["id"]
    again = player.get(f"/api/records/{record_id}").json()
    assert again["game"] == "tiger"
    assert [p["move"] for p in again["plies"]] == ["e10e9", "d2d3", "e9e8"]
    # Jungle's reader is not asked to read it: a Jungle upload of the same text is refused.
    assert player.post("/api/records", content=text.encode()).status_code == 422


def test_a_tiger_seek_pairs_only_with_a_tiger_seek(server: LiveServer) -> None:
    alice, bob, carol = (server.player().guest() for _ in range(3))
    with site_socket(alice) as a_tab, site_socket(bob) as b_tab, site_socket(carol) as c_tab:
        for tab in (a_tab, b_tab, c_tab):
            tab.wait_for("hello")
        tiger_seek = alice.post("/api/seeks", json={"game": "tiger", "time_control": "5+3"})
        assert tiger_seek.status_code == 201 and tiger_seek.json()["game"] == "tiger"
        jungle_seek = bob.post("/api/seeks", json={"time_control": "5+3"})
        assert jungle_seek.json()["game_id"] is None  # same wishes, another game: no pair
        counts = carol.get("/api/seeks").json()["seeks"]
        assert sorted((s["game"], s["rules"]) for s in counts) == [
            ("jungle", "wango"),
            ("tiger", "laohuqi"),
        ]
        paired = carol.post("/api/seeks", json={"game": "tiger", "time_control": "5+3"})
        game_id = paired.json()["game_id"]
        assert game_id is not None
        assert a_tab.wait_for("paired")["game_id"] == game_id
    game = alice.get(f"/api/games/{game_id}").json()["game"]
    assert game["game_key"] == "tiger" and game["rules"]["name"] == "laohuqi"
    seated = {p["identity"]["id"] for p in game["players"]}
    assert seated == {alice.me["id"], carol.me["id"]}
    assert bob.get("/api/seeks").json()["mine"][0]["game_id"] is None  # still waiting
    wrong = {"game": "tiger", "rules": "wango", "time_control": "5+3"}
    unknown = bob.post("/api/seeks", json=wrong)
    assert unknown.status_code == 422 and unknown.json()["code"] == "pairing.unknown_rules"


def test_a_tiger_challenge_and_a_tiger_tournament(server: LiveServer) -> None:
    li, wang = server.player().register("li_tiger"), server.player().register("wang_tiger")
    sent = li.post(
        "/api/challenges",
        json={"to": "wang_tiger", "game": "tiger", "rules": "laohuqi-18", "color": "blue"},
    )
    assert sent.status_code == 201, sent.text
    assert (sent.json()["game"], sent.json()["rules"]) == ("tiger", "laohuqi-18")
    accepted = wang.post(f"/api/challenges/{sent.json()['id']}/accept").json()
    game = li.get(f"/api/games/{accepted['game_id']}").json()
    assert game["game"]["game_key"] == "tiger" and game["you"]["seats"] == [1]  # the men
    assert game["game"]["fen"].startswith("3/1T1/9/9/9/9/9/9/9/MMMMMMMMM/MMMMMMMMM")
    created = li.post(
        "/api/tournaments",
        json={
            "kind": "arena",
            "name": "Tiger hunt",
            "game": "tiger",
            "rules": "laohuqi-strict",
            "time_control": "3+2",
            "duration_minutes": 30,
        },
    )
    assert created.status_code == 201, created.text
    assert created.json()["game"] == "tiger"
    assert created.json()["rules"]["tiger_wins_below"] == 9
    bad = li.post(
        "/api/tournaments",
        json={"kind": "arena", "name": "x", "game": "tiger", "rules": "wango",
              "time_control": "3+2", "duration_minutes": 30},
    )  # fmt: skip
    assert bad.status_code == 422
