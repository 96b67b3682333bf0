"""The analysis, editor and tablebase routers reach a game through the interface and the site's
registry: a request may name its game, an unknown one is refused with a code, and a game without
tables, editor or threat view gets a clear answer instead of Jungle's."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from tests.support.live import LiveServer

from doushouqi.server.games import registry

I18N = Path(registry.__file__).parents[1] / "static" / "i18n"
COVERED = "7/3L3/7/7/7/7/7/7/r6 w"  # in the shipped tables (test_tablebase.py)


def test_an_unknown_game_is_refused_with_a_code(server: LiveServer) -> None:
    client = server.player()
    answers = [
        client.post("/api/position", json={"game": "chess"}),
        client.post("/api/analysis", json={"game": "chess", "movetime": 0.05}),
        client.post("/api/positions/check", json={"game": "chess", "pieces": {"a1": "L"}}),
        client.get("/api/tablebase", params={"fen": COVERED, "game": "chess"}),
    ]
    for answer in answers:
        assert answer.status_code == 422, answer.text
        assert answer.json()["code"] == "game.unknown"
        assert answer.json()["params"] == {"game": "chess"}


def test_naming_the_default_game_changes_nothing(server: LiveServer) -> None:
    client = server.player()
    body = {"fen": "4D2/7/7/7/3w3/3T3/7/7/7 b", "moves": ["d5d6"]}
    plain = client.post("/api/position", json=body)
    named = client.post("/api/position", json={**body, "game": "jungle"})
    assert plain.status_code == 200 and plain.content == named.content
    table = client.get("/api/tablebase", params={"fen": COVERED}).content
    assert table == client.get("/api/tablebase", params={"fen": COVERED, "game": "jungle"}).content


def test_a_move_from_a_square_to_itself_is_still_read_as_a_pass(server: LiveServer) -> None:
    # Jungle's library reads it as the pass (0000); the API has always accepted it as one.
    data = server.player().post("/api/position", json={"moves": ["a3a4", "c7c7"]}).json()
    assert [m["move"] for m in data["moves"]] == ["a3a4", "0000"]
    assert data["turn"] == 0 and data["moves"][1]["readable_en"] == "--"


@pytest.fixture
def bare_jungle(monkeypatch: pytest.MonkeyPatch) -> None:
    """Jungle as the site would offer a game without tables, editor or threat view."""
    bare = dataclasses.replace(
        registry.SITE_GAMES["jungle"], tablebase=None, editor=None, threats=None
    )
    monkeypatch.setitem(registry.SITE_GAMES, "jungle", bare)  # type: ignore[index]


@pytest.mark.usefixtures("bare_jungle")
def test_a_game_without_capabilities_is_answered_clearly(server: LiveServer) -> None:
    client = server.player()
    table = client.get("/api/tablebase", params={"fen": COVERED})
    assert table.status_code == 404 and table.json()["code"] == "tablebase.none", table.text
    editor = client.post("/api/positions/check", json={"pieces": {"a1": "L", "g9": "e"}})
    assert editor.status_code == 404 and editor.json()["code"] == "editor.none", editor.text
    position = client.post("/api/position", json={"moves": ["a3a4"]})
    assert position.status_code == 200 and position.json()["threats"] is None
    # A hint in a covered endgame comes from the engine (the stand-in), not from tables.
    hint = client.post("/api/analysis", json={"fen": COVERED, "purpose": "hint"})
    assert hint.status_code == 200, hint.text
    assert "source" not in hint.json()


def test_the_new_refusals_are_translated() -> None:
    for lang in ("en", "zh", "zh-Hant"):
        table = json.loads((I18N / lang / "errors.json").read_text(encoding="utf-8"))
        for code in ("game.unknown", "tablebase.none", "editor.none"):
            assert table.get(f"error.{code}"), (lang, code)
