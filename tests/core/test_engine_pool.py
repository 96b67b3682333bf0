"""The engines kept per rule set for one-off questions (``core.engine_pool``)."""

from __future__ import annotations

import threading

from doushouqi.core.engine_pool import EnginePool


def test_a_caller_waits_for_a_busy_engine_rather_than_make_one_more() -> None:
    made: list[str] = []
    pool: EnginePool[str, str] = EnginePool(lambda rules: made.append(rules) or rules, size=1)
    holding, waiting_done = threading.Event(), threading.Event()
    got: list[str] = []

    def second_caller() -> None:
        holding.wait()
        with pool.engine("wango") as engine:
            got.append(engine)
        waiting_done.set()

    thread = threading.Thread(target=second_caller)
    thread.start()
    with pool.engine("wango"):
        holding.set()
        assert not waiting_done.wait(0.2)  # the only engine is ours: the other caller waits
    thread.join(5)
    assert waiting_done.is_set() and got == ["wango"]
    assert made == ["wango"]


def test_each_rule_set_has_engines_of_its_own() -> None:
    pool: EnginePool[str, list[str]] = EnginePool(lambda rules: [rules], size=1)
    with pool.engine("wango") as wango, pool.engine("classic") as classic:
        assert (wango, classic) == (["wango"], ["classic"])
    with pool.engine("classic") as again:
        assert again is classic
