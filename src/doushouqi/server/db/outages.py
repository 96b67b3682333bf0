"""The site's recorded outages (``site_outages``): written when an outage is over, read by
whatever measures a wait in site time (``domain/site_time.py``). Plain functions of a session,
as in ``repo.py``."""

from __future__ import annotations

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from doushouqi.server.db.models import SiteOutageRow
from doushouqi.server.domain.site_time import Outage

__all__ = ["DOWN", "REDIS", "forget", "record", "since"]

#: Causes: the whole site was down; one node could not reach Redis.
DOWN, REDIS = "down", "redis"


def record(session: Session, outage: Outage, cause: str, node: str | None = None) -> None:
    """Store an outage that is over (one not over, or empty, is not stored)."""
    if outage.end is None or not outage.end > outage.start:
        return
    session.add(
        SiteOutageRow(
            started_at=float(outage.start), ended_at=float(outage.end), cause=cause, node=node
        )
    )


def since(session: Session, after: float) -> list[Outage]:
    """The recorded outages that ended after ``after``, oldest first."""
    rows = session.execute(
        select(SiteOutageRow.started_at, SiteOutageRow.ended_at)
        .where(SiteOutageRow.ended_at > after)
        .order_by(SiteOutageRow.started_at)
    )
    return [Outage(start, end) for start, end in rows]


def forget(session: Session, before: float) -> None:
    """Drop outages that ended before ``before`` (no wait still running began so long ago)."""
    session.execute(delete(SiteOutageRow).where(SiteOutageRow.ended_at < before))
