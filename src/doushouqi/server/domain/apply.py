"""``apply(game, command, now) -> (game, events)``: the one way a game changes.

1. The command is checked for shape: a known type, an identity as actor, a colour 0/1 or None,
   the expected version (when given), and a ``now`` that does not go back in time.
2. Every deadline that has passed by ``now`` is settled (flag fall, timeout passes, fourth
   timeout, abandonment, the end of an open game's wait for an opponent), each at its own
   time: events take effect at their deadlines.
3. The command's handler (one per command type, from a table) decides.

An accepted command returns the new game with ``version`` one higher and its events (the
settled deadlines' first), all stamped with the game id and that version. A refused command
returns the game unchanged and a single :class:`~.events.Rejected`; deadlines settled on the
way are then dropped too, and ``next_deadline`` (already past) makes the server tick at once.
A ``Tick`` with nothing due returns the game unchanged and no events. A move sent again under
an id the game has applied returns the game unchanged and :class:`~.events.AlreadyApplied`:
whoever acts on the result stores and broadcasts only a game whose version rose. Bad input
never raises.
"""

from __future__ import annotations

import math

from doushouqi.server.domain.commands import Command, Move
from doushouqi.server.domain.events import (
    AlreadyApplied,
    Event,
    PlayerDisconnected,
    PlayerReconnected,
    RejectCode,
    Rejected,
)
from doushouqi.server.domain.flow import Context, Reject
from doushouqi.server.domain.handlers import HANDLERS
from doushouqi.server.domain.model import Game
from doushouqi.server.domain.players import ACTOR_TYPES
from doushouqi.server.domain.timing import settle

__all__ = ["PRESENCE_EVENTS", "apply"]

#: Events of a connection coming or going: they change no position, offer or seat, so a command
#: a client sent for the version before them still applies.
PRESENCE_EVENTS = (PlayerDisconnected, PlayerReconnected)


def _check(game: Game, command: Command, now: float) -> Reject | None:
    if not isinstance(getattr(command, "actor", None), ACTOR_TYPES):
        return Reject(RejectCode.BAD_COMMAND, "the command names no sender")
    color = getattr(command, "color", None)
    if color is not None and (type(color) is not int or color not in (0, 1)):
        seats = f"0 ({game.seat_name(0)}) or 1 ({game.seat_name(1)})"
        return Reject(RejectCode.BAD_COMMAND, f"colour must be {seats}, not {color!r}")
    expected = getattr(command, "expected_version", None)
    if expected is not None and (
        type(expected) is not int or not game.fresh_since <= expected <= game.version
    ):
        reason = f"the command was for version {expected!r}; the game is at {game.version}"
        return Reject(RejectCode.STALE_VERSION, reason)
    if isinstance(now, bool) or not isinstance(now, (int, float)) or not math.isfinite(now):
        return Reject(RejectCode.BAD_TIME, f"now must be a finite time, not {now!r}")
    if now < game.last_activity_at:
        return Reject(RejectCode.BAD_TIME, f"time went backwards: {now} < {game.last_activity_at}")
    return None


def _resent(game: Game, move: Move) -> tuple[Game, list[Event]] | None:
    """The answer to a move whose id the game knows: already applied (a resend; its expected
    version is older now, so this comes before that check would refuse it), or refused when
    the client named another move so. None: a move id the game has not seen."""
    if not isinstance(move.move_id, str) or (known := game.move_with_id(move.move_id)) is None:
        return None
    if known != move.move:
        reason = f"move id {move.move_id!r} was used for {known}"
        return _rejected(game, move, Reject(RejectCode.MOVE_ID_USED, reason))
    done = AlreadyApplied(move_id=move.move_id, game_id=game.id, version=game.version)
    return game, [done]


def _rejected(game: Game, command: object, rejection: Reject) -> tuple[Game, list[Event]]:
    name = getattr(type(command), "command_type", type(command).__name__)
    event = Rejected(
        reason=rejection.reason,
        code=rejection.code,
        command=str(name),
        game_id=game.id,
        version=game.version,
    )
    return game, [event]


def apply(game: Game, command: Command, now: float) -> tuple[Game, list[Event]]:
    """Apply ``command`` at time ``now`` (seconds, the same origin as every other time)."""
    handler = HANDLERS.get(type(command))
    if handler is None:
        return _rejected(game, command, Reject(RejectCode.BAD_COMMAND, "unknown command"))
    if isinstance(command, Move) and (resent := _resent(game, command)) is not None:
        return resent
    if problem := _check(game, command, now):
        return _rejected(game, command, problem)
    now = float(now)
    settled, early = (game, []) if game.status.is_over else settle(game, now)
    result = handler(Context(before=game, game=settled, now=now), command)
    if isinstance(result, Reject):
        return _rejected(game, command, result)
    events = [*early, *result.events]
    if not events:
        return game, []
    version = game.version + 1
    stamped = [e.stamped(game.id, version) for e in events]
    if all(isinstance(e, PRESENCE_EVENTS) for e in events):
        state_version = game.fresh_since
    else:
        state_version = None  # this version changed the game itself
    return result.game.evolve(version=version, state_version=state_version), stamped
