"""The game store's writes on real databases: a write that finds its game stored at another
version than the one it replaces fails as stale (``StaleWriteError``, apart from every other
failure, and without failing the writes batched with it); a database that cannot be reached
fails a write as "unavailable" (try again), not as a bug."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.support.helpers import online_game
from tests.support.ports import free_port
from tests.support.postgres import end_other_connections, find_bindir

from doushouqi.server.db import repo
from doushouqi.server.db.database import Database
from doushouqi.server.db.gamestore import (
    CommitError,
    GameStore,
    GameWrite,
    StaleWriteError,
    StorageUnavailable,
)
from doushouqi.server.domain import Game, GameStatus
from doushouqi.server.infra.outage import is_outage


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'store.db'}"
    elif find_bindir() is None:
        pytest.skip("PostgreSQL is not installed")
    else:
        url = request.getfixturevalue("database")
    database = Database(url)
    database.migrate()
    yield database
    database.close()


def stored_version(db: Database, game_id: str) -> int | None:
    return db.run_sync(lambda s: repo.stored_version(s, game_id))


def a_game(game_id: str) -> Game:
    return online_game(start=False).evolve(id=game_id)


def test_a_write_over_a_newer_version_is_stale_not_a_failure(db: Database) -> None:
    async def scenario() -> None:
        store = GameStore(db)
        game = a_game("g")
        await store.commit(GameWrite(game, None))
        await store.commit(GameWrite(game.evolve(version=1), 0))  # one node's write
        with pytest.raises(StaleWriteError) as stale:  # the other's, from the same version
            await store.commit(GameWrite(game.evolve(version=1), 0))
        assert not isinstance(stale.value, CommitError)  # nothing to try again
        assert not is_outage(stale.value)

    asyncio.run(scenario())
    assert stored_version(db, "g") == 1


def test_a_stale_write_fails_alone_in_its_batch(db: Database) -> None:
    async def scenario() -> tuple[object, ...]:
        store = GameStore(db)
        stale, fine = a_game("stale"), a_game("fine")
        for game in (stale, fine):
            await store.commit(GameWrite(game, None))
        await store.commit(GameWrite(stale.evolve(version=1), 0))
        return tuple(
            await asyncio.gather(  # queued together: one batch, one transaction first
                store.commit(GameWrite(stale.evolve(version=1), 0)),
                store.commit(GameWrite(fine.evolve(version=1), 0)),
                return_exceptions=True,
            )
        )

    outcome = asyncio.run(scenario())
    assert isinstance(outcome[0], StaleWriteError) and outcome[1] is None, outcome
    assert stored_version(db, "fine") == 1


def test_a_database_that_cannot_be_reached_is_an_outage() -> None:
    db = Database(f"postgresql+psycopg://postgres@127.0.0.1:{free_port()}/nowhere")

    async def scenario() -> None:
        with pytest.raises(StorageUnavailable) as away:
            await GameStore(db).commit(GameWrite(a_game("g"), None))
        assert isinstance(away.value, CommitError)  # the actor retries, clients try again
        assert is_outage(away.value)

    try:
        asyncio.run(scenario())
    finally:
        db.close()


# ---------------------------------------------------------------------- moves through the driver
# A plain move's write (a game that goes on) skips the ORM session: ``Database.write_driver``.
# It must store the same rows, keep the transaction whole, and fail as the session's path does.


def _event(version: int, kind: str = "move_made") -> dict[str, object]:
    return {"type": kind, "game_id": "-", "version": version, "text": "鼠 a4-b4"}


def test_a_moves_write_stores_the_game_and_its_events(db: Database) -> None:
    game = a_game("g")

    async def scenario() -> None:
        store = GameStore(db)
        await store.commit(GameWrite(game, None))
        moved = game.evolve(version=1, draw_offer=1)
        await store.commit(GameWrite(moved, 0, [_event(1), _event(1, "draw_offered")]))

    asyncio.run(scenario())
    loaded = db.run_sync(lambda s: repo.load_game(s, "g"))
    assert loaded is not None and loaded[0] == game.evolve(version=1, draw_offer=1)
    stored = [json.loads(text) for text in db.run_sync(lambda s: repo.events_since(s, "g", 0))]
    assert [(e["version"], e["type"], e["text"]) for e in stored] == [
        (1, "move_made", "鼠 a4-b4"),
        (1, "draw_offered", "鼠 a4-b4"),
    ]


def test_the_writers_text_of_an_event_is_the_text_stored(db: Database) -> None:
    # The live game encodes each event once, for its sockets and its row: the row holds that
    # very text (a text that differs from the dict here shows which one was stored).
    game = a_game("g")
    given = '{"type":"move_made","version":1,"given":true}'

    async def scenario() -> None:
        store = GameStore(db)
        await store.commit(GameWrite(game, None))
        await store.commit(GameWrite(game.evolve(version=1), 0, [_event(1)], texts=[given]))

    asyncio.run(scenario())
    assert db.run_sync(lambda s: repo.events_since(s, "g", 0)) == [given]


def test_a_moves_write_that_fails_changes_nothing_and_is_no_outage(db: Database) -> None:
    first, second = a_game("first"), a_game("second")

    async def scenario() -> tuple[object, ...]:
        store = GameStore(db)
        for game in (first, second):
            await store.commit(GameWrite(game, None))
        await store.commit(GameWrite(second.evolve(version=1), 0, [_event(1)]))
        return tuple(
            await asyncio.gather(  # one batch; then one by one, when the batch fails
                store.commit(GameWrite(first.evolve(version=1), 0, [_event(1)])),
                # Its event's key is taken: the update before it in the transaction goes too.
                store.commit(GameWrite(second.evolve(version=2), 1, [_event(1)])),
                return_exceptions=True,
            )
        )

    outcome = asyncio.run(scenario())
    assert outcome[0] is None
    assert isinstance(outcome[1], CommitError) and not is_outage(outcome[1])
    assert stored_version(db, "first") == 1
    assert stored_version(db, "second") == 1  # not 2: rolled back with its event


def test_a_moves_write_to_a_database_that_cannot_be_reached_is_an_outage() -> None:
    db = Database(f"postgresql+psycopg://postgres@127.0.0.1:{free_port()}/nowhere")

    async def scenario() -> None:
        with pytest.raises(StorageUnavailable) as away:
            await GameStore(db).commit(GameWrite(a_game("g").evolve(version=1), 0))
        assert is_outage(away.value)

    try:
        asyncio.run(scenario())
    finally:
        db.close()


# ---------------------------------------------------------------------- the writer's connection
# The moves' writes keep their connection between batches, unpinged (docs/server.md, sixth
# round): one closed by the server meanwhile (PostgreSQL restarted) must not fail a move.


def test_a_kept_connection_closed_by_the_server_does_not_fail_the_next_move(
    db: Database,
) -> None:
    if db.is_sqlite:
        pytest.skip("a server that closes connections: PostgreSQL")
    game = a_game("g")

    async def scenario() -> None:
        store = GameStore(db)
        await store.commit(GameWrite(game, None))
        await store.commit(GameWrite(game.evolve(version=1), 0, [_event(1)]))  # kept now
        # Every other connection of this database ended, the writer's among them, as a
        # restarted server would.
        end_other_connections(db)
        await store.commit(GameWrite(game.evolve(version=2), 1, [_event(2)]))

    asyncio.run(scenario())
    assert stored_version(db, "g") == 2
    stored = db.run_sync(lambda s: repo.events_since(s, "g", 0))
    assert [json.loads(text)["version"] for text in stored] == [1, 2]  # each stored once


class CountingDatabase(Database):
    """The real database, counting the moves' transactions."""

    transactions = 0

    def run_driver(self, fn: Any) -> Any:  # on the loop (SQLite) or the writer thread
        self.transactions += 1
        return super().run_driver(fn)


@pytest.mark.parametrize(
    ("gather_for", "busy", "transactions"),
    [(0.0, True, 2), (0.2, True, 1), (0.2, False, 2)],
    ids=["no-gathering", "busy", "quiet"],
)
def test_moves_arriving_within_the_gathering_time_share_one_transaction_on_a_busy_node(
    db: Database, gather_for: float, busy: bool, transactions: int
) -> None:
    """A busy node's commit waits for more moves; a quiet node's lone move is not held, as
    waiting would gather nothing (docs/server.md, "Fourteenth round: commits gathered on a busy
    node only")."""
    counting = CountingDatabase(db.url)
    first, second = a_game("first"), a_game("second")

    async def scenario() -> None:
        plain = GameStore(counting)
        for game in (first, second):
            await plain.commit(GameWrite(game, None))
        store = GameStore(counting, gather_for=gather_for)
        if busy:
            await _made_busy(store)
        counting.transactions = 0

        async def later() -> None:
            await asyncio.sleep(0.05)  # a move of another game, a moment after the first
            await store.commit(GameWrite(second.evolve(version=1), 0, [_event(1)]))

        await asyncio.gather(
            store.commit(GameWrite(first.evolve(version=1), 0, [_event(1)])), later()
        )

    try:
        asyncio.run(scenario())
    finally:
        counting.close()
    assert counting.transactions == transactions
    assert stored_version(db, "first") == stored_version(db, "second") == 1


async def _made_busy(store: GameStore) -> None:
    """Writes arriving together, as on a node with many games: the store then gathers."""
    await asyncio.gather(*(store.commit(GameWrite(a_game(f"busy{i}"), None)) for i in range(30)))


def test_a_moves_write_of_the_same_set_up_leaves_the_set_up_columns_and_stores_the_rest(
    db: Database,
) -> None:
    """``same_setup`` writes only the columns a move changes: the rest must be the stored
    row's already (a seat taken is written in full, its seat key with it)."""
    game = online_game(start=False).evolve(id="g")
    seated = game.evolve(players=(game.players[0], None))  # one seat open: the row says so
    moved = seated.evolve(version=1, started_at=5.0)
    assert seated.same_setup(moved) and not game.same_setup(seated)

    def row() -> tuple[Any, ...]:
        query = "SELECT open_seats, seat1_key, version, started_at, state FROM games"
        return tuple(db.run_sync(lambda s: s.connection().exec_driver_sql(query).one()))

    async def scenario() -> None:
        store = GameStore(db)
        await store.commit(GameWrite(seated, None))
        await store.commit(GameWrite(moved, 0, [_event(1)], same_setup=True))
        stored = row()
        assert stored[:4] == (1, None, 1, 5.0)
        assert json.loads(stored[4])["version"] == 1
        full = game.evolve(version=2, started_at=5.0)  # the seat taken: all columns
        await store.commit(GameWrite(full, 1, [_event(2)], same_setup=full.same_setup(moved)))
        assert row()[:3] == (0, repo.player_key(game.players[1]), 2)

    asyncio.run(scenario())


def test_a_write_of_the_same_status_leaves_the_status_column_and_a_change_writes_it(
    db: Database,
) -> None:
    """``same_status`` (with ``same_setup``) leaves the status column out of the update, so
    that SQLite leaves its index alone: the stored status must be the game's already. A
    write that says so wrongly shows it (the column keeps the old status); one that changes
    the status writes it."""
    game = online_game(start=False).evolve(id="g")
    started = game.evolve(version=1, status=GameStatus.STARTED)

    def status() -> int:
        query = "SELECT status FROM games"
        return int(db.run_sync(lambda s: s.connection().exec_driver_sql(query).scalar_one()))

    async def scenario() -> list[int]:
        store = GameStore(db)
        await store.commit(GameWrite(game, None))
        seen = []
        await store.commit(GameWrite(started, 0, [_event(1)], same_setup=True))
        seen.append(status())
        moved = started.evolve(version=2)
        await store.commit(GameWrite(moved, 1, [_event(2)], same_setup=True, same_status=True))
        seen.append(status())
        told_wrongly = moved.evolve(version=3, status=GameStatus.ABORTED)
        await store.commit(
            GameWrite(told_wrongly, 2, [_event(3)], same_setup=True, same_status=True)
        )
        seen.append(status())
        return seen

    assert asyncio.run(scenario()) == [GameStatus.STARTED] * 3
    stored_state = db.run_sync(lambda s: s.connection().exec_driver_sql("SELECT state FROM games"))
    assert json.loads(stored_state.scalar_one())["status"] == GameStatus.ABORTED


def test_the_set_up_columns_are_those_the_set_up_makes() -> None:
    game = online_game(start=False)
    assert set(repo._setup_columns(game)) == repo._SETUP_COLUMN_NAMES
    assert set(repo._columns(game)) == set(repo._COLUMN_NAMES)
    assert set(repo._move_columns(game)) == set(repo._MOVE_COLUMN_NAMES)
    assert set(repo._ply_columns(game)) == {"version", "state"}


def test_moves_of_the_same_set_up_store_their_events_and_a_stale_one_stores_nothing(
    db: Database,
) -> None:
    """Moves' writes of the same set-up with their events (the driver's path): batched, each
    game and its events stored; a stale one fails alone, and its events are not stored;
    alone, it fails the same way."""
    stale, fine = a_game("stale"), a_game("fine")

    def events_of(game_id: str) -> list[tuple[int, str]]:
        texts = db.run_sync(lambda s: repo.events_since(s, game_id, 0))
        return [(e["version"], e["type"]) for e in map(json.loads, texts)]

    def move(game: Game, version: int, *kinds: str) -> GameWrite:
        events = [_event(version, kind) for kind in kinds]
        return GameWrite(game.evolve(version=version), version - 1, events, same_setup=True)

    async def scenario() -> tuple[object, ...]:
        store = GameStore(db)
        for game in (stale, fine):
            await store.commit(GameWrite(game, None))
        await store.commit(move(stale, 1, "move_made"))  # another node's write
        outcome = await asyncio.gather(  # queued together: one batch first
            store.commit(move(stale, 1, "move_made", "draw_offered")),
            store.commit(move(fine, 1, "move_made", "draw_offered")),
            return_exceptions=True,
        )
        with pytest.raises(StaleWriteError):  # alone in its batch
            await store.commit(move(stale, 1, "move_made"))
        await store.commit(move(fine, 2, "move_made"))
        return tuple(outcome)

    outcome = asyncio.run(scenario())
    assert isinstance(outcome[0], StaleWriteError) and outcome[1] is None, outcome
    assert stored_version(db, "stale") == 1 and stored_version(db, "fine") == 2
    assert events_of("stale") == [(1, "move_made")]
    assert events_of("fine") == [(1, "move_made"), (1, "draw_offered"), (2, "move_made")]
