"""The moderation log (``mod_log``): written in the same transaction as the action it records,
read newest first by the moderation page."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from doushouqi.server.moderation.models import ModLogRow

__all__ = ["COMMAND_LINE", "Entry", "entries", "record"]

#: The name the log gives the ``doushouqi admin`` command line (an operator on the machine).
COMMAND_LINE = "(command line)"
#: Longest reason kept (the API refuses longer ones before this).
MAX_REASON = 500


@dataclass(frozen=True)
class Entry:
    """One action to log."""

    action: str
    target_key: str
    target_name: str
    reason: str = ""
    details: dict[str, Any] | None = None


def record(
    session: Session, entry: Entry, *, moderator_id: int | None, moderator: str, now: float
) -> None:
    session.add(
        ModLogRow(
            at=now,
            moderator_id=moderator_id,
            moderator=moderator[:32],
            action=entry.action,
            target_key=entry.target_key[:80],
            target_name=entry.target_name[:40],
            reason=entry.reason[:MAX_REASON],
            details=json.dumps(entry.details or {}, ensure_ascii=False),
        )
    )


def _entry_dict(row: ModLogRow) -> dict[str, Any]:
    return {
        "id": row.id,
        "at": row.at,
        "moderator": row.moderator,
        "action": row.action,
        "target": {"key": row.target_key, "name": row.target_name},
        "reason": row.reason,
        "details": json.loads(row.details),
    }


def entries(session: Session, limit: int, before: int | None = None) -> list[dict[str, Any]]:
    """The newest ``limit`` entries (with ``before``: those older than that entry's id)."""
    query = select(ModLogRow).order_by(ModLogRow.id.desc()).limit(limit)
    if before is not None:
        query = query.where(ModLogRow.id < before)
    return [_entry_dict(row) for row in session.scalars(query)]
