"""Environment steps per second of the three RL interfaces, side by side, on random legal play.

    .venv/bin/python bench/env_steps.py                    # about 3 s each, wango rules
    .venv/bin/python bench/env_steps.py --seconds 10 --rules classic
    .venv/bin/python bench/env_steps.py --only gymnasium pettingzoo

Each interface plays uniformly random legal actions (read from its own action mask or legal
action list) for about ``--seconds`` seconds of wall time, resetting whenever a game ends,
and reports steps (plies) per second and the games finished:

- ``gymnasium``: ``doushouqi/Jungle-v0`` in self-play, one ``step`` a ply (with its
  observation planes and mask, as a learner would get them);
- ``pettingzoo``: the AEC environment, ``last()`` (observation and mask) then ``step`` a ply;
- ``openspiel``: ``python_jungle`` states, ``legal_actions()`` then ``apply_action`` a ply (no
  observation: OpenSpiel computes one only when asked); ``openspiel+tensor`` also fills the
  observation tensor of the player to move each ply, through the Python observer
  (``open_spiel.python.observation.make_observation``, as OpenSpiel's Python algorithms do;
  ``state.observation_tensor()`` is slower: it converts the tensor to a list of floats).

An interface whose package is not installed is reported as skipped. Plain random play on the
rules library alone (``library``) is the baseline the others build on.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

from doushouqi import Board
from doushouqi.jungle.rl.common import DEFAULT_MAX_PLIES

#: One benchmark: given the rules, a seed and a deadline, the (steps, games finished) it played.
Bench = Callable[[str, int, float, int], tuple[int, int]]


def bench_library(rules: str, seed: int, deadline: float, max_plies: int) -> tuple[int, int]:
    rng = np.random.default_rng(seed)
    steps = games = 0
    board = Board(rules=rules)
    while time.perf_counter() < deadline:
        if board.outcome() is not None or board.ply >= max_plies:
            board, games = Board(rules=rules), games + 1
        moves = list(board.generate_legal_moves())
        board.push(moves[int(rng.integers(len(moves)))])
        steps += 1
    return steps, games


def bench_gymnasium(rules: str, seed: int, deadline: float, max_plies: int) -> tuple[int, int]:
    import gymnasium

    import doushouqi.jungle.rl  # noqa: F401  # registers the environment

    env = gymnasium.make("doushouqi/Jungle-v0", rules=rules, max_plies=max_plies)
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    steps = games = 0
    while time.perf_counter() < deadline:
        action = rng.choice(np.flatnonzero(info["action_mask"]))
        _, _, terminated, truncated, info = env.step(action)
        steps += 1
        if terminated or truncated:
            games += 1
            _, info = env.reset()
    return steps, games


def bench_pettingzoo(rules: str, seed: int, deadline: float, max_plies: int) -> tuple[int, int]:
    from doushouqi.jungle.rl.pettingzoo_env import env as make_env

    env = make_env(rules=rules, max_plies=max_plies)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    steps = games = 0
    while time.perf_counter() < deadline:
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            games += 1
            env.reset()
            continue
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        steps += 1
    return steps, games


def _bench_openspiel(tensor: bool) -> Bench:
    def bench(rules: str, seed: int, deadline: float, max_plies: int) -> tuple[int, int]:
        import pyspiel
        from open_spiel.python.observation import make_observation

        import doushouqi.jungle.rl.openspiel_game  # noqa: F401  # registers the game

        game = pyspiel.load_game("python_jungle", {"rules": rules, "max_plies": max_plies})
        observer = make_observation(game)
        rng = np.random.default_rng(seed)
        state = game.new_initial_state()
        steps = games = 0
        while time.perf_counter() < deadline:
            if state.is_terminal():
                games += 1
                state = game.new_initial_state()
            if tensor:
                observer.set_from(state, state.current_player())  # fills observer.tensor
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
            steps += 1
        return steps, games

    return bench


BENCHES: dict[str, tuple[Bench, str]] = {
    "library": (bench_library, "doushouqi"),
    "gymnasium": (bench_gymnasium, "gymnasium"),
    "pettingzoo": (bench_pettingzoo, "pettingzoo"),
    "openspiel": (_bench_openspiel(tensor=False), "pyspiel"),
    "openspiel+tensor": (_bench_openspiel(tensor=True), "pyspiel"),
}


def run(
    names: list[str], rules: str, seconds: float, seed: int, max_plies: int
) -> dict[str, float | None]:
    """Steps per second of each named benchmark (None: its package is not installed); prints a
    line for each."""
    import importlib.util

    results: dict[str, float | None] = {}
    print(f"random legal play, rules {rules}, about {seconds:g} s each, max {max_plies} plies")
    for name in names:
        bench, package = BENCHES[name]
        if importlib.util.find_spec(package) is None:
            print(f"{name:>17}: skipped ({package} is not installed)")
            results[name] = None
            continue
        start = time.perf_counter()
        steps, games = bench(rules, seed, start + seconds, max_plies)
        elapsed = time.perf_counter() - start
        results[name] = rate = steps / elapsed
        detail = f"{steps:,} steps, {games} games, {elapsed:.1f} s"
        print(f"{name:>17}: {rate:9,.0f} steps/s  ({detail})")
    return results


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time for each (3)")
    parser.add_argument("--rules", default="wango", help="rule set (wango)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-plies", type=int, default=DEFAULT_MAX_PLIES)
    parser.add_argument("--only", nargs="+", choices=list(BENCHES), default=list(BENCHES))
    args = parser.parse_args(argv)
    run(args.only, args.rules, args.seconds, args.seed, args.max_plies)


if __name__ == "__main__":
    main()
