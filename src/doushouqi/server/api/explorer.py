"""``GET /api/explorer``: the opening explorer (server/explorer.py): the moves played in a
position by the games stored on the server, each with its count and results.

The position is read, and its moves worded, through the game interface, for any game the
site offers (``game``, the default game's when left out): its rule set choice
(:func:`chosen_rules`) is that game's. Filters: the players' average rating (``min_rating``)
and rated or casual games (``rated``; both when left out).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from doushouqi.core.game import MoveError, PositionError
from doushouqi.server.api.deps import READ_LIMITED, Ctx, enforce_rate, offered_game
from doushouqi.server.domain.model import DEFAULT_GAME_KEY
from doushouqi.server.explorer import service as explorer
from doushouqi.server.games.choices import chosen_rules
from doushouqi.server.infra.errors import Problem

router = APIRouter(prefix="/api", tags=["explorer"])


@router.get("/explorer", dependencies=READ_LIMITED)
async def explore(
    ctx: Ctx,
    request: Request,
    rules: str | None = Query(None, max_length=40, description="none: the game's default"),
    fen: str | None = Query(None, max_length=200, description="none: the start position"),
    min_rating: int = Query(0, ge=0, le=4000, description="lowest average rating counted"),
    rated: bool | None = Query(None, description="rated games only (true), casual (false)"),
    # Annotated, not a default: pydantic warns of an alias on a Field() used as a default.
    game_key: Annotated[
        str, Query(alias="game", max_length=16, description="the game's key")
    ] = DEFAULT_GAME_KEY,
) -> dict[str, Any]:
    """Each move played in the position (most played first): its count, Red's wins, draws
    and Blue's wins, in readable notation and with the position it leads to; and the
    position's legal destinations, for a board to click through. Limited per address
    (``explorer_rate``) besides the read limit: each is a search of the explorer's table."""
    enforce_rate(ctx.explorer_limiter, request)
    game, _ = offered_game(game_key)
    rule_set = chosen_rules(rules, game.key)
    name = explorer.named_rules(rule_set, game.key) or str(game.rules_to_mapping(rule_set)["name"])
    key = explorer.rules_key(name, game.key)
    try:
        position = game.new_position(
            rule_set, game.start_position(rule_set) if fen is None else fen
        )
    except PositionError as exc:
        raise Problem(422, "explorer.bad_fen", str(exc)) from None
    start = position.position_string()
    found = await ctx.db.read(lambda s: explorer.query(s, key, start, min_rating, rated))
    moves = []
    for entry in found:
        try:
            move = position.parse_move(entry["move"])
        except MoveError:  # a move stored under other rules of the same name: not here
            continue
        readable = {lang: position.move_text(move, lang) for lang in ("en", "zh")}
        position.push(move)
        after = position.position_string()
        position.pop()
        moves.append(
            {**entry, "readable_en": readable["en"], "readable_zh": readable["zh"], "fen": after}
        )
    over = position.outcome() is not None
    return {
        "game": game.key,
        "rules": name,
        "rule_options": game.rules_to_mapping(rule_set),
        "fen": start,
        "turn": position.turn,
        "min_rating": min_rating,
        "rated": rated,
        "bands": list(explorer.RATING_BANDS),
        # What is counted: each game's first ``max_plies`` plies, games of ``min_plies`` or more.
        "max_plies": explorer.MAX_PLIES,
        "min_plies": explorer.MIN_PLIES,
        "total": sum(m["count"] for m in moves),
        "moves": moves,
        "dests": {} if over else position.legal_destinations(),
    }
