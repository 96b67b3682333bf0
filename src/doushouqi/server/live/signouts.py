"""The sockets and bot streams each session or API token opened on this node, so that ending
the token closes them: a signed-out browser's tabs stop acting for the account at once, not at
their next reconnect. Ending a token is told to every node (``cluster.py``,
``publish_sessions_ended``), each closing its own. A token that expires ends by itself: each
node closes its sockets at the moment it stops logging anyone in (a timer per token here).

A connection is noted once its handshake has read its token as valid, a few awaits later; a
token ended in between would miss it. So each node remembers the tokens it ended for a while
(``ENDED_REMEMBERED``), and a connection noted with one of them closes at once."""

from __future__ import annotations

from collections.abc import Collection
from typing import Protocol

from doushouqi.server.infra.timesource import Cancellable, TimeSource
from doushouqi.server.live.subscriber import Subscriber

__all__ = ["ENDED_REMEMBERED", "SIGNED_OUT", "OpenedWith", "TokenSockets"]

#: The close code and reason of a socket whose session or token was ended (the web client's
#: site socket then waits for a new sign-in, as for 4401 at its handshake).
SIGNED_OUT = (4401, "signed out")
#: Seconds an ended token is remembered here: longer than any handshake takes.
ENDED_REMEMBERED = 60.0


class OpenedWith(Protocol):
    """What a connection was opened with (``accounts.auth.Caller``): its token's public id
    (None: a guest's, which no sign-out ends) and when that token expires (None: never)."""

    @property
    def token_id(self) -> str | None: ...

    @property
    def expires_at(self) -> float | None: ...


def _token_id(opened_with: OpenedWith | None) -> str | None:
    return None if opened_with is None else opened_with.token_id


class TokenSockets:
    """Token id (``db/tokens.py``) → the connections opened with it here."""

    def __init__(self, time: TimeSource) -> None:
        self._time = time
        self._open: dict[str, set[Subscriber]] = {}
        #: Token id → the timer that closes its connections when it expires.
        self._expiry: dict[str, Cancellable] = {}
        #: Token id → when it was ended here (oldest first), for ``ENDED_REMEMBERED``.
        self._ended: dict[str, float] = {}

    def add(self, opened_with: OpenedWith | None, subscriber: Subscriber) -> None:
        """Note a connection; it closes when its token is ended or expires. Called in the
        event loop (the expiry is a loop timer)."""
        token_id = _token_id(opened_with)
        if opened_with is None or token_id is None:
            return
        if token_id in self._ended:  # ended while this connection was being opened
            subscriber.close_with(*SIGNED_OUT)
            return
        self._open.setdefault(token_id, set()).add(subscriber)
        expires_at = opened_with.expires_at
        if expires_at is not None and token_id not in self._expiry:

            def expired() -> None:
                self.close([token_id])

            self._expiry[token_id] = self._time.call_at(expires_at, expired)

    def discard(self, opened_with: OpenedWith | None, subscriber: Subscriber) -> None:
        token_id = _token_id(opened_with)
        if token_id is None:
            return
        subscribers = self._open.get(token_id)
        if subscribers is not None:
            subscribers.discard(subscriber)
            if not subscribers:
                del self._open[token_id]
                self._forget_expiry(token_id)

    def close(self, token_ids: Collection[str]) -> int:
        """Close every connection opened with one of ``token_ids``; return how many."""
        closed = 0
        now = self._time.now()
        self._forget_ended_before(now - ENDED_REMEMBERED)
        for token_id in token_ids:
            self._ended.pop(token_id, None)  # to the end: the oldest stay first
            self._ended[token_id] = now
            self._forget_expiry(token_id)
            for subscriber in self._open.pop(token_id, set()):
                subscriber.close_with(*SIGNED_OUT)
                closed += 1
        return closed

    def _forget_ended_before(self, when: float) -> None:
        for token_id, ended_at in list(self._ended.items()):
            if ended_at >= when:
                break
            del self._ended[token_id]

    def _forget_expiry(self, token_id: str) -> None:
        timer = self._expiry.pop(token_id, None)
        if timer is not None:
            timer.cancel()

    def __len__(self) -> int:
        return sum(len(s) for s in self._open.values())
