"""The websocket protocol the server runs under: uvicorn's sans-I/O one, with the frames that
the app sends in one step of the event loop written by one system call.

A move's mover hears two frames (its event, then the ``ack`` of its message), sent one after
the other by the socket's pump in one step. uvicorn writes each frame as it is sent: a
``write`` system call per frame, each waking the client's side (on a busy machine the server
is often descheduled there, holding the GIL; docs/server.md, fifth round). Here a data
frame is handed to the connection's sans-I/O state (``websockets``), which buffers its bytes
in order, and the bytes are written once the step is over (``loop.call_soon``): what the
step sent, in one write.

uvicorn pings every socket every ``ws_ping_interval`` seconds (20) and closes one whose pong
does not come within ``ws_ping_timeout`` (20): that is how a peer gone without a word (a
network cut, a laptop closed) is found, and the app's presence relies on it (the socket's
end is the player's disconnection). Any bytes from the peer say as much as a pong: here the
ping is put off until an interval after the peer was last heard from, so a player who moves
at least that often is not pinged at all, and a silent one is pinged as before. A peer that
dies is still found at most an interval and a timeout after it was last heard from, as
under uvicorn. (A pong also proves that our frames reach the peer; a player's messages
answer the frames it received, the opponent's moves, which says the same in play.) The ping
is uvicorn's, its payload drawn from a generator of this module's own rather than the
process-wide one, which belongs to whoever hosts the server.

A frame may also be handed over without going through the app's ``send`` at all: the
protocol offers :meth:`BatchedWritesProtocol.send_now` to the app under the scope's extension
:data:`SEND_NOW`. It takes a text frame at once when ``send`` would have taken it without
waiting (the connection open, accepted, not closing, the transport writable) and answers
False otherwise, when the app sends it the usual way (``await send``), which waits or fails as
before. A game socket's texts go so (``live/subscriber.py``): no queue, no pump task to wake,
none of Starlette's layers per frame.

uvicorn pauses reading from the socket with every message received and resumes it when the
app takes it (each a change of the event loop's watcher on the socket: a call into libuv and
a system call to the kernel, twice a move). Here reading pauses only once
:data:`RECEIVE_BACKLOG` messages wait for the app, and resumes, as under uvicorn, when the app
has taken them all: a client that sends faster than the app reads is still held back, with a
few messages more in memory.

Nothing else changes: every other path of uvicorn's protocol (the handshake, close frames,
pings and pongs) takes the connection's buffered bytes as it always did, so a frame sent
before a close still goes out before it, and in order; flow control (``writable``) and a
client that left (``ClientDisconnected``) are checked as uvicorn checks them.
"""

from __future__ import annotations

import asyncio
import random
import struct
from typing import Any

from uvicorn.protocols.utils import ClientDisconnected
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState

__all__ = ["SEND_NOW", "BatchedWritesProtocol"]

#: The scope's extension under which the protocol offers :meth:`BatchedWritesProtocol.send_now`.
SEND_NOW = "doushouqi.send_now"
#: Messages received and not yet taken by the app at which reading from the socket pauses.
RECEIVE_BACKLOG = 8

_rng = random.Random()  # its own: the process-wide generator is its host's (tests, tools)
_PING_PAYLOAD = struct.Struct("!I")


class BatchedWritesProtocol(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O websocket protocol, writing a step's data frames with one call and
    pinging only a peer not heard from for a ping interval."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._flush_handle: asyncio.Handle | None = None
        #: When the peer last sent anything (the loop's clock).
        self._heard_at = self.loop.time()

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)  # none when the handshake was refused
        if scope is not None:
            scope["extensions"][SEND_NOW] = self.send_now

    def data_received(self, data: bytes) -> None:
        self._heard_at = self.loop.time()
        super().data_received(data)

    def send_receive_event_to_app(self) -> None:
        if self.read_paused:
            super().send_receive_event_to_app()
            return
        # uvicorn's queues the message and then pauses reading unless it is paused already:
        # told that it is, it leaves the transport alone; it is paused here once enough wait.
        self.read_paused = True
        try:
            super().send_receive_event_to_app()
        finally:
            self.read_paused = False
        if self.queue.qsize() >= RECEIVE_BACKLOG and not self.transport.is_closing():
            self.read_paused = True
            self.transport.pause_reading()

    def send_keepalive_ping(self) -> None:
        self.ping_timer = None
        if self.close_sent or self.transport.is_closing():
            return
        due = self._heard_at + (self.ping_interval or 0.0)
        if due > self.loop.time():
            self.ping_timer = self.loop.call_at(due, self.send_keepalive_ping)  # heard lately
            return
        # uvicorn's ping, but its payload (which names the ping its pong must echo) drawn from
        # this module's generator: uvicorn draws it from the process-wide one, which belongs
        # to whoever hosts the server (a test's Hypothesis sees its own draws disturbed).
        self.pending_ping_payload = _PING_PAYLOAD.pack(_rng.getrandbits(32))
        self.ping_sent_at = self.loop.time()
        self.conn.send_ping(self.pending_ping_payload)
        self.transport.write(b"".join(self.conn.data_to_send()))
        if self.ping_timeout is not None:
            self.pong_timer = self.loop.call_later(self.ping_timeout, self.keepalive_timeout)
        else:
            self.schedule_ping()

    async def send(self, message: Any) -> None:
        if message["type"] != "websocket.send":
            await super().send(message)
            return
        await self.writable.wait()
        if self.disconnected:
            raise ClientDisconnected()
        if not self.handshake_complete or self.close_sent or self.initial_response is not None:
            await super().send(message)  # uvicorn's answer to a send out of place
            return
        try:
            data = message.get("bytes")
            if data is not None:
                self.conn.send_binary(data)
            else:
                text = message.get("text")
                if text is not None:
                    self.conn.send_text(text.encode())
        except InvalidState:  # the client closed meanwhile
            raise ClientDisconnected() from None
        if self._flush_handle is None:
            self._flush_handle = self.loop.call_soon(self._flush)

    def send_now(self, text: str) -> bool:
        """Send the text frame ``text`` now, as :meth:`send` would (written at the end of the
        step with the step's other frames), where it would not wait: True when taken. False
        when it is not the moment (not yet accepted, closing or gone, or the transport's
        buffer full): send it through :meth:`send`, which waits, refuses or fails as ever."""
        if (
            not self.writable.is_set()
            or self.disconnected
            or not self.handshake_complete
            or self.close_sent
            or self.initial_response is not None
        ):
            return False
        try:
            self.conn.send_text(text.encode())
        except InvalidState:  # the client closed meanwhile: send's path says so
            return False
        if self._flush_handle is None:
            self._flush_handle = self.loop.call_soon(self._flush)
        return True

    def _flush(self) -> None:
        self._flush_handle = None
        if self.transport.is_closing():
            return  # gone: nothing can be written (uvicorn would drop it too)
        output = self.conn.data_to_send()
        if output:
            self.transport.write(b"".join(output))
