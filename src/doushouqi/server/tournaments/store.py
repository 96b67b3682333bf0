"""Tournaments in the database: the director's step (one transaction that reads the games,
records results, makes the next pairings and returns what to do next), joining, withdrawing,
and what the pages show.

Every function takes a SQLAlchemy session and does no other IO, so that one call is one
transaction: a decision is committed before anyone acts on it.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import func, or_, select, update
from sqlalchemy.orm import Session

from doushouqi.core.clock import TimeControl
from doushouqi.core.speed import Speed, speed_of
from doushouqi.server.db import outages, repo
from doushouqi.server.db.models import AccountRow, GameRow, RatingRow, SpeedRatingRow
from doushouqi.server.db.speed_ratings import speed_rating, speed_ratings_for
from doushouqi.server.domain import GameStatus
from doushouqi.server.domain.site_time import Outage, site_elapsed
from doushouqi.server.tournaments import arena, swiss
from doushouqi.server.tournaments.models import (
    TournamentPairingRow,
    TournamentPlayerRow,
    TournamentRow,
)
from doushouqi.server.tournaments.standings import (
    FORFEITS,
    Entrant,
    PairingResult,
    Standing,
    arena_standings,
    swiss_history,
    swiss_standings,
)

__all__ = [
    "Abort",
    "CreateGame",
    "Notify",
    "Step",
    "claim",
    "claim_due",
    "due_ids",
    "join",
    "release",
    "step",
    "tournament_view",
    "withdraw",
]

#: Arena: no-shows after which a player is marked absent (not paired until they rejoin).
ABSENT_AFTER_NO_SHOWS = 2
#: Seconds after a forfeit during which the director checks that its game was ended (a node
#: that stopped between recording the forfeit and ending the game leaves it to the next pass).
RETRY_ABORTS_FOR = 600.0


@dataclass(frozen=True)
class CreateGame:
    """Create the game ``game_id`` between two accounts (Red first), unless it exists."""

    tournament_id: str
    game_id: str
    red: dict[str, Any]
    blue: dict[str, Any]


@dataclass(frozen=True)
class Abort:
    """End a game nobody (or only one player) came to: its result is already recorded."""

    game_id: str


@dataclass(frozen=True)
class Notify:
    account_id: int
    kind: str
    params: dict[str, Any]
    link: str


@dataclass
class Step:
    """What the director must do after a step's transaction committed."""

    creates: list[CreateGame] = field(default_factory=list)
    aborts: list[Abort] = field(default_factory=list)
    notices: list[Notify] = field(default_factory=list)


# ---------------------------------------------------------------------- the lease


def due_ids(session: Session, now: float) -> list[str]:
    """The tournaments that need directing now: started, or due to start."""
    return list(
        session.scalars(
            select(TournamentRow.id).where(
                or_(
                    TournamentRow.status == "started",
                    (TournamentRow.status == "created") & (TournamentRow.starts_at <= now),
                )
            )
        ).all()
    )


def claim(
    session: Session, tournament_ids: Sequence[str], node: str, now: float, lease: float
) -> list[str]:
    """Claim those of ``tournament_ids`` whose lease is free, lapsed or already ours; their
    ids. One conditional UPDATE per tournament: two nodes never both win one."""
    claimed = []
    for tournament_id in tournament_ids:
        result = session.execute(
            update(TournamentRow)
            .where(
                TournamentRow.id == tournament_id,
                TournamentRow.status != "finished",
                or_(
                    TournamentRow.director_node.is_(None),
                    TournamentRow.director_node == node,
                    TournamentRow.director_until < now,
                ),
            )
            .values(director_node=node, director_until=now + lease)
        )
        if getattr(result, "rowcount", 0) == 1:
            claimed.append(tournament_id)
    return claimed


def claim_due(session: Session, node: str, now: float, lease: float) -> list[str]:
    """Claim every tournament that needs directing now (see :func:`claim`)."""
    return claim(session, due_ids(session, now), node, now, lease)


def release(session: Session, node: str) -> None:
    """Give up this node's tournaments (it is stopping): another node takes them at once."""
    session.execute(
        update(TournamentRow)
        .where(TournamentRow.director_node == node)
        .values(director_node=None, director_until=None)
    )


# ---------------------------------------------------------------------- reading


def _players(session: Session, tournament_id: str) -> list[TournamentPlayerRow]:
    return list(
        session.scalars(
            select(TournamentPlayerRow)
            .where(TournamentPlayerRow.tournament_id == tournament_id)
            .order_by(TournamentPlayerRow.joined_at, TournamentPlayerRow.account_id)
        )
    )


def _pairings(session: Session, tournament_id: str) -> list[TournamentPairingRow]:
    return list(
        session.scalars(
            select(TournamentPairingRow)
            .where(TournamentPairingRow.tournament_id == tournament_id)
            .order_by(TournamentPairingRow.id)
        )
    )


def _key(account_id: int) -> str:
    return str(account_id)


def _results(pairings: Sequence[TournamentPairingRow]) -> list[PairingResult]:
    return [
        PairingResult(
            p.round,
            _key(p.red_id),
            None if p.blue_id is None else _key(p.blue_id),
            p.result,
            p.id,
        )
        for p in pairings
    ]


def standings_of(
    row: TournamentRow,
    players: Sequence[TournamentPlayerRow],
    pairings: Sequence[TournamentPairingRow],
) -> list[Standing]:
    entrants = [Entrant(_key(p.account_id), p.rating) for p in players]
    compute = arena_standings if row.kind == "arena" else swiss_standings
    return compute(entrants, _results(pairings))


# ---------------------------------------------------------------------- the director's step


def _seat(account: AccountRow, standing: RatingRow, rating: SpeedRatingRow) -> dict[str, Any]:
    return {
        "account_id": account.id,
        "name": account.display_name,
        "avatar": account.avatar,
        "score": standing.score,
        "rating": [rating.rating, rating.rd, rating.volatility],
        "username": account.username,
    }


def _game_result(game: GameRow, pairing: TournamentPairingRow) -> str:
    """The pairing's result from its finished game. An aborted game (none is, but by the
    server) is a forfeit by whoever had not come."""
    if game.result in ("1-0", "0-1", "1/2-1/2"):
        return game.result
    return _forfeit(game)


def _forfeit(game: GameRow) -> str:
    ready = json.loads(game.state).get("ready", [False, False])
    if ready[0] and not ready[1]:
        return "+-"
    if ready[1] and not ready[0]:
        return "-+"
    return "--"


def step(
    session: Session,
    tournament_id: str,
    now: float,
    *,
    join_wait: float,
    new_game_id: Callable[[], str],
    own_outages: Sequence[Outage] = (),
) -> Step:
    """Direct the tournament one step at ``now`` (its lease is ours): start it when due, record
    the results of games that ended, forfeit games nobody came to within ``join_wait`` of site
    time (the recorded outages, and ``own_outages``, this node's not recorded yet, do not
    count: nobody could come then), make the next pairings, finish it. Returns what to do
    once this is committed."""
    todo = Step()
    row = session.get(TournamentRow, tournament_id)
    if row is None or row.status == "finished":
        return todo
    players = _players(session, tournament_id)
    by_id = {p.account_id: p for p in players}
    link = f"#/tournament/{tournament_id}"
    if row.status == "created":
        joined = [p for p in players if p.state == "joined"]
        row.status = "started"
        row.started_at = now
        for p in joined:
            p.idle_since = now
            todo.notices.append(
                Notify(p.account_id, "tournament.starting", {"name": row.name}, link)
            )
        if len(joined) < 2:
            _finish(row, now)
            return todo
    pairings = _pairings(session, tournament_id)
    waited = functools.partial(_site_time_since, session, now=now, own=own_outages)
    _record_results(session, row, pairings, by_id, now, join_wait, waited, todo)
    if row.kind == "arena":
        _pair_arena(session, row, players, pairings, now, new_game_id, todo)
    else:
        _pair_swiss(session, row, players, pairings, now, new_game_id, todo)
    # Games paired in earlier steps but not created yet (the node stopped in between).
    made = {c.game_id for c in todo.creates}
    accounts = _seats(session, list(by_id), row)
    for pairing in pairings:
        game_id, blue_id = pairing.game_id, pairing.blue_id
        if pairing.result is not None or game_id is None or game_id in made or blue_id is None:
            continue
        red, blue = accounts.get(pairing.red_id), accounts.get(blue_id)
        if session.get(GameRow, game_id) is None and red is not None and blue is not None:
            todo.creates.append(CreateGame(row.id, game_id, red, blue))
    return todo


def _site_time_since(session: Session, start: float, now: float, own: Sequence[Outage]) -> float:
    """Site time from ``start`` to ``now``: the wall time less the site's outages."""
    return site_elapsed([*outages.since(session, start), *own], start, now)


def _record_results(
    session: Session,
    row: TournamentRow,
    pairings: list[TournamentPairingRow],
    by_id: dict[int, TournamentPlayerRow],
    now: float,
    join_wait: float,
    waited: Callable[[float], float],
    todo: Step,
) -> None:
    for p in pairings:
        if p.game_id is None:
            continue
        if p.result is not None and (
            p.result not in FORFEITS or (p.finished_at or 0.0) < now - RETRY_ABORTS_FOR
        ):
            continue  # decided long ago: no need to read its game every pass
        game = session.get(GameRow, p.game_id)
        if game is None:
            continue
        status = GameStatus(game.status)
        if p.result is not None:
            if not status.is_over:
                todo.aborts.append(Abort(p.game_id))  # a forfeit not yet acted on: act on it
            continue
        if status.is_over:
            p.result = _game_result(game, p)
            p.finished_at = game.finished_at or now
        elif (
            status is GameStatus.CREATED
            and now >= p.created_at + join_wait  # the wall time first: no query before then
            and waited(p.created_at) >= join_wait
        ):
            p.result = _forfeit(game)
            p.finished_at = now
            todo.aborts.append(Abort(p.game_id))
        else:
            continue
        for account_id, came in (
            (p.red_id, p.result != "-+" and p.result != "--"),
            (p.blue_id, p.result != "+-" and p.result != "--"),
        ):
            player = by_id.get(account_id) if account_id is not None else None
            if player is None:
                continue
            player.idle_since = now
            if p.result in FORFEITS and not came:
                player.no_shows += 1
                absent = row.kind == "arena" and player.no_shows >= ABSENT_AFTER_NO_SHOWS
                if absent and player.state == "joined":
                    player.state = "absent"


def _finish(row: TournamentRow, now: float) -> None:
    row.status = "finished"
    row.finished_at = now
    row.director_node = None
    row.director_until = None


def _add_pairing(
    session: Session,
    row: TournamentRow,
    red: TournamentPlayerRow,
    blue: TournamentPlayerRow | None,
    round_number: int,
    now: float,
    new_game_id: Callable[[], str],
    accounts: dict[int, dict[str, Any]],
    todo: Step,
) -> TournamentPairingRow:
    game_id = None if blue is None else new_game_id()
    pairing = TournamentPairingRow(
        tournament_id=row.id,
        round=round_number,
        red_id=red.account_id,
        blue_id=None if blue is None else blue.account_id,
        game_id=game_id,
        result="bye" if blue is None else None,
        created_at=now,
        finished_at=now if blue is None else None,
    )
    session.add(pairing)
    link = f"#/tournament/{row.id}"
    if blue is None:
        params = {"name": row.name, "round": round_number}
        todo.notices.append(Notify(red.account_id, "tournament.bye_notice", params, link))
        return pairing
    assert game_id is not None
    red_account, blue_account = accounts.get(red.account_id), accounts.get(blue.account_id)
    if red_account is not None and blue_account is not None:
        todo.creates.append(CreateGame(row.id, game_id, red_account, blue_account))
    for me, opponent in ((red, blue), (blue, red)):
        params = {"name": row.name, "opponent": opponent.name, "game_id": game_id}
        todo.notices.append(
            Notify(me.account_id, "tournament.game_ready", params, f"#/game/{game_id}")
        )
    return pairing


def _speed(row: TournamentRow) -> Speed:
    """The speed of the tournament's games (its time control is always a live one)."""
    return speed_of(TimeControl.parse(row.time_control)) or Speed.CLASSICAL


def _seats(session: Session, ids: Sequence[int], row: TournamentRow) -> dict[int, dict[str, Any]]:
    """How each of these accounts sits in a game of the tournament (with its standing in that
    game and its rating at the tournament's speed)."""
    standings = repo.standings(session, list(ids), row.game)
    ratings = speed_ratings_for(session, ids, row.game, _speed(row))
    rows = session.scalars(select(AccountRow).where(AccountRow.id.in_(list(ids))))
    return {a.id: _seat(a, standings[a.id], ratings[a.id]) for a in rows}


def _pair_arena(
    session: Session,
    row: TournamentRow,
    players: list[TournamentPlayerRow],
    pairings: list[TournamentPairingRow],
    now: float,
    new_game_id: Callable[[], str],
    todo: Step,
) -> None:
    ends_at = (row.started_at or row.starts_at) + (row.duration or 0.0)
    busy = {
        account_id
        for p in pairings
        if p.result is None
        for account_id in (p.red_id, p.blue_id)
        if account_id is not None
    }
    if now >= ends_at:
        if not busy:  # the time is up and every game has ended
            _finish(row, now)
        return
    table = standings_of(row, players, pairings)
    ranks = {s.key: s.rank for s in table}
    last: dict[int, int] = {}
    for p in pairings:
        if p.blue_id is not None:
            last[p.red_id], last[p.blue_id] = p.blue_id, p.red_id
    idle = [
        arena.ArenaPlayer(
            _key(p.account_id),
            ranks.get(_key(p.account_id), 0),
            p.idle_since,
            None if p.account_id not in last else _key(last[p.account_id]),
        )
        for p in players
        if p.state == "joined" and p.account_id not in busy
    ]
    pairs = arena.pair_waiting(idle, now, others_playing=bool(busy))
    if not pairs:
        return
    by_key = {_key(p.account_id): p for p in players}
    accounts = _seats(session, [p.account_id for p in players], row)
    history = swiss_history(
        [Entrant(_key(p.account_id), p.rating) for p in players], _results(pairings)
    )
    for a, b in pairs:
        # Colours: whoever has had Red more often (or Red last) plays Blue.
        first, second = _arena_colours(history[a].colours, history[b].colours, a, b)
        _add_pairing(
            session, row, by_key[first], by_key[second], 0, now, new_game_id, accounts, todo
        )


def _arena_colours(
    colours_a: Sequence[int | None], colours_b: Sequence[int | None], a: str, b: str
) -> tuple[str, str]:
    strength_a, want_a = swiss.colour_preference(colours_a)
    strength_b, want_b = swiss.colour_preference(colours_b)
    if want_a == swiss.BLUE or (want_b == swiss.RED and strength_b > strength_a):
        return b, a
    return a, b


def _pair_swiss(
    session: Session,
    row: TournamentRow,
    players: list[TournamentPlayerRow],
    pairings: list[TournamentPairingRow],
    now: float,
    new_game_id: Callable[[], str],
    todo: Step,
) -> None:
    if any(p.result is None for p in pairings):
        return  # a round starts when every game of the one before has ended
    active = [p for p in players if p.state == "joined"]
    if row.current_round >= (row.rounds or 0) or len(active) < 2:
        _finish(row, now)
        return
    row.current_round += 1
    entrants = [Entrant(_key(p.account_id), p.rating) for p in players]
    history = swiss_history(entrants, _results(pairings))
    boards = swiss.pair_round([history[_key(p.account_id)] for p in active], row.current_round)
    by_key = {_key(p.account_id): p for p in players}
    accounts = _seats(session, [p.account_id for p in active], row)
    for board in boards:
        blue = None if board.blue is None else by_key[board.blue]
        _add_pairing(
            session,
            row,
            by_key[board.red],
            blue,
            row.current_round,
            now,
            new_game_id,
            accounts,
            todo,
        )


def game_settings(session: Session, tournament_id: str) -> tuple[str, dict[str, Any], str, bool]:
    """The game, rule options, time control and ratedness its games are created with."""
    row = session.get(TournamentRow, tournament_id)
    assert row is not None
    return row.game, json.loads(row.rules), row.time_control, row.rated


# ---------------------------------------------------------------------- joining


def join(session: Session, tournament_id: str, account: AccountRow, now: float) -> str | None:
    """Join (or rejoin) the tournament; None, or the refusal's code."""
    row = session.get(TournamentRow, tournament_id)
    if row is None:
        return "tournament.not_found"
    if row.status == "finished":
        return "tournament.finished"
    if row.kind == "swiss" and row.status == "started":
        return "tournament.already_started"
    existing = session.get(TournamentPlayerRow, (tournament_id, account.id))
    if existing is not None:
        if existing.state != "joined":
            existing.state = "joined"
            existing.no_shows = 0
            existing.idle_since = now
        return None
    rating = speed_rating(session, account.id, row.game, _speed(row)).rating
    if row.min_rating is not None and rating < row.min_rating:
        return "tournament.rating_too_low"
    count = len(_players(session, tournament_id))
    if count >= row.max_players:
        return "tournament.full"
    session.add(
        TournamentPlayerRow(
            tournament_id=tournament_id,
            account_id=account.id,
            state="joined",
            name=account.display_name,
            username=account.username,
            rating=rating,
            joined_at=now,
            idle_since=now,
            no_shows=0,
        )
    )
    return None


def withdraw(session: Session, tournament_id: str, account_id: int) -> str | None:
    """Stop being paired (results stand); None, or the refusal's code. Before the start, the
    player leaves the list altogether."""
    row = session.get(TournamentRow, tournament_id)
    if row is None:
        return "tournament.not_found"
    if row.status == "finished":
        return "tournament.finished"
    player = session.get(TournamentPlayerRow, (tournament_id, account_id))
    if player is None:
        return "tournament.not_joined"
    if row.status == "created":
        session.delete(player)
    else:
        player.state = "withdrawn"
    return None


# ---------------------------------------------------------------------- pages


def summary(row: TournamentRow, players: int) -> dict[str, Any]:
    return {
        "id": row.id,
        "kind": row.kind,
        "name": row.name,
        "game": row.game,
        "rules": json.loads(row.rules),
        "time_control": row.time_control,
        "rated": row.rated,
        "starts_at": row.starts_at,
        "duration": row.duration,
        "ends_at": None
        if row.duration is None
        else (row.started_at or row.starts_at) + row.duration,
        "rounds": row.rounds,
        "current_round": row.current_round,
        "max_players": row.max_players,
        "min_rating": row.min_rating,
        "status": row.status,
        "players": players,
        "created_at": row.created_at,
        "started_at": row.started_at,
        "finished_at": row.finished_at,
    }


def listing(session: Session, limit: int = 50) -> dict[str, list[dict[str, Any]]]:
    """Upcoming (soonest first), running, and the latest finished tournaments."""
    groups: dict[str, list[dict[str, Any]]] = {"upcoming": [], "running": [], "finished": []}
    for status, group, order in (
        ("created", "upcoming", TournamentRow.starts_at.asc()),
        ("started", "running", TournamentRow.started_at.desc()),
        ("finished", "finished", TournamentRow.finished_at.desc()),
    ):
        rows = session.scalars(
            select(TournamentRow).where(TournamentRow.status == status).order_by(order).limit(limit)
        ).all()
        query = (
            select(TournamentPlayerRow.tournament_id, func.count())
            .where(
                TournamentPlayerRow.tournament_id.in_([r.id for r in rows]),
                TournamentPlayerRow.state != "withdrawn",
            )
            .group_by(TournamentPlayerRow.tournament_id)
        )
        counts: dict[str, int] = {}
        for tournament_id, count in session.execute(query).all() if rows else ():
            counts[tournament_id] = int(count)
        groups[group].extend(summary(row, counts.get(row.id, 0)) for row in rows)
    return groups


def tournament_view(
    session: Session, tournament_id: str, account_id: int | None
) -> dict[str, Any] | None:
    """Everything the tournament's page shows: its settings, standings (with tie-breaks),
    pairings (by round for Swiss), and the asker's own place and current game."""
    row = session.get(TournamentRow, tournament_id)
    if row is None:
        return None
    players = _players(session, tournament_id)
    pairings = _pairings(session, tournament_id)
    by_id = {p.account_id: p for p in players}
    table = standings_of(row, players, pairings)
    standings = []
    for s in table:
        player = by_id[int(s.key)]
        standings.append(
            {
                **s.to_dict(),
                "account_id": player.account_id,
                "name": player.name,
                "username": player.username,
                "state": player.state,
            }
        )
    # A pairing is stored with its game's id before the director creates the game (after the
    # pairing's transaction): until then it shows no game, which nobody could open yet.
    waiting = [p.game_id for p in pairings if p.game_id and p.result is None]
    created = (
        set(session.scalars(select(GameRow.id).where(GameRow.id.in_(waiting))))
        if waiting
        else set()
    )
    shown = []
    for p in pairings:
        red, blue = by_id.get(p.red_id), None if p.blue_id is None else by_id.get(p.blue_id)
        shown.append(
            {
                "round": p.round,
                "red": None if red is None else {"account_id": red.account_id, "name": red.name},
                "blue": None
                if blue is None
                else {"account_id": blue.account_id, "name": blue.name},
                "game_id": p.game_id if p.result is not None or p.game_id in created else None,
                "result": p.result,
                "created_at": p.created_at,
                "finished_at": p.finished_at,
            }
        )
    me = None
    if account_id is not None and account_id in by_id:
        mine = by_id[account_id]
        current = next(
            (
                p.game_id
                for p in reversed(pairings)
                if p.result is None and account_id in (p.red_id, p.blue_id)
            ),
            None,
        )
        if current is not None:  # ended, though the director has not recorded it yet
            game = session.get(GameRow, current)
            if game is None or GameStatus(game.status).is_over:
                current = None  # not created yet, or ended
        me = {"state": mine.state, "current_game": current, "no_shows": mine.no_shows}
    info = summary(row, sum(1 for p in players if p.state != "withdrawn"))
    return {**info, "standings": standings, "pairings": shown, "me": me}
