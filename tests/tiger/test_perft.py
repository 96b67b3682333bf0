"""Perft: the library's move generator against a second, independent one.

``data/<rule set>.perft`` (python-chess's format, one file per named rule set) hold leaf counts
computed by the reference generator of tests/support/tiger_reference.py, which shares no code
with :mod:`doushouqi.tiger`. The library must reproduce them; the reference re-checks the
shallow ones (so the files stay the reference's); and for the options no named set uses
(diagonals, multi-jumps, mandatory captures, men who may not retreat, thresholds), the two
generators are compared directly, on fixed positions and on random ones (Hypothesis).
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.support import tiger_reference as ref
from tests.support.perft import read_perft_file

from doushouqi.tiger.board import Board
from doushouqi.tiger.moves import Move
from doushouqi.tiger.rules import BUILTIN_RULE_SETS, rules_from_mapping

DATA = Path(__file__).parent / "data"
PERFT_FILES = sorted(DATA.glob("*.perft"))
#: Counts up to this many leaves run in the normal test run; larger ones are marked slow.
FAST_LEAVES = 150_000
#: The reference re-checks counts up to this many leaves.
REFERENCE_LEAVES = 3_000


def _cases(limit: int, slow_above: int | None) -> list[Any]:
    cases = []
    for path in PERFT_FILES:
        for position in read_perft_file(path):
            for depth, count in position.counts:
                if count > limit:
                    continue
                marks = [pytest.mark.slow] if slow_above and count > slow_above else []
                cases.append(
                    pytest.param(
                        path.stem,
                        position.epd,
                        depth,
                        count,
                        marks=marks,
                        id=f"{path.stem}-{position.id}-{depth}",
                    )
                )
    return cases


@pytest.mark.parametrize(("rules", "epd", "depth", "count"), _cases(10**12, FAST_LEAVES))
def test_the_library_reproduces_the_files(rules: str, epd: str, depth: int, count: int) -> None:
    board = Board(epd, rules)
    assert board.perft(depth) == count
    assert board.position_string() == epd and board.ply() == 0


@pytest.mark.parametrize(("rules", "epd", "depth", "count"), _cases(REFERENCE_LEAVES, None))
def test_the_files_are_the_references(rules: str, epd: str, depth: int, count: int) -> None:
    placement, side = ref.read(epd)
    assert ref.perft(placement, side, ref.NAMED[rules], depth) == count


def test_every_named_set_has_a_perft_file() -> None:
    assert {path.stem for path in PERFT_FILES} == set(BUILTIN_RULE_SETS) == set(ref.NAMED)
    for path in PERFT_FILES:
        positions = read_perft_file(path)
        assert len(positions) >= 4, path.name
        assert len({p.id for p in positions}) == len(positions)
        assert positions[0].id == "start"
        assert positions[0].epd == Board(rules=path.stem).position_string()
        for position in positions:
            depths = [depth for depth, _ in position.counts]
            assert depths == list(range(1, len(depths) + 1)) and len(depths) >= 4, position.id


def test_the_reference_knows_the_named_sets() -> None:
    # Written out again in the reference: they must say what the data file says.
    for name, options in ref.NAMED.items():
        mapping = BUILTIN_RULE_SETS[name].to_mapping()
        assert {key: mapping[key] for key in options} == options


# ---------------------------------------------------------------- options, both generators

# ``first`` is left out: it changes the start and the move numbers, not the moves from a
# position (tests/tiger/test_movement.py).
OPTION_SETS: list[dict[str, Any]] = [
    {"diagonals": "nest"},
    {"diagonals": "all"},
    {"multi_jump": True},
    {"capture_mandatory": True},
    {"multi_jump": True, "capture_mandatory": True, "diagonals": "all"},
    {"men_retreat": False},
    {"tiger_wins_below": 8},
    {"tigers": 2, "multi_jump": True, "diagonals": "nest"},
    {"men": 18, "diagonals": "all", "men_retreat": False},
]
POSITIONS = [
    "3/3/9/9/4M4/3M1M3/3MT4/4M4/2M3M2/9/M7M t 0 1",  # jumps around e5
    "3/TM1/3MMM3/4M4/9/9/9/9/9/9/MMMMM4 m 0 1",  # the nest
    "M1M/MTM/1M1M1M3/9/9/9/9/9/9/9/9 t 0 1",  # the tiger in the nest, men on its diagonals
    "3/3/9/9/3M1M3/4M4/1M1MTM3/4M4/3M1M3/9/9 t 0 1",  # a star of men: chains of jumps
    "3/3/9/9/9/9/9/9/9/MMMMMMMMM/MMMMMMMMM m 0 1",  # 18 men, no tiger placed yet: see below
]


def _options(extra: dict[str, Any]) -> dict[str, Any]:
    return {**ref.DEFAULT, **extra}


def _fits(text: str, options: dict[str, Any]) -> str | None:
    """The position under the options: tigers added or removed to match their count."""
    placement, side = ref.read(text)
    tigers = sorted(p for p, piece in placement.items() if piece == "T")
    men = sum(1 for piece in placement.values() if piece == "M")
    if men > options["men"]:
        return None
    for spare in [(4, 10), (4, 6), (3, 10), (0, 9)]:
        if len(tigers) >= options["tigers"]:
            break
        if spare not in placement:
            placement[spare] = "T"
            tigers.append(spare)
    while len(tigers) > options["tigers"]:
        del placement[tigers.pop()]
    return ref.write(placement, side)


CASES = [
    pytest.param(extra, text, id=f"{'-'.join(f'{k}={v}' for k, v in extra.items())}-{n}")
    for extra, (n, text) in itertools.product(OPTION_SETS, enumerate(POSITIONS))
    if _fits(text, _options(extra)) is not None
]


@pytest.mark.parametrize(("extra", "text"), CASES)
def test_both_generators_agree_under_every_option(extra: dict[str, Any], text: str) -> None:
    options = _options(extra)
    position = _fits(text, options)
    assert position is not None
    rules = rules_from_mapping("options", {"parent": "laohuqi", **extra})
    board = Board(position, rules)
    placement, side = ref.read(position)
    # The moves themselves at the root and one ply down, then counts to depth 3.
    assert sorted(map(str, board.generate_legal_moves())) == sorted(
        ref.moves(placement, side, options)
    )
    other = "m" if side == "t" else "t"
    for move in ref.moves(placement, side, options):
        board.push(Move.from_str(move))
        after = ref.play(placement, move)
        assert board.position_string().split()[0] == ref.write(after, other).split()[0]
        assert sorted(map(str, board.generate_legal_moves())) == sorted(
            ref.moves(after, other, options)
        )
        board.pop()
    assert board.perft(3) == ref.perft(placement, side, options, 3)


# ---------------------------------------------------------------- random positions

POINT_LIST = [(f, r) for r in range(1, 10) for f in range(9)] + [
    (f, r) for r in (10, 11) for f in (3, 4, 5)
]


@st.composite
def positions(draw: st.DrawFn) -> tuple[dict[str, Any], str]:
    options = {
        "diagonals": draw(st.sampled_from(["none", "nest", "all"])),
        "men": draw(st.sampled_from([12, 18])),
        "tigers": draw(st.sampled_from([1, 2])),
        "first": draw(st.sampled_from(["tiger", "men"])),
        "men_retreat": draw(st.booleans()),
        "multi_jump": draw(st.booleans()),
        "capture_mandatory": draw(st.booleans()),
    }
    options["tiger_wins_below"] = draw(st.integers(0, 5))
    points = draw(st.permutations(POINT_LIST))
    men = draw(st.integers(0, options["men"]))
    placement = {p: "T" for p in points[: options["tigers"]]}
    placement |= {p: "M" for p in points[options["tigers"] : options["tigers"] + men]}
    return options, ref.write(placement, draw(st.sampled_from("tm")))


@settings(max_examples=300, deadline=None)
@given(positions())
def test_both_generators_agree_on_random_positions(case: tuple[dict[str, Any], str]) -> None:
    options, text = case
    rules = rules_from_mapping("random", options)
    board = Board(text, rules)
    placement, side = ref.read(text)
    expected = sorted(ref.moves(placement, side, options))
    assert sorted(map(str, board.generate_legal_moves())) == expected
    assert len(board.legal_moves) == len(expected)
    for move in expected:
        assert Move.from_str(move) in board.legal_moves
    assert board.perft(2) == ref.perft(placement, side, options, 2)


@pytest.mark.parametrize("extra", OPTION_SETS, ids=lambda extra: "-".join(map(str, extra)))
def test_the_fixed_positions_exercise_each_option(extra: dict[str, Any]) -> None:
    # Otherwise the comparison above could pass with an option that changes nothing.
    options = _options(extra)
    rules = rules_from_mapping("options", {"parent": "laohuqi", **extra})
    default = _options({"tigers": options["tigers"], "men": options["men"]})
    base = rules_from_mapping("base", {"parent": "laohuqi", **default})
    differs = False
    for text in POSITIONS:
        position = _fits(text, options)
        if position is not None:
            differs |= Board(position, rules).perft(2) != Board(position, base).perft(2)
    assert differs
