"""The opening explorer: from the games stored on the server, each move's count and results in
a position, per rule set, rated or casual, and rating band (the index: explorer/models.py).

A finished game adds its first :data:`MAX_PLIES` plies to the index in the transaction that
stores it as finished (db/gamestore.py), so the explorer is never behind the games and, in a
cluster, every node reads the same counts from the shared database. The increments are one
``INSERT … ON CONFLICT DO UPDATE`` per row (SQLite and PostgreSQL both have it), so two nodes
finishing games through the same opening at once both count and neither fails.

Indexed: decided games (a win or a draw, not aborted) between two people online (not against
the computer, whose moves are an engine's and not the openings people play; not one person at
one screen), of at least :data:`MIN_PLIES` moves, from the start position, under a named rule
set (custom options only when they equal a named set, under its name). A game's rating band
is its players' average rating (guests count at their seat's rating); rated and casual games
are counted apart, so that a reader may ask for either or both.

``doushouqi explorer rebuild`` (re)builds the index from every stored game.

Games are replayed through the game interface (:mod:`doushouqi.core.game`), so the index
serves any game. Its keys are what they were when Jungle was the only game, so that the
tables already filled stay valid: a position is its position string without the counters
(:func:`position_key`), a rule set its name; another game's rule set names carry its key
(:func:`rules_key`), so that two games' sets of one name never share rows.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, NamedTuple

from sqlalchemy import delete, func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from doushouqi.core.game import get_game
from doushouqi.server.db.models import GameRow
from doushouqi.server.domain import Game
from doushouqi.server.domain.model import DEFAULT_GAME_KEY, GameStatus, Mode
from doushouqi.server.domain.storage import game_from_storage
from doushouqi.server.explorer.models import OpeningMoveRow

__all__ = [
    "MAX_PLIES",
    "MIN_PLIES",
    "RATING_BANDS",
    "Entry",
    "band_of",
    "game_entries",
    "named_rules",
    "position_key",
    "query",
    "rebuild",
    "record_game",
    "rules_key",
    "store_entries",
]

log = logging.getLogger(__name__)

#: Plies of each game that go into the index: the opening, not the whole game.
MAX_PLIES = 20
#: Plies a game must have to be counted (five moves a side). A game decided sooner was
#: resigned, left, flagged or agreed drawn before its opening was played out: its result says
#: something about the players and nothing about the moves (lichess's explorer leaves such
#: games out too). Passes forced by a timeout are not moves and do not count.
MIN_PLIES = 10
#: Lower bounds of the rating bands; a reader's minimum rating picks the bands at or above it.
RATING_BANDS = (0, 1200, 1400, 1600, 1800, 2000, 2200, 2400)


class Entry(NamedTuple):
    """One ply of one game, as the index counts it."""

    rules: str
    position: str
    move: str
    rated: bool
    band: int
    #: 0: seat 0 won, 1: a draw, 2: seat 1 won.
    result: int


_RESULT_COLUMNS = ("red_wins", "draws", "blue_wins")


def band_of(rating: float) -> int:
    """The band an average rating falls in (its lower bound)."""
    return max(b for b in RATING_BANDS if b <= max(0.0, rating))


def position_key(fen: str) -> str:
    """A position as the index knows it: its string without the counters, so that the same
    position reached at another move number is one position.

    Position strings are FEN-like (placement, side to move, then counters): the first two
    fields are the position for repetition, which is what the index counts by.
    """
    return " ".join(fen.split()[:2])


def rules_key(name: str, game_key: str = DEFAULT_GAME_KEY) -> str:
    """The index's key of the named rule set ``name`` of the game ``game_key``: the name
    alone for the default game (Jungle's rows, stored before games had keys, stay valid),
    ``game:name`` for another."""
    return name if game_key == DEFAULT_GAME_KEY else f"{game_key}:{name}"


def _options(mapping: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in mapping.items() if key != "name"}


def named_rules(rules: Any, game_key: str = DEFAULT_GAME_KEY) -> str | None:
    """The named rule set ``rules`` is (whatever it is called), or None for other rules."""
    game = get_game(game_key)
    options = _options(game.rules_to_mapping(rules))
    for name in game.rule_set_names:
        if _options(game.rules_to_mapping(game.parse_rules(name))) == options:
            return name
    return None


def game_entries(
    rules: Any,
    moves: Sequence[str],
    winner: int | None,
    rating: float,
    game_key: str = DEFAULT_GAME_KEY,
    *,
    rated: bool = False,
) -> list[Entry]:
    """The index entries of one decided game from the start position (``winner`` None: a
    draw); none under rules that are no named set. Stops at a timeout pass; a position met
    again is not counted again. Which games are counted at all is :func:`entries_of`'s
    choice."""
    name = named_rules(rules, game_key)
    if name is None:
        return []
    key = rules_key(name, game_key)
    result = 1 if winner is None else 0 if winner == 0 else 2
    band = band_of(rating)
    game = get_game(game_key)
    position = game.new_position(rules, game.start_position(rules))
    entries = []
    seen: set[str] = set()
    for text in moves[:MAX_PLIES]:
        if text == game.pass_move:
            break
        move = position.parse_move(text)
        here = position_key(position.position_string())
        # A position the game comes back to counts once, at its first visit: the explorer's
        # counts are of games ("n games reached this position"), not of visits.
        if here not in seen:
            seen.add(here)
            entries.append(Entry(key, here, move, rated, band, result))
        position.push(move)
    return entries


def _indexed(game: Game) -> bool:
    return (
        game.outcome is not None
        and game.status.is_decided
        and game.mode is Mode.ONLINE
        and game.start_fen is None
        and game.real_move_count >= MIN_PLIES
    )


def entries_of(game: Game) -> list[Entry]:
    """A stored game's entries (none for a game the explorer does not count)."""
    if not _indexed(game):
        return []
    ratings = [p.rating.rating for p in game.players if p is not None]
    rating = sum(ratings) / len(ratings) if ratings else 0.0
    moves = [m.move for m in game.moves]
    return game_entries(game.rules, moves, game.winner, rating, game.game_key, rated=game.rated)


def store_entries(session: Session, entries: Iterable[Entry]) -> None:
    """Add ``entries`` to the index (counts summed per row first: one statement per row)."""
    totals: dict[tuple[str, str, bool, int, str], list[int]] = {}
    for entry in entries:
        row_key = (entry.rules, entry.position, entry.rated, entry.band, entry.move)
        totals.setdefault(row_key, [0, 0, 0])[entry.result] += 1
    if not totals:
        return
    key = ["rules", "position", "rated", "band", "move"]
    rows = [
        {**dict(zip(key, k, strict=True)), "red_wins": c[0], "draws": c[1], "blue_wins": c[2]}
        for k, c in totals.items()
    ]
    dialect = session.get_bind().dialect.name
    if dialect == "sqlite":
        lite = sqlite.insert(OpeningMoveRow)
        session.execute(
            lite.on_conflict_do_update(index_elements=key, set_=_sums(lite.excluded)), rows
        )
        return
    if dialect == "postgresql":
        pg = postgresql.insert(OpeningMoveRow)
        session.execute(pg.on_conflict_do_update(index_elements=key, set_=_sums(pg.excluded)), rows)
        return
    for row in rows:  # any other database: one row at a time (not safe against a race)
        found = session.get(OpeningMoveRow, tuple(row[k] for k in key))
        if found is None:
            session.add(OpeningMoveRow(**row))
        else:
            for column in _RESULT_COLUMNS:
                setattr(found, column, getattr(found, column) + row[column])


def _sums(excluded: Any) -> dict[str, Any]:
    """The counts of a conflicting row plus those of the row that was to be inserted."""
    return {c: getattr(OpeningMoveRow, c) + excluded[c] for c in _RESULT_COLUMNS}


def record_game(session: Session, game: Game) -> None:
    """Count a game that has just been stored as finished (called in that transaction). The
    explorer never stops a game from being stored: a game it cannot read is logged, skipped."""
    try:
        entries = entries_of(game)
    except Exception:
        log.exception("opening explorer: could not read game %s", game.id)
        return
    store_entries(session, entries)


def query(
    session: Session, rules: str, fen: str, min_rating: int = 0, rated: bool | None = None
) -> list[dict[str, Any]]:
    """The moves played in a position, most played first, with their results summed over the
    rating bands from ``min_rating`` up, of rated games only (``rated`` True), casual ones
    only (False) or both (None). ``rules`` is the index's key (:func:`rules_key`)."""
    totals = [func.sum(getattr(OpeningMoveRow, c)) for c in _RESULT_COLUMNS]
    where = [
        OpeningMoveRow.rules == rules,
        OpeningMoveRow.position == position_key(fen),
        OpeningMoveRow.band >= band_of(min_rating),
    ]
    if rated is not None:
        where.append(OpeningMoveRow.rated == rated)
    rows = session.execute(
        select(OpeningMoveRow.move, *totals).where(*where).group_by(OpeningMoveRow.move)
    ).all()
    moves = [
        {"move": move, "red_wins": int(red), "draws": int(draw), "blue_wins": int(blue),
         "count": int(red) + int(draw) + int(blue)}
        for move, red, draw, blue in rows
    ]  # fmt: skip
    moves.sort(key=lambda m: (-m["count"], m["move"]))
    return moves


# ----- rebuilding --------------------------------------------------------------------------


def _stored_games(session: Session, batch: int = 500) -> Iterator[Game]:
    last = ""
    while True:
        rows = session.execute(
            select(GameRow.id, GameRow.state)
            .where(GameRow.id > last, GameRow.status > int(GameStatus.ABORTED))
            .order_by(GameRow.id)
            .limit(batch)
        ).all()
        if not rows:
            return
        for game_id, state in rows:
            last = game_id
            yield game_from_storage(json.loads(state))


def rebuild(session: Session) -> int:
    """Empty the index and count every stored game again; returns the games counted."""
    session.execute(delete(OpeningMoveRow))
    counted = 0
    pending: list[Entry] = []
    for game in _stored_games(session):
        entries = entries_of(game)
        counted += bool(entries)
        pending += entries
        if len(pending) > 20_000:
            store_entries(session, pending)
            pending = []
    store_entries(session, pending)
    return counted
