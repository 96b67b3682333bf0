"""Who takes part in a game: identities (who sends a command) and player slots (who sits where).

An identity is a small frozen value: :class:`Account`, :class:`Guest`, :class:`AiPlayer` or
:data:`SERVER`. A command carries the identity of its sender; the game compares it with the
identities in its seats. Anyone who holds no seat is a spectator, and a spectator's command
never changes a game. In a same-screen game both seats hold the owner's identity, which is how
one person may move for both colours.

>>> PlayerSlot.account(7, "Li").identity == Account(7)
True
>>> PlayerSlot.ai(5).name, PlayerSlot.ai(5).ai_level
('AI level 5', 5)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeAlias

from doushouqi.core.rating import Rating
from doushouqi.core.scoring import AI_LEVEL_RANGE

__all__ = [
    "SERVER",
    "Account",
    "Actor",
    "AiPlayer",
    "Guest",
    "PlayerIdentity",
    "PlayerSlot",
    "Server",
    "identity_from_dict",
]


@dataclass(frozen=True, slots=True)
class Account:
    """A registered player, known by account id."""

    id: int
    kind: ClassVar[str] = "account"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "id": self.id}


@dataclass(frozen=True, slots=True)
class Guest:
    """A player without an account, known by a guest id (e.g. a signed cookie's value)."""

    id: str
    kind: ClassVar[str] = "guest"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "id": self.id}


@dataclass(frozen=True, slots=True)
class AiPlayer:
    """The computer opponent at a level 1-10; the server submits its moves under this identity."""

    level: int
    kind: ClassVar[str] = "ai"

    def __post_init__(self) -> None:
        if isinstance(self.level, bool) or self.level not in AI_LEVEL_RANGE:
            raise ValueError(f"AI level must be 1-10, not {self.level!r}")

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "level": self.level}


@dataclass(frozen=True, slots=True)
class Server:
    """The server itself: sends the time-driven and connection-driven commands."""

    kind: ClassVar[str] = "server"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind}


SERVER = Server()

#: An identity that may hold a seat.
PlayerIdentity: TypeAlias = Account | Guest | AiPlayer
#: Whoever sends a command.
Actor: TypeAlias = Account | Guest | AiPlayer | Server

ACTOR_TYPES = (Account, Guest, AiPlayer, Server)
PLAYER_TYPES = (Account, Guest, AiPlayer)


def identity_from_dict(data: dict[str, Any]) -> Actor:
    """The identity that ``to_dict`` wrote (for storage); ValueError when malformed.

    >>> identity_from_dict(Account(3).to_dict())
    Account(id=3)
    """
    kind = data.get("kind")
    if kind == "account" and isinstance(data.get("id"), int):
        return Account(data["id"])
    if kind == "guest" and isinstance(data.get("id"), str):
        return Guest(data["id"])
    if kind == "ai" and isinstance(data.get("level"), int):
        return AiPlayer(data["level"])
    if kind == "server":
        return SERVER
    raise ValueError(f"not an identity: {data!r}")


@dataclass(frozen=True)
class PlayerSlot:
    """A seat's occupant: identity, display name and avatar.

    ``score`` and ``rating`` are the player's ladder score and Glicko-2 rating (at the game's
    speed: ratings are per speed) when the game was set up; the scoring step computes the changes
    from them (the AI and guests keep no score).
    ``username`` is an account's login name, which its profile page is known by (clients link
    the name to it); None for guests and the AI, and for games stored before it was kept.
    """

    identity: PlayerIdentity
    name: str
    avatar: str | None = None
    score: int = 0
    rating: Rating = field(default_factory=Rating)
    username: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.identity, PLAYER_TYPES):
            raise ValueError(f"a seat holds an account, a guest or the AI, not {self.identity!r}")

    @classmethod
    def account(
        cls,
        account_id: int,
        name: str,
        *,
        avatar: str | None = None,
        score: int = 0,
        rating: Rating | None = None,
        username: str | None = None,
    ) -> PlayerSlot:
        return cls(Account(account_id), name, avatar, score, rating or Rating(), username)

    @classmethod
    def guest(cls, guest_id: str, name: str, *, avatar: str | None = None) -> PlayerSlot:
        return cls(Guest(guest_id), name, avatar)

    @classmethod
    def ai(cls, level: int, name: str | None = None, *, avatar: str | None = None) -> PlayerSlot:
        return cls(AiPlayer(level), name or f"AI level {level}", avatar)

    @property
    def account_id(self) -> int | None:
        return self.identity.id if isinstance(self.identity, Account) else None

    @property
    def guest_id(self) -> str | None:
        return self.identity.id if isinstance(self.identity, Guest) else None

    @property
    def ai_level(self) -> int | None:
        return self.identity.level if isinstance(self.identity, AiPlayer) else None

    @property
    def is_ai(self) -> bool:
        return isinstance(self.identity, AiPlayer)

    @property
    def is_account(self) -> bool:
        return isinstance(self.identity, Account)

    def to_dict(self) -> dict[str, Any]:
        return {
            "identity": self.identity.to_dict(),
            "name": self.name,
            "avatar": self.avatar,
            "score": self.score,
            "rating": {
                "rating": self.rating.rating,
                "rd": self.rating.rd,
                "volatility": self.rating.volatility,
                "provisional": self.rating.provisional,
            },
            "username": self.username,
        }
