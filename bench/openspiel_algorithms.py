"""Which of OpenSpiel's algorithms run on a game written in Python, each tried in a process of
its own (a crash in OpenSpiel's C++ ends only that try), side by side on both games and on
OpenSpiel's own tic-tac-toe in Python and in C++:

    .venv/bin/python bench/openspiel_algorithms.py                  # every algorithm, 4 games
    .venv/bin/python bench/openspiel_algorithms.py --only cpp_mcts  # one of them

Each try loads the game (``max_plies`` 60 for ours), runs the algorithm briefly from the start
and prints what it returned; the table gives ``ok``, ``crash (signal N)`` or the error. The
algorithms (``open_spiel.python.algorithms`` is Python, ``pyspiel`` C++):

- ``random_sim_test``: ``pyspiel.random_sim_test`` (C++), random games with serialisation;
- ``cpp_evaluate_bots``: ``pyspiel.evaluate_bots`` with two ``make_uniform_random_bot`` bots;
- ``py_evaluate_bots``: ``evaluate_bots.evaluate_bots`` with two Python MCTS bots;
- ``py_mcts``: ``mcts.MCTSBot`` (Python) with random rollouts, one move;
- ``cpp_mcts``: ``pyspiel.MCTSBot`` (C++) with ``pyspiel.RandomRolloutEvaluator``, one move;
- ``py_alpha_beta``: ``minimax.alpha_beta_search`` to depth 2 (Python);
- ``py_expectiminimax``: ``minimax.expectiminimax`` to depth 2 (Python).

CFR and the other equilibrium solvers are for imperfect-information games (they walk the whole
game tree), so they are not tried.
"""

from __future__ import annotations

import argparse
import signal
import subprocess
import sys

#: The games tried: ours, and OpenSpiel's tic-tac-toe in Python and in C++ for comparison.
GAMES = ("python_jungle", "python_laohuqi", "python_tic_tac_toe", "tic_tac_toe")

ALGORITHMS = (
    "random_sim_test",
    "cpp_evaluate_bots",
    "py_evaluate_bots",
    "py_mcts",
    "cpp_mcts",
    "py_alpha_beta",
    "py_expectiminimax",
)


def try_algorithm(game_name: str, algorithm: str) -> str:
    """Run one algorithm on one game in this process; what it returned, as text."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import evaluate_bots, mcts, minimax

    import doushouqi.jungle.rl.openspiel_game
    import doushouqi.tiger.rl.openspiel_game  # noqa: F401  (register the games)

    if game_name == "python_tic_tac_toe":
        import open_spiel.python.games  # noqa: F401  (registers OpenSpiel's Python games)
    ours = game_name in ("python_jungle", "python_laohuqi")
    game = pyspiel.load_game(game_name, {"max_plies": 60} if ours else {})
    state = game.new_initial_state()

    def python_mcts(seed: int) -> mcts.MCTSBot:
        evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
        return mcts.MCTSBot(game, 2.0, 20, evaluator, random_state=np.random.RandomState(seed))

    if algorithm == "random_sim_test":
        pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
        return "3 games"
    if algorithm == "cpp_evaluate_bots":
        bots = [pyspiel.make_uniform_random_bot(player, player + 1) for player in (0, 1)]
        return f"returns {pyspiel.evaluate_bots(state, bots, 0)}"
    if algorithm == "py_evaluate_bots":
        bots = [python_mcts(seed) for seed in (0, 1)]
        return f"returns {evaluate_bots.evaluate_bots(state, bots, np.random.RandomState(0))}"
    if algorithm == "py_mcts":
        return f"action {python_mcts(0).step(state)}"
    if algorithm == "cpp_mcts":
        evaluator = pyspiel.RandomRolloutEvaluator(1, 0)
        bot = pyspiel.MCTSBot(game, evaluator, 2.0, 20, 10**6, True, 0, False)
        return f"action {bot.step(state)}"
    if algorithm == "py_alpha_beta":
        value, action = minimax.alpha_beta_search(
            game, state, value_function=lambda _: 0.0, maximum_depth=2, maximizing_player_id=0
        )
        return f"value {value}, action {action}"
    if algorithm == "py_expectiminimax":
        value, action = minimax.expectiminimax(state, 2, lambda _: 0.0, 0)
        return f"value {value}, action {action}"
    raise ValueError(f"unknown algorithm {algorithm!r}")


def verdict(game_name: str, algorithm: str, timeout: float) -> str:
    """``ok``, ``crash (signal N)``, ``timeout`` or the error's last line, from a child."""
    command = [sys.executable, __file__, "--child", game_name, algorithm]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout"
    if done.returncode < 0:
        return f"crash ({signal.Signals(-done.returncode).name})"
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines() or ["?"]
        return "error: " + lines[-1][:60]
    return "ok"


def run(algorithms: list[str], games: list[str], timeout: float = 120.0) -> dict:
    """Each algorithm's verdict on each game; prints the table."""
    results = {(a, g): verdict(g, a, timeout) for a in algorithms for g in games}
    width = max(len(a) for a in algorithms)
    print(f"{'algorithm':<{width}}  " + "  ".join(f"{g:<18}" for g in games))
    for algorithm in algorithms:
        row = "  ".join(f"{results[algorithm, g]:<18}" for g in games)
        print(f"{algorithm:<{width}}  {row}")
    return results


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", choices=ALGORITHMS, default=list(ALGORITHMS))
    parser.add_argument("--games", nargs="+", choices=GAMES, default=list(GAMES))
    parser.add_argument("--child", nargs=2, metavar=("GAME", "ALGORITHM"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(try_algorithm(*args.child))
        return
    run(args.only, args.games)


if __name__ == "__main__":
    main()
