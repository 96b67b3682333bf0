"""Alembic environment: run by :meth:`doushouqi.server.db.database.Database.migrate` with an
open connection (``config.attributes["connection"]``), or by the ``alembic`` command with
``sqlalchemy.url`` set."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from doushouqi.server.db.models import Base

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
