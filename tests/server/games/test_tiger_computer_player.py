"""The Tiger's computer player as the AI service runs it (the real engine, through the game
interface): a legal move for either side, lines with scores, a forced win as ``win``, and
nothing when the game is over."""

from __future__ import annotations

from tests.support.tiger_moves import CAPTURE, TRAP

from doushouqi.core.game import Position, get_game
from doushouqi.server.games.registry import engine_of
from doushouqi.tiger.board import Board

TIGER = get_game("tiger")


def position(*moves: str) -> Position:
    rules = TIGER.parse_rules("laohuqi")
    found = TIGER.new_position(rules, TIGER.start_position(rules))
    for text in moves:
        found.push(found.parse_move(text))
    return found


def test_the_engine_moves_for_the_tiger_and_for_the_men() -> None:
    engine = engine_of("tiger")
    engine.warm_up()
    for moves in ((), ("e10e9",)):
        move, nodes = engine.best_move(position(*moves), 3, 0.2, 0.2)
        board = Board()
        for text in moves:
            board.push_move(text)
        assert move is not None and board.parse_move(move) in board.legal_moves
        assert nodes > 0


def test_analysis_gives_distinct_lines_best_first_with_scores() -> None:
    lines = engine_of("tiger").analyse(position(), 5, 0.3, 3)
    assert len(lines) == 3
    assert len({line["pv"][0] for line in lines}) == 3
    for line in lines:
        assert set(line["score"]) == {"cp"} and line["depth"] >= 1


def test_a_forced_win_is_a_win_score_and_a_finished_game_has_no_move() -> None:
    engine = engine_of("tiger")
    lines = engine.analyse(position(*TRAP[:-1]), 4, 0.3, 1)
    assert lines[0]["pv"][0] == TRAP[-1] and lines[0]["score"] == {"win": 1}
    assert engine.best_move(position(*TRAP), 4, 0.1, 0.1) == (None, 0)
    assert engine.analyse(position(*TRAP), 4, 0.1, 2) == []


def test_the_search_free_score_counts_the_men_taken_for_the_side_to_move() -> None:
    static = engine_of("tiger").static_score
    assert static(position()) == {"cp": 0}
    after_capture = position(*CAPTURE)  # the tiger has taken a man; the men move
    assert static(after_capture) == {"cp": -100}
