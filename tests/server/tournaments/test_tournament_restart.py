"""A restart during a tournament round: a real ``doushouqi serve`` is killed with SIGKILL just
after a Swiss round is paired, and comes back after more than the players' time to come to
their game. The time it was down is not theirs: both come and play the game. A player who
then does not come while the site is up still loses by forfeit."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from tests.server.live.test_crash_recovery import serving
from tests.support.live import HOST, Player, move
from tests.support.ports import free_port

#: The players' time to come to a paired game (``DOUSHOUQI_GRACE_PERIOD``), in seconds.
JOIN_WAIT = 5.0
#: How long the server stays down: longer than the wait, so a wall-clock wait would be over.
DOWNTIME = JOIN_WAIT + 4.0


def _players(port: int) -> tuple[Player, Player]:
    front = SimpleNamespace(url=f"http://{HOST}:{port}", port=port)
    ann = Player(front).register("ann")  # type: ignore[arg-type]
    bob = Player(front).register("bob")  # type: ignore[arg-type]
    return ann, bob


def _until(
    player: Player, tournament_id: str, predicate: Callable[[dict[str, Any]], bool]
) -> dict[str, Any]:
    deadline = time.monotonic() + 20
    while True:
        view = player.get(f"/api/tournaments/{tournament_id}").json()
        if predicate(view):
            return view  # type: ignore[no-any-return]
        assert time.monotonic() < deadline, view
        time.sleep(0.05)


def _round(view: dict[str, Any], number: int) -> list[dict[str, Any]]:
    return [p for p in view["pairings"] if p["round"] == number and p["game_id"]]


def test_a_restart_during_a_round_does_not_make_its_players_no_shows(tmp_path: Path) -> None:
    port = free_port()
    env = {"DOUSHOUQI_GRACE_PERIOD": str(JOIN_WAIT)}
    with serving(tmp_path, port, env) as server:
        ann, bob = _players(port)
        created = ann.post(
            "/api/tournaments",
            json={
                "kind": "swiss",
                "name": "Restart cup",
                "time_control": "5+3",
                "rounds": 2,
                "starts_in": 2,
            },
        )
        assert created.status_code == 201, created.text
        tid = created.json()["id"]
        assert bob.post(f"/api/tournaments/{tid}/join").status_code == 200
        view = _until(ann, tid, lambda v: len(_round(v, 1)) == 1)
        server.kill()  # the round is paired and its game made; nobody has come yet
    time.sleep(DOWNTIME)
    with serving(tmp_path, port, env):
        (pairing,) = _round(ann.get(f"/api/tournaments/{tid}").json(), 1)
        assert pairing["result"] is None
        game_id = pairing["game_id"]
        ids = {ann.me["id"]: ann, bob.me["id"]: bob}
        red, blue = ids[pairing["red"]["account_id"]], ids[pairing["blue"]["account_id"]]
        with red.socket(game_id) as red_ws, blue.socket(game_id) as blue_ws:
            red_ws.wait_for("game_started")
            blue_ws.wait_for("game_started")
            move(red_ws, "a3a4")
            move(blue_ws, "a7a6")
            blue_ws.send({"type": "resign"})
            finished = red_ws.wait_for("game_finished")
            assert (finished["termination"], finished["result"]) == ("resignation", "1-0")
        view = _until(ann, tid, lambda v: len(_round(v, 2)) == 1)
        assert _round(view, 1)[0]["result"] == "1-0"  # played, not forfeited
        # Round 2: only Ann comes. Bob's time runs while the site is up, and he loses it.
        (second,) = _round(view, 2)
        ann_is_red = second["red"]["account_id"] == ann.me["id"]
        with ann.socket(second["game_id"]) as ann_ws:
            ann_ws.wait_for("state")
            came = time.monotonic()
            finished = ann_ws.wait_for("game_finished", timeout=JOIN_WAIT + 10)
            waited = time.monotonic() - came
        assert finished["termination"] == "aborted"
        final = _until(ann, tid, lambda v: v["status"] == "finished")
        assert _round(final, 2)[0]["result"] == ("+-" if ann_is_red else "-+")
        assert waited < JOIN_WAIT + 3  # the join wait (and a director's pass or two)
        bob_view = bob.get(f"/api/tournaments/{tid}").json()
        assert bob_view["me"]["no_shows"] == 1
