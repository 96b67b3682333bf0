"""bench/env_steps.py --game tiger: each of the Tiger's interfaces measured in one run, bounded
in time, multi-jump rule sets included."""

from __future__ import annotations

import time

from bench import env_steps


def test_every_tiger_interface_is_measured_within_its_time(capsys) -> None:
    start = time.perf_counter()
    names = list(env_steps.benches("tiger"))
    results = env_steps.run(names, "laohuqi-strict", 0.2, seed=0, max_plies=30, game="tiger")
    assert time.perf_counter() - start < 5.0
    assert set(results) == set(env_steps.BENCHES)  # the same six names as Jungle's
    for name, rate in results.items():
        assert rate is None or rate > 0, name
    assert results["gymnasium"] and results["library"]  # the rl extra is always there
    out = capsys.readouterr().out
    assert out.startswith("tiger: random legal play, rules laohuqi-strict")
    for name in names:
        assert f"{name}:" in out


def test_main_picks_the_game_defaults(capsys) -> None:
    env_steps.main(["--game", "tiger", "--seconds", "0.1", "--only", "library"])
    assert "rules laohuqi, about 0.1 s each, max 2000 plies" in capsys.readouterr().out
