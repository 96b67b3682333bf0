"""Server settings: defaults that run out of the box, overridable by ``DOUSHOUQI_*`` variables.

With nothing configured the server keeps its data in an embedded SQLite file under the user's
data directory; ``DOUSHOUQI_DATABASE_URL`` (e.g. ``postgresql+psycopg://user@host/db``) points
it at PostgreSQL instead.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Settings", "default_data_dir"]

STATIC_DIR = Path(__file__).parent.parent / "static"


def default_data_dir(env: Mapping[str, str] | None = None) -> Path:
    env = os.environ if env is None else env
    base = env.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "doushouqi"


@dataclass(frozen=True)
class RateLimit:
    """At most ``count`` requests per ``period`` seconds from one client."""

    count: int
    period: float


@dataclass(frozen=True)
class Settings:
    """Everything the app factory needs; tests build one directly."""

    database_url: str | None = None
    #: This node's name in metrics and logs (empty: the host's name).
    node_name: str = ""
    #: Redis, for several nodes sharing games (and AI workers on other machines); None: this
    #: process is the only server, with its own AI processes.
    redis_url: str | None = None
    #: Seconds a node's claim on a game lasts unless renewed: a dead node's games move to
    #: another node within about this long.
    lease_seconds: float = 6.0
    #: Milliseconds a moves' commit waits, when none is under way, for more moves to join its
    #: transaction, on a busy node only: a commit costs much the same for one move as for
    #: several (docs/server.md, sixth and fourteenth rounds).
    commit_gather_ms: float = 8.0
    data_dir: Path = field(default_factory=default_data_dir)
    static_dir: Path = STATIC_DIR
    #: Seconds a disconnected player of an online game has to come back (docs/rules.md 5.2).
    grace_period: float = 60.0
    #: Seconds an online game waits for an opponent to take its open seat before it is
    #: aborted (and leaves the lobby).
    lobby_wait: float = 1800.0
    #: Worker processes for the AI (each searches one position at a time).
    ai_workers: int = 1
    #: Games against the computer each AI worker serves at once; a new one beyond that is
    #: refused until one ends (games in progress would all think less).
    ai_games_per_worker: int = 20
    #: Worker processes of their own for engine analysis (hints, the replay viewer's graph),
    #: so that analysing never makes a game's AI move wait; started on the first analysis.
    #: 0: analyses share the AI's workers.
    analysis_workers: int = 1
    #: The search budget of a stored game review, in nodes per position (a fixed budget, not
    #: a time: the same game gives the same review under any load), and that of a deeper
    #: re-analysis. Part of what a stored review is: every node of a site uses the same.
    review_nodes: int = 250_000
    review_deep_nodes: int = 2_500_000
    #: The most an AI move may think, in seconds (less under a tight clock).
    ai_movetime: float = 1.0
    #: Extra seconds before an AI search that has not answered is replaced by a random move.
    ai_timeout_margin: float = 10.0
    #: The computer's reply comes at least this long (seconds, drawn at random between the
    #: two) after the move it answers, so that its piece does not slide at the same moment as
    #: the player's (levels 1-5 answer in milliseconds); never longer than its clock allows.
    #: (0, 0): at once (tests).
    ai_reply_pace: tuple[float, float] = (0.4, 0.8)
    #: How often the server records that it is alive; after a crash, clocks are paused from
    #: the last record, so a player is never charged for more than this much of the downtime.
    heartbeat_interval: float = 1.0
    #: None: Secure cookies on https and on loopback (where browsers allow them over http).
    cookie_secure: bool | None = None
    session_days: int = 30
    #: How long a guest cookie lasts; a guest's chosen name is forgotten this long after it
    #: was last set (the cookie, issued before that, has expired by then).
    guest_days: int = 365
    #: Seconds between clean-ups of stale data (such as those guest names); one runs at start.
    cleanup_interval: float = 3600.0
    #: How long a browser that logged in to an account is trusted by the login throttle.
    device_days: int = 365
    #: Sign-ups and failed logins from one address (a school behind one address signs up a
    #: class at once; each account's guessers are slowed by the login throttle besides).
    login_rate: RateLimit = RateLimit(60, 600.0)
    #: Failed logins to one account from browsers that have never logged in to it.
    login_account_rate: RateLimit = RateLimit(20, 600.0)
    create_rate: RateLimit = RateLimit(30, 60.0)
    #: Engine analyses (hints, the replay viewer's graph: one request per position).
    analysis_rate: RateLimit = RateLimit(300, 60.0)
    #: Record uploads (``POST /api/records``) from one address.
    record_rate: RateLimit = RateLimit(30, 3600.0)
    #: Reads that cost the database a query (profiles, lists, the lobby, games, records,
    #: puzzles, tournaments: every ``GET /api/…`` but the fixed data) from one address: a
    #: page asks a few, a lobby refreshes every few seconds, a school shares one address.
    read_rate: RateLimit = RateLimit(600, 60.0)
    #: Opening explorer queries (``GET /api/explorer``, a search of its table each) from one
    #: address, besides the read limit: a player clicks through moves about once a second.
    explorer_rate: RateLimit = RateLimit(300, 60.0)
    #: The most record text one uploader (an account, else an address) may keep stored.
    record_quota_bytes: int = 4 * 1024 * 1024
    #: Days an upload without an account is kept (accounts keep theirs).
    record_days: int = 30
    #: Addresses (or networks, e.g. ``10.0.0.0/8``) of reverse proxies whose
    #: ``X-Forwarded-For`` / ``X-Forwarded-Proto`` are believed; no one else's are.
    trusted_proxies: tuple[str, ...] = ()
    #: In a cluster, a game's socket that a trusted proxy routed by its game
    #: (``X-Doushouqi-Affinity: 1``, ``deploy/nginx.conf``) has the game handed over to the
    #: node it reached, so that its players and spectators meet on its owner.
    game_affinity: bool = True
    #: Websocket messages per second per connection before the connection is told to slow down.
    message_rate: RateLimit = RateLimit(40, 1.0)
    #: The largest websocket or command message accepted, in bytes.
    max_message_bytes: int = 4096
    #: Argon2 cost; tests lower it (the hash format records it, so old hashes still verify).
    argon2_time_cost: int = 3
    argon2_memory_kib: int = 65536

    @property
    def ws_frame_limit(self) -> int:
        """Websocket frames above this are refused by the protocol layer (close 1009); below
        it, a message over ``max_message_bytes`` still gets a readable ``too_large`` error."""
        return self.max_message_bytes * 16

    @property
    def resolved_database_url(self) -> str:
        if self.database_url:
            return self.database_url
        return f"sqlite:///{self.data_dir / 'server.sqlite3'}"

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """Defaults, overridden by ``DOUSHOUQI_DATABASE_URL``, ``DOUSHOUQI_NODE_NAME``,
        ``DOUSHOUQI_REDIS_URL``, ``DOUSHOUQI_LEASE_SECONDS``, ``DOUSHOUQI_COMMIT_GATHER_MS``,
        ``DOUSHOUQI_DATA_DIR``,
        ``DOUSHOUQI_GRACE_PERIOD`` and ``DOUSHOUQI_LOBBY_WAIT`` (seconds),
        ``DOUSHOUQI_AI_WORKERS``, ``DOUSHOUQI_AI_GAMES_PER_WORKER``,
        ``DOUSHOUQI_ANALYSIS_WORKERS``, ``DOUSHOUQI_AI_MOVETIME`` and
        ``DOUSHOUQI_COOKIE_SECURE`` (``1``/``0``), ``DOUSHOUQI_HEARTBEAT`` (seconds), and
        ``DOUSHOUQI_LOGIN_RATE`` / ``DOUSHOUQI_LOGIN_ACCOUNT_RATE`` / ``DOUSHOUQI_CREATE_RATE``
        / ``DOUSHOUQI_ANALYSIS_RATE`` / ``DOUSHOUQI_RECORD_RATE`` / ``DOUSHOUQI_READ_RATE`` /
        ``DOUSHOUQI_EXPLORER_RATE`` (``COUNT/SECONDS``), and
        ``DOUSHOUQI_TRUSTED_PROXIES`` (comma-separated addresses or networks), and
        ``DOUSHOUQI_GAME_AFFINITY`` (``1``/``0``)."""
        env = os.environ if env is None else env
        changes: dict[str, object] = {}
        if url := env.get("DOUSHOUQI_DATABASE_URL"):
            changes["database_url"] = url
        if node := env.get("DOUSHOUQI_NODE_NAME"):
            changes["node_name"] = node
        if redis_url := env.get("DOUSHOUQI_REDIS_URL"):
            changes["redis_url"] = redis_url
        if lease := env.get("DOUSHOUQI_LEASE_SECONDS"):
            changes["lease_seconds"] = float(lease)
        if gather := env.get("DOUSHOUQI_COMMIT_GATHER_MS"):
            changes["commit_gather_ms"] = float(gather)
        if data := env.get("DOUSHOUQI_DATA_DIR"):
            changes["data_dir"] = Path(data)
        else:
            changes["data_dir"] = default_data_dir(env)
        if grace := env.get("DOUSHOUQI_GRACE_PERIOD"):
            changes["grace_period"] = float(grace)
        if wait := env.get("DOUSHOUQI_LOBBY_WAIT"):
            changes["lobby_wait"] = float(wait)
        if workers := env.get("DOUSHOUQI_AI_WORKERS"):
            changes["ai_workers"] = int(workers)
        if games := env.get("DOUSHOUQI_AI_GAMES_PER_WORKER"):
            changes["ai_games_per_worker"] = int(games)
        if workers := env.get("DOUSHOUQI_ANALYSIS_WORKERS"):
            changes["analysis_workers"] = int(workers)
        if movetime := env.get("DOUSHOUQI_AI_MOVETIME"):
            changes["ai_movetime"] = float(movetime)
        if secure := env.get("DOUSHOUQI_COOKIE_SECURE"):
            changes["cookie_secure"] = secure.strip().lower() in ("1", "true", "yes")
        if interval := env.get("DOUSHOUQI_HEARTBEAT"):
            changes["heartbeat_interval"] = float(interval)
        if proxies := env.get("DOUSHOUQI_TRUSTED_PROXIES"):
            changes["trusted_proxies"] = tuple(p.strip() for p in proxies.split(",") if p.strip())
        if affinity := env.get("DOUSHOUQI_GAME_AFFINITY"):
            changes["game_affinity"] = affinity.strip().lower() in ("1", "true", "yes")
        rates = (
            "login_rate",
            "login_account_rate",
            "create_rate",
            "analysis_rate",
            "record_rate",
            "read_rate",
            "explorer_rate",
        )
        for name in rates:
            if rate := env.get(f"DOUSHOUQI_{name.upper()}"):  # COUNT/SECONDS, e.g. 10/60
                count, _, period = rate.partition("/")
                changes[name] = RateLimit(int(count), float(period or 60))
        return dataclasses.replace(cls(), **changes)  # type: ignore[arg-type]
