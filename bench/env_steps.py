"""Environment steps per second of the three RL interfaces, side by side, on random legal play.

    .venv/bin/python bench/env_steps.py                    # about 3 s each, wango rules
    .venv/bin/python bench/env_steps.py --seconds 10 --rules classic
    .venv/bin/python bench/env_steps.py --only gymnasium pettingzoo
    .venv/bin/python bench/env_steps.py --game tiger       # 老虎棋, laohuqi rules

Each interface plays uniformly random legal actions (read from its own action mask or legal
action list) for about ``--seconds`` seconds of wall time, resetting whenever a game ends,
and reports steps per second and the games finished:

- ``gymnasium``: ``doushouqi/Jungle-v0`` in self-play, one ``step`` a ply (with its
  observation planes and mask, as a learner would get them);
- ``pettingzoo``: the AEC environment, ``last()`` (observation and mask) then ``step`` a ply;
  ``pettingzoo-parallel``: the parallel environment (``parallel_env()``), one ``step`` a ply
  with an action for each agent (the one to move picks from its mask; the other's is ignored);
- ``openspiel``: ``python_jungle`` states, ``legal_actions()`` then ``apply_action`` a ply (no
  observation: OpenSpiel computes one only when asked); ``openspiel+tensor`` also fills the
  observation tensor of the player to move each ply, through the Python observer
  (``open_spiel.python.observation.make_observation``, as OpenSpiel's Python algorithms do;
  ``state.observation_tensor()`` is slower: it converts the tensor to a list of floats).

An interface whose package is not installed is reported as skipped. Plain random play on the
rules library alone (``library``) is the baseline the others build on.

``--game tiger`` measures the same six for 老虎棋 (``doushouqi/Tiger-v0``, the PettingZoo
``tiger_v0``, OpenSpiel's ``python_laohuqi``; ``--rules`` then names a Tiger rule set). A step
there is an action: a whole move, or one jump of a multi-jump chain (rule sets with
``multi_jump``); ``library`` steps are whole moves.
"""

from __future__ import annotations

import argparse
import importlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from doushouqi.jungle.rl.common import DEFAULT_MAX_PLIES as JUNGLE_MAX_PLIES
from doushouqi.tiger.rl.common import DEFAULT_MAX_PLIES as TIGER_MAX_PLIES

#: One benchmark: given the rules, a seed and its seconds, the (steps, games finished, seconds)
#: it played. Its clock starts once its environment is set up: on a busy machine the set-up (an
#: import, a first environment) can take longer than a short run's seconds, which left no time
#: for a single step when the deadline was set before it.
Bench = Callable[[str, int, float, int], tuple[int, int, float]]


@dataclass(frozen=True)
class GameEnvs:
    """Where one game's board and environments live."""

    board: str  # "module:Class" of the rules library's board
    rl_package: str  # importing it registers the Gymnasium environment
    gymnasium_id: str
    pettingzoo_module: str
    openspiel_module: str  # importing it registers the OpenSpiel game
    openspiel_name: str
    default_rules: str
    default_max_plies: int


GAMES = {
    "jungle": GameEnvs(
        board="doushouqi.jungle.board:Board",
        rl_package="doushouqi.jungle.rl",
        gymnasium_id="doushouqi/Jungle-v0",
        pettingzoo_module="doushouqi.jungle.rl.pettingzoo_env",
        openspiel_module="doushouqi.jungle.rl.openspiel_game",
        openspiel_name="python_jungle",
        default_rules="wango",
        default_max_plies=JUNGLE_MAX_PLIES,
    ),
    "tiger": GameEnvs(
        board="doushouqi.tiger.board:Board",
        rl_package="doushouqi.tiger.rl",
        gymnasium_id="doushouqi/Tiger-v0",
        pettingzoo_module="doushouqi.tiger.rl.pettingzoo_env",
        openspiel_module="doushouqi.tiger.rl.openspiel_game",
        openspiel_name="python_laohuqi",
        default_rules="laohuqi",
        default_max_plies=TIGER_MAX_PLIES,
    ),
}


def _bench_library(envs: GameEnvs) -> Bench:
    module, name = envs.board.split(":")
    board_class: Any = getattr(importlib.import_module(module), name)

    def bench(rules: str, seed: int, seconds: float, max_plies: int) -> tuple[int, int, float]:
        rng = np.random.default_rng(seed)
        steps = games = 0
        start = time.perf_counter()
        deadline = start + seconds
        board = board_class(rules=rules)
        while time.perf_counter() < deadline:
            if board.outcome() is not None or board.ply() >= max_plies:
                board, games = board_class(rules=rules), games + 1
            moves = list(board.generate_legal_moves())
            board.push(moves[int(rng.integers(len(moves)))])
            steps += 1
        return steps, games, time.perf_counter() - start

    return bench


def _bench_gymnasium(envs: GameEnvs) -> Bench:
    def bench(rules: str, seed: int, seconds: float, max_plies: int) -> tuple[int, int, float]:
        import gymnasium

        importlib.import_module(envs.rl_package)  # registers the environment
        env = gymnasium.make(envs.gymnasium_id, rules=rules, max_plies=max_plies)
        rng = np.random.default_rng(seed)
        _, info = env.reset(seed=seed)
        steps = games = 0
        start = time.perf_counter()
        deadline = start + seconds
        while time.perf_counter() < deadline:
            action = rng.choice(np.flatnonzero(info["action_mask"]))
            _, _, terminated, truncated, info = env.step(action)
            steps += 1
            if terminated or truncated:
                games += 1
                _, info = env.reset()
        return steps, games, time.perf_counter() - start

    return bench


def _bench_pettingzoo(envs: GameEnvs) -> Bench:
    def bench(rules: str, seed: int, seconds: float, max_plies: int) -> tuple[int, int, float]:
        env = importlib.import_module(envs.pettingzoo_module).env(rules=rules, max_plies=max_plies)
        rng = np.random.default_rng(seed)
        env.reset(seed=seed)
        steps = games = 0
        start = time.perf_counter()
        deadline = start + seconds
        while time.perf_counter() < deadline:
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                games += 1
                env.reset()
                continue
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            steps += 1
        return steps, games, time.perf_counter() - start

    return bench


def _bench_pettingzoo_parallel(envs: GameEnvs) -> Bench:
    def bench(rules: str, seed: int, seconds: float, max_plies: int) -> tuple[int, int, float]:
        module = importlib.import_module(envs.pettingzoo_module)
        env = module.parallel_env(rules=rules, max_plies=max_plies)
        rng = np.random.default_rng(seed)
        observations, _ = env.reset(seed=seed)
        steps = games = 0
        start = time.perf_counter()
        deadline = start + seconds
        while time.perf_counter() < deadline:
            actions = {}
            for agent, observation in observations.items():
                legal = np.flatnonzero(observation["action_mask"])
                actions[agent] = int(rng.choice(legal)) if len(legal) else 0
            observations, _, _, _, _ = env.step(actions)
            steps += 1
            if not env.agents:
                games += 1
                observations, _ = env.reset()
        return steps, games, time.perf_counter() - start

    return bench


def _bench_openspiel(envs: GameEnvs, tensor: bool) -> Bench:
    def bench(rules: str, seed: int, seconds: float, max_plies: int) -> tuple[int, int, float]:
        import pyspiel
        from open_spiel.python.observation import make_observation

        importlib.import_module(envs.openspiel_module)  # registers the game
        game = pyspiel.load_game(envs.openspiel_name, {"rules": rules, "max_plies": max_plies})
        observer = make_observation(game)
        rng = np.random.default_rng(seed)
        state = game.new_initial_state()
        steps = games = 0
        start = time.perf_counter()
        deadline = start + seconds
        while time.perf_counter() < deadline:
            if state.is_terminal():
                games += 1
                state = game.new_initial_state()
            if tensor:
                observer.set_from(state, state.current_player())  # fills observer.tensor
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
            steps += 1
        return steps, games, time.perf_counter() - start

    return bench


def benches(game: str) -> dict[str, tuple[Bench, str]]:
    """The benchmarks of one game, each with the package it needs."""
    envs = GAMES[game]
    return {
        "library": (_bench_library(envs), "doushouqi"),
        "gymnasium": (_bench_gymnasium(envs), "gymnasium"),
        "pettingzoo": (_bench_pettingzoo(envs), "pettingzoo"),
        "pettingzoo-parallel": (_bench_pettingzoo_parallel(envs), "pettingzoo"),
        "openspiel": (_bench_openspiel(envs, tensor=False), "pyspiel"),
        "openspiel+tensor": (_bench_openspiel(envs, tensor=True), "pyspiel"),
    }


#: Jungle's benchmarks (every game has the same six names).
BENCHES = benches("jungle")


def run(
    names: list[str], rules: str, seconds: float, seed: int, max_plies: int, game: str = "jungle"
) -> dict[str, float | None]:
    """Steps per second of each named benchmark of ``game`` (None: its package is not
    installed); prints a line for each."""
    import importlib.util

    results: dict[str, float | None] = {}
    game_benches = benches(game)
    print(
        f"{game}: random legal play, rules {rules}, about {seconds:g} s each, max {max_plies} plies"
    )
    for name in names:
        bench, package = game_benches[name]
        if importlib.util.find_spec(package) is None:
            print(f"{name:>19}: skipped ({package} is not installed)")
            results[name] = None
            continue
        steps, games, elapsed = bench(rules, seed, seconds, max_plies)
        results[name] = rate = steps / elapsed
        detail = f"{steps:,} steps, {games} games, {elapsed:.1f} s"
        print(f"{name:>19}: {rate:9,.0f} steps/s  ({detail})")
    return results


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=list(GAMES), default="jungle", help="game (jungle)")
    parser.add_argument("--seconds", type=float, default=3.0, help="time for each (3)")
    parser.add_argument("--rules", help="rule set (wango; laohuqi for the tiger)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-plies", type=int, help="move limit (the game's environments')")
    parser.add_argument("--only", nargs="+", choices=list(BENCHES), default=list(BENCHES))
    args = parser.parse_args(argv)
    envs = GAMES[args.game]
    rules = args.rules or envs.default_rules
    max_plies = args.max_plies or envs.default_max_plies
    run(args.only, rules, args.seconds, args.seed, max_plies, args.game)


if __name__ == "__main__":
    main()
