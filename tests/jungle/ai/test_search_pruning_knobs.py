"""The search knobs of issue 31's second round (docs/engine-research.md, "Search, second
round"): off by default, and each one reaches the compiled search (a search to a fixed depth
visits another number of nodes with it on), while the tactical answers stay right."""

from __future__ import annotations

import pytest

from doushouqi.jungle.ai import Searcher
from doushouqi.jungle.ai.search_driver import DEFAULT_TUNING
from doushouqi.jungle.analysis import Limit
from doushouqi.jungle.board import Board

#: A middlegame with enemy animals near both dens (bench/search.py's fourth position).
MIDDLEGAME = "4tc1/1ldwL2/2p4/7/3eR2/1r5/2EP3/1C1WD2/1T5 w 50 26"
#: Each knob and a value that turns it on.
KNOBS = {
    "lmp": 3,
    "quiet_futility": 150,
    "iir": 1,
    "lmr_percent": 160,
    "qsearch_see": 1,
    "lmr_in_danger": 1,
}


def nodes_to_depth(tuning: dict[str, int], depth: int = 8) -> int:
    engine = Searcher("wango", hash_mb=4)
    engine.tuning.update(tuning)
    result = engine.search(Board(MIDDLEGAME, "wango"), Limit(depth=depth))
    assert result.move is not None
    nodes: int = result.info["nodes"]
    return nodes


def test_the_knobs_are_off_by_default() -> None:
    assert {key: DEFAULT_TUNING[key] for key in KNOBS} == {
        "lmp": 0,
        "quiet_futility": 0,
        "iir": 0,
        "lmr_percent": 100,
        "qsearch_see": 0,
        "lmr_in_danger": 0,
    }


@pytest.mark.parametrize("knob", sorted(KNOBS))
def test_each_knob_changes_the_search(knob: str) -> None:
    assert nodes_to_depth({knob: KNOBS[knob]}) != nodes_to_depth({})
