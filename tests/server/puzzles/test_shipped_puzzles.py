"""Every shipped puzzle (server/data/puzzles.jsonl) is re-verified unique: all of them through
their stored proofs (each wrong move's stored refutation is checked, each right move's win
is searched), and a fixed sample again from scratch by the exhaustive solver, ignoring the
stored proof. Also: the file is well formed, themed as its lines show, and without twins."""

from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "tools"))

from load_tool import load_tool

from doushouqi.jungle.rules import BUILTIN_RULE_SETS
from doushouqi.server.puzzles import service as puzzles

CHUNKS = 20
SAMPLE = 30
#: What the package ships (the generator's --count; see docs/server.md "Puzzles").
MIN_SHIPPED = 1000
#: Jump-blocking puzzles shipped (made by ``--motifs jump``: docs/server.md "Puzzles").
MIN_JUMP_BLOCKING = 100


prove = load_tool("puzzles", "prove")
generate = load_tool("puzzles", "generate")
SHIPPED: tuple[dict[str, Any], ...] = puzzles.shipped()


def test_the_package_ships_enough_puzzles_of_every_kind() -> None:
    lines = puzzles.DATA.read_text("utf-8").splitlines()
    assert len(lines) == len(SHIPPED) >= MIN_SHIPPED  # every line parsed
    themes = Counter(t for p in SHIPPED for t in p["themes"])
    for theme in ("den_attack", "capture", "traps", "defence", "endgame", "rat_elephant"):
        assert themes[theme] > 0, theme
    assert themes["jump_blocking"] >= MIN_JUMP_BLOCKING
    jumps = [p for p in SHIPPED if "jump_blocking" in p["themes"]]
    assert {p["rules"] for p in jumps} == set(generate.RULES)  # every rule set it is made for
    assert {p["kind"] for p in jumps} == {"win", "defence"}  # the jump beats the rat, or not
    assert {p["rules"] for p in SHIPPED} == set(generate.RULES)


def test_each_puzzle_is_well_formed_and_themed_by_its_line() -> None:
    ids, keys = set(), set()
    for p in SHIPPED:
        assert p["id"] == generate.puzzle_id(p["fen"], p["rules"])
        assert p["rules"] in BUILTIN_RULE_SETS and p["kind"] in ("win", "defence")
        assert set(p["themes"]) <= set(puzzles.THEMES) and p["themes"]
        assert p["themes"] == prove.themes_of(p["fen"], p["rules"], p["kind"], p["line"])
        assert 800 <= p["rating"] <= 3000
        ids.add(p["id"])
        keys.add(prove.tactics.canonical_key(p["fen"], p["rules"]))
    assert len(ids) == len(keys) == len(SHIPPED)  # no twin (mirror image, colours swapped)


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_every_shipped_puzzle_is_unique_by_its_stored_proof(chunk: int) -> None:
    for puzzle in SHIPPED[chunk::CHUNKS]:
        prove.verify(puzzle)


@pytest.mark.parametrize("index", range(SAMPLE))
def test_a_sample_is_unique_from_scratch(index: int) -> None:
    picked = random.Random(12).sample(range(len(SHIPPED)), min(SAMPLE, len(SHIPPED)))
    if index < len(picked):
        prove.verify(SHIPPED[picked[index]], full=True)
