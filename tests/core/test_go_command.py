"""The game-free reading of ``go`` (core/go_command.py): words and ranges, flags, the
``searchmoves`` texts, and each game's Limit built from the same command."""

from __future__ import annotations

import pytest

from doushouqi.core.go_command import MAX_MATE, check_root_moves, read_go
from doushouqi.jungle.analysis import Limit as JungleLimit
from doushouqi.tiger.analysis import Limit as TigerLimit


def test_every_parameter_reaches_the_limit_of_either_game() -> None:
    words = "depth 7 nodes 900 movetime 250 wtime 60000 btime -5 winc 0 binc 1500 movestogo 12"
    command = read_go(f"{words} mate 4 infinite".split())
    for kind in (JungleLimit, TigerLimit):
        limit = command.limit(kind)
        assert isinstance(limit, kind)
        assert (limit.depth, limit.nodes, limit.time, limit.mate) == (7, 900, 0.25, 4)
        assert limit.clock(0) == (60.0, 0.0) and limit.clock(1) == (-0.005, 1.5)
        assert limit.remaining_moves == 12 and limit.infinite
    assert command.limit(TigerLimit).tiger_clock == 60.0
    assert command.limit(JungleLimit).blue_inc == 1.5


def test_searchmoves_run_to_the_next_word_and_may_come_twice() -> None:
    command = read_go(["searchmoves", "a", "b", "depth", "2", "searchmoves", "c", "ponder"])
    assert command.searchmoves == ("a", "b", "c") and command.values == {"depth": 2}
    assert command.ponder and not command.infinite
    assert read_go([]).searchmoves is None and read_go([]).limit(TigerLimit) == TigerLimit()


@pytest.mark.parametrize(
    ("words", "message"),
    [
        ("depth 1.5", "depth: expected an integer, got '1.5'"),
        (f"mate {MAX_MATE + 1}", f"mate: expected 1..{MAX_MATE}, got {MAX_MATE + 1}"),
        ("nodes 10000000000000000", "nodes: expected at most 1000000000000000, got 1"),
        ("wtime -1000000000001", "wtime: expected -1000000000000 or more"),
        ("movetime ponder", "movetime: missing value"),
        ("Depth 3", "unknown go parameter 'Depth'"),
    ],
)
def test_a_bad_word_or_value_is_named(words: str, message: str) -> None:
    with pytest.raises(ValueError) as refused:
        read_go(words.split())
    assert str(refused.value).startswith(message)


def test_a_long_word_is_clipped_in_the_error() -> None:
    with pytest.raises(ValueError) as refused:
        read_go(["nodes", "9" * 10_000 + "x"])
    assert len(str(refused.value)) < 120 and str(refused.value).endswith("…'")


def test_root_moves_name_at_most_eight_bad_texts() -> None:
    bad = [f"z{n}" for n in range(11)]
    with pytest.raises(ValueError) as refused:
        check_root_moves(["ok", *bad], {"ok": 1}.get)
    assert str(refused.value) == (
        "searchmoves: not legal in this position: " + " ".join(bad[:8]) + " (and 3 more)"
    )
    with pytest.raises(ValueError, match="expected one or more moves"):
        check_root_moves([], {"ok": 1}.get)
