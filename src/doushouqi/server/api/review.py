"""Game review: grades and accuracy from a replay's scores, and the judge of "learn from your
mistakes" (the arithmetic: server/grading.py; docs/server.md, "Game review").

``POST /api/review`` grades the moves of a replay from the scores the client got from
``/api/analysis``, so that the client shows the server's numbers and never its own.
``POST /api/review/check`` judges a move tried instead of a mistake: it is accepted when it
loses less than an inaccuracy's worth of win chance against the engine's best move.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from doushouqi.server.api.analysis import MAX_MOVES, AnalysisQuery, PositionQuery, _replay, analysis
from doushouqi.server.api.deps import Ctx
from doushouqi.server.infra.bounds import MAX_ID
from doushouqi.server.review import grading

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


class CheckQuery(PositionQuery):
    move: str = Field(max_length=10, description="the move tried in the position")
    movetime: float = Field(default=0.3, ge=0.05, le=2.0)


async def _red_score(query: AnalysisQuery, request: Request, ctx: Ctx) -> int | None:
    """Red's score of a position by the engine; a finished game's score is its result."""
    outcome = _replay(query).position.outcome()
    if outcome is not None:
        return 0 if outcome.winner is None else grading.DEN_CP * (1 if outcome.winner == 0 else -1)
    found = await analysis(query, request, ctx)
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
    best = await analysis(before, request, ctx)
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
