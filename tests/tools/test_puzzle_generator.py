"""The puzzle generator (tools/puzzles): a puzzle is kept only when its answer is unique at
every step, its stored proof re-verifies and a tampered one does not, and a tiny run of the
one command finds puzzles, deterministically, and resumes where it stopped."""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

from load_tool import load_tool

from doushouqi.jungle.board import Board

prove = load_tool("puzzles", "prove")
generate = load_tool("puzzles", "generate")


def hand(side: str, red: str, blue: str, rules: str = "wango") -> Board:
    position = prove.tactics.Hand("x", side, red, blue, "", "", rules=rules)
    return Board(position.fen(), rules)


def test_two_winning_moves_are_no_puzzle() -> None:
    board = hand("w", "Lc9 Te9", "rg1")  # both enter the den d9 at once
    assert prove.solver.solve(board, 1).move_names == ("c9d9", "e9d9")
    assert prove.find_win(board) is None
    assert prove.find_puzzle(board) is None


def test_a_unique_win_is_a_puzzle_with_its_themes() -> None:
    # the rat takes the elephant guarding d8 (a trap), then walks into the den
    board = hand("w", "Rd7 Lc3 Wa4", "ed8 tg9 dg7")
    found = prove.find_puzzle(board)
    assert found is not None and found["kind"] == "win" and found["depth"] == 2
    assert found["line"][0] == "d7d8" and found["line"][-1] == "d8d9"
    fen = prove.position_fen(board)
    themes = prove.themes_of(fen, "wango", "win", found["line"])
    assert {"den_attack", "rat_elephant", "traps", "capture"} <= set(themes)
    puzzle = {"fen": fen, "rules": "wango", **found}
    prove.verify(puzzle)
    prove.verify(puzzle, full=True)


def test_a_single_defence_is_a_puzzle() -> None:
    # only the cat taking the lion in Red's trap d2 stops d2d1
    board = hand("w", "Cc2 Eg5", "ld2 tg9 ra9")
    found = prove.find_puzzle(board)
    assert found is not None and found["kind"] == "defence" and found["line"] == ["c2d2"]
    fen = prove.position_fen(board)
    assert {"defence", "traps", "endgame"} <= set(
        prove.themes_of(fen, "wango", "defence", ["c2d2"])
    )
    prove.verify({"fen": fen, "rules": "wango", **found}, full=True)


def test_a_tampered_proof_or_line_fails_verification() -> None:
    board = hand("w", "Rd7 Lc3 Wa4", "ed8 tg9 dg7")
    found = prove.find_puzzle(board)
    assert found is not None
    puzzle = {"fen": prove.position_fen(board), "rules": "wango", **found}
    wrong_line = copy.deepcopy(puzzle)
    wrong_line["line"][0] = "c3c4"
    with pytest.raises(prove.VerifyError):
        prove.verify(wrong_line)
    with pytest.raises(prove.VerifyError):
        prove.verify(wrong_line, full=True)
    missing = copy.deepcopy(puzzle)
    missing["proof"]["steps"][0]["refute"].popitem()
    with pytest.raises(prove.VerifyError):
        prove.verify(missing)
    bad_refutation = copy.deepcopy(puzzle)
    refute = bad_refutation["proof"]["steps"][0]["refute"]
    alt = next(iter(refute))
    refute[alt] = "a1a1"
    with pytest.raises((prove.VerifyError, ValueError)):
        prove.verify(bad_refutation)


def run(out: Path, count: int, *extra: str) -> list[dict[str, object]]:
    args = ["--count", str(count), "--jobs", "1", "--policy", "greedy", "--no-progress"]
    assert generate.main([*args, "--out", str(out), *extra]) == 0
    return [json.loads(line) for line in out.read_text("utf-8").splitlines()]


def test_a_tiny_run_finds_proved_puzzles_deterministically_and_resumes(tmp_path: Path) -> None:
    first = run(tmp_path / "a.jsonl", 1, "--fresh")
    again = run(tmp_path / "b.jsonl", 1, "--fresh")
    assert first == again  # the same seed plays the same games
    assert len(first) == 1
    more = run(tmp_path / "a.jsonl", 2)  # resumes: appends, from the next game on
    assert len(more) == 2 and more[0] == first[0] and more[1]["id"] != first[0]["id"]
    progress = json.loads((tmp_path / "a.jsonl.progress").read_text("utf-8"))
    assert progress["puzzles"] == 2
    for puzzle in more:
        assert puzzle["rules"] in generate.RULES and puzzle["themes"]
        prove.verify(puzzle, full=True)


def test_motif_positions_keep_a_rat_against_a_big_animal_and_no_lone_animal() -> None:
    import random

    from doushouqi.jungle.squares import ELEPHANT, LION, RAT, TIGER, code_animal, code_color

    board = Board(rules="wango")
    rng = random.Random(3)
    for _ in range(20):
        small = generate.motif_position(board, rng)
        assert small is not None
        codes = [c for c in small.piece_codes() if c]
        mine = [code_animal(c) for c in codes if code_color(c) == small.turn]
        theirs = [code_animal(c) for c in codes if code_color(c) != small.turn]
        assert RAT in mine and {LION, TIGER, ELEPHANT} & set(theirs)
        assert 2 <= len(mine) <= 3 and 2 <= len(theirs) <= 3


def test_jump_blocking_is_read_from_the_line_by_the_rules_library() -> None:
    # Red's last animal, the rat on c3, is where the blue lion lands jumping from c7: only
    # c3c4 (into the lane) takes that winning jump away; c3b3 is a plain rat move
    board = hand("w", "Rc3", "lc7 wg9")
    fen = prove.position_fen(board)
    assert "jump_blocking" in prove.themes_of(fen, "wango", "defence", ["c3c4"])
    assert "jump_blocking" not in prove.themes_of(fen, "wango", "defence", ["c3b3"])
    # the same rat move into the water with no enemy jumper there blocks nothing
    board = hand("w", "Rc3", "wg9 la9")
    fen = prove.position_fen(board)
    assert "jump_blocking" not in prove.themes_of(fen, "wango", "defence", ["c3c4"])
    # unblocking: the rat leaves the lane and the lion then jumps across it (c3c7); without
    # the jump later in the line the rat's move is no jump blocking
    board = hand("w", "Lc3 Rc5", "wg9")
    fen = prove.position_fen(board)
    assert "jump_blocking" in prove.themes_of(fen, "wango", "win", ["c5d5", "g9g8", "c3c7"])
    assert "jump_blocking" not in prove.themes_of(fen, "wango", "win", ["c5d5", "g9g8", "c3d3"])


def test_a_jump_to_the_den_is_a_threat_in_four_and_the_rat_blocking_it_is_jump_blocking() -> None:
    # Blue to move; the red tiger a6 jumps to d6 across b6 c6 and walks d7 d8 d9: a den threat
    # in 4 moves. Only the blue rat's step c5c6 into the jump's lane meets it.
    board = hand("b", "Ta6 Da5 Pg4", "pg6 rc5")
    fen = prove.position_fen(board)
    assert prove.find_puzzle(board) is None  # not a defence against a threat of 1 or 2
    found = prove.find_puzzle(board, prove.JUMP_DEFENCE_THREATS)
    assert found is not None and found["kind"] == "defence" and found["depth"] == 4
    assert found["line"] == ["c5c6"]
    assert set(found["proof"]["steps"][0]["refute"].values()) == {"a6d6"}  # the jump refutes
    puzzle = {"fen": fen, "rules": "wango", **found}
    prove.verify(puzzle)
    prove.verify(puzzle, full=True)
    assert prove.themes_of(fen, "wango", "defence", ["c5c6"]) == [
        "jump_blocking",
        "defence",
        "endgame",
    ]
    # c5b5 swims too, but along the other rank: it blocks nothing
    assert "jump_blocking" not in prove.themes_of(fen, "wango", "defence", ["c5b5"])
    # a blue elephant on e8 guards the den's trap d8: the jump no longer wins in 4, and the
    # same rat move blocks a jump that does not matter
    board = hand("b", "Ta6 Da5 Pg4", "pg6 rc5 ee8")
    fen = prove.position_fen(board)
    assert "jump_blocking" not in prove.themes_of(fen, "wango", "defence", ["c5c6"])


def test_a_jump_made_before_the_enemy_rat_can_block_it_is_jump_blocking() -> None:
    # Red to move; the blue rat e5 would swim to e6 and block the tiger's jump g6d6 (across
    # f6 e6): the tiger jumps at once and walks d7 d8 d9 (classic: a lone rat never blocks its
    # own side's jump there, and Red has none)
    board = hand("w", "Tg6", "re5 lg4", rules="classic")
    fen = prove.position_fen(board)
    assert prove.find_puzzle(board) is None  # no win within 3
    found = prove.find_puzzle(board, prove.JUMP_DEFENCE_THREATS, prove.JUMP_WIN_HORIZON)
    assert found is not None and found["kind"] == "win" and found["depth"] == 4
    assert found["line"][0] == "g6d6" and found["line"][-1] == "d8d9"
    puzzle = {"fen": fen, "rules": "classic", **found}
    prove.verify(puzzle)
    prove.verify(puzzle, full=True)
    assert "jump_blocking" in prove.themes_of(fen, "classic", "win", found["line"])
    # the same jump and walk with the rat on a5, too far to block: a jump, not jump blocking
    board = hand("w", "Tg6", "ra5 lg4", rules="classic")
    fen = prove.position_fen(board)
    line = ["g6d6", "a5a4", "d6d7", "a4a3", "d7d8", "a3a2", "d8d9"]
    far = prove.find_puzzle(board, prove.JUMP_DEFENCE_THREATS, prove.JUMP_WIN_HORIZON)
    assert far is not None and far["line"] == line  # the same puzzle, and as unique
    assert "jump_blocking" not in prove.themes_of(fen, "classic", "win", line)
    # a red dog on c8 wins without the tiger: the rat's block would not matter
    board = hand("w", "Tg6 Dc8", "re5 lg4", rules="classic")
    fen = prove.position_fen(board)
    assert "jump_blocking" not in prove.themes_of(fen, "classic", "win", found["line"])


def test_jump_motif_positions_put_a_rat_beside_a_jump_that_lands_near_its_den() -> None:
    import random

    from doushouqi.jungle.squares import (
        DENS,
        JUMPS,
        LION,
        RAT,
        STEPS,
        TIGER,
        code_animal,
        code_color,
    )

    rng = random.Random(5)
    for attack, fewest in ((False, 4), (True, 3)):
        made = 0
        for _ in range(200):
            small = generate.jump_position(rng, "wango", attack)
            if small is None:
                continue
            made += 1
            codes = small.piece_codes()
            rat_side = 1 - small.turn if attack else small.turn
            rats = [
                q
                for q, c in enumerate(codes)
                if c and code_color(c) == rat_side and code_animal(c) == RAT
            ]
            # a jump landing within 3 steps of the rat's den, one rat step from its water
            near = [
                (landing, path)
                for q, c in enumerate(codes)
                if c and code_color(c) != rat_side and code_animal(c) in (LION, TIGER)
                for landing, path in JUMPS[q]
                if generate._steps_apart(landing, DENS[rat_side]) <= 3
            ]
            assert any(STEPS[rat] & path for rat in rats for _, path in near)
            animals = [c for c in codes if c]
            assert fewest <= len(animals) <= 6
        assert made > 20
