"""The ranks page's data: titles by score, how scores move, and the rating (docs/server.md,
Ranks)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query

from doushouqi.server.accounts.ranks import progress, ranks_page

router = APIRouter(prefix="/api", tags=["players"])


@router.get("/ranks")
async def ranks(
    score: int | None = Query(default=None, ge=-(10**9), le=10**9),
) -> dict[str, Any]:
    """Every rank title (级别) with its band of ladder scores, the points a game moves, and
    where a Glicko-2 rating starts; with ``score``, that score's title and the way to the next."""
    page = ranks_page()
    if score is not None:
        page["you"] = progress(score)
    return page
