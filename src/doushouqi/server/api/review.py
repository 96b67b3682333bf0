"""Game review: a finished game's stored review, grades and accuracy from a replay's scores,
and the judge of "learn from your mistakes" (the arithmetic: server/review/grading.py;
docs/server.md, "Game review").

``POST /api/games/{id}/review`` asks for the review of a finished game at a fixed budget
(``standard``, or ``deep`` for a re-analysis); it is computed once on the server
(server/review/service.py) and ``GET /api/games/{id}/review`` shows it, or its progress, to
every viewer alike.

``POST /api/review`` grades the moves of a replay from the scores the client got from
``/api/analysis``, so that the client shows the server's numbers and never its own.
``POST /api/review/check`` judges a move tried instead of a mistake: it is accepted when it
loses less than an inaccuracy's worth of win chance against the engine's best move.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from doushouqi.server.api.analysis import (
    MAX_MOVES,
    AnalysisQuery,
    PositionQuery,
    _replay,
    analyse_query,
)
from doushouqi.server.api.deps import READ_LIMITED, Ctx, enforce_rate
from doushouqi.server.domain.model import Game
from doushouqi.server.games.registry import site_game
from doushouqi.server.infra.bounds import MAX_ID
from doushouqi.server.infra.errors import Problem
from doushouqi.server.review import grading
from doushouqi.server.review.service import GameReviews

router = APIRouter(prefix="/api", tags=["review"])

#: Scores beyond a den score are no scores (``red_cp`` of a den entry is below DEN_CP).
_SCORE_LIMIT = 2 * grading.DEN_CP


class ReviewQuery(BaseModel):
    # Any score past a den score reads as one (_SCORE_LIMIT); the bound only keeps giants out.
    scores: list[Annotated[int, Field(ge=-MAX_ID, le=MAX_ID)] | None] = Field(
        max_length=MAX_MOVES + 1, description="Red's view, per position"
    )
    turn: int = Field(default=0, ge=0, le=1, description="side to move at the start: 0 Red, 1 Blue")
    moves: list[str] | None = Field(default=None, max_length=MAX_MOVES)


def thresholds() -> dict[str, float]:
    return {
        "inaccuracy": grading.INACCURACY,
        "mistake": grading.MISTAKE,
        "blunder": grading.BLUNDER,
    }


@router.post("/review")
async def review(query: ReviewQuery) -> dict[str, Any]:
    """Each graded ply (win% lost, accuracy, grade) and each side's accuracy and counts."""
    scores = [None if s is None else max(-_SCORE_LIMIT, min(_SCORE_LIMIT, s)) for s in query.scores]
    graded, sides = grading.review(scores, query.turn, query.moves)
    return {
        "plies": [
            {
                "ply": g.ply,
                "mover": g.mover,
                "loss": round(g.loss, 1),
                "accuracy": round(g.accuracy, 1),
                "grade": g.grade,
            }
            for g in graded
        ],
        "players": [
            {
                "accuracy": None if s.accuracy is None else round(s.accuracy, 1),
                "moves": s.moves,
                "inaccuracies": s.inaccuracies,
                "mistakes": s.mistakes,
                "blunders": s.blunders,
            }
            for s in sides
        ],
        "thresholds": thresholds(),
    }


#: The judge's search budget: fixed nodes, so that a try gets the same verdict under any load.
JUDGE_NODES = 150_000


class CheckQuery(PositionQuery):
    move: str = Field(max_length=10, description="the move tried in the position")
    movetime: float = Field(
        default=0.3, ge=0.05, le=2.0, description="ignored: the judge searches a fixed budget"
    )


async def _red_score(query: AnalysisQuery, request: Request, ctx: Ctx) -> int | None:
    """Red's score of a position by the engine; a finished game's score is its result."""
    outcome = _replay(query).position.outcome()
    if outcome is not None:
        return 0 if outcome.winner is None else grading.DEN_CP * (1 if outcome.winner == 0 else -1)
    found = await analyse_query(query, request, ctx, JUDGE_NODES)
    score = found.get("red_cp")
    return score if isinstance(score, int) else None


@router.post("/review/check")
async def check_move(query: CheckQuery, request: Request, ctx: Ctx) -> dict[str, Any]:
    """Whether ``move`` is good enough in the position after ``moves``: its loss in win%
    against the engine's best is below the inaccuracy threshold. An illegal move is a 422
    (``position.move``), as in ``/api/position``."""
    after = AnalysisQuery(
        game=query.game,
        rules=query.rules,
        fen=query.fen,
        moves=[*query.moves, query.move],
        movetime=query.movetime,
    )
    replay = _replay(after)  # refuses an illegal move before any search
    mover = 1 - replay.position.turn
    before = after.model_copy(update={"moves": query.moves})
    best = await analyse_query(before, request, ctx, JUDGE_NODES)
    played = replay.played[-1]["move"] if replay.played else query.move
    sign = 1.0 if mover == 0 else -1.0
    if best.get("bestmove") in (None, played):
        loss = 0.0
    else:
        best_cp, after_cp = best.get("red_cp"), await _red_score(after, request, ctx)
        if best_cp is None or after_cp is None:
            loss = 0.0
        else:
            loss = max(
                0.0, grading.win_percent(sign * best_cp) - grading.win_percent(sign * after_cp)
            )
    return {
        "accepted": loss < grading.INACCURACY,
        "loss": round(loss, 1),
        "move": played,
        "best": {
            "move": best.get("bestmove"),
            "readable_en": best.get("readable_en"),
            "readable_zh": best.get("readable_zh"),
            "pv": best.get("pv", []),
        },
        "threshold": grading.INACCURACY,
    }


# ---------------------------------------------------------------------- stored reviews


class ReviewRequest(BaseModel):
    budget: Literal["standard", "deep"] = Field(
        default="standard", description="the search budget: standard, or deep (a re-analysis)"
    )


def _reviews(request: Request) -> GameReviews:
    reviews: GameReviews = request.app.state.reviews
    return reviews


async def _game(game_id: str, ctx: Ctx) -> Game:
    loaded = await ctx.registry.load(game_id)
    if loaded is None:
        raise Problem(404, "game.not_found", "no such game")
    return loaded[0]


@router.get("/games/{game_id}/review", dependencies=READ_LIMITED)
async def game_review(game_id: str, request: Request, ctx: Ctx) -> dict[str, Any]:
    """The game's stored review (the deepest finished one) and the progress of one asked for;
    the same for every viewer."""
    state = await _reviews(request).state(game_id)
    if state["review"] is None and state["pending"] is None:
        await _game(game_id, ctx)  # a 404 for no game; none asked for yet otherwise
    return state


@router.post("/games/{game_id}/review", status_code=202)
async def request_review(
    game_id: str, body: ReviewRequest, request: Request, ctx: Ctx
) -> dict[str, Any]:
    """Ask for the review of a finished game at a budget: started, or joined when it runs
    already (on any node), or answered at once when it is stored. A game not over is a 409
    (``review.unfinished``), one without a move a 409 (``review.no_moves``), a game without a
    computer player a 404 (``engine.none``)."""
    enforce_rate(ctx.analysis_limiter, request)
    game = await _game(game_id, ctx)
    if site_game(game.game_key).engine is None:
        key = game.game_key
        raise Problem(404, "engine.none", f"there is no computer player for {key}", game=key)
    if not game.status.is_over:
        raise Problem(409, "review.unfinished", "a game is reviewed once it is over")
    if not game.moves:
        raise Problem(409, "review.no_moves", "the game has no move to review")
    reviews = _reviews(request)
    return await reviews.request(game, reviews.budgets[body.budget])
