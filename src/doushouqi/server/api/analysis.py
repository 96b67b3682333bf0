"""Positions and engine analysis for clients that know no rules: lessons, the threat view,
hints and the replay viewer's evaluation graph.

``POST /api/position`` replays moves from a position through the game interface
(:mod:`doushouqi.core.game`; a request names its ``game``, Jungle by default) and says what a
board needs to draw the result (legal destinations, outcome, the game's threat view).
``POST /api/analysis`` asks the engine for the best move and the score (a hint in a covered
endgame comes from the game's tables at once: ``source: "tablebase"``), in a worker pool of its
own (settings ``analysis_workers``), so that analyses never queue ahead of the AI's moves in
games.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any, Literal, NamedTuple

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from doushouqi.core.game import Game, IllegalMoveError, MoveError, Position, PositionError
from doushouqi.server.ai.pool import AiRequest
from doushouqi.server.api.deps import Ctx, enforce_rate, offered_game
from doushouqi.server.db.repo import DEFAULT_GAME
from doushouqi.server.games.choices import chosen_rules
from doushouqi.server.games.registry import SiteGame
from doushouqi.server.infra.errors import Problem
from doushouqi.server.review import grading

router = APIRouter(prefix="/api", tags=["analysis"])
log = logging.getLogger(__name__)

#: Longest move list accepted (a game ends long before: the no-capture limit, repetitions).
MAX_MOVES = 2000
#: Seconds a search within a node budget is allowed (far beyond what its budget takes).
BUDGET_SECONDS = 20.0
#: Red's view of a den score in ``red_cp`` (beyond any material score).
DEN_CP = grading.DEN_CP
#: Full strength: hints and analysis show the engine's best.
ANALYSIS_LEVEL = 10
#: Most lines an analysis returns (each costs about one more search of the position).
MAX_LINES = 5
#: The longest a request waits for the analysis workers to start (a cold engine cache on a
#: slow machine); past it the request runs, and fails like any other if they are not up.
WARM_UP_WAIT = 120.0


class PositionQuery(BaseModel):
    game: str = Field(default=DEFAULT_GAME, max_length=16, description="the game's key")
    rules: str | dict[str, Any] | None = Field(
        default=None, description="a named rule set of the game, or rule options; none: its default"
    )
    fen: str | None = Field(default=None, max_length=200, description="none: the start")
    moves: list[str] = Field(default_factory=list, max_length=MAX_MOVES)


class ExplainQuery(PositionQuery):
    move: str = Field(max_length=40, description="a move to check after ``moves``")


class AnalysisQuery(PositionQuery):
    movetime: float = Field(default=0.5, ge=0.05, le=2.0, description="seconds to think")
    purpose: Literal["hint", "analysis"] = Field(
        default="analysis",
        description="a hint (a player waits: served before replay analyses) or an analysis",
    )
    multipv: int = Field(
        default=1, ge=1, le=MAX_LINES, description="how many of the best lines to return"
    )


class Replay(NamedTuple):
    """A query's game, the site's entry for it, the position it started from and the position
    after its moves (each move in readable words)."""

    game: Game[Any]
    site: SiteGame
    rules: Any
    start: str
    position: Position
    played: list[dict[str, str]]


def _replay(query: PositionQuery) -> Replay:
    """The position after the query's moves, every move checked, and each move in readable
    notation; a 422 that says which move and why for one the game refuses."""
    game, site = offered_game(query.game)
    rules = chosen_rules(query.rules, game.key)
    try:
        fen = game.start_position(rules) if query.fen is None else query.fen
        position = game.new_position(rules, fen)
    except PositionError as exc:
        raise Problem(422, "position.bad", str(exc)) from None
    start = position.position_string()
    played = []
    for ply, text in enumerate(query.moves, 1):
        try:
            move = _checked_move(game, position, text)
        except MoveError as exc:
            # A move the rules refuse says why for the client to put in its reader's words:
            # ``reason`` is the game's code for it (a lesson explains an illegal try by it).
            problem = Problem(422, "position.move", f"move {ply} ({text[:10]}): {exc}", ply=ply)
            problem.params.update(_reason(exc))
            raise problem from None
        played.append(
            {
                "move": move,
                "readable_en": position.move_text(move, "en"),
                "readable_zh": position.move_text(move, "zh"),
            }
        )
        if move == game.pass_move:
            position.push_pass()
        else:
            position.push(move)
    return Replay(game, site, rules, start, position, played)


def _reason(exc: MoveError) -> dict[str, str]:
    """The reason of a refused move as the Problem's params: ``reason`` (the game's code) and
    its details (points, squares, pieces by kind); nothing for text that is no move at all."""
    if not isinstance(exc, IllegalMoveError) or exc.code is None:
        return {}
    details = {key: value for key, value in exc.details.items() if key != "ply"}
    return {**details, "reason": exc.code}


def _checked_move(game: Game[Any], position: Position, text: str) -> str:
    """The move string ``text`` names if it may be played here: a legal move, or the game's
    pass (a turn passed by a timeout, docs/rules.md 5.3, as game move lists record it) where a
    move could be played instead; MoveError saying why not."""
    try:
        return position.parse_move(text)
    except MoveError:
        if game.pass_move is None or not _names_pass(game.pass_move, position, text):
            raise
    position.copy().push_pass()  # refused where no move could be played (a den entered …)
    return game.pass_move


def _names_pass(pass_move: str, position: Position, text: str) -> bool:
    """Whether ``text`` is the game's pass: its move string, or another spelling the game reads
    as the pass (Jungle's library reads a move from a square to itself as one, and this API has
    always accepted what the library accepts)."""
    if text.strip() == pass_move:
        return True
    try:
        return position.move_text(text, "en") == position.move_text(pass_move, "en")
    except MoveError:
        return False


def _outcome(position: Position) -> dict[str, Any] | None:
    outcome = position.outcome()
    if outcome is None:
        return None
    return {"result": outcome.result(), "termination": outcome.key, "winner": outcome.winner}


@router.post("/position")
async def position(query: PositionQuery) -> dict[str, Any]:
    """The position after ``moves`` from ``fen``: legal destinations, outcome and threats (None
    for a game without a threat view). An illegal move gets a 422 that says which and why."""
    replay = _replay(query)
    now, played = replay.position, replay.played
    outcome = _outcome(now)
    return {
        "fen": now.position_string(),
        "turn": now.turn,
        "dests": {} if outcome is not None else now.legal_destinations(),
        "last_move": played[-1]["move"] if played else None,
        "outcome": outcome,
        "threats": None if replay.site.threats is None else replay.site.threats(now),
        "moves": played,
    }


@router.post("/position/explain")
async def explain(query: ExplainQuery) -> dict[str, Any]:
    """Whether ``move`` may be played after ``moves``, and if not why: ``reason`` the game's
    code for it (None for text that is no move at all), ``params`` what it is about (points,
    squares, pieces by kind) and ``detail`` the words in English. A lesson asks this when a
    learner tries a move the board does not offer, and says the reason in the reader's words.

    A refusal is this answer's content, not a failed request (200): a browser reports every
    failed request as an error, and a learner's wrong try is no error of the page's."""
    replay = _replay(query)
    try:
        _checked_move(replay.game, replay.position, query.move)
    except MoveError as exc:
        why = _reason(exc)
        reason = why.pop("reason", None)
        return {"legal": False, "reason": reason, "params": why, "detail": str(exc)}
    return {"legal": True, "reason": None, "params": {}, "detail": None}


@router.post("/analysis")
async def analysis(query: AnalysisQuery, request: Request, ctx: Ctx) -> dict[str, Any]:
    """The engine's best move and score for the position after ``moves`` (hints, replay),
    and its best ``multipv`` lines (``lines``, the best first: each line's first move in
    readable notation, its score, depth and moves)."""
    return await analyse_query(query, request, ctx)


async def analyse_query(
    query: AnalysisQuery, request: Request, ctx: Ctx, nodes: int | None = None
) -> dict[str, Any]:
    """What ``POST /api/analysis`` answers; with ``nodes``, one line searched within that
    many nodes instead of ``movetime`` (the same answer under any load)."""
    enforce_rate(ctx.analysis_limiter, request)
    replay = _replay(query)
    if replay.site.engine is None:
        key = replay.game.key
        raise Problem(404, "engine.none", f"there is no computer player for {key}", game=key)
    now = replay.position
    result: dict[str, Any] = {"fen": now.position_string(), "turn": now.turn}
    if now.outcome() is not None:
        return {
            **result, "bestmove": None, "score": None, "red_cp": None, "depth": 0, "pv": [],
            "lines": [],
        }  # fmt: skip
    tables = replay.site.tablebase
    if query.purpose == "hint" and tables is not None:
        # A covered endgame: the tables' best move at once, no engine (docs/engine.md).
        table = await asyncio.to_thread(tables.hint, now)
        if table is not None:
            cp = _red_cp(table["score"], now.turn)
            table["lines"][0]["red_cp"] = cp
            return {**result, **table, "red_cp": cp}
    # The position as the game read it (canonical move strings), so that the worker replays
    # exactly what was checked here.
    ai_request = AiRequest(
        rules=replay.game.rules_to_mapping(replay.rules),
        start_fen=replay.start,
        moves=tuple(item["move"] for item in replay.played),
        level=ANALYSIS_LEVEL,
        movetime=query.movetime,
        kind=query.purpose,
        multipv=query.multipv,
        game_key=replay.game.key,
        budget=None if nodes is None else {"nodes": nodes},
    )
    # A pool still starting (the server warms it up at start) is waited for, not counted
    # against the search's time: the first hint after a start is queued, never refused.
    if (ready := getattr(ctx.analysis, "ready", None)) is not None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(ready(), WARM_UP_WAIT)
    try:
        # A node budget's time depends on the machine: allowed as long as a search may take.
        allowed = query.movetime if nodes is None else BUDGET_SECONDS
        found = await asyncio.wait_for(
            ctx.analysis.analyse(ai_request), allowed + ctx.settings.ai_timeout_margin
        )
    except Exception:  # a dead or overrun worker: say so, never hang the client
        raise Problem(503, "engine.unavailable", "the engine is not available; try again") from None
    # The best line is the best move's (its moves start with it); each line is checked.
    best = _line(now, {**found, "pv": [found["bestmove"], *found["pv"][1:]]})
    if best is None:  # the engine and the rules disagree: a bug, logged by _line
        raise Problem(503, "engine.unavailable", "the engine is not available; try again")
    others = [_line(now, line) for line in (found.get("lines") or [found])[1:]]
    lines = [best, *(line for line in others if line is not None)]
    fields = {key: value for key, value in best.items() if key != "move"}
    return {**result, "bestmove": best["move"], **fields, "lines": lines}


def _line(position: Position, line: dict[str, Any]) -> dict[str, Any] | None:
    """One engine line for clients: its first move in readable notation, its score also from
    seat 0's (Red's) view; None when the engine's first move is not legal here (logged)."""
    pv = [str(move) for move in line.get("pv") or []]
    try:
        move = position.parse_move(pv[0]) if pv else None
    except MoveError:
        move = None
    if move is None:
        log.error("the engine's line %r is not legal after %s", pv[:1], position.position_string())
        return None
    score = line.get("score")
    return {
        "move": move,
        "readable_en": position.move_text(move, "en"),
        "readable_zh": position.move_text(move, "zh"),
        "score": score,
        "red_cp": None if score is None else _red_cp(score, position.turn),
        "depth": line.get("depth", 0),
        "pv": pv,
    }


def _red_cp(score: dict[str, int], turn: int) -> int:
    """A score from the side to move's view as one number from the first seat's view (Red's
    in Jungle); the arithmetic is the review's (a stored review converts the same way)."""
    return grading.first_seat_cp(score, turn)
