"""Who among a game's watchers is told something: everyone, or some identities only.

A game's broadcast goes to every socket watching it, on every node. A chat message must reach
one room only (the two players, or everyone but them), so a broadcast may carry an
:class:`Audience`: each subscriber is let through by its identity. It travels between nodes as
plain data, so a node holding sockets to a game owned elsewhere filters them the same way.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from doushouqi.server.domain import Actor, identity_from_dict

__all__ = ["Audience"]


@dataclass(frozen=True)
class Audience:
    """``identities`` only (``include``), or everyone but them (not ``include``)."""

    identities: frozenset[Actor]
    include: bool

    @classmethod
    def only(cls, identities: Iterable[Actor]) -> Audience:
        return cls(frozenset(identities), True)

    @classmethod
    def excluding(cls, identities: Iterable[Actor]) -> Audience:
        return cls(frozenset(identities), False)

    def admits(self, identity: Actor | None) -> bool:
        listed = identity is not None and identity in self.identities
        return listed if self.include else not listed

    def to_dict(self) -> dict[str, Any]:
        ids = sorted(json.dumps(i.to_dict(), sort_keys=True) for i in self.identities)
        return {"ids": ids, "include": self.include}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Audience:
        ids = (identity_from_dict(json.loads(text)) for text in data["ids"])
        return cls(frozenset(ids), bool(data["include"]))
