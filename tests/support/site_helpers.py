"""Helpers for tests of the site socket (``/ws/site``): open one as a player, and run a
coroutine inside a live server's event loop (to call what no route exposes, like ``notify``)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from contextlib import ExitStack
from typing import Any, TypeVar

from tests.support.live import HOST, GameSocket, LiveServer, Player
from websockets.sync.client import connect

from doushouqi.server.context import AppContext

T = TypeVar("T")


def site_socket(player: Player) -> GameSocket:
    """``player``'s site socket (the first message, ``hello``, is left to the test)."""
    stack = ExitStack()
    url = f"ws://{HOST}:{player.server.port}/ws/site"
    ws = stack.enter_context(connect(url, additional_headers=player.headers(), open_timeout=10))
    return GameSocket(ws, stack)


def same_browser(player: Player, server: LiveServer) -> Player:
    """The same user agent (its cookies) talking to another node."""
    other = server.player()
    other.cookies = dict(player.cookies)
    other.me = player.me
    return other


def in_server(
    server: LiveServer, work: Callable[[AppContext], Coroutine[Any, Any, T]], timeout: float = 10
) -> T:
    """Run ``work(ctx)`` on the server's own event loop and return its result."""
    loop = server.server.servers[0].get_loop()
    ctx: AppContext = server.app.state.ctx
    return asyncio.run_coroutine_threadsafe(work(ctx), loop).result(timeout)
