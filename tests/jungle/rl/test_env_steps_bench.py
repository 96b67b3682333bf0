"""bench/env_steps.py: each interface's steps/s measured in one run, bounded in time."""

from __future__ import annotations

import time

from bench import env_steps


def test_every_interface_is_measured_within_its_time(capsys) -> None:
    start = time.perf_counter()
    results = env_steps.run(list(env_steps.BENCHES), "classic", 0.2, seed=0, max_plies=30)
    assert time.perf_counter() - start < 5.0
    assert set(results) == set(env_steps.BENCHES)
    for name, rate in results.items():
        assert rate is None or rate > 0, name
    assert results["gymnasium"] and results["library"]  # the rl extra is always there
    out = capsys.readouterr().out
    for name in env_steps.BENCHES:
        assert f"{name}:" in out
    assert "steps/s" in out
