"""What the Tiger's RL tests share: random games, rule variants, and every move the actions
can make from a position (walked action by action, jump chains included)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from doushouqi.tiger.board import Board
from doushouqi.tiger.moves import Move
from doushouqi.tiger.rl import ActionBoard
from doushouqi.tiger.rules import BUILTIN_RULE_SETS, RuleSet, rules_from_mapping

NAMED = list(BUILTIN_RULE_SETS)


def variant(parent: str = "laohuqi", **options: Any) -> RuleSet:
    """A named rule set with some options changed."""
    return rules_from_mapping("variant", {"parent": parent, **options})


#: Named rule sets and variants that exercise every option the actions depend on: the three
#: diagonals options, multi-jumps (with and without mandatory captures), men that never
#: retreat, a round limit, two tigers, and no win by captures.
RULE_SETS: list[str | RuleSet] = [
    *NAMED,
    variant(diagonals="nest"),
    variant(diagonals="all", multi_jump=True),
    variant("laohuqi-south", multi_jump=True, capture_mandatory=True, diagonals="all"),
    variant("laohuqi-18", multi_jump=True, men_retreat=False),
    variant(multi_jump=True, tiger_wins_below=0, max_rounds=60),
]


def rule_id(rules: object) -> str:
    """A test id: a rule set's name, or the options a variant changes."""
    if not isinstance(rules, RuleSet):
        return str(rules)
    changed = {
        key: value
        for key, value in rules.to_mapping().items()
        if key not in ("name", "description") and value != RuleSet().to_mapping()[key]
    }
    return ",".join(f"{key}={value}" for key, value in changed.items())


def random_game(rules: str | RuleSet, seed: int, max_plies: int = 300) -> Iterator[Board]:
    """Every position of one random game of whole moves (the same board, advanced a ply at a
    time), until the game ends or ``max_plies``."""
    rng = np.random.default_rng(seed)
    board = Board(rules=rules)
    for _ in range(max_plies):
        yield board
        if board.outcome() is not None:
            return
        moves = list(board.generate_legal_moves())
        board.push(moves[int(rng.integers(len(moves)))])


def moves_by_actions(game: ActionBoard) -> dict[Move, list[int]]:
    """Every whole move the legal actions can make from here, with the actions that make it
    (walking each open chain to its every end)."""
    found: dict[Move, list[int]] = {}

    def walk(state: ActionBoard, actions: list[int]) -> None:
        for action in state.legal_actions():
            after = state.copy()
            move = after.apply(action)
            if move is None:
                walk(after, [*actions, action])
            else:
                assert move not in found, f"{move} made twice"
                found[move] = [*actions, action]

    walk(game, [])
    return found
