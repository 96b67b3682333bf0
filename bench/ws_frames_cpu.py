"""A mover's two frames (its event and its ack) through uvicorn: the server's CPU a message.

A uvicorn server (uvloop, httptools) in a process of its own, with a bare ASGI app that
answers each text message with the two frames a mover hears after a move: a ``move_made``
of the site's size and an ``ack``, sent one after the other as the game socket's pump sends
them. Its websocket protocol is uvicorn's sans-I/O one (``uvicorn``) or the server's
``BatchedWritesProtocol`` (``batched``: the frames of one step in one write). Two more
servers run the game socket's way of sending (``--sides queued,direct``), under the batched
protocol: a Starlette websocket whose frames are delivered to a ``Subscriber`` and sent by
the socket's pump task (``queued``, as before the eighth round), or handed to the
connection at once by ``Subscriber.deliver`` through the protocol's ``send_now`` (``direct``).
Clients in
this process send messages over many sockets and wait for both answers; the server's CPU
time (user and system, from ``/proc``) over the messages is the figure, best of the rounds,
the protocols taking turns. The machine's other work slows the run but not the server's CPU
a message much: each side's rounds are compared, not absolute numbers.

    PYTHONPATH=src .venv/bin/python bench/ws_frames_cpu.py --rounds 5
    PYTHONPATH=src .venv/bin/python bench/ws_frames_cpu.py --rounds 5 --sides queued,direct
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import subprocess
import sys
import time

import websockets

#: A ``move_made`` as the site sends it (about 600 bytes: the destinations, clocks, names).
EVENT = (
    '{"type":"move_made","game_id":"' + "g" * 22 + '","version":41,"color":0,"move":"c3c4",'
    '"readable":"Lc3-c4","readable_zh":"狮c3-c4","ply":40,"at":1767000000.123,'
    '"fen":"l5t/1d3c1/r1p1w1e/7/2L4/7/E1W1P1R/1C3D1/T5L b","to_move":1,"dests":{'
    + ",".join(f'"{c}{r}":["{c}{r + 1}","{c}{r - 1}"]' for c in "abcdefg" for r in (2, 5, 8))
    + '},"clocks":{"remaining":[281.5,290.25],"move_time_left":null,"to_move":1,'
    '"running":true,"timeouts":[0,0]},"move_id":"5f1c2a9e-41"}'
)
ACK = '{"type":"ack","game_id":"' + "g" * 22 + '","version":41,"id":"5f1c2a9e-41"}'


async def app(scope: dict[str, object], receive: object, send: object) -> None:
    assert scope["type"] == "websocket"
    await receive()  # type: ignore[operator]
    await send({"type": "websocket.accept"})  # type: ignore[operator]
    while True:
        message = await receive()  # type: ignore[operator]
        if message["type"] == "websocket.disconnect":
            return
        await send({"type": "websocket.send", "text": EVENT})  # type: ignore[operator]
        await send({"type": "websocket.send", "text": ACK})  # type: ignore[operator]


def game_socket_app(direct: bool) -> object:
    """A Starlette app whose socket sends as the game socket does (``live/ws.py``): each
    message's two frames delivered to its ``Subscriber``; ``direct``: with the protocol's
    ``send_now``, else queued for the pump task."""
    from starlette.applications import Starlette
    from starlette.routing import WebSocketRoute
    from starlette.websockets import WebSocket

    from doushouqi.server.live import ws as game_ws
    from doushouqi.server.live.subscriber import Subscriber

    async def socket(websocket: WebSocket) -> None:
        await websocket.accept()
        send_now = game_ws._send_now(websocket) if direct else None
        subscriber = Subscriber(None, send_now)
        pump = asyncio.create_task(game_ws._pump(websocket, subscriber))
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    return
                subscriber.deliver(EVENT)
                subscriber.deliver(ACK)
        finally:
            pump.cancel()

    return Starlette(routes=[WebSocketRoute("/", socket)])


def serve(protocol: str, port: int) -> None:
    import uvicorn

    from doushouqi.server.infra.ws_protocol import BatchedWritesProtocol

    ws: object = "websockets-sansio" if protocol == "uvicorn" else BatchedWritesProtocol
    target: object = "ws_frames_cpu:app"
    if protocol in ("queued", "direct"):
        target = game_socket_app(direct=protocol == "direct")
    uvicorn.run(
        target,  # type: ignore[arg-type]
        port=port,
        log_level="warning",
        ws=ws,  # type: ignore[arg-type]
        ws_per_message_deflate=False,
        loop="uvloop",
        http="httptools",
    )


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def load(port: int, sockets: int, messages: int, pid: int) -> float:
    clients = [await websockets.connect(f"ws://127.0.0.1:{port}/") for _ in range(sockets)]

    async def play(ws: websockets.ClientConnection, count: int) -> None:
        for _ in range(count):
            await ws.send('{"type":"move","move":"c3c4","id":"5f1c2a9e-41"}')
            await ws.recv()
            await ws.recv()

    await play(clients[0], 50)  # warm
    before = cpu_seconds(pid)
    await asyncio.gather(*(play(ws, messages // sockets) for ws in clients))
    used = cpu_seconds(pid) - before
    for ws in clients:
        await ws.close()
    return used / (messages // sockets * sockets)


def measure(protocol: str, sockets: int, messages: int) -> float:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    here = os.path.dirname(os.path.abspath(__file__))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([here, os.environ.get("PYTHONPATH", "")])}
    server = subprocess.Popen([sys.executable, __file__, "--serve", protocol, str(port)], env=env)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise SystemExit("the server did not start") from None
                time.sleep(0.1)
        return asyncio.run(load(port, sockets, messages, server.pid))
    finally:
        server.terminate()
        server.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--sockets", type=int, default=100)
    parser.add_argument("--messages", type=int, default=20000)
    parser.add_argument(
        "--sides", default="uvicorn,batched", help="servers compared: uvicorn,batched,queued,direct"
    )
    parser.add_argument("--serve", nargs=2, metavar=("PROTOCOL", "PORT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve[0], int(args.serve[1]))
        return
    runs: dict[str, list[float]] = {side: [] for side in args.sides.split(",")}
    for _ in range(args.rounds):
        for protocol, results in runs.items():
            results.append(measure(protocol, args.sockets, args.messages) * 1e6)
    print(f"server CPU a message (µs; {args.messages} messages over {args.sockets} sockets)")
    for protocol, results in runs.items():
        shown = ", ".join(f"{r:.1f}" for r in results)
        print(f"  {protocol:8} best {min(results):6.1f}   runs {shown}")
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
