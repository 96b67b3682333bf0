"""What the cluster layer (``live/cluster.py``) drives of a node's own games: the actor
registry (``live/registry.py``) and a game's actor (``live/actors.py``). Both call into the
cluster layer, so it names what it uses here instead of importing them."""

from __future__ import annotations

from collections.abc import Collection
from typing import Protocol

from doushouqi.server.domain import Actor
from doushouqi.server.infra.timesource import TimeSource
from doushouqi.server.live.subscriber import Subscriber

__all__ = ["LocalGames", "OwnedGame"]


class _Clocked(Protocol):
    @property
    def time(self) -> TimeSource: ...


class LocalGames(Protocol):
    """This node's games (the actor registry)."""

    @property
    def services(self) -> _Clocked: ...

    def active_ai_games(self, now: float) -> int: ...
    async def get(self, game_id: str) -> object: ...
    def drop(self, game_id: str) -> None: ...
    def reschedule(self, game_id: str) -> None: ...
    async def stored_view(
        self, game_id: str, identity: Actor | None, since: int | None
    ) -> tuple[list[str], int]: ...
    def deliver_to_player(self, player_key: str, text: str) -> None: ...
    def deliver_to_account(self, account_id: int, text: str) -> None: ...
    def end_sessions_here(self, token_ids: Collection[str]) -> None: ...
    def cut_off_account(self, account_id: int) -> None: ...


class OwnedGame(Protocol):
    """A game this node has just claimed (its actor), taking over the sockets that waited."""

    @property
    def id(self) -> str: ...

    def subscribe_all(self, seen: dict[Subscriber, int]) -> None: ...
