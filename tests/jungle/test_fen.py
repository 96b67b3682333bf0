"""docs/rules.md 7a: position strings (read, write, reject) and checked moves (push_move).

Every malformed position string raises InvalidFenError (a ValueError) whose message names the
problem; every illegal move raises IllegalMoveError (a ValueError) whose message names the
reason.
"""

from __future__ import annotations

import pytest

import doushouqi.jungle.board
from doushouqi.jungle.board import Board, IllegalMoveError, InvalidFenError, InvalidMoveError
from doushouqi.jungle.fen import MAX_HALFMOVE_CLOCK, MAX_MOVE_NUMBER, parse_fen
from doushouqi.jungle.squares import BLUE, RED

START = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1"
EMPTY_ROWS = "7/7/7/7/7/7/7/7/7"
LONE_LION = "7/7/7/7/7/7/7/7/6L"  # a Red lion on g1

# --- round trips ------------------------------------------------------------------------------

ROUND_TRIPS = [
    START,
    "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 0 1",
    "l6/3c3/1d1pet1/3wR2/Tr5/3W3/3P1L1/1CE2D1/7 w 0 1",  # docs/rules.md 6 perft position
    "6t/7/7/1R2r2/7/7/7/7/T6 w 3 9",  # both rats in the water
    "7/3C3/7/7/2rL3/7/7/7/c6 b 17 42",  # Blue rat in the water, Red cat on Blue's trap d8
    "3C3/7/7/7/7/7/7/3l3/7 b 0 30",  # Red cat on Blue's den, Blue lion on Red's trap d2
    "2e1E2/7/7/7/7/7/7/7/2L1l2 w 199 300",  # traps c9 e9 c1 e1 all taken
    "7/7/7/7/7/7/7/7/7 w 0 1",  # no animal at all (the game is over, but the string is valid)
    "rcd1wpt/l5e/7/7/7/7/7/E5L/RCD1WPT w 0 1",  # all 16 animals on the back rows
]


@pytest.mark.parametrize("fen", ROUND_TRIPS)
def test_round_trip(fen) -> None:
    board = Board(fen)
    assert board.fen() == fen
    assert Board(board.fen()).fen() == fen
    assert board.starting_fen == fen


def test_round_trip_after_moves() -> None:
    board = Board()
    board.replay(["a3a4", "g7g6", "a4a5", "g6g5", "a5a6", "a7a6"])  # Blue's rat takes
    fen = board.fen()
    assert fen == "l5t/1d3c1/2p1w2/r6/6e/7/2W1P1R/1C3D1/T5L w 0 4"
    copy = Board(fen)
    assert copy == board
    assert copy.fen() == fen


@pytest.mark.parametrize(
    ("given", "written"),
    [
        (f"{LONE_LION} w", f"{LONE_LION} w 0 1"),  # counters default to 0 and 1
        (f"{LONE_LION} b 12", f"{LONE_LION} b 12 1"),
        (f"{LONE_LION} r 5 7", f"{LONE_LION} w 5 7"),  # r read as Red, written w
        (f"  {LONE_LION}   w  ", f"{LONE_LION} w 0 1"),  # spaces around fields
    ],
)
def test_written_form(given, written) -> None:
    assert Board(given).fen() == written


RED_START_SQUARES = {"a1", "g1", "f2", "b2", "g3", "e3", "c3", "a3"}
BLUE_START_SQUARES = {"g9", "a9", "b8", "f8", "a7", "c7", "e7", "g7"}


@pytest.mark.parametrize(
    ("side", "turn", "movers"),
    [("w", RED, RED_START_SQUARES), ("r", RED, RED_START_SQUARES), ("b", BLUE, BLUE_START_SQUARES)],
)
def test_side_to_move(side, turn, movers) -> None:
    board = Board(START.replace(" w ", f" {side} "))
    assert board.turn == turn
    assert {str(m)[:2] for m in board.legal_moves} == movers


def test_counters_read_and_written() -> None:
    board = Board("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 17 42")
    assert (board.halfmove_clock, board.fullmove_number) == (17, 42)
    board.push_move("a7a6")  # Blue moves: the move number goes up after Blue's move
    assert board.fen() == "l5t/1d3c1/2p1w1e/r6/7/7/E1W1P1R/1C3D1/T5L w 18 43"
    board.push_move("a3a4")  # Red moves
    assert board.fen() == "l5t/1d3c1/2p1w1e/r6/7/E6/2W1P1R/1C3D1/T5L b 19 43"
    board.pop()
    board.pop()
    assert board.fen() == "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 17 42"


def test_capture_resets_halfmove_clock() -> None:
    board = Board("6c/7/7/7/7/3w3/3P3/7/7 w 57 80")
    board.push_move("d3d4")
    assert board.fen() == "6c/7/7/7/7/3P3/7/7/7 b 0 80"


# --- malformed position strings ---------------------------------------------------------------

MALFORMED = [
    # (id, position string, words the message must contain)
    ("row-too-short", "l5t/1d3c1/r1p1w1e/6/7/7/E1W1P1R/1C3D1/T5L w",
     r"row 6 \('6'\) has 6 squares, expected 7"),
    ("row-too-short-letters", "l5t/1d3c1/r1p1w1/7/7/7/E1W1P1R/1C3D1/T5L w",
     r"row 7 \('r1p1w1'\) has 6 squares, expected 7"),
    ("row-empty", "l5t/1d3c1/r1p1w1e//7/7/E1W1P1R/1C3D1/T5L w",
     r"row 6 \(''\) has 0 squares, expected 7"),
    ("row-too-long-digits", "7/7/7/7/4R3/7/7/7/7 w", r"row 5 \('4R3'\) has 8 squares"),
    ("row-too-long-letter", "7/7/7/7/7R/7/7/7/7 w", r"row 5 \('7R'\) has more than 7 squares"),
    ("row-too-long-pieces", "l5tr/1d3c1/2p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w",
     "row 9 .* has more than 7 squares"),
    ("8-rows", "l5t/1d3c1/r1p1w1e/7/7/E1W1P1R/1C3D1/T5L w", "expected 9 rows .* got 8"),
    ("10-rows", "l5t/1d3c1/r1p1w1e/7/7/7/7/E1W1P1R/1C3D1/T5L w", "expected 9 rows .* got 10"),
    ("unknown-letter-X", "l5t/1d3c1/r1p1w1e/7/3X3/7/E1W1P1R/1C3D1/T5L w",
     "unknown letter 'X' in row 5"),
    ("unknown-letter-k", "l5k/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w",
     "unknown letter 'k' in row 9"),
    ("unknown-letter-dash", "7/7/7/7/7/7/7/7/-6 w", "unknown letter '-' in row 1"),
    ("consecutive-digits", "7/7/7/7/34/7/7/7/7 w", r"bad empty-square count in row 5 \('34'\)"),
    ("consecutive-digits-2", "L15t/7/7/7/7/7/7/7/7 w", "bad empty-square count in row 9"),
    ("digit-8", "8/7/7/7/7/7/7/7/7 w", "bad empty-square count in row 9"),
    ("digit-0", "7/7/7/7/7/7/7/7/0L6 w", "bad empty-square count in row 1"),
    ("lion-in-water", "7/7/7/7/1L5/7/7/7/7 w",
     "the red lion stands in the water on b5; only rats swim"),
    ("elephant-in-water", "7/7/7/7/7/5e1/7/7/7 w", "the blue elephant stands in the water on f4"),
    ("cat-in-water-c6", "7/7/7/2C4/7/7/7/7/7 w", "the red cat stands in the water on c6"),
    ("red-on-own-den", "7/7/7/7/7/7/7/7/3C3 w", "the red cat stands on its own den d1"),
    ("blue-on-own-den", "3t3/7/7/7/7/7/7/7/7 w", "the blue tiger stands on its own den d9"),
    ("two-red-lions", "LL5/7/7/7/7/7/7/7/7 w", r"more than one red lion \(on a9 and b9\)"),
    ("two-blue-rats", "7/7/7/7/7/7/r5r/7/7 w", r"more than one blue rat \(on a3 and g3\)"),
    ("two-rats-in-water", "7/7/7/1rr4/7/7/7/7/7 w", r"more than one blue rat \(on b6 and c6\)"),
    ("side-x", f"{EMPTY_ROWS} x", "side to move must be .* got 'x'"),
    ("side-red-word", f"{EMPTY_ROWS} red", "side to move must be .* got 'red'"),
    ("side-missing", EMPTY_ROWS, "expected placement, side to move"),
    ("empty-string", "", "expected placement, side to move"),
    ("too-many-fields", f"{EMPTY_ROWS} w 0 1 x", "expected placement, side to move"),
    ("halfmove-negative", f"{EMPTY_ROWS} w -1 1", "halfmove clock must be .* from 0 to 9999"),
    ("move-number-0", f"{EMPTY_ROWS} w 0 0", "move number must be .* from 1 to 9999, got '0'"),
    ("halfmove-word", f"{EMPTY_ROWS} w a 1", "halfmove clock must be a whole number"),
    ("move-number-fraction", f"{EMPTY_ROWS} w 0 1.5", "move number must be a whole number"),
    ("move-number-word", f"{EMPTY_ROWS} b 3 x", "move number must be a whole number"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("fen", "message"), [c[1:] for c in MALFORMED], ids=[c[0] for c in MALFORMED]
)
def test_malformed_position_rejected(fen, message) -> None:
    with pytest.raises(InvalidFenError, match=message):
        Board(fen)


# --- the counters' range (MAX_HALFMOVE_CLOCK, MAX_MOVE_NUMBER) -------------------------------

BAD_COUNTERS = [
    "10000", "99999999999999999999", str(2**63), str(2**63 - 1), str(2**64), "9" * 5000,
    "-1", "-0", "+1", "+0", "1_000", "1e3", "0x10", "1.0", "١٢", "１２", "²", "1​",
]  # fmt: skip


@pytest.mark.parametrize("text", BAD_COUNTERS)
def test_counters_out_of_range_or_not_ascii_digits_are_refused(text: str) -> None:
    with pytest.raises(InvalidFenError, match="halfmove clock must be a whole number from 0 to"):
        Board(f"{EMPTY_ROWS} w {text} 1")
    with pytest.raises(InvalidFenError, match="move number must be a whole number from 1 to"):
        Board(f"{EMPTY_ROWS} w 0 {text}")


def test_counters_at_the_ends_of_their_range_are_read_and_written_back() -> None:
    assert (MAX_HALFMOVE_CLOCK, MAX_MOVE_NUMBER) == (9999, 9999)
    highest = f"{EMPTY_ROWS} w {MAX_HALFMOVE_CLOCK} {MAX_MOVE_NUMBER}"
    assert Board(highest).fen() == highest
    lowest = f"{EMPTY_ROWS} b 0 1"
    assert Board(lowest).fen() == lowest
    # Leading zeros are still the same whole number.
    board = Board(f"{EMPTY_ROWS} w 0009999 {'0' * 40}12")
    assert (board.halfmove_clock, board.fullmove_number) == (9999, 12)


def test_only_the_halfmove_clock_may_be_given() -> None:
    board = Board(f"{EMPTY_ROWS} w 37")
    assert (board.halfmove_clock, board.fullmove_number) == (37, 1)
    with pytest.raises(InvalidFenError, match="halfmove clock"):
        Board(f"{EMPTY_ROWS} w 10000")


def test_parse_fen_gives_the_fields() -> None:
    codes, turn, halfmove, fullmove = parse_fen(f"{EMPTY_ROWS} b 5 9")
    assert (codes, turn, halfmove, fullmove) == ([0] * 63, 1, 5, 9)
    assert doushouqi.jungle.board.InvalidFenError is InvalidFenError  # one class, re-exported


def test_invalid_fen_error_is_value_error() -> None:
    assert issubclass(InvalidFenError, ValueError)
    with pytest.raises(ValueError, match="expected 9 rows"):
        Board("7/7 w")


def test_position_string_must_be_text() -> None:
    with pytest.raises(InvalidFenError, match="must be text"):
        Board(123)  # type: ignore[arg-type]


def test_rejected_string_leaves_board_unchanged() -> None:
    board = Board()
    with pytest.raises(InvalidFenError):
        board.set_fen("7/7 w")
    assert board.fen() == START


@pytest.mark.parametrize(
    "fen", ["7/7/7/7/7/7/7/7/²5C w", "7/7/7/7/7/7/7/7/٧ w"], ids=["superscript-2", "arabic-indic-7"]
)
def test_non_ascii_digits_rejected(fen) -> None:
    with pytest.raises(InvalidFenError, match="unknown letter"):
        Board(fen)


@pytest.mark.parametrize(
    "counters", ["1_0 1", "+5 1", "0 1_000"], ids=["underscore", "plus-sign", "underscore-2"]
)
def test_counters_must_be_plain_digits(counters) -> None:
    with pytest.raises(InvalidFenError, match="must be a whole number from"):
        Board(f"{EMPTY_ROWS} w {counters}")


# --- push_move: illegal moves name their reason -----------------------------------------------

ILLEGAL = [
    # (id, position, move, words the message must contain)
    ("empty-square", START, "d3d4", "there is no animal on d3"),
    ("opponents-animal", START, "a7a6", "the blue rat on a7 is not yours: red to move"),
    ("own-den", "6c/7/7/7/7/7/7/3C3/7 w", "d2d1", "no animal may enter its own den"),
    ("own-den-from-c1", "6c/7/7/7/7/7/7/7/2E4 w", "c1d1", "own den"),
    ("water", START, "c3c4", "only the rat may enter the water; the red wolf cannot"),
    ("water-lion", "6c/7/7/7/3L3/7/7/7/7 w", "d5c5", "only the rat may enter the water"),
    ("diagonal", START, "e3d4", "an animal moves one square forwards, backwards or sideways"),
    ("two-squares", START, "a3a5", "one square forwards, backwards or sideways"),
    ("diagonal-lion", "6c/7/7/7/7/7/3L3/7/7 w", "d3c2", "d3c2 is neither a step nor a lake jump"),
    ("lion-too-far", "6c/7/7/7/7/7/3L3/7/7 w", "d3d5", "neither a step nor a lake jump"),
    ("own-animal", "6c/7/7/7/7/7/3C3/3D3/7 w", "d2d3", "d3 is occupied by your own cat"),
    ("stronger", "6c/7/7/7/7/3e3/3D3/7/7 w", "d3d4", "the red dog cannot take the elephant"),
    ("elephant-rat", "6c/7/7/7/7/3r3/3E3/7/7 w", "d3d4", "the red elephant cannot take the rat"),
    ("rat-from-water", "6c/7/7/7/2Re3/7/7/7/7 w", "c5d5", "the red rat cannot take the"),
    ("trapped-attacker", "7/7/7/7/7/7/3C3/3l3/7 b", "d2d3",
     "the blue lion stands in an enemy trap and cannot capture"),
    ("blocked-jump", "6c/7/7/7/2rL3/7/7/7/C6 w", "d5a5", "a rat in the water blocks the jump"),
    ("blocked-jump-vertical", "6c/7/7/7/2r4/7/2T4/7/C6 w", "c3c7", "a rat in the water blocks"),
    ("jump-onto-stronger", "6c/7/7/7/e2L3/7/7/7/C6 w", "d5a5", "red lion cannot take the elephant"),
    ("jump-onto-own", "6c/7/7/7/C2L3/7/7/7/7 w", "d5a5", "a5 is occupied by your own cat"),
    ("non-jumper-jumps", "6c/7/7/7/3E3/7/7/7/7 w", "d5a5", "only the lion and the tiger may jump"),
    ("pass", START, "0000", "a pass is only made for a player whose move time ran out"),
    ("game-over", "3C3/7/7/7/7/7/7/7/c6 b", "a1a2", r"the game is over \(den entered\)"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("fen", "move", "message"), [c[1:] for c in ILLEGAL], ids=[c[0] for c in ILLEGAL]
)
def test_illegal_move_names_reason(fen, move, message) -> None:
    board = Board(fen)
    with pytest.raises(IllegalMoveError, match=f"illegal move {move}: .*{message}"):
        board.push_move(move)
    assert board.fen() == Board(fen).fen()  # nothing moved
    assert board.move_stack == []


def test_illegal_move_error_is_value_error() -> None:
    assert issubclass(IllegalMoveError, ValueError)
    with pytest.raises(ValueError, match="own den"):
        Board("6c/7/7/7/7/7/7/3C3/7 w").push_move("d2d1")


@pytest.mark.parametrize("text", ["a3", "a3a", "a3a4a5", "z1a2", "a0a1", "h3h4", "a3-a4", ""])
def test_malformed_move_string(text) -> None:
    with pytest.raises(InvalidMoveError, match="invalid move"):
        Board().push_move(text)


def test_legal_move_accepted() -> None:
    board = Board()
    assert str(board.push_move("a3a4")) == "a3a4"
    assert str(board.push_move(" g7g6 ")) == "g7g6"
    assert board.fen() == "l5t/1d3c1/r1p1w2/6e/7/E6/2W1P1R/1C3D1/T5L w 2 2"


def _placement_square_by_square(board: Board) -> str:
    """The placement field written the plain way, square by square."""
    rows = []
    for row in range(8, -1, -1):
        text, empty = "", 0
        for square in range(row * 7, row * 7 + 7):
            piece = board.piece_at(square)
            if piece is None:
                empty += 1
                continue
            text += (str(empty) if empty else "") + piece.symbol()
            empty = 0
        rows.append(text + (str(empty) if empty else ""))
    return "/".join(rows)


@pytest.mark.parametrize("kept", [3, 8192])
def test_placement_with_rows_kept_or_forgotten(monkeypatch: pytest.MonkeyPatch, kept: int) -> None:
    # The rows' texts are kept between calls, and all forgotten once ``kept`` are: the field is
    # the same either way (3: forgotten every few rows).
    import random

    import doushouqi.jungle.fen as fen

    monkeypatch.setattr(fen, "_ROW_TEXTS_KEPT", kept)
    monkeypatch.setattr(fen, "_ROW_TEXTS", {})
    rng = random.Random(5)
    for _ in range(20):
        board = Board()
        for _ in range(60):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
            assert board.board_fen() == _placement_square_by_square(board)
            assert len(fen._ROW_TEXTS) <= kept
