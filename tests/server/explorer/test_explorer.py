"""The opening explorer (server/explorer/, GET /api/explorer): games played through the
server between people are counted as they finish, per move, with their results, by rating and
rated or casual; games against the computer and games of fewer than ten plies are not; a
rebuild from the stored games gives the same counts; both games are served."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from tests.support.helpers import played_out
from tests.support.live import LiveServer, Player, move, start_online

from doushouqi.cli import main as cli
from doushouqi.jungle.board import Board
from doushouqi.server.db.database import Database
from doushouqi.server.explorer import service as explorer
from doushouqi.server.explorer.models import OpeningMoveRow

START = Board().fen()


def _play(
    server: LiveServer,
    moves: list[str],
    loser: str,
    players: tuple[Player, Player] | None = None,
    *,
    plies: int = explorer.MIN_PLIES,
    **options: object,
) -> None:
    """A game between two guests (or ``players``) that opens with ``moves`` and goes on to
    ``plies`` plies (the fewest the explorer counts), then ``loser`` resigns."""
    red, blue = players or (server.player().guest(), server.player().guest())
    _, red_ws, blue_ws = start_online(server, red, blue, **options)
    with red_ws, blue_ws:
        for ply, text in enumerate(played_out(moves, plies)):
            move(red_ws if ply % 2 == 0 else blue_ws, text)
        (red_ws if loser == "red" else blue_ws).send({"type": "resign"})
        red_ws.wait_for("game_finished")


def _moves(server: LiveServer, fen: str | None = None, **params: object) -> dict[str, dict]:
    query = {"rules": "wango", **({"fen": fen} if fen else {}), **params}
    answer = server.player().get("/api/explorer", params=query)
    assert answer.status_code == 200, answer.text
    return {m["move"]: m for m in answer.json()["moves"]}


def test_finished_games_are_counted_by_move_and_result(server: LiveServer) -> None:
    assert _moves(server) == {}
    _play(server, ["a3a4", "g7g6"], loser="blue")
    _play(server, ["a3a4", "a7a6"], loser="red")
    _play(server, ["g3g4"], loser="blue")
    first = _moves(server)
    counts = {k: (v["count"], v["red_wins"], v["draws"], v["blue_wins"]) for k, v in first.items()}
    assert counts == {
        "a3a4": (2, 1, 0, 1),
        "g3g4": (1, 1, 0, 0),
    }
    assert list(first) == ["a3a4", "g3g4"]  # most played first
    assert first["a3a4"]["readable_zh"] and first["a3a4"]["readable_en"]
    second = _moves(server, first["a3a4"]["fen"])
    assert {k: v["count"] for k, v in second.items()} == {"g7g6": 1, "a7a6": 1}
    assert second["g7g6"]["red_wins"] == 1 and second["a7a6"]["blue_wins"] == 1


def test_the_rating_filter_keeps_the_bands_at_or_above_it(server: LiveServer) -> None:
    _play(server, ["a3a4"], loser="blue")  # two newcomers: 1500 on average
    assert _moves(server, min_rating=1400)["a3a4"]["count"] == 1
    assert _moves(server, min_rating=1500)["a3a4"]["count"] == 1  # 1500's band starts at 1400
    assert _moves(server, min_rating=1600) == {}


def test_games_against_the_computer_and_short_games_are_not_counted(server: LiveServer) -> None:
    player = server.player().guest()
    game = player.create(mode="vs_ai", ai_level=1, color="red")
    with player.socket(game["id"]) as ws:
        ws.wait_for("game_started")
        move(ws, "a3a4")
        ws.wait_for("move_made", lambda m: m["ply"] == 2)  # the computer answered
        ws.send({"type": "resign"})
        ws.wait_for("game_finished")
    # Nine plies, then a resignation: decided before the opening was played out.
    _play(server, ["g3g4"], loser="blue", plies=explorer.MIN_PLIES - 1)
    assert _moves(server) == {}
    _play(server, ["g3g4"], loser="blue")  # ten: counted
    assert _moves(server)["g3g4"]["count"] == 1


def test_the_rated_filter_reads_rated_or_casual_games_or_both(server: LiveServer) -> None:
    alice, bob = server.player().register("ex_alice"), server.player().register("ex_bob")
    _play(server, ["a3a4"], loser="blue", players=(alice, bob), rated=True, time_control="10+0")
    _play(server, ["g3g4"], loser="red")  # two guests: casual
    _play(server, ["g3g4"], loser="blue", players=(bob, alice))  # accounts, casual
    both = _moves(server)
    assert {k: v["count"] for k, v in both.items()} == {"g3g4": 2, "a3a4": 1}
    rated = _moves(server, rated="true")
    assert {k: (v["count"], v["red_wins"]) for k, v in rated.items()} == {"a3a4": (1, 1)}
    casual = _moves(server, rated="false")
    assert {k: v["count"] for k, v in casual.items()} == {"g3g4": 2}
    answer = server.player().get("/api/explorer", params={"rated": "true"}).json()
    assert answer["rated"] is True and answer["total"] == 1
    bad = server.player().get("/api/explorer", params={"rated": "maybe"})
    assert bad.status_code == 422


def test_the_explorer_serves_the_tiger_game_apart(server: LiveServer) -> None:
    tiger, men = server.player().guest(), server.player().guest()
    line = played_out([], explorer.MIN_PLIES, "tiger")
    _, tiger_ws, men_ws = start_online(server, tiger, men, game="tiger")
    with tiger_ws, men_ws:
        for ply, text in enumerate(line):
            move(tiger_ws if ply % 2 == 0 else men_ws, text)
        men_ws.send({"type": "resign"})
        tiger_ws.wait_for("game_finished")
    assert _moves(server) == {}  # not among Jungle's
    client = server.player()
    answer = client.get("/api/explorer", params={"game": "tiger"}).json()
    assert answer["game"] == "tiger" and answer["total"] == 1
    assert [m["move"] for m in answer["moves"]] == [line[0]]
    assert answer["moves"][0]["red_wins"] == 1  # seat 0 (the tiger's side) won
    assert answer["rule_options"]["name"] == answer["rules"]
    after = client.get("/api/explorer", params={"game": "tiger", "fen": answer["moves"][0]["fen"]})
    assert [m["move"] for m in after.json()["moves"]] == [line[1]]
    unknown = client.get("/api/explorer", params={"game": "chess"})
    assert unknown.status_code == 422 and unknown.json()["code"] == "game.unknown"


def test_aborted_and_custom_rule_games_are_not_counted(server: LiveServer) -> None:
    red = server.player().guest()
    game = red.create(mode="online", color="red")
    with red.socket(game["id"]) as ws:
        ws.recv()
        ws.send({"type": "abort"})
        ws.wait_for("game_finished")
    custom = {"parent": "wango", "no_capture_draw_rounds": 10}
    _play(server, ["a3a4"], loser="blue", rules=custom)
    assert _moves(server) == {}


def test_bad_queries_get_a_code(server: LiveServer) -> None:
    client = server.player()
    bad_fen = client.get("/api/explorer", params={"fen": "8/7 w"})
    assert bad_fen.status_code == 422 and bad_fen.json()["code"] == "explorer.bad_fen"
    assert client.get("/api/explorer", params={"rules": "chess"}).json()["code"] == "rules.unknown"
    assert client.get("/api/explorer", params={"min_rating": -1}).status_code == 422
    assert client.get("/api/explorer", params={"fen": "x" * 300}).status_code == 422


def test_a_rebuild_counts_the_stored_games_again(server: LiveServer, tmp_path: Path) -> None:
    _play(server, ["a3a4", "g7g6"], loser="blue")
    _play(server, ["a3a4"], loser="red")
    before = _moves(server)
    db = Database(server.settings.resolved_database_url)
    try:
        assert db.run_sync(explorer.rebuild) == 2
        assert db.run_sync(explorer.rebuild) == 2  # twice: the same counts, not twice them
        assert db.run_sync(lambda s: explorer.query(s, "wango", START)) == [
            {k: v for k, v in m.items() if k in ("move", "count", "red_wins", "draws", "blue_wins")}
            for m in before.values()
        ]
    finally:
        db.close()
    assert _moves(server) == before


def test_entries_stop_at_the_opening_and_at_a_pass() -> None:
    board = Board()
    moves: list[str] = []
    seen = {explorer.position_key(board.fen())}
    for _ in range(30):  # each ply to a position not met before (met again, it counts once)
        for chosen in sorted(str(m) for m in board.legal_moves):
            board.push_move(chosen)
            if explorer.position_key(board.fen()) not in seen:
                break
            board.pop()
        seen.add(explorer.position_key(board.fen()))
        moves.append(chosen)
    entries = explorer.game_entries(board.rules, moves, winner=0, rating=1750, rated=True)
    assert len(entries) == explorer.MAX_PLIES
    assert {e.band for e in entries} == {1600} and {e.result for e in entries} == {0}
    assert {e.rated for e in entries} == {True}
    assert entries[0].position == explorer.position_key(START)
    assert len(explorer.game_entries(board.rules, [*moves[:3], "0000", *moves[4:]], None, 0)) == 3


def _concurrent_counts(url: str) -> list[dict[str, object]]:
    """Two writers (as two nodes would) count the same opening 40 times each at once."""
    db = Database(url)
    try:
        db.migrate()
        entries = explorer.game_entries(Board().rules, ["a3a4", "g7g6"], winner=1, rating=1500)

        def write() -> None:
            for _ in range(40):
                db.run_sync(lambda s: explorer.store_entries(s, entries))

        threads = [threading.Thread(target=write) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return db.run_sync(lambda s: explorer.query(s, "wango", START))
    finally:
        db.close()


def test_concurrent_writers_both_count_on_sqlite(tmp_path: Path) -> None:
    found = _concurrent_counts(f"sqlite:///{tmp_path / 'x.sqlite3'}")
    assert found == [{"move": "a3a4", "red_wins": 0, "draws": 0, "blue_wins": 80, "count": 80}]


def test_concurrent_writers_both_count_on_postgresql(database: str) -> None:
    found = _concurrent_counts(database)
    assert found == [{"move": "a3a4", "red_wins": 0, "draws": 0, "blue_wins": 80, "count": 80}]


def test_the_rebuild_command_counts_the_stored_games(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _play(server, ["g3g4"], loser="red")
    db = Database(server.settings.resolved_database_url)
    try:
        db.run_sync(lambda s: s.query(OpeningMoveRow).delete())
    finally:
        db.close()
    assert _moves(server) == {}
    monkeypatch.setenv("DOUSHOUQI_DATABASE_URL", server.settings.resolved_database_url)
    assert cli.main(["explorer", "rebuild"]) == 0
    assert "1 games counted" in capsys.readouterr().out
    assert _moves(server)["g3g4"]["blue_wins"] == 1


def test_a_position_met_again_in_one_game_counts_once() -> None:
    there_and_back = ["a3a4", "a7a6", "a4a3", "a6a7", "a3a4", "a7a6", "c3d3"]
    entries = explorer.game_entries(Board().rules, there_and_back, winner=0, rating=1500)
    # Back at the start after four plies: the start and the next positions were counted with
    # the moves first played from them (c3d3 leaves a position already counted with a4a3).
    assert [e.move for e in entries] == ["a3a4", "a7a6", "a4a3", "a6a7"]
    assert len({e.position for e in entries}) == len(entries)
