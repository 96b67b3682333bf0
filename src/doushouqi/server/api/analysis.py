"""Positions and engine analysis for clients that know no rules: lessons, the threat view,
hints and the replay viewer's evaluation graph.

``POST /api/position`` replays moves from a position with the rules library and says what a
board needs to draw the result (legal destinations, outcome, threats). ``POST /api/analysis``
asks the engine for the best move and the score (a hint in a covered endgame comes from the
tables at once: ``source: "tablebase"``), in a worker pool of its own (settings
``analysis_workers``), so that analyses never queue ahead of the AI's moves in games.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any, Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from doushouqi.jungle.board import Board
from doushouqi.jungle.game import legal_destinations
from doushouqi.jungle.notation import move_to_readable
from doushouqi.jungle.rules import BUILTIN_RULE_SETS
from doushouqi.jungle.squares import DENS, square_name
from doushouqi.server.ai.pool import AiRequest
from doushouqi.server.ai.tablebase_hints import table_hint
from doushouqi.server.api.deps import Ctx, enforce_rate
from doushouqi.server.games.choices import chosen_rules
from doushouqi.server.infra.errors import Problem

router = APIRouter(prefix="/api", tags=["analysis"])
log = logging.getLogger(__name__)

#: Longest move list accepted (a game ends long before: the no-capture limit, repetitions).
MAX_MOVES = 2000
#: Red's view of a den score in ``red_cp`` (beyond any material score).
DEN_CP = 10000
#: Full strength: hints and analysis show the engine's best.
ANALYSIS_LEVEL = 10
#: Most lines an analysis returns (each costs about one more search of the position).
MAX_LINES = 5
#: The longest a request waits for the analysis workers to start (a cold engine cache on a
#: slow machine); past it the request runs, and fails like any other if they are not up.
WARM_UP_WAIT = 120.0


class PositionQuery(BaseModel):
    rules: str | dict[str, Any] = Field(
        default="wango", description=f"one of {', '.join(BUILTIN_RULE_SETS)}, or rule options"
    )
    fen: str | None = Field(default=None, max_length=200, description="none: the start")
    moves: list[str] = Field(default_factory=list, max_length=MAX_MOVES)


class AnalysisQuery(PositionQuery):
    movetime: float = Field(default=0.5, ge=0.05, le=2.0, description="seconds to think")
    purpose: Literal["hint", "analysis"] = Field(
        default="analysis",
        description="a hint (a player waits: served before replay analyses) or an analysis",
    )
    multipv: int = Field(
        default=1, ge=1, le=MAX_LINES, description="how many of the best lines to return"
    )


def _replay(query: PositionQuery) -> tuple[Board, list[dict[str, str]]]:
    """The position after the query's moves, and each move in readable notation."""
    rules = chosen_rules(query.rules)
    try:
        board = Board(query.fen, rules)
    except ValueError as exc:
        raise Problem(422, "position.bad", str(exc)) from None
    played = []
    for ply, text in enumerate(query.moves, 1):
        try:
            # "0000": a turn passed by a timeout (docs/rules.md 5.3), as game move lists record it;
            # the library refuses it where no move could be played (a den entered, ...).
            move = board.parse_move(text, allow_pass=True)
        except ValueError as exc:
            raise Problem(
                422, "position.move", f"move {ply} ({text[:10]}): {exc}", ply=ply
            ) from None
        played.append(
            {
                "move": str(move),
                "readable_en": move_to_readable(board, move, "en"),
                "readable_zh": move_to_readable(board, move, "zh"),
            }
        )
        board.push(move)
    return board, played


def threats(board: Board) -> dict[str, list[str]]:
    """For the side to move: its animals the opponent could capture (were it the opponent's
    move), and the opponent's animals one move from its den."""
    us, them = board.turn, 1 - board.turn
    attacked = [
        square_name(square)
        for square in range(63)
        if board.pieces(us) >> square & 1 and board.attackers(them, square)
    ]
    den = [square_name(square) for square in board.attackers(them, DENS[us])]
    return {"attacked": attacked, "den": den}


def _outcome(board: Board) -> dict[str, Any] | None:
    outcome = board.outcome()
    if outcome is None:
        return None
    return {
        "result": outcome.result(),
        "termination": outcome.termination.value,
        "winner": outcome.winner,
    }


@router.post("/position")
async def position(query: PositionQuery) -> dict[str, Any]:
    """The position after ``moves`` from ``fen``: legal destinations, outcome and threats.
    An illegal move gets a 422 that says which and why."""
    board, played = _replay(query)
    over = board.is_game_over()
    return {
        "fen": board.fen(),
        "turn": board.turn,
        "dests": {} if over else legal_destinations(board),
        "last_move": played[-1]["move"] if played else None,
        "outcome": _outcome(board),
        "threats": threats(board),
        "moves": played,
    }


@router.post("/analysis")
async def analysis(query: AnalysisQuery, request: Request, ctx: Ctx) -> dict[str, Any]:
    """The engine's best move and score for the position after ``moves`` (hints, replay),
    and its best ``multipv`` lines (``lines``, the best first: each line's first move in
    readable notation, its score, depth and moves)."""
    enforce_rate(ctx.analysis_limiter, request)
    board, _ = _replay(query)
    result: dict[str, Any] = {"fen": board.fen(), "turn": board.turn}
    if board.is_game_over():
        return {
            **result, "bestmove": None, "score": None, "red_cp": None, "depth": 0, "pv": [],
            "lines": [],
        }  # fmt: skip
    if query.purpose == "hint":
        # A covered endgame: the tables' best move at once, no engine (docs/engine.md).
        table = await asyncio.to_thread(table_hint, board)
        if table is not None:
            cp = _red_cp(table["score"], board.turn)
            table["lines"][0]["red_cp"] = cp
            return {**result, **table, "red_cp": cp}
    # The position as the library read it (moves without stray spaces), so that the worker
    # replays exactly what was checked here.
    ai_request = AiRequest(
        rules=board.rules.to_mapping(),
        start_fen=board.starting_fen,
        moves=tuple(str(move) for move in board.move_stack),
        level=ANALYSIS_LEVEL,
        movetime=query.movetime,
        kind=query.purpose,
        multipv=query.multipv,
    )
    # A pool still starting (the server warms it up at start) is waited for, not counted
    # against the search's time: the first hint after a start is queued, never refused.
    if (ready := getattr(ctx.analysis, "ready", None)) is not None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(ready(), WARM_UP_WAIT)
    try:
        found = await asyncio.wait_for(
            ctx.analysis.analyse(ai_request), query.movetime + ctx.settings.ai_timeout_margin
        )
    except Exception:  # a dead or overrun worker: say so, never hang the client
        raise Problem(503, "engine.unavailable", "the engine is not available; try again") from None
    # The best line is the best move's (its moves start with it); each line is checked.
    best = _line(board, {**found, "pv": [found["bestmove"], *found["pv"][1:]]})
    if best is None:  # the engine and the rules library disagree: a bug, logged by _line
        raise Problem(503, "engine.unavailable", "the engine is not available; try again")
    others = [_line(board, line) for line in (found.get("lines") or [found])[1:]]
    lines = [best, *(line for line in others if line is not None)]
    fields = {key: value for key, value in best.items() if key != "move"}
    return {**result, "bestmove": best["move"], **fields, "lines": lines}


def _line(board: Board, line: dict[str, Any]) -> dict[str, Any] | None:
    """One engine line for clients: its first move in readable notation, its score also from
    Red's view; None when the engine's first move is not legal here (logged)."""
    pv = [str(move) for move in line.get("pv") or []]
    try:
        move = board.parse_move(pv[0]) if pv else None
    except ValueError:
        move = None
    if move is None:
        log.error("the engine's line %r is not legal after %s", pv[:1], board.fen())
        return None
    score = line.get("score")
    return {
        "move": str(move),
        "readable_en": move_to_readable(board, move, "en"),
        "readable_zh": move_to_readable(board, move, "zh"),
        "score": score,
        "red_cp": None if score is None else _red_cp(score, board.turn),
        "depth": line.get("depth", 0),
        "pv": pv,
    }


def _red_cp(score: dict[str, int], turn: int) -> int:
    """A score from the side to move's view as one number from Red's view (den: ±DEN_CP,
    sooner entries larger)."""
    if "den" in score:
        den = score["den"]
        value = DEN_CP - abs(den) if den > 0 else -(DEN_CP - abs(den))
    else:
        value = score["cp"]
    return value if turn == 0 else -value
