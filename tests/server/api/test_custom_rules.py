"""Games under rule options of the creator's choosing (``POST /api/games`` with a rules object).

The custom options must be in force everywhere the game goes: the moves the server accepts,
the AI's board, the stored game, the record, the rematch, the lobby and the history.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.support.helpers import board_for
from tests.support.live import GameSocket, LiveServer, ManualTime, make_settings, move, running

from doushouqi.jungle.record import read_record
from doushouqi.jungle.rules import BUILTIN_RULE_SETS
from doushouqi.server.ai.pool import AiMove, AiRequest, RandomAi

#: Classic rules, except that an animal in an enemy trap may still capture.
TRAP_CAPTURES = {"parent": "classic", "trapped_can_capture": True}
#: Red's wolf walks into Blue's trap d8 next to Blue's dog (which moved to c8); Blue waits.
TO_THE_TRAP = ["c3d3", "b8c8", "d3d4", "a9b9", "d4d5", "g9f9"]
TO_THE_TRAP += ["d5d6", "b9a9", "d6d7", "f9g9", "d7d8", "a7a6"]
#: Only legal when a trapped animal may capture: the wolf in the trap takes the dog.
TRAPPED_CAPTURE = "d8c8"


def play(ws: GameSocket, moves: list[str]) -> None:
    for text in moves:
        move(ws, text)


def refused(ws: GameSocket, text: str) -> dict[str, Any]:
    ws.send({"type": "move", "move": text})
    return ws.wait_for("rejected")


def test_a_custom_option_decides_what_is_legal(server: LiveServer) -> None:
    player = server.player().guest()
    custom = player.create(mode="same_screen", rules=TRAP_CAPTURES)
    rules = custom["game"]["rules"]
    assert rules["name"] == "classic (custom)"
    assert rules["trapped_can_capture"] is True and rules["rule_7_3"] is True  # the parent's
    plain = player.create(mode="same_screen", rules="classic")
    with player.socket(custom["id"]) as ws, player.socket(plain["id"]) as control:
        ws.wait_for("game_started")
        control.wait_for("game_started")
        play(ws, TO_THE_TRAP)
        play(control, TO_THE_TRAP)
        # The board the web client draws offers the capture only where it is legal.
        assert "c8" in player.get(f"/api/games/{custom['id']}").json()["game"]["dests"]["d8"]
        assert "c8" not in player.get(f"/api/games/{plain['id']}").json()["game"]["dests"]["d8"]
        assert refused(control, TRAPPED_CAPTURE)["code"] == "illegal_move"
        taken = move(ws, TRAPPED_CAPTURE)
        assert taken["color"] == 0
    board = player.get(f"/api/games/{custom['id']}").json()["game"]
    assert board["fen"].startswith("l5t/2W2c1/")  # the wolf stands on c8, the dog is gone


def test_bad_options_are_a_422_naming_every_key(server: LiveServer) -> None:
    player = server.player().guest()
    bad = {"parent": "classic", "rule_7_3": "yes", "colour": "red", "ranks": "cat>dog"}
    response = player.post("/api/games", json={"mode": "same_screen", "rules": bad})
    assert response.status_code == 422
    detail = response.json()["detail"]
    assert all(key in detail for key in ("rule_7_3", "colour", "ranks")), detail
    for rules, key in (
        ({"parent": "chess"}, "parent"),
        ({"parent": "/etc/passwd"}, "parent"),  # a named set only: no file is ever read
        ({"parent": ["classic"]}, "parent"),
        ({"first_player": []}, "first_player"),
        ({"wolf_name": {"a": 1}}, "wolf_name"),
        ({"no_capture_draw_rounds": -1}, "no_capture_draw_rounds"),
        ({"no_capture_draw_rounds": 10**30}, "no_capture_draw_rounds"),
        ({"repetition": None, "rat_captures_across_water": 1}, "rat_captures_across_water"),
        ({f"k{i}": True for i in range(40)}, "keys"),
    ):
        response = player.post("/api/games", json={"mode": "same_screen", "rules": rules})
        assert response.status_code == 422, rules
        assert key in response.json()["detail"], (rules, response.json())
    for rules in (5, ["classic"], None, "classic.toml"):
        response = player.post("/api/games", json={"mode": "same_screen", "rules": rules})
        assert response.status_code == 422, rules


def test_options_that_change_nothing_keep_the_sets_name(server: LiveServer) -> None:
    player = server.player().guest()

    def created_rules(rules: Any, **body: Any) -> dict[str, Any]:
        game = player.create(mode="same_screen", rules=rules, **body)
        return game["game"]["rules"]  # type: ignore[no-any-return]

    assert created_rules({"parent": "classic"}) == BUILTIN_RULE_SETS["classic"].to_mapping()
    assert created_rules({"parent": " Classic ", "rule_7_3": True})["name"] == "classic"
    # An /api/rules entry sent back unchanged: its name and description are not options.
    entry = player.get("/api/rules/international").json()
    assert created_rules({**entry, "parent": "international"})["name"] == "international"
    blue_first = created_rules({"parent": "classic", "first_player": "blue"})
    assert (blue_first["name"], blue_first["first_player"]) == ("classic", "blue")
    assert created_rules({"ranks": "dog>wolf"})["name"] == "wango (custom)"  # parent: wango
    # The first-player control wins over the options object.
    both = created_rules({**TRAP_CAPTURES, "first_player": "red"}, first_player="blue")
    assert (both["name"], both["first_player"]) == ("classic (custom)", "blue")


def test_rematch_record_and_replay_keep_the_options(server: LiveServer) -> None:
    player = server.player().guest()
    game = player.create(mode="same_screen", rules=TRAP_CAPTURES)
    with player.socket(game["id"]) as ws:
        ws.wait_for("game_started")
        play(ws, TO_THE_TRAP)
        move(ws, TRAPPED_CAPTURE)
        ws.send({"type": "resign", "color": 1})
        ws.wait_for("game_finished")
        ws.send({"type": "rematch"})
        rematch_id = ws.wait_for("rematch_ready")["new_game_id"]
    rematch = player.get(f"/api/games/{rematch_id}").json()["game"]
    assert rematch["rules"] == game["game"]["rules"]

    text = player.get(f"/api/games/{game['id']}/record").text
    assert '[Rules "classic (custom)"]' in text
    assert '[RuleOption "trapped_can_capture true"]' in text
    record = read_record(text)
    assert record.rules.trapped_can_capture and record.rules.name == "classic (custom)"
    assert [str(m) for m in record.moves][-1] == TRAPPED_CAPTURE
    # The record reads back into the replay viewer and the upload, options and all.
    replay = player.get(f"/api/games/{game['id']}/replay").json()
    assert replay["rules"]["trapped_can_capture"] is True
    uploaded = player.post("/api/records", content=text)
    assert uploaded.status_code == 201, uploaded.text
    assert uploaded.json()["rules"]["name"] == "classic (custom)"


def test_lobby_and_history_name_the_custom_rules(server: LiveServer) -> None:
    host = server.player().register("custom_host")
    created = host.create(mode="online", rules={**TRAP_CAPTURES, "no_capture_draw_rounds": 0})
    named = host.create(mode="online", rules="classic")
    lobby = {g["id"]: g for g in server.player().get("/api/lobby").json()["games"]}
    entry = lobby[created["id"]]
    assert (entry["rules"], entry["rules_parent"]) == ("classic (custom)", "classic")
    assert entry["rule_changes"] == {"trapped_can_capture": True, "no_capture_draw_rounds": 0}
    plain = lobby[named["id"]]
    named_entry = (plain["rules"], plain["rules_parent"], plain["rule_changes"])
    assert named_entry == ("classic", "classic", {})
    history = host.get("/api/players/custom_host/games").json()["games"]
    assert {g["rules"] for g in history} == {"classic (custom)", "classic"}


class ScriptedAi(RandomAi):
    """Plays its script (whatever the rules say: the server must judge) and records the rules
    of every board it was asked about; a random legal move once the script is done."""

    def __init__(self, script: list[str]) -> None:
        super().__init__()
        self.script = list(script)
        self.rules_seen: list[dict[str, Any]] = []

    async def choose_move(self, request: AiRequest) -> AiMove:
        self.rules_seen.append(board_for(request).rules.to_mapping())
        if self.script:
            return AiMove(self.script.pop(0), request.movetime, request.movetime)
        return await super().choose_move(request)


def test_the_ai_plays_under_the_custom_rules(tmp_path: Path, clock: ManualTime) -> None:
    # Blue's dog meets Red's wolf on d7/d8; with the dog ranked above the wolf it may take it.
    ai = ScriptedAi(["b8c8", "c8d8", "a9b9", "g9f9", "d8d7"])
    with running(make_settings(tmp_path), clock, ai) as live:
        human = live.player().guest()
        game = human.create(
            mode="vs_ai", ai_level=2, color="red", rules={"parent": "wango", "ranks": "dog>wolf"}
        )
        assert game["game"]["rules"]["name"] == "wango (custom)"
        with human.socket(game["id"]) as ws:
            ws.wait_for("game_started")
            for text in ("c3d3", "d3d4", "d4d5", "d5d6", "d6d7"):
                move(ws, text)
                ws.wait_for("move_made", lambda m: m["color"] == 1)
        moves = [e["move"] for e in human.get(f"/api/games/{game['id']}/events").json()["events"]
                 if e["type"] == "move_made"]  # fmt: skip
        assert moves[-1] == "d8d7"  # the AI's capture was accepted, not replaced
        assert all(r["ranks"] == "dog>wolf" for r in ai.rules_seen) and len(ai.rules_seen) == 5
