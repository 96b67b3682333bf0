"""The AI's answers reach their waiting jobs in the order the workers gave them: a node whose
reader falls behind (a busy event loop) finds several answers on its result list at once."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator

import pytest
import redis
from tests.support.redis_server import RedisServer, redis_server, redis_server_path

from doushouqi.jungle.board import Board
from doushouqi.server.ai.jobs import Keys, encode_result
from doushouqi.server.ai.pool import AiRequest
from doushouqi.server.ai.redis_queue import RedisAi

pytestmark = pytest.mark.skipif(redis_server_path() is None, reason="redis-server not installed")

WANGO = Board().rules.to_mapping()


@pytest.fixture
def server() -> Iterator[RedisServer]:
    with redis_server() as running:
        yield running


def test_answers_given_together_are_delivered_oldest_first(server: RedisServer) -> None:
    # Two analyses wait on the stream (no worker); answered together, as by a worker in one
    # transaction each after the other, the first answered must reach its job first.
    delivered: list[str] = []
    answered: list[str] = []

    async def scenario() -> None:
        ai = RedisAi(server.url)
        try:
            jobs = []
            for label, moves in (("first", ()), ("second", ("a3a4",))):
                request = AiRequest(rules=WANGO, start_fen=None, moves=moves, level=10,
                                    movetime=0.2, kind="analysis")  # fmt: skip
                job = asyncio.create_task(ai.analyse(request))
                job.add_done_callback(lambda _, label=label: delivered.append(label))
                jobs.append(job)
            r = redis.Redis.from_url(server.url, decode_responses=True)
            stream = Keys().stream("analysis")
            entries: list = []
            while len(entries) < 2:  # both on the stream
                await asyncio.sleep(0.01)
                entries = r.xrange(stream)
            with r.pipeline(transaction=True) as pipe:
                for _, fields in entries:
                    answer = encode_result(fields["id"], "test", {"score": 1})
                    pipe.lpush(fields["reply"], answer)  # as the workers answer
                pipe.execute()
            await asyncio.wait_for(asyncio.gather(*jobs), 10)
            # Answered in the stream's order (which job reached Redis first is the tasks' race).
            labels = {(): "first", ("a3a4",): "second"}
            answered.extend(labels[tuple(json.loads(f["request"])["moves"])] for _, f in entries)
        finally:
            await ai.aclose()

    asyncio.run(scenario())
    assert len(delivered) == 2 and delivered == answered
