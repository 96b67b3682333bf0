"""A TCP proxy between a browser and a test server that a test cuts on demand.

Every connection is passed through byte for byte, in both directions, each on two threads. The
test may ``hold`` the websockets to a path (a game's, ``/ws/games/``): from then on what the
server sends on them stays in the proxy, while what the client sends still reaches the server.
``sever`` then closes them at both ends and drops what was held: the server has handled the
client's message, and its answer is lost on the way, as when a network drops at the wrong
moment. New connections (the client's reconnect) pass freely again, unless the test ``block``s
the path: then they are closed as soon as they ask, until it is ``unblock``ed (a network that
stays down). HTTP connections are never held or cut.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from types import TracebackType

from tests.support.live import HOST

_CHUNK = 65536


class _Link:
    """One client connection and its connection to the server."""

    def __init__(self, client: socket.socket, server: socket.socket) -> None:
        self.client = client
        self.server = server
        self.websocket = False  # an upgrade request was seen in its first bytes
        self.path = ""  # the path of its first request
        self.flowing = threading.Event()  # clear: the server's bytes are held here
        self.flowing.set()
        self.cut = False

    def close(self) -> None:
        self.cut = True
        for sock in (self.client, self.server):
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()
        self.flowing.set()  # wake a held pump: it finds the link cut and drops what it holds


class SeverableProxy:
    """Listens on a free loopback port and forwards to ``HOST:upstream_port``."""

    def __init__(self, upstream_port: int) -> None:
        self.upstream_port = upstream_port
        self.listener = socket.create_server((HOST, 0))
        self.port: int = self.listener.getsockname()[1]
        self.links: list[_Link] = []
        self.lock = threading.Lock()
        self.closed = False
        self.blocked: set[str] = set()  # websocket paths refused for now
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    def websockets(self, path: str) -> list[_Link]:
        """The open websockets whose path starts with ``path``."""
        with self.lock:
            return [
                link
                for link in self.links
                if link.websocket and link.path.startswith(path) and not link.cut
            ]

    def hold(self, path: str = "/ws/games/") -> int:
        """Keep what the server sends on the open websockets to ``path`` from here on; how
        many there are."""
        links = self.websockets(path)
        for link in links:
            link.flowing.clear()
        return len(links)

    def sever(self, path: str = "/ws/games/") -> int:
        """Close the open websockets to ``path`` at both ends, dropping what was held; how
        many there were."""
        links = self.websockets(path)
        for link in links:
            link.close()
        return len(links)

    def block(self, path: str = "/ws/games/") -> int:
        """Sever the websockets to ``path`` and refuse new ones until ``unblock``; how many
        were severed."""
        self.blocked.add(path)
        return self.sever(path)

    def unblock(self, path: str = "/ws/games/") -> None:
        self.blocked.discard(path)

    def close(self) -> None:
        self.closed = True
        self.listener.close()
        with self.lock:
            links, self.links = self.links, []
        for link in links:
            link.close()

    def __enter__(self) -> SeverableProxy:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # ----- the threads ------------------------------------------------------------------
    def _accept(self) -> None:
        while not self.closed:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return  # closed
            try:
                server = socket.create_connection((HOST, self.upstream_port), timeout=10)
            except OSError:
                client.close()  # the server is down: the client sees the connection fail
                continue
            server.settimeout(None)
            link = _Link(client, server)
            with self.lock:
                self.links = [known for known in self.links if not known.cut] + [link]
            threading.Thread(target=self._upstream, args=(link,), daemon=True).start()
            threading.Thread(target=self._downstream, args=(link,), daemon=True).start()

    def _upstream(self, link: _Link) -> None:
        """Client → server, always; the first request's head tells whether it is a websocket."""
        head: bytes | None = b""
        try:
            while data := link.client.recv(_CHUNK):
                if head is not None:
                    head += data
                    if b"\r\n\r\n" in head:
                        link.websocket = b"\r\nupgrade: websocket" in head.lower()
                        link.path = head.split(b" ", 2)[1].decode("latin-1")
                        head = None
                        if link.websocket and any(map(link.path.startswith, self.blocked)):
                            break  # the network is down for it
                link.server.sendall(data)
        except OSError:
            pass
        link.close()

    def _downstream(self, link: _Link) -> None:
        """Server → client, unless held: bytes read while held wait, and die with a cut."""
        try:
            while data := link.server.recv(_CHUNK):
                link.flowing.wait()
                if link.cut:
                    return
                link.client.sendall(data)
        except OSError:
            pass
        link.close()
