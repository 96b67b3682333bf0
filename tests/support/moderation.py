"""Moderators for the tests, made the way a site makes its first admin: ``doushouqi admin
grant`` on the server's own database (the command line, run in this process)."""

from __future__ import annotations

from typing import Any

import pytest
from tests.support.live import LiveServer, Player

from doushouqi.cli import main as cli

__all__ = ["grant", "reported_message", "staff_member"]


def grant(database_url: str, username: str, role: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DOUSHOUQI_DATABASE_URL", database_url)
    assert cli.main(["admin", "grant", username, role]) == 0


def staff_member(
    server: LiveServer, username: str, role: str, monkeypatch: pytest.MonkeyPatch
) -> Player:
    """A new account with ``role`` (``moderator`` or ``admin``), signed in."""
    player = server.player().register(username)
    grant(server.settings.resolved_database_url, username, role, monkeypatch)
    return player


def reported_message(player: Player, game_id: str, message_id: int, reason: str) -> Any:
    answer = player.post(f"/api/games/{game_id}/chat/{message_id}/report", json={"reason": reason})
    assert answer.status_code == 200, answer.text
    return answer.json()
