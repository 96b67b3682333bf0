"""``doushouqi serve``: run the server with uvicorn."""

from __future__ import annotations

import argparse
from typing import Any

from doushouqi.server.infra.collector import tune_collector
from doushouqi.server.infra.logcontext import install as install_logging
from doushouqi.server.infra.settings import Settings
from doushouqi.server.infra.ws_protocol import BatchedWritesProtocol

__all__ = ["run_serve", "uvicorn_options"]


def uvicorn_options(settings: Settings) -> dict[str, Any]:
    """What uvicorn needs to know of the settings (the tests' servers use it too)."""
    return {
        "ws_max_size": settings.ws_frame_limit,
        # Game messages are small; compressing each one costs more CPU than it saves.
        "ws_per_message_deflate": False,
        # uvicorn's sans-I/O websocket protocol, writing the frames of one step in one call
        # (a mover's event and its ack: one write system call a move less), and pinging
        # only the sockets not heard from for a ping interval.
        "ws": BatchedWritesProtocol,
        # The app believes X-Forwarded-* from the configured proxies itself
        # (infra/proxies.py: it must also know which requests came through one); uvicorn's
        # default would believe them from any local process, letting it pose as any address.
        "proxy_headers": False,
    }


def run_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from doushouqi.server.app import create_app

    settings = Settings.from_env()
    install_logging(args.log_level)
    host = f"[{args.host}]" if ":" in args.host else args.host
    shown = "127.0.0.1" if args.host in ("0.0.0.0", "::") else host
    where = (
        settings.database_url.split("@")[-1]
        if settings.database_url
        else settings.resolved_database_url
    )
    print(f"doushouqi server: open http://{shown}:{args.port}/  (database: {where})", flush=True)
    app = create_app(settings)
    tune_collector()  # the garbage collector took a sixth of the CPU at 400 games
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        **uvicorn_options(settings),
        # One process holds every live game's actor; more workers would split them.
        workers=1,
        timeout_graceful_shutdown=5,
    )
    return 0
