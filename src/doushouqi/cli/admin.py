"""``doushouqi admin``: roles on the site's database, from the machine it runs on.

    doushouqi admin grant USERNAME moderator|admin
    doushouqi admin revoke USERNAME
    doushouqi admin list

The way to make a site's first admin (who then grants roles on the moderation page). It uses
the database ``doushouqi serve`` uses (the same settings: ``DOUSHOUQI_DATABASE_URL``, or the
SQLite file in the data folder), brings its schema up to date first, and logs each change in
the moderation log as the command line's. The server's modules are imported only when it runs.
"""

from __future__ import annotations

import argparse
import sys

from doushouqi.cli.extras import Subcommands

__all__ = ["add_admin"]


def add_admin(sub: Subcommands) -> None:
    p = sub.add_parser("admin", help="give site accounts roles (moderator, admin)")
    actions = p.add_subparsers(dest="action", required=True)
    grant = actions.add_parser("grant", help="give an account a role")
    grant.add_argument("username")
    grant.add_argument("role", choices=["moderator", "admin"])
    revoke = actions.add_parser("revoke", help="take an account's role away (a player again)")
    revoke.add_argument("username")
    actions.add_parser("list", help="list the moderators and admins")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from sqlalchemy.orm import Session

    from doushouqi.server.accounts import roles
    from doushouqi.server.db.database import Database
    from doushouqi.server.infra.settings import Settings
    from doushouqi.server.infra.timesource import SystemTime
    from doushouqi.server.moderation import log as modlog

    db = Database(Settings.from_env().resolved_database_url)
    try:
        db.migrate()
        if args.action == "list":
            for row in db.run_sync(roles.staff):
                print(f"{row.username}\t{row.role}")
            return 0
        role = args.role if args.action == "grant" else roles.PLAYER
        now = SystemTime().now()

        def change(session: Session) -> str:
            row, before = roles.set_role(session, args.username, role)
            entry = modlog.Entry(
                args.action,
                f"account:{row.id}",
                row.username,
                "",
                {"role": role, "before": before},
            )
            modlog.record(session, entry, moderator_id=None, moderator=modlog.COMMAND_LINE, now=now)
            return f"{row.username}: {before} -> {role}"

        try:
            print(db.run_sync(change))
        except roles.RoleError as exc:
            print(f"doushouqi admin: error: {exc}", file=sys.stderr)
            return 1
        return 0
    finally:
        db.close()
