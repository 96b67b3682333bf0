"""Closing and banning accounts, and lifting a ban.

* **Closing** (by the owner, with the password, or by a moderator): the account can no longer
  log in; its login sessions, device cookies and API tokens are deleted at once. The row stays,
  as lichess keeps a closed account: its username is never registered again (the name is
  unique), and its games stay in the other players' histories under its name. Closing is for
  good: there is no reopening on the site.
* **Banning** (by a moderator): the same for logging in and its tokens, but kept apart from
  closing so that it reads as what it is and can be lifted (``unban``).

What else goes with the account (its seeks and challenges withdrawn, its open sockets cut off
on every node, the moderation log) is the caller's to do: those are other features' (the API
layer puts them together).
"""

from __future__ import annotations

from sqlalchemy import delete
from sqlalchemy.orm import Session

from doushouqi.server.accounts.roles import PLAYER
from doushouqi.server.db.models import AccountRow, AuthTokenRow
from doushouqi.server.infra.errors import Problem

__all__ = ["ban", "close", "forget_logins", "is_active", "refuse_inactive", "unban"]


def is_active(row: AccountRow) -> bool:
    """Whether the account may log in and use the site (not banned, not closed)."""
    return row.banned_at is None and row.closed_at is None


def forget_logins(session: Session, account_id: int) -> int:
    """Delete every session, device and API token of the account; return how many."""
    deleted = session.execute(delete(AuthTokenRow).where(AuthTokenRow.account_id == account_id))
    return int(deleted.rowcount)  # type: ignore[attr-defined]


def close(session: Session, row: AccountRow, now: float) -> None:
    """Close the account (see this module); closing a closed account changes nothing."""
    if row.closed_at is None:
        row.closed_at = now
    row.role = PLAYER  # a closed account moderates nothing
    forget_logins(session, row.id)


def ban(session: Session, row: AccountRow, now: float) -> None:
    if row.banned_at is None:
        row.banned_at = now
    row.role = PLAYER
    forget_logins(session, row.id)


def unban(row: AccountRow) -> None:
    """Lift a ban: the owner may log in again (with a new session: the old ones are gone)."""
    row.banned_at = None


def refuse_inactive(row: AccountRow) -> None:
    """A 403 for a log-in to a banned (``account.banned``) or closed (``account.closed``)
    account."""
    if row.closed_at is not None:
        raise Problem(403, "account.closed", "this account is closed")
    if row.banned_at is not None:
        raise Problem(403, "account.banned", "this account is banned")
