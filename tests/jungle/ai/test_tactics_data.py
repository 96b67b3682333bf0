"""The tactical test suite
(tests/jungle/ai/data/tactics.epd): its format, its size, and every answer.

Each answer is re-proved here with the exhaustive den-fight solver of tools/tactics/solver.py,
which uses only the pure-Python rules library (never the engine under test), and again with
the solver's plain-minimax reference (no memo, no move ordering, no shortcut). The solver is
also checked on a few positions whose answers are worked out by hand below.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from doushouqi.jungle.board import Board, Move
from doushouqi.jungle.rules import BUILTIN_RULE_SETS

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "tools"))
from load_tool import load_tool

DATA = Path(__file__).resolve().parent / "data" / "tactics.epd"


solver = load_tool("tactics", "solver")
suite = load_tool("tactics", "suite")

ENTRIES = suite.read_suite(DATA)
MINIMUMS = {"den1": 25, "den2": 25, "den3": 15, "defence": 25}
MIN_TOTAL = 120
MAX_ANSWERS = 3


def _param(entry: Any) -> Any:
    # Every proof takes well under a second (den-in-3 included), so none is marked slow.
    return pytest.param(entry, id=entry.id)


def _names(moves: Iterable[Move]) -> tuple[str, ...]:
    return tuple(sorted(str(m) for m in moves))


# ------------------------------------------------------------------------------------ format


def test_file_parses_with_unique_ids() -> None:
    assert ENTRIES, "the suite is empty"
    ids = [e.id for e in ENTRIES]
    assert len(ids) == len(set(ids)), [i for i, n in Counter(ids).items() if n > 1]
    for entry in ENTRIES:
        assert entry.category in suite.CATEGORIES, entry.id
        assert entry.rules in BUILTIN_RULE_SETS, entry.id
        assert entry.get("src"), f"{entry.id}: no src"
        assert entry.get("proof"), f"{entry.id}: no proof"


def test_parser_rejects_malformed_lines() -> None:
    good = 'e1R4/7/7/7/7/7/7/7/4E2 w ; rules wango ; id "den1-999" ; bm c9d9 ; dm 1'
    entry = suite.parse_line(good)
    assert entry is not None and entry.moves == ("c9d9",) and entry.depth == 1
    assert suite.parse_line("# a comment") is None
    for bad in (
        good.replace("; dm 1", ""),
        good.replace("bm c9d9", "sm c9d9"),
        good + " ; sm c9c8 ; threat 1",
        good.replace("rules wango ; ", ""),
        "e1R4/7/7/7/7/7/7/7/4E2 ; rules wango",
    ):
        with pytest.raises(suite.SuiteFormatError):
            suite.parse_line(bad)


def test_format_round_trip() -> None:
    line = suite.format_entry(
        "e1R4/7/7/7/7/7/7/7/4E2 w 0 1", "wango", "den1-1", "win", ["c9d9"], 1, [("c0", "a; b")]
    )
    entry = suite.parse_line(line)
    assert entry is not None
    assert (entry.fen, entry.moves, entry.depth, entry.get("c0")) == (
        "e1R4/7/7/7/7/7/7/7/4E2 w",
        ("c9d9",),
        1,
        "a; b",
    )


def test_category_counts_meet_the_minimums() -> None:
    counts = Counter(e.category for e in ENTRIES)
    for category, minimum in MINIMUMS.items():
        assert counts[category] >= minimum, (category, counts[category])
    motifs = sum(counts[c] for c in ("trap", "rat", "rule"))
    assert motifs >= 20, counts
    assert len(ENTRIES) >= MIN_TOTAL, counts


@pytest.mark.parametrize("entry", [_param(e) for e in ENTRIES])
def test_answers_are_legal_and_small(entry: Any) -> None:
    board = Board(entry.fen, entry.rules)
    assert board.outcome() is None
    legal = {str(m) for m in board.legal_moves}
    assert set(entry.moves) <= legal, set(entry.moves) - legal
    assert len(set(entry.moves)) == len(entry.moves)
    assert 1 <= len(entry.moves) <= MAX_ANSWERS
    if entry.kind == "defence":
        assert len(entry.moves) < len(legal), "every move is safe: not a defence puzzle"
    if entry.category.startswith("den"):
        assert entry.kind == "win" and entry.category == f"den{entry.depth}"
    if entry.category == "defence":
        assert entry.depth in (1, 2)
    if entry.category == "rule":
        assert entry.get("differs") in BUILTIN_RULE_SETS


# ------------------------------------------------------------------------------------ proofs


def _answer(board: Board, kind: str, depth: int) -> tuple[int | None, tuple[str, ...]]:
    if kind == "win":
        result = solver.solve(board, depth)
        return result.distance, result.move_names
    return depth, _names(solver.defends(board, depth))


@pytest.mark.parametrize("entry", [_param(e) for e in ENTRIES])
def test_answer_is_proved_by_the_solver(entry: Any) -> None:
    board = Board(entry.fen, entry.rules)
    assert _answer(board, entry.kind, entry.depth) == (entry.depth, tuple(sorted(entry.moves)))
    if entry.category == "defence":
        # A defence puzzle: the side to move has no forced win of its own.
        assert solver.solve(board, 3).distance is None
    other = entry.get("differs")
    if other is not None:
        contrast = _answer(Board(entry.fen, other), entry.kind, entry.depth)
        assert contrast != (entry.depth, tuple(sorted(entry.moves)))


@pytest.mark.parametrize("entry", [_param(e) for e in ENTRIES])
def test_solver_agrees_with_plain_minimax(entry: Any) -> None:
    board = Board(entry.fen, entry.rules)
    if entry.kind == "win":
        assert solver.reference_solve(board, entry.depth) == (
            entry.depth,
            tuple(sorted(entry.moves)),
        )
    else:
        assert tuple(sorted(solver.reference_defends(board, entry.depth))) == tuple(
            sorted(entry.moves)
        )


# --------------------------------------------------------------------- the solver by itself


def test_den_entry_and_annihilation_and_stalemate() -> None:
    # Red's rat on c9 enters the den; nothing else wins at once.
    result = solver.solve(Board("e1R4/7/7/7/7/7/7/7/4E2 w", "wango"), 2)
    assert (result.distance, result.move_names) == (1, ("c9d9",))
    # Blue's only animal, a lion in Red's trap e1, falls to the dog: annihilation.
    result = solver.solve(Board("7/7/7/7/7/7/E6/7/4lD1 w", "wango"), 1)
    assert (result.distance, result.move_names) == (1, ("f1e1",))
    # Blue's last animal, a cat on a9: the dog takes it, or the lion on b9 walls it in
    # (a8 and b9 both hold stronger animals), leaving Blue without a legal move (困毙).
    board = Board("c6/DL5/7/7/7/7/7/7/6T w", "wango")
    result = solver.solve(board, 1)
    assert (result.distance, result.move_names) == (1, ("a8a9", "b8b9"))
    board.push(Move.from_str("b8b9"))
    outcome = board.outcome()
    assert outcome is not None and outcome.termination.value == "no_legal_moves"


def test_no_win_and_defence_sets() -> None:
    # Blue's lion on d2 threatens d2d1; only the cat can take it (trap).
    board = Board("r5t/7/7/7/6E/7/7/2Cl3/7 w", "wango")
    assert solver.solve(board, 2).distance is None
    assert _names(solver.defends(board, 1)) == ("c2d2",)
    assert _names(solver.reference_defends(board, 1)) == ("c2d2",)


def test_history_makes_the_memo_path_aware() -> None:
    board = Board("1R5/7/7/7/7/7/7/7/E5t w", "wango")
    assert not solver.history_sensitive(board, 7)
    assert solver.history_sensitive(board, 8)
    # The rat and the tiger shuffle until the position with the rat on c9 and Blue to move
    # has stood twice: going back there now is a draw by threefold repetition, so of the two
    # den-in-2 routes (c8c9, c8d8) only c8d8 still wins.
    for text in ["b9c9", "g1g2", "c9c8", "g2g1", "c8c9", "g1g2", "c9c8", "g2g1"]:
        board.push(Move.from_str(text))
    assert solver.history_sensitive(board, 1)
    result = solver.solve(board, 2)
    assert (result.distance, result.move_names) == (2, ("c8d8",))
    assert solver.reference_solve(board, 2) == (2, ("c8d8",))
    fresh = solver.solve(Board(board.fen(), "wango"), 2)
    assert (fresh.distance, fresh.move_names) == (2, ("c8c9", "c8d8"))
