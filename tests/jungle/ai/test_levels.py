"""The playing levels: fixed node budgets, so a level is the same opponent at any speed."""

from __future__ import annotations

from doushouqi.jungle.ai import Searcher
from doushouqi.jungle.ai.levels import LEVELS, MAX_LEVEL
from doushouqi.jungle.analysis import Limit
from doushouqi.jungle.board import Board

#: Nodes a second a slow or busy machine still searches (a free core here does about 4 M).
SLOW_NODES_PER_SECOND = 1_500_000


def test_effort_and_precision_grow_with_the_level() -> None:
    levels = [LEVELS[n] for n in range(1, MAX_LEVEL)]
    assert LEVELS[MAX_LEVEL].max_nodes is None and LEVELS[MAX_LEVEL].max_depth is None
    caps_from_six = [s.max_nodes for s in levels[5:]]
    assert all(cap is not None for cap in caps_from_six)
    assert caps_from_six == sorted(caps_from_six) and len(set(caps_from_six)) == len(caps_from_six)
    depths = [s.max_depth for s in levels[:5]]
    assert depths == [1, 2, 3, 4, 5]
    noise = [s.noise for s in LEVELS.values()]
    assert noise == sorted(noise, reverse=True) and noise[-1] == 0
    shares = [s.time_share for s in LEVELS.values()]
    assert shares == sorted(shares) and shares[-1] == 1.0


def test_node_capped_levels_reach_their_cap_within_their_time_share() -> None:
    # At the server's second a move, the time share is only a safety net: a node-capped level
    # must reach its cap well inside it, or a busy machine would make it weaker.
    for settings in LEVELS.values():
        if settings.max_depth is None and settings.max_nodes is not None:
            reachable = settings.time_share * 1.0 * SLOW_NODES_PER_SECOND
            assert reachable >= settings.max_nodes, settings


def test_a_level_plays_the_same_move_with_plenty_of_time_or_a_node_budget() -> None:
    board = Board()
    for move in ("a3a4", "g7g6", "c3d3", "a7a6"):
        board.push(board.parse_move(move))
    # Plenty: the node cap stops the search long before, even on a crowded machine.
    timed = Searcher(hash_mb=4, seed=3).search(board, Limit(movetime=60.0), level=7)
    counted = Searcher(hash_mb=4, seed=3).search(board, Limit(nodes=10_000_000), level=7)
    assert timed.move == counted.move
    assert timed.info["nodes"] == counted.info["nodes"]
    cap = LEVELS[7].max_nodes
    assert cap is not None and cap <= timed.info["nodes"] < cap + 5_000
