"""docs/rules.md 4: who may capture whom (ranks, rat and elephant, traps, water and land).

Positions are written for Red; the ``mirror`` fixture replays each one turned by 180° with the
colours swapped, so Blue's captures and Blue's traps (c9 e9 d8) are checked as well.
"""

from __future__ import annotations

import pytest

from doushouqi.jungle.board import Board, IllegalMoveError
from doushouqi.jungle.squares import parse_square

ANIMALS = "RCDWPTLE"

# Who may capture whom on open land: row = attacker, column = defender (R C D W P T L E),
# "x" = may capture. Written out by hand from docs/rules.md 2 and 4.1-4.2.
WOLF_OVER_DOG = {  # wango, classic, international: E8 L7 T6 P5 W4 D3 C2 R1
    #     RCDWPTLE
    "R": "x......x",  # rat takes rat and elephant only
    "C": "xx......",
    "D": "xxx.....",
    "W": "xxxx....",
    "P": "xxxxx...",
    "T": "xxxxxx..",
    "L": "xxxxxxx.",
    "E": ".xxxxxxx",  # elephant takes everything but the rat
}
DOG_OVER_WOLF = {  # classic-dog: dog 4 > wolf 3
    **WOLF_OVER_DOG,
    "D": "xxxx....",
    "W": "xx.x....",
}
TABLES = {"wango": WOLF_OVER_DOG, "classic": WOLF_OVER_DOG, "classic-dog": DOG_OVER_WOLF}
EMPTY = "7/7/7/7/7/7/7/7/7 w"
PAIRS = [(a, d) for a in ANIMALS for d in ANIMALS]
PAIR_IDS = [f"{a}x{d.lower()}" for a, d in PAIRS]


def may_take(table: dict[str, str], attacker: str, defender: str) -> bool:
    return table[attacker.upper()][ANIMALS.index(defender.upper())] == "x"


# --- 4: ranks on open land ----------------------------------------------------------------------


@pytest.mark.parametrize("rules", list(TABLES))
@pytest.mark.parametrize(("attacker", "defender"), PAIRS, ids=PAIR_IDS)
def test_rank_order(rules, attacker, defender, mirror, put, moves_from) -> None:
    # Red attacker on d3, Blue defender on d4 (both plain land squares), Red to move.
    board = Board(mirror(put(EMPTY, d3=attacker, d4=defender.lower())), rules=rules)
    assert (mirror("d4") in moves_from(board, mirror("d3"))) is may_take(
        TABLES[rules], attacker, defender
    )


@pytest.mark.parametrize(("rules", "wolf_takes_dog", "dog_takes_wolf"), [
    ("wango", True, False),
    ("classic", True, False),
    ("international", True, False),
    ("classic-dog", False, True),
])  # fmt: skip
def test_wolf_and_dog_per_rule_set(rules, wolf_takes_dog, dog_takes_wolf, mirror, moves_from):
    # Red wolf d3 faces Blue dog d4; Red dog c7 faces Blue wolf c8.
    board = Board(mirror("7/2w4/2D4/7/7/3d3/3W3/7/7 w"), rules=rules)
    assert (mirror("d4") in moves_from(board, mirror("d3"))) is wolf_takes_dog
    assert (mirror("c8") in moves_from(board, mirror("c7"))) is dog_takes_wolf


@pytest.mark.parametrize("animal", list(ANIMALS))
def test_equal_ranks_the_side_to_move_takes(animal, mirror, put, moves_from) -> None:
    fen = put(EMPTY, d3=animal, d4=animal.lower())
    red_to_move = Board(mirror(fen))
    assert moves_from(red_to_move, mirror("d3")) >= mirror({"d4"})
    blue_to_move = Board(mirror(fen.replace(" w", " b")))
    assert moves_from(blue_to_move, mirror("d4")) >= mirror({"d3"})


def test_capture_removes_the_defender(mirror) -> None:
    board = Board(mirror("6c/7/7/7/7/3w3/3P3/7/7 w 7 5"))
    board.push_move(mirror("d3d4"))
    assert board.piece_at(parse_square(mirror("d4"))).animal_name == "leopard"
    assert board.piece_at(parse_square(mirror("d3"))) is None
    assert board.halfmove_clock == 0


# --- 4.1 rat and elephant -----------------------------------------------------------------------


def test_rat_takes_elephant(mirror, moves_from) -> None:
    board = Board(mirror("7/7/7/7/7/3e3/3R3/7/7 w"))
    assert moves_from(board, mirror("d3")) == mirror({"c3", "e3", "d2", "d4"})
    board.push_move(mirror("d3d4"))
    assert board.piece_at(parse_square(mirror("d4"))).animal_name == "rat"


def test_elephant_cannot_take_rat(mirror, moves_from) -> None:
    board = Board(mirror("7/7/7/7/7/3r3/3E3/7/7 w"))
    assert moves_from(board, mirror("d3")) == mirror({"c3", "e3", "d2"})
    with pytest.raises(IllegalMoveError, match="cannot take the rat"):
        board.push_move(mirror("d3d4"))


# --- 4.4 water and land -------------------------------------------------------------------------


@pytest.mark.parametrize("rules", ["wango", "classic", "international"])
@pytest.mark.parametrize(
    ("rat", "elephant"), [("c5", "d5"), ("b6", "b7"), ("e4", "e3"), ("f4", "g4"), ("b5", "a5")]
)
def test_rat_in_water_cannot_take_elephant_on_land(rules, rat, elephant, mirror, put, moves_from):
    board = Board(mirror(put(EMPTY, **{rat: "R", elephant: "e"})), rules=rules)
    assert mirror(elephant) not in moves_from(board, mirror(rat))
    with pytest.raises(IllegalMoveError, match="cannot take the elephant"):
        board.push_move(mirror(rat + elephant))


@pytest.mark.parametrize("rules", ["wango", "classic", "international"])
@pytest.mark.parametrize("animal", list("CDWPTLE"))
def test_land_animal_cannot_take_rat_in_water(rules, animal, mirror, put, moves_from) -> None:
    # Red animal on d5 between the lakes, Blue rat beside it in the water on c5.
    board = Board(mirror(put(EMPTY, d5=animal, c5="r")), rules=rules)
    reachable = moves_from(board, mirror("d5"))
    assert mirror("c5") not in reachable
    assert mirror({"d4", "d6"}) <= reachable
    with pytest.raises(IllegalMoveError, match="only the rat may enter the water"):
        board.push_move(mirror("d5c5"))


@pytest.mark.parametrize("rules", ["wango", "classic"])
@pytest.mark.parametrize(
    ("red", "blue"),
    [("b5", "c5"), ("c4", "c5"), ("f6", "e6"), ("e4", "e5")],
    ids=["b5xc5", "c4xc5", "f6xe6", "e4xe5"],
)
def test_two_rats_in_water_capture_each_other(rules, red, blue, mirror, put, moves_from) -> None:
    fen = put(EMPTY, **{red: "R", blue: "r"})
    assert mirror(blue) in moves_from(Board(mirror(fen), rules=rules), mirror(red))
    blue_board = Board(mirror(fen.replace(" w", " b")), rules=rules)
    assert mirror(red) in moves_from(blue_board, mirror(blue))


ACROSS_EDGE = [
    # (Red rat, Blue rat): one on land, one in the water next to it
    ("d5", "c5"),  # land -> water, sideways
    ("c5", "d5"),  # water -> land
    ("b3", "b4"),  # land -> water, forwards
    ("f7", "f6"),  # land -> water, backwards
    ("e6", "e7"),  # water -> land
    ("a4", "b4"),
]


@pytest.mark.parametrize(
    ("rules", "allowed"),
    [("wango", False), ("international", False), ("classic", True), ("classic-dog", True)],
)
@pytest.mark.parametrize(("red", "blue"), ACROSS_EDGE, ids=[r + "x" + b for r, b in ACROSS_EDGE])
def test_rat_takes_rat_across_the_water_edge(rules, allowed, red, blue, mirror, put, moves_from):
    """rat_captures_across_water: no under wango/international, yes under classic."""
    board = Board(mirror(put(EMPTY, **{red: "R", blue: "r"})), rules=rules)
    assert (mirror(blue) in moves_from(board, mirror(red))) is allowed


# --- 4.3 traps ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("attacker", "defender"), PAIRS, ids=PAIR_IDS)
def test_enemy_in_your_trap_has_rank_zero(attacker, defender, mirror, put, moves_from) -> None:
    # A Blue animal on Red's trap d2 is taken by any Red animal beside it (here on d3).
    board = Board(mirror(put(EMPTY, d3=attacker, d2=defender.lower())))
    assert mirror("d2") in moves_from(board, mirror("d3"))


TRAP_CASES = [
    # (description, position, attacker square, trap square)
    ("rat-takes-lion-on-d2", "7/7/7/7/7/7/7/2Rl3/7 w", "c2", "d2"),
    ("rat-takes-elephant-on-c1", "7/7/7/7/7/7/7/2R4/2e4 w", "c2", "c1"),
    ("rat-takes-lion-on-e1", "7/7/7/7/7/7/7/7/4lR1 w", "f1", "e1"),
    ("elephant-takes-rat-on-c1", "7/7/7/7/7/7/7/7/1Er4 w", "b1", "c1"),
    ("elephant-takes-rat-on-d2", "7/7/7/7/7/7/3E3/3r3/7 w", "d3", "d2"),
    ("cat-takes-elephant-on-e1", "7/7/7/7/7/7/7/4C2/4e2 w", "e2", "e1"),
    ("dog-takes-lion-on-d2", "7/7/7/7/7/7/7/3lD2/7 w", "e2", "d2"),
]


@pytest.mark.parametrize(
    ("fen", "frm", "trap"), [c[1:] for c in TRAP_CASES], ids=[c[0] for c in TRAP_CASES]
)
def test_weak_animal_takes_strong_one_in_its_trap(fen, frm, trap, mirror, moves_from) -> None:
    board = Board(mirror(fen))
    assert mirror(trap) in moves_from(board, mirror(frm))
    attacker = board.piece_at(parse_square(mirror(frm)))
    board.push_move(mirror(frm + trap))
    assert board.piece_at(parse_square(mirror(trap))) == attacker
    assert board.halfmove_clock == 0


OFF_TRAP_CASES = [
    # the same meetings next to, not on, a trap: ranks hold
    ("rat-vs-lion-on-c3", "7/7/7/7/7/7/2l4/2R4/7 w", "c2", "c3"),
    ("elephant-vs-rat-on-b2", "7/7/7/7/7/7/7/1r5/1E5 w", "b1", "b2"),
    ("cat-vs-elephant-on-c2", "7/7/7/7/7/7/7/2e4/2C4 w", "c1", "c2"),
    ("dog-vs-lion-on-e2", "7/7/7/7/7/7/7/4l2/4D2 w", "e1", "e2"),
]


@pytest.mark.parametrize(
    ("fen", "frm", "to"), [c[1:] for c in OFF_TRAP_CASES], ids=[c[0] for c in OFF_TRAP_CASES]
)
def test_off_the_trap_ranks_hold(fen, frm, to, mirror, moves_from) -> None:
    board = Board(mirror(fen))
    assert mirror(to) not in moves_from(board, mirror(frm))


@pytest.mark.parametrize(("attacker", "defender"), PAIRS, ids=PAIR_IDS)
def test_own_trap_does_not_weaken(attacker, defender, mirror, put, moves_from) -> None:
    # A Red animal standing on Red's own trap d2 keeps its rank against a Blue attacker on d3.
    board = Board(mirror(put(EMPTY, d3=attacker.lower(), d2=defender).replace(" w", " b")))
    expected = may_take(WOLF_OVER_DOG, attacker, defender)
    assert (mirror("d2") in moves_from(board, mirror("d3"))) is expected


def test_animal_in_own_trap_may_capture(mirror, moves_from) -> None:
    # Red lion on its own trap d2 takes a Blue tiger on d3.
    board = Board(mirror("7/7/7/7/7/7/3t3/3L3/7 w"))
    assert moves_from(board, mirror("d2")) == mirror({"c2", "e2", "d3"})


@pytest.mark.parametrize(
    ("rules", "trapped_can_capture"),
    [("wango", False), ("classic", False), ("classic-dog", False), ("international", True)],
)
@pytest.mark.parametrize(("attacker", "defender"), PAIRS, ids=PAIR_IDS)
def test_animal_in_enemy_trap_cannot_capture(
    rules, trapped_can_capture, attacker, defender, mirror, put, moves_from
):
    """trapped_can_capture: a Blue animal on Red's trap d2 attacks a Red animal on d3 — never
    under wango/classic, at its full (not zero) rank under international."""
    board = Board(
        mirror(put(EMPTY, d2=attacker.lower(), d3=defender).replace(" w", " b")), rules=rules
    )
    table = DOG_OVER_WOLF if rules == "classic-dog" else WOLF_OVER_DOG
    expected = trapped_can_capture and may_take(table, attacker, defender)
    reachable = moves_from(board, mirror("d2"))
    assert (mirror("d3") in reachable) is expected
    assert mirror({"c2", "e2", "d1"}) <= reachable  # it still moves, into Red's den even


@pytest.mark.parametrize("rules", ["wango", "classic"])
def test_trapped_attacker_message(rules, mirror) -> None:
    board = Board(mirror("7/7/7/7/7/7/3C3/3l3/7 b"), rules=rules)
    with pytest.raises(IllegalMoveError, match="stands in an enemy trap and cannot capture"):
        board.push_move(mirror("d2d3"))


def test_leaving_a_trap_restores_rank(mirror, moves_from) -> None:
    # Blue lion on Red's trap d2, Red cat c3, Red tiger g1. A cat beside the trap would take
    # the lion; once the lion steps out to d3 the cat cannot, and the lion can take the cat.
    assert mirror("d2") in moves_from(Board(mirror("7/7/7/7/7/7/7/2Cl3/6T w")), mirror("c2"))
    board = Board(mirror("7/7/7/7/7/7/2C4/3l3/6T b"))
    assert moves_from(board, mirror("d2")) == mirror({"c2", "e2", "d1", "d3"})
    board.push_move(mirror("d2d3"))
    assert mirror("d3") not in moves_from(board, mirror("c3"))
    board.push_move(mirror("g1g2"))
    assert mirror("c3") in moves_from(board, mirror("d3"))
    board.push_move(mirror("d3c3"))
    assert board.piece_at(parse_square(mirror("c3"))).animal_name == "lion"
