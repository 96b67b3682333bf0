"""``doushouqi explorer rebuild``: count every stored game into the opening explorer's index
again (server/explorer.py), e.g. after an upgrade that brought the explorer to an existing
site. Registered by cli/server.py; the server's modules are imported only when it runs."""

from __future__ import annotations

import argparse


def add_command(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``doushouqi explorer rebuild``: the CLI's subcommand (cli/server.py registers it)."""
    p = sub.add_parser("explorer", help="the game server's opening explorer")
    p.add_argument("action", choices=["rebuild"], help="rebuild: count every stored game again")

    def run(args: argparse.Namespace) -> int:
        from doushouqi.server.db.database import Database
        from doushouqi.server.explorer.service import rebuild
        from doushouqi.server.infra.settings import Settings

        db = Database(Settings.from_env().resolved_database_url)
        try:
            db.migrate()
            counted = db.run_sync(rebuild)
        finally:
            db.close()
        print(f"opening explorer: {counted} games counted")
        return 0

    p.set_defaults(func=run)
