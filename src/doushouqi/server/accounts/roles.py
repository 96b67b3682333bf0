"""Accounts' roles: ``player`` (everyone), ``moderator`` (the moderation page: reports, mutes,
bans, closing accounts) and ``admin`` (a moderator who may also grant and revoke roles).

The first admin is made on the machine, with ``doushouqi admin grant USERNAME admin`` (cli);
after that an admin grants roles on the moderation page too. Every change is logged in the
moderation log by whoever calls :func:`set_role`.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from doushouqi.server.db import repo
from doushouqi.server.db.models import AccountRow

__all__ = [
    "ADMIN",
    "MODERATOR",
    "PLAYER",
    "ROLES",
    "RoleError",
    "is_admin",
    "is_moderator",
    "set_role",
    "staff",
]

PLAYER = "player"
MODERATOR = "moderator"
ADMIN = "admin"
#: Every role, least first.
ROLES = (PLAYER, MODERATOR, ADMIN)


class RoleError(ValueError):
    """A role change that cannot be made: ``code`` says why (``role.unknown_account``…)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def is_moderator(role: str) -> bool:
    """Whether ``role`` may moderate (admins moderate too)."""
    return role in (MODERATOR, ADMIN)


def is_admin(role: str) -> bool:
    return role == ADMIN


def set_role(session: Session, username: str, role: str) -> tuple[AccountRow, str]:
    """Give the account ``username`` the role ``role``; return it and its role before.
    Raises :class:`RoleError` for an unknown role, account, or one that is closed or banned
    (nobody moderates from an account that cannot log in)."""
    if role not in ROLES:
        raise RoleError("role.unknown", f"a role is one of {', '.join(ROLES)}")
    row = repo.account_by_username(session, username)
    if row is None:
        raise RoleError("role.unknown_account", f"no account is called {username!r}")
    if role != PLAYER and (row.closed_at is not None or row.banned_at is not None):
        raise RoleError("role.inactive_account", f"{row.username} is closed or banned")
    before = row.role
    row.role = role
    return row, before


def staff(session: Session) -> list[AccountRow]:
    """The moderators and admins, admins first, then by username."""
    query = select(AccountRow).where(AccountRow.role.in_((MODERATOR, ADMIN)))
    return sorted(session.scalars(query), key=lambda r: (r.role != ADMIN, r.username))
