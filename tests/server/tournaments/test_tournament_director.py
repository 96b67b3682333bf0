"""Tournaments run by the director through the real server: a Swiss and an arena among four
players to their final standings, games played over the websocket; no-shows, a restart
mid-tournament, and a pairing whose game was never created."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import select
from tests.support.live import PASSWORD, LiveServer, ManualTime, Player, make_settings, running

from doushouqi.server.tournaments.models import TournamentPairingRow

NAMES = ("ann", "bob", "cai", "dan")


def _register(server: LiveServer) -> dict[int, Player]:
    players = {}
    for name in NAMES:
        player = server.player().register(name)
        players[player.me["id"]] = player
    return players


def _view(player: Player, tournament_id: str) -> dict[str, Any]:
    response = player.get(f"/api/tournaments/{tournament_id}")
    assert response.status_code == 200, response.text
    return response.json()  # type: ignore[no-any-return]


def _until(
    player: Player,
    tournament_id: str,
    predicate: Callable[[dict[str, Any]], bool],
    timeout: float = 20,
) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        view = _view(player, tournament_id)
        if predicate(view):
            return view
        assert time.monotonic() < deadline, view
        time.sleep(0.1)


def _open(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [p for p in view["pairings"] if p["result"] is None and p["game_id"]]


def _resign_open_games(
    players: dict[int, Player], view: dict[str, Any], loser: Callable[[dict[str, Any]], int]
) -> list[str]:
    """Both players come to each open game; ``loser(pairing)`` (an account id) resigns."""
    games = []
    for pairing in _open(view):
        red, blue = pairing["red"]["account_id"], pairing["blue"]["account_id"]
        with (
            players[red].socket(pairing["game_id"]) as r,
            players[blue].socket(pairing["game_id"]) as b,
        ):
            r.wait_for("game_started")
            b.wait_for("game_started")
            resigner = r if loser(pairing) == red else b
            resigner.send({"type": "resign"})
            finished = r.wait_for("game_finished")
            games.append(pairing["game_id"])
            assert finished["result"] in ("1-0", "0-1")
    return games


def _higher_id_loses(pairing: dict[str, Any]) -> int:
    return max(pairing["red"]["account_id"], pairing["blue"]["account_id"])  # type: ignore[no-any-return]


def _create(player: Player, **body: Any) -> dict[str, Any]:
    response = player.post("/api/tournaments", json=body)
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


def _join_all(players: dict[int, Player], tournament_id: str) -> None:
    for player in players.values():
        response = player.post(f"/api/tournaments/{tournament_id}/join")
        assert response.status_code == 200, response.text


def test_a_three_round_swiss_among_four_players_survives_a_restart(
    tmp_path: Path, clock: ManualTime
) -> None:
    settings = make_settings(tmp_path)
    with running(settings, clock) as server:
        players = _register(server)
        first = next(iter(players.values()))
        created = _create(
            first, kind="swiss", name="Spring cup", time_control="5+3", rounds=3, starts_in=60
        )
        tid = created["id"]
        _join_all(players, tid)
        assert _view(first, tid)["status"] == "created"
        clock.advance(61)
        view = _until(first, tid, lambda v: v["status"] == "started" and len(_open(v)) == 2)
        assert view["current_round"] == 1
        games = _resign_open_games(players, view, _higher_id_loses)
        _until(first, tid, lambda v: v["current_round"] == 2 and len(_open(v)) == 2)
    # A restart mid-tournament: round 2 is paired, its games created; nothing is lost.
    with running(settings, clock) as server:
        players = {}
        for name in NAMES:  # the same players, logged in again
            agent = server.player()
            login = {"username": name, "password": PASSWORD}
            assert agent.post("/api/auth/login", json=login).status_code == 200
            agent.me = agent.get("/api/auth/me").json()
            players[agent.me["id"]] = agent
        first = next(iter(players.values()))
        view = _until(first, tid, lambda v: v["current_round"] == 2 and len(_open(v)) == 2)
        games += _resign_open_games(players, view, _higher_id_loses)
        view = _until(first, tid, lambda v: v["current_round"] == 3 and len(_open(v)) == 2)
        games += _resign_open_games(players, view, _higher_id_loses)
        final = _until(first, tid, lambda v: v["status"] == "finished")
        game = first.get(f"/api/games/{games[0]}").json()["game"]
    pairs = [
        frozenset((p["red"]["account_id"], p["blue"]["account_id"])) for p in final["pairings"]
    ]
    assert len(pairs) == 6 and len(set(pairs)) == 6  # a round robin: nobody met twice
    table = final["standings"]
    # The lower account id won every game: ann 3, bob 2, cai 1, dan 0.
    assert [(row["name"], row["score"]) for row in table] == [
        ("ann", 3.0),
        ("bob", 2.0),
        ("cai", 1.0),
        ("dan", 0.0),
    ]
    assert [row["rank"] for row in table] == [1, 2, 3, 4]
    assert table[0]["buchholz"] == 3.0 and table[0]["sonneborn_berger"] == 3.0
    assert all(row["played"] == 3 for row in table)
    # Tournament games score even within ten rounds (docs/rules.md 5.4): nothing is voided.
    assert game["tournament"] is True
    assert game["score_change"]["voided"] is False


def test_an_arena_pairs_players_again_as_their_games_end_and_counts_points(
    server: LiveServer, clock: ManualTime
) -> None:
    players = _register(server)
    first = next(iter(players.values()))
    tid = _create(
        first,
        kind="arena",
        name="Rapid arena",
        time_control="30+0",  # outlasts the arena: the games on at its end are played out
        duration_minutes=10,
        starts_in=30,
    )["id"]
    _join_all(players, tid)
    clock.advance(31)
    view = _until(first, tid, lambda v: len(_open(v)) == 2)
    seen = {frozenset((p["red"]["account_id"], p["blue"]["account_id"])) for p in _open(view)}
    _resign_open_games(players, view, _higher_id_loses)
    # Everyone is paired again at once, and not with the same opponent.
    view = _until(first, tid, lambda v: len(v["pairings"]) == 4 and len(_open(v)) == 2)
    again = {frozenset((p["red"]["account_id"], p["blue"]["account_id"])) for p in _open(view)}
    assert not seen & again
    _resign_open_games(players, view, _higher_id_loses)
    view = _until(first, tid, lambda v: len(v["pairings"]) == 6 and len(_open(v)) == 2)
    # The time is up: games on finish, nobody is paired again, the arena ends.
    clock.advance(600)
    _resign_open_games(players, view, _higher_id_loses)
    final = _until(first, tid, lambda v: v["status"] == "finished")
    assert len(final["pairings"]) == 6
    table = final["standings"]
    ann = table[0]
    assert ann["name"] == "ann" and ann["wins"] == 3
    # Two wins, then a third on fire: 2 + 2 + 4.
    assert ann["score"] == 8 and ann["on_fire"] is True
    assert table[-1]["name"] == "dan" and table[-1]["score"] == 0


def test_a_player_who_never_comes_loses_by_forfeit_and_twice_is_marked_absent(
    server: LiveServer, clock: ManualTime
) -> None:
    players = _register(server)
    ann, bob = list(players.values())[:2]
    tid = _create(
        ann, kind="arena", name="No shows", time_control="3+2", duration_minutes=30, starts_in=10
    )["id"]
    assert bob.post(f"/api/tournaments/{tid}/join").status_code == 200
    clock.advance(11)
    for games_made in (1, 2):
        view = _until(ann, tid, lambda v: len(_open(v)) == 1)
        game_id = _open(view)[0]["game_id"]
        with ann.socket(game_id) as sock:
            state = sock.wait_for("state")
            assert state["game"]["tournament_id"] == tid  # the game page links back to it
            clock.advance(server.settings.grace_period + 16)  # bob never comes
            sock.wait_for("game_finished", timeout=20)
        view = _until(
            ann,
            tid,
            lambda v, made=games_made: (
                len(v["pairings"]) >= made and v["pairings"][made - 1]["result"] is not None
            ),
        )
    rows = {row["name"]: row for row in view["standings"]}
    assert rows["ann"]["score"] == 4 and rows["ann"]["played"] == 0  # two forfeit wins
    assert rows["bob"]["state"] == "absent"
    assert _view(bob, tid)["me"]["no_shows"] == 2
    time.sleep(1.5)
    assert not _open(_view(ann, tid))  # an absent player is not paired
    # Rejoining puts bob back among the players paired.
    assert bob.post(f"/api/tournaments/{tid}/join").json()["me"]["state"] == "joined"
    _until(ann, tid, lambda v: len(_open(v)) == 1)


def test_a_pairing_whose_game_was_never_created_gets_its_game(
    server: LiveServer, clock: ManualTime
) -> None:
    """The director commits a pairing (with its game's id) before it creates the game: a node
    that stops in between leaves a pairing without a game, which the next pass creates."""
    players = _register(server)
    ann, bob = list(players.values())[:2]
    tid = _create(
        ann, kind="arena", name="Crash", time_control="3+2", duration_minutes=30, starts_in=3600
    )["id"]
    assert bob.post(f"/api/tournaments/{tid}/join").status_code == 200
    db = server.app.state.ctx.db
    with db.sessions.begin() as session:
        session.add(
            TournamentPairingRow(
                tournament_id=tid,
                round=0,
                red_id=ann.me["id"],
                blue_id=bob.me["id"],
                game_id="lostgame1234",
                result=None,
                created_at=clock.now(),
            )
        )
    clock.advance(3601)
    _until(ann, tid, lambda v: v["status"] == "started")
    deadline = time.monotonic() + 10
    while ann.get("/api/games/lostgame1234").status_code != 200:
        assert time.monotonic() < deadline
        time.sleep(0.1)
    game = ann.get("/api/games/lostgame1234").json()["game"]
    assert game["tournament"] is True
    with db.sessions() as session:
        rows = session.scalars(
            select(TournamentPairingRow).where(TournamentPairingRow.tournament_id == tid)
        ).all()
    assert [r.game_id for r in rows] == ["lostgame1234"]  # no second pairing for them


def test_an_odd_swiss_gives_each_player_one_bye(server: LiveServer, clock: ManualTime) -> None:
    players = dict(list(_register(server).items())[:3])
    first = next(iter(players.values()))
    tid = _create(first, kind="swiss", name="Three", time_control="5+3", rounds=3, starts_in=10)[
        "id"
    ]
    _join_all(players, tid)
    clock.advance(11)
    for round_number in (1, 2, 3):
        view = _until(
            first, tid, lambda v, r=round_number: v["current_round"] == r and len(_open(v)) == 1
        )
        _resign_open_games(players, view, _higher_id_loses)
    final = _until(first, tid, lambda v: v["status"] == "finished")
    byes = [p["red"]["account_id"] for p in final["pairings"] if p["blue"] is None]
    assert sorted(byes) == sorted(players)  # one bye each, to three different players
    assert all(p["result"] == "bye" for p in final["pairings"] if p["blue"] is None)
    assert sum(row["score"] for row in final["standings"]) == 6.0  # 3 games and 3 byes
    assert all(row["played"] == 2 for row in final["standings"])


def test_a_player_who_leaves_a_game_loses_it_by_abandonment(
    server: LiveServer, clock: ManualTime
) -> None:
    players = _register(server)
    ann, bob = list(players.values())[:2]
    tid = _create(
        ann, kind="arena", name="Leavers", time_control="10+0", duration_minutes=30, starts_in=10
    )["id"]
    assert bob.post(f"/api/tournaments/{tid}/join").status_code == 200
    clock.advance(11)
    view = _until(ann, tid, lambda v: len(_open(v)) == 1)
    game_id = _open(view)[0]["game_id"]
    with ann.socket(game_id) as mine:
        with bob.socket(game_id) as theirs:
            theirs.wait_for("game_started")
        mine.wait_for("player_disconnected")  # bob's tab closed
        clock.advance(server.settings.grace_period + 1)
        finished = mine.wait_for("game_finished")
    assert finished["termination"] == "abandonment"
    view = _until(ann, tid, lambda v: v["pairings"][0]["result"] is not None)
    rows = {row["name"]: row for row in view["standings"]}
    assert rows["ann"]["score"] == 2 and rows["ann"]["played"] == 1
    assert rows["bob"]["score"] == 0 and rows["bob"]["state"] == "joined"  # not a no-show


def test_a_player_who_withdraws_from_a_swiss_keeps_their_results_and_is_not_paired_again(
    server: LiveServer, clock: ManualTime
) -> None:
    players = _register(server)
    first = next(iter(players.values()))
    tid = _create(first, kind="swiss", name="Leaving", time_control="5+3", rounds=3, starts_in=10)[
        "id"
    ]
    _join_all(players, tid)
    clock.advance(11)
    view = _until(first, tid, lambda v: len(_open(v)) == 2)
    _resign_open_games(players, view, _higher_id_loses)
    view = _until(first, tid, lambda v: v["current_round"] == 2 and len(_open(v)) == 2)
    # dan withdraws during round two: that game is still his to play, and counts.
    dan = max(players)
    assert players[dan].post(f"/api/tournaments/{tid}/withdraw").json()["me"]["state"] == (
        "withdrawn"
    )
    _resign_open_games(players, view, _higher_id_loses)
    view = _until(first, tid, lambda v: v["current_round"] == 3 and len(_open(v)) == 1)
    third = [p for p in view["pairings"] if p["round"] == 3]
    seated = {p["red"]["account_id"] for p in third} | {
        p["blue"]["account_id"] for p in third if p["blue"]
    }
    assert dan not in seated and len(seated) == 3  # one game and a bye among the others
    _resign_open_games(players, view, _higher_id_loses)
    final = _until(first, tid, lambda v: v["status"] == "finished")
    rows = {row["account_id"]: row for row in final["standings"]}
    assert rows[dan]["state"] == "withdrawn" and rows[dan]["played"] == 2
    assert len(rows) == 4  # results stand
