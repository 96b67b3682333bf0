"""The migration history is one line, and a database made before it was (by the branching
history kept in ``data/legacy_migrations/``) is taken over by ``Database.migrate()``: stamped
with the equivalent revision, no table made again, every row kept, the same schema as a fresh
database's."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from shutil import copytree, ignore_patterns
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import (
    Boolean,
    Column,
    Engine,
    Float,
    Integer,
    MetaData,
    String,
    event,
    inspect,
    select,
)
from tests.server.accounts.test_guest_names import LATEST_REVISION
from tests.server.db.test_persistence_restart import schema_differences
from tests.support.postgres import create_database, find_bindir

from doushouqi.server.db import repo
from doushouqi.server.db.database import (
    LEGACY_REVISIONS,
    MIGRATIONS_DIR,
    Database,
    alembic_config,
)

LEGACY_DIR = Path(__file__).resolve().parent / "data" / "legacy_migrations"
VERSION_TABLE = "alembic_version"
#: The id a revision after today's latest would have.
NEXT_REVISION = f"{int(LATEST_REVISION[:4]) + 1:04d}_what_it_adds"

#: Where a database of the old history could stand: each a list of upgrades run one after the
#: other (a branch's upgrade adds a head beside the others), as the code of each time left it.
LEGACY_STATES = {
    "0001": ["0001"],
    "0002": ["0002"],
    "0003": ["0003"],
    "pairing": ["0004_pairing"],
    "+tournament": ["0004_pairing", "0004_tournament"],
    "+chat": ["0004_pairing", "0004_tournament", "0004_chat"],
    "+explorer": ["0004_pairing", "0004_tournament", "0004_chat", "0004_explorer"],
    "+puzzle": ["0004_pairing", "0004_tournament", "0004_chat", "0004_explorer", "0004_puzzle"],
    "0005 (today's head)": ["heads"],
}

needs_postgres = pytest.mark.skipif(
    find_bindir() is None,
    reason="PostgreSQL binaries not found (CI installs them: apt-get install postgresql)",
)


def legacy_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(LEGACY_DIR))
    return config


def legacy_database(url: str, upgrades: list[str]) -> None:
    """Make the database at ``url`` as the old history made it, and put rows in every table."""
    db = Database(url)
    try:
        for target in upgrades:
            config = legacy_config()
            with db.engine.begin() as connection:
                config.attributes["connection"] = connection
                command.upgrade(config, target)
        fill(db.engine)
    finally:
        db.close()


def value(column: Column[Any], i: int) -> object:
    """Row ``i``'s value for ``column``: a foreign key takes the referred row's value."""
    key = next(iter(column.foreign_keys), None)
    if key is not None:
        return value(key.column, i)
    kind = column.type
    if isinstance(kind, Boolean):
        return i % 2 == 0
    if isinstance(kind, Integer):
        return i + 1
    if isinstance(kind, Float):
        return i + 0.25
    assert isinstance(kind, String), (column, kind)
    text = f"{i}:{column.table.name}.{column.name}"
    return text[: kind.length] if kind.length else text


def fill(engine: Engine, rows: int = 2) -> None:
    metadata = MetaData()
    metadata.reflect(engine)
    with engine.begin() as connection:
        for table in metadata.sorted_tables:
            if table.name != VERSION_TABLE:
                connection.execute(
                    table.insert(),
                    [{c.name: value(c, i) for c in table.columns} for i in range(rows)],
                )


def dump(engine: Engine, columns: dict[str, list[str]]) -> dict[str, list[tuple[object, ...]]]:
    """These columns of these tables, every row, in primary-key order."""
    metadata = MetaData()
    metadata.reflect(engine, only=list(columns))
    with engine.connect() as connection:
        return {
            name: [
                tuple(row)
                for row in connection.execute(
                    select(*(table.c[c] for c in names)).order_by(*table.primary_key.columns)
                )
            ]
            for name, names in columns.items()
            for table in [metadata.tables[name]]
        }


def columns_of(engine: Engine) -> dict[str, list[str]]:
    found = inspect(engine)
    return {
        name: [c["name"] for c in found.get_columns(name)]
        for name in found.get_table_names()
        if name != VERSION_TABLE
    }


def index_text(index: Mapping[str, Any]) -> str:
    """An index as inspection sees it, its options as text: a partial index's condition is a
    SQL expression, whose repr names only where it is in memory."""
    options = {key: str(value) for key, value in index.get("dialect_options", {}).items()}
    return repr({**index, "dialect_options": options})


def schema(engine: Engine) -> dict[str, object]:
    """Everything inspection sees of the tables, and on SQLite the SQL that made them."""
    found = inspect(engine)
    tables: dict[str, object] = {}
    for name in sorted(found.get_table_names()):
        tables[name] = {
            "columns": [
                (c["name"], str(c["type"]), c["nullable"], c.get("default"))
                for c in found.get_columns(name)
            ],
            "primary_key": found.get_pk_constraint(name),
            "foreign_keys": sorted(map(repr, found.get_foreign_keys(name))),
            "indexes": sorted(map(index_text, found.get_indexes(name))),
            "unique": sorted(map(repr, found.get_unique_constraints(name))),
        }
    if engine.dialect.name == "sqlite":
        with engine.connect() as connection:
            made = connection.exec_driver_sql(
                "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name"
            )
            tables["sqlite_master"] = [
                (kind, name, owner, " ".join((sql or "").split()))
                for kind, name, owner, sql in made
            ]
    return tables


def fresh_schema(url: str, revision: str | None = None) -> dict[str, object]:
    """The schema of a new database migrated to ``revision`` (None: the latest)."""
    db = Database(url)
    try:
        if revision is None:
            db.migrate()
        else:
            config = alembic_config()
            with db.engine.begin() as connection:
                config.attributes["connection"] = connection
                command.upgrade(config, revision)
        return schema(db.engine)
    finally:
        db.close()


def revisions(engine: Engine) -> set[str]:
    with engine.connect() as connection:
        return set(MigrationContext.configure(connection).get_current_heads())


@contextmanager
def ddl_statements(engine: Engine) -> Iterator[list[str]]:
    """The CREATE, ALTER and DROP statements run on ``engine`` meanwhile."""
    seen: list[str] = []

    def record(_conn: object, _cursor: object, statement: str, *_args: object) -> None:
        if statement.lstrip().upper().startswith(("CREATE", "ALTER", "DROP")):
            seen.append(" ".join(statement.split()))

    event.listen(engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", record)


def old_database_is_taken_over(url: str, fresh_url: str, upgrades: list[str]) -> None:
    legacy_database(url, upgrades)
    db = Database(url)
    try:
        old_revisions = revisions(db.engine)
        assert old_revisions <= LEGACY_REVISIONS.keys()
        before_columns = columns_of(db.engine)
        before = dump(db.engine, before_columns)
        assert all(len(rows) == 2 for rows in before.values())
        with ddl_statements(db.engine) as ddl:
            db.migrate()
        assert revisions(db.engine) == {LATEST_REVISION}
        # No table that was there is made again: only the missing revisions ran.
        remade = [s for s in ddl for t in before_columns if s.startswith(f"CREATE TABLE {t} ")]
        assert remade == []
        if old_revisions == {"0005"}:  # only what came after the old history ran: 0009 on
            touched = REVISED_SINCE_OLD_HISTORY + INDEXED_SINCE_OLD_HISTORY
            assert ddl and all(any(t in s for t in touched) for s in ddl), ddl
        assert dump(db.engine, unrevised(before_columns)) == unrevised(before)
        # Today's code reads them.
        account = db.run_sync(lambda s: repo.account_by_username(s, "0:accounts.username"))
        assert account is not None and account.display_name == "0:accounts.display_name"
        assert db.run_sync(lambda s: repo.get_record(s, "1:records.id")) is not None
        after_schema = schema(db.engine)
    finally:
        db.close()
    assert after_schema == fresh_schema(fresh_url)
    assert schema_differences(url) == []


#: The tables that revisions after the old history change or make (test_migration_0009.py
#: checks 0009's rows; 0010 makes site_outages; test_migration_0012.py checks the game column
#: 0012 gives seeks, challenges, tournaments and records; test_migration_0013.py the columns
#: 0013 gives auth_tokens; 0014 gives chat messages and reports a column each); every other
#: table's rows must come through the takeover unchanged.
REVISED_SINCE_OLD_HISTORY = (
    "accounts",
    "games",
    "ratings",
    "site_outages",
    "seeks",
    "challenges",
    "tournaments",
    "records",
    "auth_tokens",
    "chat_messages",
    "chat_reports",
)
#: Tables made or given an index since, their rows as they were (0011: a unique index on the
#: rated puzzle tries, and the solutions seen; 0014: the chat's mutes and the moderation log).
INDEXED_SINCE_OLD_HISTORY = ("puzzle_attempts", "puzzle_seen", "chat_mutes", "mod_log")


def unrevised(by_table: dict[str, Any]) -> dict[str, Any]:
    return {table: v for table, v in by_table.items() if table not in REVISED_SINCE_OLD_HISTORY}


def test_the_history_is_one_line_named_by_what_each_revision_adds() -> None:
    script = ScriptDirectory.from_config(alembic_config())
    assert script.get_heads() == [LATEST_REVISION]
    chain = list(script.walk_revisions("base", "heads"))[::-1]
    assert chain[0].down_revision is None
    for earlier, later in itertools.pairwise(chain):
        assert later.down_revision == earlier.revision
    for number, revision in enumerate(chain, start=1):
        assert revision.revision.startswith(f"{number:04d}_")
        assert Path(revision.path).stem == revision.revision
        assert len(revision.revision) <= 32  # alembic_version.version_num is a VARCHAR(32)
    ids = {revision.revision for revision in chain}
    # Every old id is mapped, to a revision of the new history, and none is a new id.
    legacy = {revision.revision for revision in ScriptDirectory(str(LEGACY_DIR)).walk_revisions()}
    assert LEGACY_REVISIONS.keys() == legacy
    assert set(LEGACY_REVISIONS.values()) <= ids
    assert not ids & legacy


def test_both_histories_make_the_same_schema(tmp_path: Path) -> None:
    old_url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    legacy_database(old_url, ["heads"])
    db = Database(old_url)
    try:
        assert revisions(db.engine) == {"0005"}
        old = schema(db.engine)
    finally:
        db.close()
    # The old history's last revision matches the new one's that it is stamped with.
    assert old == fresh_schema(f"sqlite:///{tmp_path / 'new.sqlite3'}", LEGACY_REVISIONS["0005"])


@pytest.mark.parametrize("state", LEGACY_STATES)
def test_an_old_database_is_taken_over(tmp_path: Path, state: str) -> None:
    old_database_is_taken_over(
        f"sqlite:///{tmp_path / 'old.sqlite3'}",
        f"sqlite:///{tmp_path / 'new.sqlite3'}",
        LEGACY_STATES[state],
    )


def test_an_old_database_that_no_revision_matches_is_refused(tmp_path: Path) -> None:
    """Chat's branch without pairing's and tournaments' before it: no code made such a
    database, and no revision of the linear history has its tables."""
    url = f"sqlite:///{tmp_path / 'odd.sqlite3'}"
    legacy_database(url, ["0004_chat"])
    db = Database(url)
    try:
        before = columns_of(db.engine)
        with pytest.raises(RuntimeError, match="branching migration history"):
            db.migrate()
        assert revisions(db.engine) == {"0004_chat"}
        assert columns_of(db.engine) == before
    finally:
        db.close()


@needs_postgres
@pytest.mark.parametrize("state", ["0003", "+tournament", "0005 (today's head)"])
def test_an_old_database_is_taken_over_on_postgres(
    postgres: str, database: str, state: str
) -> None:
    fresh = create_database(postgres, database.rsplit("/", 1)[-1] + "_fresh")
    old_database_is_taken_over(database, fresh, LEGACY_STATES[state])


def test_a_new_revision_continues_the_line(tmp_path: Path) -> None:
    """Adding a revision as docs/server.md says (on a copy of the migrations): the file is
    named by its id and revises the head; with the models unchanged it has nothing to do."""
    copy = copytree(MIGRATIONS_DIR, tmp_path / "migrations", ignore=ignore_patterns("__pycache__"))
    db = Database(f"sqlite:///{tmp_path / 'scratch.sqlite3'}")
    try:
        db.migrate()
        config = alembic_config()
        config.set_main_option("script_location", str(copy))
        with db.engine.begin() as connection:
            config.attributes["connection"] = connection
            command.revision(config, "What it adds.", autogenerate=True, rev_id=NEXT_REVISION)
    finally:
        db.close()
    made = copy / "versions" / f"{NEXT_REVISION}.py"
    text = made.read_text()
    assert f'down_revision = "{LATEST_REVISION}"' in text.replace("'", '"')
    assert "op." not in text  # the models and the migrations agree: nothing to change
    assert ScriptDirectory.from_config(config).get_heads() == [NEXT_REVISION]


@needs_postgres
def test_nodes_starting_together_on_an_old_database_take_it_over_once(database: str) -> None:
    """The advisory lock covers the stamping too: the first node stamps and upgrades, the
    others then find the new id and nothing to do."""
    legacy_database(database, ["0004_pairing", "0004_tournament"])
    databases = [Database(database) for _ in range(3)]
    try:
        with ThreadPoolExecutor(3) as pool:
            list(pool.map(lambda db: db.migrate(), databases))
        assert revisions(databases[0].engine) == {LATEST_REVISION}
        assert all(len(rows) == 2 for rows in dump(databases[0].engine, {"seeks": ["id"]}).values())
    finally:
        for db in databases:
            db.close()
