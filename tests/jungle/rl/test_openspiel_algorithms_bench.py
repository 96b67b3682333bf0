"""bench/openspiel_algorithms.py: each OpenSpiel algorithm tried on a Python game in a process
of its own; what docs/rl.md says works (and what crashes) is what it finds."""

from __future__ import annotations

import pytest

pytest.importorskip("pyspiel")

from bench import openspiel_algorithms


def test_python_algorithms_run_and_cpp_mcts_crashes_on_python_games(capsys) -> None:
    algorithms = ["py_alpha_beta", "cpp_evaluate_bots", "cpp_mcts"]
    games = ["python_jungle", "python_laohuqi", "tic_tac_toe"]
    results = openspiel_algorithms.run(algorithms, games, timeout=60)
    for game in games:
        assert results["py_alpha_beta", game] == "ok"
        assert results["cpp_evaluate_bots", game] == "ok"
    # pyspiel.MCTSBot crashes on a game written in Python (OpenSpiel's own Python tic-tac-toe
    # too), and works on a C++ game. When this fails, OpenSpiel fixed it: update docs/rl.md.
    assert results["cpp_mcts", "python_jungle"].startswith("crash")
    assert results["cpp_mcts", "python_laohuqi"].startswith("crash")
    assert results["cpp_mcts", "tic_tac_toe"] == "ok"
    assert "py_alpha_beta" in capsys.readouterr().out
