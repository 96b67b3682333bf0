"""``GET /api/tablebase?fen=…&rules=…``: the endgame tables' value of a position and of every
legal move (like lichess's tablebase API), from :mod:`doushouqi.jungle.tablebase.probe`.

The answer: ``category`` (``win`` / ``draw`` / ``loss`` for the side to move, ``unknown`` when
not covered, with ``reason``), ``dtm`` (plies to the end with perfect play, None for a draw),
``text`` (``"Red wins in 17"``), and ``moves``: each legal move with its ``category`` and
``dtm`` *for the side that plays it*, best first (fastest win, draws, longest defence). Probing
reads files only (the standard library), so it runs in a thread; it is rate-limited with the
analysis limit.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Query, Request

from doushouqi.jungle.board import Board
from doushouqi.jungle.notation import move_to_readable
from doushouqi.jungle.tablebase.file_format import out_of_scope_reason
from doushouqi.jungle.tablebase.probe import Probe, TablebaseError, probe, probe_moves
from doushouqi.server.api.deps import Ctx, enforce_rate
from doushouqi.server.games.choices import chosen_rules
from doushouqi.server.infra.errors import Problem

router = APIRouter(prefix="/api", tags=["tablebase"])


def _category(value: Probe | None) -> str:
    if value is None:
        return "unknown"
    return "win" if value.wdl > 0 else "loss" if value.wdl < 0 else "draw"


def _answer(board: Board) -> dict[str, Any]:
    base: dict[str, Any] = {"fen": board.fen(), "rules": board.rules.name, "turn": board.turn}
    reason = out_of_scope_reason(board.rules)
    entry = None if reason else probe(board)
    if entry is None:
        if reason is None:
            over = board.is_game_over()
            reason = "the game is over" if over else "no table covers this position"
        return {**base, "category": "unknown", "dtm": None, "text": None, "reason": reason,
                "moves": []}  # fmt: skip
    moves = []
    for item in probe_moves(board) or []:
        board.push(item.move)
        after = board.fen()
        board.pop()
        moves.append(
            {
                "uci": str(item.move),
                "san": board.san(item.move),
                "readable_en": move_to_readable(board, item.move, "en"),
                "readable_zh": move_to_readable(board, item.move, "zh"),
                "category": _category(item.value),
                "dtm": item.value.dtm,
                "fen": after,
            }
        )
    return {
        **base,
        "category": _category(entry),
        "dtm": entry.dtm,
        "text": f"Tablebase: {entry.describe(board.turn)}",
        "reason": None,
        "moves": moves,
    }


@router.get("/tablebase")
async def tablebase(
    request: Request,
    ctx: Ctx,
    fen: str = Query(..., max_length=200, description="the position"),
    rules: str = Query("wango", max_length=40),
) -> dict[str, Any]:
    """The table value of the position and of each legal move (see the module docstring)."""
    enforce_rate(ctx.analysis_limiter, request)
    rule_set = chosen_rules(rules)
    try:
        board = Board(fen, rule_set)
    except ValueError as exc:
        raise Problem(422, "tablebase.bad_fen", str(exc)) from None
    if not board.is_valid():
        raise Problem(422, "tablebase.bad_fen", "the position is not valid")
    try:
        return await asyncio.to_thread(_answer, board)
    except TablebaseError as exc:
        raise Problem(503, "tablebase.damaged", str(exc)) from None
