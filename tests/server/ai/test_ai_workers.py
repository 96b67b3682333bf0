"""The AI as a distributed service: real ``doushouqi worker`` processes take the search jobs
from a real Redis (Streams, consumer group), by priority and with deadlines; a killed worker's
job is searched by another, cancelled and outdated jobs are not searched, a Redis restart
loses nothing, a worker without Redis for too long exits, and overload costs depth, never a
random move."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
import redis
from tests.support.helpers import board_for
from tests.support.live import (
    DEN_GAME,
    GameSocket,
    first_ai_replies,
    make_settings,
    metric,
    move,
    running,
)
from tests.support.redis_server import RedisServer, redis_server, redis_server_path

from doushouqi.jungle.board import Board
from doushouqi.server.ai.effort import MIN_MOVETIME
from doushouqi.server.ai.jobs import GROUP, KINDS, Keys, backlog_from
from doushouqi.server.ai.pool import AiRequest, JobKind, analyse_position
from doushouqi.server.ai.redis_queue import RedisAi

pytestmark = pytest.mark.skipif(redis_server_path() is None, reason="redis-server is missing")

WANGO = Board().rules.to_mapping()
KEYS = Keys()
#: Seconds a worker process may take to start (numba's cache, on a loaded machine).
START_TIMEOUT = 90.0


def request(
    moves: tuple[str, ...] = (),
    movetime: float = 0.2,
    kind: JobKind = "move",
    **extra: Any,
) -> AiRequest:
    return AiRequest(
        rules=WANGO, start_fen=None, moves=moves, level=10, movetime=movetime, kind=kind, **extra
    )


# ---------------------------------------------------------------------- waiting for things


def wait_until(condition: Callable[[], object], what: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.01)


async def until(condition: Callable[[], object], what: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)


# ---------------------------------------------------------------------- looking into Redis


def client(url: str) -> redis.Redis:
    return redis.Redis.from_url(url, decode_responses=True, socket_timeout=5)


def waiting(r: redis.Redis, kind: JobKind) -> int:
    """Jobs of ``kind`` no worker has taken yet."""
    stream = KEYS.stream(kind)
    try:
        groups: Any = r.xinfo_groups(stream)
    except redis.ResponseError:
        return 0
    return backlog_from(groups, r.xlen(stream))


def holders(r: redis.Redis, kind: JobKind) -> list[str]:
    """The workers holding jobs of ``kind`` (taken, not answered)."""
    try:
        pending: Any = r.xpending_range(KEYS.stream(kind), GROUP, "-", "+", 100)
    except redis.ResponseError:
        return []
    return [str(p["consumer"]) for p in pending]


def searching(r: redis.Redis, kind: JobKind) -> dict[str, int]:
    """The workers searching a job of ``kind`` now: name -> pid (from their ``worker:`` key,
    which a worker rewrites as it starts a search)."""
    found = {}
    for name in live_workers(r):
        info = json.loads(r.get(KEYS.worker(name)) or "{}")
        if (info.get("searching") or {}).get("kind") == kind:
            found[name] = int(info["pid"])
    return found


def idle(r: redis.Redis) -> bool:
    return all(waiting(r, kind) == 0 and not holders(r, kind) for kind in KINDS)


def live_workers(r: redis.Redis) -> list[str]:
    names = sorted(str(n) for n in r.smembers(KEYS.workers))
    infos = r.mget([KEYS.worker(n) for n in names]) if names else []
    return [name for name, info in zip(names, infos, strict=True) if info is not None]


def stats(r: redis.Redis) -> dict[str, int]:
    return {k: int(v) for k, v in r.hgetall(KEYS.stats).items()}


def delta(before: dict[str, int], after: dict[str, int]) -> dict[str, int]:
    return {
        k: after.get(k, 0) - before.get(k, 0) for k in after if after.get(k, 0) != before.get(k, 0)
    }


@contextlib.asynccontextmanager
async def redis_ai(url: str, **options: Any) -> AsyncIterator[RedisAi]:
    ai = RedisAi(url, **options)
    try:
        yield ai
    finally:
        await ai.aclose()


# ---------------------------------------------------------------------- worker processes


class Workers:
    """One ``doushouqi worker`` command (a supervisor and its engine processes)."""

    def __init__(
        self,
        url: str,
        log_path: Path,
        processes: int = 1,
        lease: float = 1.0,
        redis_timeout: float = 60.0,
    ) -> None:
        self.url = url
        self.log_path = log_path
        self.processes = processes
        command = [
            sys.executable,
            "-m",
            "doushouqi",
            "worker",
            "--redis",
            url,
            "--processes",
            str(processes),
            "--lease",
            str(lease),
            "--redis-timeout",
            str(redis_timeout),
        ]
        with log_path.open("wb") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        self.started = time.monotonic()

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def wait_ready(self, timeout: float = START_TIMEOUT) -> None:
        def ready() -> bool:
            if self.process.poll() is not None:
                raise AssertionError(f"the worker exited: {self.log()}")
            try:
                return len(live_workers(r)) >= self.processes
            except redis.ConnectionError:
                return False

        with client(self.url) as r:
            wait_until(ready, f"{self.processes} worker(s) to start", timeout)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)


@pytest.fixture(scope="module")
def shared_redis() -> Iterator[RedisServer]:
    with redis_server() as server:
        yield server


@pytest.fixture(scope="module")
def worker(
    shared_redis: RedisServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Workers]:
    """One worker process for the tests that share the module's Redis."""
    workers = Workers(shared_redis.url, tmp_path_factory.mktemp("worker") / "worker.log")
    try:
        workers.wait_ready()
        yield workers
    finally:
        workers.stop()


@pytest.fixture
def r(shared_redis: RedisServer, worker: Workers) -> Iterator[redis.Redis]:
    """A client of the shared Redis, once the shared worker is idle and registered."""
    with client(shared_redis.url) as r:
        wait_until(lambda: idle(r) and live_workers(r), "the worker to be idle")
        yield r


# ---------------------------------------------------------------------- a game's helpers


def play(ws: GameSocket, board: Board, text: str | None = None, timeout: float = 30) -> str:
    """Play a legal move (the first by name unless ``text``) and return the AI's reply,
    keeping ``board`` in step."""
    text = text or str(sorted(board.legal_moves, key=str)[0])
    ws.send({"type": "move", "move": text})
    ws.wait_for("move_made", lambda m: m["move"] == text)
    board.push_move(text)
    reply = ws.wait_for("move_made", lambda m: m["color"] == 1, timeout=timeout)
    board.push_move(reply["move"], allow_pass=True)
    return str(reply["move"])


# ---------------------------------------------------------------------- the tests


def test_a_game_against_the_computer_is_played_by_a_worker(
    tmp_path: Path, shared_redis: RedisServer, worker: Workers, r: redis.Redis
) -> None:
    """A live server whose AI is :class:`RedisAi` and one real worker process: the AI's moves
    are the worker's searches, hints and analyses go to their own streams, and the server
    counts the worker for admission control."""
    before = stats(r)
    ai = RedisAi(shared_redis.url, margin=5.0, games_per_worker=7)
    with running(make_settings(tmp_path, ai_movetime=0.3), ai=ai) as server:
        human = server.player().guest()
        game = human.create(mode="vs_ai", ai_level=6, color="red")
        board = Board()
        with human.socket(game["id"]) as ws:
            ws.wait_for("game_started")
            replies = [play(ws, board) for _ in range(3)]
        for purpose in ("hint", "analysis"):
            body = {"moves": [str(m) for m in board.move_stack], "movetime": 0.1, "multipv": 2}
            found = human.post("/api/analysis", json={**body, "purpose": purpose})
            assert found.status_code == 200, found.text
            assert board.parse_move(found.json()["bestmove"])
            assert len({line["move"] for line in found.json()["lines"]}) == 2  # via the worker
        wait_until(lambda: ai.capacity() == 7, "the worker to be counted")
        assert metric(server, "doushouqi_ai_random_fallbacks_total") == 0
        assert metric(server, "doushouqi_ai_queue") == 0
    served = list(ai.recent)
    assert [s.kind for s in served] == ["move", "move", "move", "hint", "analysis"]
    assert all(s.ok for s in served)
    assert all(s.nodes > 0 for s in served[:3]) and all(s.depth > 0 for s in served[3:])
    assert {s.worker for s in served} == set(live_workers(r))
    assert all(len(move) == 4 for move in replies)
    assert delta(before, stats(r)) == {"searched": 5}


def test_a_games_move_is_served_before_queued_hints_and_analyses(
    shared_redis: RedisServer, r: redis.Redis
) -> None:
    """With the only worker busy, three analyses and a hint queue; a game's move asked after
    them is searched first, then the hint, then the analyses in their order."""
    finished: list[str] = []

    async def scenario() -> None:
        async with redis_ai(shared_redis.url, margin=10.0) as ai:

            async def track(label: str, job: Any) -> None:
                await job
                finished.append(label)

            busy = asyncio.create_task(
                track("busy", ai.analyse(request(movetime=2.0, kind="analysis")))
            )
            await until(lambda: searching(r, "analysis"), "the worker to search the first analysis")
            jobs = [busy]
            for i in range(3):  # one after the other: the order they are queued in
                job = ai.analyse(request(("a3a4",), kind="analysis"))
                jobs.append(asyncio.create_task(track(f"analysis {i}", job)))
                await until(lambda: waiting(r, "analysis") == i + 1, "the analysis to queue")  # noqa: B023
            jobs.append(asyncio.create_task(track("hint", ai.analyse(request(kind="hint")))))
            await until(lambda: waiting(r, "hint") == 1, "the hint to queue")
            jobs.append(asyncio.create_task(track("move", ai.choose_move(request(("a3a4",))))))
            await until(lambda: waiting(r, "move") == 1, "the move to queue")
            assert searching(r, "analysis") and not finished  # all of it while the worker is busy
            await asyncio.wait_for(asyncio.gather(*jobs), 60)

    asyncio.run(scenario())
    assert finished == ["busy", "move", "hint", "analysis 0", "analysis 1", "analysis 2"]


def test_a_review_job_waits_for_every_other_kind_and_answers_as_in_process(
    tmp_path: Path, shared_redis: RedisServer, r: redis.Redis
) -> None:
    """A game review's position (kind ``review``, a node budget) queued before an analysis is
    searched after it; its answer is exactly what the same budget gives in this process (a
    fixed budget and a fresh engine: the worker, its load and its past play no part). Then a
    server whose analyses go to the workers reviews a finished game through them."""
    budget = {"nodes": 30_000}
    finished: list[str] = []
    answers: dict[str, Any] = {}

    async def scenario() -> None:
        async with redis_ai(shared_redis.url, margin=10.0) as ai:

            async def track(label: str, job: Any) -> None:
                answers[label] = await job
                finished.append(label)

            busy = asyncio.create_task(
                track("busy", ai.analyse(request(movetime=1.5, kind="analysis")))
            )
            await until(lambda: searching(r, "analysis"), "the worker to search the analysis")
            review = request(tuple(DEN_GAME[:2]), kind="review", budget=budget)
            jobs = [busy, asyncio.create_task(track("review", ai.analyse(review)))]
            await until(lambda: waiting(r, "review") == 1, "the review's position to queue")
            analysis = ai.analyse(request(("a3a4",), kind="analysis"))
            jobs.append(asyncio.create_task(track("analysis", analysis)))
            await until(lambda: waiting(r, "analysis") == 1, "the analysis to queue")
            await asyncio.wait_for(asyncio.gather(*jobs), 60)

    asyncio.run(scenario())
    assert finished == ["busy", "analysis", "review"]
    here = analyse_position(request(tuple(DEN_GAME[:2]), kind="review", budget=budget))
    assert json.dumps(answers["review"], sort_keys=True) == json.dumps(here, sort_keys=True)

    settings = make_settings(tmp_path, review_nodes=budget["nodes"])
    with running(settings, ai=RedisAi(shared_redis.url, margin=10.0)) as server:
        client = server.player().guest()
        game = client.create(mode="same_screen")
        with client.socket(game["id"]) as ws:
            ws.wait_for("game_started")
            for text in DEN_GAME:
                move(ws, text)
            ws.wait_for("game_finished")
        url = f"/api/games/{game['id']}/review"
        assert client.post(url, json={}).status_code == 202
        wait_until(lambda: client.get(url).json()["review"], "the review", timeout=120)
        review = client.get(url).json()["review"]
    assert review["done"] == len(DEN_GAME) + 1 and review["players"][0]["moves"] == 17
    second = review["positions"][2]
    assert second["bestmove"] == here["bestmove"] and second["score"] == here["score"]


def test_cancelled_and_outdated_jobs_are_not_searched(
    shared_redis: RedisServer, worker: Workers, r: redis.Redis
) -> None:
    """While the worker is busy: a move whose waiter is cancelled (its game moved on), and a
    move for an older version of a game than one asked for since. Neither is searched."""
    before = stats(r)

    async def scenario() -> None:
        async with redis_ai(shared_redis.url, margin=10.0) as ai:
            busy = asyncio.create_task(ai.analyse(request(movetime=2.0, kind="analysis")))
            await until(lambda: searching(r, "analysis"), "the worker to search the analysis")
            cancelled = asyncio.create_task(ai.choose_move(request(game_id="g1", version=4)))
            outdated = asyncio.create_task(ai.choose_move(request(game_id="g2", version=6)))
            await until(lambda: waiting(r, "move") == 2, "the moves to queue")
            cancelled.cancel()
            await until(
                lambda: list(r.scan_iter(KEYS.cancel("*"))), "the job to be marked cancelled"
            )
            latest = ai.choose_move(request(("a3a4", "a7a6"), game_id="g2", version=8))
            found = await asyncio.wait_for(latest, 30)
            assert board_for(request(("a3a4", "a7a6"))).parse_move(found.move)
            await busy
            assert not outdated.done()  # nobody answers it: its game's actor has cancelled it
            outdated.cancel()

    asyncio.run(scenario())
    assert delta(before, stats(r)) == {
        "searched": 2,
        "dropped_cancelled": 1,
        "dropped_superseded": 1,
    }
    log = worker.log()
    assert re.search(r"dropped move job \w+: cancelled", log)
    assert re.search(r"dropped move job \w+: game g2 moved on", log)


def test_a_killed_workers_search_is_done_by_another(tmp_path: Path) -> None:
    """Two workers; the one searching a long move is killed with SIGKILL: once its lease has
    lapsed the other takes the job over and answers with a real search."""
    with redis_server() as server, ExitStack() as stack:
        workers = Workers(server.url, tmp_path / "workers.log", processes=2, lease=1.0)
        try:
            workers.wait_ready()
            r = stack.enter_context(client(server.url))
            killed: list[str] = []

            async def scenario() -> Any:
                async with redis_ai(server.url, margin=10.0) as ai:
                    job = asyncio.create_task(ai.choose_move(request(("a3a4",), movetime=2.0)))
                    await until(lambda: searching(r, "move"), "a worker to search the move")
                    [(holder, pid)] = searching(r, "move").items()
                    assert holders(r, "move") == [holder]
                    os.kill(pid, signal.SIGKILL)
                    killed.append(holder)
                    found = await asyncio.wait_for(job, 30)
                return found, list(ai.recent)

            found, served = asyncio.run(scenario())
            assert [s.worker for s in served] != killed and len(served) == 1
            assert served[0].ok and found.nodes > 0 and found.movetime >= MIN_MOVETIME
            assert board_for(request(("a3a4",))).parse_move(found.move)
            assert stats(r) == {"searched": 1, "retried": 1}
            assert "took over move job" in workers.log()
            # The supervisor replaced the killed process.
            wait_until(lambda: "starting another" in workers.log(), "a new worker process")
        finally:
            workers.stop()


def test_a_redis_restart_mid_game_loses_nothing(
    tmp_path: Path, shared_redis: RedisServer, worker: Workers, r: redis.Redis
) -> None:
    """Redis (without persistence) is killed and started again while the worker searches the
    AI's move: the answer still arrives, the game goes on, nothing is played at random."""
    ai = RedisAi(shared_redis.url, margin=10.0)
    with running(make_settings(tmp_path, ai_movetime=1.0), ai=ai) as server:
        human = server.player().guest()
        game = human.create(mode="vs_ai", ai_level=10, color="red")
        board = Board()
        with human.socket(game["id"]) as ws:
            ws.wait_for("game_started")
            play(ws, board)
            text = str(sorted(board.legal_moves, key=str)[0])
            ws.send({"type": "move", "move": text})
            ws.wait_for("move_made", lambda m: m["move"] == text)
            board.push_move(text)
            wait_until(lambda: searching(r, "move"), "the worker to search the AI's move")
            shared_redis.restart()
            reply = ws.wait_for("move_made", lambda m: m["color"] == 1, timeout=30)
            board.push_move(reply["move"])
            play(ws, board)  # and the game goes on
        assert metric(server, "doushouqi_ai_random_fallbacks_total") == 0
        assert metric(server, "doushouqi_moves_total") == 6
    assert [s.kind for s in ai.recent] == ["move"] * 3 and all(s.nodes for s in ai.recent)
    # The worker answered into the restarted Redis (whose counters began anew), and goes on.
    assert stats(r)["searched"] >= 2
    wait_until(lambda: live_workers(r), "the worker to register again")


def test_jobs_queued_when_redis_restarts_are_submitted_again(
    shared_redis: RedisServer, r: redis.Redis
) -> None:
    """A move waits in the stream behind a long analysis when Redis restarts and forgets it:
    the server submits it again, and it is served once the worker is free."""

    async def scenario() -> tuple[Any, Any]:
        async with redis_ai(shared_redis.url, margin=10.0) as ai:
            busy = asyncio.create_task(ai.analyse(request(movetime=1.5, kind="analysis")))
            await until(lambda: searching(r, "analysis"), "the worker to search the analysis")
            queued = asyncio.create_task(ai.choose_move(request(("a3a4",))))
            await until(lambda: waiting(r, "move") == 1, "the move to queue")
            await asyncio.to_thread(shared_redis.restart)
            assert waiting(r, "move") == 0  # gone with the old Redis
            found = await asyncio.wait_for(queued, 30)
            analysis = await asyncio.wait_for(busy, 30)
        return found, analysis

    found, analysis = asyncio.run(scenario())
    assert board_for(request(("a3a4",))).parse_move(found.move) and found.nodes > 0
    assert Board().parse_move(analysis["bestmove"])
    assert stats(r)["searched"] == 2  # both answered into the new Redis


def test_a_worker_exits_when_redis_stays_away(tmp_path: Path) -> None:
    """A short outage is survived (the worker reconnects and serves again); one longer than
    ``--redis-timeout`` ends the worker with status 3 and says why."""
    with redis_server() as server:
        workers = Workers(server.url, tmp_path / "worker.log", redis_timeout=2.0)
        try:
            workers.wait_ready()
            server.kill()
            wait_until(lambda: "lost Redis" in workers.log(), "the worker to notice")
            server.start()

            async def ask() -> Any:
                async with redis_ai(server.url, margin=10.0) as ai:
                    found = await asyncio.wait_for(ai.choose_move(request()), 30)
                return found

            assert Board().parse_move(asyncio.run(ask()).move)
            assert "Redis is back" in workers.log()
            server.kill()
            gone = time.monotonic()
            status = workers.process.wait(30)
            waited = time.monotonic() - gone
        finally:
            workers.stop()
    assert status == 3
    assert 2.0 <= waited < 15.0, waited
    assert f"lost Redis at {server.url} for 2 s (--redis-timeout); exiting" in workers.log()


def test_a_saturated_worker_thinks_less_and_never_plays_at_random(
    tmp_path: Path, shared_redis: RedisServer, r: redis.Redis
) -> None:
    """Eight games against level 10 (a second a move) on one worker: every move is a real
    search, most of them shorter than asked (the games are told), none random."""
    ai = RedisAi(shared_redis.url, margin=10.0)
    with running(make_settings(tmp_path, ai_movetime=1.0), ai=ai) as server:
        replies, busy = first_ai_replies(server, 8)
        for reply in replies:
            assert board_for(request(("a3a4",))).parse_move(reply["move"])
        assert busy >= 5
        assert metric(server, "doushouqi_ai_random_fallbacks_total") == 0
        assert metric(server, "doushouqi_ai_effort_reductions_total") == busy
    served = [s for s in ai.recent if s.kind == "move"]
    assert len(served) == 8 and all(s.ok and s.nodes > 0 for s in served)


def test_the_workers_seats_are_counted_across_every_node(
    tmp_path: Path, shared_redis: RedisServer, worker: Workers, r: redis.Redis, database: str
) -> None:
    """Two nodes share the worker (2 seats against the computer): once one node has two
    games against it, the other node refuses a third too."""
    settings = {"database_url": database, "redis_url": shared_redis.url, "lease_seconds": 1.5}
    with ExitStack() as stack:
        a, b = (
            stack.enter_context(
                running(
                    make_settings(tmp_path / name, node_name=name, **settings),
                    ai=RedisAi(shared_redis.url, games_per_worker=2),
                )
            )
            for name in ("a", "b")
        )
        for server in (a, b):
            ai = server.app.state.ctx.ai
            wait_until(lambda ai=ai: ai.capacity() == 2, "the worker to be counted")
        human = a.player().guest()
        for _ in range(2):
            human.create(mode="vs_ai", ai_level=1, color="blue")
        elsewhere = b.app.state.ctx.registry.services.cluster
        wait_until(lambda: elsewhere.ai_games_elsewhere == 2, "node b to hear of a's games")
        for server in (a, b):
            refused = server.player().guest().post("/api/games", json={"mode": "vs_ai"})
            assert refused.status_code == 503, refused.text
            assert "the computer is busy" in refused.json()["detail"]


def test_the_worker_module_needs_neither_web_framework_nor_database() -> None:
    code = (
        "import sys, doushouqi.server.ai.worker; "
        "print(sorted(m for m in ('fastapi', 'starlette', 'sqlalchemy') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_worker_command_names_the_missing_extra(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from doushouqi.cli.main import main

    command = ["worker", "--redis", "redis://127.0.0.1:1/0"]
    monkeypatch.setitem(sys.modules, "redis", None)
    assert main(command) == 2
    assert "redis-py: pip install 'doushouqi[worker]'" in capsys.readouterr().err
    monkeypatch.setitem(sys.modules, "numba", None)
    assert main(command) == 2
    err = capsys.readouterr().err
    assert "the `ai` extra (or `worker`): pip install 'doushouqi[worker]'" in err


def test_a_node_that_wrote_first_to_the_lost_redis_still_resends_its_jobs() -> None:
    """The node alone made the lost data set (its epoch token was the first written) and is
    the first to write to the restarted one: its waiting job still goes on the new stream."""
    with redis_server() as server, client(server.url) as fresh:

        async def scenario() -> None:
            async with redis_ai(server.url, margin=30.0) as ai:
                queued = asyncio.create_task(ai.choose_move(request(movetime=5.0)))
                await until(lambda: fresh.xlen(KEYS.stream("move")) == 1, "the move to queue")
                await asyncio.to_thread(server.restart)
                await until(lambda: fresh.xlen(KEYS.stream("move")) == 1, "the move again")
                queued.cancel()

        asyncio.run(scenario())
