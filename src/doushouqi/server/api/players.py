"""Players: profiles with statistics, score and rating; game history; the leaderboard; and
how ladder points are computed."""

from __future__ import annotations

import dataclasses
import json
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query
from pydantic import BaseModel, Field
from sqlalchemy.orm import Session

from doushouqi.core import scoring
from doushouqi.core.game import GAMES
from doushouqi.server.accounts.auth import AVATARS, Principal
from doushouqi.server.accounts.scopes import PREFERENCE_WRITE
from doushouqi.server.api.auth import principal_dict
from doushouqi.server.api.deps import READ_LIMITED, Ctx, required_principal
from doushouqi.server.api.games import summary
from doushouqi.server.db import repo
from doushouqi.server.db.models import AccountRow, RatingRow
from doushouqi.server.domain.storage import game_from_storage
from doushouqi.server.infra.bounds import MAX_ID
from doushouqi.server.infra.errors import Problem

router = APIRouter(prefix="/api", tags=["players"])


def profile(row: AccountRow, standing: RatingRow) -> dict[str, Any]:
    """The account, with its score, rating and results in one game (``standing``)."""
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
        "rating": {
            "rating": round(standing.rating, 1),
            "rd": round(standing.rating_rd, 1),
            "volatility": standing.rating_volatility,
        },
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


#: The ``game`` query parameter of what is per game: a game's key.
GameKey = Query(repo.DEFAULT_GAME, min_length=1, max_length=16, description="the game's key")


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

    def read(session: Session) -> tuple[AccountRow, RatingRow] | None:
        row = repo.account_by_username(session, username[:32])
        return None if row is None else (row, repo.standing(session, row.id, game))

    found = await ctx.db.read(read)
    if found is None:
        raise Problem(404, "player.not_found", "no such player", name=username[:32])
    return profile(*found)


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

    def change(session: Session) -> tuple[AccountRow, RatingRow]:
        row = session.get(AccountRow, principal.account_id)
        assert row is not None  # the principal's account
        if body.display_name is not None:
            row.display_name = body.display_name.strip() or row.display_name
        if body.avatar is not None:
            row.avatar = body.avatar
        return row, repo.standing(session, row.id, repo.DEFAULT_GAME)

    return profile(*await ctx.db.write(change))


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
    by: Literal["score", "rating"] = "score",
    limit: int = Query(50, ge=1, le=200),
    game: str = GameKey,
) -> dict[str, Any]:
    """The best players of ``game`` by ladder score (docs/rules.md 5.4) or by Glicko-2 rating."""
    _known_game(game)
    rows = await ctx.db.read(lambda s: repo.leaderboard(s, by, limit, game))
    players = [{"rank": i + 1, **profile(*row)} for i, row in enumerate(rows)]
    return {"by": by, "players": players}


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
