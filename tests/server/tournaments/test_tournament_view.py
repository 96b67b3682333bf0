"""What a tournament's page shows of a pairing whose game is not created yet: the director
stores a round's pairings (with their games' ids) in one transaction and creates the games
after it, so for a moment a pairing names a game that does not exist. Shown then, a player's
click (or socket) found "no such game"; it shows no game until the game is there."""

from __future__ import annotations

from pathlib import Path

from tests.server.tournaments.test_tournament_leases import NOW, _database
from tests.support.helpers import online_game

from doushouqi.server.db import repo
from doushouqi.server.db.models import AccountRow
from doushouqi.server.tournaments import store
from doushouqi.server.tournaments.models import TournamentPairingRow, TournamentPlayerRow


def test_a_pairing_shows_its_game_only_once_the_game_exists(tmp_path: Path) -> None:
    db = _database(tmp_path)
    with db.sessions.begin() as session:
        for account_id in (1, 2):
            name = f"p{account_id}"
            session.add(
                AccountRow(
                    id=account_id,
                    username=name,
                    display_name=name,
                    password_hash="x",
                    created_at=NOW,
                )
            )
            session.flush()
            session.add(
                TournamentPlayerRow(
                    tournament_id="running",
                    account_id=account_id,
                    state="active",
                    name=name,
                    username=name,
                    rating=1500.0,
                    joined_at=NOW,
                    idle_since=NOW,
                )
            )
        session.add(
            TournamentPairingRow(
                tournament_id="running", round=1, red_id=1, blue_id=2, game_id="g1", created_at=NOW
            )
        )
    with db.sessions.begin() as session:
        view = store.tournament_view(session, "running", 1)
    assert view is not None
    assert [p["game_id"] for p in view["pairings"]] == [None]
    assert view["me"]["current_game"] is None
    game = online_game()
    with db.sessions.begin() as session:
        repo.insert_games(session, [(game.evolve(id="g1"), True)])
    with db.sessions.begin() as session:
        view = store.tournament_view(session, "running", 1)
    assert view is not None
    assert [p["game_id"] for p in view["pairings"]] == ["g1"]
    assert view["me"]["current_game"] == "g1"
