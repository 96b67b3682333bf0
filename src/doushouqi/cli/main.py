"""The ``doushouqi`` command: a table of subcommands, one module per group.

Each group's module (``rules``, ``play``, ``server``, ``tablebase``) adds its subparsers, whose
``func`` runs the command; a new group is one more entry in :data:`COMMANDS`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from importlib import metadata

from doushouqi.cli import backup, play, rules, server
from doushouqi.cli.admin import add_admin
from doushouqi.cli.compile import add_compile
from doushouqi.cli.extras import EXTRAS, MissingExtraError, Subcommands
from doushouqi.cli.tablebase import add_tablebase

__all__ = ["COMMANDS", "main"]


def _version() -> str:
    try:
        return metadata.version("doushouqi")
    except metadata.PackageNotFoundError:
        return "unknown (not installed)"


#: Subcommand registrars; each adds one subparser whose ``func`` runs it.
COMMANDS: list[Callable[[Subcommands], None]] = [
    rules.add_perft,
    rules.add_rules,
    play.add_play,
    play.add_match,
    play.add_engine,
    server.add_serve,
    server.add_worker,
    server.add_explorer,
    backup.add_backup,
    backup.add_restore,
    add_admin,
    add_tablebase,
    add_compile,
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="doushouqi", description="Jungle (斗兽棋) tools")
    parser.add_argument("--version", action="version", version=f"doushouqi {_version()}")
    sub = parser.add_subparsers(dest="command", required=True)
    for register in COMMANDS:
        register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        result: int = args.func(args)
    except MissingExtraError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except ModuleNotFoundError as exc:
        # A third-party module missing deeper down: name the extra that brings it.
        module = (exc.name or "").partition(".")[0]
        if module not in EXTRAS:
            raise
        print(f"error: {MissingExtraError(module, args.command)}", file=sys.stderr)
        return 2
    except (ValueError, OSError) as exc:  # bad positions, rule files, moves: a clear message
        print(f"doushouqi {args.command}: error: {exc}", file=sys.stderr)
        return 2
    return result


if __name__ == "__main__":
    sys.exit(main())
