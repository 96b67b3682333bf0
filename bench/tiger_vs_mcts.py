"""The 老虎棋 engine against OpenSpiel's MCTS, given ten times the engine's time.

    .venv/bin/python bench/tiger_vs_mcts.py --games 20 --movetime 0.1 --out tiger-mcts.jsonl

There is no other engine for this game, so its strength is measured against a general one:
OpenSpiel's Python ``MCTSBot`` (UCT with random rollouts) on the game's OpenSpiel form
(``python_laohuqi``, :mod:`doushouqi.tiger.rl.openspiel_game`). ``MCTSBot`` counts simulations,
not time, so the bench keeps its time at ``--ratio`` times ours move by move: each move's
simulations are its last move's rate (simulations a second, allowed to grow by half a move at
most, since a search that proves its result stops early) times its time budget; the first
move's rate comes from a short calibration. Printed: the simulations and seconds MCTS used a
move, so the ratio it actually got is on record.

Games start from openings of a few random plies, each played twice with the sides swapped;
``--max-plies`` ends a game as a draw. Every finished game is appended to ``--out`` as a JSON
line, and a run with the same arguments skips those already there (stop and resume at will).
Prints the engine's wins, draws and losses with its score and Elo (95 %), overall and as each
side.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import doushouqi.tiger.rl.openspiel_game  # noqa: F401  (registers python_laohuqi)
from doushouqi.core.match_stats import MatchScore, elo_estimate
from doushouqi.tiger.ai import Searcher
from doushouqi.tiger.analysis import Limit
from doushouqi.tiger.engine.match import random_openings

#: Seconds of the calibration search that gives the first move's simulations a second.
CALIBRATION = 0.5


class TimedMcts:
    """``MCTSBot`` held to a time budget a move by its own measured speed."""

    def __init__(self, game: Any, seconds: float, rollouts: int, seed: int) -> None:
        self.game = game
        self.seconds = seconds
        self.random = np.random.RandomState(seed)
        self.evaluator = mcts.RandomRolloutEvaluator(rollouts, self.random)
        self.rate = self._calibrate()
        self.used: list[tuple[int, float]] = []  # (simulations, seconds) per move

    def _bot(self, simulations: int) -> Any:
        return mcts.MCTSBot(
            self.game,
            uct_c=2.0,
            max_simulations=simulations,
            evaluator=self.evaluator,
            solve=True,
            random_state=self.random,
        )

    def _calibrate(self) -> float:
        state, simulations, spent = self.game.new_initial_state(), 16, 0.0
        while spent < CALIBRATION:
            simulations *= 2
            began = time.perf_counter()
            self._bot(simulations).step(state)
            spent = time.perf_counter() - began
        return simulations / spent

    def step(self, state: Any) -> int:
        # Two at least: OpenSpiel's MCTS expands the root on its second simulation (the first
        # only rolls it out), and one simulation leaves it no child to choose.
        simulations = max(2, int(self.rate * self.seconds))
        began = time.perf_counter()
        action = int(self._bot(simulations).step(state))
        spent = max(1e-6, time.perf_counter() - began)
        # A search that proved its result early (solve=True) ran fewer simulations than asked:
        # its apparent rate is too high, so the rate may grow by half at most a move.
        self.rate = min(simulations / spent, 1.5 * self.rate)
        self.used.append((simulations, spent))
        return action


def play(
    moves: list[str],
    engine: Searcher,
    engine_seat: int,
    bot: TimedMcts,
    game: Any,
    limit: Limit,
    level: int,
) -> tuple[str, int, str, float]:
    """One game from an opening: the result (1-0: the tiger side won), plies, how it ended,
    and the engine's average seconds a move."""
    state = game.new_initial_state()
    for text in moves:
        for action in state.action_board.move_to_actions(text):
            state.apply_action(action)
    engine.new_game()
    ours: list[float] = []
    while not state.is_terminal():
        if state.current_player() == engine_seat:
            began = time.perf_counter()
            result = engine.search(state.board.copy(), limit, level=level)
            ours.append(time.perf_counter() - began)
            assert result.move is not None
            for action in state.action_board.move_to_actions(result.move):
                state.apply_action(action)
        else:
            state.apply_action(bot.step(state))
    board = state.board
    outcome = board.outcome()
    average = sum(ours) / len(ours) if ours else 0.0
    if outcome is None:
        return "1/2-1/2", board.ply(), "max_plies", average
    return outcome.result(), board.ply(), outcome.key, average


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games (even: both sides)")
    parser.add_argument("--movetime", type=float, default=0.1, help="the engine's seconds")
    parser.add_argument("--ratio", type=float, default=10.0, help="MCTS's time over ours")
    parser.add_argument("--level", type=int, default=10)
    parser.add_argument("--rollouts", type=int, default=1, help="random rollouts a leaf")
    parser.add_argument("--rules", default="laohuqi")
    parser.add_argument("--opening-plies", type=int, default=4)
    # The men need 200-400 plies to cage a tiger.
    parser.add_argument("--max-plies", type=int, default=1000, help="a draw after N plies")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None, help="JSON lines, resumable")
    parser.add_argument("--side", choices=("both", "tiger", "men"), default="both",
                        help="the engine's side (both: alternately)")  # fmt: skip
    parser.add_argument("--param", action="append", default=[], metavar="NAME=V[,V…]",
                        help="an evaluation weight (eval_params.PARAM_NAMES; a block's name "
                        "with one value per entry), for experiments")  # fmt: skip
    args = parser.parse_args(argv)
    settings = {key: getattr(args, key) for key in ("movetime", "ratio", "level", "rollouts",
                "rules", "opening_plies", "max_plies", "seed", "side", "param")}  # fmt: skip
    done: dict[int, dict[str, Any]] = {}
    if args.out is not None and args.out.exists():
        for line in args.out.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if row["settings"] == settings:
                done[row["game"]] = row
    game = pyspiel.load_game("python_laohuqi", {"rules": args.rules, "max_plies": args.max_plies})
    starts = random_openings((args.games + 1) // 2, args.opening_plies, args.rules, args.seed)
    engine = Searcher(args.rules, hash_mb=64, seed=args.seed, params=weights(args.param))
    engine.warm_up()
    bot = TimedMcts(game, args.movetime * args.ratio, args.rollouts, args.seed)
    print(f"tiger engine (level {args.level}, {args.movetime:g} s a move) against OpenSpiel "
          f"MCTS ({args.ratio:g}x the time, {args.rollouts} rollout(s) a leaf, calibrated at "
          f"{bot.rate:.0f} simulations/s); {len(done)} of {args.games} games already played",
          flush=True)  # fmt: skip
    limit = Limit(movetime=args.movetime)
    for index in range(args.games):
        if index in done:
            continue
        engine_seat = {"both": index % 2, "tiger": 0, "men": 1}[args.side]  # 0: the tiger
        before = len(bot.used)
        result, plies, ending, ours = play(
            starts[index // 2], engine, engine_seat, bot, game, limit, args.level
        )
        theirs = bot.used[before:]
        row = {
            "settings": settings,
            "game": index,
            "engine_is_tiger": engine_seat == 0,
            "result": result,
            "plies": plies,
            "ending": ending,
            "engine_seconds": round(ours, 3),
            "mcts_seconds": round(sum(s for _, s in theirs) / max(1, len(theirs)), 3),
            "mcts_simulations": round(sum(n for n, _ in theirs) / max(1, len(theirs))),
        }
        done[index] = row
        print(json.dumps(row["result"]), ending, f"{plies} plies", flush=True)
        if args.out is not None:
            with args.out.open("a", encoding="utf-8") as file:
                file.write(json.dumps(row) + "\n")
    print(summary(list(done.values())))
    return 0


def weights(changes: list[str]) -> Any:
    """The engine's evaluation weights with ``NAME=V`` changes (a block: ``NAME=V1,V2,…``)."""
    from doushouqi.tiger.ai.eval_params import PARAM_NAMES, default_params

    params = default_params()
    for change in changes:
        name, _, text = change.partition("=")
        values = [int(v) for v in text.split(",")]
        first = PARAM_NAMES.index(
            name if len(values) == 1 and name in PARAM_NAMES else f"{name}[0]"
        )
        params[first : first + len(values)] = values
    return params


def summary(rows: list[dict[str, Any]]) -> str:
    """The engine's results, overall and by side, and the time each side used."""
    overall, by_side = MatchScore(), {True: MatchScore(), False: MatchScore()}
    for row in rows:
        tiger = {"1-0": 1.0, "0-1": 0.0}.get(str(row["result"]), 0.5)
        points = tiger if row["engine_is_tiger"] else 1.0 - tiger
        overall.add(points)
        by_side[bool(row["engine_is_tiger"])].add(points)
    elo, margin = elo_estimate(overall.wins, overall.draws, overall.losses)
    ours = sum(float(r["engine_seconds"]) for r in rows) / max(1, len(rows))
    theirs = sum(float(r["mcts_seconds"]) for r in rows) / max(1, len(rows))
    simulations = sum(int(r["mcts_simulations"]) for r in rows) / max(1, len(rows))
    return (f"engine {overall}, Elo {elo:+.0f} ± {margin:.0f}; as the tiger {by_side[True]}, "
            f"as the men {by_side[False]}; seconds a move: engine {ours:.3f}, MCTS {theirs:.3f} "
            f"({simulations:.0f} simulations)")  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
