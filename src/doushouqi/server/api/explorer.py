"""``GET /api/explorer``: the opening explorer (server/explorer.py): the moves played in a
position by the games stored on the server, each with its count and results."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query

from doushouqi.jungle.board import Board
from doushouqi.jungle.game import legal_destinations
from doushouqi.jungle.notation import move_to_readable
from doushouqi.server.api.deps import Ctx
from doushouqi.server.explorer import service as explorer
from doushouqi.server.games.choices import chosen_rules
from doushouqi.server.infra.errors import Problem

router = APIRouter(prefix="/api", tags=["explorer"])


@router.get("/explorer")
async def explore(
    ctx: Ctx,
    rules: str = Query("wango", max_length=40),
    fen: str | None = Query(None, max_length=200, description="none: the start position"),
    min_rating: int = Query(0, ge=0, le=4000, description="lowest average rating counted"),
) -> dict[str, Any]:
    """Each move played in the position (most played first): its count, Red's wins, draws
    and Blue's wins, in readable notation and with the position it leads to; and the
    position's legal destinations, for a board to click through."""
    rule_set = chosen_rules(rules)
    name = explorer.named_rules(rule_set) or rule_set.name
    try:
        board = Board(fen, rule_set)
    except ValueError as exc:
        raise Problem(422, "explorer.bad_fen", str(exc)) from None
    start = board.fen()
    found = await ctx.db.read(lambda s: explorer.query(s, name, start, min_rating))
    moves = []
    for entry in found:
        try:
            move = board.parse_move(entry["move"])
        except ValueError:  # a move stored under other rules of the same name: not here
            continue
        readable = {lang: move_to_readable(board, move, lang) for lang in ("en", "zh")}
        board.push(move)
        after = board.fen()
        board.pop()
        moves.append(
            {**entry, "readable_en": readable["en"], "readable_zh": readable["zh"], "fen": after}
        )
    over = board.is_game_over()
    return {
        "rules": name,
        "fen": start,
        "turn": board.turn,
        "min_rating": min_rating,
        "bands": list(explorer.RATING_BANDS),
        "total": sum(m["count"] for m in moves),
        "moves": moves,
        "dests": {} if over else legal_destinations(board),
    }
