"""The endgame suite (``tests/jungle/ai/data/endgames.epd``): 5–6 animals, wango, each position
legal and in play, no two alike (mirror images included), a mix of classes.

Built by ``tools/conversion/build_endgames.py``, played by ``bench/tablebase_match.py`` (the
engine with tables against itself without: docs/engine-research.md, "With tables against without").
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path

from doushouqi.jungle.board import Board
from doushouqi.jungle.rules import find_rules
from doushouqi.jungle.tablebase.probe import probe

ROOT = Path(__file__).resolve().parents[3]
SUITE = ROOT / "tests" / "jungle" / "ai" / "data" / "endgames.epd"

sys.path.insert(0, str(ROOT / "tools"))
from load_tool import load_tool  # noqa: E402

builder = load_tool("conversion", "build_endgames")


def _animals(board: Board) -> tuple[int, int]:
    codes = [code for code in board.piece_codes() if code]
    reds = sum(1 for code in codes if code <= 8)
    return reds, len(codes) - reds


def test_the_suite_has_200_legal_distinct_positions_of_5_or_6_animals() -> None:
    entries = builder.read_suite(SUITE)
    assert len(entries) >= 200
    keys = set()
    for entry in entries:
        assert entry["rules"] == "wango", entry
        board = Board(entry["fen"], rules=find_rules(entry["rules"]))
        assert board.is_valid(), entry["fen"]
        assert board.outcome() is None and list(board.legal_moves), entry["fen"]
        reds, blues = _animals(board)
        assert reds + blues == entry["animals"] in (5, 6), entry
        assert reds >= 1 and blues >= 1, entry
        assert probe(board) is None  # not covered: the tables come in after captures
        key = builder.canonical_key(entry["fen"])
        assert key not in keys, f"duplicate (or a mirror image): {entry['fen']}"
        keys.add(key)
    assert {Board(e["fen"]).turn for e in entries} == {0, 1}


def test_each_class_agrees_with_its_score_and_none_dominates() -> None:
    entries = builder.read_suite(SUITE)
    for entry in entries:
        text = entry["score"]
        den = int(text[1:]) if text.startswith("D") else None
        cp = None if den is not None else int(text)
        if den is not None:
            assert abs(den) > builder.SHORT_DEN, entry  # short den fights are left out
        expected = {
            "won": (den or 0) > 0 or (cp or 0) >= 600,
            "lost": (den or 0) < 0 or (cp or 0) <= -600,
            "drawn": cp is not None and abs(cp) <= 60,
        }
        # The class is of both last depths; the score stored is the last one's, which must
        # agree for won, lost and drawn (unclear: the depths disagreed, or a middling score).
        assert entry["class"] in builder.CLASSES, entry
        if entry["class"] in expected:
            assert expected[entry["class"]], entry
    classes = Counter(e["class"] for e in entries)
    assert set(classes) == set(builder.CLASSES), classes
    assert max(classes.values()) <= 0.55 * len(entries), classes
    assert classes["drawn"] + classes["unclear"] >= 0.25 * len(entries), classes


def test_mirror_images_share_a_key() -> None:
    fen = builder.read_suite(SUITE)[0]["fen"]
    board = Board(fen)
    key = builder.canonical_key(fen)
    assert builder.canonical_key(board.flip_horizontal().fen()) == key
    assert builder.canonical_key(board.mirror().fen()) == key
    assert builder.canonical_key(board.mirror().flip_horizontal().fen()) == key
    # Another side to move is another position.
    placement, turn, *counters = fen.split()
    other = " ".join([placement, "b" if turn == "w" else "w", *counters])
    if Board(other).outcome() is None:
        assert builder.canonical_key(other) != key


def test_thinning_keeps_5_or_6_animals_where_they_stood() -> None:
    start = Board()
    start_codes = start.piece_codes()
    counts = set()
    for seed in range(40):
        fen = builder.thinned(start.fen(), random.Random(seed))
        if fen is None:
            continue
        board = Board(fen)
        reds, blues = _animals(board)
        assert reds >= 2 and blues >= 2 and reds + blues in (5, 6)
        counts.add(reds + blues)
        for square, code in enumerate(board.piece_codes()):
            assert code == 0 or code == start_codes[square]
        assert board.outcome() is None
    assert counts == {5, 6}
