"""What can be asked of a game: one frozen dataclass per action, all fields keyword-only.

Every command names its sender (``actor``: an identity, or :data:`~.players.SERVER` for the
server-driven ones). ``color`` says which seat the sender acts for; it may be left out when the
sender holds one seat, and in a same-screen game (the owner holds both) it defaults to the seat
the command obviously concerns (the side to move, or the side an offer was made to).
``expected_version``, when given, makes the command apply only to that version of the game
(a client or the AI acting on what it saw), and is refused as stale otherwise.

>>> from doushouqi.server.domain.players import Account
>>> Move(actor=Account(1), move="a3a4").command_type
'move'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from doushouqi.server.domain.players import SERVER, Actor, PlayerSlot

__all__ = [
    "COMMAND_TYPES",
    "Abort",
    "AcceptDraw",
    "AcceptTakeback",
    "ClaimDraw",
    "ClaimVictory",
    "Command",
    "DeclineDraw",
    "DeclineTakeback",
    "Disconnected",
    "Join",
    "Move",
    "OfferDraw",
    "Reconnected",
    "Rematch",
    "RequestTakeback",
    "Resign",
    "Tick",
]


@dataclass(frozen=True, kw_only=True)
class Command:
    command_type: ClassVar[str] = "command"
    actor: Actor
    color: int | None = None
    expected_version: int | None = None


@dataclass(frozen=True, kw_only=True)
class Join(Command):
    """Take the open seat of an online game with ``player`` (whose identity must be the
    actor's), or, for a seated player, announce being at the board. The game starts when every
    seat is filled and every human seat has joined."""

    command_type: ClassVar[str] = "join"
    player: PlayerSlot | None = None


@dataclass(frozen=True, kw_only=True)
class Move(Command):
    """Play ``move``, a from-to string such as ``g3g4`` (docs/rules.md 7a). ``move_id``, when
    given, is the client's name for this move: a game applies it at most once, so that a client
    may send a move again after a connection drop without playing it twice."""

    command_type: ClassVar[str] = "move"
    move: str
    move_id: str | None = None


@dataclass(frozen=True, kw_only=True)
class Resign(Command):
    command_type: ClassVar[str] = "resign"


@dataclass(frozen=True, kw_only=True)
class OfferDraw(Command):
    """Offer a draw; offering while the opponent's offer stands accepts it."""

    command_type: ClassVar[str] = "offer_draw"


@dataclass(frozen=True, kw_only=True)
class AcceptDraw(Command):
    command_type: ClassVar[str] = "accept_draw"


@dataclass(frozen=True, kw_only=True)
class DeclineDraw(Command):
    command_type: ClassVar[str] = "decline_draw"


@dataclass(frozen=True, kw_only=True)
class Abort(Command):
    """Cancel the game; allowed until each side has made a move. The server may abort too."""

    command_type: ClassVar[str] = "abort"


@dataclass(frozen=True, kw_only=True)
class RequestTakeback(Command):
    """Take back one's last move: at once against the AI (the AI's reply goes too) and on one
    screen (the last move); online the opponent must accept."""

    command_type: ClassVar[str] = "request_takeback"


@dataclass(frozen=True, kw_only=True)
class AcceptTakeback(Command):
    command_type: ClassVar[str] = "accept_takeback"


@dataclass(frozen=True, kw_only=True)
class DeclineTakeback(Command):
    command_type: ClassVar[str] = "decline_takeback"


@dataclass(frozen=True, kw_only=True)
class ClaimVictory(Command):
    """Claim the win once the opponent has been disconnected beyond the grace period."""

    command_type: ClassVar[str] = "claim_victory"


@dataclass(frozen=True, kw_only=True)
class ClaimDraw(Command):
    """End the game drawn while the opponent is disconnected ("call it a draw"), instead of
    waiting out their grace period for the win."""

    command_type: ClassVar[str] = "claim_draw"


@dataclass(frozen=True, kw_only=True)
class Disconnected(Command):
    """Server-driven: the player at ``color`` lost its last connection at ``at`` (default now)."""

    command_type: ClassVar[str] = "disconnected"
    actor: Actor = SERVER
    at: float | None = None


@dataclass(frozen=True, kw_only=True)
class Reconnected(Command):
    """Server-driven: the player at ``color`` is connected again."""

    command_type: ClassVar[str] = "reconnected"
    actor: Actor = SERVER


@dataclass(frozen=True, kw_only=True)
class Tick(Command):
    """Server-driven: apply every deadline that has passed (flag fall, timeout pass, fourth
    timeout, abandonment, an open game's wait for an opponent). Send it at ``next_deadline``;
    an early tick changes nothing."""

    command_type: ClassVar[str] = "tick"
    actor: Actor = SERVER


@dataclass(frozen=True, kw_only=True)
class Rematch(Command):
    """Ask for a rematch of a finished game (colours swapped). Online both players must ask;
    otherwise the spec is created at once."""

    command_type: ClassVar[str] = "rematch"


COMMAND_TYPES: dict[str, type[Command]] = {
    cls.command_type: cls
    for cls in (
        Join,
        Move,
        Resign,
        OfferDraw,
        AcceptDraw,
        DeclineDraw,
        Abort,
        RequestTakeback,
        AcceptTakeback,
        DeclineTakeback,
        ClaimVictory,
        ClaimDraw,
        Disconnected,
        Reconnected,
        Tick,
        Rematch,
    )
}
