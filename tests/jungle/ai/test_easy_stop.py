"""The easy stop (``easy_stop``): a full-strength search whose best move has stood for a few
depths stops before its budget is spent; node budgets, weaker levels and the knob at 0 search
theirs whole."""

from __future__ import annotations

import io
import itertools
import time
import types
from collections.abc import Iterator
from typing import Any

import pytest

from doushouqi.jungle.ai import Searcher, search_driver
from doushouqi.jungle.ai.protocol import DEFAULT_EASY_STOP, EngineProtocol
from doushouqi.jungle.analysis import Limit
from doushouqi.jungle.board import Board

NODES = 400_000


def _searcher(**tuning: int) -> Searcher:
    engine = Searcher("wango", hash_mb=16)
    engine.tuning.update(tuning)
    return engine


def _board() -> Board:
    board = Board()
    board.replay(["g3g4", "a7a6", "g4g5"])
    return board


def test_a_standing_best_move_stops_a_node_budget_early_when_asked() -> None:
    board = _board()
    whole = _searcher(easy_stop=0, easy_stop_nodes=1).search(board, Limit(nodes=NODES))
    early = _searcher(easy_stop=50, easy_stop_nodes=1).search(board, Limit(nodes=NODES))
    assert whole.info["nodes"] >= 0.9 * NODES
    assert early.info["nodes"] < 0.85 * NODES  # ended after a depth, before its budget
    assert early.move in board.legal_moves


@pytest.mark.parametrize(("level", "tuning"), [(10, {"easy_stop_nodes": 0}), (9, {})])
def test_node_budgets_and_weaker_levels_search_their_budget_whole(
    level: int, tuning: dict[str, int]
) -> None:
    engine = _searcher(easy_stop=50, **{"easy_stop_nodes": 1, **tuning})
    result = engine.search(_board(), Limit(nodes=NODES), level=level)
    assert result.info["nodes"] >= 0.9 * NODES


def _clock_at(fraction: float, movetime: float) -> Iterator[float]:
    """The driver's clock: the search starts now, then every reading is ``fraction`` of the
    move time later (the real deadline timer, as far off, never fires)."""
    now = time.perf_counter()
    return itertools.chain([now], itertools.repeat(now + fraction * movetime))


@pytest.mark.parametrize(
    ("easy_stop", "fraction", "options", "stops"),
    [
        (50, 0.6, {}, True),
        (50, 0.1, {}, False),
        (0, 0.6, {}, False),
        # Analysis (several lines, or asked for) uses its whole time: its depth is its point.
        (50, 0.6, {"multipv": 3}, False),
        (50, 0.6, {"whole_time": True}, False),
        # Given less than the full time (a busy server): the share counted is of the full
        # time, 0.6 of the move time given being 0.2 of it; a full time no longer than the
        # time given changes nothing.
        (50, 0.6, {"full_time": 3 * 600.0}, False),
        (50, 0.6, {"full_time": 600.0}, True),
        (50, 0.9, {"full_time": 1.5 * 600.0}, True),
    ],
)
def test_a_timed_search_stops_early_once_it_has_used_its_share(
    monkeypatch: pytest.MonkeyPatch,
    easy_stop: int,
    fraction: float,
    options: dict[str, Any],
    stops: bool,
) -> None:
    movetime = 600.0
    clock = _clock_at(fraction, movetime)
    fake_time = types.SimpleNamespace(perf_counter=lambda: next(clock), sleep=time.sleep)
    monkeypatch.setattr(search_driver, "time", fake_time)
    # The node cap ends the searches that do not stop early.
    limit = Limit(movetime=movetime, nodes=NODES)
    result = _searcher(easy_stop=easy_stop).search(_board(), limit, **options)
    assert (result.info["nodes"] < 0.5 * NODES) is stops, result.info


def test_the_protocol_sets_the_easy_stop() -> None:
    engine = Searcher("wango", hash_mb=1)
    out = io.StringIO()
    protocol = EngineProtocol(out, engine)
    protocol.run(["uci", "setoption name EasyStop value 101", "setoption name EasyStop value x",
                  "setoption name EasyStop value 0", "isready"])  # fmt: skip
    answers = out.getvalue().splitlines()
    default = f"option name EasyStop type spin default {DEFAULT_EASY_STOP} min 0 max 100"
    assert default in answers
    errors = [line for line in answers if line.startswith("info string error")]
    assert len(errors) == 2 and all("EasyStop" in line for line in errors)
    assert protocol.engine.tuning["easy_stop"] == 0
    protocol.run(["setoption name EasyStop value 35", "isready"])
    assert protocol.engine.tuning["easy_stop"] == 35
