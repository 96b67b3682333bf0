"""Queries and updates, as plain functions of a SQLAlchemy session (run them through
:class:`~.database.Database`). No function here commits: the caller's transaction does."""

from __future__ import annotations

import hashlib
import json
import operator
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Connection,
    and_,
    bindparam,
    delete,
    desc,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.elements import ClauseElement, ColumnElement

from doushouqi.core.outcome import PlatformEnding
from doushouqi.games import INSTALLED
from doushouqi.server.db.models import (
    AccountRow,
    AuthTokenRow,
    GameEventRow,
    GameRow,
    GuestNameRow,
    RatingRow,
    RecordRow,
    ServerStateRow,
)
from doushouqi.server.db.speed_ratings import rate_rated_game
from doushouqi.server.domain import Game, GameStatus, Mode, PlayerSlot
from doushouqi.server.domain.storage import (
    game_from_storage,
    play_to_storage,
    setup_to_storage,
    stored_moves,
)
from doushouqi.server.infra.json_output import dumps, dumps_bytes, dumps_text_keys, encoded

__all__ = [
    "DEFAULT_GAME",
    "PLIES_PER_STATEMENT",
    "StaleGameError",
    "UsernameTakenError",
    "account_by_username",
    "append_events",
    "create_account",
    "events_since",
    "forget_anonymous_records",
    "forget_expired_tokens",
    "forget_guest_names",
    "game_meta",
    "guest_name",
    "insert_game",
    "live_games",
    "load_game",
    "new_standing",
    "player_key",
    "plies_statement_postgresql",
    "ply_statement_parameters",
    "record_result",
    "set_guest_name",
    "standing",
    "standings",
    "store_moves",
    "stored_version",
    "update_game",
]

HEARTBEAT = "heartbeat"
#: The game a list shows when none is named, and whose standing an account's profile and its
#: seat in a game carry until they name theirs: the site's first game.
DEFAULT_GAME = INSTALLED[0].key


class UsernameTakenError(ValueError):
    pass


class StaleGameError(RuntimeError):
    """The stored game is not at the version the writer expected: another writer got there
    first (never expected with one server process; refuses to overwrite rather than lose)."""


# ---------------------------------------------------------------------- accounts


def create_account(
    session: Session,
    *,
    username: str,
    display_name: str,
    password_hash: str,
    avatar: str,
    now: float,
    is_bot: bool = False,
) -> AccountRow:
    row = AccountRow(
        username=username,
        display_name=display_name,
        password_hash=password_hash,
        avatar=avatar,
        is_bot=is_bot,
        created_at=now,
        disconnects=0,
        timeouts=0,
    )
    session.add(row)
    try:
        session.flush()
    except IntegrityError:
        raise UsernameTakenError(username) from None
    return row


def account_by_username(session: Session, username: str) -> AccountRow | None:
    return session.scalar(select(AccountRow).where(AccountRow.username == username.lower()))


def add_token(
    session: Session,
    *,
    token_hash: str,
    account_id: int,
    kind: str,
    now: float,
    expires_at: float | None,
    label: str = "",
    scopes: str = "",
    device: str = "",
    address: str = "",
) -> None:
    session.add(
        AuthTokenRow(
            token_hash=token_hash,
            account_id=account_id,
            kind=kind,
            label=label,
            created_at=now,
            expires_at=expires_at,
            scopes=scopes,
            device=device[:64],
            address=address[:64],
        )
    )


def forget_expired_tokens(session: Session, now: float) -> int:
    """Delete the login sessions and API tokens that expired before ``now``; return how many."""
    expired = AuthTokenRow.expires_at.is_not(None) & (AuthTokenRow.expires_at < now)
    deleted = session.execute(delete(AuthTokenRow).where(expired))
    return int(deleted.rowcount)  # type: ignore[attr-defined]


def delete_token(session: Session, token_hash: str) -> None:
    session.execute(delete(AuthTokenRow).where(AuthTokenRow.token_hash == token_hash))


def guest_name(session: Session, guest_id: str) -> str | None:
    """The display name the guest ``guest_id`` chose (None: it has not chosen one)."""
    row = session.get(GuestNameRow, guest_id)
    return None if row is None else row.display_name


def set_guest_name(session: Session, guest_id: str, name: str, now: float) -> None:
    # Writes are serialised (Database.write), so reading then adding cannot race.
    row = session.get(GuestNameRow, guest_id)
    if row is None:
        session.add(GuestNameRow(guest_id=guest_id, display_name=name, updated_at=now))
    else:
        row.display_name, row.updated_at = name, now


def forget_guest_names(session: Session, set_before: float) -> int:
    """Delete the guest names last set before ``set_before``; return how many went."""
    deleted = session.execute(delete(GuestNameRow).where(GuestNameRow.updated_at < set_before))
    return int(deleted.rowcount)  # type: ignore[attr-defined]


def new_standing(account_id: int, game: str) -> RatingRow:
    """A new player's standing in ``game`` (not added to the session)."""
    return RatingRow(
        account_id=account_id,
        game=game,
        score=0,
        games=0,
        wins=0,
        losses=0,
        draws=0,
    )


def standing(session: Session, account_id: int, game: str) -> RatingRow:
    """The account's standing in ``game``; a new player's if it has none yet (then not added
    to the session: :func:`record_result` adds it when a game counts)."""
    row = session.get(RatingRow, (account_id, game))
    return new_standing(account_id, game) if row is None else row


def standings(session: Session, account_ids: list[int], game: str) -> dict[int, RatingRow]:
    """:func:`standing` for each of ``account_ids`` that names an account, in one query."""
    query = (
        select(AccountRow.id, RatingRow)
        .outerjoin(RatingRow, and_(RatingRow.account_id == AccountRow.id, RatingRow.game == game))
        .where(AccountRow.id.in_(account_ids))
    )
    return {
        account_id: new_standing(account_id, game) if row is None else row
        for account_id, row in session.execute(query)
    }


def score_board(
    session: Session, limit: int, game: str = DEFAULT_GAME
) -> list[tuple[AccountRow, RatingRow]]:
    """The best players of ``game`` by ladder score, among those who have played it (the rating
    boards, per speed, are :func:`.speed_ratings.rating_board`)."""
    query = (
        select(AccountRow, RatingRow)
        .join(RatingRow, RatingRow.account_id == AccountRow.id)
        .where(RatingRow.game == game, RatingRow.games > 0)
        # Banned and closed accounts leave the leaderboard (their games stay).
        .where(AccountRow.banned_at.is_(None), AccountRow.closed_at.is_(None))
        .order_by(desc(RatingRow.score), AccountRow.id)
        .limit(limit)
    )
    return [(account, row) for account, row in session.execute(query)]


def record_result(session: Session, game: Game) -> None:
    """Add a finished game to its players' statistics and score in that game, and a rated one to
    their ratings at its speed (once: this runs in the transaction that stores the game as
    finished)."""
    if game.outcome is None or game.termination is PlatformEnding.ABORTED:
        return
    if game.mode is Mode.SAME_SCREEN:  # one person at both seats: nothing to count
        return
    rows: list[RatingRow | None] = [None, None]
    for seat, player in enumerate(game.players):
        if player is None or player.account_id is None:
            continue
        account = session.get(AccountRow, player.account_id)
        if account is None:
            continue
        account.disconnects += int(game.leaver == seat)
        account.timeouts += game.timeouts[seat]
        row = session.get(RatingRow, (account.id, game.game_key))
        if row is None:  # the account's first counted game of this game
            row = new_standing(account.id, game.game_key)
            session.add(row)
        rows[seat] = row
        row.games += 1
        if game.winner is None:
            row.draws += 1
        elif game.winner == seat:
            row.wins += 1
        else:
            row.losses += 1
        if game.score_change is not None:
            row.score += game.score_change.deltas[seat]
    first, second = rows
    speed = game.speed
    if game.rating_change is not None and first is not None and second is not None and speed:
        score_first = 0.5 if game.winner is None else float(game.winner == 0)
        accounts = (first.account_id, second.account_id)
        rate_rated_game(session, accounts, game.game_key, speed, score_first)


# ---------------------------------------------------------------------- games


def player_key(player: PlayerSlot | None) -> str | None:
    if player is None:
        return None
    identity = player.identity.to_dict()
    return f"{identity['kind']}:{identity.get('id', identity.get('level'))}"


_COLUMN_NAMES = (
    "game",
    "mode",
    "status",
    "rules",
    "time_control",
    "rated",
    "open_seats",
    "seat0_key",
    "seat1_key",
    "result",
    "termination",
    "version",
    "created_at",
    "started_at",
    "finished_at",
    "state",
)


_SETUP_COLUMN_NAMES = frozenset(
    {"game", "mode", "rules", "time_control", "rated", "open_seats", "seat0_key", "seat1_key"}
)


def _setup_columns(game: Game) -> dict[str, Any]:
    """The columns that only the game's set-up makes (``Game.kept``: once a game)."""
    return {
        "game": game.game_key,
        "mode": game.mode.value,
        "rules": game.rules_name,
        "time_control": None if game.time_control is None else str(game.time_control),
        "rated": game.rated,
        "open_seats": sum(p is None for p in game.players),
        "seat0_key": player_key(game.players[0]),
        "seat1_key": player_key(game.players[1]),
    }


def _columns(game: Game) -> dict[str, Any]:
    return {**game.kept("columns", _setup_columns), **_move_columns(game)}


def _move_columns(game: Game) -> dict[str, Any]:
    """The columns that are not the set-up's: all that a move may change."""
    return {
        "status": int(game.status),
        "result": game.result,
        "termination": game.termination_key,
        "created_at": game.created_at,
        "started_at": game.started_at,
        "finished_at": game.finished_at,
        **_ply_columns(game),
    }


def _ply_columns(game: Game) -> dict[str, Any]:
    """The columns a write of the stored row's status changes: the version and the stored
    game. The others of :func:`_move_columns` change only with the status (the domain sets
    the result, the ending and the start and end times where it sets a new status)."""
    return {"version": game.version, "state": stored_game(game)}


def stored_game(game: Game) -> str:
    """The stored game's text: ``game_to_storage`` as JSON. Written with every move (the whole
    game, its moves included), so no part is made again that need not be: the set-up's part
    is encoded once a game and the rest appended to it; the moves' text is kept with the game
    and appended to (a long game's moves were most of the stored text's cost)."""
    head: bytes = game.kept("stored_setup", _setup_text)
    rest = dumps_text_keys(play_to_storage(game, encoded(stored_moves(game, dumps_bytes))))
    return (head + rest[1:]).decode()


def _setup_text(game: Game) -> bytes:
    """``{"format":…,"time_control":…,``: the set-up's part, open for the rest's keys."""
    return dumps_bytes(setup_to_storage(game))[:-1] + b","


def insert_game(session: Session, game: Game, *, public: bool) -> None:
    insert_games(session, [(game, public)])


def insert_games(session: Session, games: list[tuple[Game, bool]]) -> None:
    if games:
        rows = [
            {"id": g.id, "public": public, "rematch_id": None, **_columns(g)} for g, public in games
        ]
        session.connection().execute(insert(GameRow), rows)


def update_game(
    session: Session, game: Game, previous_version: int, rematch_id: str | None = None
) -> None:
    update_games(session, [(game, previous_version, rematch_id)])


# Core statements with executemany, not ORM updates: this runs for every move of every game,
# and the ORM's per-statement bookkeeping would cost more than the database itself.
_UPDATE_GAME = (
    update(GameRow.__table__)  # type: ignore[arg-type]
    .where(GameRow.id == bindparam("b_id"), GameRow.version == bindparam("b_previous"))
    .values({name: bindparam(name) for name in _COLUMN_NAMES})
)
_UPDATE_GAME_AND_REMATCH = _UPDATE_GAME.values(rematch_id=bindparam("rematch_id"))
#: A game whose stored set-up columns are its own already (a move's write, nearly every one):
#: only the others. Fewer values to bind, and SQLite leaves the seats' indexes alone (it
#: updates an index whose column the statement sets, whether or not the value changed).
_MOVE_COLUMN_NAMES = tuple(name for name in _COLUMN_NAMES if name not in _SETUP_COLUMN_NAMES)
_UPDATE_MOVE = (
    update(GameRow.__table__)  # type: ignore[arg-type]
    .where(GameRow.id == bindparam("b_id"), GameRow.version == bindparam("b_previous"))
    .values({name: bindparam(name) for name in _MOVE_COLUMN_NAMES})
)
#: ... and whose stored status is its own too (a move that neither starts nor ends the game):
#: the status's index is left alone as well, and the columns that change only with the status.
_PLY_COLUMN_NAMES = ("version", "state")
_UPDATE_PLY = (
    update(GameRow.__table__)  # type: ignore[arg-type]
    .where(GameRow.id == bindparam("b_id"), GameRow.version == bindparam("b_previous"))
    .values({name: bindparam(name) for name in _PLY_COLUMN_NAMES})
)


def update_games(session: Session, games: list[tuple[Game, int, str | None]]) -> None:
    """Store new versions of games: (game, the version it replaces, a new rematch's id)."""
    connection = session.connection()
    for statement, batch in (
        (_UPDATE_GAME, [g for g in games if g[2] is None]),
        (_UPDATE_GAME_AND_REMATCH, [g for g in games if g[2] is not None]),
    ):
        if not batch:
            continue
        params = []
        for game, previous, rematch_id in batch:
            row = {"b_id": game.id, "b_previous": previous, **_columns(game)}
            if rematch_id is not None:
                row["rematch_id"] = rematch_id
            params.append(row)
        rowcount = _execute_many(connection, statement, params)
        if connection.dialect.supports_sane_multi_rowcount and rowcount != len(batch):
            raise StaleGameError("a game was not at the version its writer expected")


#: The per-move statements as their driver's SQL, compiled once per dialect: (SQL, for a
#: positional driver such as sqlite3 what takes a row's parameters out in their order, else
#: None).
_DRIVER_SQL: dict[
    tuple[str, ClauseElement], tuple[str, Callable[[dict[str, Any]], tuple[Any, ...]] | None]
] = {}


def _execute_many(
    connection: Connection, statement: ClauseElement, rows: list[dict[str, Any]]
) -> int:
    """``statement`` once for each of ``rows`` (one executemany), given to the driver as
    compiled SQL; returns the rows it changed. For the statements of every move: SQLAlchemy's
    ``execute`` looks the compiled statement up and runs every parameter through its type
    processing per row, which cost more than the driver's own work (none of these columns'
    types needs processing: text, numbers and booleans go to the driver as they are)."""
    sql, values = _driver_rows(connection.dialect, statement, rows)
    return int(connection.exec_driver_sql(sql, values).rowcount)


def _driver_rows(
    dialect: Dialect, statement: ClauseElement, rows: list[dict[str, Any]]
) -> tuple[str, list[Any]]:
    """``statement`` as the driver's SQL (compiled once per dialect) and ``rows`` as its
    driver takes them: the dicts themselves for a driver of named parameters, else tuples."""
    key = (dialect.name, statement)
    compiled = _DRIVER_SQL.get(key)
    if compiled is None:
        made = statement.compile(dialect=dialect)
        assert isinstance(made, SQLCompiler)
        compiled = _DRIVER_SQL[key] = (
            str(made),
            _in_order(tuple(made.positiontup or ())) if dialect.positional else None,
        )
    sql, take = compiled
    if take is None:
        return sql, list(rows)
    return sql, list(map(take, rows))


def _in_order(names: tuple[str, ...]) -> Callable[[dict[str, Any]], tuple[Any, ...]]:
    """What takes a row's values out as a tuple, in the order ``names``: ``itemgetter``, a
    call in C (a list made and turned into a tuple cost twice as much a row), which gives a
    value rather than a tuple for one name."""
    if len(names) == 1:
        (name,) = names
        return lambda row: (row[name],)
    return operator.itemgetter(*names)


#: A game's id, its events (dicts) and each event's stored text (what the sockets were sent).
_EventBatch = tuple[str, list[dict[str, Any]], list[str]]


def store_moves(
    cursor: Any,
    dialect: Dialect,
    games: list[tuple[Game, int, bool, bool]],
    events: list[_EventBatch],
) -> None:
    """The writes of games' plain moves, through the driver's ``cursor`` (run it with
    ``Database.write_driver``): each game's new version over the one it replaces (StaleGameError
    when one is no longer there), and the events. The same statements as :func:`update_games`
    and :func:`append_many_events`, without a session: nothing here needs one. Each game comes
    with whether the stored row's set-up columns are its own already (then only the others
    are written), and whether its status is too (then the status is left out as well)."""
    for statement, columns, batch in (
        (_UPDATE_PLY, _ply_columns, [g for g in games if g[2] and g[3]]),
        (_UPDATE_MOVE, _move_columns, [g for g in games if g[2] and not g[3]]),
        (_UPDATE_GAME, _columns, [g for g in games if not g[2]]),
    ):
        if batch:
            rows = [{"b_id": g.id, "b_previous": old, **columns(g)} for g, old, _, _ in batch]
            _run_rows(cursor, *_driver_rows(dialect, statement, rows))
            if dialect.supports_sane_multi_rowcount and cursor.rowcount != len(batch):
                raise StaleGameError("a game was not at the version its writer expected")
    rows = _event_rows(events)
    if rows:
        _run_rows(cursor, *_driver_rows(dialect, _INSERT_EVENT, rows))


#: The most moves one :func:`plies_statement_postgresql` writes (a statement is prepared per
#: count, on each connection).
PLIES_PER_STATEMENT = 16
_PLY_VALUES = (
    "($%d::varchar, $%d::integer, $%d::integer, $%d::text, $%d::integer, $%d::varchar, $%d::text)"
)
_PLY_PARAMETERS = 7
_PLIES_STATEMENTS: dict[int, str] = {}


def plies_statement_postgresql(count: int) -> str:
    """``count`` plain moves' writes on PostgreSQL in one statement (``Database.write_statement``:
    a transaction of its own): each game's version and stored text over the version it replaces
    (:func:`_ply_columns`), and its one event, inserted only where the update found the game at
    that version. It returns the ids of the games it stored: a game missing is a stale write,
    and the others are stored (each write is its own game's: a game's writes come one at a
    time). The parameters: :func:`ply_statement_parameters`, one write's after another's.

    >>> print(plies_statement_postgresql(1)[:74])
    WITH moves (id, previous, version, state, event_version, type, payload) AS
    """
    if not 1 <= count <= PLIES_PER_STATEMENT:
        raise ValueError(f"1 to {PLIES_PER_STATEMENT} moves a statement, not {count}")
    sql = _PLIES_STATEMENTS.get(count)
    if sql is None:
        rows = ", ".join(
            _PLY_VALUES % tuple(range(i * _PLY_PARAMETERS + 1, (i + 1) * _PLY_PARAMETERS + 1))
            for i in range(count)
        )
        sql = _PLIES_STATEMENTS[count] = (
            "WITH moves (id, previous, version, state, event_version, type, payload) AS"
            f" (VALUES {rows}),"
            " moved AS (UPDATE games SET version = moves.version, state = moves.state"
            " FROM moves WHERE games.id = moves.id AND games.version = moves.previous"
            " RETURNING games.id)"
            " INSERT INTO game_events (game_id, version, seq, type, payload)"
            " SELECT moves.id, moves.event_version, 0, moves.type, moves.payload"
            " FROM moves JOIN moved ON moved.id = moves.id"
            " RETURNING game_events.game_id"
        )
    return sql


def ply_statement_parameters(
    game: Game, previous_version: int, events: list[dict[str, Any]], texts: list[str]
) -> tuple[Any, ...] | None:
    """:func:`plies_statement_postgresql`'s parameters for a write of ``game`` over
    ``previous_version`` whose stored row has its set-up and status already (what
    :func:`store_moves` writes with ``_UPDATE_PLY``), with ``events`` stored as ``texts``; None
    when the write has other than one event (the statement stores one a move)."""
    if len(events) != 1:
        return None
    event = events[0]
    return (
        game.id,
        previous_version,
        game.version,
        stored_game(game),
        event["version"],
        event["type"],
        texts[0],
    )


def _run_rows(cursor: Any, sql: str, values: list[Any]) -> None:
    """``sql`` once per row. One row (a quiet moment's batch: one move, one event) goes as a
    plain ``execute``: psycopg's ``executemany`` enters and leaves its pipeline mode around
    even one row, which cost twice as much (two statements and a commit: 81-111 against
    196-208 µs of CPU); for several rows that pipeline is what saves the round trips."""
    if len(values) == 1:
        cursor.execute(sql, values[0])
    else:
        cursor.executemany(sql, values)


def append_events(session: Session, game_id: str, events: list[dict[str, Any]]) -> None:
    append_many_events(session, [(game_id, events, [dumps(e) for e in events])])


def append_many_events(session: Session, batches: list[_EventBatch]) -> None:
    rows = _event_rows(batches)
    if rows:
        _execute_many(session.connection(), _INSERT_EVENT, rows)


def _event_rows(batches: list[_EventBatch]) -> list[dict[str, Any]]:
    return [
        {
            "game_id": game_id,
            "version": e["version"],
            "seq": seq,
            "type": e["type"],
            # The same text as the socket's, encoded once by the writer (GameWrite.texts).
            "payload": text,
        }
        for game_id, events, texts in batches
        for seq, (e, text) in enumerate(zip(events, texts, strict=True))
    ]


_INSERT_EVENT = insert(GameEventRow.__table__)  # type: ignore[arg-type]


def load_game(session: Session, game_id: str) -> tuple[Game, GameRow] | None:
    row = session.get(GameRow, game_id)
    if row is None:
        return None
    return game_from_storage(json.loads(row.state)), row


@dataclass(frozen=True)
class GameMeta:
    public: bool
    rematch_id: str | None


def game_exists(session: Session, game_id: str) -> bool:
    return session.scalar(select(GameRow.id).where(GameRow.id == game_id)) is not None


def stored_version(session: Session, game_id: str) -> int | None:
    """The version the game is stored at (None: no such game)."""
    return session.scalar(select(GameRow.version).where(GameRow.id == game_id))


def live_game_ids(session: Session) -> list[str]:
    """The ids of the games :func:`live_games` returns (without reading their states)."""
    return list(session.scalars(select(GameRow.id).where(_live())))


def game_meta(row: GameRow) -> GameMeta:
    return GameMeta(public=row.public, rematch_id=row.rematch_id)


def live_games(session: Session) -> list[tuple[Game, GameMeta]]:
    """Every game in progress or waiting for an opponent: their deadlines (clocks, grace
    periods, the end of the wait for an opponent) need an actor."""
    rows = session.scalars(select(GameRow).where(_live()))
    return [(game_from_storage(json.loads(r.state)), game_meta(r)) for r in rows]


def _live() -> ColumnElement[bool]:
    waiting = and_(
        GameRow.status == int(GameStatus.CREATED),
        GameRow.mode == Mode.ONLINE.value,
        GameRow.open_seats > 0,
    )
    return or_(GameRow.status == int(GameStatus.STARTED), waiting)


def events_since(session: Session, game_id: str, version: int) -> list[str]:
    query = (
        select(GameEventRow.payload)
        .where(GameEventRow.game_id == game_id, GameEventRow.version > version)
        .order_by(GameEventRow.version, GameEventRow.seq)
    )
    return list(session.scalars(query))


def lobby(session: Session, limit: int) -> list[Game]:
    query = (
        select(GameRow.state)
        .where(
            GameRow.status == int(GameStatus.CREATED),
            GameRow.mode == Mode.ONLINE.value,
            GameRow.public.is_(True),
            GameRow.open_seats > 0,
        )
        .order_by(desc(GameRow.created_at))
        .limit(limit)
    )
    return [game_from_storage(json.loads(state)) for state in session.scalars(query)]


def history(session: Session, key: str, limit: int, offset: int) -> tuple[int, list[GameRow]]:
    where = or_(GameRow.seat0_key == key, GameRow.seat1_key == key)
    total = session.scalar(select(func.count()).select_from(GameRow).where(where)) or 0
    rows = session.scalars(
        select(GameRow).where(where).order_by(desc(GameRow.created_at)).limit(limit).offset(offset)
    )
    return total, list(rows)


# ---------------------------------------------------------------------- server state, records


def _set_state(session: Session, key: str, value: float) -> None:
    row = session.get(ServerStateRow, key)
    if row is None:
        session.add(ServerStateRow(key=key, value=value))
    else:
        row.value = value


def set_heartbeat(session: Session, at: float) -> None:
    _set_state(session, HEARTBEAT, at)


def get_heartbeat(session: Session) -> float | None:
    row = session.get(ServerStateRow, HEARTBEAT)
    return None if row is None else row.value


#: Each cluster node's own heartbeat: ``beat:`` and a digest of its id (ids can be long).
NODE_BEAT = "beat:"


def node_beat_key(node: str) -> str:
    return NODE_BEAT + hashlib.blake2s(node.encode(), digest_size=12).hexdigest()


def set_heartbeats(session: Session, at: float, node: str | None = None) -> None:
    """The server's heartbeat and, in a cluster, this node's own."""
    set_heartbeat(session, at)
    if node is not None:
        _set_state(session, node_beat_key(node), at)


def node_beats(session: Session) -> dict[str, float]:
    """Every node's last heartbeat in the database, by :func:`node_beat_key`."""
    rows = session.scalars(select(ServerStateRow).where(ServerStateRow.key.startswith(NODE_BEAT)))
    return {row.key: row.value for row in rows}


def forget_node_beats(session: Session, before: float) -> None:
    """Drop the heartbeats of nodes gone since before ``before`` (each start is a new id)."""
    session.execute(
        delete(ServerStateRow).where(
            ServerStateRow.key.startswith(NODE_BEAT), ServerStateRow.value < before
        )
    )


def save_record(
    session: Session,
    record_id: str,
    text: str,
    account_id: int | None,
    now: float,
    uploader: str | None = None,
    game: str = DEFAULT_GAME,
) -> None:
    """Keep an uploaded record of ``game`` (the game whose format it is in)."""
    size = len(text.encode())
    session.add(
        RecordRow(
            id=record_id,
            game=game,
            text=text,
            account_id=account_id,
            created_at=now,
            uploader=uploader,
            size=size,
        )
    )


def stored_record_bytes(session: Session, uploader: str) -> int:
    """How much record text ``uploader`` keeps stored."""
    total = session.scalar(select(func.sum(RecordRow.size)).where(RecordRow.uploader == uploader))
    return int(total or 0)


def forget_anonymous_records(session: Session, uploaded_before: float) -> int:
    """Delete the records uploaded without an account before ``uploaded_before``."""
    old = RecordRow.account_id.is_(None) & (RecordRow.created_at < uploaded_before)
    deleted = session.execute(delete(RecordRow).where(old))
    return int(deleted.rowcount)  # type: ignore[attr-defined]


def get_record(session: Session, record_id: str) -> RecordRow | None:
    return session.get(RecordRow, record_id)
