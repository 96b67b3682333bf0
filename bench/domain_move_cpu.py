"""CPU time of a Jungle move through the server's domain, and of its parts (issue 32).

In-process, no server: a seeded game of random legal moves (the same every run) is applied
move by move through :func:`doushouqi.server.domain.apply`, as the live actor does; then the
rules library's per-move calls alone, on the same positions. CPU time
(``time.process_time``), the best of ``--repeat`` runs, in µs a move.

    PYTHONPATH=src .venv/bin/python bench/domain_move_cpu.py --repeat 7
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

from doushouqi.core.clock import TimeControl
from doushouqi.core.game import get_game
from doushouqi.server.domain import Account, GameSpec, Join, Mode, Move, PlayerSlot, apply, new_game

PLIES = 80


def _moves(rules_name: str, seed: int) -> list[str]:
    """A seeded random game of up to PLIES legal moves, stopping where the game ends."""
    jungle = get_game("jungle")
    rules = jungle.parse_rules(rules_name)
    position = jungle.new_position(rules, jungle.start_position(rules))
    rng = random.Random(seed)
    played: list[str] = []
    while len(played) < PLIES and position.outcome() is None:
        move = rng.choice(position.legal_moves())
        position.push(move)
        played.append(move)
    return played


def _best(run: Callable[[], None], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        run()
        times.append(time.process_time() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--games", type=int, default=20, help="seeded games per run")
    args = parser.parse_args()
    red, blue = Account(1), Account(2)
    spec = GameSpec(
        Mode.ONLINE,
        (PlayerSlot.account(1, "Li"), PlayerSlot.account(2, "Wang")),
        rules="wango",
        time_control=TimeControl.parse("5+3"),
    )
    games = [_moves("wango", seed) for seed in range(args.games)]
    total = sum(len(g) for g in games)
    start_game = new_game(spec, game_id="bench", now=0.0)
    for who in (red, blue):
        start_game, _ = apply(start_game, Join(actor=who), 0.0)

    def through_domain() -> None:
        for moves in games:
            game = start_game
            for ply, text in enumerate(moves):
                actor = red if ply % 2 == 0 else blue
                game, _ = apply(game, Move(actor=actor, move=text), 1.0 + ply)

    jungle = get_game("jungle")
    rules = jungle.parse_rules("wango")

    # The rules library's calls for a move, in the order the server makes them; each step's
    # cost is what adding it to the steps before it adds (they share what they learn).
    steps: list[tuple[str, Callable[[Any, str], object]]] = [
        ("parse_move", lambda p, t: p.parse_move(t)),
        ("two readable names", lambda p, t: (p.move_text(t, "en"), p.move_text(t, "zh"))),
        ("push", lambda p, t: p.push(t)),
        ("position_string", lambda p, t: p.position_string()),
        ("legal_destinations", lambda p, t: p.legal_destinations()),
        ("outcome", lambda p, t: p.outcome()),
    ]

    def prefix(count: int) -> Callable[[], None]:
        calls = [call for _, call in steps[:count]]

        def run() -> None:
            for moves in games:
                position = jungle.new_position(rules, jungle.start_position(rules))
                for text in moves:
                    for call in calls:
                        call(position, text)
                    if count < 3:  # the push not among the steps measured yet
                        position.push(text)

        return run

    rows: list[tuple[str, float]] = [("apply (the whole move)", _best(through_domain, args.repeat))]
    totals = [_best(prefix(count), args.repeat) for count in range(len(steps) + 1)]
    rows.append(("the rules' calls", totals[-1] - totals[0]))
    rows += [(f"  {name}", totals[i + 1] - totals[i]) for i, (name, _) in enumerate(steps)]
    print(f"{len(games)} games, {total} moves; CPU µs a move, best of {args.repeat}")
    for name, seconds in rows:
        print(f"  {name:<24} {seconds / total * 1e6:8.1f}")


if __name__ == "__main__":
    main()
