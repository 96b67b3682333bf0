"""``doushouqi serve``, ``worker`` and ``explorer``: the game server's commands (the server's
modules are imported only when one runs)."""

from __future__ import annotations

import argparse

from doushouqi.cli.extras import Subcommands

__all__ = ["add_explorer", "add_serve", "add_worker"]


def add_serve(sub: Subcommands) -> None:
    # The web server (FastAPI, SQLAlchemy, uvicorn) is imported only when `serve` runs.
    p = sub.add_parser("serve", help="run the game server (web client, API, online play)")

    def serve(args: argparse.Namespace) -> int:
        from doushouqi.server.main import run_serve

        return run_serve(args)

    p.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (8000)")
    p.add_argument("--log-level", default="info", help="log level (info)")
    p.set_defaults(func=serve)


def add_worker(sub: Subcommands) -> None:
    # AI worker processes taking search jobs from Redis (engine and redis-py, no web server).
    p = sub.add_parser("worker", help="search the game server's AI jobs, taken from Redis")

    def worker(args: argparse.Namespace) -> int:
        from doushouqi.server.ai.worker import run_worker_command

        return run_worker_command(args)

    from doushouqi.server.ai.worker import add_worker_arguments

    add_worker_arguments(p)
    p.set_defaults(func=worker)


def add_explorer(sub: Subcommands) -> None:
    # `doushouqi explorer rebuild`: the server's opening explorer (argparse only until it runs).
    from doushouqi.server.explorer.cli import add_command

    add_command(sub)
