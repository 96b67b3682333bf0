"""The time source's timers (``call_at``): what a game's deadline is armed with after every
move. They fire once the time has come, not before, and never once cancelled; on the real
clock as on the tests' manual one."""

from __future__ import annotations

import asyncio
import time

from doushouqi.server.infra.timesource import ManualTime, SystemTime


def test_a_wall_clock_timer_fires_at_its_deadline_not_before() -> None:
    async def scenario() -> tuple[float, float]:
        fired = asyncio.get_running_loop().create_future()
        deadline = time.time() + 0.05
        SystemTime().call_at(deadline, lambda: fired.set_result(time.time()))
        return deadline, await asyncio.wait_for(fired, 5)

    deadline, at = asyncio.run(scenario())
    assert at >= deadline


def test_a_cancelled_wall_clock_timer_never_fires() -> None:
    async def scenario() -> list[str]:
        calls: list[str] = []
        clock = SystemTime()
        clock.call_at(time.time() + 0.02, lambda: calls.append("cancelled")).cancel()
        clock.call_at(time.time() + 0.04, lambda: calls.append("kept"))
        await asyncio.sleep(0.2)
        return calls

    assert asyncio.run(scenario()) == ["kept"]


def test_a_past_deadline_fires_at_once() -> None:
    async def scenario() -> list[str]:
        calls: list[str] = []
        SystemTime().call_at(time.time() - 10, lambda: calls.append("late"))
        await asyncio.sleep(0.01)
        return calls

    assert asyncio.run(scenario()) == ["late"]


def test_manual_timers_fire_when_time_is_advanced_past_them() -> None:
    async def scenario() -> list[str]:
        clock = ManualTime(start=100.0)
        calls: list[str] = []
        clock.call_at(105.0, lambda: calls.append("at 105"))
        clock.call_at(110.0, lambda: calls.append("at 110")).cancel()
        clock.call_at(99.0, lambda: calls.append("already due"))
        await asyncio.sleep(0)
        early = list(calls)
        clock.advance(4.0)
        await asyncio.sleep(0)
        clock.advance(10.0)
        for _ in range(3):
            await asyncio.sleep(0)
        return [*early, "|", *calls]

    assert asyncio.run(scenario()) == ["already due", "|", "already due", "at 105"]
