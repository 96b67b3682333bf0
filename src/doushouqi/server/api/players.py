"""Players: profiles with statistics, score and ratings (one per speed); game history; the
leaderboards (by rating at one speed, by ladder score); and how ladder points are computed."""

from __future__ import annotations

import dataclasses
import json
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query
from pydantic import BaseModel, Field
from sqlalchemy.orm import Session

from doushouqi.core import scoring
from doushouqi.core.game import GAMES
from doushouqi.core.speed import Speed
from doushouqi.server.accounts.auth import AVATARS, Principal
from doushouqi.server.accounts.scopes import PREFERENCE_WRITE
from doushouqi.server.api.auth import principal_dict
from doushouqi.server.api.deps import READ_LIMITED, Ctx, required_principal
from doushouqi.server.api.games import summary
from doushouqi.server.db import repo
from doushouqi.server.db.models import AccountRow, RatingRow, SpeedRatingRow
from doushouqi.server.db.speed_ratings import as_rating, rating_board, speed_ratings_of
from doushouqi.server.domain.storage import game_from_storage
from doushouqi.server.infra.bounds import MAX_ID
from doushouqi.server.infra.errors import Problem

router = APIRouter(prefix="/api", tags=["players"])


def rating_dict(row: SpeedRatingRow) -> dict[str, Any]:
    """One speed's rating as clients show it: ``provisional`` ones with a "?" ("1500?")."""
    rating = as_rating(row)
    return {
        "rating": round(rating.rating, 1),
        "rd": round(rating.rd, 1),
        "volatility": rating.volatility,
        "provisional": rating.provisional,
        "games": row.games,
    }


def _public(row: AccountRow, standing: RatingRow) -> dict[str, Any]:
    """Who the account is, with its ladder score and title (级别) in one game."""
    level = scoring.level_for_score(standing.score)
    return {
        # The account id, as game summaries name their seats (identity.id): it tells a
        # client which side of a listed game the player sat on.
        "id": row.id,
        "username": row.username,
        "display_name": row.display_name,
        "avatar": row.avatar,
        "is_bot": row.is_bot,
        "score": standing.score,
        "level": {"number": level.number, "label": level.label, "en": level.en},
    }


def profile(
    row: AccountRow, standing: RatingRow, ratings: dict[Speed, SpeedRatingRow]
) -> dict[str, Any]:
    """The account, with its score, results and ratings (``ratings``: one per speed, fastest
    first) in one game (``standing``)."""
    return {
        **_public(row, standing),
        "ratings": {speed.value: rating_dict(r) for speed, r in ratings.items()},
        "stats": {
            "games": standing.games,
            "wins": standing.wins,
            "losses": standing.losses,
            "draws": standing.draws,
            "disconnects": row.disconnects,
            "timeouts": row.timeouts,
        },
        "created_at": row.created_at,
        # Closed by its owner or a moderator: the page says so (its games stay listed).
        "closed": row.closed_at is not None,
    }


def _profile_of(session: Session, row: AccountRow, game: str) -> dict[str, Any]:
    return profile(
        row, repo.standing(session, row.id, game), speed_ratings_of(session, row.id, game)
    )


#: The ``game`` query parameter of what is per game: a game's key.
GameKey = Query(repo.DEFAULT_GAME, min_length=1, max_length=16, description="the game's key")


#: The ``speed`` query parameter of the rating boards (the site's usual games are rapid).
SpeedKey = Query(Speed.RAPID, description="by=rating: whose ratings (one per speed)")


def _known_game(game: str) -> str:
    if game not in GAMES:
        raise Problem(422, "game.unknown", f"game must be one of {', '.join(GAMES)}", game=game)
    return game


async def _account(ctx: Ctx, username: str) -> AccountRow:
    row = await ctx.db.read(lambda s: repo.account_by_username(s, username[:32]))
    if row is None:
        raise Problem(404, "player.not_found", "no such player", name=username[:32])
    return row


@router.get("/players/{username}", dependencies=READ_LIMITED)
async def get_player(username: str, ctx: Ctx, game: str = GameKey) -> dict[str, Any]:
    """A player's profile: avatar, name, statistics, ladder score and level, rating (those in
    ``game``; a game not played yet shows a new player's)."""
    _known_game(game)

    def read(session: Session) -> dict[str, Any] | None:
        row = repo.account_by_username(session, username[:32])
        return None if row is None else _profile_of(session, row, game)

    found = await ctx.db.read(read)
    if found is None:
        raise Problem(404, "player.not_found", "no such player", name=username[:32])
    return found


class ProfileChange(BaseModel):
    display_name: str | None = Field(default=None, min_length=1, max_length=40)
    avatar: str | None = Field(default=None, description=f"one of {', '.join(AVATARS)}")


@router.patch("/account")
async def change_profile(
    body: ProfileChange,
    ctx: Ctx,
    principal: Annotated[Principal, required_principal(PREFERENCE_WRITE)],
) -> dict[str, Any]:
    """Change your display name or animal avatar (new games show it). A guest may change its
    display name (kept as long as its guest cookie); its avatar comes with its guest id."""
    if body.avatar is not None and body.avatar not in AVATARS:
        raise Problem(422, "account.avatar", f"avatar must be one of {', '.join(AVATARS)}")
    if principal.account_id is None:
        return await _rename_guest(body, ctx, principal)

    def change(session: Session) -> dict[str, Any]:
        row = session.get(AccountRow, principal.account_id)
        assert row is not None  # the principal's account
        if body.display_name is not None:
            row.display_name = body.display_name.strip() or row.display_name
        if body.avatar is not None:
            row.avatar = body.avatar
        return _profile_of(session, row, repo.DEFAULT_GAME)

    return await ctx.db.write(change)


async def _rename_guest(body: ProfileChange, ctx: Ctx, principal: Principal) -> dict[str, Any]:
    if body.avatar is not None:
        raise Problem(
            403, "account.guest_avatar", "guests cannot choose an avatar (an account can)"
        )
    guest_id = str(principal.identity.id)
    # The same rule as for accounts: a blank name keeps the current one.
    name = (body.display_name or "").strip()
    if name and name != principal.name:
        now = ctx.time.now()
        await ctx.db.write(lambda s: repo.set_guest_name(s, guest_id, name, now))
        principal = dataclasses.replace(principal, name=name)
    return {**principal_dict(principal), "display_name": principal.name}


@router.get("/players/{username}/games", dependencies=READ_LIMITED)
async def player_games(
    username: str,
    ctx: Ctx,
    limit: int = Query(20, ge=1, le=100),
    offset: int = Query(0, ge=0, le=MAX_ID),
) -> dict[str, Any]:
    """A player's games, newest first."""
    row = await _account(ctx, username)
    total, rows = await ctx.db.read(lambda s: repo.history(s, f"account:{row.id}", limit, offset))
    games = [summary(game_from_storage(json.loads(r.state))) for r in rows]
    return {"total": total, "games": games}


@router.get("/leaderboard", dependencies=READ_LIMITED)
async def leaderboard(
    ctx: Ctx,
    by: Literal["score", "rating"] = "rating",
    speed: Speed = SpeedKey,
    limit: int = Query(50, ge=1, le=200),
    game: str = GameKey,
) -> dict[str, Any]:
    """The best players of ``game``: by Glicko-2 rating at ``speed`` (settled ratings ranked
    first; provisional ones, RD above 110, follow unranked, ``"provisional": true``), or by
    ladder score (docs/rules.md 5.4; ``speed`` is then not used)."""
    _known_game(game)
    if by == "score":
        rows = await ctx.db.read(lambda s: repo.score_board(s, limit, game))
        players = [{"rank": i + 1, **_public(*row)} for i, row in enumerate(rows)]
        return {"by": by, "game": game, "players": players}

    def read(session: Session) -> list[dict[str, Any]]:
        board = rating_board(session, game, speed, limit)
        entries = []
        for account, rating, standing in board:
            public = _public(account, standing or repo.new_standing(account.id, game))
            entries.append({**public, "rating": rating_dict(rating)})
        return entries

    players = await ctx.db.read(read)
    ranked = [p for p in players if not p["rating"]["provisional"]]
    for rank, entry in enumerate(ranked, 1):
        entry["rank"] = rank
    for entry in players:
        entry.setdefault("rank", None)
    return {"by": by, "game": game, "speed": speed.value, "players": players}


@router.get("/scoring")
async def scoring_rules() -> dict[str, Any]:
    """How ladder points are computed (docs/rules.md 5.4, :mod:`doushouqi.core.scoring`)."""
    return {
        "win_points": "clamp(WIN_BASE + loser_level - winner_level, WIN_MIN, WIN_MAX)",
        "win_base": scoring.WIN_BASE,
        "win_min": scoring.WIN_MIN,
        "win_max": scoring.WIN_MAX,
        "loss_points": -scoring.LOSS_POINTS,
        "abandon_penalty": -scoring.ABANDON_PENALTY,
        "min_rounds": scoring.MIN_ROUNDS,
        "draws": 0,
        "ai_level": "an AI of level n counts as a level-n player",
        "levels": [
            {"number": lv.number, "label": lv.label, "en": lv.en, "min_score": lv.min_score}
            for lv in scoring.LEVELS
        ],
    }
