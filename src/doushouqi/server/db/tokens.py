"""Queries on ``auth_tokens`` beyond logging in (``repo.py``): an account's sessions and API
tokens listed, used, and ended.

A token's public id is derived from its stored hash (:func:`token_id`), so that a list can name
a token, and a request end it, without showing the hash a lookup uses (nor, of course, the
token, which is never stored).
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from doushouqi.server.db.models import AccountRow, AuthTokenRow

__all__ = [
    "delete_tokens",
    "token_and_account",
    "token_id",
    "tokens_of",
    "touch_token",
]


def token_id(token_hash: str) -> str:
    """The token's public id: 16 hex digits derived from its stored hash."""
    return hashlib.sha256(f"id:{token_hash}".encode()).hexdigest()[:16]


def token_and_account(
    session: Session, token_hash: str, kinds: tuple[str, ...], now: float
) -> tuple[AuthTokenRow, AccountRow] | None:
    """The token and its account, unless it is of another kind, has expired, or its account
    is banned or closed."""
    token = session.get(AuthTokenRow, token_hash)
    if token is None or token.kind not in kinds:
        return None
    if token.expires_at is not None and token.expires_at < now:
        return None
    account = session.get(AccountRow, token.account_id)
    # Closing or banning deletes the tokens too: this is for a token issued in that moment.
    if account is None or account.banned_at is not None or account.closed_at is not None:
        return None
    return token, account


def touch_token(session: Session, token_hash: str, now: float, address: str) -> None:
    """Record that the token was used now, from ``address``."""
    session.execute(
        update(AuthTokenRow)
        .where(AuthTokenRow.token_hash == token_hash)
        .values(last_used_at=now, address=address[:64])
    )


def tokens_of(
    session: Session, account_id: int, kinds: tuple[str, ...], now: float
) -> list[AuthTokenRow]:
    """The account's unexpired tokens of ``kinds``, newest first."""
    unexpired = AuthTokenRow.expires_at.is_(None) | (AuthTokenRow.expires_at >= now)
    return list(
        session.scalars(
            select(AuthTokenRow)
            .where(
                AuthTokenRow.account_id == account_id,
                AuthTokenRow.kind.in_(kinds),
                unexpired,
            )
            .order_by(AuthTokenRow.created_at.desc())
        )
    )


def delete_tokens(
    session: Session,
    account_id: int,
    kinds: tuple[str, ...],
    ids: Collection[str] | None = None,
    keep: str | None = None,
) -> list[str]:
    """Delete the account's tokens of ``kinds`` (those of ``ids`` only, when given; never the
    one whose id is ``keep``); return the ids deleted."""
    rows = session.scalars(
        select(AuthTokenRow).where(
            AuthTokenRow.account_id == account_id, AuthTokenRow.kind.in_(kinds)
        )
    )
    doomed = {
        row.token_hash: token_id(row.token_hash)
        for row in rows
        if (ids is None or token_id(row.token_hash) in ids) and token_id(row.token_hash) != keep
    }
    if doomed:
        session.execute(delete(AuthTokenRow).where(AuthTokenRow.token_hash.in_(doomed)))
    return list(doomed.values())
