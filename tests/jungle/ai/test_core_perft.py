"""Perft of the engine core: the published international figures, and agreement with the
rules library for every rule set."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest
from tests.jungle.ai.helpers import (
    INTERNATIONAL_RESTRICTED,
    MIDGAME,
    ONLY_7_3,
    ONLY_17_5,
    ONLY_MUST_VARY,
    START,
    fen_of,
    play,
)

from doushouqi.jungle.ai import Position
from doushouqi.jungle.ai.state import S_FORBID
from doushouqi.jungle.board import Board
from doushouqi.jungle.rules import BUILTIN_RULE_SETS, RuleSet

START_PERFT = [24, 576, 12_240, 260_099, 5_111_620, 100_453_636]
MIDGAME_PERFT = [20, 303, 6_245, 102_800, 2_138_872]


@pytest.mark.parametrize("depth", range(1, 6))
def test_start_position_international(depth: int) -> None:
    assert Position(START, "international").perft(depth) == START_PERFT[depth - 1]


@pytest.mark.parametrize("depth", range(1, 5))
def test_midgame_position_international(depth: int) -> None:
    assert Position(MIDGAME, "international").perft(depth) == MIDGAME_PERFT[depth - 1]


@pytest.mark.slow
def test_start_position_international_depth_6() -> None:
    assert Position(START, "international").perft(6) == START_PERFT[5]


@pytest.mark.slow
def test_midgame_position_international_depth_5() -> None:
    assert Position(MIDGAME, "international").perft(5) == MIDGAME_PERFT[4]


def test_perft_leaves_the_position_unchanged() -> None:
    position = Position(MIDGAME, "classic")
    before = position.state[:S_FORBID].copy()
    position.perft(4)
    assert np.array_equal(position.state[:S_FORBID], before)
    assert position.ply == 0


def test_perft_divide_adds_up_to_perft() -> None:
    position = Position(START, "international")
    divided = position.perft_divide(4)
    assert len(divided) == 24
    assert sum(divided.values()) == START_PERFT[3]
    board = Board(START, "international")
    board.push_move("g3g4")
    assert divided["g3g4"] == Position.from_board(board).perft(3)


# Positions that exercise every rule option: rats in the water on jump paths (own and enemy),
# animals in traps of both sides, rat/elephant and rat/rat pairs across the water edge,
# dog/wolf contacts, lion/tiger jumps onto stronger or weaker animals, den entries.
VARIED_POSITIONS = [
    START,
    START.replace(" w", " b"),
    MIDGAME,
    fen_of("Ld5 Rf5 Tc3 Ea3 Dd2 Cb2 Wa1 rb5 cg5 tg6 wc7 ea7 la9 de3 pd8"),
    fen_of("Ld8 Rb1 Cc2 De2 Wf1 Ea2 cd7 ec1 te1 re3 lg9 dg8", "b"),
    fen_of("Da2 Rb4 Eg2 Lf3 Tc2 Wd4 wa3 rb3 ea4 pg3 lf7 tb7 dd6 cc7"),
    fen_of("Le9 Te7 Rc6 Pd7 Cd3 ra6 ed5 lg9 cf9 wc2", "w"),
    fen_of("Ld1 Tg3 Ra4 Ea3 rb4 tg7 le8 ea8".replace("Ld1", "Lc2"), "b"),
]


@pytest.mark.parametrize("rules", list(BUILTIN_RULE_SETS))
@pytest.mark.parametrize("fen", VARIED_POSITIONS)
def test_perft_matches_library(fen: str, rules: str) -> None:
    board = Board(fen, rules)
    position = Position.from_board(board)
    for depth in (1, 2, 3):
        assert position.perft(depth) == board.perft(depth), (fen, rules, depth)


# Move sequences after which the restriction rules bite, with the rule sets to try them under.
_REPEAT = "a3a4 g7g6 a4a3 g6g7 a3a4 g7g6 a4a3 g6g7"  # the start position stands a third time
_ENTER_3_TIMES = "a3a4 g7g6 a4a3 g6g5 a3a4 g5g4 a4a3 g4g5 a3a4 g5g6 a4a3 g6g7"  # 7-3
_SHUFFLE_17 = " ".join(["a3a4 0000 a4a3 0000"] * 8 + ["a3a4 0000"])  # 17 elephant moves
_WALK = (  # Red walks its elephant a3-a6 and back (next to Blue's rat at a7); Blue passes
    "a3a4 0000 a4a5 0000 a5a6 0000 a6a5 0000 a5a4 0000 a4a3 0000 a3a4"
)
HISTORIES = [
    (_REPEAT, "classic"),
    (_REPEAT, "wango"),
    (_REPEAT, ONLY_MUST_VARY),
    (_ENTER_3_TIMES, "classic"),
    (_ENTER_3_TIMES, "classic-dog"),
    (_ENTER_3_TIMES, ONLY_7_3),
    (_ENTER_3_TIMES, INTERNATIONAL_RESTRICTED),
    (_SHUFFLE_17, ONLY_17_5),
    (_WALK, "classic"),
    (_WALK, ONLY_7_3),
    (_WALK + " 0000 a4a5 0000 a5a6 0000 a6a5 0000 a5a4 0000 a4a3 0000", ONLY_17_5),
]


@pytest.mark.parametrize(("moves", "rules"), HISTORIES)
def test_perft_after_history_matches_library(moves: str, rules: str | RuleSet) -> None:
    board = play(Board(START, rules), moves)
    position = Position.from_board(board)
    for depth in (1, 2, 3):
        assert position.perft(depth) == board.perft(depth), (moves, depth)


PERFT_FILES = sorted((Path(__file__).parent.parent / "data").glob("*.perft"))


@dataclass
class PerftRecord:
    name: str
    fen: str
    rules: str
    counts: list[tuple[int, int]] = field(default_factory=list)


def read_perft_file(path: Path) -> list[PerftRecord]:
    """The records of a python-chess style perft file (``id``, ``epd``/``fen``, ``perft d n``).

    The rule set is named by the file (``classic.perft``) unless a ``rules`` line says otherwise.
    """
    name, rules = path.stem, path.stem if path.stem in BUILTIN_RULE_SETS else "wango"
    records: list[PerftRecord] = []
    for line in path.read_text("utf-8").splitlines():
        key, _, value = line.split("#", 1)[0].strip().partition(" ")
        if key == "id":
            name = value
        elif key == "rules":
            rules = value
        elif key in ("epd", "fen"):
            records.append(PerftRecord(name, value, rules))
        elif key == "perft":
            depth, count = value.split()
            records[-1].counts.append((int(depth), int(count)))
    return records


#: Larger counts are checked only in the slow run (``-m slow``).
QUICK_PERFT_LIMIT = 10_000_000


@pytest.mark.skipif(not PERFT_FILES, reason="no tests/jungle/data/*.perft files yet")
@pytest.mark.parametrize("path", PERFT_FILES, ids=[p.name for p in PERFT_FILES])
@pytest.mark.parametrize("large", [False, pytest.param(True, marks=pytest.mark.slow)])
def test_perft_files(path: Path, large: bool) -> None:
    records = read_perft_file(path)
    assert records, f"no records read from {path}"
    for record in records:
        position = Position(record.fen, record.rules)
        for depth, count in record.counts:
            if (count > QUICK_PERFT_LIMIT) is large:
                assert position.perft(depth) == count, (path.name, record.name, depth)
