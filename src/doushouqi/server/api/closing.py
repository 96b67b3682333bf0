"""Closing your own account: ``POST /api/account/close`` with the password.

A signed-in browser only (the session cookie): an API token, however it was got, cannot close
the account it belongs to. What closing does is in :mod:`doushouqi.server.accounts.closing`;
what else goes with it (seeks and challenges withdrawn, sockets cut off on every node, the
games in progress resigned and the ones not started aborted, the moderation log) is
:func:`withdraw_and_log`'s and :func:`shut_out`'s, which the moderators' closing and banning
share.
"""

from __future__ import annotations

import functools
import logging
from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from redis.exceptions import RedisError
from sqlalchemy import and_, or_, select
from sqlalchemy.orm import Session

from doushouqi.server.accounts import closing
from doushouqi.server.accounts.auth import DEVICE_COOKIE, SESSION_COOKIE, Principal
from doushouqi.server.api.deps import Ctx, SessionAccount, too_many_requests
from doushouqi.server.context import AppContext, client_address
from doushouqi.server.db.models import AccountRow, GameRow
from doushouqi.server.domain.model import GameStatus
from doushouqi.server.domain.players import Account
from doushouqi.server.infra.errors import Problem
from doushouqi.server.live.cluster import ClusterUnavailable
from doushouqi.server.live.ws import Client, dispatch
from doushouqi.server.moderation import log as modlog
from doushouqi.server.pairing.service import withdraw_all

log = logging.getLogger(__name__)
router = APIRouter(prefix="/api/account", tags=["auth"])

#: The most games ended with one account (a correspondence player may have many).
MAX_GAMES_ENDED = 500


class CloseRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    password: str = Field(max_length=128)


def account_key(account_id: int) -> str:
    """The account as games and chat key it (``account:7``)."""
    return f"account:{account_id}"


def withdraw_and_log(
    session: Session,
    row: AccountRow,
    entry: modlog.Entry,
    *,
    moderator_id: int | None,
    moderator: str,
    now: float,
) -> None:
    """In the closing or banning transaction: the account's seeks and challenges withdrawn,
    and the action logged."""
    withdraw_all(session, account_key(row.id), row.id)
    modlog.record(session, entry, moderator_id=moderator_id, moderator=moderator, now=now)


async def shut_out(ctx: AppContext, account_id: int) -> None:
    """After the transaction: every open socket of the account closed, on every node (its
    browsers reconnect as whoever their cookies make them now: nobody's account), and its
    games ended (:func:`end_games`)."""
    ctx.registry.cut_off_everywhere(account_id)
    await end_games(ctx, account_id)


def _unfinished_games(session: Session, key: str) -> list[str]:
    seated = or_(GameRow.seat0_key == key, GameRow.seat1_key == key)
    unfinished = GameRow.status.in_((int(GameStatus.CREATED), int(GameStatus.STARTED)))
    query = select(GameRow.id).where(and_(seated, unfinished)).limit(MAX_GAMES_ENDED)
    return list(session.scalars(query))


async def end_games(ctx: AppContext, account_id: int) -> int:
    """Resign every game the account has in progress and abort those not started, each
    through its owner as the account itself would (on whichever node owns it): an opponent
    is not left waiting for a player who can never come back. Returns how many ended; a
    game that cannot be reached now (its node away) is left to its clock."""
    games = await ctx.db.read(lambda s: _unfinished_games(s, account_key(account_id)))
    principal = Principal(Account(account_id), "", "")
    ended = 0
    for game_id in games:
        try:
            handle = await ctx.registry.get(game_id)
        except (RedisError, ClusterUnavailable):
            continue
        if handle is None:
            continue
        for command in ("resign", "abort"):  # a game not started can only be aborted
            replies = await dispatch(Client(ctx, handle, principal), f'{{"type":"{command}"}}')
            if not any(reply.get("type") in ("rejected", "error") for reply in replies):
                ended += 1
                break
        else:
            log.warning("could not end game %s of account %s: %s", game_id, account_id, replies)
    return ended


@router.post("/close")
async def close_own_account(
    body: CloseRequest, request: Request, response: Response, ctx: Ctx, principal: SessionAccount
) -> dict[str, Any]:
    """Close the signed-in account, for good. Its username stays taken; its games stay in
    other players' histories under its name; it can no longer log in. A signed-in browser
    only (never an API token)."""
    account_id = principal.account_id
    assert account_id is not None
    row = await ctx.db.read(lambda s: s.get(AccountRow, account_id))
    assert row is not None  # a principal's account exists
    address = client_address(request)
    if (wait := ctx.login_limiter.wait(address)) is not None:
        raise too_many_requests(wait)
    if not await ctx.auth.verify_password(row.password_hash, body.password):
        ctx.login_limiter.check(address)  # a wrong password counts as a failed log-in
        raise Problem(403, "account.password_wrong", "that is not the account's password")

    def close(session: Session, now: float) -> None:
        account = session.get(AccountRow, account_id)
        assert account is not None
        closing.close(session, account, now)
        entry = modlog.Entry("self_close", account_key(account_id), account.username)
        withdraw_and_log(
            session, account, entry, moderator_id=account_id, moderator=account.username, now=now
        )

    await ctx.db.write(functools.partial(close, now=ctx.time.now()))
    await shut_out(ctx, account_id)
    ctx.auth.clear_cookie(response, request, SESSION_COOKIE)
    ctx.auth.clear_cookie(response, request, DEVICE_COOKIE)
    return {"closed": True, "username": row.username}
