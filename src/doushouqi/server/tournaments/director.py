"""The tournament director: every node runs it, about once a second.

Each pass claims the tournaments that need directing (a lease in the tournament's own row,
``director_node`` / ``director_until``, taken by a conditional UPDATE: one node at a time, and
another node takes over within ``LEASE_SECONDS`` when the director's node dies), then runs one
:func:`~.store.step` per tournament: a single transaction that reads the games' rows, records
results, forfeits games nobody came to, and makes the next pairings with their game ids. Only
after it commits does the director create the games (under those ids, skipped when the game
exists: creating is idempotent), end the forfeited games and notify the players. A restart at
any point loses nothing: the next pass finds the pairings without games and creates them, and
the forfeits not yet ended and ends them.

A finished game is seen in the ``games`` table (its status and result), whichever node ran
it.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from typing import Any

from doushouqi.core.clock import TimeControl
from doushouqi.core.game import get_game
from doushouqi.core.rating import Rating
from doushouqi.server.context import AppContext
from doushouqi.server.db import repo
from doushouqi.server.domain import Abort as AbortCommand
from doushouqi.server.domain import PlayerSlot
from doushouqi.server.domain.players import SERVER
from doushouqi.server.games.start import start_game_between
from doushouqi.server.live.actors import ActorClosedError, new_game_id
from doushouqi.server.tournaments import store
from doushouqi.server.tournaments.store import CreateGame, Notify

__all__ = ["LEASE_SECONDS", "PASS_SECONDS", "Director", "create_tournament_game"]

log = logging.getLogger(__name__)

#: Seconds between passes.
PASS_SECONDS = 1.0
#: How long a node's claim on a tournament lasts unless renewed by its next pass.
LEASE_SECONDS = 10.0


def _slot(seat: dict[str, Any]) -> PlayerSlot:
    rating, rd, volatility = seat["rating"]
    return PlayerSlot.account(
        int(seat["account_id"]),
        str(seat["name"]),
        avatar=seat["avatar"],
        score=int(seat["score"]),
        rating=Rating(float(rating), float(rd), float(volatility)),
        username=seat["username"],
    )


def rules_of(game: str, mapping: dict[str, Any]) -> Any:
    """A tournament's rule set from its stored options (the game's ``rules_to_mapping``)."""
    return get_game(game).parse_rules(mapping)


async def create_tournament_game(
    ctx: AppContext, order: CreateGame, game: str, rules: Any, control: TimeControl, rated: bool
) -> None:
    """Start a paired game, unless it exists: an online game with both seats filled (Red as
    paired), under the pairing's id, scored as a tournament game (docs/rules.md 5.4: no
    10-round void), not listed in the lobby; both players' open tabs hear ``paired``."""
    if await ctx.db.read(lambda s: repo.game_exists(s, order.game_id)):
        return
    await start_game_between(
        ctx,
        _slot(order.red),
        _slot(order.blue),
        game_key=game,
        rules=rules,
        time_control=control,
        rated=rated,
        first_color="red",
        tournament_id=order.tournament_id,
        message={"tournament_id": order.tournament_id},
        game_id=order.game_id,
    )


class Director:
    """One node's tournament director (see the module's docstring)."""

    def __init__(self, ctx: AppContext) -> None:
        self.ctx = ctx
        cluster = ctx.registry.services.cluster
        self.node = "local" if cluster is None else cluster.node
        self._task: asyncio.Task[None] | None = None
        #: Wakes the loop before its second is up (a tournament was created or joined).
        self._wake = asyncio.Event()

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        with contextlib.suppress(Exception):
            await self.ctx.db.write(functools.partial(store.release, node=self.node))

    def wake(self) -> None:
        self._wake.set()

    async def _run(self) -> None:
        while True:
            try:
                await self.run_once()
            except Exception:
                log.exception("the tournament director's pass failed")
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), PASS_SECONDS)

    async def run_once(self) -> None:
        """One pass over the tournaments this node directs now."""
        ctx = self.ctx
        now = ctx.time.now()
        due = await ctx.db.read(functools.partial(store.due_ids, now=now))
        if not due:
            return  # nothing to direct: no write at all
        claim = functools.partial(
            store.claim, tournament_ids=due, node=self.node, now=now, lease=LEASE_SECONDS
        )
        for tournament_id in await ctx.db.write(claim):
            try:
                await self._direct(tournament_id)
            except Exception:
                log.exception("directing tournament %s failed", tournament_id)

    async def _direct(self, tournament_id: str) -> None:
        ctx = self.ctx
        do_step = functools.partial(
            store.step,
            tournament_id=tournament_id,
            now=ctx.time.now(),
            join_wait=ctx.settings.grace_period,
            new_game_id=new_game_id,
            own_outages=ctx.registry.services.downtime.own(),
        )
        todo = await ctx.db.write(do_step)
        if todo.creates:
            read = functools.partial(store.game_settings, tournament_id=tournament_id)
            game, mapping, control, rated = await ctx.db.read(read)
            rules = rules_of(game, mapping)
            control_read = TimeControl.parse(control)
            for order in todo.creates:
                await create_tournament_game(ctx, order, game, rules, control_read, rated)
        for abort in todo.aborts:
            await self._abort(abort.game_id)
        for notice in todo.notices:
            await _notify(ctx, notice)

    async def _abort(self, game_id: str) -> None:
        """End a game a player never came to (its forfeit is recorded). Where another node
        owns the game, the next pass tries again (after a failover it is ours to load)."""
        with contextlib.suppress(ActorClosedError):
            await self.ctx.registry.submit(game_id, AbortCommand(actor=SERVER))


async def _notify(ctx: AppContext, notice: Notify) -> None:
    """Tell a player (the bell, and their open tabs)."""
    from doushouqi.server.notifications import service as notifications

    try:
        await notifications.notify(
            ctx, f"account:{notice.account_id}", notice.kind, notice.params, link=notice.link
        )
    except Exception:
        log.exception("could not notify account %s", notice.account_id)
