"""``doushouqi backup FILE`` and ``doushouqi restore FILE``: the site's database, saved and put
back (docs/deploy.md, "Backups"). The database is the server's own: the same settings
(``DOUSHOUQI_DATA_DIR``, ``DOUSHOUQI_DATABASE_URL``) name it. The server's modules are imported
only when one runs."""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

from doushouqi.cli.extras import Subcommands

__all__ = ["add_backup", "add_restore"]

_POSTGRES_BACKUP = """\
doushouqi backup: the site's database is PostgreSQL: back it up with pg_dump, which takes a
consistent copy while the nodes keep serving (docs/deploy.md, "Backups"):

    {command}

(the password, if any, from PGPASSWORD or ~/.pgpass)"""

_POSTGRES_RESTORE = """\
doushouqi restore: the site's database is PostgreSQL: stop every node, make an empty database
and restore the dump into it with pg_restore (docs/deploy.md, "Backups"):

    {command}

then start the nodes: they upgrade the schema if the dump is older.
(the password, if any, from PGPASSWORD or ~/.pgpass)"""


def _database_url() -> str:
    from doushouqi.server.infra.settings import Settings

    return Settings.from_env().resolved_database_url


def _is_sqlite(url: str) -> bool:
    return url.startswith("sqlite")


def add_backup(sub: Subcommands) -> None:
    p = sub.add_parser(
        "backup",
        help="copy the site's SQLite database to FILE (safe while the server runs)",
        description="Copy the server's SQLite database (DOUSHOUQI_DATA_DIR, "
        "DOUSHOUQI_DATABASE_URL) to FILE, consistently, while the server goes on serving. "
        "For PostgreSQL it prints the pg_dump command to run instead (exit status 2).",
    )
    p.add_argument("file", type=Path, help="the backup file to write")
    p.add_argument("--force", action="store_true", help="replace FILE if it exists")

    def backup(args: argparse.Namespace) -> int:
        from doushouqi.server.db.backup import BackupError, backup_sqlite, postgres_commands

        url = _database_url()
        if not _is_sqlite(url):
            dump, _ = postgres_commands(url, str(args.file))
            print(_POSTGRES_BACKUP.format(command=shlex.join(dump)), file=sys.stderr)
            return 2
        try:
            summary = backup_sqlite(url, args.file, overwrite=args.force)
        except BackupError as exc:
            print(f"doushouqi backup: error: {exc}", file=sys.stderr)
            return 1
        print(f"backed up to {args.file}: {summary}")
        return 0

    p.set_defaults(func=backup)


def add_restore(sub: Subcommands) -> None:
    p = sub.add_parser(
        "restore",
        help="replace the site's SQLite database with a backup (the server must be stopped)",
        description="Replace the server's SQLite database with FILE, a backup made by "
        "`doushouqi backup`: refused while a server is using the database, and unless FILE "
        "is a doushouqi database of a schema revision this version knows (an older one is "
        "upgraded). The database it replaces is kept beside it as "
        "NAME.before-restore-TIME. For PostgreSQL it prints the pg_restore command instead "
        "(exit status 2).",
    )
    p.add_argument("file", type=Path, help="the backup file to restore")

    def restore(args: argparse.Namespace) -> int:
        from doushouqi.server.db.backup import BackupError, postgres_commands, restore_sqlite

        url = _database_url()
        if not _is_sqlite(url):
            _, command = postgres_commands(url, str(args.file))
            print(_POSTGRES_RESTORE.format(command=shlex.join(command)), file=sys.stderr)
            return 2
        try:
            restored = restore_sqlite(args.file, url)
        except BackupError as exc:
            print(f"doushouqi restore: error: {exc}", file=sys.stderr)
            return 1
        print(f"restored {args.file}: {restored.summary}")
        if restored.upgraded_from is not None:
            print(f"  upgraded from schema {restored.upgraded_from}")
        if restored.kept is not None:
            print(f"  the database it replaced is kept as {restored.kept}")
        return 0

    p.set_defaults(func=restore)
