"""One connection watching a game, as the live layer sees it: a websocket or a bot's stream.

Its own module, beneath the actors and the cluster layer, because both hand messages to it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from doushouqi.server.domain import Actor

__all__ = ["SUBSCRIBER_QUEUE", "SendNow", "Subscriber"]

#: Messages a subscriber may fall behind before it is cut off.
SUBSCRIBER_QUEUE = 512
#: Hands a text to the connection at once where it can (True), else False: then it is queued.
SendNow = Callable[[str], bool]


class Subscriber:
    """One connection watching a game: a websocket or a bot's event stream.

    Messages are JSON text, encoded once per broadcast. A subscriber that falls
    ``SUBSCRIBER_QUEUE`` messages behind is cut off (``None`` in its queue): it reconnects
    with its last version and catches up, instead of holding memory for everyone.

    A websocket's texts go straight to its connection (``send_now``: the protocol's
    ``infra/ws_protocol.py``) while nothing is ahead of them: the queue empty and its pump
    (the task that sends what is queued) not in the middle of a send. Otherwise, and whenever
    the connection cannot take a text at once (its buffer full, closing), they are queued and
    the pump sends them, in order. Waking the pump, and Starlette's and uvicorn's layers of
    ``send`` for each frame, cost more than the frame itself (docs/server.md, eighth round).
    """

    def __init__(self, identity: Actor | None, send_now: SendNow | None = None) -> None:
        self.identity = identity
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(SUBSCRIBER_QUEUE)
        self.send_now = send_now
        #: The pump took a text from the queue and has not finished sending it.
        self.sending = False
        self.cut_off = False
        #: Why the connection is to close, when it is not for falling behind: the close code
        #: and reason its socket is closed with (a bot stream just ends).
        self.closing: tuple[int, str] | None = None

    def deliver(self, text: str) -> None:
        if self.cut_off:
            return
        send_now = self.send_now
        if send_now is not None and not self.sending and self.queue.empty() and send_now(text):
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.cut_off_now()

    def close_with(self, code: int, reason: str) -> None:
        """Close the connection with ``code`` and ``reason`` (its session was ended)."""
        self.closing = (code, reason)
        self.cut_off_now()

    def cut_off_now(self) -> None:
        """Drop what is queued and tell the connection to reconnect (with ``?since=``)."""
        self.cut_off = True
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queue.put_nowait(None)
