"""The connections each token opened on a node (``live/signouts.py``): ending the token
closes them, and one noted just after its token ended (its handshake read the token as valid
a moment before) closes as it is noted."""

from __future__ import annotations

from dataclasses import dataclass

from doushouqi.server.infra.timesource import ManualTime
from doushouqi.server.live.signouts import ENDED_REMEMBERED, SIGNED_OUT, TokenSockets
from doushouqi.server.live.subscriber import Subscriber


@dataclass(frozen=True)
class Opened:
    token_id: str | None
    expires_at: float | None = None


def test_ending_a_token_closes_its_connections_and_no_other() -> None:
    sockets = TokenSockets(ManualTime())
    mine, other, guest = Subscriber(None), Subscriber(None), Subscriber(None)
    sockets.add(Opened("mine"), mine)
    sockets.add(Opened("other"), other)
    sockets.add(Opened(None), guest)
    assert sockets.close(["mine"]) == 1
    assert (mine.closing, other.closing, guest.closing) == (SIGNED_OUT, None, None)
    assert len(sockets) == 1


def test_a_connection_noted_after_its_token_ended_closes_at_once() -> None:
    clock = ManualTime()
    sockets = TokenSockets(clock)
    sockets.close(["ended"])
    late = Subscriber(None)
    sockets.add(Opened("ended"), late)
    assert late.closing == SIGNED_OUT and len(sockets) == 0
    # Remembered for a while only: a later ending forgets the old ones.
    clock.advance(ENDED_REMEMBERED + 1)
    sockets.close(["another"])
    reused = Subscriber(None)
    sockets.add(Opened("ended"), reused)
    assert reused.closing is None and len(sockets) == 1
