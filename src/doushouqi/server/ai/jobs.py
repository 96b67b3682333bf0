"""The AI's jobs on Redis: the streams, keys and messages that servers and workers share.

A job is one entry of the stream of its kind (``{prefix}:jobs:move``, ``…:hint``,
``…:analysis``, ``…:review``), read by the consumer group ``workers``; every worker is one
consumer. The other keys, all under the same prefix:

* ``cancel:{job}`` — the job must not be searched (its game moved on, its caller gave up, or
  it was answered already); set by the server, read by the worker before it searches;
* ``game:{game}`` — the latest version of a game a move was asked for: a queued move job for
  an older version is dropped;
* ``worker:{name}`` (with a TTL the worker refreshes) and the set ``workers`` — the live
  workers, for the effort policy and the servers' admission control;
* ``results:{node}`` — a list each server node pops its answers from (it expires when the
  node is gone);
* ``stats`` — counters of what the workers did (searched, dropped, retried, failed);
* ``epoch`` — a random token set by whoever writes first to a data set: a job submitted
  under another epoch than the current one was lost (Redis restarted without persistence,
  or was flushed) and is submitted again.

This module is plain data and parsing (no client, no engine): the server's
:mod:`~doushouqi.server.ai.redis_queue` and the workers' :mod:`~doushouqi.server.ai.worker` both
use it, one with ``redis.asyncio`` and one with the blocking client.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, cast

from doushouqi.server.ai.pool import AiRequest, JobKind

__all__ = [
    "GROUP",
    "KINDS",
    "PREFIX",
    "RESULT_TTL",
    "Job",
    "Keys",
    "Operation",
    "backlog_from",
    "decode_result",
    "encode_result",
]

#: Where every key of the AI lives (one Redis may serve several deployments, each its own).
PREFIX = "dsq:ai"
#: The consumer group every worker reads with.
GROUP = "workers"
#: The kinds of job, most urgent first: workers read the streams in this order.
KINDS: tuple[JobKind, ...] = ("move", "hint", "analysis", "review")
#: Seconds a server node's result list outlives its last answer (a dead node's leftovers).
RESULT_TTL = 60
#: What the worker computes for a job: a move to play, or an analysis (score, pv).
Operation = Literal["move", "analyse"]


@dataclass(frozen=True)
class Keys:
    """The Redis key names under one prefix."""

    prefix: str = PREFIX

    def stream(self, kind: JobKind) -> str:
        return f"{self.prefix}:jobs:{kind}"

    def cancel(self, job_id: str) -> str:
        return f"{self.prefix}:cancel:{job_id}"

    def game(self, game_id: str) -> str:
        return f"{self.prefix}:game:{game_id}"

    def worker(self, name: str) -> str:
        return f"{self.prefix}:worker:{name}"

    @property
    def workers(self) -> str:
        return f"{self.prefix}:workers"

    def results(self, node: str) -> str:
        return f"{self.prefix}:results:{node}"

    @property
    def stats(self) -> str:
        return f"{self.prefix}:stats"

    @property
    def epoch(self) -> str:
        return f"{self.prefix}:epoch"

    @property
    def streams(self) -> list[str]:
        return [self.stream(kind) for kind in KINDS]


@dataclass(frozen=True)
class Job:
    """One search job as a stream entry carries it."""

    id: str
    op: Operation
    request: AiRequest
    #: The result list of the server node waiting for the answer.
    reply: str
    #: Epoch seconds after which nobody waits for the answer any more (the server gave up).
    expires: float

    @property
    def kind(self) -> JobKind:
        return self.request.kind

    def fields(self) -> dict[str, str]:
        request = dataclasses.asdict(self.request)
        return {
            "id": self.id,
            "op": self.op,
            "reply": self.reply,
            "expires": repr(self.expires),
            "request": json.dumps(request, separators=(",", ":")),
        }

    @classmethod
    def from_fields(cls, fields: Mapping[str, str]) -> Job:
        """The job of a stream entry (ValueError/KeyError/TypeError for a malformed one)."""
        data = json.loads(fields["request"])
        if not isinstance(data, dict):
            raise ValueError("the job's request is not an object")
        data["moves"] = tuple(data.get("moves", ()))
        request = AiRequest(**data)
        if request.kind not in KINDS:
            raise ValueError(f"unknown job kind {request.kind!r}")
        op = fields["op"]
        if op not in ("move", "analyse"):
            raise ValueError(f"unknown operation {op!r}")
        expires = float(fields["expires"])
        if not math.isfinite(expires):
            raise ValueError("the job's expiry is not a number")
        return cls(fields["id"], cast(Operation, op), request, fields["reply"], expires)


def encode_result(
    job_id: str, worker: str, value: Mapping[str, Any] | None = None, error: str | None = None
) -> str:
    """A worker's answer: the result (an :class:`~.pool.AiMove`'s fields or an analysis),
    or an error."""
    message: dict[str, Any] = {"id": job_id, "worker": worker}
    if error is not None:
        message["error"] = error
    else:
        message["result"] = dict(value or {})
    return json.dumps(message, separators=(",", ":"))


def decode_result(text: str | bytes) -> dict[str, Any]:
    message = json.loads(text)
    if not isinstance(message, dict) or not isinstance(message.get("id"), str):
        raise ValueError("not a result message")
    return message


def backlog_from(groups: Any, length: Any) -> int:
    """Jobs of one stream that no worker has taken yet, from its ``XINFO GROUPS`` and ``XLEN``
    (either may be an exception: no stream yet). The group's ``lag`` is exact while no entry
    after the last one delivered was deleted (workers delete only what they were given);
    otherwise the stream's length less the entries being searched (answered ones are
    deleted)."""
    if isinstance(groups, BaseException) or not isinstance(groups, Sequence):
        return 0
    for group in groups:
        if isinstance(group, Mapping) and group.get("name") == GROUP:
            lag = group.get("lag")
            if isinstance(lag, int):
                return max(0, lag)
            if isinstance(length, int):
                return max(0, length - int(group.get("pending") or 0))
            return 0
    # No group yet (no worker ever started): everything in the stream waits.
    return length if isinstance(length, int) else 0
