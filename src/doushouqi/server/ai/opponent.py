"""The computer at a game's seat: when it is its turn it asks the AI service for a move, with a
time fitted to the game's clock, waits for a natural moment, and hands the move to the game.

One per live game against the computer, owned by the game's actor (``live/actors.py``), which
gives it two ways back: ``submit`` plays a command (False when the game could not take it
now: the actor's timer retries) and ``notify`` tells the game's sockets something that is no
event (the computer is busy and thinks less).
"""

from __future__ import annotations

import asyncio
import logging
import math
import random
from collections.abc import Awaitable, Callable
from typing import Any

from doushouqi.server.ai.pool import AiMove, AiRequest, AiService, random_move
from doushouqi.server.domain import AiPlayer, Game, GameStatus, Move
from doushouqi.server.infra.logcontext import current_game
from doushouqi.server.infra.metrics import Metrics
from doushouqi.server.infra.settings import Settings
from doushouqi.server.infra.timesource import TimeSource

__all__ = ["AiOpponent", "ai_movetime"]

log = logging.getLogger(__name__)
_rng = random.Random()  # its own: the process-wide generator is its host's (tests, tools)

#: Seconds a move waits for the AI's workers to load the engine before it is played at
#: random: a cold start compiles for a minute or two on a slow machine; one that never
#: comes up (a broken install) must not stop the game for ever.
WARM_UP_LIMIT = 300.0

#: Seconds kept back from the computer's clock when it waits for its workers, for the
#: move's own search, its random fallback and its way to the game.
WARM_UP_RESERVE = 1.0


def ai_movetime(settings: Settings, game: Game, now: float) -> float:
    """Seconds the computer may think: the site's setting, less when the clock is short (a
    fraction of a per-move limit, or of what is left plus the increment)."""
    movetime = settings.ai_movetime
    clock = game.clock
    if clock is not None:
        if clock.control.per_move is not None:
            movetime = min(movetime, clock.control.per_move * 0.4)
        left = clock.remaining(game.turn, max(now, clock.turn_started or now))
        if math.isfinite(left):
            movetime = min(movetime, left / 25 + clock.control.increment * 0.5)
    return max(0.02, movetime)


def warm_up_limit(game: Game, now: float, search_limit: float) -> float:
    """Seconds the computer's move may wait for workers still loading the engine: up to
    :data:`WARM_UP_LIMIT`, but never into its own clock's deadline (a flag fall or a
    timeout pass), less the search's limit and :data:`WARM_UP_RESERVE`. A random move in
    time is better than a loss on time to the server's start."""
    clock = game.clock
    deadline = None if clock is None else clock.next_deadline(max(now, clock.turn_started or now))
    if deadline is None:
        return WARM_UP_LIMIT
    return max(0.0, min(WARM_UP_LIMIT, deadline - now - search_limit - WARM_UP_RESERVE))


class AiOpponent:
    def __init__(
        self,
        *,
        settings: Settings,
        time: TimeSource,
        ai: AiService,
        metrics: Metrics,
        submit: Callable[[Move], Awaitable[bool]],
        notify: Callable[[dict[str, Any]], None],
    ) -> None:
        self._settings = settings
        self._time = time
        self._ai = ai
        self._metrics = metrics
        self._submit = submit
        self._notify = notify
        self._task: asyncio.Task[None] | None = None
        #: The game version the computer is thinking about (one search per version).
        self._version: int | None = None

    def consider(self, game: Game) -> None:
        """Start thinking if it is the computer's turn in a version not thought about yet."""
        if (
            game.status is not GameStatus.STARTED
            or not game.is_ai_seat(game.turn)
            or self._version == game.version
        ):
            return
        self._version = game.version
        if self._task is not None and self._task is not asyncio.current_task():
            self._task.cancel()
        self._task = asyncio.create_task(self._play(game))

    def close(self) -> None:
        if self._task is not None and self._task is not asyncio.current_task():
            self._task.cancel()

    async def _play(self, game: Game) -> None:
        current_game.set(game.id)
        player = game.players[game.turn]
        assert player is not None and player.ai_level is not None
        asked_at = self._time.now()
        movetime = ai_movetime(self._settings, game, asked_at)
        request = AiRequest(
            rules=game.rules_mapping,
            game_key=game.game_key,
            start_fen=game.start_fen,
            moves=tuple(m.move for m in game.moves),
            level=player.ai_level,
            movetime=movetime,
            game_id=game.id,
            version=game.version,
        )
        # A busy AI answers within its deadline (it thinks less); only a dead or unreachable
        # one runs past this.
        limit = 2 * movetime + 0.5 + self._settings.ai_timeout_margin
        try:
            # Workers still loading the engine are not dead ones: a fresh install's or an
            # upgrade's first start compiles it (a minute or more), and the search's own time
            # starts once they are up. Without this wait every reply until then was random.
            # (asyncio.timeout, not wait_for: workers already up answer at once even when the
            # clock leaves no time to wait, where wait_for(…, 0) would time out regardless.)
            async with asyncio.timeout(warm_up_limit(game, asked_at, limit)):
                await self._ai.ready()
            found = await asyncio.wait_for(self._ai.choose_move(request), limit)
        except asyncio.CancelledError:
            raise
        except Exception:
            # The game must go on: with no engine to answer, a random legal move (counted).
            log.exception("no engine answered in game %s; playing a random move", game.id)
            self._metrics.random_fallbacks.inc()
            move = random_move(game.position())
        else:
            move = found.move
            self._report_effort(game, found)
        await self._pace_reply(asked_at, movetime)
        command = Move(actor=AiPlayer(player.ai_level), move=move, expected_version=game.version)
        try:
            if not await self._submit(command):
                self._version = None  # think again when the actor's timer retries
        finally:
            if self._task is asyncio.current_task():
                self._task = None

    async def _pace_reply(self, asked_at: float, movetime: float) -> None:
        """Let a quick answer wait until a natural moment after the player's move (a random
        pause from ``ai_reply_pace``), no longer than the search itself may think, so that
        the pause never costs the computer's clock more than its own thinking would."""
        low, high = self._settings.ai_reply_pace
        if high <= 0:
            return
        pause = min(_rng.uniform(low, high), movetime)
        wait = asked_at + pause - self._time.now()
        if wait > 0:
            await asyncio.sleep(wait)

    def _report_effort(self, game: Game, found: AiMove) -> None:
        metrics = self._metrics
        metrics.ai_wait.labels(node=metrics.node, kind="move").observe(found.waited)
        metrics.ai_search.labels(node=metrics.node, kind="move").observe(found.movetime)
        if found.cut_short:
            metrics.effort_reductions.labels(node=metrics.node, kind="move").inc()
            # Not an event of the game (nothing to store or replay): a word to its players.
            self._notify(
                {
                    "type": "ai_busy",
                    "game_id": game.id,
                    "version": game.version,
                    "movetime": found.movetime,
                    "asked": found.asked,
                }
            )
