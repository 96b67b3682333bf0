"""docs/rules.md 3.4: the lion and tiger jump across a lake (狮虎跳河).

Every jump of the board is listed in ``JUMPS`` (20 in all: from the side banks a4-a6/g4-g6 and
the middle bridge d4-d6 horizontally over 2 water squares, from b3 c3 e3 f3 / b7 c7 e7 f7
vertically over 3). Positions are written for Red; the ``mirror`` fixture replays each one
turned by 180° for Blue.
"""

from __future__ import annotations

import pytest

from doushouqi.jungle.board import Board, IllegalMoveError
from doushouqi.jungle.squares import parse_square

#: Red cat on a1, Blue cat on g9: neither stands next to a bank or a landing square.
BASE = "6c/7/7/7/7/7/7/7/C6 w"
#: No animal at all: the landing tests add both sides' animals themselves.
EMPTY = "7/7/7/7/7/7/7/7/7 w"

#: (take-off square, landing square, water squares crossed)
JUMPS = [
    ("a4", "d4", ("b4", "c4")),
    ("a5", "d5", ("b5", "c5")),
    ("a6", "d6", ("b6", "c6")),
    ("g4", "d4", ("f4", "e4")),
    ("g5", "d5", ("f5", "e5")),
    ("g6", "d6", ("f6", "e6")),
    ("d4", "a4", ("c4", "b4")),
    ("d4", "g4", ("e4", "f4")),
    ("d5", "a5", ("c5", "b5")),
    ("d5", "g5", ("e5", "f5")),
    ("d6", "a6", ("c6", "b6")),
    ("d6", "g6", ("e6", "f6")),
    ("b3", "b7", ("b4", "b5", "b6")),
    ("c3", "c7", ("c4", "c5", "c6")),
    ("e3", "e7", ("e4", "e5", "e6")),
    ("f3", "f7", ("f4", "f5", "f6")),
    ("b7", "b3", ("b6", "b5", "b4")),
    ("c7", "c3", ("c6", "c5", "c4")),
    ("e7", "e3", ("e6", "e5", "e4")),
    ("f7", "f3", ("f6", "f5", "f4")),
]

#: Every bank square and all the moves of a lone lion or tiger standing there.
BANK_MOVES = {
    # side banks: one jump towards the middle bridge
    "a4": {"a3", "a5", "d4"},
    "a5": {"a4", "a6", "d5"},
    "a6": {"a5", "a7", "d6"},
    "g4": {"g3", "g5", "d4"},
    "g5": {"g4", "g6", "d5"},
    "g6": {"g5", "g7", "d6"},
    # middle bridge: a jump across each lake
    "d4": {"d3", "d5", "a4", "g4"},
    "d5": {"d4", "d6", "a5", "g5"},
    "d6": {"d5", "d7", "a6", "g6"},
    # below the lakes: jump forwards over 3 water squares
    "b3": {"a3", "c3", "b2", "b7"},
    "c3": {"b3", "d3", "c2", "c7"},
    "e3": {"d3", "f3", "e2", "e7"},
    "f3": {"e3", "g3", "f2", "f7"},
    # above the lakes: jump backwards
    "b7": {"a7", "c7", "b8", "b3"},
    "c7": {"b7", "d7", "c8", "c3"},
    "e7": {"d7", "f7", "e8", "e3"},
    "f7": {"e7", "g7", "f8", "f3"},
}

JUMPERS = pytest.mark.parametrize("jumper", ["L", "T"], ids=["lion", "tiger"])

BLOCK_CASES = [(frm, to, water) for frm, to, path in JUMPS for water in path]
BLOCK_IDS = [f"{frm}{to}-rat-on-{water}" for frm, to, water in BLOCK_CASES]


def test_jump_table_is_complete() -> None:
    """Every landing of BANK_MOVES that is not a step is in JUMPS, and the other way round."""
    jumps = {(frm, to) for frm, to, _ in JUMPS}
    from_table = set()
    for frm, targets in BANK_MOVES.items():
        f, r = "abcdefg".index(frm[0]), int(frm[1])
        for to in targets:
            if abs("abcdefg".index(to[0]) - f) + abs(int(to[1]) - r) > 1:
                from_table.add((frm, to))
    assert from_table == jumps
    assert len(jumps) == 20


@JUMPERS
@pytest.mark.parametrize("square", list(BANK_MOVES))
def test_lone_jumper_on_each_bank(jumper, square, mirror, put, moves_from) -> None:
    board = Board(mirror(put(BASE, **{square: jumper})))
    assert moves_from(board, mirror(square)) == mirror(BANK_MOVES[square])


@JUMPERS
@pytest.mark.parametrize(
    ("square", "expected"),
    [
        ("a3", {"a2", "a4", "b3"}),  # on the a-file bridge, below the lakes' side
        ("d3", {"c3", "e3", "d2", "d4"}),  # below the middle bridge
        ("d7", {"c7", "e7", "d6", "d8"}),
        ("g7", {"g6", "g8", "f7"}),
    ],
    ids=["a3", "d3", "d7", "g7"],
)
def test_no_jump_without_a_lake_alongside(jumper, square, expected, mirror, put, moves_from):
    board = Board(mirror(put(BASE, **{square: jumper})))
    assert moves_from(board, mirror(square)) == mirror(expected)


@pytest.mark.parametrize("animal", list("RCDWPE"))
@pytest.mark.parametrize(
    ("frm", "to"), [(f, t) for f, t, _ in JUMPS], ids=[f + t for f, t, _ in JUMPS]
)
def test_other_animals_cannot_jump(animal, frm, to, mirror, put, moves_from) -> None:
    # Red tiger a1 and Blue cat g9 keep the game on; neither is near a lake.
    board = Board(mirror(put("6c/7/7/7/7/7/7/7/T6 w", **{frm: animal})))
    assert mirror(to) not in moves_from(board, mirror(frm))
    with pytest.raises(IllegalMoveError, match="only the lion and the tiger may jump"):
        board.push_move(mirror(frm + to))


# --- blocking rats --------------------------------------------------------------------------


@pytest.mark.parametrize("rules", ["wango", "classic"])
@JUMPERS
@pytest.mark.parametrize(("frm", "to", "water"), BLOCK_CASES, ids=BLOCK_IDS)
def test_enemy_rat_on_the_path_blocks(rules, jumper, frm, to, water, mirror, put, moves_from):
    board = Board(mirror(put(BASE, **{frm: jumper, water: "r"})), rules=rules)
    assert moves_from(board, mirror(frm)) == mirror(BANK_MOVES[frm] - {to})
    with pytest.raises(IllegalMoveError, match="a rat in the water blocks the jump"):
        board.push_move(mirror(frm + to))


@pytest.mark.parametrize(("rules", "blocks"), [("wango", True), ("classic", False)])
@JUMPERS
@pytest.mark.parametrize(("frm", "to", "water"), BLOCK_CASES, ids=BLOCK_IDS)
def test_own_rat_on_the_path(rules, blocks, jumper, frm, to, water, mirror, put, moves_from):
    """own_rat_blocks_jump: any rat blocks under wango, only an enemy rat under classic."""
    board = Board(mirror(put(BASE, **{frm: jumper, water: "R"})), rules=rules)
    expected = BANK_MOVES[frm] - {to} if blocks else BANK_MOVES[frm]
    assert moves_from(board, mirror(frm)) == mirror(expected)


@pytest.mark.parametrize(
    ("rules", "blocks"),
    [("wango", True), ("international", True), ("classic", False), ("classic-dog", False)],
)
def test_own_rat_blocks_jump_option_per_rule_set(rules, blocks, mirror, moves_from) -> None:
    # Red lion d5, Red rat c5 (own rat on the path to a5), Blue rat f5 (enemy, path to g5).
    board = Board(mirror("6c/7/7/7/2RL1r1/7/7/7/7 w"), rules=rules)
    expected = {"d4", "d6"} if blocks else {"d4", "d6", "a5"}
    assert moves_from(board, mirror("d5")) == mirror(expected)


@JUMPERS
@pytest.mark.parametrize(
    ("frm", "blue_rat", "red_rat"),
    [
        ("d5", "b4", "e6"),  # both rats in the lakes, but on other rows
        ("d4", "c5", "f6"),
        ("b3", "c5", "c4"),  # same lake, other column
        ("f7", "e4", "e6"),
    ],
)
def test_rat_off_the_path_does_not_block(jumper, frm, blue_rat, red_rat, mirror, put, moves_from):
    board = Board(mirror(put(EMPTY, **{frm: jumper, blue_rat: "r", red_rat: "R"})))
    assert moves_from(board, mirror(frm)) == mirror(BANK_MOVES[frm])


def test_rat_leaving_the_path_unblocks(mirror, moves_from) -> None:
    # Red lion d5, Blue rat c5 on the path to a5; the rat swims on to c6 (off row 5).
    board = Board(mirror("6c/7/7/7/2rL3/7/7/7/C6 b"))
    assert moves_from(board, mirror("d5")) == set()  # Blue to move
    board.push_move(mirror("c5c6"))
    assert moves_from(board, mirror("d5")) == mirror({"d4", "d6", "a5", "g5"})
    board.push_move(mirror("d5a5"))
    assert board.piece_at(parse_square(mirror("a5"))).animal_name == "lion"


# --- landing square ---------------------------------------------------------------------------

LANDING = [
    # (occupant of the landing square, lion may land, tiger may land)
    ("r", True, True),  # weaker enemies are captured
    ("c", True, True),
    ("d", True, True),
    ("w", True, True),
    ("p", True, True),
    ("t", True, True),  # tiger takes tiger (equal rank)
    ("l", True, False),  # lion takes lion; a tiger may not jump onto a lion
    ("e", False, False),  # stronger: not allowed
    ("D", False, False),  # own animal: not allowed
    ("E", False, False),
]
LANDING_JUMPS = [("d5", "a5"), ("a4", "d4"), ("c3", "c7"), ("f7", "f3"), ("d6", "g6")]


@pytest.mark.parametrize(("frm", "to"), LANDING_JUMPS, ids=[f + t for f, t in LANDING_JUMPS])
@pytest.mark.parametrize(
    ("occupant", "lion_may", "tiger_may"), LANDING, ids=[c[0] for c in LANDING]
)
@JUMPERS
def test_landing_square(jumper, occupant, lion_may, tiger_may, frm, to, mirror, put, moves_from):
    fen = put(EMPTY, **{frm: jumper, to: occupant})
    if occupant.isupper():
        fen = put(fen, g9="c")  # Blue needs an animal for the game to be on
    board = Board(mirror(fen))
    may = lion_may if jumper == "L" else tiger_may
    assert (mirror(to) in moves_from(board, mirror(frm))) is may
    if may:
        board.push_move(mirror(frm + to))
        piece = board.piece_at(parse_square(mirror(to)))
        assert piece is not None and piece.symbol().upper() == jumper
        assert board.halfmove_clock == 0  # it was a capture
    else:
        with pytest.raises(IllegalMoveError, match=r"cannot take|occupied by your own"):
            board.push_move(mirror(frm + to))
