"""The database tables (SQLAlchemy 2). Alembic migrations create them; a test checks that the
migrated schema and these models agree.

Games are stored twice over, on purpose: ``games.state`` is the whole game as JSON
(:mod:`doushouqi.server.domain.storage`), rewritten in the same transaction as every accepted
command, which is what a restart rebuilds live games from; ``game_events`` is the append-only
log of what clients were told, keyed by the game's version, from which a reconnecting client
catches up. The other columns of ``games`` copy what lists and searches need.
Times are Unix seconds as floats, as the domain uses them.

A game's seats are numbered (``seat0_key``, ``seat1_key``), not named by a game's colours, and
``games.game`` names which game it is (its key in :data:`doushouqi.core.game.GAMES`). What a
player earns by playing is per game, like lichess's per-variant ratings: ``ratings`` holds one row
per (account, game) the account has played (none yet reads as a new player's values), and
``speed_ratings`` one Glicko-2 rating per (account, game, speed), like lichess's per-speed ratings.
"""

from __future__ import annotations

from sqlalchemy import Boolean, Float, ForeignKey, Index, Integer, MetaData, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

__all__ = [
    "AccountRow",
    "AuthTokenRow",
    "Base",
    "GameEventRow",
    "GameRow",
    "GuestNameRow",
    "RatingRow",
    "RecordRow",
    "ServerStateRow",
    "SiteOutageRow",
    "SpeedRatingRow",
]

# Named constraints, so migrations can refer to them on every database.
NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class AccountRow(Base):
    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: The login name, lower case; unique.
    username: Mapped[str] = mapped_column(String(32), unique=True)
    display_name: Mapped[str] = mapped_column(String(40))
    password_hash: Mapped[str] = mapped_column(String(255))
    #: An animal of the site's avatar list, or "" (none chosen: the web client draws the name's
    #: initial; a default animal would be one game's piece).
    avatar: Mapped[str] = mapped_column(String(16), default="")
    is_bot: Mapped[bool] = mapped_column(Boolean, default=False)
    # Leaving games and running out of per-move time are the person's habits, counted over every
    # game they play (a fair-play signal), so they stay here rather than in ``ratings``.
    disconnects: Mapped[int] = mapped_column(Integer, default=0)
    timeouts: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[float] = mapped_column(Float)
    #: ``player``, ``moderator`` or ``admin`` (accounts/roles.py): what the account may do to
    #: others' accounts and messages.
    role: Mapped[str] = mapped_column(String(16), default="player", server_default="player")
    #: When a moderator banned the account (None: not banned): it cannot log in, play or chat.
    banned_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: When the account was closed, by its owner or a moderator (None: open). The row stays:
    #: its username is never given again and its games keep its name.
    closed_at: Mapped[float | None] = mapped_column(Float, nullable=True)


class RatingRow(Base):
    """An account's standing in one game: ladder score and results of every counted game (rated
    or not, the computer's too). Written when the account's first counted game of that game
    finishes. Its Glicko-2 ratings are per speed (:class:`SpeedRatingRow`)."""

    __tablename__ = "ratings"

    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    #: The game's key (``"jungle"``).
    game: Mapped[str] = mapped_column(String(16), primary_key=True)
    score: Mapped[int] = mapped_column(Integer, default=0)
    games: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    losses: Mapped[int] = mapped_column(Integer, default=0)
    draws: Mapped[int] = mapped_column(Integer, default=0)

    # The score board: one game's players by score.
    __table_args__ = (Index("ix_ratings_game_score", "game", "score"),)


class SpeedRatingRow(Base):
    """An account's Glicko-2 rating in one game at one speed (``doushouqi.core.speed``: bullet,
    blitz, rapid, classical, correspondence). Written when its first rated game of that game at
    that speed finishes (or by the migration that split the per-game rating); none reads as a
    new player's (1500, RD 350)."""

    __tablename__ = "speed_ratings"

    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    game: Mapped[str] = mapped_column(String(16), primary_key=True)
    speed: Mapped[str] = mapped_column(String(16), primary_key=True)
    rating: Mapped[float] = mapped_column(Float, default=1500.0)
    rd: Mapped[float] = mapped_column(Float, default=350.0)
    volatility: Mapped[float] = mapped_column(Float, default=0.06)
    #: Rated games played at this speed.
    games: Mapped[int] = mapped_column(Integer, default=0)

    # The rating boards: one game's players at one speed by rating.
    __table_args__ = (Index("ix_speed_ratings_game_speed_rating", "game", "speed", "rating"),)


class AuthTokenRow(Base):
    """A login session (cookie), a device cookie or an API token; only the token's SHA-256 is
    kept. Its public id (lists, revoking) is derived from that hash (``db/tokens.py``)."""

    __tablename__ = "auth_tokens"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(16))  # "session", "device" or "api"
    label: Mapped[str] = mapped_column(String(64), default="")
    created_at: Mapped[float] = mapped_column(Float)
    expires_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: An API token's scopes, space-separated (``accounts/scopes.py``); "" for a session, whose
    #: cookie has the account's full power, and for a device cookie, which logs nobody in.
    scopes: Mapped[str] = mapped_column(String(255), default="", server_default="")
    #: When it was last used (written at most once a minute: not a write per request).
    last_used_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: A session's browser and system, from its User-Agent ("Chrome on Android").
    device: Mapped[str] = mapped_column(String(64), default="", server_default="")
    #: The client address it was last used from.
    address: Mapped[str] = mapped_column(String(64), default="", server_default="")

    __table_args__ = (Index("ix_auth_tokens_account_id", "account_id"),)


class GuestNameRow(Base):
    """The display name a guest chose. A guest has no account: it is known by the id derived
    from its cookie (``auth.public_guest_id``), so the name lasts as long as that cookie."""

    __tablename__ = "guest_names"

    guest_id: Mapped[str] = mapped_column(String(20), primary_key=True)
    display_name: Mapped[str] = mapped_column(String(40))
    #: When the name was last set (lets old names be cleared once their cookies have expired).
    updated_at: Mapped[float] = mapped_column(Float)


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    mode: Mapped[str] = mapped_column(String(16))
    status: Mapped[int] = mapped_column(Integer)
    rules: Mapped[str] = mapped_column(String(64))
    time_control: Mapped[str | None] = mapped_column(String(40), nullable=True)
    rated: Mapped[bool] = mapped_column(Boolean)
    #: Listed in the lobby while a seat is open.
    public: Mapped[bool] = mapped_column(Boolean, default=True)
    open_seats: Mapped[int] = mapped_column(Integer)
    #: Which game: its key in the games registry (``"jungle"``).
    game: Mapped[str] = mapped_column(String(16))
    #: Who sits where, as ``account:7`` / ``guest:abc`` / ``ai:5`` (for per-player history).
    #: The seats are the domain game's ``players[0]`` and ``players[1]`` (Jungle's red, blue).
    seat0_key: Mapped[str | None] = mapped_column(String(64), nullable=True)
    seat1_key: Mapped[str | None] = mapped_column(String(64), nullable=True)
    result: Mapped[str] = mapped_column(String(8))
    termination: Mapped[str | None] = mapped_column(String(24), nullable=True)
    version: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[float] = mapped_column(Float)
    started_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    finished_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    rematch_id: Mapped[str | None] = mapped_column(String(16), nullable=True)
    state: Mapped[str] = mapped_column(Text)

    __table_args__ = (
        Index("ix_games_status", "status"),
        Index("ix_games_seat0_key", "seat0_key"),
        Index("ix_games_seat1_key", "seat1_key"),
    )


class GameEventRow(Base):
    __tablename__ = "game_events"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    type: Mapped[str] = mapped_column(String(32))
    payload: Mapped[str] = mapped_column(Text)


class RecordRow(Base):
    """An uploaded game record, kept so that its replay can be shared by link."""

    __tablename__ = "records"
    __table_args__ = (Index("ix_records_uploader", "uploader"),)

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    #: The game whose record format the text is in (its key).
    game: Mapped[str] = mapped_column(String(16))
    text: Mapped[str] = mapped_column(Text)
    account_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True
    )
    created_at: Mapped[float] = mapped_column(Float)
    #: Who stored it, for the storage quota: "account:ID", else "address:IP" (None: uploaded
    #: before quotas).
    uploader: Mapped[str | None] = mapped_column(String(80), nullable=True)
    #: The text's size in UTF-8 bytes.
    size: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class ServerStateRow(Base):
    """Small facts about the server itself, such as the last moment it knew it was alive."""

    __tablename__ = "server_state"

    key: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[float] = mapped_column(Float)


class SiteOutageRow(Base):
    """A time the site was away (``domain/site_time.py``): down (from its last heartbeat to
    its restart), or one node cut off from Redis (from its last answer to the next), so that
    players could not reach its games. Waiting periods are measured without them."""

    __tablename__ = "site_outages"
    __table_args__ = (Index("ix_site_outages_ended_at", "ended_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    started_at: Mapped[float] = mapped_column(Float)
    ended_at: Mapped[float] = mapped_column(Float)
    #: ``down`` (the whole site) or ``redis`` (one node could not reach Redis).
    cause: Mapped[str] = mapped_column(String(8))
    #: The node that was cut off (None: the whole site).
    node: Mapped[str | None] = mapped_column(String(64), nullable=True)
