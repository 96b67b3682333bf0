"""Alembic environment: run by :meth:`doushouqi.server.db.database.Database.migrate` with an
open connection (``config.attributes["connection"]``), or by the ``alembic`` command with
``sqlalchemy.url`` set."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from doushouqi.server.chat import models as chat_tables
from doushouqi.server.db.models import Base
from doushouqi.server.explorer import models as explorer_tables
from doushouqi.server.moderation import models as moderation_tables
from doushouqi.server.notifications import models as notification_tables
from doushouqi.server.pairing import models as pairing_tables
from doushouqi.server.puzzles import models as puzzle_tables
from doushouqi.server.review import models as review_tables
from doushouqi.server.tournaments import models as tournament_tables

# Every table of the site: the core ones and each feature's (their modules register them on
# Base.metadata when imported; the migrations are the only place that needs all of them).
FEATURE_TABLES = (
    chat_tables,
    explorer_tables,
    moderation_tables,
    notification_tables,
    pairing_tables,
    puzzle_tables,
    review_tables,
    tournament_tables,
)
target_metadata = Base.metadata


def _run(connection: object) -> None:
    context.configure(
        connection=connection,  # type: ignore[arg-type]
        target_metadata=target_metadata,
        # SQLite cannot ALTER most things in place: batch mode copies the table instead.
        render_as_batch=True,
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def main() -> None:
    config = context.config
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    url = config.get_main_option("sqlalchemy.url")
    if not url:
        raise RuntimeError("set sqlalchemy.url or pass a connection")
    with create_engine(url).begin() as conn:
        _run(conn)


# Alembic runs this file with its context set up; anything else (a test collector, say)
# only imports it and must not fail.
if getattr(context, "config", None) is not None:
    main()
