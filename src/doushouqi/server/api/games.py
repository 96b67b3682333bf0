"""Games over REST: create, read, join, send commands, fetch events, download the record;
and the lobby of open online games."""

from __future__ import annotations

import datetime
import json
import random
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, PlainTextResponse
from pydantic import BaseModel, Field, field_validator

from doushouqi.core.speed import speed_of
from doushouqi.server.accounts.auth import Principal
from doushouqi.server.accounts.scopes import ANY_TOKEN, BOARD_PLAY
from doushouqi.server.api.deps import (
    READ_LIMITED,
    Ctx,
    enforce_rate,
    offered_game,
    optional_principal,
    required_principal,
)
from doushouqi.server.api.records import records_or_problem, replay
from doushouqi.server.db import repo
from doushouqi.server.domain import (
    Game,
    GameSpec,
    GameSpecError,
    Mode,
    PlayerSlot,
    lobby_deadline,
    new_game,
)
from doushouqi.server.domain.model import DEFAULT_GAME_KEY
from doushouqi.server.games.capabilities import Records
from doushouqi.server.games.choices import (
    checked_time_control,
    chosen_rules,
    rule_changes,
    rules_parent,
)
from doushouqi.server.infra.bounds import MAX_ID
from doushouqi.server.infra.errors import Problem
from doushouqi.server.infra.errors import unavailable as unavailable_response
from doushouqi.server.live.actors import new_game_id, state_message
from doushouqi.server.live.correspondence import lobby_wait_for
from doushouqi.server.live.ws import Client, dispatch

_rng = random.Random()  # its own: the process-wide generator is its host's (tests, tools)

router = APIRouter(prefix="/api", tags=["games"])
COMMAND_EXAMPLES = {
    "move": {"value": {"type": "move", "move": "a3a4", "version": 2}},
    "resign": {"value": {"type": "resign"}},
}


class CreateGame(BaseModel):
    mode: Mode = Mode.ONLINE
    game: str = Field(
        default=DEFAULT_GAME_KEY, max_length=16, description="the game's key (jungle, tiger)"
    )
    rules: str | dict[str, Any] | None = Field(
        default=None,
        description="a named rule set of the game (GET /api/rules?game=…), or rule options "
        'over an optional named "parent" (default: the game\'s default set), e.g. '
        '{"parent": "classic", "rule_17_5": false}; none: the default set',
    )
    time_control: str | None = Field(
        default=None, max_length=40, description="BASE+INC/PERs, e.g. 10+5/30s; none: untimed"
    )
    ai_level: int | None = Field(default=None, ge=1, le=10, description="vs_ai: the AI's level")
    color: Literal["red", "blue", "random"] = Field(
        default="random",
        description="your seat: red is seat 0, blue seat 1 (Jungle's colours; in the Tiger "
        "seat 0 is the tiger's side, seat 1 the men's)",
    )
    first_player: Literal["red", "blue"] | None = Field(
        default=None, description="the seat that moves first (default: the rule set's choice)"
    )
    rated: bool = Field(default=False, description="online games between two accounts only")
    public: bool = Field(default=True, description="online: listed in the lobby")

    @field_validator("rules", mode="before")
    @classmethod
    def _named_or_options(cls, value: Any) -> Any:
        # Left out, the rules are the game's default set; a null sent is no choice at all.
        if value is None:
            raise ValueError("rules: a rule set's name or rule options, not null")
        return value


def summary(game: Game) -> dict[str, Any]:
    """A game as lists show it (lobby, history)."""
    players: list[dict[str, Any] | None] = []
    for player in game.players:
        if player is None:
            players.append(None)
            continue
        players.append(
            {
                **player.to_dict(),
                "kind": player.identity.kind,
                "ai_level": player.ai_level,
            }
        )
    return {
        "id": game.id,
        "game_key": game.game_key,
        "mode": game.mode.value,
        "status": game.status.label,
        "rules": game.rules_name,
        "rules_parent": rules_parent(game.rules, game.game_key),
        "rule_changes": rule_changes(game.rules, game.game_key),
        "time_control": None if game.time_control is None else str(game.time_control),
        "rated": game.rated,
        "speed": None if game.speed is None else game.speed.value,
        "players": players,
        # Each seat's rating before and after, when the game moved them (the history shows it).
        "rating_change": None if game.rating_change is None else game.rating_change.to_dict(),
        "result": game.result,
        "termination": game.termination_key,
        "abort_reason": None if game.abort_reason is None else game.abort_reason.value,
        "plies": len(game.moves),
        "created_at": game.created_at,
        "finished_at": game.finished_at,
    }


def _admit_ai_game(ctx: Ctx) -> None:
    """Admission control: a new game against the computer only while its workers can serve
    one more (games in progress come first: they would all think less). In a cluster the
    workers serve every node, so the other nodes' games count too (as of their last report,
    a third of a lease ago at most)."""
    capacity = ctx.ai.capacity()
    in_play = ctx.registry.active_ai_games(ctx.time.now())
    if (cluster := ctx.registry.services.cluster) is not None:
        in_play += cluster.ai_games_elsewhere
    if capacity is not None and in_play >= capacity:
        ctx.registry.services.metrics.refused_ai_games.inc()
        raise Problem(
            503,
            "ai.full",
            "the computer is busy: every seat against it is taken; try again in a minute",
            headers={"Retry-After": "60"},
        )


@router.post("/games", status_code=201)
async def create_game(
    body: CreateGame,
    request: Request,
    ctx: Ctx,
    principal: Annotated[Principal, required_principal(BOARD_PLAY)],
) -> dict[str, Any]:
    """Create a game. Online, the response's ``invite_url`` (or the id as a code) lets the
    opponent join; vs AI and on one screen the game starts when you connect to it."""
    enforce_rate(ctx.create_limiter, request)
    played, site = offered_game(body.game)
    if body.mode is Mode.VS_AI:
        if site.engine is None:
            raise Problem(
                422,
                "game.no_engine",
                f"there is no computer player for {played.key} yet",
                game=played.key,
            )
        _admit_ai_game(ctx)
    rules = chosen_rules(body.rules, played.key)
    control = checked_time_control(body.time_control)
    if body.rated and body.mode is Mode.ONLINE and control is None:
        raise Problem(
            422, "game.rated_needs_clock", "a rated game needs a clock (ratings are per speed)"
        )
    me = (await ctx.auth.in_game(principal, played.key, speed_of(control))).slot()
    mine = {"red": 0, "blue": 1, "random": _rng.randrange(2)}[body.color]
    seats: list[PlayerSlot | None] = [None, None]
    seats[mine] = me
    if body.mode is Mode.VS_AI:
        seats[1 - mine] = PlayerSlot.ai(body.ai_level or 3)
    elif body.mode is Mode.SAME_SCREEN:
        seats[1 - mine] = me
    spec = GameSpec(
        mode=body.mode,
        players=(seats[0], seats[1]),
        rules=rules,
        time_control=control,
        first_player=None
        if body.first_player is None
        else ("red", "blue").index(body.first_player),
        rated=body.rated,
        grace_period=ctx.settings.grace_period,
        lobby_wait=lobby_wait_for(control, ctx.settings.lobby_wait),
        game_key=played.key,
    )
    try:
        game = new_game(spec, game_id=new_game_id(), now=ctx.time.now())
    except GameSpecError as exc:
        raise Problem(422, "game.bad_spec", str(exc)) from None
    public = body.public and body.mode is Mode.ONLINE
    actor = await ctx.registry.create(game, public=public)
    return {
        "id": game.id,
        "invite_code": game.id,
        # The server answers /game/ID with the page (titled for a link preview: api/pages.py).
        "invite_url": str(request.base_url) + f"game/{game.id}?join=1",
        "websocket": f"/ws/games/{game.id}",
        **actor.state_message(principal.identity),
    }


@router.get("/games/{game_id}", dependencies=READ_LIMITED)
async def get_game(
    game_id: str, ctx: Ctx, principal: Annotated[Principal | None, optional_principal(ANY_TOKEN)]
) -> dict[str, Any]:
    """The game's full state (``you.seats``: the colours you play)."""
    loaded = await ctx.registry.load(game_id)
    if loaded is None:
        raise Problem(404, "game.not_found", "no such game")
    game, rematch_id = loaded
    identity = None if principal is None else principal.identity
    return state_message(game, rematch_id, identity, ctx.time.now())


@router.post("/games/{game_id}/join")
async def join_game(
    game_id: str,
    ctx: Ctx,
    principal: Annotated[Principal, required_principal(BOARD_PLAY)],
    color: Literal[0, 1] | None = None,
) -> JSONResponse:
    """Take the open seat of an online game (or confirm you are at the board)."""
    message: dict[str, Any] = {"type": "join", "color": color}
    return await _command(game_id, ctx, principal, json.dumps(message))


@router.post(
    "/games/{game_id}/commands",
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {
                "application/json": {"schema": {"type": "object"}, "examples": COMMAND_EXAMPLES}
            },
        }
    },
)
async def send_command(
    game_id: str,
    request: Request,
    ctx: Ctx,
    principal: Annotated[Principal | None, optional_principal(BOARD_PLAY)],
) -> JSONResponse:
    """Send the same messages as over the websocket (``move``, ``resign``, ``offer_draw`` …).
    200 with the events it caused; 400 with a ``rejected`` or ``error`` body when refused; 503
    (``unavailable``, with Retry-After) when it could not be applied now: send it again."""
    raw = await request.body()
    return await _command(game_id, ctx, principal, raw)


async def _command(game_id: str, ctx: Ctx, principal: Any, raw: str | bytes) -> JSONResponse:
    actor = await ctx.registry.get(game_id)
    if actor is None:
        raise Problem(404, "game.not_found", "no such game")
    replies = await dispatch(Client(ctx, actor, principal), raw)
    if unavailable := [r for r in replies if r.get("code") == "unavailable"]:
        return unavailable_response(str(unavailable[0]["reason"]), events=replies)
    failed = any(r.get("type") in ("rejected", "error") for r in replies)
    return JSONResponse({"events": replies}, status_code=400 if failed else 200)


@router.get("/games/{game_id}/events", dependencies=READ_LIMITED)
async def game_events(
    game_id: str, ctx: Ctx, since: int = Query(0, ge=0, le=MAX_ID)
) -> dict[str, Any]:
    """The events after version ``since``, oldest first (the game's append-only log)."""
    loaded = await ctx.registry.load(game_id)
    if loaded is None:
        raise Problem(404, "game.not_found", "no such game")
    payloads = await ctx.db.read(lambda s: repo.events_since(s, game_id, since))
    return {
        "game_id": game_id,
        "version": loaded[0].version,
        "events": [json.loads(p) for p in payloads],
    }


async def _record(
    game_id: str, request: Request, ctx: Ctx
) -> tuple[Game, Records, datetime.date, dict[str, str]]:
    """The game, its game's record format (a 404 ``record.unsupported`` for a game without
    one), and the date and tags to hand that format."""
    loaded = await ctx.registry.load(game_id)
    if loaded is None:
        raise Problem(404, "game.not_found", "no such game")
    game = loaded[0]
    records = records_or_problem(game.game_key)
    date, tags = record_date_and_tags(game, str(request.base_url))
    return game, records, date, tags


def record_date_and_tags(game: Game, base_url: str) -> tuple[datetime.date, dict[str, str]]:
    """The day a game was created and the tags its record carries (its address on the site
    at ``base_url``)."""
    date = datetime.datetime.fromtimestamp(game.created_at, datetime.UTC).date()
    tags = {
        "Event": "Online game" if game.mode is Mode.ONLINE else "Casual game",
        "Site": base_url + f"game/{game.id}",
        "GameId": game.id,
    }
    return date, tags


@router.get("/games/{game_id}/record", response_class=PlainTextResponse, dependencies=READ_LIMITED)
async def game_record(game_id: str, request: Request, ctx: Ctx) -> PlainTextResponse:
    """The game as a record in its game's format (Jungle's is PGN-like), for download."""
    game, records, date, tags = await _record(game_id, request, ctx)
    name = f"{game.game_key}-{game.id}.{records.extension}"
    return PlainTextResponse(
        records.write(game, date, tags),
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


@router.get("/games/{game_id}/replay", dependencies=READ_LIMITED)
async def game_replay(game_id: str, request: Request, ctx: Ctx) -> dict[str, Any]:
    """Every position of the game so far, for the replay viewer (as for uploaded records)."""
    game, records, date, tags = await _record(game_id, request, ctx)
    return replay(records.from_game(game, date, tags))


@router.get("/lobby", dependencies=READ_LIMITED)
async def lobby(ctx: Ctx, limit: int = Query(50, ge=1, le=200)) -> dict[str, Any]:
    """Open online games waiting for an opponent (rule set, time control, creator's rating);
    ``expires_at``: when the game is aborted if nobody has joined it; ``server_time``: now."""
    games = await ctx.db.read(lambda s: repo.lobby(s, limit))
    now = ctx.time.now()
    entries = []
    for game in games:
        expires_at = lobby_deadline(game)
        # Its actor aborts an expired game at the deadline; until that is stored, skip it here.
        if expires_at is None or expires_at <= now:
            continue
        creator = next(p for p in game.players if p is not None)
        entries.append(
            {
                **summary(game),
                "creator": {
                    "name": creator.name,
                    "avatar": creator.avatar,
                    "rating": round(creator.rating.rating),
                    "provisional": creator.rating.provisional,
                    "score": creator.score,
                },
                "open_color": game.players.index(None),
                "expires_at": expires_at,
            }
        )
    # ``server_time``: this server's clock, so that a client counts down by it, not its own.
    return {"games": entries, "server_time": now}
