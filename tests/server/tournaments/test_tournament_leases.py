"""The director's lease on a tournament (a row-level claim in its own row): one node at a time,
taken over by another once it lapses (the directing node died), or at once when released (a
clean stop); and the notifications a tournament sends its players."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from tests.server.tournaments.test_tournament_director import (
    _create,
    _join_all,
    _open,
    _register,
    _until,
)
from tests.support.live import LiveServer, ManualTime, Player

from doushouqi.server.db.database import Database
from doushouqi.server.tournaments import store
from doushouqi.server.tournaments.director import LEASE_SECONDS
from doushouqi.server.tournaments.models import TournamentRow

NOW = 1_700_000_000.0


def _database(tmp_path: Path) -> Database:
    db = Database(f"sqlite:///{tmp_path / 'leases.sqlite3'}")
    db.migrate()
    with db.sessions.begin() as session:
        for tournament_id, status, starts_at in (
            ("running", "started", NOW - 100),
            ("due", "created", NOW - 1),
            ("later", "created", NOW + 3600),
            ("over", "finished", NOW - 100),
        ):
            session.add(
                TournamentRow(
                    id=tournament_id,
                    kind="swiss",
                    name=tournament_id,
                    game="jungle",
                    creator_id=None,
                    rules="{}",
                    time_control="5+3",
                    rated=True,
                    starts_at=starts_at,
                    rounds=3,
                    max_players=8,
                    status=status,
                    current_round=0,
                    created_at=NOW - 200,
                )
            )
    return db


def _claim(db: Database, node: str, now: float) -> list[str]:
    with db.sessions.begin() as session:
        return sorted(store.claim_due(session, node, now, LEASE_SECONDS))


def test_one_node_directs_a_tournament_until_its_lease_lapses(tmp_path: Path) -> None:
    db = _database(tmp_path)
    try:
        # Only what needs directing: running, or due to start; not later, not over.
        assert _claim(db, "a", NOW) == ["due", "running"]
        assert _claim(db, "b", NOW + 1) == []  # a holds them
        assert _claim(db, "a", NOW + 2) == ["due", "running"]  # a renews
        assert _claim(db, "b", NOW + 2 + LEASE_SECONDS - 0.5) == []
        # a stopped renewing (it died): b takes over once the lease lapses.
        assert _claim(db, "b", NOW + 2 + LEASE_SECONDS + 0.5) == ["due", "running"]
        assert _claim(db, "a", NOW + 3 + LEASE_SECONDS) == []
        # A clean stop gives the lease up: a takes over at once.
        with db.sessions.begin() as session:
            store.release(session, "b")
        assert _claim(db, "a", NOW + 4 + LEASE_SECONDS) == ["due", "running"]
    finally:
        db.close()


def test_players_are_told_when_it_starts_and_when_their_game_is_ready(
    server: LiveServer, clock: ManualTime
) -> None:
    players = _register(server)
    first = next(iter(players.values()))
    tid = _create(first, kind="swiss", name="Told", time_control="5+3", rounds=1, starts_in=10)[
        "id"
    ]
    _join_all(players, tid)
    clock.advance(11)
    view = _until(first, tid, lambda v: len(_open(v)) == 2)
    mine = next(
        p
        for p in _open(view)
        if first.me["id"] in (p["red"]["account_id"], p["blue"]["account_id"])
    )
    items = _until_notified(first, 2)
    kinds = {item["kind"]: item for item in items}
    assert kinds["tournament.starting"]["params"] == {"name": "Told"}
    assert kinds["tournament.starting"]["link"] == f"#/tournament/{tid}"
    ready = kinds["tournament.game_ready"]
    assert ready["link"] == f"#/game/{mine['game_id']}"
    assert ready["params"]["name"] == "Told" and ready["params"]["opponent"]


def _until_notified(player: Player, count: int) -> list[dict[str, Any]]:
    deadline = time.monotonic() + 10
    while True:
        items: list[dict[str, Any]] = player.get("/api/notifications").json()["notifications"]
        if len(items) >= count or time.monotonic() > deadline:
            return items
        time.sleep(0.1)
