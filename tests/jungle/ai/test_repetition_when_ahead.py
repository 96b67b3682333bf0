"""The side well ahead keeps away from positions the game has already seen (issue 31): once a
position has stood twice, the side behind can often force the third occurrence, a draw."""

from __future__ import annotations

from doushouqi.jungle.ai import Searcher
from doushouqi.jungle.ai.core import Position
from doushouqi.jungle.ai.search_node import DRAWN, NOT_DRAWN, SECOND_OCCURRENCE, draw_kind
from doushouqi.jungle.analysis import Limit
from doushouqi.jungle.board import Board

# Both sides shuffle: red's lion a1-b1, blue's elephant g9-g8.
SHUFFLE = ["a1b1", "g9g8", "b1a1", "g8g9"]


def _drawn_after(moves: list[str], root_ply: int, repeat_from: int) -> int:
    board = Board("5le/7/7/7/7/7/2T1E2/7/L6 w")
    board.replay(moves)
    position = Position.from_board(board)
    return int(
        draw_kind(position.state, position.history, position.compiled_rules, root_ply, repeat_from)
    )


def test_a_second_occurrence_counts_only_where_asked() -> None:
    # The start stands a second time after four plies: a draw inside the search (the root
    # before it), a second occurrence where the root side counts them, else nothing.
    assert _drawn_after(SHUFFLE, root_ply=0, repeat_from=0) == DRAWN
    assert _drawn_after(SHUFFLE, root_ply=4, repeat_from=4) == NOT_DRAWN
    assert _drawn_after(SHUFFLE, root_ply=4, repeat_from=0) == SECOND_OCCURRENCE
    # The third occurrence is a draw by the rules whatever the root side counts.
    assert _drawn_after(SHUFFLE * 2, root_ply=8, repeat_from=8) == DRAWN
    assert _drawn_after(SHUFFLE * 2, root_ply=8, repeat_from=0) == DRAWN


def test_the_side_ahead_does_not_let_a_position_stand_twice() -> None:
    # From self-play (bench/repetition_draws.py, level 10 against level 6, job 77): red is
    # ahead by a lion and more (+1000). c2c1 makes the position after c2c1 (played four plies
    # ago) stand a second time; blue's elephant then shuttles c3-d3 and red, whose other
    # moves lose its den beyond a 20k-node search's horizon, must let it stand a third time.
    # Counting a return as a quarter draw, red plays on elsewhere (c8b8, +772 at this budget).
    board = Board("1d5/2L1p2/7/7/7/7/2De3/3P1t1/CW2E2 w 18 93", rules="wango")
    board.replay(["e1e2", "f2f1", "c3c2", "d3c3", "c2c1", "c3d3", "c1c2", "d3c3"])
    moves = {}
    for twofold_lead in (200, 0):
        engine = Searcher("wango", hash_mb=16)
        engine.tuning["twofold_lead"] = twofold_lead
        moves[twofold_lead] = str(engine.search(board, Limit(nodes=20_000)).move)
    assert moves[0] == "c2c1"  # without: back to the position of four plies ago
    assert moves[200] != "c2c1"
