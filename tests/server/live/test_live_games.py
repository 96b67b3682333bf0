"""Games to watch: GET /api/games/live (the highest rated first, filtered by game, rule set,
speed and rated) and each game's spectator count, pushed to its sockets as it changes
(server/watching.py)."""

from __future__ import annotations

from typing import Any

from tests.support.live import DEN_GAME, GameSocket, LiveServer, move, start_online

from doushouqi.server.api.watch import best_first


def live(server: LiveServer, **params: Any) -> list[dict[str, Any]]:
    answer = server.player().get("/api/games/live", params=params)
    assert answer.status_code == 200, answer.text
    return answer.json()["games"]  # type: ignore[no-any-return]


def count(ws: GameSocket, n: int) -> None:
    ws.wait_for("spectators", lambda m: m["count"] == n)


def test_only_games_in_progress_between_people_are_listed(server: LiveServer) -> None:
    red, blue = server.player().guest(), server.player().guest()
    waiting = red.create(mode="online", color="red")["id"]
    server.player().guest().create(mode="vs_ai", ai_level=1, color="red")
    # A game nobody was invited to watch stays off the list.
    private = start_online(server, server.player().guest(), server.player().guest(), public=False)
    game_id, red_ws, _ = start_online(server, red, blue, time_control="5+3")
    move(red_ws, "a3a4")
    games = live(server)
    assert [g["id"] for g in games] == [game_id]
    listed = games[0]
    assert waiting not in {g["id"] for g in games} and private[0] != game_id
    assert (listed["time_control"], listed["plies"], listed["rules"]) == ("5+3", 1, "wango")
    assert [p["rating"] for p in listed["players"]] == [1500, 1500]  # guests: unrated 1500
    assert not any(p["rated"] for p in listed["players"])
    assert listed["fen"].split()[0] and listed["last_move"] == "a3a4"
    red_ws.send({"type": "resign"})
    red_ws.wait_for("game_finished")
    assert live(server) == []


def test_the_highest_rated_game_comes_first(server: LiveServer) -> None:
    # A finished rated game lifts Red's rating above 1500 (and Blue's below).
    strong, weak = server.player().register("strong"), server.player().register("weak")
    _, s_ws, w_ws = start_online(server, strong, weak, rated=True, time_control="10+0")
    for ply, text in enumerate(DEN_GAME):
        move(s_ws if ply % 2 == 0 else w_ws, text)
    s_ws.wait_for("game_finished")
    # At the same speed (rapid): ratings are per speed.
    rapid = {"time_control": "10+0"}
    guests = start_online(server, server.player().guest(), server.player().guest(), **rapid)[0]
    with_strong = start_online(server, strong, server.player().guest(), **rapid)[0]
    with_weak = start_online(server, weak, server.player().guest(), **rapid)[0]
    games = live(server)
    assert [g["id"] for g in games] == [with_strong, guests, with_weak]
    top = games[0]
    assert top["players"][0]["rated"] and top["players"][0]["rating"] > 1500
    assert top["players"][0]["provisional"]  # one rated game: RD far above 110
    assert top["rating"] == round((top["players"][0]["rating"] + 1500) / 2)
    assert [g["id"] for g in live(server, limit=1)] == [with_strong]
    assert server.player().get("/api/games/live", params={"limit": 0}).status_code == 422


def test_spectators_are_counted_once_each_and_pushed(server: LiveServer) -> None:
    red, blue = server.player().guest(), server.player().guest()
    game_id, red_ws, blue_ws = start_online(server, red, blue)
    watcher, other = server.player().guest(), server.player().guest()
    first = watcher.socket(game_id)
    assert first.wait_for("spectators")["count"] == 1  # what a new socket is told
    count(red_ws, 1)
    count(blue_ws, 1)
    second_tab = watcher.socket(game_id)  # the same person again: still one
    second_tab.wait_for("spectators")
    with other.socket(game_id) as third:
        count(third, 2)
        count(red_ws, 2)
        assert live(server)[0]["spectators"] == 2
    count(red_ws, 1)
    first.close()
    second_tab.close()
    count(red_ws, 0)
    # A player's own extra tab is no spectator.
    with red.socket(game_id) as again:
        assert again.wait_for("spectators")["count"] == 0
    assert live(server)[0]["spectators"] == 0


def test_the_rating_comes_first_then_tournament_games_then_the_newest() -> None:
    def entry(name: str, rating: int, tournament: bool, started: float) -> dict[str, Any]:
        return {"id": name, "rating": rating, "tournament": tournament, "started_at": started}

    entries = [
        entry("casual-strong", 2100, False, 1.0),
        entry("arena-weak", 1400, True, 2.0),
        entry("arena-strong", 2100, True, 3.0),
        entry("casual-new", 2100, False, 4.0),
        entry("casual-weak", 1400, False, 5.0),
    ]
    order = [e["id"] for e in best_first(entries)]
    assert order == ["arena-strong", "casual-new", "casual-strong", "arena-weak", "casual-weak"]


def test_the_list_is_filtered_by_game_rules_speed_and_rated(server: LiveServer) -> None:
    guests = [server.player().guest() for _ in range(4)]
    blitz = start_online(server, guests[0], guests[1], time_control="5+3")[0]
    slow = start_online(server, guests[2], guests[3], rules="classic", time_control="30+20")[0]
    alice, bob = server.player().register("alice"), server.player().register("bob")
    rated = start_online(server, alice, bob, rated=True, time_control="1+0")[0]

    def ids(**params: Any) -> set[str]:
        return {g["id"] for g in live(server, **params)}

    assert ids() == {blitz, slow, rated}
    assert ids(speed="blitz") == {blitz}
    assert ids(speed="classical") == {slow}
    assert ids(speed="bullet", rated="true") == {rated}
    assert ids(rated="false") == {blitz, slow}
    assert ids(rules="classic") == {slow}
    assert ids(game="jungle") == {blitz, slow, rated}
    assert ids(game="tiger") == set()
    assert {g["speed"] for g in live(server)} == {"blitz", "classical", "bullet"}
    bad = server.player().get("/api/games/live", params={"speed": "warp"})
    assert bad.status_code == 422
    unknown = server.player().get("/api/games/live", params={"game": "chess"})
    assert (unknown.status_code, unknown.json()["code"]) == (422, "game.unknown")
