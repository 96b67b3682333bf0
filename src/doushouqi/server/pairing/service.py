"""Quick pairing: seeks wait in the database until a compatible one comes, then both players
are put into one game (:func:`doushouqi.server.games.start.start_game_between`).

Seeks and every node of a cluster:

* a seek is a row (``seeks``), so every node sees every seek and a restart loses none;
* **claims are atomic**: a pair is taken by one transaction that marks both rows with the
  new game's id and commits only when it marked exactly those two (``UPDATE … SET game_id
  WHERE id IN (a, b) AND game_id IS NULL``, rowcount 2), so two nodes matching at the same
  moment never pair the same seek twice — the loser's transaction changes nothing, or is
  rolled back. Every node may therefore run the matcher, right when a seek is posted and
  every :data:`MATCH_INTERVAL` seconds. A paired seek stays readable for
  :data:`PAIRED_KEPT` seconds (``GET /api/seeks`` shows its ``game_id``), so a tab that was
  reconnecting when ``paired`` was pushed still finds its game;
* **a seek lives while its player's tab does** (lichess removes seeks on disconnect): it
  lapses :data:`SEEK_GRACE` seconds after it was posted unless a node holding one of the
  player's site sockets renews it (every node renews its own players' seeks each round), so
  closing the last tab drops the seek within that grace wherever the tab was; and no seek
  outlives :data:`SEEK_MAX_AGE`.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import math
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from doushouqi.core.clock import TimeControl
from doushouqi.server.accounts.auth import Principal
from doushouqi.server.context import AppContext
from doushouqi.server.db import repo
from doushouqi.server.games.choices import chosen_rules
from doushouqi.server.games.start import start_game_between
from doushouqi.server.infra.outage import is_outage
from doushouqi.server.live.actors import new_game_id
from doushouqi.server.notifications import service as notifications
from doushouqi.server.pairing.models import ChallengeRow, SeekRow

__all__ = [
    "MATCH_INTERVAL",
    "SEEK_GRACE",
    "SEEK_MAX_AGE",
    "Pairing",
    "compatible",
    "match_once",
    "run_matcher",
    "withdraw_all",
]

log = logging.getLogger(__name__)

#: Seconds a seek survives without a site socket of its player (a reload, a brief drop).
SEEK_GRACE = 10.0
#: Seconds after which any seek is dropped (nobody with the same wishes came).
SEEK_MAX_AGE = 1800.0
#: Seconds a paired seek stays readable (its game's id) before it is forgotten.
PAIRED_KEPT = 60.0
#: Seconds between the matcher's rounds on each node.
MATCH_INTERVAL = 1.0
#: Notifications are kept this long (seconds), challenges this long after they ended.
KEEP_NOTIFICATIONS = 90 * 86400.0
KEEP_CHALLENGES = 30 * 86400.0
CLEAN_UP_INTERVAL = 3600.0
#: Player keys renewed per statement (keeps the IN list short).
_RENEW_CHUNK = 500


# ---------------------------------------------------------------------- seeks


@dataclass(frozen=True)
class Seek:
    """A seek as the matcher reads it."""

    id: str
    player_key: str
    player: dict[str, Any]
    game: str
    rules: str
    time_control: str
    rated: bool
    rating: float
    rating_min: float | None
    rating_max: float | None
    created_at: float

    @classmethod
    def from_row(cls, row: SeekRow) -> Seek:
        return cls(
            row.id,
            row.player_key,
            json.loads(row.player),
            row.game,
            row.rules,
            row.time_control,
            row.rated,
            row.rating,
            row.rating_min,
            row.rating_max,
            row.created_at,
        )

    def accepts(self, rating: float) -> bool:
        low = self.rating_min if self.rating_min is not None else float("-inf")
        high = self.rating_max if self.rating_max is not None else float("inf")
        return low <= rating <= high


def compatible(a: Seek, b: Seek) -> bool:
    """Whether two seeks make a game: the same game and wishes, each inside the other's rating
    range (their ratings in that game), two different players."""
    return (
        a.player_key != b.player_key
        and a.game == b.game
        and a.rules == b.rules
        and a.time_control == b.time_control
        and a.rated == b.rated
        and a.accepts(b.rating)
        and b.accepts(a.rating)
    )


def pairs_among(seeks: Sequence[Seek]) -> list[tuple[Seek, Seek]]:
    """Greedy pairs, oldest first: each seek with the oldest compatible one still free."""
    taken: set[str] = set()
    busy: set[str] = set()  # players already in a pair this round
    pairs = []
    ordered = sorted(seeks, key=lambda s: (s.created_at, s.id))
    for i, a in enumerate(ordered):
        if a.id in taken or a.player_key in busy:
            continue
        for b in ordered[i + 1 :]:
            if b.id not in taken and b.player_key not in busy and compatible(a, b):
                pairs.append((a, b))
                taken.update((a.id, b.id))
                busy.update((a.player_key, b.player_key))
                break
    return pairs


class _Lost(Exception):
    """Another node claimed one of the pair first: roll the claim back."""


def _claim(session: Session, a: Seek, b: Seek, game_id: str, now: float) -> None:
    """Mark both seeks as paired into ``game_id``, or neither (raising rolls the transaction
    back); then drop the two players' other seeks (they are in a game now)."""
    ids = sorted((a.id, b.id))  # the same lock order on every node
    result = session.execute(
        update(SeekRow)
        .where(SeekRow.id.in_(ids), SeekRow.game_id.is_(None))
        .values(game_id=game_id, alive_until=now + PAIRED_KEPT)
    )
    if getattr(result, "rowcount", 0) != 2:
        raise _Lost
    keys = (a.player_key, b.player_key)
    session.execute(delete(SeekRow).where(SeekRow.player_key.in_(keys), SeekRow.game_id.is_(None)))


def _unclaim(session: Session, a: Seek, b: Seek, game_id: str) -> None:
    """Let two seeks wait again after their game could not be started (Redis or the database
    away): unless the game was stored after all, they are paired again at a later round,
    instead of pointing their players at a game that does not exist."""
    if repo.game_exists(session, game_id):
        return
    session.execute(
        update(SeekRow)
        .where(SeekRow.id.in_(sorted((a.id, b.id))), SeekRow.game_id == game_id)
        .values(game_id=None)
    )


def _live_seeks(session: Session, now: float) -> list[Seek]:
    """Forget lapsed seeks (and paired ones kept long enough); the seeks still waiting."""
    session.execute(
        delete(SeekRow).where(
            (SeekRow.alive_until < now) | (SeekRow.created_at < now - SEEK_MAX_AGE)
        )
    )
    waiting = select(SeekRow).where(SeekRow.game_id.is_(None)).order_by(SeekRow.created_at)
    return [Seek.from_row(r) for r in session.scalars(waiting).all()]


class Pairing:
    """This node's matcher: one round at a time (its own rounds never race each other; other
    nodes' rounds are kept apart by the claims)."""

    def __init__(self, ctx: AppContext) -> None:
        self.ctx = ctx
        self._lock = asyncio.Lock()

    async def round(self) -> list[tuple[Seek, Seek, str]]:
        """Drop lapsed seeks, renew those of players with a tab here, pair what can be
        paired; the pairs made (and their games' ids)."""
        async with self._lock:
            return await match_once(self.ctx)


async def renew_seeks(ctx: AppContext) -> None:
    """Keep alive the seeks of the players who have a site socket on this node."""
    keys = list(ctx.registry.player_sockets)
    if not keys:
        return
    until = ctx.time.now() + SEEK_GRACE

    def write(session: Session) -> None:
        for start in range(0, len(keys), _RENEW_CHUNK):
            chunk = keys[start : start + _RENEW_CHUNK]
            session.execute(
                update(SeekRow)
                .where(
                    SeekRow.player_key.in_(chunk),
                    SeekRow.game_id.is_(None),
                    SeekRow.alive_until < until,
                )
                .values(alive_until=until)
            )

    await ctx.db.write(write)


async def match_once(ctx: AppContext) -> list[tuple[Seek, Seek, str]]:
    """One matcher round; safe to run on every node at once."""
    await renew_seeks(ctx)
    seeks = await ctx.db.write(lambda s: _live_seeks(s, ctx.time.now()))
    made = []
    for a, b in pairs_among(seeks):
        game_id = new_game_id()
        claim = functools.partial(_claim, a=a, b=b, game_id=game_id, now=ctx.time.now())
        try:
            await ctx.db.write(claim)
        except _Lost:
            continue
        except DBAPIError:  # a deadlock or serialisation failure: the other node won
            log.info("lost a seek claim to another node (%s, %s)", a.id, b.id)
            continue
        first, second = (Principal.from_dict(s.player).slot() for s in (a, b))
        try:
            game = await start_game_between(
                ctx,
                first,
                second,
                game_key=a.game,
                rules=chosen_rules(a.rules, a.game),
                time_control=TimeControl.parse(a.time_control),
                rated=a.rated,
                game_id=game_id,
            )
        except Exception as exc:
            if not is_outage(exc):
                log.exception("could not start the game of seeks %s and %s", a.id, b.id)
            else:
                log.warning("could not start the game of seeks %s and %s now: %r", a.id, b.id, exc)
            with contextlib.suppress(Exception):  # the database away too: they lapse
                await ctx.db.write(functools.partial(_unclaim, a=a, b=b, game_id=game_id))
            continue
        made.append((a, b, game.id))
    return made


async def forget_old(ctx: AppContext) -> None:
    """The clean-up: notifications after :data:`KEEP_NOTIFICATIONS`, and challenges that were
    answered or lapsed :data:`KEEP_CHALLENGES` ago (any node may do it: deletes are idempotent)."""
    now = ctx.time.now()
    await notifications.forget_old(ctx, now - KEEP_NOTIFICATIONS)

    def write(session: Session) -> None:
        session.execute(delete(ChallengeRow).where(ChallengeRow.expires_at < now - KEEP_CHALLENGES))

    await ctx.db.write(write)


def withdraw_all(session: Session, player_key: str, account_id: int | None) -> int:
    """Withdraw everything ``player_key`` waits on (an account closed or banned): its seeks
    not yet paired are deleted, and its pending challenges, sent or received, are cancelled.
    Returns how many went."""
    seeks = session.execute(
        delete(SeekRow).where(SeekRow.player_key == player_key, SeekRow.game_id.is_(None))
    )
    involved = ChallengeRow.from_key == player_key
    if account_id is not None:
        involved = involved | (ChallengeRow.to_account == account_id)
    challenges = session.execute(
        update(ChallengeRow)
        .where(involved, ChallengeRow.status == "pending")
        .values(status="cancelled")
    )
    return int(getattr(seeks, "rowcount", 0) or 0) + int(getattr(challenges, "rowcount", 0) or 0)


async def run_matcher(pairing: Pairing) -> None:
    """The matcher's rounds, every :data:`MATCH_INTERVAL` seconds, for the node's life; and
    the clean-up, at the start and then every :data:`CLEAN_UP_INTERVAL`."""
    cleaned_at = -math.inf
    while True:
        await asyncio.sleep(MATCH_INTERVAL)
        try:
            await pairing.round()
            if time.monotonic() - cleaned_at > CLEAN_UP_INTERVAL:
                cleaned_at = time.monotonic()
                await forget_old(pairing.ctx)
        except Exception:
            log.exception("quick pairing round failed")


def new_seek_id() -> str:
    return secrets.token_urlsafe(9)[:12]
