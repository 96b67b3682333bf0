"""Alembic environment for the frozen, branching migration history that the server used before
its history was made linear (``versions/`` here are those files, unchanged). The tests build
databases with it, as the server's code of that time made them, to check that today's
:meth:`doushouqi.server.db.database.Database.migrate` takes them over. It only runs with an open
connection (``config.attributes["connection"]``) and needs no models: it only upgrades."""

from __future__ import annotations

from alembic import context


def main() -> None:
    connection = context.config.attributes["connection"]
    context.configure(connection=connection, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


if getattr(context, "config", None) is not None:
    main()
