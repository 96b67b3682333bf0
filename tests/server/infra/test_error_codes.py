"""Errors the web client shows carry a machine code and params (server/errors.py): the client
translates them, so no English sentence from the server reaches a Chinese page. ``detail``
stays as it was for API users."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from tests.support.live import LiveServer
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from doushouqi.server.accounts.passwords import CODES as PASSWORD_CODES
from doushouqi.server.infra.settings import STATIC_DIR
from doushouqi.server.infra.translations import LANGS, load_table

SERVER = Path(__file__).resolve().parents[3] / "src" / "doushouqi" / "server"


def test_a_bad_time_control_has_a_code_and_keeps_its_detail(server: LiveServer) -> None:
    answer = (
        server.player().guest().post("/api/games", json={"mode": "online", "time_control": "soon"})
    )
    assert answer.status_code == 422
    body = answer.json()
    assert body["code"] == "time.bad"
    assert body["params"] == {"text": "soon"}
    assert isinstance(body["detail"], str) and body["detail"]


def test_record_errors_name_the_line_or_the_ply(server: LiveServer) -> None:
    client = server.player()
    binary = client.post("/api/records", content=b"\x89PNG\r\n\x1a\n\x00\xff\xfe")
    assert binary.status_code == 422 and binary.json()["code"] == "record.not_text"
    illegal = client.post("/api/records", content=b'[Red "A"]\n\n1. a3a5 *\n')
    assert illegal.status_code == 422
    body = illegal.json()
    assert body["code"] == "record.invalid"
    assert body["params"].get("ply") == 1 or body["params"].get("line"), body
    assert body["detail"].startswith("not a valid record")


def test_unknown_game_and_player_are_coded_404s(server: LiveServer) -> None:
    client = server.player()
    assert client.get("/api/games/nosuchgame").json()["code"] == "game.not_found"
    assert client.get("/api/players/nobody_here").json()["code"] == "player.not_found"


def test_the_socket_of_an_unknown_game_is_closed_with_4404(server: LiveServer) -> None:
    """Accepted, then closed with 4404: the browser can tell "no such game" from a network
    fault (a refused handshake reaches it as a bare failure, and it would retry for ever)."""
    url = f"ws://127.0.0.1:{server.port}/ws/games/nosuchgame"
    with connect(url) as ws, pytest.raises(ConnectionClosed) as closed:
        ws.recv(timeout=5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404


def codes_in_server_source() -> set[str]:
    codes: set[str] = set()
    for path in SERVER.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        codes.update(re.findall(r"Problem\(\s*\d{3},\s*\"([a-z_.]+)\"", text))
        codes.update(re.findall(r"(?<!\w)Refused\(\s*\"([a-z_.]+)\"", text))
    return codes


def test_every_code_the_server_sends_is_translated() -> None:
    # "unavailable": every outage's 503 (infra/errors.py), answered for any route; a weak
    # password's code names the weakness (api/auth.py words it from accounts/passwords.py).
    codes = codes_in_server_source() | {"unavailable", *PASSWORD_CODES}
    assert {"time.bad", "record.invalid", "engine.unavailable", "game.not_found"} <= codes
    for lang in LANGS:
        table = load_table(STATIC_DIR, lang)
        missing = sorted(code for code in codes if f"error.{code}" not in table)
        assert not missing, (lang, missing)


def test_every_refusal_code_is_translated() -> None:
    from doushouqi.server.domain.events import RejectCode

    for lang in LANGS:
        table = load_table(STATIC_DIR, lang)
        missing = sorted(code.value for code in RejectCode if f"rejected.{code.value}" not in table)
        assert not missing, (lang, missing)
