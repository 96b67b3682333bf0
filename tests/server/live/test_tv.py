"""TV: the highest-rated game in progress, kept until it ends, then the next best; told to
its viewers over /ws/tv as it changes (live/tv.py, api/watch.py)."""

from __future__ import annotations

from contextlib import ExitStack
from typing import Any

from tests.support.live import DEN_GAME, HOST, GameSocket, LiveServer, Player, move, start_online
from websockets.sync.client import connect

#: A rapid game's time control: ratings are per speed, and TV ranks by the game's speed's.
RAPID = {"time_control": "10+0"}


def tv_socket(server: LiveServer) -> GameSocket:
    stack = ExitStack()
    ws = stack.enter_context(connect(f"ws://{HOST}:{server.port}/ws/tv", open_timeout=10))
    return GameSocket(ws, stack)


def featured(server: LiveServer) -> dict[str, Any] | None:
    answer = server.player().get("/api/tv")
    assert answer.status_code == 200, answer.text
    return answer.json()["game"]  # type: ignore[no-any-return]


def rated_winner(server: LiveServer, winner: Player, loser: Player) -> None:
    """A finished rated game at rapid: the winner's rapid rating rises above 1500, the loser's
    falls."""
    _, w_ws, l_ws = start_online(server, winner, loser, rated=True, **RAPID)
    for ply, text in enumerate(DEN_GAME):
        move(w_ws if ply % 2 == 0 else l_ws, text)
    w_ws.wait_for("game_finished")


def test_tv_features_the_highest_rated_game_until_it_ends(server: LiveServer) -> None:
    assert featured(server) is None
    strong, weak = server.player().register("strong"), server.player().register("weak")
    rated_winner(server, strong, weak)
    # TV ranks games by the players' ratings at the game's speed: these are rapid too.
    with_weak, weak_ws, _ = start_online(server, weak, server.player().guest(), **RAPID)
    guests, guest_ws, _ = start_online(
        server, server.player().guest(), server.player().guest(), **RAPID
    )
    top = featured(server)
    assert top is not None and top["id"] == guests  # 1500 against Weak's (below 1500)
    assert top["rating"] == 1500 and not top["players"][0]["rated"]
    with tv_socket(server) as viewer:
        assert viewer.wait_for("featured")["game"]["id"] == guests
        # A better game starting does not take the screen from the one in progress …
        with_strong, strong_ws, _ = start_online(server, strong, server.player().guest(), **RAPID)
        assert [m["game"]["id"] for m in viewer.drain(quiet=2.5)] == []
        assert featured(server)["id"] == guests  # type: ignore[index]
        # … but is the next when it ends: the highest rated then in progress.
        guest_ws.send({"type": "resign"})
        shown = viewer.wait_for("featured", timeout=5)["game"]
        assert shown["id"] == with_strong and shown["rating"] > 1500
        strong_ws.send({"type": "resign"})
        assert viewer.wait_for("featured", timeout=5)["game"]["id"] == with_weak
        weak_ws.send({"type": "resign"})
        assert viewer.wait_for("featured", timeout=5)["game"] is None  # nothing to show


def test_tv_tells_its_viewers_of_the_first_game_to_start(server: LiveServer) -> None:
    with tv_socket(server) as viewer:
        assert viewer.wait_for("featured")["game"] is None
        game_id = start_online(server, server.player().guest(), server.player().guest())[0]
        assert viewer.wait_for("featured", timeout=5)["game"]["id"] == game_id
