"""Each rule option on a small hand-made position: the engine core against the expected moves
(and against the rules library, which must agree)."""

from __future__ import annotations

import pytest
from tests.jungle.ai.helpers import engine_moves, fen_of, library_moves

from doushouqi.jungle.ai import Position
from doushouqi.jungle.board import Board
from doushouqi.jungle.rules import RuleSet


def moves_from(fen: str, rules: str | RuleSet, square: str) -> set[str]:
    """Destinations of the animal on ``square``; checks the library gives the same moves."""
    position = Position(fen, rules)
    moves = engine_moves(position)
    assert moves == library_moves(Board(fen, rules))
    return {m[2:] for m in moves if m[:2] == square}


# -------------------------------------------------------------------------- lake jumps

OWN_RAT_ON_PATH = fen_of("La5 Rb5 eg9")  # Red lion a5, Red rat in the water on b5


@pytest.mark.parametrize(
    ("rules", "can_jump"),
    [("wango", False), ("international", False), ("classic", True), ("classic-dog", True)],
)
def test_own_rat_blocks_jump_only_when_the_option_says_so(rules: str, can_jump: bool) -> None:
    assert ("d5" in moves_from(OWN_RAT_ON_PATH, rules, "a5")) is can_jump


@pytest.mark.parametrize("rules", ["wango", "classic", "international"])
def test_enemy_rat_always_blocks_jump(rules: str) -> None:
    assert moves_from(fen_of("La5 rb5 eg9"), rules, "a5") == {"a4", "a6"}
    assert moves_from(fen_of("La5 rg9"), rules, "a5") == {"a4", "a6", "d5"}


def test_vertical_jump_over_three_water_squares_and_rat_off_the_path() -> None:
    # Tiger c3 jumps to c7; the rat on b5 is in the other column of the lake.
    assert moves_from(fen_of("Tc3 rb5 eg9"), "wango", "c3") == {"b3", "c2", "d3", "c7"}
    assert "c7" not in moves_from(fen_of("Tc3 rc5 eg9"), "wango", "c3")


def test_jump_may_capture_a_weaker_animal_but_not_land_on_a_stronger_one() -> None:
    assert "d5" in moves_from(fen_of("La5 td5 eg9"), "wango", "a5")
    assert "d5" not in moves_from(fen_of("La5 ed5 lg9"), "wango", "a5")
    assert "d5" in moves_from(fen_of("La5 ld5 eg9"), "wango", "a5")  # same kind


def test_only_lion_and_tiger_jump_and_only_the_rat_swims() -> None:
    assert moves_from(fen_of("Pa5 eg9"), "wango", "a5") == {"a4", "a6"}
    assert moves_from(fen_of("Ra5 eg9"), "wango", "a5") == {"a4", "a6", "b5"}


def test_no_animal_enters_its_own_den() -> None:
    assert moves_from(fen_of("Rd2 eg9"), "wango", "d2") == {"c2", "e2", "d3"}


# ---------------------------------------------------------------------- rats and water


@pytest.mark.parametrize(
    ("rules", "allowed"),
    [("wango", False), ("international", False), ("classic", True), ("classic-dog", True)],
)
def test_rat_captures_rat_across_the_water_edge(rules: str, allowed: bool) -> None:
    # water -> land and land -> water
    assert ("b3" in moves_from(fen_of("Rb4 rb3 eg9"), rules, "b4")) is allowed
    assert ("b4" in moves_from(fen_of("Ra4 rb4 eg9"), rules, "a4")) is allowed


@pytest.mark.parametrize("rules", ["wango", "classic"])
def test_rats_on_the_same_side_of_the_edge_capture_each_other(rules: str) -> None:
    assert "c4" in moves_from(fen_of("Rb4 rc4 eg9"), rules, "b4")
    assert "a4" in moves_from(fen_of("Ra3 ra4 eg9"), rules, "a3")


def test_rat_takes_elephant_from_land_but_not_from_the_water() -> None:
    assert "a3" in moves_from(fen_of("Ra4 ea3 lg9"), "wango", "a4")
    assert "a4" not in moves_from(fen_of("Rb4 ea4 lg9"), "wango", "b4")


def test_elephant_takes_a_rat_only_in_its_own_trap() -> None:
    assert "a4" not in moves_from(fen_of("Ea3 ra4 lg9"), "wango", "a3")
    assert "d2" in moves_from(fen_of("Ed3 rd2 lg9"), "wango", "d3")


# --------------------------------------------------------------------------- traps


@pytest.mark.parametrize(
    ("rules", "allowed"), [("wango", False), ("classic", False), ("international", True)]
)
def test_animal_in_an_enemy_trap_captures_only_if_trapped_can_capture(
    rules: str, allowed: bool
) -> None:
    # Red lion in Blue's trap d8 next to a Blue cat; it may still move to empty squares.
    moves = moves_from(fen_of("Ld8 cd7 eg9"), rules, "d8")
    assert ("d7" in moves) is allowed
    assert {"c8", "e8", "d9"} <= moves


def test_animal_in_an_enemy_trap_has_rank_zero() -> None:
    # Blue's cat may take Red's lion standing in Blue's trap; not outside it.
    assert "d8" in moves_from(fen_of("Ld8 cd7 eg9", "b"), "wango", "d7")
    assert "d6" not in moves_from(fen_of("Ld6 cd7 eg9", "b"), "wango", "d7")
    # Red's own trap does not weaken Red's lion.
    assert "d2" not in moves_from(fen_of("Ld2 cd3 eg9", "b"), "wango", "d3")


# ---------------------------------------------------------------------------- ranks


@pytest.mark.parametrize(
    ("rules", "dog_takes_wolf"), [("wango", False), ("classic", False), ("classic-dog", True)]
)
def test_dog_and_wolf_ranks(rules: str, dog_takes_wolf: bool) -> None:
    assert ("a3" in moves_from(fen_of("Da2 wa3 eg9"), rules, "a2")) is dog_takes_wolf
    assert ("a2" in moves_from(fen_of("Da2 wa3 eg9", "b"), rules, "a3")) is not dog_takes_wolf


# ------------------------------------------------------------------------ game over


@pytest.mark.parametrize(
    "fen",
    [
        fen_of("Ld9 eg9 Ea3"),  # Red's lion in Blue's den
        fen_of("ld1 Eg1 ea7", "b"),  # Blue's lion in Red's den, Blue to move
        fen_of("Ea3 La5"),  # Blue has no animals
    ],
)
def test_no_legal_moves_once_the_game_is_over_on_the_board(fen: str) -> None:
    position = Position(fen, "wango")
    assert position.is_game_over_on_board()
    assert position.legal_moves() == []
    assert position.legal_move_count() == 0
    assert position.perft(2) == 0
