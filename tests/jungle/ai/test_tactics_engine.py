"""The engine solves every position of the tactical suite (tests/jungle/ai/data/tactics.epd).

One second per move, level 10. A search stops by itself once it has proven a den win or loss,
so most positions take milliseconds (the whole suite solves even at 0.02 s per move; see
bench/tactics.py for timings).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from doushouqi.jungle.ai import Searcher
from doushouqi.jungle.analysis import Limit, Score
from doushouqi.jungle.board import Board

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "tools"))
from load_tool import load_tool

DATA = Path(__file__).resolve().parent / "data" / "tactics.epd"


ENTRIES = load_tool("tactics", "suite").read_suite(DATA)


@pytest.fixture(scope="module")
def engines() -> dict[str, Searcher]:
    return {}


@pytest.mark.parametrize("entry", [pytest.param(e, id=e.id) for e in ENTRIES])
def test_engine_solves(engines: dict[str, Searcher], entry: object) -> None:
    board = Board(entry.fen, entry.rules)  # type: ignore[attr-defined]
    engine = engines.get(board.rules.name)
    if engine is None:
        engine = engines[board.rules.name] = Searcher(board.rules, hash_mb=16)
        engine.warm_up()
    result = engine.search(board, Limit(movetime=1.0))
    answers = entry.moves  # type: ignore[attr-defined]
    assert str(result.move) in answers, (
        f"played {result.move} (score {result.info.get('score')}, depth "
        f"{result.info.get('depth')}), expected one of {' '.join(answers)}"
    )


UNPRUNED = {"null_move": 0, "lmr": 0, "futility_margin": 10**6}


@pytest.mark.parametrize("entry", [pytest.param(e, id=e.id) for e in ENTRIES])
def test_pruning_is_sound_in_den_fights(engines: dict[str, Searcher], entry: object) -> None:
    """Null move, late-move reductions and reverse futility change no den-fight answer: at a
    fixed depth that covers the fight, the pruned search finds what the unpruned one finds."""
    board = Board(entry.fen, entry.rules)  # type: ignore[attr-defined]
    plies = 2 * entry.depth + (1 if entry.kind == "win" else 2)  # type: ignore[attr-defined]
    results = []
    for tuning in ({}, UNPRUNED):
        engine = Searcher(board.rules, hash_mb=4)
        engine.tuning.update(tuning)
        results.append(engine.search(board, Limit(depth=plies)))
    pruned, unpruned = results
    answers = entry.moves  # type: ignore[attr-defined]
    assert str(pruned.move) in answers and str(unpruned.move) in answers
    if entry.kind == "win":  # type: ignore[attr-defined]
        assert pruned.info["score"] == unpruned.info["score"] == Score(mate=entry.depth)  # type: ignore[attr-defined]
