"""Record visitors (python-chess's BaseVisitor idea): read_game(handle, Visitor=...) on a
multi-game archive: a visitor that counts moves, one that skips games by their tags, the calls
in the record's order, GameBuilder building the same record as read_game, and errors."""

from __future__ import annotations

import io

import pytest

from doushouqi.core.record_visitor import SKIP, BaseVisitor, HeadersBuilder, Skip, SkipVisitor
from doushouqi.jungle.record import RecordError, read_game, read_records
from doushouqi.jungle.record.visitor import GameBuilder

ARCHIVE = (
    '[Event "one"]\n[Red "Li"]\n[Rules "classic"]\n\n'
    "1. a3a4 {up} (1. g3g4 $6 (1. g1g2) 1... a7a6) 1... a7a6 $1 2. a4a5 *\n\n"
    '[Event "two"]\n[Rules "wango"]\n[RuleOption "parent wango"]\n'
    '[RuleOption "no_capture_draw_rounds 40"]\n\n{a start} 1. g3g4 g7g6 1/2-1/2\n\n'
    '[Event "three"]\n[Red "Wang"]\n[FEN "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w"]\n\n'
    "1. a3a4 *\n"
)


class MoveCounter(BaseVisitor[tuple[int, int]]):
    """The main line's moves and every move, side lines included."""

    def begin_game(self) -> None:
        self.depth = self.main = self.every = 0

    def visit_move(self, board, move) -> None:
        self.every += 1
        self.main += self.depth == 0

    def begin_variation(self) -> None:
        self.depth += 1

    def end_variation(self) -> None:
        self.depth -= 1

    def result(self) -> tuple[int, int]:
        return self.main, self.every


class RedGames(BaseVisitor[str | bool]):
    """The movetext's last move of the games with a Red tag; False for the others, whose
    moves are skipped unread."""

    def begin_game(self) -> None:
        self.red = False
        self.last = ""

    def visit_header(self, name: str, value: str) -> None:
        self.red = self.red or name == "Red"

    def end_headers(self) -> Skip | None:
        return None if self.red else SKIP

    def visit_move(self, board, move) -> None:
        self.last = str(move)

    def begin_variation(self) -> Skip:
        return SKIP

    def result(self) -> str | bool:
        return self.last if self.red else False


def read_all(visitor) -> list:
    handle, found = io.StringIO(ARCHIVE), []
    while (result := read_game(handle, Visitor=visitor)) is not None:
        found.append(result)
    return found


def test_a_visitor_counts_the_moves_of_every_game() -> None:
    assert read_all(MoveCounter) == [(3, 6), (2, 2), (1, 1)]


def test_a_visitor_skips_games_by_their_tags_and_side_lines() -> None:
    assert read_all(RedGames) == ["a4a5", False, "a3a4"]


def test_a_skipped_movetext_is_not_even_read() -> None:
    # The second game's moves are illegal: the default reader refuses them, a visitor that
    # skips them after the tags never parses them.
    text = ARCHIVE.replace("1. g3g4 g7g6", "1. g3g9 g7g6")
    with pytest.raises(RecordError, match="illegal move g3g9"):
        read_records(text)
    handle, found = io.StringIO(text), []
    while (result := read_game(handle, Visitor=RedGames)) is not None:
        found.append(result)
    assert found == ["a4a5", False, "a3a4"]


def test_game_builder_builds_the_records_that_read_game_returns() -> None:
    built = read_all(GameBuilder)
    assert built == read_records(ARCHIVE) and len(built) == 3
    assert built[0].variations and built[1].rules.no_capture_draw_rounds == 40


def test_the_calls_come_in_the_records_order() -> None:
    calls: list[str] = []

    class Recorder(BaseVisitor[None]):
        def __getattribute__(self, name: str):
            method = object.__getattribute__(self, name)
            if name.startswith(("begin_", "visit_", "end_")):

                def record(*args):
                    shown = [str(a) for a in args if not hasattr(a, "push")]  # not the board
                    calls.append(" ".join([name, *shown]))
                    return method(*args)

                return record
            return method

        def result(self) -> None:
            return None

    read_game(io.StringIO(ARCHIVE), Visitor=Recorder)
    assert calls == [
        "begin_game",
        "begin_headers",
        "visit_header Event one",
        "visit_header Red Li",
        "visit_header Rules classic",
        "end_headers",
        "visit_board",
        "visit_move a3a4",
        "visit_comment up",
        "begin_variation",
        "visit_move g3g4",
        "visit_nag 6",
        "visit_move a7a6",
        "end_variation",
        "begin_variation",  # (1. g1g2) replaced the side line's first move: a sibling line
        "visit_move g1g2",
        "end_variation",
        "visit_move a7a6",
        "visit_nag 1",
        "visit_move a4a5",
        "visit_result *",
        "end_game",
    ]


def test_headers_and_skip_visitors_scan_the_archive() -> None:
    handle = io.StringIO(ARCHIVE)
    assert read_game(handle, Visitor=HeadersBuilder)["Red"] == "Li"
    second = read_game(handle, Visitor=HeadersBuilder)
    assert second["RuleOption"] == "parent wango; no_capture_draw_rounds 40"
    assert read_game(handle, Visitor=SkipVisitor) is True
    assert read_game(handle, Visitor=SkipVisitor) is None


def test_a_bad_game_raises_and_the_next_one_is_read() -> None:
    text = ARCHIVE.replace("2. a4a5", "2. a4a9")
    handle = io.StringIO(text)
    with pytest.raises(RecordError, match="illegal move a4a9") as caught:
        read_game(handle, Visitor=MoveCounter)
    assert caught.value.game == 1 and caught.value.line == 5
    assert read_game(handle, Visitor=MoveCounter) == (2, 2)
