"""The sockets and bot streams each session or API token opened on this node, so that ending
the token closes them: a signed-out browser's tabs stop acting for the account at once, not at
their next reconnect. Ending a token is told to every node (``cluster.py``,
``publish_sessions_ended``), each closing its own."""

from __future__ import annotations

from collections.abc import Collection

from doushouqi.server.live.subscriber import Subscriber

__all__ = ["SIGNED_OUT", "TokenSockets"]

#: The close code and reason of a socket whose session or token was ended (the web client's
#: site socket then waits for a new sign-in, as for 4401 at its handshake).
SIGNED_OUT = (4401, "signed out")


class TokenSockets:
    """Token id (``db/tokens.py``) → the connections opened with it here."""

    def __init__(self) -> None:
        self._open: dict[str, set[Subscriber]] = {}

    def add(self, token_id: str | None, subscriber: Subscriber) -> None:
        if token_id is not None:
            self._open.setdefault(token_id, set()).add(subscriber)

    def discard(self, token_id: str | None, subscriber: Subscriber) -> None:
        if token_id is None:
            return
        subscribers = self._open.get(token_id)
        if subscribers is not None:
            subscribers.discard(subscriber)
            if not subscribers:
                del self._open[token_id]

    def close(self, token_ids: Collection[str]) -> int:
        """Close every connection opened with one of ``token_ids``; return how many."""
        closed = 0
        for token_id in token_ids:
            for subscriber in self._open.pop(token_id, set()):
                subscriber.close_with(*SIGNED_OUT)
                closed += 1
        return closed

    def __len__(self) -> int:
        return sum(len(s) for s in self._open.values())
