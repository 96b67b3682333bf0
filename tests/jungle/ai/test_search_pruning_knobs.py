"""The search knobs of issue 31's second round (docs/engine-research.md, "Search, second
round"): off by default but internal iterative reduction (on since its 1,200 games), and each
one reaches the compiled search (a search to a fixed depth visits another number of nodes
with it turned from its default), while the tactical answers stay right."""

from __future__ import annotations

import pytest

from doushouqi.jungle.ai import Searcher, search_node
from doushouqi.jungle.ai.core import Position
from doushouqi.jungle.ai.search_driver import DEFAULT_TUNING
from doushouqi.jungle.analysis import Limit
from doushouqi.jungle.board import Board
from doushouqi.jungle.squares import RED

#: A middlegame with enemy animals near both dens (bench/search.py's fourth position).
MIDDLEGAME = "4tc1/1ldwL2/2p4/7/3eR2/1r5/2EP3/1C1WD2/1T5 w 50 26"
#: Each knob and a value other than its default (IIR, on by default, turned off).
KNOBS = {
    "lmp": 3,
    "quiet_futility": 150,
    "iir": 0,
    "lmr_percent": 160,
    "qsearch_see": 1,
    "lmr_in_danger": 1,
    "danger_moves": 2,  # alone the old rule (below): it changes the search with danger_guards
}


def nodes_to_depth(tuning: dict[str, int], depth: int = 8) -> int:
    engine = Searcher("wango", hash_mb=4)
    engine.tuning.update(tuning)
    result = engine.search(Board(MIDDLEGAME, "wango"), Limit(depth=depth))
    assert result.move is not None
    nodes: int = result.info["nodes"]
    return nodes


def test_the_knobs_are_off_by_default_but_iir() -> None:
    assert {key: DEFAULT_TUNING[key] for key in KNOBS} == {
        "lmp": 0,
        "quiet_futility": 0,
        "iir": 1,
        "lmr_percent": 100,
        "qsearch_see": 0,
        "lmr_in_danger": 0,
        "danger_moves": 0,
    }
    assert DEFAULT_TUNING["danger_guards"] == 0


@pytest.mark.parametrize("knob", sorted(set(KNOBS) - {"danger_moves"}))
def test_each_knob_changes_the_search(knob: str) -> None:
    assert nodes_to_depth({knob: KNOBS[knob]}) != nodes_to_depth({})


# The finer danger rule of issue 31's third round (docs/engine-research.md, "Search, third
# round: the danger rule").


def runner_danger(fen: str, moves: int, guards: int) -> bool:
    """The rule for the side to move (Red in these positions)."""
    position = Position.from_board(Board(fen, "wango"))
    return bool(search_node.runner_danger(position.state, RED, moves, guards))


#: A Blue wolf on c3 is two moves from Red's traps c1 and d2; Red's elephant on g4 is four
#: moves from standing next to either.
WOLF_UNGUARDED = "7/7/7/7/7/6E/2w4/7/7 w 0 1"
#: The same with a Red dog on c2, next to both traps: the wolf is no danger while it is alone...
WOLF_GUARDED = "7/7/7/7/7/6E/2w4/2D4/7 w 0 1"
#: ... but with a Blue lion on e3 as well, two runners reach d2 in two moves against one guard.
TWO_RUNNERS = "7/7/7/7/7/6E/2w1l2/2D4/7 w 0 1"


def test_a_runner_within_reach_is_danger_unless_guarded() -> None:
    assert runner_danger(WOLF_UNGUARDED, 2, 0) and runner_danger(WOLF_UNGUARDED, 2, 1)
    assert not runner_danger(WOLF_UNGUARDED, 1, 0)  # two moves away: not within one
    assert runner_danger(WOLF_GUARDED, 2, 0)
    assert not runner_danger(WOLF_GUARDED, 2, 1) and not runner_danger(WOLF_GUARDED, 2, 2)
    assert not runner_danger(TWO_RUNNERS, 2, 1) and runner_danger(TWO_RUNNERS, 2, 2)


def test_the_runners_move_by_their_kind() -> None:
    """A lion on c7 jumps the lake to c3 and stands on c1 in three moves; a wolf there walks
    around the lake (six moves): the Manhattan rule counts both seven steps from the den."""
    assert runner_danger("7/7/2l4/7/7/7/7/7/6E w 0 1", 3, 0)
    assert not runner_danger("7/7/2w4/7/7/7/7/7/6E w 0 1", 3, 0)


def test_within_two_moves_is_the_manhattan_rule() -> None:
    """No jump or swim reaches a trap in one or two moves from farther than the den's Manhattan
    radius 2 or 3: on a board without those, the tables' rule is the old one, node for node."""
    for moves, radius in ((2, 3), (1, 2)):
        by_tables = nodes_to_depth({"danger_moves": moves, "danger_guards": 0})
        assert by_tables == nodes_to_depth({"danger_moves": 0, "danger_radius": radius})


def test_guards_change_the_search() -> None:
    unguarded = nodes_to_depth({"danger_moves": 2, "danger_guards": 0})
    assert nodes_to_depth({"danger_moves": 2, "danger_guards": 1}) != unguarded
    assert nodes_to_depth({"danger_moves": 2, "danger_guards": 2}) != unguarded
