"""The websocket protocol the server runs under (``infra/ws_protocol.py``): the frames an app
sends in one step of the event loop leave in one write, complete and in order; frames sent
over several steps, a close right after frames, and a client that left behave as under
uvicorn's own protocol; a peer heard from lately is not pinged, a silent one is (the ping's
payload not drawn from the process-wide random generator), and one that answers nothing is
closed; reading pauses only for a backlog of messages the app has not taken; a frame handed
over at once (``send_now``) goes out with the step's others, and one that cannot go at once is
left to ``send``. A real uvicorn server on loopback, a real websockets client; the transport is
wrapped only to count the writes it is given."""

from __future__ import annotations

import asyncio
import random
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import uvicorn
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from doushouqi.server.infra.settings import Settings
from doushouqi.server.infra.ws_protocol import RECEIVE_BACKLOG, SEND_NOW, BatchedWritesProtocol
from doushouqi.server.main import uvicorn_options

#: Every write the server's websocket transports were given, in order.
WRITES: list[bytes] = []
#: What the app saw when it sent to a client that had left.
SEND_ERRORS: list[BaseException] = []
#: The transports' pauses and resumptions of reading, in order.
READING: list[str] = []


class _CountingTransport:
    """The real transport, its writes recorded on their way through."""

    def __init__(self, transport: Any) -> None:
        self._transport = transport

    def write(self, data: bytes) -> None:
        WRITES.append(bytes(data))
        self._transport.write(data)

    def pause_reading(self) -> None:
        READING.append("pause")
        self._transport.pause_reading()

    def resume_reading(self) -> None:
        READING.append("resume")
        self._transport.resume_reading()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


class _CountedProtocol(BatchedWritesProtocol):
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(_CountingTransport(transport))  # type: ignore[arg-type]


async def _app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """``burst N``: N frames in one step; ``steps N``: N frames, one a step; ``close``: two
    frames and the close, in one step; ``wait``: frames until the client is gone."""
    assert scope["type"] == "websocket"
    await receive()  # websocket.connect
    await send({"type": "websocket.accept"})
    while True:
        message = await receive()
        if message["type"] == "websocket.disconnect":
            return
        word, _, count = message["text"].partition(" ")
        if word == "burst":
            WRITES.clear()
            for i in range(int(count)):
                await send({"type": "websocket.send", "text": f"frame {i}"})
        elif word == "steps":
            for i in range(int(count)):
                await send({"type": "websocket.send", "text": f"frame {i}"})
                await asyncio.sleep(0)
        elif word == "close":
            await send({"type": "websocket.send", "text": "first"})
            await send({"type": "websocket.send", "bytes": b"second"})
            await send({"type": "websocket.close", "code": 4000, "reason": "done"})
            return
        elif word == "nap":
            await asyncio.sleep(0.5)
            texts = [(await receive())["text"] for _ in range(int(count))]
            await send({"type": "websocket.send", "text": ",".join(texts)})
        elif word == "now":
            send_now = scope["extensions"][SEND_NOW]  # type: ignore[index]
            WRITES.clear()
            assert send_now("one") and send_now("two")
            await send({"type": "websocket.send", "text": "three"})
        elif word == "wait":
            try:
                for _ in range(500):
                    await send({"type": "websocket.send", "text": "still here"})
                    await asyncio.sleep(0.01)
            except OSError as exc:  # uvicorn's ClientDisconnected
                SEND_ERRORS.append(exc)
            return


@contextmanager
def _server(
    change: Callable[[dict[str, Any]], dict[str, Any]] = lambda options: options,
) -> Iterator[str]:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    options = change({**uvicorn_options(Settings()), "ws": _CountedProtocol})
    config = uvicorn.Config(_app, log_level="warning", lifespan="off", **options)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]})
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.01)
    try:
        yield f"ws://127.0.0.1:{port}/"
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        sock.close()


def test_the_server_runs_under_the_batched_writes_protocol() -> None:
    assert uvicorn_options(Settings())["ws"] is BatchedWritesProtocol


def test_the_frames_of_one_step_leave_in_one_write_complete_and_in_order() -> None:
    with _server() as url, connect(url) as ws:
        ws.send("burst 3")
        assert [ws.recv(timeout=5) for _ in range(3)] == ["frame 0", "frame 1", "frame 2"]
        assert len(WRITES) == 1
        for i in range(3):
            assert f"frame {i}".encode() in WRITES[0]


def test_frames_sent_over_several_steps_all_arrive_in_order() -> None:
    with _server() as url, connect(url) as ws:
        ws.send("steps 20")
        assert [ws.recv(timeout=5) for _ in range(20)] == [f"frame {i}" for i in range(20)]


def test_a_close_right_after_frames_follows_them() -> None:
    with _server() as url, connect(url) as ws:
        ws.send("close")
        assert ws.recv(timeout=5) == "first"
        assert ws.recv(timeout=5) == b"second"
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=5)
        assert closed.value.rcvd is not None
        assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (4000, "done")


def test_frames_handed_over_at_once_leave_with_the_steps_others_in_order() -> None:
    with _server() as url, connect(url) as ws:
        ws.send("now")
        assert [ws.recv(timeout=5) for _ in range(3)] == ["one", "two", "three"]
        assert len(WRITES) == 1


def test_reading_pauses_only_for_a_backlog_and_every_message_arrives_in_order() -> None:
    with _server() as url, connect(url) as ws:
        READING.clear()
        for _ in range(10):  # one message at a time, each taken by the app: never paused
            ws.send("steps 1")
            assert ws.recv(timeout=5) == "frame 0"
        assert READING == []
        count = 3 * RECEIVE_BACKLOG
        ws.send(f"nap {count}")
        for i in range(count):  # sent while the app sleeps: reading pauses, then resumes
            ws.send(f"message {i}")
        assert ws.recv(timeout=5) == ",".join(f"message {i}" for i in range(count))
        assert READING[:2] == ["pause", "resume"]


def test_sending_to_a_client_that_left_raises_as_under_uvicorn() -> None:
    SEND_ERRORS.clear()
    with _server() as url:
        with connect(url) as ws:
            ws.send("wait")
            assert ws.recv(timeout=5) == "still here"
        deadline = time.monotonic() + 10
        while not SEND_ERRORS and time.monotonic() < deadline:
            time.sleep(0.02)
    assert SEND_ERRORS and isinstance(SEND_ERRORS[0], OSError)


# ---------------------------------------------------------------- pings


def _pings() -> int:
    """Ping frames among the writes (a server frame's first byte: FIN and opcode 9)."""
    return sum(1 for data in WRITES if data[:1] == b"\x89")


def _fast_pings(options: dict[str, Any]) -> dict[str, Any]:
    return {**options, "ws_ping_interval": 0.5, "ws_ping_timeout": 0.5}


def test_a_peer_that_keeps_talking_is_not_pinged_and_a_silent_one_is() -> None:
    with _server(_fast_pings) as url, connect(url) as ws:
        WRITES.clear()
        for _ in range(30):  # a message every 50 ms for 1.5 s: three intervals
            ws.send("steps 1")
            assert ws.recv(timeout=5) == "frame 0"
            time.sleep(0.05)
        assert _pings() == 0
        time.sleep(2.0)  # silent for four intervals: pinged (and the client answers)
        assert _pings() >= 2
        ws.send("steps 1")
        assert ws.recv(timeout=5) == "frame 0"  # still open: the pongs came


def test_pings_leave_the_process_wide_random_generator_alone() -> None:
    # uvicorn draws a ping's payload from the process-wide generator; the server's own must
    # not, since a host (here: the test run, and Hypothesis in it) owns that one.
    with _server(_fast_pings) as url, connect(url) as ws:
        random.seed(32)
        before = random.getstate()
        WRITES.clear()
        time.sleep(1.6)  # silent for three intervals: pinged, and the pongs accepted
        assert _pings() >= 2
        assert random.getstate() == before
        ws.send("steps 1")
        assert ws.recv(timeout=5) == "frame 0"


def test_a_peer_that_answers_nothing_is_closed_after_the_ping_timeout() -> None:
    with _server(_fast_pings) as url:
        port = int(url.rsplit(":", 1)[1].strip("/"))
        with socket.create_connection(("127.0.0.1", port), timeout=5) as raw:
            raw.sendall(
                b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                b"Sec-WebSocket-Version: 13\r\n\r\n"
            )
            started = time.monotonic()
            received = b""
            while chunk := raw.recv(4096):  # never answers: read until the server closes
                received += chunk
            assert b" 101 " in received.split(b"\r\n", 1)[0]
            assert time.monotonic() - started < 5  # an interval and a timeout, with room
