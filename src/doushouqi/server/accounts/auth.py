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
* An API token (``Authorization: Bearer``) carries scopes (:mod:`.scopes`); a session cookie
  has the account's full power. :meth:`Auth.caller` says who is asking and by what; the routes
  check the scope (``api/deps.py``). Each use of a token or session is recorded at most once a
  :data:`TOUCH_EVERY` ("last used"), never by a write per request, and no lookup is cached:
  a token ended on any node is refused by every node at its next request.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import re
import secrets
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any, Literal

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy.orm import Session
from starlette.requests import HTTPConnection
from starlette.responses import Response

from doushouqi.core.rating import Rating
from doushouqi.core.speed import Speed
from doushouqi.server.accounts.scopes import ANY_TOKEN, SESSION_ONLY, parse_scopes
from doushouqi.server.db import repo, tokens
from doushouqi.server.db.database import Database
from doushouqi.server.db.models import AccountRow, AuthTokenRow, RatingRow
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
    "Caller",
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
#: Seconds between two records of a token's use (its "last used"): not a write per request.
TOUCH_EVERY = 60.0
#: Tokens whose last record this node remembers, at most (older entries are dropped).
TOUCHED_MEMO = 10_000


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
    #: The account's role (accounts/roles.py), as read with the request: not carried when a
    #: command is forwarded to another node (what needs it reads it again there).
    role: str = "player"

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
            row.role,
        )

    @classmethod
    def guest(cls, secret: str, name: str | None = None) -> Principal:
        """The guest whose cookie holds ``secret``, under the ``name`` it chose, if any."""
        guest_id = public_guest_id(secret)
        return cls(Guest(guest_id), name or f"Guest-{guest_id[:5]}", guest_avatar(guest_id))


@dataclass(frozen=True)
class Caller:
    """Who is asking, and by what: an API token (with its scopes), a session cookie (the
    account's full power) or a guest cookie."""

    principal: Principal
    via: Literal["token", "session", "guest"]
    #: The token's public id (``db/tokens.py``): the API token's or the session's.
    token_id: str | None = None
    #: An API token's scopes (``accounts/scopes.py``).
    scopes: frozenset[str] = frozenset()
    #: When the token or session stops logging anyone in (None: until it is ended); the
    #: sockets opened with it close then (``live/signouts.py``).
    expires_at: float | None = None

    def allows(self, scope: str) -> bool:
        """Whether this caller may use a route that needs ``scope`` (a scope, or
        :data:`~doushouqi.server.accounts.scopes.ANY_TOKEN` or ``SESSION_ONLY``)."""
        if self.via != "token":
            return True
        if scope == ANY_TOKEN:
            return True
        return scope != SESSION_ONLY and scope in self.scopes


class Auth:
    def __init__(self, settings: Settings, db: Database, time: TimeSource) -> None:
        self.settings = settings
        self.db = db
        self.time = time
        self.hasher = PasswordHasher(
            time_cost=settings.argon2_time_cost, memory_cost=settings.argon2_memory_kib
        )
        self._dummy: str | None = None
        #: Token hash → when this node last recorded its use (see :meth:`_touch`).
        self._touched: dict[str, float] = {}

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

    async def issue_token(
        self,
        account_id: int,
        kind: str,
        label: str = "",
        *,
        scopes: str = "",
        expires_at: float | None = None,
        device: str = "",
        address: str = "",
    ) -> str:
        """A new token of ``kind`` (``session``, ``device`` or ``api``). Sessions and device
        cookies last as the settings say; an API token until ``expires_at``, if given."""
        token = secrets.token_urlsafe(32)
        now = self.time.now()
        days = {"session": self.settings.session_days, "device": self.settings.device_days}
        expires = now + days[kind] * 86400 if kind in days else expires_at
        await self.db.write(
            lambda s: repo.add_token(
                s,
                token_hash=hash_token(token),
                account_id=account_id,
                kind=kind,
                now=now,
                expires_at=expires,
                label=label,
                scopes=scopes,
                device=device,
                address=address,
            )
        )
        return token

    async def revoke(self, token: str) -> str:
        """End the token (whatever it is); return its public id (to close its sockets)."""
        token_hash = hash_token(token)
        await self.db.write(lambda s: repo.delete_token(s, token_hash))
        return tokens.token_id(token_hash)

    async def end_tokens(
        self,
        account_id: int,
        kinds: tuple[str, ...],
        ids: Collection[str] | None = None,
        keep: str | None = None,
    ) -> list[str]:
        """End the account's tokens of ``kinds`` (only ``ids``, when given; never ``keep``);
        return the ids ended. Every node refuses them from the next request on: nothing
        caches a token (each request reads it), so only open sockets need closing."""
        return await self.db.write(lambda s: tokens.delete_tokens(s, account_id, kinds, ids, keep))

    async def tokens_of(self, account_id: int, kinds: tuple[str, ...]) -> list[AuthTokenRow]:
        now = self.time.now()
        return await self.db.read(lambda s: tokens.tokens_of(s, account_id, kinds, now))

    async def _lookup(
        self, conn: HTTPConnection, token: str, kinds: tuple[str, ...]
    ) -> tuple[Principal, AuthTokenRow] | None:
        if not token or len(token) > 128:
            return None
        now = self.time.now()
        token_hash = hash_token(token)

        def read(session: Session) -> tuple[Principal, AuthTokenRow] | None:
            found = tokens.token_and_account(session, token_hash, kinds, now)
            if found is None:
                return None
            row, account = found
            standing = repo.standing(session, account.id, repo.DEFAULT_GAME)
            return Principal.from_account(account, standing), row

        found = await self.db.read(read)
        if found is not None:
            await self._touch(found[1], now, conn)
        return found

    async def _touch(self, row: AuthTokenRow, now: float, conn: HTTPConnection) -> None:
        """Record the token's use: at most once a :data:`TOUCH_EVERY` per token, whatever the
        node (the stored time says when any node last wrote it; the memo here keeps a burst
        of requests on this node from all writing before the first has)."""
        token_hash = row.token_hash
        last = max(row.last_used_at or 0.0, self._touched.get(token_hash, 0.0))
        if now - last < TOUCH_EVERY:
            return
        if len(self._touched) >= TOUCHED_MEMO:
            self._touched = {k: t for k, t in self._touched.items() if now - t < TOUCH_EVERY}
        self._touched[token_hash] = now
        address = conn.client.host if conn.client is not None else ""
        await self.db.write(lambda s: tokens.touch_token(s, token_hash, now, address))

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
        found = await self._lookup(conn, conn.cookies.get(DEVICE_COOKIE, ""), ("device",))
        return None if found is None else found[0].account_id

    async def caller(self, conn: HTTPConnection) -> Caller | None:
        """Who is asking: the bearer token's account (an API token, with its scopes; a bad
        token is nobody, never the cookie's account), else the session cookie's, else the
        guest's."""
        header = conn.headers.get("authorization", "")
        if header.lower().startswith("bearer "):
            found = await self._lookup(conn, header[7:].strip(), ("api",))
            if found is None:
                return None
            principal, row = found
            scopes = parse_scopes(row.scopes)
            return Caller(
                principal, "token", tokens.token_id(row.token_hash), scopes, row.expires_at
            )
        if token := conn.cookies.get(SESSION_COOKIE):
            found = await self._lookup(conn, token, ("session",))
            if found is not None:
                principal, row = found
                token_id = tokens.token_id(row.token_hash)
                return Caller(principal, "session", token_id, expires_at=row.expires_at)
        guest = conn.cookies.get(GUEST_COOKIE, "")
        if GUEST_SECRET.fullmatch(guest):
            guest_id = public_guest_id(guest)
            name = await self.db.read(lambda s: repo.guest_name(s, guest_id))
            return Caller(Principal.guest(guest, name), "guest")
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
