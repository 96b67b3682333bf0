"""Who is asking: accounts (password → session cookie, or API token for bots) and guests.

* Passwords are hashed with Argon2id (argon2-cffi), off the event loop: a hash takes tens of
  milliseconds of CPU by design.
* Session and API tokens are 256-bit random strings; the database keeps only their SHA-256,
  so a leaked database holds no usable token.
* Cookies are HttpOnly (no script can read them), SameSite=Lax (not sent on cross-site
  posts) and Secure on https and on loopback (browsers accept Secure cookies on
  ``http://localhost``), unless the settings say otherwise.
* A guest is a random secret in a cookie: nothing to sign up. Games show an id derived from
  it (a hash), so what spectators see cannot be used to impersonate the guest. A guest may
  choose a display name, kept under that id (``guest_names``) for as long as the cookie lasts:
  the cookie is set once, for ``guest_days``, so a name last set longer ago than that belongs to
  an expired cookie and is forgotten (:meth:`Auth.forget_stale_guest_names`).
* A browser that has signed up for or logged in to an account keeps a device cookie for it (a
  token of kind ``device``, for ``device_days``): password guessing spread over many addresses
  locks the account only for browsers without one
  (:class:`doushouqi.server.infra.ratelimit.LoginThrottle`), so its owner can still log in.
* New passwords must be hard to guess (:mod:`doushouqi.server.accounts.passwords`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import re
import secrets
from dataclasses import dataclass, field
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy.orm import Session
from starlette.requests import HTTPConnection
from starlette.responses import Response

from doushouqi.core.rating import Rating
from doushouqi.core.speed import Speed
from doushouqi.server.db import repo
from doushouqi.server.db.database import Database
from doushouqi.server.db.models import AccountRow, RatingRow
from doushouqi.server.db.speed_ratings import as_rating, speed_rating
from doushouqi.server.domain import Account, Guest, PlayerSlot, identity_from_dict
from doushouqi.server.infra.settings import Settings
from doushouqi.server.infra.timesource import TimeSource

__all__ = [
    "AVATARS",
    "DEVICE_COOKIE",
    "GUEST_COOKIE",
    "NO_AVATAR",
    "SESSION_COOKIE",
    "Auth",
    "Principal",
    "browser_keys",
    "hash_token",
]

SESSION_COOKIE = "dsq_session"
GUEST_COOKIE = "dsq_guest"
DEVICE_COOKIE = "dsq_device"
#: The animals a player may take as avatar (the eight pieces).
AVATARS = ("rat", "cat", "dog", "wolf", "leopard", "tiger", "lion", "elephant")
#: An account's avatar until it chooses one: none, whatever the game (the web client draws the
#: name's initial), rather than one game's piece.
NO_AVATAR = ""
GUEST_SECRET = re.compile(r"[A-Za-z0-9_-]{22}")
USERNAME = re.compile(r"[a-z0-9_]{3,32}")
LOOPBACK = ("localhost", "127.0.0.1", "::1")


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def browser_keys(conn: HTTPConnection) -> list[str]:
    """The names a browser goes by besides whoever is signed in on it now: the guest its
    guest cookie makes it (kept after signing in), ``guest:ID`` as games key a guest, and its
    device cookie (left by signing up or in), ``device:HASH``. What one of its accounts or
    guests saw, another of them has seen too (a puzzle's solution)."""
    keys = []
    guest = conn.cookies.get(GUEST_COOKIE, "")
    if GUEST_SECRET.fullmatch(guest):
        keys.append(f"guest:{public_guest_id(guest)}")
    if device := conn.cookies.get(DEVICE_COOKIE, "")[:128]:
        # Not the token's stored hash (auth_tokens): this key cannot be matched against it.
        keys.append(f"device:{hash_token('browser:' + device)[:40]}")
    return keys


def guest_avatar(guest_id: str) -> str:
    return AVATARS[int(hash_token(guest_id)[:8], 16) % len(AVATARS)]


def public_guest_id(secret: str) -> str:
    """The guest's id as games show it. The cookie holds a secret from which this id is
    derived, never the id itself: every spectator sees the id, and must not be able to
    present it as the guest's cookie."""
    return hash_token("guest:" + secret)[:20]


@dataclass(frozen=True)
class Principal:
    """The signed-in account or the guest behind a request, as a game seats them."""

    identity: Account | Guest
    name: str
    avatar: str
    score: int = 0
    rating: Rating = field(default_factory=Rating)
    username: str | None = None
    is_bot: bool = False

    @property
    def account_id(self) -> int | None:
        return self.identity.id if isinstance(self.identity, Account) else None

    def slot(self) -> PlayerSlot:
        return PlayerSlot(
            self.identity, self.name, self.avatar, self.score, self.rating, self.username
        )

    def to_dict(self) -> dict[str, Any]:
        """As plain data (a command forwarded to another node carries who sent it)."""
        return {
            "identity": self.identity.to_dict(),
            "name": self.name,
            "avatar": self.avatar,
            "score": self.score,
            "rating": [self.rating.rating, self.rating.rd, self.rating.volatility],
            "username": self.username,
            "is_bot": self.is_bot,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Principal:
        identity = identity_from_dict(data["identity"])
        if not isinstance(identity, Account | Guest):
            raise ValueError("a principal is an account or a guest")
        rating, rd, volatility = data["rating"]
        return cls(
            identity,
            str(data["name"]),
            str(data["avatar"]),
            int(data["score"]),
            Rating(float(rating), float(rd), float(volatility)),
            data["username"],
            bool(data["is_bot"]),
        )

    def with_standing(self, standing: RatingRow, rating: Rating) -> Principal:
        """The same player with the score of ``standing`` (one game's) and ``rating`` (that
        game's at one speed)."""
        return dataclasses.replace(self, score=standing.score, rating=rating)

    @classmethod
    def from_account(cls, row: AccountRow, standing: RatingRow) -> Principal:
        """The account, with its score in one game (``standing``: the game its seats are for,
        :data:`~doushouqi.server.db.repo.DEFAULT_GAME` while the site has one) and a new
        player's rating until :meth:`Auth.in_game` seats it at a speed (ratings are per speed)."""
        return cls(
            Account(row.id),
            row.display_name,
            row.avatar,
            standing.score,
            Rating(),
            row.username,
            row.is_bot,
        )

    @classmethod
    def guest(cls, secret: str, name: str | None = None) -> Principal:
        """The guest whose cookie holds ``secret``, under the ``name`` it chose, if any."""
        guest_id = public_guest_id(secret)
        return cls(Guest(guest_id), name or f"Guest-{guest_id[:5]}", guest_avatar(guest_id))


class Auth:
    def __init__(self, settings: Settings, db: Database, time: TimeSource) -> None:
        self.settings = settings
        self.db = db
        self.time = time
        self.hasher = PasswordHasher(
            time_cost=settings.argon2_time_cost, memory_cost=settings.argon2_memory_kib
        )
        self._dummy: str | None = None

    # ------------------------------------------------------------------ passwords

    async def hash_password(self, password: str) -> str:
        return await asyncio.to_thread(self.hasher.hash, password)

    async def dummy_hash(self) -> str:
        """A hash to verify against when a username is unknown (so timing does not tell)."""
        if self._dummy is None:
            self._dummy = await self.hash_password(secrets.token_urlsafe(16))
        return self._dummy

    async def verify_password(self, password_hash: str, password: str) -> bool:
        def verify() -> bool:
            try:
                return self.hasher.verify(password_hash, password)
            except (VerificationError, InvalidHashError):
                return False

        return await asyncio.to_thread(verify)

    # ------------------------------------------------------------------ tokens

    async def issue_token(self, account_id: int, kind: str, label: str = "") -> str:
        token = secrets.token_urlsafe(32)
        now = self.time.now()
        days = {"session": self.settings.session_days, "device": self.settings.device_days}
        expires = now + days[kind] * 86400 if kind in days else None
        await self.db.write(
            lambda s: repo.add_token(
                s,
                token_hash=hash_token(token),
                account_id=account_id,
                kind=kind,
                now=now,
                expires_at=expires,
                label=label,
            )
        )
        return token

    async def revoke(self, token: str) -> None:
        await self.db.write(lambda s: repo.delete_token(s, hash_token(token)))

    async def _account(self, token: str, kinds: tuple[str, ...]) -> Principal | None:
        if not token or len(token) > 128:
            return None
        now = self.time.now()

        def read(session: Session) -> Principal | None:
            row = repo.account_for_token(session, hash_token(token), kinds, now)
            if row is None:
                return None
            return Principal.from_account(row, repo.standing(session, row.id, repo.DEFAULT_GAME))

        return await self.db.read(read)

    async def in_game(self, principal: Principal, game: str, speed: Speed | None) -> Principal:
        """``principal`` with its score in ``game`` and its rating there at ``speed`` (that of
        the game's time control; None, a game without a clock: a new player's, never rated):
        what seats it in a game. A guest has a new player's everywhere."""
        account_id = principal.account_id
        if account_id is None:
            return principal

        def read(session: Session) -> tuple[RatingRow, Rating]:
            standing = repo.standing(session, account_id, game)
            if speed is None:
                return standing, Rating()
            return standing, as_rating(speed_rating(session, account_id, game, speed))

        standing, rating = await self.db.read(read)
        return principal.with_standing(standing, rating)

    async def device_account(self, conn: HTTPConnection) -> int | None:
        """The account this browser has logged in to before (its device cookie), if any."""
        found = await self._account(conn.cookies.get(DEVICE_COOKIE, ""), ("device",))
        return None if found is None else found.account_id

    async def principal(self, conn: HTTPConnection) -> Principal | None:
        """The bearer token's account, else the session cookie's, else the guest's."""
        header = conn.headers.get("authorization", "")
        if header.lower().startswith("bearer "):
            return await self._account(header[7:].strip(), ("api", "session"))
        if token := conn.cookies.get(SESSION_COOKIE):
            found = await self._account(token, ("session",))
            if found is not None:
                return found
        guest = conn.cookies.get(GUEST_COOKIE, "")
        if GUEST_SECRET.fullmatch(guest):
            guest_id = public_guest_id(guest)
            name = await self.db.read(lambda s: repo.guest_name(s, guest_id))
            return Principal.guest(guest, name)
        return None

    # ------------------------------------------------------------------ guests

    @property
    def guest_cookie_age(self) -> int:
        """Seconds a guest cookie lasts (set once, when the guest session starts)."""
        return self.settings.guest_days * 86400

    async def forget_stale_guest_names(self) -> int:
        """Delete the names of guests whose cookies have expired; return how many went."""
        set_before = self.time.now() - self.guest_cookie_age
        return await self.db.write(lambda s: repo.forget_guest_names(s, set_before))

    async def forget_expired_tokens(self) -> int:
        """Delete expired login sessions and API tokens (they no longer log anyone in)."""
        now = self.time.now()
        return await self.db.write(lambda s: repo.forget_expired_tokens(s, now))

    # ------------------------------------------------------------------ cookies

    def _secure(self, conn: HTTPConnection) -> bool:
        if self.settings.cookie_secure is not None:
            return self.settings.cookie_secure
        return conn.url.scheme in ("https", "wss") or conn.url.hostname in LOOPBACK

    def set_cookie(
        self, response: Response, conn: HTTPConnection, name: str, value: str, max_age: int
    ) -> None:
        response.set_cookie(
            name,
            value,
            max_age=max_age,
            httponly=True,
            samesite="lax",
            secure=self._secure(conn),
            path="/",
        )

    def clear_cookie(self, response: Response, conn: HTTPConnection, name: str) -> None:
        response.delete_cookie(
            name, path="/", httponly=True, samesite="lax", secure=self._secure(conn)
        )


def new_guest_secret() -> str:
    return secrets.token_urlsafe(16)
