"""CPU time of a Jungle move through the server's domain, and of its parts (issue 32).

In-process, no server: a seeded game of random legal moves (the same every run) is applied
move by move through :func:`doushouqi.server.domain.apply`, as the live actor does; then each
of the rules library's per-move calls alone, on the same positions as the server has them. CPU time
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


def _rules_steps(games: list[list[str]], repeat: int) -> list[tuple[str, float]]:
    """Each call the server makes of the rules library for a move, timed alone (best of
    ``repeat``), on the position as the server has it: a copy of the position after the move
    before, whose destinations were asked for (what a position knows is carried by copy)."""
    jungle = get_game("jungle")
    rules = jungle.parse_rules("wango")
    cases: list[tuple[Any, str]] = []
    for moves in games:
        position = jungle.new_position(rules, jungle.start_position(rules))
        for text in moves:
            position.legal_destinations()
            cases.append((position.copy(), text))
            position.push(text)

    def parsed(position: Any, text: str) -> Any:
        copied = position.copy()
        copied.parse_move(text)
        return copied

    def pushed(position: Any, text: str) -> Any:
        copied = parsed(position, text)
        copied.push(text)
        return copied

    def with_destinations(position: Any, text: str) -> Any:
        copied = pushed(position, text)
        copied.legal_destinations()
        return copied

    # (name, the state the call is made in, the call), in the order the server calls them.
    steps: list[tuple[str, Callable[[Any, str], Any], Callable[[Any, str], object]]] = [
        ("copy (game.position)", lambda p, t: p, lambda p, t: p.copy()),
        ("parse_move", lambda p, t: p.copy(), lambda p, t: p.parse_move(t)),
        ("two readable names", parsed, lambda p, t: (p.move_text(t, "en"), p.move_text(t, "zh"))),
        ("push", parsed, lambda p, t: p.push(t)),
        ("position_string", pushed, lambda p, t: p.position_string()),
        ("legal_destinations", pushed, lambda p, t: p.legal_destinations()),
        ("outcome", with_destinations, lambda p, t: p.outcome()),
    ]
    timed = []
    for name, prepare, call in steps:
        best = float("inf")
        for _ in range(repeat):
            states = [(prepare(p, t), t) for p, t in cases]
            start = time.process_time()
            for state, text in states:
                call(state, text)
            best = min(best, time.process_time() - start)
        timed.append((name, best))
    return timed


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
                move = Move(actor=actor, move=text, move_id=f"m{ply}")  # as clients send
                game, _ = apply(game, move, 1.0 + ply)

    rows: list[tuple[str, float]] = [("apply (the whole move)", _best(through_domain, args.repeat))]
    steps = _rules_steps(games, args.repeat)
    rows.append(("the rules' calls", sum(seconds for _, seconds in steps)))
    rows += [(f"  {name}", seconds) for name, seconds in steps]
    print(f"{len(games)} games, {total} moves; CPU µs a move, best of {args.repeat}")
    for name, seconds in rows:
        print(f"  {name:<24} {seconds / total * 1e6:8.1f}")


if __name__ == "__main__":
    main()
