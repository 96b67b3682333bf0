"""A move's write on PostgreSQL in one statement (docs/server.md, eleventh round): a move of
the stored row's set-up and status with one event, alone in its batch, is stored by
``repo.plies_statement_postgresql`` on a connection of its own in autocommit, not by the
driver's transaction. It must store the game and its event (committed: another connection
reads them), refuse a stale write without storing its event, and survive its connection being
closed by the server."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest
from tests.support.helpers import online_game
from tests.support.postgres import end_other_connections, find_bindir

from doushouqi.server.db import repo
from doushouqi.server.db.database import Database
from doushouqi.server.db.gamestore import GameStore, GameWrite, StaleWriteError
from doushouqi.server.domain import Game, GameStatus


class CountingDatabase(Database):
    """The real database, counting the driver's transactions and the single statements."""

    transactions = 0
    statements = 0

    def run_driver(self, fn: Any) -> Any:
        self.transactions += 1
        return super().run_driver(fn)

    async def write_statement(self, sql: str, params: Any) -> list[tuple[Any, ...]]:
        self.statements += 1
        return await super().write_statement(sql, params)


@pytest.fixture
def db(request: pytest.FixtureRequest) -> Iterator[CountingDatabase]:
    if find_bindir() is None:
        pytest.skip("PostgreSQL is not installed")
    database = CountingDatabase(request.getfixturevalue("database"))
    database.migrate()
    yield database
    database.close()


def _event(version: int, kind: str = "move_made") -> dict[str, object]:
    return {"type": kind, "game_id": "g", "version": version, "text": "鼠 a4-b4"}


def _ply(game: Game, version: int, *kinds: str) -> GameWrite:
    """A write of a move that keeps the set-up and the status (``same_status``)."""
    events = [_event(version, kind) for kind in kinds]
    moved = game.evolve(version=version, draw_offer=version % 2)
    return GameWrite(moved, version - 1, events, same_setup=True, same_status=True)


def _events(db: Database) -> list[tuple[int, int, str]]:
    query = "SELECT version, seq, type FROM game_events WHERE game_id = 'g' ORDER BY 1, 2"
    rows = db.run_sync(lambda s: s.connection().exec_driver_sql(query).all())
    return [(int(v), int(seq), str(kind)) for v, seq, kind in rows]


def _started(db: CountingDatabase) -> Game:
    """Game ``g`` stored and started (a write that changes the status: the transaction)."""
    game = online_game(start=False).evolve(id="g")
    started = game.evolve(version=1, status=GameStatus.STARTED, started_at=3.0)

    async def scenario() -> None:
        store = GameStore(db)
        await store.commit(GameWrite(game, None))
        await store.commit(GameWrite(started, 0, [_event(1, "game_started")], same_setup=True))

    asyncio.run(scenario())
    return started


def test_a_ply_is_one_statement_that_stores_the_game_and_its_event(
    db: CountingDatabase,
) -> None:
    started = _started(db)
    db.transactions = db.statements = 0

    async def scenario() -> None:
        store = GameStore(db)
        await store.commit(_ply(started, 2, "move_made"))
        await store.commit(_ply(started, 3, "move_made"))

    asyncio.run(scenario())
    assert (db.statements, db.transactions) == (2, 0)
    loaded = db.run_sync(lambda s: repo.load_game(s, "g"))  # another connection: committed
    assert loaded is not None
    assert loaded[0] == started.evolve(version=3, draw_offer=1)
    row = db.run_sync(
        lambda s: s.connection().exec_driver_sql(
            "SELECT version, status, started_at, result FROM games WHERE id = 'g'"
        )
    ).one()
    assert tuple(row) == (3, int(GameStatus.STARTED), 3.0, "*")
    assert _events(db) == [(1, 0, "game_started"), (2, 0, "move_made"), (3, 0, "move_made")]
    texts = db.run_sync(lambda s: repo.events_since(s, "g", 1))
    assert [json.loads(text) for text in texts] == [_event(2), _event(3)]


def test_a_stale_ply_stores_neither_the_game_nor_its_event(db: CountingDatabase) -> None:
    started = _started(db)

    async def scenario() -> None:
        store = GameStore(db)
        await store.commit(_ply(started, 2, "move_made"))  # one node's write
        with pytest.raises(StaleWriteError):  # the other's, over the same version
            await store.commit(_ply(started, 2, "draw_offered"))
        with pytest.raises(StaleWriteError):  # and one over a version never stored
            await store.commit(_ply(started.evolve(version=5), 6, "move_made"))
        await store.commit(_ply(started, 3, "move_made"))  # the connection still serves

    asyncio.run(scenario())
    assert db.statements == 4
    assert _events(db) == [(1, 0, "game_started"), (2, 0, "move_made"), (3, 0, "move_made")]


def test_moves_batched_are_one_statement_and_a_stale_one_fails_alone(
    db: CountingDatabase,
) -> None:
    started = _started(db)
    other = started.evolve(id="h")

    async def scenario() -> tuple[object, ...]:
        store = GameStore(db)
        await store.commit(GameWrite(other.evolve(version=0), None))
        await store.commit(_ply(started, 2, "move_made"))  # g at 2: the next write is stale
        db.transactions = db.statements = 0
        return tuple(
            await asyncio.gather(  # queued together: one batch
                store.commit(_ply(started, 2, "draw_offered")),
                store.commit(_ply(other, 1, "move_made")),
                return_exceptions=True,
            )
        )

    outcome = asyncio.run(scenario())
    assert isinstance(outcome[0], StaleWriteError) and outcome[1] is None, outcome
    assert (db.statements, db.transactions) == (1, 0)  # no retry one by one
    assert _events(db) == [(1, 0, "game_started"), (2, 0, "move_made")]
    assert db.run_sync(lambda s: repo.stored_version(s, "h")) == 1
    texts = db.run_sync(lambda s: repo.events_since(s, "h", 0))
    assert [json.loads(text)["type"] for text in texts] == ["move_made"]


def test_two_moves_of_one_game_in_a_batch_take_the_transaction(db: CountingDatabase) -> None:
    """The statement tells the games it stored by their ids: two writes of one game (one
    over the other) go the transaction's way, which stores them in order."""
    started = _started(db)
    db.transactions = db.statements = 0

    async def scenario() -> None:
        store = GameStore(db)
        await asyncio.gather(
            store.commit(_ply(started, 2, "move_made")), store.commit(_ply(started, 3, "move_made"))
        )

    asyncio.run(scenario())
    assert (db.statements, db.transactions) == (0, 1)
    assert _events(db)[1:] == [(2, 0, "move_made"), (3, 0, "move_made")]
    assert db.run_sync(lambda s: repo.stored_version(s, "g")) == 3


def test_the_statement_for_more_moves_than_it_takes_is_refused() -> None:
    most = repo.PLIES_PER_STATEMENT
    assert repo.plies_statement_postgresql(most).count("::text)") == most  # a row a move
    with pytest.raises(ValueError):
        repo.plies_statement_postgresql(repo.PLIES_PER_STATEMENT + 1)


def test_a_move_of_several_events_takes_the_transaction(
    db: CountingDatabase,
) -> None:
    started = _started(db)
    db.transactions = db.statements = 0

    async def scenario() -> None:
        store = GameStore(db)
        await store.commit(_ply(started, 2, "move_made", "draw_offered"))

    asyncio.run(scenario())
    assert (db.statements, db.transactions) == (0, 1)
    assert _events(db)[1:] == [(2, 0, "move_made"), (2, 1, "draw_offered")]


def test_a_statement_connection_closed_by_the_server_does_not_fail_the_next_ply(
    db: CountingDatabase,
) -> None:
    started = _started(db)

    async def scenario() -> None:
        store = GameStore(db)
        await store.commit(_ply(started, 2, "move_made"))  # the connection made, and kept
        # Every other connection of this database ended, the statements' among them, as a
        # restarted server would.
        end_other_connections(db)
        await store.commit(_ply(started, 3, "move_made"))

    asyncio.run(scenario())
    assert db.statements == 2  # the second ran again on a new connection, inside
    assert _events(db)[1:] == [(2, 0, "move_made"), (3, 0, "move_made")]  # each stored once
