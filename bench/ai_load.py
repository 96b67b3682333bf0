"""Games against level 10 through a server's front (part 2 of ``cluster_load.py``, and the
load of ``ai_capacity.py``): guests who play the computer, timing its replies, counting its
``ai_busy`` notices and reading the AI's figures from every node's ``/metrics``."""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import statistics
import time
from collections import Counter
from typing import Any

import websockets

from cluster_figures import Target, Window, delta, histogram, ms
from cluster_harness import post
from cluster_seats import BenchSeat, close_sockets
from server_load import Bench

AI_LEVEL = 10


class Human(BenchSeat):
    """A guest playing the computer: server_load's seat, timing the AI's replies."""

    def __init__(self, bench: AiLoad, cookie: str) -> None:
        super().__init__(bench, cookie)
        self.ai = bench
        self.moved_at: float | None = None

    def on_move(self, message: dict[str, Any]) -> None:
        now = time.perf_counter()
        if message["color"] == self.color:
            if message["move"] == self.sent_move:
                self.moved_at = now
        elif self.moved_at is not None:
            self.ai.answered.add(self)
            if self.stats.measuring:
                self.ai.replies.append(now - self.moved_at)
            self.moved_at = None
        super().on_move(message)


class AiLoad(Bench):
    """Part 2: games against level 10 through the front."""

    def __init__(self, args: argparse.Namespace, target: Target, games: int) -> None:
        super().__init__(args, target.front, None)
        self.target = target
        self.games = games
        self.replies: list[float] = []
        self.busy: list[tuple[float, float]] = []
        self.codes: Counter[str] = Counter()
        self.refused = 0
        self.closed: Counter[str] = Counter()
        self.go = asyncio.Event()
        self.go.set()
        self.humans: list[Human] = []
        #: The players who have had an AI reply (the single node's engines start on the first).
        self.answered: set[Human] = set()

    async def start_game(self, human: Human, stop: asyncio.Event) -> bool:
        while not stop.is_set():
            response = await post(
                self.http,
                "/api/games",
                json={"mode": "vs_ai", "ai_level": AI_LEVEL, "color": "red"},
                headers={"Cookie": human.cookie},
            )
            if response.status_code == 503:  # admission control: no seat against the AI
                self.refused += 1
                await asyncio.sleep(1.0)
                continue
            response.raise_for_status()
            human.moved_at = None
            await human.connect(response.json()["id"], 0)
            return True
        return False

    async def guest(self) -> str:
        response = await post(self.http, "/api/auth/guest")
        response.raise_for_status()
        return f"dsq_guest={response.cookies['dsq_guest']}"

    async def play(self, ready: asyncio.Event, stop: asyncio.Event) -> None:
        try:
            human = Human(self, await self.guest())
            self.humans.append(human)
            started = await self.start_game(human, stop)
        finally:
            self.seated += 1
            if self.seated == self.games:
                ready.set()
        while started and not stop.is_set():
            try:
                raw = await human.ws.recv()
            except websockets.ConnectionClosed as closed:
                if stop.is_set():
                    return
                await human.reconnect(closed, self.closed)
                continue
            message = json.loads(raw)
            if human.on_game_event(message):
                continue
            kind = message["type"]
            if kind == "ai_busy":
                if self.stats.measuring:
                    self.busy.append((float(message["movetime"]), float(message["asked"])))
            elif kind in ("rejected", "error"):
                self.stats.errors += 1
                self.codes[f"{kind}:{message.get('code')}"] += 1
            elif kind == "game_finished":
                self.stats.games_finished += 1
                started = await self.start_game(human, stop)

    async def run(self) -> dict[str, Any]:  # type: ignore[override]
        ready, stop = asyncio.Event(), asyncio.Event()
        self.seated = 0
        begun = time.perf_counter()
        tasks = []
        for _ in range(self.games):
            tasks.append(asyncio.create_task(self.play(ready, stop)))
            if len(tasks) % 10 == 0:
                await asyncio.sleep(0.05)
        try:
            await asyncio.wait_for(ready.wait(), self.args.setup_timeout)
        except TimeoutError:
            print(f"  only {self.seated} of {self.games} games seated in time", flush=True)
        failed = [t for t in tasks if t.done() and t.exception() is not None]
        print(
            f"  {self.games - len(failed)} games against level {AI_LEVEL} seated in "
            f"{time.perf_counter() - begun:.1f} s"
            + (f" ({len(failed)} failed: {failed[0].exception()!r})" if failed else "")
            + f"; warming up at least {self.args.warmup:.0f} s and until every game has had "
            f"an AI reply, then measuring {self.args.duration:.0f} s",
            flush=True,
        )
        warm = time.perf_counter()
        await asyncio.sleep(self.args.warmup)
        playing = self.games - len(failed)
        while len(self.answered) < playing and time.perf_counter() - warm < self.args.setup_timeout:
            await asyncio.sleep(0.1)
        print(
            f"  warmed up in {time.perf_counter() - warm:.1f} s "
            f"({len(self.answered)} of {playing} games had an AI reply)",
            flush=True,
        )
        window = Window(self.target)
        await window.open()
        refused_before = self.refused
        self.stats.measuring = True
        await asyncio.sleep(self.args.duration)
        self.stats.measuring = False
        await window.close()
        refused = self.refused - refused_before
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await close_sockets(self.humans)
        await self.http.aclose()
        return self.report_ai(window, self.games - len(failed), refused)

    def report_ai(self, window: Window, seated: int, refused: int) -> dict[str, Any]:
        before, after = window.before, window.after
        search = histogram(after, before, "doushouqi_ai_search_seconds", kind="move")
        wait = histogram(after, before, "doushouqi_ai_wait_seconds", kind="move")
        reductions = delta(after, before, "doushouqi_ai_effort_reductions_total", kind="move")
        fallbacks = delta(after, before, "doushouqi_ai_random_fallbacks_total")
        refused_server = delta(after, before, "doushouqi_ai_games_refused_total")
        replies = self.replies
        print(f"  AI replies         {len(replies)} = {len(replies) / window.elapsed:.1f}/s")
        print(f"  AI reply (ms)      {ms(replies)}")
        print(f"  human move (ms)    {ms(self.stats.rtts)}")
        given = [g for g, _ in self.busy]
        asked = statistics.fmean(a for _, a in self.busy) if self.busy else math.nan
        if given:
            print(
                f"  ai_busy notices    {len(self.busy)} "
                f"({len(self.busy) / max(1, len(replies)):.0%} of replies): "
                f"searched p50 {statistics.median(given):.3f} s, "
                f"min {min(given):.3f} s, max {max(given):.3f} s of {asked:.2f} s asked"
            )
        else:
            print("  ai_busy notices    0")
        print(
            f"  search (/metrics)  {search['count']:.0f} searches, mean {search['mean']:.3f} s, "
            f"p50 <= {search['p50']} s, p99 <= {search['p99']} s"
        )
        shown = "  ".join(f"<={b:g}:{n:.0f}" for b, n in search["buckets"] if n)
        print(f"    cumulative buckets {shown}")
        print(
            f"  queue wait         mean {wait['mean'] * 1000:.0f} ms, p99 <= {wait['p99']} s"
            " (/metrics)"
        )
        print(f"  effort reductions  {reductions:.0f} (/metrics, all nodes)")
        verdict = "met" if fallbacks == 0 else "NOT met"
        print(f"  random fallbacks   {fallbacks:.0f} (target 0: {verdict})")
        print(f"  games refused      {refused} by admission control ({refused_server:.0f} counted)")
        print(f"  games finished     {self.stats.games_finished}")
        codes = ", ".join(f"{c} {n}" for c, n in self.codes.most_common()) or "none"
        print(f"  errors             {self.stats.errors} ({codes})")
        closed = ", ".join(f"{c}: {n}" for c, n in self.closed.most_common()) or "none"
        print(f"  closed by server   {closed} (reconnected)")
        print(f"  CPU (cores)        {window.cpu_line()}")
        print(f"  client loop lag    {window.lag_line()}")
        print(f"  load average       {window.load:.2f} on {os.cpu_count()} cores", flush=True)
        return {
            "games": seated,
            "replies": replies,
            "busy": len(self.busy),
            "busy_given": given,
            "search": search,
            "reductions": reductions,
            "fallbacks": fallbacks,
            "refused": refused,
            "errors": self.stats.errors,
            "window": window,
        }
